"""Time Slicing's Resources property (Ocelotl's zoom as a re-run on a part of
the system) on a synthesized trace: a subset by name, by path, by a name
shared by many vertices, at a resource level and for several metrics gives
exactly the kept locations' rows of the full model (brute force over the
hierarchy, same window and slices); the pruned hierarchy describes them; an
unknown name is an error naming it; an empty list is the full model; a zoom
plus a subset re-runs Temporal Aggregation on the smaller model."""
import os

import numpy as np

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager
from vtkmodules.util.numpy_support import vtk_to_numpy

mt.load_plugin(args, globals())

directory = os.path.join(args.output, "trace")
summary = mt.synthesize(args, directory, "--iterations", 20, "--pattern", "ring")
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
ports = [OutputPort(reader, i) for i in range(6)]
reader.UpdatePipeline()
span = reader.GetProperty("TimeBounds")[1]

# The hierarchy, independently of the filter: names, paths, leaves below.
tree = servermanager.Fetch(reader, idx=4)
names = [tree.GetVertexData().GetAbstractArray("Name").GetValue(v) for v in range(tree.GetNumberOfVertices())]
leaf_of = vtk_to_numpy(tree.GetVertexData().GetArray("LeafIndex")).astype(int)
parent = [tree.GetParent(v) for v in range(tree.GetNumberOfVertices())]
paths = []
for v, p in enumerate(parent):
    paths.append(names[v] if p < 0 else paths[p] + "/" + names[v])
depth = [0 if p < 0 else None for p in parent]
for v, p in enumerate(parent):
    if p >= 0:
        depth[v] = depth[p] + 1


def leaves_below(vertices):
    """Sorted leaf indexes of the locations that are or descend from `vertices`."""
    kept = set()
    for v in range(len(parent)):
        a = v
        while a >= 0 and a not in vertices:
            a = parent[a]
        if a >= 0 and leaf_of[v] >= 0:
            kept.add(leaf_of[v])
    return sorted(kept)


def model_of(proxy):
    image = servermanager.Fetch(proxy, idx=0)
    dims = image.GetDimensions()
    values = vtk_to_numpy(image.GetPointData().GetArray("Value")).reshape(dims[::-1])
    return image, values  # values[type, resource, slice]


def strings(fields, name):
    array = fields.GetAbstractArray(name)
    mt.check(array is not None, "the model has no %s field data" % name)
    return [array.GetValue(i) for i in range(array.GetNumberOfValues())]


def check_hierarchy(image, kept_leaves, label):
    """The model's NodeName / NodeParent describe the pruned hierarchy: the
    kept locations, then exactly their ancestors, each with its parent."""
    fields = image.GetFieldData()
    node_names = strings(fields, "NodeName")
    node_parent = vtk_to_numpy(fields.GetArray("NodeParent")).astype(int)
    mt.check(len(node_names) == len(node_parent), "%s: NodeName and NodeParent differ in length" % label)
    mt.check(node_parent[-1] == -1 and all(node_parent[n] > n for n in range(len(node_parent) - 1)),
             "%s: NodeParent is not a tree with parents after children, root last" % label)
    node_paths = []
    for n in range(len(node_names)):
        a, chain = n, []
        while a >= 0:
            chain.append(node_names[a])
            a = node_parent[a]
        node_paths.append("/".join(reversed(chain)))
    leaf_vertex = {leaf_of[v]: v for v in range(len(parent)) if leaf_of[v] >= 0}
    expected_resources = [paths[leaf_vertex[l]] for l in kept_leaves]
    mt.check(node_paths[:len(kept_leaves)] == expected_resources,
             "%s: the model's resources are not the kept locations in leaf order" % label)
    ancestors = set()
    for l in kept_leaves:
        a = parent[leaf_vertex[l]]
        while a >= 0:
            ancestors.add(paths[a])
            a = parent[a]
    mt.check(sorted(node_paths[len(kept_leaves):]) == sorted(ancestors),
             "%s: the inner nodes are not exactly the kept locations' ancestors:\n%s\n%s"
             % (label, sorted(node_paths[len(kept_leaves):]), sorted(ancestors)))


window = [0.2 * span, 0.7 * span]
full = TimeSlicing(Input=ports, Slices=30, TimeWindow=window)
_, v_full = model_of(full)
leaves = v_full.shape[1]
mt.check(leaves == summary["locations"], "the full model has %d rows" % leaves)

cluster1 = names.index("cluster-1")
node01 = paths.index("machine/cluster-0/node-1")
masters = {v for v in range(len(names)) if names[v] == "Master thread"}
cases = [
    (["cluster-1"], {cluster1}),
    (["machine/cluster-0/node-1"], {node01}),
    (["Master thread"], masters),
    (["cluster-0/node-1", "cluster-1"], {node01, cluster1}),  # path below the root, plus a name
    ([paths[max(masters)]], {max(masters)}),  # a location by its path keeps itself
]
metrics = ["State duration", "Event count", "Bytes sent per second", "Messages received"]
subset = TimeSlicing(Input=ports, Slices=30, TimeWindow=window)
for names_given, vertices in cases:
    kept = leaves_below(vertices)
    mt.check(0 < len(kept) < leaves, "case %s keeps %d of %d locations" % (names_given, len(kept), leaves))
    subset.Resources = names_given
    for metric in metrics:
        full.Metric = metric
        subset.Metric = metric
        _, v_full = model_of(full)
        image, v_sub = model_of(subset)
        mt.check(v_sub.shape == (v_full.shape[0], len(kept), v_full.shape[2]),
                 "%s, %s: model shape %s, expected %d rows" % (names_given, metric, v_sub.shape, len(kept)))
        mt.check(np.array_equal(v_sub, v_full[:, kept, :]),
                 "%s, %s: the subset's rows differ from the full model's by up to %g"
                 % (names_given, metric, np.abs(v_sub - v_full[:, kept, :]).max()))
        mt.check(v_full[:, kept, :].sum() > 0 or metric != "State duration",
                 "%s: the kept rows are empty, the comparison proves nothing" % names_given)
    check_hierarchy(image, kept, str(names_given))
    mt.check(strings(image.GetFieldData(), "ResourceSelection") == names_given,
             "ResourceSelection does not list %s" % names_given)
    print("subset %s: %d locations, rows equal the full model's for %d metrics"
          % (names_given, len(kept), len(metrics)))
full.Metric = subset.Metric = "State duration"

# At a resource level: the level's vertices that keep a location, each the
# sum of its kept locations only (Master threads per process).
subset.Resources = ["Master thread"]
subset.ResourceLevel = 3
image, v_level = model_of(subset)
_, v_full = model_of(full)
leaf_vertex = {leaf_of[v]: v for v in range(len(parent)) if leaf_of[v] >= 0}
processes = {}
for l in leaves_below(masters):
    a = leaf_vertex[l]
    while depth[a] > 3:
        a = parent[a]
    processes.setdefault(a, []).append(l)
order = sorted(processes, key=lambda p: min(processes[p]))
expected = np.stack([v_full[:, processes[p], :].sum(axis=1) for p in order], axis=1)
mt.check(v_level.shape == expected.shape and np.allclose(v_level, expected, rtol=1e-12, atol=1e-15),
         "level 3 with Master threads: not the per-process sums of the master threads")
mt.check(strings(image.GetFieldData(), "NodeName")[:len(order)] == [names[p] for p in order],
         "level 3 resources are not the processes of the master threads")
print("level 3 + Master thread: %d processes, each its master thread's row" % len(order))
subset.ResourceLevel = -1

# No names: the full model.
subset.Resources = []
image, v_all = model_of(subset)
mt.check(np.array_equal(v_all, v_full), "an empty Resources list does not give the full model")
mt.check(strings(image.GetFieldData(), "ResourceSelection") == [], "ResourceSelection is not empty for all")


# Unknown names: an error naming them, and no model.
def expect_error(proxy, fragments):
    """Updates `proxy` and checks the error names every fragment; returns
    the number of points of its output (asked while errors are captured)."""
    capture = mt.ErrorCapture()
    try:
        proxy.UpdatePipeline()
        points = proxy.GetDataInformation(0).GetNumberOfPoints()
    finally:
        capture.close()
    text = capture.text()
    for fragment in fragments:
        mt.check(fragment in text, "expected an error naming %r, got:\n%s" % (fragment, text))
    print("clear error: %s" % next(l for l in text.splitlines() if fragments[0] in l).strip()[:200])
    return points


bad = TimeSlicing(Input=ports, Slices=30, Resources=["cluster-1", "cluster-9", "machine/cluster-0/node-7"])
mt.check(expect_error(bad, ['"cluster-9"', '"machine/cluster-0/node-7"', "Resources"]) == 0,
         "a model was produced despite unknown resource names")

# Zoom + subset, then Temporal Aggregation over the smaller model: the
# partition tiles its slices, within the window, and describes it.
zoom = [0.4 * span, 0.6 * span]
small = TimeSlicing(Input=ports, Slices=25, TimeWindow=zoom, Resources=["cluster-1"])
image, v_small = model_of(small)
kept = leaves_below({cluster1})
mt.check(v_small.shape[1] == len(kept), "the zoomed subset has %d rows" % v_small.shape[1])
aggregation = TemporalAggregation(Input=OutputPort(small, 0), Parameter=0.3)
aggregation.UpdatePipeline()
partition = servermanager.Fetch(aggregation, idx=0)
mt.check(partition.GetNumberOfRows() > 0, "no partition of the smaller model")
first = vtk_to_numpy(partition.GetColumnByName("FirstSlice"))
last = vtk_to_numpy(partition.GetColumnByName("LastSlice"))
covered = np.zeros(25, dtype=int)
for f, l in zip(first, last):
    covered[f:l + 1] += 1
mt.check((covered == 1).all(), "the temporal parts do not tile the 25 slices of the zoom")
starts = vtk_to_numpy(partition.GetColumnByName("Start"))
ends = vtk_to_numpy(partition.GetColumnByName("End"))
mt.check(abs(starts.min() - zoom[0]) < 1e-9 and abs(ends.max() - zoom[1]) < 1e-9,
         "the parts span [%g, %g], the zoom is [%g, %g]" % (starts.min(), ends.max(), zoom[0], zoom[1]))
pfields = partition.GetFieldData()
mt.check(tuple(pfields.GetArray("ModelShape").GetTuple3(0)) == tuple(image.GetDimensions()),
         "the partition's ModelShape is not the smaller model's")
mt.check(strings(pfields, "ResourceSelection") == ["cluster-1"],
         "the partition does not carry the resource selection")
mt.check(len(strings(pfields, "NodeName")) == len(strings(image.GetFieldData(), "NodeName")),
         "the partition's hierarchy is not the pruned one")
print("zoom [%g, %g] on cluster-1: %d temporal parts over %d resources"
      % (zoom[0], zoom[1], partition.GetNumberOfRows(), len(kept)))
