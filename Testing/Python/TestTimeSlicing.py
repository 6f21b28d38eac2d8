"""Time Slicing and Hierarchical Aggregation in pvpython on a synthesized
trace, checked against the reader's tables computed independently (numpy):
every metric's totals, the exclusive-time invariant, resource levels, the
aggregation up the hierarchy, and clear errors on bad input."""
import os

import numpy as np

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager
from vtkmodules.util.numpy_support import vtk_to_numpy

mt.load_plugin(args, globals())

directory = os.path.join(args.output, "trace")
summary = mt.synthesize(args, directory, "--iterations", 30, "--pattern", "ring",
                        "--perturbation", "slow-node", "--perturb-target", 2)
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
ports = [OutputPort(reader, i) for i in range(6)]
reader.UpdatePipeline()
states = servermanager.Fetch(reader, idx=0)
messages = servermanager.Fetch(reader, idx=1)
events = servermanager.Fetch(reader, idx=2)
span = reader.GetProperty("TimeBounds")[1]
leaves = summary["locations"]


def col(table, name):
    return vtk_to_numpy(table.GetColumnByName(name)).astype(float)


def model_of(proxy, port=0):
    image = servermanager.Fetch(proxy, idx=port)
    dims = image.GetDimensions()
    values = vtk_to_numpy(image.GetPointData().GetArray(0)).reshape(dims[::-1])
    return image, values  # values[type, resource, slice]


# State duration, exclusive: per leaf and slice the types sum to the time
# covered by the leaf's outermost states; over everything, to their total.
slicing = TimeSlicing(Input=ports, Slices=40)
image, v = model_of(slicing)
mt.check(v.shape[1:] == (leaves, 40), "model shape %s" % (v.shape,))
width = image.GetSpacing()[0]
mt.check(abs(width * 40 - span) < 1e-9, "the default window is not the whole trace")
depth = col(states, "Depth")
start, end, loc = col(states, "Start"), col(states, "End"), col(states, "Location")
outer = depth == 0
mt.check(abs(v.sum() - (end[outer] - start[outer]).sum()) < 1e-9 * max(1.0, v.sum()),
         "exclusive durations sum to %.9f, the outermost states last %.9f" % (
             v.sum(), (end[outer] - start[outer]).sum()))
per_cell = v.sum(axis=0)
mt.check(per_cell.max() <= width * (1 + 1e-9) and v.min() >= 0.0,
         "a cell holds more than the slice width or a negative duration")
for leaf in (0, leaves - 1):
    covered = (end[outer & (loc == leaf)] - start[outer & (loc == leaf)]).sum()
    mt.check(abs(per_cell[leaf].sum() - covered) < 1e-9, "leaf %d: exclusive time != traced time" % leaf)

# Depth option: inclusive durations of one call level, per type.
slicing.Depth = 1
image, v = model_of(slicing)
names = [image.GetFieldData().GetAbstractArray("TypeName").GetValue(u) for u in range(v.shape[0])]
type_ids = vtk_to_numpy(image.GetFieldData().GetArray("TypeId"))
types_col = col(states, "Type")
for plane in range(v.shape[0]):
    rows = (depth == 1) & (types_col == type_ids[plane])
    expected = (end[rows] - start[rows]).sum()
    mt.check(abs(v[plane].sum() - expected) < 1e-9, "Depth 1, %s: %.9f, expected %.9f"
             % (names[plane], v[plane].sum(), expected))
slicing.Depth = -1

# Normalised: fractions of each slice, at most 1.
slicing.Normalize = 1
_, v = model_of(slicing)
mt.check(v.sum(axis=0).max() <= 1 + 1e-9, "a normalised cell exceeds 1")
slicing.Normalize = 0

# Resource level 3 (processes): one row per rank, the sum of its threads.
slicing.ResourceLevel = 3
image, v3 = model_of(slicing)
_, v_leaves = model_of(TimeSlicing(Input=ports, Slices=40))
threads = summary["configuration"]["threads_per_rank"]
mt.check(v3.shape[1] == summary["ranks"], "level 3 gives %d resources" % v3.shape[1])
folded = v_leaves.reshape(v_leaves.shape[0], summary["ranks"], threads, 40).sum(axis=2)
mt.check(np.allclose(v3, folded, atol=1e-12), "process rows are not the sums of their threads")
mt.check(image.GetFieldData().GetAbstractArray("NodeKind").GetValue(0) == "process",
         "level 3 resources are not processes")
slicing.ResourceLevel = -1

# Event counts, message counts and traffic.
counter = TimeSlicing(Input=ports, Slices=25, Metric="Event count")
_, v = model_of(counter)
mt.check(v.sum() == events.GetNumberOfRows(), "%d events counted, %d read" % (v.sum(), events.GetNumberOfRows()))
sent = TimeSlicing(Input=ports, Slices=25, Metric="Messages sent")
_, v = model_of(sent)
mt.check(v.shape[0] == 1 and v.sum() == messages.GetNumberOfRows(), "messages sent do not add up")
rate = TimeSlicing(Input=ports, Slices=25, Metric="Bytes received per second")
image, v = model_of(rate)
total_bytes = col(messages, "Bytes").sum()
mt.check(abs(v.sum() * image.GetSpacing()[0] - total_bytes) < 1e-6 * total_bytes,
         "received throughput integrates to %.1f bytes, %.1f were sent" % (v.sum() * image.GetSpacing()[0], total_bytes))

# The mode output: the dominant type of every cell.
mode = servermanager.Fetch(slicing, idx=1)
dominant = vtk_to_numpy(mode.GetPointData().GetArray("DominantType"))
mt.check(dominant.max() >= 0 and dominant.max() < len(type_ids), "DominantType out of range")

# Hierarchical aggregation: the root's sum is the sum of all resources.
aggregation = HierarchicalAggregation(Input=OutputPort(slicing, 0))
aggregation.UpdatePipeline()
tree = aggregation.GetClientSideObject().GetOutputDataObject(0)
totals = vtk_to_numpy(tree.GetVertexData().GetArray("Total"))
kinds = tree.GetVertexData().GetAbstractArray("Kind")
_, v = model_of(slicing)
mt.check(abs(totals[0] - v.sum()) < 1e-9, "root total %.9f, model total %.9f" % (totals[0], v.sum()))
thread_totals = [totals[i] for i in range(tree.GetNumberOfVertices()) if kinds.GetValue(i) == "thread"]
mt.check(abs(sum(thread_totals) - totals[0]) < 1e-9, "threads do not add up to the root")
aggregation.Function = "Max"
aggregation.UpdatePipeline()
tree = aggregation.GetClientSideObject().GetOutputDataObject(0)
maxima = vtk_to_numpy(tree.GetVertexData().GetArray("Values"))
mt.check(np.allclose(maxima[0], v.sum(axis=2).max(axis=1)), "Max at the root is not the largest resource")
aggregation.Function = "Sum"
aggregation.TimeWindow = [0.0, span / 2]
aggregation.UpdatePipeline()
tree = aggregation.GetClientSideObject().GetOutputDataObject(0)
half = vtk_to_numpy(tree.GetVertexData().GetArray("Total"))[0]
mt.check(abs(half - v[:, :, :20].sum()) < 1e-9, "the first half window does not sum the first 20 slices")


# Bad input: clear errors, nothing computed from garbage.
def expect_error(proxy, fragment):
    capture = mt.ErrorCapture()
    try:
        proxy.UpdatePipeline()
    finally:
        capture.close()
    text = capture.text()
    mt.check(fragment in text, "expected an error about %r, got:\n%s" % (fragment, text))
    print("clear error for %s: %s" % (fragment, next(l for l in text.splitlines() if fragment in l).strip()[:200]))


expect_error(TimeSlicing(Input=ports, Slices=0), "Slices")
expect_error(TimeSlicing(Input=ports, TimeWindow=[0.5 * span, 0.1 * span]), "TimeWindow")
expect_error(TimeSlicing(Input=ports, TimeWindow=[2 * span, 3 * span]), "after the trace ends")
# Several outputs are taken as given (States alone is the one-click form:
# the filter finds the rest beside it, Python.OneInput).
expect_error(TimeSlicing(Input=[ports[0], ports[1]]), "Hierarchy")
no_depth = PassArrays(Input=ports[0], RowDataArrays=["Location", "Type", "Start", "End"])
expect_error(TimeSlicing(Input=[no_depth, ports[4], ports[5]]), "misses a column")
# A level the hierarchy (machine, clusters, nodes, ranks, threads) lacks.
expect_error(TimeSlicing(Input=ports, ResourceLevel=9),
             "ResourceLevel 9 is deeper than the Hierarchy, whose deepest level is 4")
# A model too large for memory is refused before it is allocated, naming
# its size; two billion slices of every leaf and state type need terabytes.
state_types = sum(1 for kind in mt.column(servermanager.Fetch(reader, idx=5), "Kind")
                  if kind == "state")
expect_error(TimeSlicing(Input=ports, Slices=2000000000),
             "the model of 2000000000 slices x %d resources x %d types has %.4g cells and needs %.4g "
             "bytes" % (leaves, state_types, 2e9 * leaves * state_types,
                        2e9 * leaves * state_types * 8 * 2))
capture = mt.ErrorCapture()
try:
    wrong = TimeSlicing(Input=[Wavelet(), ports[4], ports[5]])
    wrong.UpdatePipeline()
finally:
    capture.close()
mt.check("vtkImageData" in capture.text() and wrong.GetDataInformation(0).GetNumberOfPoints() == 0,
         "an image as input was not refused:\n" + capture.text())
expect_error(HierarchicalAggregation(Input=OutputPort(slicing, 0), TimeWindow=[2 * span, 3 * span]),
             "does not overlap")
print("time slicing: metrics, levels, aggregation and errors checked")

# For the 2-rank test: the serial model of the whole trace (40 slices).
np.savez(os.path.join(args.output, "..", "timeslicing-serial.npz"), model=v_leaves,
         width=span / 40, anchor=os.path.join(directory, "traces.otf2"))
