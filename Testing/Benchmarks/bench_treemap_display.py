"""The Treemap display with 100 000 leaves, in pvbatch: a Treemap table of
10 clusters x 100 nodes x 100 leaves (4 types, random values, fixed seed) is
laid out by Treemap Layout (polydata of every quad, outline and label) and
shown as the Treemap display type; first render and re-render are timed.
Baseline in the same process: a ParaView Plane of 400 x 500 quads shown as
a Surface (about as many cells as the treemap's marks). Prints one
"name: value" line per figure.

    xvfb-run -a pvbatch bench_treemap_display.py --plugin PATH [--repeat N]
"""
import argparse
import time

parser = argparse.ArgumentParser()
parser.add_argument("--plugin", required=True)
parser.add_argument("--repeat", type=int, default=3)
args, _ = parser.parse_known_args()

from paraview.simple import *
LoadPlugin(args.plugin, remote=False, ns=globals())

SCRIPT = """
import numpy
from vtkmodules.vtkCommonCore import vtkDoubleArray, vtkIntArray, vtkStringArray, vtkUnsignedCharArray
from vtkmodules.util.numpy_support import numpy_to_vtk
def _build(out):
    rng = numpy.random.default_rng(8)
    clusters, nodes, leaves, types = 10, 100, 100, 4
    parent, depth, cut, names = [-1], [0], [0], ["machine"]
    for c in range(clusters):
        cr = len(parent); parent.append(0); depth.append(1); cut.append(0); names.append("c%d" % c)
        for n in range(nodes):
            nr = len(parent); parent.append(cr); depth.append(2); cut.append(0); names.append("n%d" % n)
            parent += [nr] * leaves; depth += [3] * leaves; cut += [1] * leaves
            names += ["r%d" % k for k in range(leaves)]
    rows = len(parent)
    values = rng.random((rows, types)) * numpy.array(cut)[:, None]
    def add(array, name):
        array.SetName(name); out.AddColumn(array)
    add(numpy_to_vtk(numpy.array(parent, dtype=numpy.int32), deep=1), "Parent")
    add(numpy_to_vtk(numpy.array(depth, dtype=numpy.int32), deep=1), "Depth")
    add(numpy_to_vtk(numpy.array(cut, dtype=numpy.int32), deep=1), "Cut")
    add(numpy_to_vtk(numpy.ones(rows, dtype=numpy.int32), deep=1), "Resources")
    add(numpy_to_vtk(values.sum(axis=1), deep=1), "Size")
    add(numpy_to_vtk(values, deep=1), "Values")
    text = vtkStringArray(); text.SetNumberOfValues(rows)
    for i, name in enumerate(names):
        text.SetValue(i, name)
    add(text, "Name")
    colors = vtkUnsignedCharArray(); colors.SetName("TypeColor"); colors.SetNumberOfComponents(3)
    for rgb in ((40, 160, 60), (200, 40, 40), (60, 90, 200), (220, 180, 40)):
        colors.InsertNextTuple3(*rgb)
    out.GetFieldData().AddArray(colors)
_build(self.GetTableOutput())
"""
table = ProgrammableSource(OutputDataSetType="vtkTable", Script=SCRIPT)
table.UpdatePipeline()
rows = table.GetDataInformation().GetNumberOfRows()


def best(function):
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


layout = TreemapLayout(Input=table, ViewSize=[1920, 1080], Margin=1, Header=2)


def lay_out():
    layout.Margin = 1.0 if layout.Margin != 1.0 else 1.5  # a real change each time
    layout.UpdatePipeline()


layout_time = best(lay_out)
marks = layout.GetDataInformation(0).GetNumberOfCells()

view = CreateView("RenderView")
view.ViewSize = [1920, 1080]
view.CameraParallelProjection = 1
start = time.perf_counter()
display = Show(table, view, "MacroscopeTraceRepresentation")
display.SetRepresentationType("Treemap")
display.ViewSize = [1920, 1080]
Render(view)
first_render = time.perf_counter() - start
rerender = best(lambda: Render(view))
Hide(table, view)

plane = Plane(XResolution=400, YResolution=500)
plane_display = Show(plane, view)
start = time.perf_counter()
Render(view)
plane_first = time.perf_counter() - start
plane_rerender = best(lambda: Render(view))

print("rows: %d" % rows)
print("marks: %d" % marks)
print("time_layout_s: %.4f" % layout_time)
print("time_treemap_first_render_s: %.4f" % first_render)
print("time_treemap_rerender_s: %.4f" % rerender)
print("time_plane_first_render_s: %.4f" % plane_first)
print("time_plane_rerender_s: %.4f" % plane_rerender)
print("treemap_over_plane_first_render: %.2f" % (first_render / plane_first))
