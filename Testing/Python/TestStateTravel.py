"""State files travel (docs/state-files.md): a state and its traces
copied to another directory, the originals deleted, load with
`LoadState(state, data_directory=..., restrict_to_data_directory=True)` and
give the same outputs; a state whose trace moved away names the missing file
and the way to point at its new place.

The session: an OTF2 trace and its Pajé twin read with a HierarchyFile
(ranks regrouped by parity) and sliced (one input each), Streamed Time
Slicing with a HierarchyFile and a CacheDirectory, and the Topology-Time
Scene of a TopologyFile (network.dot, on a plain read of the trace): every file property of the plugin
that names a user's file. Checked after the load from the new directory:
  - every file property points into the new directory, none at the old;
  - every output port's SHA-256 equals the one before the move;
  - the hierarchy file was read there (the root is the file's "grid").
Then the same state loaded without a data directory, once the traces have
moved again: each reader's error names its missing file, says it does not
exist and points at data_directory."""
import json
import os
import shutil

import macroscope_testing as mt
import state_fresh

args = mt.parse_args()
from paraview import servermanager  # noqa: E402
from paraview.simple import *  # noqa: E402,F403

mt.load_plugin(args, globals())
origin = os.path.join(args.output, "origin", "run")
moved = os.path.join(args.output, "elsewhere", "copied-run")
gone = os.path.join(args.output, "third-place")
for folder in (os.path.dirname(origin), os.path.dirname(moved), gone):
    shutil.rmtree(folder, ignore_errors=True)
summary = mt.synthesize(args, os.path.join(origin, "trace"), "--clusters", "2", "--nodes-per-cluster",
                        "2", "--ranks-per-node", "2", "--threads-per-rank", "2", "--iterations",
                        "20", "--dot", "--paje", os.path.join(origin, "trace.paje"))
ranks = 8
with open(os.path.join(origin, "parity.json"), "w") as f:
    json.dump({"name": "grid", "kind": "platform", "children": [
        {"name": label, "kind": "parity",
         "children": [{"name": "MPI Rank %d" % r} for r in range(ranks) if r % 2 == first]}
        for label, first in (("even", 0), ("odd", 1))]}, f)
FILE_PROPERTIES = ("FileName", "HierarchyFile", "CacheDirectory", "TopologyFile")


def build(root):
    anchor = os.path.join(root, "trace", "traces.otf2")
    hierarchy = os.path.join(root, "parity.json")
    otf2 = OTF2TraceReader(registrationName="otf2", FileName=anchor, HierarchyFile=hierarchy)
    paje = PajeTraceReader(registrationName="paje", FileName=os.path.join(root, "trace.paje"),
                           HierarchyFile=hierarchy)
    TimeSlicing(registrationName="otf2 model", Input=OutputPort(otf2, 0), Slices=20)
    TimeSlicing(registrationName="paje model", Input=OutputPort(paje, 0), Slices=20)
    StreamedTimeSlicing(registrationName="streamed", FileName=anchor, HierarchyFile=hierarchy,
                        CacheDirectory=os.path.join(root, "cache"), Slices=20)
    # The network places hosts by the trace's own node names.
    plain = OTF2TraceReader(registrationName="otf2 plain", FileName=anchor)
    TopologyTimeScene(registrationName="scene", Input=OutputPort(plain, 0),
                      BaseConfiguration="Network Topology",
                      TopologyFile=os.path.join(root, "trace", "network.dot"))


def record():
    """name -> digests of every output port, and the file properties."""
    digests, files = {}, {}
    errors = mt.ErrorCapture()
    for (name, _), proxy in sorted(GetSources().items()):
        digests[name] = [state_fresh.data_digest(servermanager.Fetch(proxy, idx=port))
                         for port in range(proxy.GetNumberOfOutputPorts())]
        for prop in FILE_PROPERTIES:
            if proxy.ListProperties().count(prop) and proxy.GetPropertyValue(prop):
                files["%s.%s" % (name, prop)] = proxy.GetPropertyValue(prop)
    text = errors.text()
    errors.close()
    return digests, files, text


build(origin)
before, files_before, text = record()
mt.check("ERROR" not in text, "the session reports errors before the move:\n" + text[:3000])
mt.check(len(files_before) == 9 and all(v.startswith(origin) for v in files_before.values()),
         "file properties before the move: %s" % files_before)
hierarchy = servermanager.Fetch(FindSource("otf2"), idx=4)
mt.check(hierarchy.GetVertexData().GetAbstractArray("Name").GetValue(0) == "grid",
         "the hierarchy file was not applied before the move")
state = os.path.join(origin, "session.pvsm")
SaveState(state)

# Copy the state with its traces elsewhere, delete the originals, load.
ResetSession()
mt.load_plugin(args, globals())
shutil.copytree(origin, moved)
shutil.rmtree(os.path.dirname(origin))
mt.check(not os.path.exists(origin), "the original directory is still there")
errors = mt.ErrorCapture()
LoadState(os.path.join(moved, "session.pvsm"), data_directory=moved,
          restrict_to_data_directory=True)
load_text = errors.text()
errors.close()
mt.check("ERROR" not in load_text, "LoadState with data_directory reports errors:\n" + load_text[:3000])
after, files_after, text = record()
mt.check("ERROR" not in text, "the moved session reports errors:\n" + text[:3000])
for key, value in sorted(files_after.items()):
    mt.check(value == files_before[key].replace(origin, moved, 1),
             "%s is %r after the load, not the moved %r" % (key, value, files_before[key]))
mt.check(after == before, "outputs differ after the move: %s" % sorted(
    name for name in before if before[name] != after.get(name)))
hierarchy = servermanager.Fetch(FindSource("otf2"), idx=4)
mt.check(hierarchy.GetVertexData().GetAbstractArray("Name").GetValue(0) == "grid",
         "the moved hierarchy file was not applied")
print("moved %s to %s: %d file properties followed, %d outputs identical"
      % (origin, moved, len(files_after), sum(len(d) for d in after.values())))

# The trace moves again and the state is loaded as it is: clear errors.
ResetSession()
mt.load_plugin(args, globals())
shutil.move(moved, gone)
errors = mt.ErrorCapture()
LoadState(os.path.join(gone, "session.pvsm"))
for name in ("otf2", "paje"):
    FindSource(name).UpdatePipeline()
text = errors.text()
errors.close()
# The state file still names where the traces were when it was saved.
for reader, missing in (("vtkMacroscopeOTF2Reader", os.path.join(origin, "trace", "traces.otf2")),
                        ("vtkMacroscopePajeReader", os.path.join(origin, "trace.paje"))):
    said = [block for block in text.split("ERROR: In ") if reader in block]
    mt.check(any(missing + " does not exist" in block and "data_directory" in block
                 for block in said),
             "%s does not name the missing %s and the way out:\n%s" % (reader, missing, "\n".join(said)))
    print("%s: %s" % (reader, " ".join(said[0].split("): ", 1)[-1].split())[:400]))
