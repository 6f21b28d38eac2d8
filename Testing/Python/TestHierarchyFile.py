"""The OTF2 reader's HierarchyFile property in pvpython on a synthesized
archive: its ranks regrouped by parity. Checks the Hierarchy output and the
Locations paths against the file, every table against the plain read (the
same rows once leaves are mapped by name), Time Slicing's resource rows in the
new order, the reports of unnamed and missing leaves, the errors of bad files
and the recovery when a file is fixed (re-applied on a new modification
time). Writes the digests of the regrouped tables and model for the 2-rank
test (TestHierarchyFileMPI.py)."""
import json
import os

import numpy as np

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager
from vtkmodules.util.numpy_support import vtk_to_numpy

mt.load_plugin(args, globals())

directory = os.path.join(args.output, "trace")
summary = mt.synthesize(args, directory, "--pattern", "ring", "--iterations", 8, "--clusters", 2,
                        "--nodes-per-cluster", 2, "--ranks-per-node", 2, "--threads-per-rank", 2)
anchor = os.path.join(directory, "traces.otf2")
ranks = summary["ranks"]
mt.check(ranks == 8, "the synthesizer wrote %d ranks, expected 8" % ranks)


def write(name, tree):
    path = os.path.join(args.output, name)
    with open(path, "w") as f:
        f.write(tree if isinstance(tree, str) else json.dumps(tree, indent=1))
    return path


def tree_of(reader):
    """(name, kind, leaf index, parent) per vertex of the Hierarchy output."""
    reader.UpdatePipeline()
    tree = servermanager.Fetch(reader, idx=4)
    data = tree.GetVertexData()
    names, kinds, leaves = (data.GetAbstractArray(a) for a in ("Name", "Kind", "LeafIndex"))
    return [(names.GetValue(v), kinds.GetValue(v), int(leaves.GetValue(v)), int(tree.GetParent(v)))
            for v in range(tree.GetNumberOfVertices())]


def leaf_keys(vertices):
    """Per leaf index: "rank/thread", names unique in the synthesized trace."""
    keys = {}
    for name, _, leaf, parent in vertices:
        if leaf >= 0:
            keys[leaf] = vertices[parent][0] + "/" + name
    return [keys[l] for l in range(len(keys))]


def leaf_paths(vertices):
    """Per leaf index: its path below the root, as the Locations selection shows it."""
    def path(v):
        parts = []
        while vertices[v][3] >= 0:
            parts.append(vertices[v][0])
            v = vertices[v][3]
        return "/".join(reversed(parts))
    paths = {leaf: path(v) for v, (_, _, leaf, _) in enumerate(vertices) if leaf >= 0}
    return [paths[l] for l in range(len(paths))]


LEAF_COLUMNS = {0: ["Location"], 1: ["Sender", "Receiver"], 2: ["Location", "Root"], 3: ["Location"]}


def named_rows(reader, keys):
    """The rows of States, Messages, Events and Variables with leaf columns
    replaced by leaf names, sorted: independent of the leaf numbering."""
    result = []
    for port in range(4):
        table = servermanager.Fetch(reader, idx=port)
        names = sorted(table.GetColumnName(c) for c in range(table.GetNumberOfColumns()))
        columns = []
        for name in names:
            values = vtk_to_numpy(table.GetColumnByName(name))
            if name in LEAF_COLUMNS[port]:
                columns.append([keys[int(x)] if x >= 0 else int(x) for x in values])
            else:
                columns.append([round(float(x), 9) for x in values])
        result.append((names, sorted(zip(*columns))))
    return result


def model_of(reader):
    slicing = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=12)
    image = servermanager.Fetch(slicing, idx=0)
    dims = image.GetDimensions()
    values = vtk_to_numpy(image.GetPointData().GetArray(0)).reshape(dims[::-1]).copy()
    Delete(slicing)
    return values  # [type, resource, slice]


# The plain read.
plain = OTF2TraceReader(FileName=anchor)
plain_tree = tree_of(plain)
plain_keys = leaf_keys(plain_tree)
plain_rows = named_rows(plain, plain_keys)
plain_model = model_of(plain)
mt.check(len(plain_keys) == summary["locations"], "plain read: %d leaves" % len(plain_keys))
mt.check(plain_rows[1][1], "the ring trace has no messages to renumber")

# Ranks by parity; each rank brings its threads.
parity = {"name": "grid", "kind": "platform", "children": [
    {"name": label, "kind": "parity",
     "children": [{"name": "MPI Rank %d" % r} for r in range(ranks) if r % 2 == first]}
    for label, first in (("even", 0), ("odd", 1))]}
parity_file = write("parity.json", parity)
errors = mt.ErrorCapture()
regrouped = OTF2TraceReader(FileName=anchor, HierarchyFile=parity_file)
new_tree = tree_of(regrouped)
text = errors.text()
errors.close()  # before any check: pvpython's stderr goes to the output window
mt.check(text.strip() == "",
         "a file naming every rank gave messages:\n" + text)

# The tree: grid / {even, odd} / ranks in file order / their threads.
mt.check(new_tree[0][:2] == ("grid", "platform") and new_tree[0][3] == -1, "root %s" % (new_tree[0],))
expected_keys = []
thread_names = sorted({k.split("/")[1] for k in plain_keys})
for label, first in (("even", 0), ("odd", 1)):
    for r in range(first, ranks, 2):
        expected_keys += ["MPI Rank %d/%s" % (r, t) for t in sorted(
            (k.split("/")[1] for k in plain_keys if k.startswith("MPI Rank %d/" % r)),
            key=lambda t: plain_keys.index("MPI Rank %d/%s" % (r, t)))]
new_keys = leaf_keys(new_tree)
mt.check(new_keys == expected_keys, "new leaf order %s, expected %s" % (new_keys, expected_keys))
groups = [v for v in new_tree if v[1] == "parity"]
mt.check([g[0] for g in groups] == ["even", "odd"] and all(g[3] == 0 for g in groups),
         "parity groups %s" % groups)
# Leaf indexes follow the depth-first order of the vertices.
order = [leaf for _, _, leaf, _ in new_tree if leaf >= 0]
mt.check(order == list(range(len(order))), "leaf indexes not in depth-first order: %s" % order)
kinds = {k: kind for (name, kind, leaf, _), k in zip(
    [v for v in plain_tree if v[2] >= 0], [plain_keys[v[2]] for v in plain_tree if v[2] >= 0])}
for name, kind, leaf, parent in new_tree:
    if leaf >= 0:
        mt.check(kinds[new_keys[leaf]] == kind, "leaf %s changed kind" % new_keys[leaf])
        mt.check(new_tree[parent][1] == "process" and new_tree[new_tree[parent][3]][1] == "parity",
                 "leaf %s is not under its rank under a parity group" % new_keys[leaf])

# Locations: the paths of the new tree, in the new leaf order.
regrouped.UpdatePipelineInformation()
locations = list(regrouped.GetProperty("LocationInfo"))[0::2]
mt.check(locations == leaf_paths(new_tree), "Locations %s, expected %s" % (locations, leaf_paths(new_tree)))
mt.check(locations[0] == "even/MPI Rank 0/Master thread", "first location %r" % locations[0])

# The same rows, leaves mapped by name.
new_rows = named_rows(regrouped, new_keys)
for port in range(4):
    mt.check(new_rows[port] == plain_rows[port], "port %d: regrouped rows differ from the plain read" % port)
    print("port %d: %d rows equal once leaves are named" % (port, len(new_rows[port][1])))

# Time Slicing: resource rows in the new order.
new_model = model_of(regrouped)
permutation = [plain_keys.index(k) for k in new_keys]
mt.check(new_model.shape == plain_model.shape, "model shapes %s, %s" % (new_model.shape, plain_model.shape))
mt.check(np.array_equal(new_model, plain_model[:, permutation, :]),
         "Time Slicing's resource rows do not follow the new leaf order")
mt.check(not np.array_equal(new_model, plain_model), "the regrouping left the model unchanged")

# Selecting a location by its new path reads that location only.
regrouped.Locations = ["odd/MPI Rank 3/Master thread"]
regrouped.UpdatePipeline()
only = servermanager.Fetch(regrouped, idx=0)
located = set(vtk_to_numpy(only.GetColumnByName("Location")).tolist())
mt.check(located == {new_keys.index("MPI Rank 3/Master thread")},
         "selecting one new path read leaves %s" % located)
regrouped.Locations = locations

with open(os.path.join(args.output, "..", "hierarchy-file-serial.json"), "w") as f:
    json.dump({"anchor": anchor, "hierarchy": parity_file,
               "digests": [mt.table_digest(servermanager.Fetch(regrouped, idx=p)) for p in range(4)],
               "model": new_model.tolist()}, f)

# Unnamed trace leaves and file leaves naming nothing: kept and reported.
# The file names ranks 0 and 1 and, by its path, the node of rank 7.
plain_paths = leaf_paths(plain_tree)
path_of = dict(zip(plain_keys, plain_paths))
last_node = path_of["MPI Rank 7/Master thread"].rsplit("/", 2)[0]
partial = {"name": "grid", "children": [
    {"name": "low", "children": [{"name": "MPI Rank 0"}, {"name": "MPI Rank 1"}]},
    {"name": "MPI Rank 42"}, {"name": last_node}]}
errors = mt.ErrorCapture()
regrouped.HierarchyFile = write("partial.json", partial)
partial_tree = tree_of(regrouped)
text = errors.text()
errors.close()
placed = [k for k in plain_keys if k.startswith(("MPI Rank 0/", "MPI Rank 1/"))
          or path_of[k].startswith(last_node + "/")]
unplaced_count = len(plain_keys) - len(placed)
mt.check(0 < unplaced_count < len(plain_keys) - 4, "the partial file places %d leaves" % len(placed))
mt.check("%d trace leaves not in the hierarchy file" % unplaced_count in text and "MPI Rank 42" in text
         and "partial.json" in text, "no clear warning for the mismatches:\n" + text)
fields = servermanager.Fetch(regrouped, idx=0).GetFieldData()
mt.check(fields.GetArray("HierarchyFileUnplacedLeaves").GetValue(0) == unplaced_count
         and fields.GetArray("HierarchyFileUnmatchedLeaves").GetValue(0) == 1,
         "field data counters %d, %d" % (fields.GetArray("HierarchyFileUnplacedLeaves").GetValue(0),
                                        fields.GetArray("HierarchyFileUnmatchedLeaves").GetValue(0)))
mt.check("MPI Rank 42" in fields.GetAbstractArray("HierarchyFileReport").GetValue(0),
         "HierarchyFileReport does not name the missing leaf")
unplaced = [v for v in range(len(partial_tree)) if partial_tree[v][1] == "unplaced"]
mt.check(len(unplaced) == 1 and partial_tree[unplaced[0]][3] == 0, "no single unplaced vertex under the root")
# Below it, the unplaced leaves keep their rank and thread.
partial_keys = leaf_keys(partial_tree)
for v, (name, kind, leaf, parent) in enumerate(partial_tree):
    if leaf < 0:
        continue
    ancestors = []
    while parent >= 0:
        ancestors.append(parent)
        parent = partial_tree[parent][3]
    mt.check((unplaced[0] in ancestors) == (partial_keys[leaf] not in placed),
             "leaf %s is misplaced" % partial_keys[leaf])
mt.check(named_rows(regrouped, leaf_keys(partial_tree)) == plain_rows,
         "unplaced leaves lost rows")

# Bad files: a clear error naming the file, then recovery.
bad_cases = [
    ("syntax.json", '{"name": "grid",\n "children": [{"name": "MPI Rank 0"},]}', ["syntax.json", "line 2"]),
    ("ambiguous.json", {"name": "g", "children": [{"name": "Master thread"}]},
     ["ambiguous.json", "matches %d trace vertices" % ranks]),
    ("twice.json", {"name": "g", "children": [{"name": "MPI Rank 1"},
                                             {"name": path_of["MPI Rank 1/Master thread"]}]},
     ["twice.json", "both cover"]),
    ("noname.json", {"name": "g", "children": [{"kind": "x"}]}, ["noname.json", "no \"name\""]),
    ("empty.json", "", ["empty.json", "empty"]),
    ("missing.json", None, ["missing.json", "cannot be opened"]),
]
for name, content, expected in bad_cases:
    path = os.path.join(args.output, name) if content is None else write(name, content)
    if content is None and os.path.exists(path):
        os.remove(path)  # left by an earlier run
    errors = mt.ErrorCapture()
    regrouped.HierarchyFile = path
    regrouped.UpdatePipeline()
    text = errors.text()
    errors.close()
    mt.check(all(e in text for e in expected), "%s: expected an error with %s, got:\n%s" % (name, expected, text))
    print("%s: %s" % (name, [l for l in text.splitlines() if name in l][0].strip()[:140]))

# Fixed in place: the same name, a new modification time, re-applied.
# (The property keeps its value, so the reader is marked modified as File >
# Reload Files does.)
fixed = write("missing.json", parity)
regrouped.HierarchyFile = fixed
regrouped.GetClientSideObject().Modified()
errors = mt.ErrorCapture()
recovered = leaf_keys(tree_of(regrouped))
text = errors.text()
errors.close()
mt.check(recovered == expected_keys and "rror" not in text, "the fixed file did not recover:\n" + text)
by_cluster = {"name": "all", "children": [{"name": "cluster-1"}, {"name": "cluster-0"}]}
write("missing.json", by_cluster)
later = os.stat(fixed).st_mtime + 5
os.utime(fixed, (later, later))
regrouped.GetClientSideObject().Modified()  # as Reload Files would
reloaded = tree_of(regrouped)
mt.check(reloaded[0][0] == "all" and reloaded[1][0] == "cluster-1",
         "the rewritten file was not re-applied: root %s" % (reloaded[:2],))
mt.check(named_rows(regrouped, leaf_keys(reloaded)) == plain_rows, "cluster regrouping lost rows")

# Back to the archive's own hierarchy.
regrouped.HierarchyFile = ""
mt.check(tree_of(regrouped) == plain_tree, "an empty HierarchyFile does not restore the archive's tree")
print("ok")
