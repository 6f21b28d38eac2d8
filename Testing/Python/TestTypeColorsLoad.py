"""Process 2 of the type-colour test (Python.TypeColorsLoad): a fresh pvbatch
loads the state Python.TypeColors saved and finds the chosen colour and the
"Macroscope type colours" link: every view draws the chosen colour, and a
change on one display after the load reaches all of them."""
import json
import os

import macroscope_testing as mt
import type_colors_common as tcc

args = mt.parse_args()
from paraview import servermanager
from paraview.simple import *

shared = tcc.shared_dir(args)
state = os.path.join(shared, "colors.pvsm")
mt.check(os.path.isfile(state), "Python.TypeColors left no state in %s: run it first "
         "(ctest -R TypeColors)" % shared)
with open(os.path.join(shared, "expected.json")) as f:
    expected = json.load(f)
X = expected["X"]

mt.load_plugin(args, globals())
import macroscope

LoadState(state)
displays = macroscope.colors.displays()
mt.check(len(displays) == expected["displays"], "%d Macroscope displays after the load, %d saved"
         % (len(displays), expected["displays"]))
link = servermanager.ProxyManager().SMProxyManager.GetRegisteredLink(macroscope.colors.LINK_NAME)
mt.check(link is not None, "the link %r did not survive the state file" % macroscope.colors.LINK_NAME)
linked = macroscope.colors._linked_proxies(link)
mt.check(len(linked) == len(displays) and all(d.SMProxy in linked for d in displays),
         "the reloaded link holds %d proxies, not the %d displays" % (len(linked), len(displays)))
mt.check(macroscope.type_colors() == {X: "#ff00ff"}, "type_colors() after the load: %r"
         % macroscope.type_colors())

pxm = servermanager.ProxyManager()
names = {}  # run -> the reader's Types names


def type_names(display):
    run = pxm.GetProxyName("sources", display.Input.SMProxy)[-1]
    if run not in names:
        types = servermanager.Fetch(FindSource("reader" + run), idx=5)
        names[run] = mt.column(types, "Name")
    return names[run]


def check_all(color, where):
    for view in GetRenderViews():
        Render(view)
    typed = [d for d in displays if tcc.rtype(d) in
             ("Timeline", "Temporal Overview", "Spatiotemporal Overview", "Treemap",
              "Topology-Time 3D")]
    mt.check(len(typed) == 11, "%s: %d displays draw types, 11 expected" % (where, len(typed)))
    for display in typed:
        tcc.check_type_drawn(display, type_names(display), X, color, where)


check_all((255, 0, 255), "after the load")

# One display edited after the load: the link still carries it to all.
displays[-1].TypeColors = [X, "#00ff00"]
for display in displays:
    mt.check(list(display.TypeColors) == [X, "#00ff00"],
             "a display did not follow the edit after the load: %r" % list(display.TypeColors))
check_all((0, 255, 0), "after an edit following the load")
print("fresh process: %d displays linked, %s drawn in the chosen colour, edits still shared"
      % (len(displays), X))
