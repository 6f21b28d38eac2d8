"""Logical Time through the filter on the calls that make one step out of
several (docs/logical-time.md, sections 1 and 2): Ravel's Isend coalescing
(CoalesceIsends, on by default) on the synthesized 16-rank stencil and on a
hand-written archive, MPI_Sendrecv exchanges whose partners share a step, a
collective-only run, MPI calls known by name under the "user" paradigm
(EZTrace's), and the Dropped column of Logical Messages. Expected steps are
worked out by hand in the comments."""
import collections
import os
import shutil
import subprocess

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

AGGREGATE, SEND, RECEIVE, SENDRECEIVE, COLLECTIVE = range(5)


def fetch(proxy, port):
    return servermanager.Fetch(proxy, idx=port)


def rows(table):
    names = [table.GetColumnName(c) for c in range(table.GetNumberOfColumns())]
    Row = collections.namedtuple("Row", names)
    return [Row(*values) for values in zip(*[mt.column(table, n) for n in names])]


def calls(events):
    """The communication rows of each location, in time order."""
    by_location = collections.defaultdict(list)
    for e in events:
        if e.Kind != AGGREGATE:
            by_location[e.Location].append(e)
    return by_location


def steps_of(lt):
    return {location: [e.Step for e in es] for location, es in calls(rows(fetch(lt, 0))).items()}


# --- The hand-written probe: two ranks, all regions of the "user" paradigm. --
tool = os.path.join(os.path.dirname(args.synth), "macroscope-otf2-write-logical-probe")
mt.check(os.path.isfile(tool), "macroscope-otf2-write-logical-probe not built: " + tool)
directory = os.path.join(args.output, "logical-probe")
shutil.rmtree(directory, ignore_errors=True)  # OTF2 does not overwrite an archive
result = subprocess.run([tool, directory], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
mt.check(result.returncode == 0, "%s failed:\n%s" % (tool, result.stdout))
probe = OTF2TraceReader(FileName=result.stdout.strip())
capture = mt.ErrorCapture()
try:
    lt = LogicalTime(Input=OutputPort(probe, 0))
    lt.UpdatePipeline()
finally:
    capture.close()
mt.check(lt.CoalesceIsends == 1, "CoalesceIsends is not on by default")
mt.check("1 message(s) contradicted the order of events" in capture.text(),
         "no warning about the skewed message: %s" % capture.text().strip()[:400])
# Worked out in Testing/OTF2/TestLogicalTimeSynthesized.cxx (HandWrittenProbe):
# three Sendrecv exchanges at steps 0, 1, 2 on both ranks; the skewed pair
# (rank 0's Send holding the skewed receive at 3; rank 1's Recv 4, Send 5);
# the halo exchange's two Isends one event at 6, the Waitalls at 7.
coalesced = {0: [0, 1, 2, 3, 6, 7], 1: [0, 1, 2, 4, 5, 6, 7]}
mt.check(steps_of(lt) == coalesced, "probe: steps %s, expected %s" % (steps_of(lt), coalesced))
# Off, on the same filter (the trace is rebuilt): Isends at 6, 7, Waitalls 8.
lt.CoalesceIsends = 0
lt.UpdatePipeline()
separate = {0: [0, 1, 2, 3, 6, 7, 8], 1: [0, 1, 2, 4, 5, 6, 7, 8]}
mt.check(steps_of(lt) == separate, "probe without coalescing: steps %s, expected %s"
         % (steps_of(lt), separate))
lt.CoalesceIsends = 1
lt.UpdatePipeline()
mt.check(steps_of(lt) == coalesced, "probe: coalescing on again gives %s" % steps_of(lt))
# The Sendrecvs share their enclosing call `exchange`: one phase merged, three
# apart; the skewed pair and the halo exchange one each. Changing the
# property rebuilds the trace, as a fresh filter would.
phase_count = lambda proxy: fetch(proxy, 5).GetNumberOfRows()
mt.check(phase_count(lt) == 3, "probe: %d phases, 3 expected" % phase_count(lt))
lt.MergeByEnclosingCall = 0
lt.UpdatePipeline()
fresh = LogicalTime(Input=OutputPort(probe, 0), MergeByEnclosingCall=0)
fresh.UpdatePipeline()
mt.check(phase_count(lt) == phase_count(fresh) == 5, "probe without merging by enclosing call: %d "
         "phases, a fresh filter %d, 5 expected" % (phase_count(lt), phase_count(fresh)))
mt.check(steps_of(lt) == coalesced, "probe without merging: steps %s" % steps_of(lt))
Delete(fresh)
lt.MergeByEnclosingCall = 1
lt.UpdatePipeline()

# MPI calls known by name: every endpoint is in its call (no instant event),
# and the calls are the MPI_ regions, though their paradigm is "user".
names = mt.column(fetch(probe, 5), "Name")
events = rows(fetch(lt, 0))
for location, es in calls(events).items():
    kinds = [e.Kind for e in es]
    types = [names[e.Type] if e.Type >= 0 else "instant" for e in es]
    mt.check(all(e.State >= 0 for e in es), "rank %d has instant events: %s" % (location, types))
    expected = (["MPI_Sendrecv"] * 3 + (["MPI_Send"] if location == 0 else ["MPI_Recv", "MPI_Send"])
                + ["MPI_Isend", "MPI_Waitall"])
    mt.check(types == expected, "rank %d calls %s, expected %s" % (location, types, expected))
    mt.check(kinds[:3] == [SENDRECEIVE] * 3, "rank %d: the Sendrecvs are kinds %s" % (location, kinds))
    halo = es[-2]
    mt.check(halo.Kind == SEND and halo.Sends == 2, "rank %d: the coalesced Isends are kind %d with "
             "%d sends" % (location, halo.Kind, halo.Sends))

# Logical Messages: every message kept but the skewed one, which is flagged.
messages = rows(fetch(lt, 1))
mt.check(len(messages) == 12, "probe: %d logical messages, 12 expected" % len(messages))
mt.check("Dropped" in messages[0]._fields, "Logical Messages has no Dropped column")
dropped = [m for m in messages if m.Dropped]
mt.check(len(dropped) == 1 and dropped[0].RecvTime < dropped[0].SendTime and
         (dropped[0].Sender, dropped[0].Receiver) == (1, 0),
         "probe: dropped messages %s, expected only rank 1's skewed answer" % (dropped,))
for m in messages:
    send, recv = events[m.SendEvent], events[m.RecvEvent]
    if send.Kind == SENDRECEIVE and recv.Kind == SENDRECEIVE and not m.Dropped:
        # Both partners of a Sendrecv exchange are at one step.
        mt.check(send.Step == recv.Step, "Sendrecv message %d: steps %d -> %d"
                 % (m.Message, send.Step, recv.Step))
    elif not m.Dropped:
        mt.check(recv.Step > send.Step, "message %d: steps %d -> %d" % (m.Message, send.Step, recv.Step))


# --- A collective-only run: no point-to-point message at all. ---------------
def synthesized(name, *options):
    path = os.path.join(args.output, name)
    mt.synthesize(args, path, "--threads-per-rank", 1, *options)
    reader = OTF2TraceReader(FileName=os.path.join(path, "traces.otf2"))
    reader.UpdatePipeline()
    return reader


allreduce = synthesized("allreduce", "--clusters", 1, "--nodes-per-cluster", 2,
                        "--ranks-per-node", 2, "--iterations", 5, "--pattern", "allreduce")
mt.check(fetch(allreduce, 1).GetNumberOfRows() == 0, "the allreduce run has messages")
alt = LogicalTime(Input=OutputPort(allreduce, 0))
alt.UpdatePipeline()
# Barrier, 5 Allreduces, Barrier: 7 operations, each its own phase of one
# step, in order: every rank's calls are at steps 0..6, all 4 ranks share
# each step, and the computation before a call is at its step (GlobalStep 2s).
events = rows(fetch(alt, 0))
for location, es in calls(events).items():
    mt.check([e.Step for e in es] == list(range(7)) and all(e.Kind == COLLECTIVE for e in es),
             "allreduce: rank %d has steps %s, kinds %s" % (location, [e.Step for e in es],
                                                              [e.Kind for e in es]))
by_step = collections.defaultdict(set)
for e in events:
    by_step[e.GlobalStep].add(e.Location)
mt.check(sorted(by_step) == list(range(14)) and all(len(s) == 4 for s in by_step.values()),
         "allreduce: global steps %s" % dict(by_step))
empty = fetch(alt, 1)
mt.check(empty.GetNumberOfRows() == 0 and empty.GetColumnByName("Dropped") is not None,
         "allreduce: Logical Messages has %d rows, columns %s" % (empty.GetNumberOfRows(),
         [empty.GetColumnName(c) for c in range(empty.GetNumberOfColumns())]))


# --- The synthesized stencil on 16 ranks (the measure). -------------
iterations = 4
stencil = synthesized("stencil16", "--iterations", iterations, "--pattern", "stencil3d")
trace_messages = rows(fetch(stencil, 1))
neighbours = collections.Counter(m.Sender for m in trace_messages)
mt.check(len(neighbours) == 16, "stencil: %d ranks send" % len(neighbours))
k = max(neighbours.values()) // iterations  # the most Isends a rank makes per exchange
# Barrier, 4 exchanges, Barrier. Off: a rank's Isends are rounds 0..k-1,
# every Waitall one step after the last Isend of its neighbours, at k: an
# exchange takes k + 1 steps. On: one Send event, the Waitall after it: 2.
expected = {0: 1 + iterations * (k + 1) + 1, 1: 1 + iterations * 2 + 1}
measured = {}
slt = LogicalTime(Input=OutputPort(stencil, 0))
for coalesce in (0, 1):
    slt.CoalesceIsends = coalesce
    slt.UpdatePipeline()
    events = rows(fetch(slt, 0))
    measured[coalesce] = max(e.Step for e in events) + 1
    for location, es in calls(events).items():
        sends = [e for e in es if e.Kind == SEND]
        count = iterations if coalesce else neighbours[location]
        mt.check(len(sends) == count, "stencil (coalescing %d): rank %d has %d Send events, expected %d"
                 % (coalesce, location, len(sends), count))
        if coalesce:
            mt.check(all(e.Sends == neighbours[location] // iterations for e in sends),
                     "stencil: rank %d's coalesced sends hold %s messages"
                     % (location, [e.Sends for e in sends]))
    mt.check(measured[coalesce] == expected[coalesce], "stencil on 16 ranks, coalescing %d: %d steps,"
             " expected %d (k = %d)" % (coalesce, measured[coalesce], expected[coalesce], k))
print("stencil3d, 16 ranks, %d iterations, up to %d neighbours: %d steps without Isend coalescing, "
      "%d with" % (iterations, k, measured[0], measured[1]))
