"""Image test ("overview at any scale"): a 20M-event trace with a
slow node, shown at full view by the Timeline in its default settings, must
show the slow node. The synthesizer slows node-1's compute 3 times in
[2, 6] s (its ground_truth.json); the other nodes then wait for it. On the
rendered picture, inside that window the slow node's rows must differ in
colour from the other rows of their kind (master threads against master
threads, OpenMP workers against workers), and outside it (the control) they
must look alike. Rows are found from the layout's row labels, times from its
TimeAxis field data, pixels through the view's camera. The picture is kept
in the test's output directory (timeline-slow-node.png)."""
import json
import os
import re
import time

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager
from vtkmodules.numpy_interface import dataset_adapter
from vtkmodules.vtkIOImage import vtkPNGReader
import numpy

mt.load_plugin(args, globals())

EVENTS = 20000000
WINDOW = (2.0, 6.0)
SIZE = [1600, 1000]
# Mean colours (RGB, 0-255) of a slow row and of the others of its kind: at
# least MIN_INSIDE and MIN_RATIO times their distance outside apart inside
# the window, at most MAX_OUTSIDE apart outside it (the rows differ a little
# there too: the synthesizer gives every thread its own static imbalance).
# A master row stacks its nested states in thin bands, and which of them
# the samples hit moves with the plot's height: its distances vary most
# (with the family palette, where the others wait in red and
# the slow node computes in green: inside 63-98, outside 3-24 at 1600 x
# 1000; the nested bands of user code, threads and MPI now contrast more,
# so outside varies more than the 4-15 of the hashed palette; with the
# slow node invisible, inside would look like outside).
MIN_INSIDE = 45.0
MIN_RATIO = 1.75
MAX_OUTSIDE = 27.0

directory = os.path.join(args.output, "trace")
begin = time.perf_counter()
mt.synthesize(args, directory, "--events", EVENTS, "--perturbation", "slow-node",
              "--perturb-target", 1, "--perturb-window", WINDOW[0], WINDOW[1])
print("synthesized %d events in %.1f s" % (EVENTS, time.perf_counter() - begin))
with open(os.path.join(directory, "ground_truth.json")) as f:
    truth = json.load(f)
slow_ranks = set(truth["affected"]["ranks"])
mt.check(truth["window"]["begin_seconds"] == WINDOW[0] and truth["window"]["end_seconds"] == WINDOW[1],
         "the ground truth's window is not %s: %s" % (WINDOW, truth["window"]))

reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
view = CreateView("RenderView")
view.ViewSize = SIZE
view.OrientationAxesVisibility = 0
begin = time.perf_counter()
display = Show(OutputPort(reader, 0), view, "MacroscopeTraceRepresentation")
display.SetRepresentationType("Timeline")
display.ViewSize = SIZE  # the picture's size, text included (docs/views.md)
Render(view)
view.ResetCamera(True)
Render(view)
png = os.path.join(args.output, "timeline-slow-node.png")
SaveScreenshot(png, view, ImageResolution=SIZE)
print("Timeline shown and saved in %.1f s" % (time.perf_counter() - begin))

# Where rows and times are: the same layout as the display's, through the
# Timeline Layout filter (row labels, TimeAxis), mapped to pixels by the
# view's camera.
layout = TimelineLayout(Input=[OutputPort(reader, i) for i in range(6)])
layout.ViewSize = display.ViewSize
layout.UpdatePipeline()
marks = servermanager.Fetch(layout, idx=0)
labels = servermanager.Fetch(layout, idx=4)
axis = marks.GetFieldData().GetArray("TimeAxis")
x_t0, x_t1, t0, t1 = (axis.GetComponent(0, k) for k in range(4))
rows = marks.GetFieldData().GetArray("Rows")
bands = int(rows.GetComponent(0, 2))
plot_height = labels.GetFieldData().GetArray("PlotSize").GetComponent(0, 1)  # what the labels leave
band_height = plot_height / float(bands)
mt.check(int(rows.GetComponent(0, 3)) == 1, "rows merged into bands: the test expects one row per location")

texts = labels.GetPointData().GetAbstractArray("Label")
kinds = labels.GetPointData().GetArray("LabelKind")
row_y = {}
for i in range(labels.GetNumberOfPoints()):
    if kinds.GetValue(i) == 1:
        row_y[texts.GetValue(i)] = labels.GetPoint(i)[1]
pattern = re.compile(r"MPI Rank (\d+) / (Master thread|OMP thread \d+)$")
rows_by_kind = {}
for name, y in row_y.items():
    match = pattern.match(name)
    mt.check(match is not None, "unexpected row label %r" % name)
    kind = "master" if match.group(2) == "Master thread" else "worker"
    rows_by_kind.setdefault(kind, []).append((int(match.group(1)) in slow_ranks, name, y))
mt.check(len(row_y) == 32, "%d row labels, expected the 32 locations" % len(row_y))

renderer = view.GetRenderer()


def to_pixel(x, y):
    renderer.SetWorldPoint(x, y, 0.0, 1.0)
    renderer.WorldToDisplay()
    px, py, _ = renderer.GetDisplayPoint()
    return px, py


reader_png = vtkPNGReader()
reader_png.SetFileName(png)
reader_png.Update()
image = reader_png.GetOutput()
width, height = image.GetDimensions()[:2]
pixels = numpy.asarray(dataset_adapter.WrapDataObject(image).PointData[0])[:, :3].astype(float)
pixels = pixels.reshape(height, width, 3)  # row 0 at the bottom, as display coordinates


def x_of(t):
    return x_t0 + (t - t0) * (x_t1 - x_t0) / (t1 - t0)


def mean_colour(y, times):
    """Mean colour of the row centred at chart height y, over the central
    half of its height, at the pixel columns of the times in `times`."""
    samples = []
    for t in times:
        for dy in numpy.linspace(-0.25, 0.25, 5) * band_height:
            px, py = to_pixel(x_of(t), y + dy)
            samples.append(pixels[int(round(py)), int(round(px))])
    return numpy.mean(samples, axis=0)


inside = numpy.linspace(WINDOW[0] + 0.2, WINDOW[1] - 0.2, 120)
outside = numpy.concatenate([numpy.linspace(0.6, WINDOW[0] - 0.3, 30),
                             numpy.linspace(WINDOW[1] + 1.0, min(t1, 28.0) - 0.5, 120)])
problems = []
for kind, members in sorted(rows_by_kind.items()):
    slow = [m for m in members if m[0]]
    other = [m for m in members if not m[0]]
    mt.check(slow and other, "%s rows: %d slow, %d others" % (kind, len(slow), len(other)))
    distances = {}
    for period, times in (("inside", inside), ("outside", outside)):
        other_colour = numpy.mean([mean_colour(y, times) for _, _, y in other], axis=0)
        for _, name, y in slow:
            distance = float(numpy.linalg.norm(mean_colour(y, times) - other_colour))
            distances.setdefault(name, {})[period] = distance
            print("%-28s %-7s slow %s vs others %s: %.1f" % (
                name, period, numpy.round(mean_colour(y, times)), numpy.round(other_colour), distance))
            if period == "inside":
                problems += [] if distance >= MIN_INSIDE else [
                         "%s: inside the slow window its colour is only %.1f from the other %s rows' "
                         "(at least %.0f expected); see %s" % (name, distance, kind, MIN_INSIDE, png)]
            else:
                problems += [] if distance <= MAX_OUTSIDE else [
                         "%s: outside the slow window its colour is %.1f from the other %s rows' "
                         "(at most %.0f expected); see %s" % (name, distance, kind, MAX_OUTSIDE, png)]
    for name, apart in sorted(distances.items()):
        if apart["inside"] < MIN_RATIO * apart["outside"]:
            problems.append("%s: %.1f from the others inside the window, %.1f outside: not %.0f times more"
                            % (name, apart["inside"], apart["outside"], MIN_RATIO))
mt.check(not problems, "\n".join(problems))
print("the slow node's rows stand out in its window and only there")
