"""Resource Treemap on synthesized traces, against independent computations:
the window integration (numpy), Hierarchical Aggregation's levels, Spatial
Aggregation on a one-slice model of the window (Viva's equivalence), the
slices as time steps (Triva's animated time slice), areas from a Sizes model
(bytes sent, brute force from the Messages table), clear errors, and the
slow node of the synthesizer's ground truth. Saves its tables for the 2-rank
test (TestResourceTreemapMPI.py)."""
import json
import os

import numpy as np

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager
from vtkmodules.util.numpy_support import vtk_to_numpy

mt.load_plugin(args, globals())

SLICES = 16
directory = os.path.join(args.output, "trace")
mt.synthesize(args, directory, "--iterations", 20, "--perturbation", "slow-node",
              "--perturb-target", 2)
anchor = os.path.join(directory, "traces.otf2")
reader = OTF2TraceReader(FileName=anchor)
ports = [OutputPort(reader, i) for i in range(6)]
slicing = TimeSlicing(Input=ports, Slices=SLICES)
image = servermanager.Fetch(slicing, idx=0)
dims = image.GetDimensions()
model = vtk_to_numpy(image.GetPointData().GetArray("Value")).reshape(dims[::-1])  # [type, resource, slice]
origin, width = image.GetOrigin()[0], image.GetSpacing()[0]
type_names = [image.GetFieldData().GetAbstractArray("TypeName").GetValue(u) for u in range(dims[2])]
resources = dims[1]


def fetch(proxy, port=0):
    return servermanager.Fetch(proxy, idx=port)


def col(table, name):
    array = table.GetColumnByName(name)
    mt.check(array is not None, "no column %s" % name)
    if array.IsA("vtkStringArray"):
        return [array.GetValue(i) for i in range(array.GetNumberOfValues())]
    return vtk_to_numpy(array).copy()


def field(table, name):
    array = table.GetFieldData().GetAbstractArray(name)
    mt.check(array is not None, "no field data %s" % name)
    if array.IsA("vtkStringArray"):
        return [array.GetValue(i) for i in range(array.GetNumberOfValues())]
    return vtk_to_numpy(array).ravel().copy()


def close(a, b, rel=1e-9, what=""):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    scale = max(1e-300, np.abs(b).max() if b.size else 1.0)
    ok = a.shape == b.shape and np.allclose(a, b, rtol=rel, atol=rel * scale)
    mt.check(ok, "%s: %s != %s (shapes %s, %s)" % (what, a.ravel()[:6], b.ravel()[:6], a.shape, b.shape))


def brute_window(begin, end):
    """Per resource and type: the slices weighted by their overlap."""
    t = np.arange(dims[0])
    weights = np.clip(np.minimum(end, origin + (t + 1) * width) -
                      np.maximum(begin, origin + t * width), 0.0, None) / width
    return np.einsum("urt,t->ru", model, weights)


def check_structure(table, what):
    """Parents first and depth first: the cut tiles the leaves in order;
    inner rows are the sums of their children."""
    parent, depth, cut = col(table, "Parent"), col(table, "Depth"), col(table, "Cut")
    values, size = col(table, "Values"), col(table, "Size")
    first, last = col(table, "FirstLeaf"), col(table, "LastLeaf")
    rows = table.GetNumberOfRows()
    mt.check(parent[0] == -1 and depth[0] == 0, "%s: the first row is not the root" % what)
    mt.check(all(0 <= parent[r] < r and depth[r] == depth[parent[r]] + 1 for r in range(1, rows)),
             "%s: a row comes before its parent" % what)
    leaves = [(first[r], last[r]) for r in range(rows) if cut[r]]
    mt.check(leaves[0][0] == 0 and leaves[-1][1] == resources - 1 and
             all(a[1] + 1 == b[0] for a, b in zip(leaves, leaves[1:])),
             "%s: the cut rows do not tile the resources in leaf order" % what)
    for r in range(rows):
        children = [c for c in range(rows) if parent[c] == r]
        mt.check(bool(children) != bool(cut[r]), "%s: row %d: Cut %d with %d children"
                 % (what, r, cut[r], len(children)))
        if children:
            close(values[r], values[children].sum(axis=0), 1e-12, "%s: row %d Values" % (what, r))
            close(size[r], size[children].sum(), 1e-12, "%s: row %d Size" % (what, r))
            mt.check(first[r] == first[children[0]] and last[r] == last[children[-1]],
                     "%s: row %d leaves" % (what, r))
    close(col(table, "Total"), values.sum(axis=1), 1e-12, what + ": Total")


serial = {"anchor": anchor, "origin": origin, "width": width}

# 1. The full tree (Level -1) of a window that cuts slices: the cut rows are
# the resources, their values the numpy window integral of the model.
begin, end = origin + 2.5 * width, origin + 9.25 * width
treemap = ResourceTreemap(Input=OutputPort(slicing, 0), TimeWindow=[begin, end])
table = fetch(treemap)
check_structure(table, "Level -1")
cut = col(table, "Cut").astype(bool)
nodes = col(table, "Node")[cut]
mt.check(list(nodes) == list(range(resources)), "Level -1: the cut is not the resources in order")
expected = brute_window(begin, end)
close(col(table, "Values")[cut], expected, 1e-9, "Level -1 Values")
close(col(table, "Size")[cut], expected.sum(axis=1), 1e-9, "SizeBy Total")
values_array = table.GetColumnByName("Values")
mt.check([values_array.GetComponentName(u) for u in range(dims[2])] == type_names,
         "Values components are not named after the types")
mt.check(field(table, "SizeBy") == ["State duration"] and field(table, "Constraint") == ["level"],
         "Level -1: SizeBy %s, Constraint %s" % (field(table, "SizeBy"), field(table, "Constraint")))
close(field(table, "TimeWindow"), [begin, end], 1e-12, "TimeWindow field")
mode, share, total = col(table, "Mode"), col(table, "ModeProportion"), col(table, "Total")
values = col(table, "Values")
for r in range(table.GetNumberOfRows()):
    if total[r] > 0:
        mt.check(mode[r] == int(np.argmax(values[r])) and abs(share[r] - values[r].max() / total[r]) < 1e-12
                 and col(table, "ModeName")[r] == type_names[mode[r]], "row %d: wrong mode" % r)
    else:
        mt.check(mode[r] == -1 and share[r] == 0, "row %d: a mode without values" % r)
treemap.SizeBy = "Resources"
table = fetch(treemap)
check_structure(table, "SizeBy Resources")
close(col(table, "Size"), col(table, "LastLeaf") - col(table, "FirstLeaf") + 1, 0, "SizeBy Resources")
close(col(table, "Resources"), col(table, "Size"), 0, "Resources column")
compute = type_names.index("compute")
treemap.SizeBy = "Type"
treemap.SizeType = "compute"
table = fetch(treemap)
check_structure(table, "SizeBy Type")
close(col(table, "Size"), col(table, "Values")[:, compute], 1e-12, "SizeBy Type")
mt.check(field(table, "SizeBy") == ["Type: compute"], "SizeBy field %s" % field(table, "SizeBy"))
paths = col(table, "Path")
mt.check(paths[0] == "machine" and paths[1] == "cluster-0" and
         paths[4] == "cluster-0/node-0/MPI Rank 0/Master thread", "paths %s" % paths[:5])
treemap.SizeBy = "Total"
print("Level -1: %d rows, values = window integral" % table.GetNumberOfRows())

# 2. Levels 1 and 2: the cut rows are Hierarchical Aggregation's vertices of
# that depth (Function Sum, same window).
hierarchical = HierarchicalAggregation(Input=OutputPort(slicing, 0), Function="Sum",
                                       TimeWindow=[begin, end])
hierarchical.UpdatePipeline()
tree = hierarchical.GetClientSideObject().GetOutputDataObject(0)
count = tree.GetNumberOfVertices()
tree_values = vtk_to_numpy(tree.GetVertexData().GetArray("Values"))
tree_names = tree.GetVertexData().GetAbstractArray("Name")
for level in (1, 2):
    treemap.Level = level
    table = fetch(treemap)
    check_structure(table, "Level %d" % level)
    cut = col(table, "Cut").astype(bool)
    vertices = [count - 1 - n for n in col(table, "Node")[cut]]  # node n is vertex count-1-n
    expected_vertices = [v for v in range(count) if tree.GetLevel(v) == level]
    mt.check(sorted(vertices) == sorted(expected_vertices), "Level %d: cut %s, tree level %s"
             % (level, vertices, expected_vertices))
    mt.check([tree_names.GetValue(v) for v in vertices] == [n for n, c in zip(col(table, "Name"), cut) if c],
             "Level %d: names differ from the tree's" % level)
    close(col(table, "Values")[cut], tree_values[vertices], 1e-12, "Level %d Values" % level)
    mt.check(all(d <= level for d in col(table, "Depth")), "Level %d: rows below the level" % level)
    mt.check(list(field(table, "Level")) == [level], "Level field")
    if level == 2:
        serial["level2"] = mt.table_rows(table)
print("Levels 1, 2: equal to Hierarchical Aggregation")

# 3. Optimal (pIC): Viva's aggregation of the time-integrated model, i.e.
# Spatial Aggregation on Time Slicing with one slice over the same window.
begin, end = origin + 4 * width, origin + 12 * width
treemap.Level = -1
treemap.TimeWindow = [begin, end]
treemap.Cut = "Optimal (pIC)"
one = TimeSlicing(Input=ports, Slices=1, TimeWindow=[begin, end])
spatial = SpatialAggregation(Input=OutputPort(one, 0))
curves = fetch(treemap, 1)
computations = field(fetch(treemap), "QualityComputations")[0]
reference_curves = fetch(spatial, 1)
for name in ("PStart", "PEnd", "Gain", "Loss", "Parts"):
    close(col(curves, name), col(reference_curves, name), 1e-9, "Quality Curves " + name)
plot, reference_plot = fetch(treemap, 2), fetch(spatial, 2)
for name in ("p", "Gain", "Loss", "Current p"):
    a, b = col(plot, name), col(reference_plot, name)
    mt.check(np.array_equal(np.isnan(a), np.isnan(b)), "Quality Plot %s: NaNs differ" % name)
    close(a[~np.isnan(a)], b[~np.isnan(b)], 1e-9, "Quality Plot " + name)
starts, ends = col(curves, "PStart"), col(curves, "PEnd")
probes = sorted(set([0.0, 0.5, 1.0] + [0.5 * (a + b) for a, b in zip(starts, ends)]))
for p in probes:
    treemap.Parameter = spatial.Parameter = p
    table, partition = fetch(treemap), fetch(spatial)
    check_structure(table, "Optimal p=%g" % p)
    cut = col(table, "Cut").astype(bool)
    mt.check(sorted(col(table, "Node")[cut]) == sorted(col(partition, "Node")),
             "p = %g: the cut %s is not Spatial Aggregation's %s" % (
                 p, sorted(col(table, "Node")[cut]), sorted(col(partition, "Node"))))
    order = np.argsort(col(table, "Node")[cut])
    close(col(table, "Gain")[cut][order], col(partition, "Gain"), 1e-9, "p = %g Gain" % p)
    close(col(table, "Loss")[cut][order], col(partition, "Loss"), 1e-9, "p = %g Loss" % p)
    close(field(table, "PartitionQuality"), field(partition, "PartitionQuality"), 1e-9,
          "p = %g PartitionQuality" % p)
    mt.check(not col(table, "Gain")[~cut].any() and not col(table, "Loss")[~cut].any(),
             "p = %g: ancestors have qualities" % p)
    if p == 0.5:
        serial["optimal"] = mt.table_rows(table)
        serial["curves"] = mt.table_rows(curves)
mt.check(field(table, "QualityComputations")[0] == computations and field(table, "Constraint") == ["spatial"],
         "%d values of p computed the qualities %d more times" % (
             len(probes), field(table, "QualityComputations")[0] - computations))
treemap.TimeWindow = [begin, end - width]
mt.check(field(fetch(treemap), "QualityComputations")[0] == computations + 1,
         "a new window reused the qualities")
print("Optimal: %d partitions, the cut equals Spatial Aggregation's at %d values of p"
      % (len(starts), len(probes)))
Delete(spatial)
Delete(one)

# 4. The slices as time steps.
treemap.Cut = "Level"
treemap.AnimateSlices = 1
treemap.UpdatePipelineInformation()
steps = list(treemap.TimestepValues)
close(steps, [origin + k * width for k in range(SLICES)], 1e-12, "TimestepValues")
time_range = treemap.SMProxy.GetProperty("TimeRange")
close([time_range.GetElement(i) for i in range(time_range.GetNumberOfElements())], [origin, origin + (SLICES - 1) * width], 1e-12, "TimeRange")
for k, at in ((0, steps[0]), (5, steps[5]), (5, steps[5] + 0.5 * width), (SLICES - 1, steps[-1])):
    treemap.UpdatePipeline(at)
    table = fetch(treemap)
    cut = col(table, "Cut").astype(bool)
    close(col(table, "Values")[cut], model[:, :, k].T, 1e-12, "time %g (slice %d) Values" % (at, k))
    close(field(table, "TimeWindow"), [steps[k], steps[k] + width], 1e-12, "time %g TimeWindow" % at)
    if k == 5 and at == steps[5]:
        serial["step5"] = mt.table_rows(table)
treemap.WindowSlices = 3
treemap.UpdatePipelineInformation()
steps = list(treemap.TimestepValues)
mt.check(len(steps) == SLICES - 2, "3-slice windows give %d time steps" % len(steps))
treemap.UpdatePipeline(steps[4])
table = fetch(treemap)
close(col(table, "Values")[col(table, "Cut").astype(bool)], model[:, :, 4:7].sum(axis=2).T, 1e-12,
      "3-slice window Values")
treemap.WindowSlices = 1
treemap.UpdatePipelineInformation()
scene = GetAnimationScene()
scene.UpdateAnimationUsingDataTimeSteps()
keeper = GetTimeKeeper()
mt.check(len(keeper.TimestepValues) == SLICES, "the animation has %d time steps" % len(keeper.TimestepValues))
scene.GoToFirst()
seen = []
for k in range(SLICES):
    if k:
        scene.GoToNext()
    treemap.UpdatePipeline(keeper.Time)
    seen.append(tuple(field(fetch(treemap), "TimeWindow")))
close(seen, [(origin + k * width, origin + (k + 1) * width) for k in range(SLICES)], 1e-12,
      "the animation's windows")
mt.check(field(fetch(treemap), "QualityComputations")[0] >= SLICES, "every step has its qualities")
treemap.AnimateSlices = 0
print("AnimateSlices: %d time steps, windows follow the animation" % SLICES)

# 5. Areas from a Sizes model: bytes sent per second, brute force from the
# Messages table (a message's bytes spread over [send, recv]).
begin, end = origin + 4 * width, origin + 12 * width
rate = TimeSlicing(Input=ports, Slices=SLICES, Metric="Bytes sent per second")
treemap.Sizes = OutputPort(rate, 0)
treemap.SizeBy = "Sizes Input"
treemap.TimeWindow = [begin, end]
table = fetch(treemap)
check_structure(table, "Sizes Input")
messages = fetch(reader, 1)
sender, send, recv, size = (col(messages, c).astype(float) for c in ("Sender", "SendTime", "RecvTime", "Bytes"))
spread = recv > send
overlap = np.clip(np.minimum(end, recv) - np.maximum(begin, send), 0.0, None)
share = np.where(spread, overlap / np.where(spread, recv - send, 1.0), (send >= begin) & (send < end))
sent = np.bincount(sender.astype(int), weights=size * share, minlength=resources)
cut = col(table, "Cut").astype(bool)
mt.check(sent.sum() > 0, "no bytes sent in the window")
close(col(table, "Size")[cut] * (end - begin), sent, 1e-9, "Sizes: bytes sent")
mt.check(field(table, "SizeBy") == ["Bytes sent per second"], "SizeBy %s" % field(table, "SizeBy"))
print("Sizes Input: areas = bytes sent in the window / its length (%d bytes)" % sent.sum())

# 6. Nonsensical properties: a clear error each, then a valid run.


def expect_error(fragment):
    capture = mt.ErrorCapture()
    try:
        treemap.UpdatePipeline()
    finally:
        capture.close()
    mt.check(fragment in capture.text(), "expected an error mentioning %r, got:\n%s" % (fragment, capture.text()))


treemap.SizeBy = "Total"
treemap.Level = -2
expect_error("Level must be -1")
# The model's hierarchy: machine (0), clusters, nodes, ranks, threads (4).
treemap.Level = 9
expect_error("level 9 is deeper than the model's hierarchy, whose deepest level is 4")
treemap.Level = -1
treemap.SizeBy = "Type"
treemap.SizeType = "no such state"
expect_error('SizeType "no such state" is not a type of the model')
treemap.SizeBy = "Sizes Input"
treemap.Sizes = None
expect_error("no Sizes input is connected")
other = TimeSlicing(Input=ports, Slices=SLICES, ResourceLevel=3)
treemap.Sizes = OutputPort(other, 0)
expect_error("other resources")
treemap.Sizes = OutputPort(rate, 0)
treemap.Parameter = 1.5
expect_error("Parameter must be in [0, 1]")
treemap.Parameter = 0.5
treemap.TimeWindow = [10 * (origin + SLICES * width), 20 * (origin + SLICES * width)]
expect_error("does not overlap")
treemap.TimeWindow = [0, 0]
treemap.AnimateSlices = 1
treemap.WindowSlices = 0
expect_error("WindowSlices must be at least 1")
treemap.WindowSlices = SLICES + 1
expect_error("exceeds the model's")
treemap.WindowSlices = 1
treemap.AnimateSlices = 0
table = fetch(treemap)
mt.check(table.GetNumberOfRows() == 55 and col(table, "Size").sum() > 0,
         "no valid run after the errors (%d rows)" % table.GetNumberOfRows())
print("bad properties: clear errors, then a valid run")

with open(os.path.join(args.output, "..", "treemap-serial.json"), "w") as f:
    json.dump(serial, f)

# 7. Ground truth: node-1 three times slower in [0.1, 0.2] s. At a time step
# inside the window some optimal cut of the quality curves makes node-1 one
# part of its own; at time steps well outside it none does (every optimal
# cut is then the resources alone or the whole machine).
truth_dir = os.path.join(args.output, "slow-node")
mt.synthesize(args, truth_dir, "--iterations", 300, "--perturbation", "slow-node", "--perturb-target", 1,
              "--perturb-factor", 3, "--perturb-window", 0.1, 0.2)
with open(os.path.join(truth_dir, "ground_truth.json")) as f:
    truth = json.load(f)
target = truth["target"]["name"]
window = truth["window"]["begin_seconds"], truth["window"]["end_seconds"]
slow = OTF2TraceReader(FileName=os.path.join(truth_dir, "traces.otf2"))
slow_slicing = TimeSlicing(Input=[OutputPort(slow, i) for i in range(6)], Slices=40)
slow_treemap = ResourceTreemap(Input=OutputPort(slow_slicing, 0), Cut="Optimal (pIC)", AnimateSlices=1)
slow_treemap.UpdatePipelineInformation()
steps = list(slow_treemap.TimestepValues)
step_width = steps[1] - steps[0]
states = fetch(slow, 0)
iteration = col(fetch(slow, 5), "Name").index("iteration")
longest = max(e - s for t, s, e in zip(col(states, "Type"), col(states, "Start"), col(states, "End"))
              if t == iteration)
tol = step_width + longest


def isolating_cuts(at):
    """The p ranges of the optimal cuts at time `at` with the target as a part."""
    slow_treemap.UpdatePipeline(at)
    curves = fetch(slow_treemap, 1)
    found = []
    for a, b in zip(col(curves, "PStart"), col(curves, "PEnd")):
        slow_treemap.Parameter = 0.5 * (a + b)
        slow_treemap.UpdatePipeline(at)
        table = fetch(slow_treemap)
        names = [n for n, c in zip(col(table, "Name"), col(table, "Cut")) if c]
        if target in names:
            found.append((a, b, len(names)))
    return found


inside = [t for t in steps if t >= window[0] + tol and t + step_width <= window[1] - tol]
outside = [t for t in steps if t + step_width <= window[0] - tol or t >= window[1] + tol]
mt.check(inside and outside, "no time step inside (%s) or outside (%s) the window" % (inside, outside))
for at in inside:
    found = isolating_cuts(at)
    print("time step %.4f s (inside): %s a part for p in %s" % (
        at, target, ", ".join("[%.3f, %.3f] (%d parts)" % f for f in found)))
    mt.check(found, "time step %.4f s, inside the slow window: no optimal cut isolates %s" % (at, target))
for at in outside:
    found = isolating_cuts(at)
    mt.check(not found, "time step %.4f s, outside the slow window: %s is a part for p in %s"
             % (at, target, found))
print("ground truth: %s isolated at the %d steps inside the window, at none of the %d outside"
      % (target, len(inside), len(outside)))
