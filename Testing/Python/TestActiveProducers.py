"""Active Producers (FrameSoC's producer filter) against a brute force over
the reader's States, Events, Variables and Messages tables: the active and
the idle producers of several windows, levels and thresholds, with their
records per kind; Active and Idle partition the producers; a window before
the trace start leaves every producer idle; the ResourceNames fed to Time
Slicing give a model of exactly those producers' rows; bad properties are
clear errors. Run serially (pvpython) and on 2 MPI ranks (pvbatch
--symmetric), where the counts are summed over the ranks: the same script
compares both to the brute force over the gathered tables. Every collective
call is made on all ranks first; rank 0 checks afterwards."""
import os

import numpy as np

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager
from vtkmodules.util.numpy_support import vtk_to_numpy

pm = servermanager.vtkProcessModule.GetProcessModule()
rank, ranks = pm.GetPartitionId(), pm.GetNumberOfLocalPartitions()
mt.load_plugin(args, globals())

directory = os.path.join(args.output, "trace")
if rank == 0:
    mt.synthesize(args, directory, "--iterations", 15, "--pattern", "ring",
                  "--perturbation", "slow-node", "--perturb-target", 1)
if ranks > 1:
    from vtkmodules.vtkParallelCore import vtkMultiProcessController
    vtkMultiProcessController.GetGlobalController().Barrier()
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
ports = [OutputPort(reader, i) for i in range(6)]
reader.UpdatePipeline()
span = reader.GetProperty("TimeBounds")[1]
# Whole tables on rank 0 (a piece per rank under MPI), for the brute force.
tables = {name: mt.gather_table(reader, port)
          for port, name in ((0, "States"), (1, "Messages"), (2, "Events"), (3, "Variables"))}
tree = servermanager.Fetch(reader, idx=4)
local_states = servermanager.Fetch(reader, idx=0).GetNumberOfRows()  # rank 0's piece


def col(table, name):
    return vtk_to_numpy(table.GetColumnByName(name)).astype(float)


# ---- collective part: every rank runs the same pipelines -------------------
producers = ActiveProducers(Input=ports)
results = {}
windows = {"middle": [0.3 * span, 0.5 * span], "short": [0.5 * span, 0.5 * span + span / 2000],
           "whole": [0.0, 0.0], "before": [-2.0, -1.0]}
runs = []
for window_name, window in windows.items():
    for level in (-1, 2, 3):
        for minimum in (1, 60, 300):
            for activity in ("Active", "Idle"):
                runs.append((window_name, level, minimum, activity))
for run in runs:
    window_name, level, minimum, activity = run
    producers.TimeWindow = windows[window_name]
    producers.Level = level
    producers.MinimumRecords = minimum
    producers.Activity = activity
    producers.UpdatePipeline()
    table = servermanager.Fetch(producers)  # rank 0's piece: the whole table
    results[run] = (table, producers.GetDataInformation().GetNumberOfRows())

# The active locations of the short window, fed to Time Slicing.
producers.TimeWindow = windows["short"]
producers.Level = -1
producers.MinimumRecords = 1
producers.Activity = "Active"
producers.UpdatePipeline()
fed = servermanager.Fetch(producers)
names_fed = [fed.GetFieldData().GetAbstractArray("ResourceNames").GetValue(i)
             for i in range(fed.GetFieldData().GetAbstractArray("ResourceNames").GetNumberOfValues())]
slices = 12
full = TimeSlicing(Input=ports, Slices=slices, TimeWindow=[0.0, span], Metric="Event count")
subset = TimeSlicing(Input=ports, Slices=slices, TimeWindow=[0.0, span], Metric="Event count",
                     Resources=names_fed)


def model(proxy):
    """The whole model on rank 0 from every rank's extent: values[type, resource, slice]."""
    proxy.UpdatePipeline()
    points = mt.gather_points(proxy, 0)
    if not points.GetNumberOfPoints():
        return np.full((0, 0, 0), np.nan)  # ranks other than 0
    xyz = np.array([points.GetPoint(i) for i in range(points.GetNumberOfPoints())])
    v = vtk_to_numpy(points.GetPointData().GetArray("Value"))
    t = np.rint(xyz[:, 0] / (span / slices)).astype(int)
    s = np.rint(xyz[:, 1]).astype(int)
    u = np.rint(xyz[:, 2]).astype(int)
    values = np.full((u.max() + 1, s.max() + 1, t.max() + 1), np.nan)
    values[u, s, t] = v
    return values


v_full = model(full)
v_subset = model(subset)


def expect_error(proxy):
    capture = mt.ErrorCapture()
    try:
        proxy.UpdatePipeline()
    finally:
        capture.close()
    return capture.text()


errors = {}
for key, setting in (("TimeWindow", dict(TimeWindow=[0.5 * span, 0.1 * span])),
                     ("Activity", dict(Activity=5)),
                     ("MinimumRecords", dict(MinimumRecords=0)),
                     ("Level", dict(Level=-3))):
    bad = ActiveProducers(Input=ports)
    for name, value in setting.items():
        bad.SetPropertyWithName(name, value)
    errors[key] = expect_error(bad)
# Two outputs are taken as given (States alone finds the rest: Python.OneInput).
no_hierarchy = ActiveProducers(Input=[ports[0], ports[1]])
errors["Hierarchy"] = expect_error(no_hierarchy)

# ---- checks on rank 0 -------------------------------------------------------
if rank == 0:
    names = [tree.GetVertexData().GetAbstractArray("Name").GetValue(v) for v in range(tree.GetNumberOfVertices())]
    leaf_of = vtk_to_numpy(tree.GetVertexData().GetArray("LeafIndex")).astype(int)
    parent = [tree.GetParent(v) for v in range(tree.GetNumberOfVertices())]
    paths, depth = [], []
    for v, p in enumerate(parent):
        paths.append(names[v] if p < 0 else paths[p] + "/" + names[v])
        depth.append(0 if p < 0 else depth[p] + 1)
    leaves = int(leaf_of.max()) + 1
    leaf_vertex = {leaf_of[v]: v for v in range(len(parent)) if leaf_of[v] >= 0}

    def producer_of_leaf(level):
        result = []
        for l in range(leaves):
            a = leaf_vertex[l]
            while level >= 0 and depth[a] > level:
                a = parent[a]
            result.append(a)
        return result

    states, events = tables["States"], tables["Events"]
    variables, messages = tables["Variables"], tables["Messages"]
    mt.check(states.GetNumberOfRows() > 0 and messages.GetNumberOfRows() > 0 and
             variables.GetNumberOfRows() > 0, "the trace lacks states, messages or variables")
    mt.check(ranks == 1 or 0 < local_states < states.GetNumberOfRows(),
             "rank 0 read %d of %d states: the ranks do not share the trace"
             % (local_states, states.GetNumberOfRows()))
    empty_outputs = sum(1 for table, _ in results.values() if table.GetNumberOfColumns() == 0)

    def brute(begin, end):
        """Records of every leaf in [begin, end): per kind, by brute force."""
        s0, s1 = col(states, "Start"), col(states, "End")
        in_state = np.where(s0 == s1, (s0 >= begin) & (s0 < end),
                            np.minimum(s1, end) - np.maximum(s0, begin) > 0)
        def inside(t):
            return (t >= begin) & (t < end)
        counts = {
            "States": np.bincount(col(states, "Location").astype(int), weights=in_state, minlength=leaves),
            "Events": np.bincount(col(events, "Location").astype(int),
                                  weights=inside(col(events, "Time")), minlength=leaves),
            "Variables": np.bincount(col(variables, "Location").astype(int),
                                     weights=inside(col(variables, "Time")), minlength=leaves),
            "Messages": np.bincount(col(messages, "Sender").astype(int),
                                    weights=inside(col(messages, "SendTime")), minlength=leaves)
                        + np.bincount(col(messages, "Receiver").astype(int),
                                      weights=inside(col(messages, "RecvTime")), minlength=leaves),
        }
        return {k: v.astype(int) for k, v in counts.items()}

    kinds = ("States", "Events", "Variables", "Messages")
    seen_both = 0
    for (window_name, level, minimum, activity), (table, rows_all_ranks) in results.items():
        label = "%s window, level %d, minimum %d, %s" % (window_name, level, minimum, activity)
        begin, end = windows[window_name]
        if end == 0.0:
            end = np.inf
        by_leaf = brute(begin, end)
        owner = producer_of_leaf(level)
        expected = {}
        for l in range(leaves):
            entry = expected.setdefault(owner[l], dict.fromkeys(kinds, 0))
            for k in kinds:
                entry[k] += by_leaf[k][l]
        chosen = sorted(v for v, c in expected.items()
                        if (sum(c.values()) >= minimum) == (activity == "Active"))
        if table.GetNumberOfColumns() == 0:
            # Under MPI the reduction behind Fetch drops a table that is
            # empty on every rank, columns and field data included.
            mt.check(ranks > 1 and not chosen and rows_all_ranks == 0,
                     "%s: the output has no columns, %d producers expected" % (label, len(chosen)))
            continue
        got_paths = mt.column(table, "Path")
        mt.check(got_paths == [paths[v] for v in chosen],
                 "%s: producers %s, expected %s" % (label, got_paths, [paths[v] for v in chosen]))
        mt.check(rows_all_ranks == len(chosen),
                 "%s: %d rows over all ranks, %d expected (rows duplicated on ranks?)"
                 % (label, rows_all_ranks, len(chosen)))
        mt.check(mt.column(table, "Vertex") == chosen and
                 mt.column(table, "Name") == [names[v] for v in chosen],
                 "%s: Vertex or Name wrong" % label)
        for k in kinds:
            mt.check(mt.column(table, k) == [expected[v][k] for v in chosen],
                     "%s: %s counts %s, expected %s" % (label, k, mt.column(table, k),
                                                       [expected[v][k] for v in chosen]))
        mt.check(mt.column(table, "Total") == [sum(expected[v].values()) for v in chosen],
                 "%s: Total is not the sum of the kinds" % label)
        fields = table.GetFieldData()
        resource_names = fields.GetAbstractArray("ResourceNames")
        mt.check([resource_names.GetValue(i) for i in range(resource_names.GetNumberOfValues())] ==
                 [paths[v] for v in chosen], "%s: ResourceNames is not the rows' paths" % label)
        mt.check(fields.GetArray("Selected").GetValue(0) == len(chosen) and
                 fields.GetArray("Total").GetValue(0) == len(expected),
                 "%s: Selected / Total field data wrong" % label)
        # Active and Idle: disjoint, together every producer.
        if activity == "Active":
            idle = results[(window_name, level, minimum, "Idle")][0]
            other = mt.column(idle, "Vertex") if idle.GetNumberOfColumns() else []
            mine = mt.column(table, "Vertex")
            mt.check(not set(mine) & set(other) and sorted(mine + other) == sorted(expected),
                     "%s: Active and Idle do not partition the %d producers" % (label, len(expected)))
            seen_both += bool(mine) and bool(other)
            if window_name == "before":
                mt.check(mine == [] and len(other) == len(expected),
                         "%s: a window before the trace start has active producers" % label)
    mt.check(seen_both >= 3, "too few cases with both active and idle producers (%d)" % seen_both)
    print("%d Active Producers outputs equal the brute force (%d with both active and idle, "
          "%d empty on every rank) on %d rank(s)" % (len(results), seen_both, empty_outputs, ranks))

    # The names fed to Time Slicing select exactly the active locations' rows.
    by_leaf = brute(*windows["short"])
    active_leaves = [l for l in range(leaves) if sum(by_leaf[k][l] for k in kinds) >= 1]
    mt.check(0 < len(active_leaves) < leaves,
             "the short window has %d of %d active locations: nothing to select" % (len(active_leaves), leaves))
    mt.check(names_fed == [paths[leaf_vertex[l]] for l in active_leaves], "ResourceNames are not the active locations")
    mt.check(not np.isnan(v_full).any() and not np.isnan(v_subset).any(), "a model is incomplete")
    mt.check(v_subset.shape[1] == len(active_leaves) and np.array_equal(v_subset, v_full[:, active_leaves, :]),
             "Time Slicing on the ResourceNames does not give exactly the active locations' rows")
    print("ResourceNames -> Time Slicing: %d of %d locations, rows equal the full model's"
          % (len(active_leaves), leaves))

    for key, text in errors.items():
        line = next((l for l in text.splitlines() if key in l), "")
        mt.check(line != "", "bad %s: expected an error naming it, got:\n%s" % (key, text))
        print("clear error for %s: %s" % (key, line.strip()[:160]))
print("rank %d: ok" % rank)
