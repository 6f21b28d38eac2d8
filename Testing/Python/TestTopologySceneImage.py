"""Image test: Triva's 3D topology-time scene (the Topology-Time 3D display
of a reader's States) of a synthesized trace with a slow node, on its three
bases: the communication pattern, the synthesizer's network topology
(network.dot) and the hierarchy's treemap, against baselines, seen by the
same camera. Picking a box of the slow node inside the injected window
selects its States row (checked by extracting the selection). Run serially
and on two MPI ranks (each rank draws its own locations' boxes) with the
same baselines."""
import json
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

WINDOW = (0.01, 0.02)
directory = os.path.join(args.output, "trace")
controller = servermanager.vtkProcessModule.GetProcessModule().GetGlobalController()
rank = controller.GetLocalProcessId()
if rank == 0:
    mt.synthesize(args, directory, "--clusters", 2, "--nodes-per-cluster", 2, "--ranks-per-node", 2,
                  "--threads-per-rank", 1, "--iterations", 30, "--pattern", "ring",
                  "--perturbation", "slow-node", "--perturb-target", 1,
                  "--perturb-window", WINDOW[0], WINDOW[1], "--dot")
controller.Barrier()
with open(os.path.join(directory, "ground_truth.json")) as f:
    truth = json.load(f)
network = os.path.join(directory, "network.dot")
mt.check(os.path.isfile(network), "the synthesizer wrote no network.dot")

reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
view = CreateView("RenderView")
view.OrientationAxesVisibility = 0
view.UseColorPaletteForBackground = 0
view.Background = [1, 1, 1]
view.ViewSize = [800, 600]
display = Show(OutputPort(reader, 0), view, "MacroscopeTraceRepresentation")
display.SetRepresentationType("Topology-Time 3D")
display.TopologyFile = network
display.LabelColor = [0.1, 0.1, 0.1]
display.LabelFontSize = 10


def look():
    # The same oblique camera for every base: the base in front, time up.
    view.CameraPosition = [2.9, -2.1, 1.9]
    view.CameraFocalPoint = [0.5, 0.5, 0.8]
    view.CameraViewUp = [0.0, 0.0, 1.0]
    view.CameraViewAngle = 30
    Render(view)


for base, name in ((0, "TopologyPattern"), (1, "TopologyNetwork"), (2, "TopologyTreemap")):
    display.BaseConfiguration = base
    look()
    mt.compare_image(view, name, args, size=(800, 600))

# Picking: the middle of a box of the slow node's first process within the
# injected window selects that state's row of States.
display.BaseConfiguration = 1
look()
scene = TopologyTimeScene(Input=[OutputPort(reader, i) for i in (0, 1, 4, 5)],
                          BaseConfiguration=1, TopologyFile=network)
# Every rank's boxes, each point tagged with the rank that drew it.
boxes = mt.gather_points(ProcessIdScalars(Input=scene), 0)  # collective
tree = servermanager.Fetch(reader, idx=4)
from vtkmodules.vtkCommonCore import vtkDoubleArray
target = vtkDoubleArray()
target.SetNumberOfValues(10)
if rank == 0:
    names = tree.GetVertexData().GetAbstractArray("Name")
    leaf = tree.GetVertexData().GetArray("LeafIndex")
    slow = truth["target"]["name"]
    slow_locations = set()
    for v in range(tree.GetNumberOfVertices()):
        if leaf.GetValue(v) < 0:
            continue
        u, path = v, []
        while u >= 0:
            path.append(names.GetValue(u))
            u = tree.GetParent(u)
        if slow in path:
            slow_locations.add(leaf.GetValue(v))
    mt.check(slow_locations, "no location below the slow node %r" % slow)
    cells = boxes.GetCellData()
    best = None
    for c in range(boxes.GetNumberOfCells()):
        location = cells.GetArray("Location").GetValue(c)
        start, end = cells.GetArray("Start").GetValue(c), cells.GetArray("End").GetValue(c)
        if location in slow_locations and start >= WINDOW[0] and end <= WINDOW[1]:
            if best is None or end - start > best[3] - best[2]:
                b = boxes.GetCell(c).GetBounds()
                best = (location, cells.GetArray("Type").GetValue(c), start, end,
                        0.5 * (b[0] + b[1]), 0.5 * (b[2] + b[3]), 0.5 * (b[4] + b[5]),
                        0.5 * (b[1] - b[0]),
                        boxes.GetPointData().GetArray("ProcessId").GetValue(
                            boxes.GetCell(c).GetPointId(0)),
                        cells.GetArray("vtkOriginalCellIds").GetValue(c))
    mt.check(best is not None, "no box of the slow node inside the injected window")
    for i, value in enumerate(best):
        target.SetValue(i, value)
controller.Broadcast(target, 0)
location, type_, start, end, x, y, z, half, owner, row = [target.GetValue(i) for i in range(10)]
renderer = view.GetRenderer()
# The middle of the box's face towards the camera (which looks from -y).
renderer.SetWorldPoint(x, y - half, z, 1.0)
renderer.WorldToDisplay()
px, py, _ = renderer.GetDisplayPoint()
SelectSurfaceCells(Rectangle=[int(px), int(py), int(px), int(py)], View=view)
states = servermanager.Fetch(reader, idx=0)  # collective; the first rank's piece
if rank == 0:
    # The pick names (rank, row of that rank's piece of States) pairs.
    selection = servermanager._getPyProxy(reader.SMProxy.GetSelectionInput(0))
    parts = selection.Input if selection.GetXMLName() == "AppendSelections" else [selection]
    pairs = [int(value) for part in parts for value in part.IDs]
    mt.check(pairs == [int(owner), int(row)],
             "the pick selected %r, not the box's state (rank %d, row %d)" % (pairs, owner, row))
    if int(owner) == 0:
        got = [mt.column(states, name)[int(row)] for name in ("Location", "Type", "Start", "End")]
        mt.check(got[0] == location and got[1] == type_ and got[2] <= start + 1e-12 and
                 got[3] >= end - 1e-12,
                 "States row %d is %r, not the state drawn as location %d type %d [%g, %g]"
                 % (row, got, location, type_, start, end))
    print("picked the state of location %d [%g, %g] (rank %d, row %d) on the slow node"
          % (location, start, end, owner, row))
