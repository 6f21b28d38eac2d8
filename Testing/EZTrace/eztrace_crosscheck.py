"""Cross-check of Macroscope's OTF2 reader against otf2-print on an archive
EZTrace wrote of a real MPI program (docs/eztrace.md).

    pvpython eztrace_crosscheck.py ARCHIVE --plugin Macroscope.so
             --otf2-print PATH [--min-states N] [--min-messages N]
             [--min-collectives N] [--threads-per-rank N]

Both sides become rows keyed by names and nanosecond ticks
(otf2_print_reference.py): every state (location, region, depth, start,
end), every message (sender, receiver, communicator, tag, lengths, send and
receive ticks), every instant record (collectives with their communicator,
root and operation), must be the same multiset; so must the anomaly counts
and the time span. The lower bounds come from the program's source, so that
an archive that lost its records does not pass by agreeing on nothing.
"""
import argparse
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import otf2_print_reference  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("archive")
parser.add_argument("--plugin", required=True)
parser.add_argument("--otf2-print", required=True)
parser.add_argument("--min-states", type=int, default=1)
parser.add_argument("--min-messages", type=int, default=0)
parser.add_argument("--min-collectives", type=int, default=0)
parser.add_argument("--min-sends", type=int, default=0,
                    help="sends otf2-print lists, matched or not")
parser.add_argument("--proc-null", type=int, default=0,
                    help="peers the program gives as MPI_PROC_NULL")
parser.add_argument("--threads-per-rank", type=int, default=1)
parser.add_argument("--ranks", type=int, required=True)
parser.add_argument("--window", type=float, nargs=2, metavar=("BEGIN", "END"),
                    help="read only this window (the self-check: records must then be missing)")
args = parser.parse_args()

failures = []


def fail_now(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    if not condition:
        failures.append(message)
        print("MISMATCH: " + message)


for path, what in ((args.archive, "archive"), (args.plugin, "plugin"),
                   (args.otf2_print, "otf2-print")):
    if not os.path.isfile(path):
        fail_now("%s not found: %s" % (what, path))

try:
    ref = otf2_print_reference.read(args.otf2_print, args.archive)
except otf2_print_reference.ReferenceError as error:
    fail_now(str(error))
print("otf2-print: " + ref.summary())

from paraview.simple import *  # noqa: E402,F403
from paraview import servermanager  # noqa: E402

LoadPlugin(os.path.abspath(args.plugin), remote=False, ns=globals())
reader = OTF2TraceReader(FileName=os.path.abspath(args.archive))  # noqa: F405
if args.window:
    reader.TimeWindow = args.window
try:
    reader.UpdatePipeline()
except Exception as error:  # noqa: BLE001
    fail_now("Macroscope cannot read %s: %s" % (args.archive, error))
states, messages, events, _, hierarchy, types = (
    servermanager.Fetch(reader, idx=port) for port in range(6))
if states.GetNumberOfRows() == 0 and types.GetNumberOfRows() == 0:
    fail_now("Macroscope read nothing from %s (see the errors above)" % args.archive)


def column(table, name):
    array = table.GetColumnByName(name)
    if array is None:
        fail_now("table has no column %r" % name)
    return [array.GetValue(i) for i in range(array.GetNumberOfValues())]


def ticks(seconds):
    """Seconds as Macroscope gives them back to the archive's ticks."""
    return int(round(seconds * ref.resolution)) + ref.offset


# Leaf index -> location name, through the Hierarchy's LeafIndex.
data = hierarchy.GetVertexData()
names, leaves = data.GetAbstractArray("Name"), data.GetArray("LeafIndex")
leaf_names = {}
for vertex in range(hierarchy.GetNumberOfVertices()):
    leaf = int(leaves.GetValue(vertex))
    if leaf >= 0:
        leaf_names[leaf] = names.GetValue(vertex)
location_names = sorted(ref.location_names.values())
check(sorted(leaf_names.values()) == location_names,
      "leaves %s, otf2-print's locations %s" % (sorted(leaf_names.values()), location_names))
check(len(location_names) == args.ranks * args.threads_per_rank,
      "%d locations for %d ranks x %d threads" % (len(location_names), args.ranks,
                                                  args.threads_per_rank))
type_names = column(types, "Name")


def leaf_name(leaf):
    return leaf_names.get(int(leaf)) if leaf >= 0 else None


def compare(what, mine, theirs):
    mine, theirs = collections.Counter(mine), collections.Counter(theirs)
    only_mine, only_theirs = mine - theirs, theirs - mine
    print("%s: Macroscope %d, otf2-print %d" % (what, sum(mine.values()), sum(theirs.values())))
    for label, rows in (("only in Macroscope", only_mine), ("only in otf2-print", only_theirs)):
        for row in sorted(rows)[:8]:
            print("  %s: %s" % (label, row))
        if len(rows) > 8:
            print("  ... %d more" % (sum(rows.values()) - 8))
    check(not only_mine and not only_theirs,
          "%s differ: %d rows only in Macroscope, %d only in otf2-print"
          % (what, sum(only_mine.values()), sum(only_theirs.values())))


compare("states", [
    (leaf_name(location), type_names[int(kind)], int(depth), ticks(start), ticks(end))
    for location, kind, depth, start, end in zip(
        column(states, "Location"), column(states, "Type"), column(states, "Depth"),
        column(states, "Start"), column(states, "End"))], ref.states)

compare("messages", [
    (leaf_name(s), leaf_name(r), int(comm), int(tag), int(sent), int(received),
     ticks(send), ticks(recv))
    for s, r, comm, tag, sent, received, send, recv in zip(
        column(messages, "Sender"), column(messages, "Receiver"),
        column(messages, "Communicator"), column(messages, "Tag"), column(messages, "Bytes"),
        column(messages, "RecvBytes"), column(messages, "SendTime"),
        column(messages, "RecvTime"))], ref.messages)

OPERATION_NAMES = ["Barrier", "Bcast", "Gather", "Gatherv", "Scatter", "Scatterv", "Allgather",
                   "Allgatherv", "Alltoall", "Alltoallv", "Alltoallw", "Allreduce", "Reduce",
                   "ReduceScatter", "Scan", "Exscan", "ReduceScatterBlock"]


def event_row(location, kind, time, comm, root, operation):
    name = type_names[int(kind)]
    if not name.startswith("MpiCollective"):
        return (leaf_name(location), name, ticks(time), None, None, None)
    return (leaf_name(location), name, ticks(time), int(comm), leaf_name(root),
            OPERATION_NAMES[int(operation)] if 0 <= operation < len(OPERATION_NAMES)
            else "op %d" % operation)


compare("events", [event_row(*row) for row in zip(
    column(events, "Location"), column(events, "Type"), column(events, "Time"),
    column(events, "Communicator"), column(events, "Root"), column(events, "Operation"))],
    ref.event_rows())

# Counters of the read report against what otf2-print's records imply.
fields = states.GetFieldData()


def counter(name):
    array = fields.GetArray(name)
    if array is None:
        fail_now("States has no field data %r" % name)
    return int(array.GetValue(0))


report = fields.GetAbstractArray("ReadReport").GetValue(0)
print("Macroscope's read report:\n  " + report.replace("\n", "\n  "))
check(counter("EventRecordsRead") == ref.records,
      "EventRecordsRead %d, otf2-print lists %d records" % (counter("EventRecordsRead"),
                                                           ref.records))
for name, key in (("UnmatchedSends", "unmatched_sends"),
                  ("UnmatchedReceives", "unmatched_receives"),
                  ("LeavesWithoutEnter", "leaves_without_enter"),
                  ("StatesLeftOpen", "states_left_open")):
    check(counter(name) == ref.anomalies[key], "%s %d, otf2-print's records give %d"
          % (name, counter(name), ref.anomalies[key]))
check(counter("UnknownPeers") == 0, "UnknownPeers %d: every peer otf2-print resolves is a "
      "location" % counter("UnknownPeers"))
sends = sum(ref.record_counts[kind] for kind in otf2_print_reference.SENDS)
check(sends >= args.min_sends, "otf2-print lists %d sends, the program makes at least %d"
      % (sends, args.min_sends))
check(ref.anomalies["null_peers"] == args.proc_null, "otf2-print lists %d MPI_PROC_NULL "
      "(INVALID) peers, the program gives %d" % (ref.anomalies["null_peers"], args.proc_null))
# MPI_PROC_NULL peers are counted apart from the anomalies: in the field
# data when the reader adds it, else in the read report's text.
if fields.GetArray("ProcNullPeers") is not None:
    check(counter("ProcNullPeers") == ref.anomalies["null_peers"], "ProcNullPeers %d, "
          "otf2-print lists %d" % (counter("ProcNullPeers"), ref.anomalies["null_peers"]))
elif ref.anomalies["null_peers"]:
    check(re.search(r"\b%d\b[^\n]*MPI_PROC_NULL" % ref.anomalies["null_peers"], report),
          "the read report does not say %d peers were MPI_PROC_NULL"
          % ref.anomalies["null_peers"])

# The time span: the default window holds every record, and the reader's
# bounds reach the last one (EZTrace's ClockProperties give rank 0's span).
reader.UpdatePipelineInformation()  # the bounds grow with the records read
bounds = reader.GetProperty("TimeBounds")
first, last = ref.seconds(ref.first_tick), ref.seconds(ref.last_tick)
print("time span: otf2-print [%.9f, %.9f] s (ClockProperties length %.9f s), "
      "Macroscope's TimeBounds [%.9f, %.9f] s" % (first, last, ref.clock_length / ref.resolution,
                                                  bounds[0], bounds[1]))
check(bounds[0] <= first + 1e-9 and bounds[1] >= last - 1e-9,
      "TimeBounds [%.9f, %.9f] do not hold the records' span [%.9f, %.9f]"
      % (bounds[0], bounds[1], first, last))

# One state type per region name (EZTrace defines each region once per rank).
kinds = column(types, "Kind")
state_names = [n for n, k in zip(type_names, kinds) if k == "state"]
duplicates = sorted(n for n, c in collections.Counter(state_names).items() if c > 1)
check(not duplicates, "region names with several state types: %s" % duplicates)

check(len(ref.states) >= args.min_states, "otf2-print lists %d states, the program makes at "
      "least %d" % (len(ref.states), args.min_states))
check(len(ref.messages) >= args.min_messages, "otf2-print's records pair into %d messages, "
      "the program sends at least %d" % (len(ref.messages), args.min_messages))
check(len(ref.collectives()) >= args.min_collectives, "otf2-print lists %d collectives, the "
      "program makes at least %d" % (len(ref.collectives()), args.min_collectives))

print("counts: otf2-print %d states, %d messages, %d collective ends; Macroscope %d states, "
      "%d messages, %d collective ends" % (
          len(ref.states), len(ref.messages), len(ref.collectives()), states.GetNumberOfRows(),
          messages.GetNumberOfRows(),
          sum(1 for t in column(events, "Type") if type_names[int(t)] == "MpiCollectiveEnd")))
if failures:
    fail_now("%d disagreement(s) with otf2-print on %s:\n  %s"
             % (len(failures), args.archive, "\n  ".join(failures)))
print("ok: Macroscope's tables equal otf2-print's records")
