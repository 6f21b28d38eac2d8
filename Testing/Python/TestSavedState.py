"""What the plugin adds to a saved state file (Plugin/vtkMacroscopeSavedState):
the Macroscope version, and the layouts listed in the order they were made,
which is the order the GUI makes their tabs in when it loads the state (the
proxy manager alone would list them by name). GUI.StateLoad checks the tabs
of the demo's states in the real GUI."""
import os
import re
import xml.etree.ElementTree as ET

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *

mt.load_plugin(args, globals())

# Made in an order that is not alphabetical, each with a view of its own.
made = ["Zeta", "Alpha", "Mid", "Beta"]
for name in made:
    layout = CreateLayout(name)
    view = CreateView("RenderView")
    AssignViewToLayout(view=view, layout=layout, hint=0)

path = os.path.join(args.output, "saved.pvsm")
os.makedirs(args.output, exist_ok=True)
SaveState(path)
state = ET.parse(path).getroot().find("ServerManagerState")
mt.check(state is not None, "%s has no ServerManagerState" % path)

collections = [c for c in state.findall("ProxyCollection") if c.get("name") == "layouts"]
mt.check(len(collections) == 1, "%s has %d layouts collections" % (path, len(collections)))
listed = [item.get("name") for item in collections[0].findall("Item")]
ours = [name for name in listed if name in made]
mt.check(ours == made, "the state lists the layouts %s, made in the order %s" % (ours, made))
ids = [int(item.get("id")) for item in collections[0].findall("Item")]
mt.check(ids == sorted(ids), "the layouts' ids are not in rising order: %s" % ids)

versions = state.findall("Macroscope")
mt.check(len(versions) == 1 and re.fullmatch(r"\d+\.\d+\.\d+", versions[0].get("version") or ""),
         "the state carries %d Macroscope elements: %s"
         % (len(versions), [v.attrib for v in versions]))
mt.check(state.get("version", "").startswith("5.11"),
         "ServerManagerState's own version is %r, not ParaView's" % state.get("version"))
print("saved state: layouts %s, Macroscope %s" % (ours, versions[0].get("version")))
