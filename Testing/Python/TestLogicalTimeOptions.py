"""Logical Time's options from Ravel and for unsynchronised clocks (issue
28, docs/logical-time-filter.md), on synthesized traces with known ground
truth: per-phase lateness next to the global one, phases merged at a call
depth or bounded by collectives (counts from the trace's own collectives),
clock offsets injected with macroscope-synth --clock-offsets detected,
named in a warning and removed (the corrected lateness ranks the slowed
process first, the uncorrected one does not), and states written when
MergeByEnclosingCall was a check box loading with the same meaning."""
import collections
import json
import os
import re

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

# 4 ranks of one thread; rank 2 (node 2) computes 3 times slower; the clocks
# of ranks 1 and 3 run 0.3 s and 0.6 s ahead.
directory = os.path.join(args.output, "skewed")
mt.synthesize(args, directory, "--clusters", 1, "--nodes-per-cluster", 4, "--ranks-per-node", 1,
              "--threads-per-rank", 1, "--iterations", 40, "--pattern", "stencil3d",
              "--perturbation", "slow-node", "--perturb-target", 2,
              "--clock-offsets", "0,0.3,0,0.6")
with open(os.path.join(directory, "ground_truth.json")) as f:
    truth = json.load(f)
injected = truth["clock_offsets"]
slowed = truth["affected"]["locations"]
mt.check(injected == [0, 0.3, 0, 0.6] and slowed == [2],
         "unexpected ground truth: offsets %s, slowed %s" % (injected, slowed))
trace_file = os.path.join(directory, "traces.otf2")
reader = OTF2TraceReader(FileName=trace_file)
reader.UpdatePipeline()
lt = LogicalTime(Input=[OutputPort(reader, i) for i in range(6)], Clustering=0)


def events():
    lt.UpdatePipeline()
    return servermanager.Fetch(lt, idx=0)


def field(table, name):
    array = table.GetFieldData().GetAbstractArray(name)
    mt.check(array is not None, "Logical Events has no %s field data" % name)
    return [array.GetValue(i) for i in range(array.GetNumberOfValues())]


def ranking(table):
    """Locations by their mean lateness, the latest first."""
    total, count = collections.Counter(), collections.Counter()
    for location, lateness in zip(mt.column(table, "Location"), mt.column(table, "Lateness")):
        total[location] += lateness
        count[location] += 1
    return sorted(total, key=lambda l: -total[l] / count[l])


# Uncorrected: messages received before they were sent, reported with the
# trace's name; lateness ranks the clocks, the one furthest ahead first.
plain = events()
violations = field(plain, "ClockViolations")
report = field(plain, "ClockReport")[0]
mt.check(violations[0] > 0 and violations[0] == violations[1],
         "uncorrected: violations before/after %s" % violations)
mt.check(trace_file in report and "received before they were sent" in report,
         "the clock report does not name the trace: %s" % report)
mt.check(field(plain, "ClockOffset") == [0.0] * 4, "uncorrected offsets are not 0")
order = ranking(plain)
mt.check(order[0] == 3 and order[0] not in slowed,
         "uncorrected lateness ranks %s first, expected rank 3 (0.6 s ahead)" % order)

# Corrected from the collectives' exits (synchronising: exact) and from the
# messages (a busy receiver biases them by part of its delay).
for source, tolerance in (("From Collectives", 1e-6), ("From Messages", 5e-3)):
    lt.ClockCorrection = source
    corrected = events()
    offsets = field(corrected, "ClockOffset")
    mt.check(all(abs(o - i) <= tolerance for o, i in zip(offsets, injected)),
             "%s: offsets %s, injected %s" % (source, offsets, injected))
    after = field(corrected, "ClockViolations")
    mt.check(after[0] == violations[0] and after[1] == 0,
             "%s: violations before/after %s" % (source, after))
    order = ranking(corrected)
    mt.check(order[0] in slowed, "%s: lateness ranks %s first, not the slowed rank 2" % (source, order))
    mt.check("ClockCorrection estimated" in field(corrected, "ClockReport")[0],
             "%s: the report does not say what was corrected" % source)

# Per-phase lateness: compared within the phase, never above the global
# one; the Metric picks either.
for metric, column in (("Phase Lateness", "PhaseLateness"), ("Lateness", "Lateness"),
                       ("Phase Differential Lateness", "PhaseDifferentialLateness")):
    lt.Metric = metric
    table = events()
    mt.check(mt.column(table, "Metric") == mt.column(table, column),
             "Metric %s is not the %s column" % (metric, column))
    mt.check(field(table, "MetricName") == [metric], "MetricName is %s" % field(table, "MetricName"))
phase_lateness = mt.column(table, "PhaseLateness")
mt.check(all(p <= g + 1e-12 for p, g in zip(phase_lateness, mt.column(table, "Lateness"))),
         "a phase lateness exceeds its global lateness")

# Phases. The trace's collective operations: MpiCollectiveEnd records per rank.
types = servermanager.Fetch(reader, idx=5)
names = mt.column(types, "Name")
records = collections.Counter(names[t] for t in mt.column(servermanager.Fetch(reader, idx=2), "Type"))
operations = records["MpiCollectiveEnd"] // 4
iterations = 40


def phases(**properties):
    lt.MergeByEnclosingCall, lt.MergeDepth, lt.CollectiveBoundaries = 1, -1, "None"
    for name, value in properties.items():
        setattr(lt, name, value)
    lt.UpdatePipeline()
    return servermanager.Fetch(lt, idx=5).GetNumberOfRows()


default = phases()
mt.check(default > iterations, "%d phases for %d iterations" % (default, iterations))
# One phase per call of `iteration` (depth 1), plus the prologue's and the
# epilogue's barriers; main (depth 0) holds everything.
mt.check(phases(MergeDepth=1) == iterations + 2, "MergeDepth 1: %d phases" % phases(MergeDepth=1))
mt.check(phases(MergeDepth=0) == 1, "MergeDepth 0: %d phases" % phases(MergeDepth=0))
# Every collective starts a phase; none comes before the prologue's barrier.
mt.check(phases(CollectiveBoundaries="Every Collective") == operations,
         "every collective: %d phases for %d operations" % (
             phases(CollectiveBoundaries="Every Collective"), operations))
mt.check(phases(CollectiveBoundaries="Named Collective", BoundaryCollective="MPI_Barrier") == 2,
         "barriers (prologue, epilogue) as boundaries: %d phases" % phases(
             CollectiveBoundaries="Named Collective", BoundaryCollective="MPI_Barrier"))
mt.check(phases(CollectiveBoundaries="Named Collective", BoundaryCollective="no such region") == default,
         "an unknown boundary region must leave the phases alone")
# Ravel's caller merge (main included) merges at least what the default
# does here (the halo exchange's calls share exchange_halo); none, at most.
mt.check(phases(MergeByEnclosingCall=2) <= default, "Ravel's caller merge split phases")
mt.check(phases(MergeByEnclosingCall=0) >= default, "no caller merge merged phases")

# A state written when MergeByEnclosingCall was a check box (BooleanDomain
# "bool") loads with the same value and phases.
lt.ClockCorrection, lt.Metric = "None", "Lateness"
for value in (0, 1):
    expected = phases(MergeByEnclosingCall=value)
    lt.MergeByEnclosingCall = value
    state = os.path.join(args.output, "old-boolean-%d.pvsm" % value)
    SaveState(state)
    with open(state) as f:
        text = f.read()
    old, count = re.subn(
        r'(<Property name="MergeByEnclosingCall" id="([^"]+)"[^>]*>\s*<Element index="0" value="%d"/>\s*)'
        r'<Domain name="enum".*?</Domain>' % value,
        lambda m: m.group(1) + '<Domain name="bool" id="%s.bool"/>' % m.group(2), text, flags=re.S)
    mt.check(count == 1, "the state has no MergeByEnclosingCall enumeration to turn into a boolean")
    with open(state, "w") as f:
        f.write(old)
    ResetSession()
    mt.load_plugin(args, globals())
    LoadState(state)
    lt = FindSource("LogicalTime1")
    mt.check(lt is not None, "the logical time filter is not in the reloaded state")
    loaded = lt.SMProxy.GetProperty("MergeByEnclosingCall").GetElement(0)
    mt.check(loaded == value, "old boolean %d loads as %s" % (value, loaded))
    lt.UpdatePipeline()
    got = servermanager.Fetch(lt, idx=5).GetNumberOfRows()
    mt.check(got == expected, "old boolean %d: %d phases, %d before" % (value, got, expected))
print("logical time options: ok")
