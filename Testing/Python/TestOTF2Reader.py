"""The OTF2 reader in pvpython on synthesized archives: what the GUI knows
before Apply, every table against the synthesizer's counts, the hierarchy,
the selections, the time window, the ground truth, and File > Open.
Writes table digests for the 2-rank test (TestOTF2ReaderMPI.py) to compare."""
import json
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

PORTS = ["States", "Messages", "Events", "Variables", "Hierarchy", "Types"]
INSTANT = ["ProgramBegin", "ProgramEnd", "MpiCollectiveBegin", "MpiCollectiveEnd",
           "ThreadFork", "ThreadJoin"]


def _fetch(proxy, port):
    proxy.UpdatePipeline()
    return servermanager.Fetch(proxy, idx=port)


def read_all(anchor, **properties):
    reader = OTF2TraceReader(FileName=anchor, **properties)
    reader.UpdatePipeline()
    return reader, [_fetch(reader, p) for p in range(6)]


digests = {}
for pattern, threads in (("stencil3d", 2), ("ring", 1), ("tree", 3), ("allreduce", 2)):
    directory = os.path.join(args.output, pattern)
    summary = mt.synthesize(args, directory, "--pattern", pattern, "--threads-per-rank", threads,
                            "--iterations", 6, "--clusters", 2, "--nodes-per-cluster", 2,
                            "--ranks-per-node", 2)
    counts = summary["events"]
    anchor = os.path.join(directory, "traces.otf2")

    # Before Apply: the information pass knows the span, records and locations.
    reader = OTF2TraceReader(FileName=anchor)
    reader.UpdatePipelineInformation()
    bounds = list(reader.GetProperty("TimeBounds"))
    mt.check(abs(bounds[1] - summary["trace_length_seconds"]) < 1e-9 and bounds[0] == 0.0,
             "%s: TimeBounds %s, the trace lasts %s s" % (pattern, bounds, summary["trace_length_seconds"]))
    mt.check(reader.GetProperty("NumberOfEventRecords")[0] == summary["total_events"],
             "%s: NumberOfEventRecords %s, expected %s" % (
                 pattern, reader.GetProperty("NumberOfEventRecords")[0], summary["total_events"]))
    mt.check(reader.GetProperty("NumberOfLocations")[0] == summary["locations"],
             "%s: NumberOfLocations wrong" % pattern)
    Delete(reader)

    reader, tables = read_all(anchor)
    states, messages, events, variables, tree, types = tables
    expect = {
        "States": counts["Enter"],
        "Messages": counts["MpiSend"] + counts["MpiIsend"],
        "Events": sum(counts[k] for k in INSTANT),
        "Variables": counts["Metric"],
    }
    for port, table in zip(PORTS[:4], tables[:4]):
        mt.check(table.GetNumberOfRows() == expect[port], "%s: %d %s rows, expected %d" % (
            pattern, table.GetNumberOfRows(), port, expect[port]))
    mt.check(counts["MpiRecv"] + counts["MpiIrecv"] == expect["Messages"],
             "%s: the synthesizer wrote unbalanced messages" % pattern)
    # The same counts as OTF2's own tool sees them.
    printed = mt.otf2_print_counts(anchor)
    independent = {
        "States": printed["ENTER"],
        "Messages": printed["MPI_SEND"] + printed["MPI_ISEND"],
        "Events": sum(printed[k] for k in ("PROGRAM_BEGIN", "PROGRAM_END", "MPI_COLLECTIVE_BEGIN",
                                           "MPI_COLLECTIVE_END", "THREAD_FORK", "THREAD_JOIN")),
        "Variables": printed["METRIC"],
    }
    mt.check(printed["ENTER"] == printed["LEAVE"], "%s: otf2-print sees unbalanced Enter/Leave" % pattern)
    mt.check(printed["MPI_RECV"] + printed["MPI_IRECV"] == independent["Messages"],
             "%s: otf2-print sees unbalanced messages" % pattern)
    for port, table in zip(PORTS[:4], tables[:4]):
        mt.check(table.GetNumberOfRows() == independent[port], "%s: %d %s rows, otf2-print counts %d" % (
            pattern, table.GetNumberOfRows(), port, independent[port]))
    field = states.GetFieldData()
    for anomaly in ("UnmatchedSends", "UnmatchedReceives", "StatesLeftOpen", "LeavesWithoutEnter"):
        mt.check(field.GetArray(anomaly).GetValue(0) == 0, "%s: %s reported on a clean archive" % (pattern, anomaly))

    # The hierarchy: machine, clusters, nodes, ranks, threads; leaves in order.
    ranks = summary["ranks"]
    mt.check(tree.GetNumberOfVertices() == 1 + 2 + 4 + ranks + ranks * threads,
             "%s: hierarchy has %d vertices" % (pattern, tree.GetNumberOfVertices()))
    leaf_index = tree.GetVertexData().GetArray("LeafIndex")
    kinds = tree.GetVertexData().GetAbstractArray("Kind")
    leaves = [leaf_index.GetValue(v) for v in range(tree.GetNumberOfVertices()) if leaf_index.GetValue(v) >= 0]
    mt.check(leaves == list(range(summary["locations"])), "%s: leaves not numbered in order" % pattern)
    mt.check(sorted(set(kinds.GetValue(v) for v in range(tree.GetNumberOfVertices()))) ==
             ["cluster", "machine", "node", "process", "thread"],
             "%s: unexpected vertex kinds" % pattern)

    # Types: every state type named, coloured, and consistent with the States.
    names = mt.column(types, "Name")
    kinds_t = mt.column(types, "Kind")
    mt.check("compute" in names and "MPI_Init" in names, "%s: regions missing from Types" % pattern)
    state_types = set(mt.column(states, "Type"))
    mt.check(all(kinds_t[t] == "state" for t in state_types), "%s: a state row has a non-state type" % pattern)
    mt.check(types.GetColumnByName("Color").GetNumberOfComponents() == 3, "Types has no RGB Color")
    starts = mt.column(states, "Start")
    ends = mt.column(states, "End")
    mt.check(all(0.0 <= s <= e <= bounds[1] + 1e-9 for s, e in zip(starts, ends)),
             "%s: a state lies outside the trace or ends before it starts" % pattern)
    if expect["Messages"]:
        sends = mt.column(messages, "SendTime")
        recvs = mt.column(messages, "RecvTime")
        mt.check(all(r >= s for s, r in zip(sends, recvs)), "%s: a message arrives before it leaves" % pattern)
        mt.check(set(mt.column(messages, "Bytes")) <= {65536, 8}, "%s: unexpected message sizes" % pattern)

    if pattern == "stencil3d":
        for port, table in zip(PORTS, tables):
            if port != "Hierarchy":
                digests[port] = mt.table_digest(table)
        digests["anchor"] = anchor
        digests["rows"] = {p: t.GetNumberOfRows() for p, t in zip(PORTS, tables) if p != "Hierarchy"}

        # One location: only its rows.
        one = "cluster-1/node-2/MPI Rank 4/OMP thread 1"
        picked = OTF2TraceReader(FileName=anchor, Locations=[one])
        s = _fetch(picked, 0)
        mt.check(s.GetNumberOfRows() > 0 and set(mt.column(s, "Location")) == {9},
                 "selecting %s gave locations %s" % (one, sorted(set(mt.column(s, "Location")))))
        # One region: only its states, at their true depth.
        only = OTF2TraceReader(FileName=anchor, Regions=["compute"])
        s = _fetch(only, 0)
        compute = names.index("compute")
        mt.check(s.GetNumberOfRows() > 0 and set(mt.column(s, "Type")) == {compute},
                 "the region filter kept other regions")
        mt.check(min(mt.column(s, "Depth")) >= 1, "compute is nested, its depth cannot be 0")
        # A window: overlapping states only, fewer rows; clipped states inside.
        a, b = 0.3 * bounds[1], 0.6 * bounds[1]
        windowed = OTF2TraceReader(FileName=anchor, TimeWindow=[a, b])
        s = _fetch(windowed, 0)
        mt.check(0 < s.GetNumberOfRows() < states.GetNumberOfRows(), "the window did not narrow the states")
        mt.check(all(e >= a and st <= b for st, e in zip(mt.column(s, "Start"), mt.column(s, "End"))),
                 "a state outside the window was read")
        clipped = OTF2TraceReader(FileName=anchor, TimeWindow=[a, b], ClipStatesToWindow=1)
        s = _fetch(clipped, 0)
        mt.check(all(a - 1e-12 <= st <= e <= b + 1e-12
                     for st, e in zip(mt.column(s, "Start"), mt.column(s, "End"))),
                 "a clipped state sticks out of the window")

    for proxy in list(GetSources().values()):
        Delete(proxy)

# Ground truth: on a slow node, compute states in the window last longer.
directory = os.path.join(args.output, "slow")
summary = mt.synthesize(args, directory, "--perturbation", "slow-node", "--perturb-target", 1,
                        "--perturb-window", 0.02, 0.04, "--perturb-factor", 4, "--iterations", 60)
with open(os.path.join(directory, "ground_truth.json")) as f:
    truth = json.load(f)
reader, tables = read_all(os.path.join(directory, "traces.otf2"), TimeWindow=[0.02, 0.04],
                          Regions=["compute"])
states, tree = tables[0], tables[4]
names = tree.GetVertexData().GetAbstractArray("Name")
leaf_index = tree.GetVertexData().GetArray("LeafIndex")
# Ranks of the slow node, by the hierarchy: leaves below a vertex named like the target.
affected_leaves = set()
for v in range(tree.GetNumberOfVertices()):
    if leaf_index.GetValue(v) >= 0:
        rank_vertex = tree.GetParent(v)
        node_vertex = tree.GetParent(rank_vertex)
        if names.GetValue(node_vertex) == truth["target"]["name"]:
            affected_leaves.add(leaf_index.GetValue(v))
mt.check(affected_leaves, "no leaf found below %s" % truth["target"]["name"])
durations = {True: [], False: []}
for loc, s, e in zip(mt.column(states, "Location"), mt.column(states, "Start"), mt.column(states, "End")):
    if s >= 0.02 and e <= 0.04:
        durations[loc in affected_leaves].append(e - s)
slow = sum(durations[True]) / len(durations[True])
normal = sum(durations[False]) / len(durations[False])
print("compute in the window: %.6f s on %s, %.6f s elsewhere" % (slow, truth["target"]["name"], normal))
mt.check(slow > 2.5 * normal, "the slow node's compute states are not slower in the window")

# File > Open picks this reader for *.otf2.
opened = OpenDataFile(os.path.join(directory, "traces.otf2"))
mt.check(opened is not None and opened.GetXMLName() == "MacroscopeOTF2Reader",
         "OpenDataFile did not choose the Macroscope OTF2 reader")

with open(os.path.join(args.output, "..", "otf2-serial-digests.json"), "w") as f:
    json.dump(digests, f, indent=1)
print("OTF2 reader: 4 patterns checked, digests written")
