"""Image test: Triva's treemap of a synthesized trace with a slow node, as
the Treemap display type of Resource Treemap's output, played through time
with the animation scene: a time step inside the injected window and one
outside it, against baselines. Picking the centre of the slow node's
rectangle selects the row of that node. Run serially and on two MPI ranks
(the Treemap table lives on the first rank) with the same baselines."""
import json
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())
# Programmable Source scripts run in this interpreter and import numpy's min,
# max and sum over the built-ins: keep the built-ins under other names.
from builtins import max as bmax, min as bmin, sum as bsum

WINDOW = (0.015, 0.03)
directory = os.path.join(args.output, "trace")
controller = servermanager.vtkProcessModule.GetProcessModule().GetGlobalController()
rank = controller.GetLocalProcessId()
if rank == 0:
    mt.synthesize(args, directory, "--clusters", 2, "--nodes-per-cluster", 2, "--ranks-per-node", 2,
                  "--threads-per-rank", 2, "--iterations", 60, "--pattern", "ring",
                  "--perturbation", "slow-node", "--perturb-target", 1,
                  "--perturb-window", WINDOW[0], WINDOW[1])
controller.Barrier()
with open(os.path.join(directory, "ground_truth.json")) as f:
    truth = json.load(f)
slow = truth["target"]["name"]

reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
slicing = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=12, ResourceLevel=3)
treemap = ResourceTreemap(Input=OutputPort(slicing, 0), Cut="Level", Level=2, AnimateSlices=1)

view = CreateView("RenderView")
view.OrientationAxesVisibility = 0
view.UseColorPaletteForBackground = 0
view.Background = [1, 1, 1]
view.CameraParallelProjection = 1
view.InteractionMode = "2D"
view.ViewSize = [800, 500]
display = Show(OutputPort(treemap, 0), view, "MacroscopeTraceRepresentation")
# The filter's hints pick the Treemap display for its output.
mt.check(display.Representation == "Treemap",
         "the Treemap output is shown as %r, not 'Treemap'" % display.Representation)
display.ViewSize = [600, 400]
display.LabelColor = [0.1, 0.1, 0.1]
display.LabelFontSize = 10

scene = GetAnimationScene()
scene.UpdateAnimationUsingDataTimeSteps()
steps = list(treemap.TimestepValues)
mt.check(len(steps) == 12, "expected 12 time steps (one per slice), got %r" % steps)
width = steps[1] - steps[0]
inside = bmin(steps, key=lambda t: abs(t + 0.5 * width - 0.5 * (WINDOW[0] + WINDOW[1])))
outside = bmin(steps, key=lambda t: abs(t + 0.5 * width - (WINDOW[1] + 0.4 * (steps[-1] - WINDOW[1]))))
mt.check(WINDOW[0] <= inside and inside + width <= WINDOW[1] + 1e-9,
         "no slice inside the injected window: %r" % steps)
mt.check(inside + width <= WINDOW[0] or outside >= WINDOW[1], "the normal slice overlaps the window")


def show_time(t, name):
    scene.AnimationTime = t
    Render(view)
    view.ResetCamera(True)
    Render(view)
    table = servermanager.Fetch(treemap, idx=0)  # collective under MPI
    if rank == 0:
        window = table.GetFieldData().GetArray("TimeWindow").GetTuple2(0)
        mt.check(abs(window[0] - t) <= 1e-9 and abs(window[1] - t - width) <= 1e-9,
                 "at time %r the treemap's window is %r" % (t, window))
    mt.compare_image(view, name, args, size=(800, 500))
    return table


show_time(outside, "TreemapNormal")
table = show_time(inside, "TreemapPerturbed")

# Picking: the centre of the slow node's rectangle selects its row.
layout = TreemapLayout(Input=OutputPort(treemap, 0), ViewSize=[600, 400])
marks = servermanager.Fetch(layout, idx=0)  # collective under MPI
if rank == 0:
    names = [table.GetColumnByName("Name").GetValue(r) for r in range(table.GetNumberOfRows())]
    mt.check(slow in names, "the slow node %r is not a row of the treemap: %r" % (slow, names))
    target = names.index(slow)
    rows = marks.GetCellData().GetArray("Row")
    box = None
    for i in range(marks.GetNumberOfCells()):
        if rows.GetValue(i) == target:
            x0, x1, y0, y1, _, _ = marks.GetCell(i).GetBounds()
            box = (x0, y0, x1, y1) if box is None else (
                bmin(box[0], x0), bmin(box[1], y0), bmax(box[2], x1), bmax(box[3], y1))
    mt.check(box is not None, "the slow node has no marks")
    centre = (0.5 * (box[0] + box[2]), 0.5 * (box[1] + box[3]))
else:
    centre = (0.0, 0.0)
from vtkmodules.vtkCommonCore import vtkDoubleArray
shared = vtkDoubleArray()
shared.SetNumberOfValues(2)
shared.SetValue(0, centre[0])
shared.SetValue(1, centre[1])
controller.Broadcast(shared, 0)
renderer = view.GetRenderer()
renderer.SetWorldPoint(shared.GetValue(0), shared.GetValue(1), 0.0, 1.0)
renderer.WorldToDisplay()
px, py, _ = renderer.GetDisplayPoint()
SelectSurfaceCells(Rectangle=[int(px) - 1, int(py) - 1, int(px) + 1, int(py) + 1], View=view)
if rank == 0:
    picked = mt.selected_ids(treemap)
    mt.check(picked == [target], "picking the slow node (row %d) selected rows %r" % (target, picked))
    print("picked %s at row %d" % (slow, target))

# Triva's animations change sizes, not places: with Ordered Squarified every
# frame lists the legend in one order and keeps the first node (the
# hierarchy's first leaf row) in the top-left corner; largest-first
# squarified reorders the legend between frames of this trace (the check
# above would catch it).
def frames(algorithm):
    layout.Algorithm = algorithm
    legends, corners = [], []
    for t in steps:
        layout.UpdatePipeline(t)
        legend = servermanager.Fetch(layout, idx=4)  # collective under MPI
        marks = servermanager.Fetch(layout, idx=0)
        if rank != 0:
            continue
        names_array = legend.GetFieldData().GetAbstractArray("LegendName")
        legends.append([names_array.GetValue(i) for i in range(names_array.GetNumberOfValues())])
        rows = marks.GetCellData().GetArray("Row")
        top_left = None
        for i in range(marks.GetNumberOfCells()):
            x0, x1, y0, y1, _, _ = marks.GetCell(i).GetBounds()
            key = (round(-y1, 6), round(x0, 6))
            if top_left is None or key < top_left[0]:
                top_left = (key, rows.GetValue(i))
        corners.append(top_left[1])
    return legends, corners


if rank == 0 or controller.GetNumberOfProcesses() > 1:
    ordered_legends, ordered_corners = frames(2)
    sorted_legends, _ = frames(0)
    if rank == 0:
        def common(order, keep):
            return [n for n in order if n in keep]
        everywhere = set(ordered_legends[0]).intersection(*map(set, ordered_legends))
        mt.check(len(everywhere) >= 2 and
                 len(set(tuple(common(l, everywhere)) for l in ordered_legends)) == 1,
                 "Ordered Squarified: the legend order changes between frames: %s" % ordered_legends)
        mt.check(len(set(ordered_corners)) == 1,
                 "Ordered Squarified: the top-left node changes between frames: rows %s" % ordered_corners)
        mt.check(len(set(tuple(common(l, everywhere)) for l in sorted_legends)) > 1,
                 "Squarified kept one legend order over %d frames: this trace tests nothing" % len(steps))
        print("ordered: one legend order and top-left row %d over %d frames" % (ordered_corners[0], len(steps)))
