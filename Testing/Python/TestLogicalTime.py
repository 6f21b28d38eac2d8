"""Logical Time on synthesized traces, checked against brute force and the
injected ground truth: happened-before respected by the steps, collectives
aligned, phases strictly ordered, the ring's and the binary-tree gather's
known step patterns, the exchange pattern found, lateness and differential
lateness recomputed, the physical <-> logical map, a slow node's lateness
propagating and resetting, clustering separating the slow ranks, the
metrics fed to Time Slicing, and clear errors for nonsensical properties."""
import collections
import json
import math
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

AGGREGATE, SEND, RECEIVE, SENDRECEIVE, COLLECTIVE = range(5)


def trace(name, *options):
    directory = os.path.join(args.output, name)
    mt.synthesize(args, directory, "--threads-per-rank", 1, *options)
    reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
    reader.UpdatePipeline()
    return directory, reader


def logical_time(reader, **properties):
    lt = LogicalTime(Input=[OutputPort(reader, i) for i in range(6)], **properties)
    lt.UpdatePipeline()
    return lt


def table(proxy, port):
    return servermanager.Fetch(proxy, idx=port)


def rows(t):
    names = [t.GetColumnName(c) for c in range(t.GetNumberOfColumns())]
    columns = [mt.column(t, n) for n in names]
    Row = collections.namedtuple("Row", names)
    return [Row(*values) for values in zip(*columns)]


def check_invariants(lt, reader, what):
    """Happened-before, collectives, phase order, lateness: by brute force."""
    events = rows(table(lt, 0))
    messages = rows(table(lt, 1))
    steps = rows(table(lt, 4))
    phases = rows(table(lt, 5))
    mt.check(events, "%s: no logical events" % what)
    n_messages = table(reader, 1).GetNumberOfRows()
    mt.check(len(messages) == n_messages, "%s: %d logical messages for %d trace messages"
             % (what, len(messages), n_messages))
    by_location = collections.defaultdict(list)
    for i, e in enumerate(events):
        by_location[e.Location].append(i)
        mt.check(e.GlobalStep == 2 * e.Step + (0 if e.Kind == AGGREGATE else 1),
                 "%s: event %d has GlobalStep %d for Step %d and kind %d"
                 % (what, i, e.GlobalStep, e.Step, e.Kind))
        mt.check(e.Exit >= e.Enter, "%s: event %d exits before it enters" % (what, i))
    # Each location's steps increase; each location's phases never go back.
    for location, indexes in by_location.items():
        for a, b in zip(indexes, indexes[1:]):
            mt.check(events[b].GlobalStep > events[a].GlobalStep,
                     "%s: location %d steps do not increase at rows %d, %d" % (what, location, a, b))
            mt.check(events[b].Enter >= events[a].Enter - 1e-12,
                     "%s: location %d events are not in time order" % (what, location))
    # Sends before their receives.
    for m in messages:
        s, r = events[m.SendEvent], events[m.RecvEvent]
        mt.check(r.Step > s.Step, "%s: message %d received at step %d, sent at %d"
                 % (what, m.Message, r.Step, s.Step))
        mt.check(s.Kind in (SEND, SENDRECEIVE) and r.Kind in (RECEIVE, SENDRECEIVE),
                 "%s: message %d links kinds %d -> %d" % (what, m.Message, s.Kind, r.Kind))
        mt.check((m.Sender, m.Receiver) == (s.Location, r.Location),
                 "%s: message %d ends on the wrong locations" % (what, m.Message))
    # Collectives: all members on one step.
    collective_steps = collections.defaultdict(set)
    for e in events:
        if e.Kind == COLLECTIVE:
            collective_steps[e.Collective].add(e.Step)
    for c, s in collective_steps.items():
        mt.check(len(s) == 1, "%s: collective %d spreads over steps %s" % (what, c, sorted(s)))
    # Phases strictly ordered along every location.
    for location, indexes in by_location.items():
        for a, b in zip(indexes, indexes[1:]):
            pa, pb = events[a].Phase, events[b].Phase
            if pa != pb:
                mt.check(phases[pa].LastGlobalStep < phases[pb].FirstGlobalStep,
                         "%s: phase %d [%d, %d] is not before phase %d [%d, %d] on location %d"
                         % (what, pa, phases[pa].FirstGlobalStep, phases[pa].LastGlobalStep, pb,
                            phases[pb].FirstGlobalStep, phases[pb].LastGlobalStep, location))
    for e in events:
        p = phases[e.Phase]
        mt.check(p.FirstGlobalStep <= e.GlobalStep <= p.LastGlobalStep,
                 "%s: an event of phase %d lies outside its steps" % (what, e.Phase))
    # Lateness: exit minus the earliest exit of the global step.
    earliest = {}
    for e in events:
        earliest[e.GlobalStep] = min(earliest.get(e.GlobalStep, math.inf), e.Exit)
    for i, e in enumerate(events):
        expected = e.Exit - earliest[e.GlobalStep]
        mt.check(abs(e.Lateness - expected) <= 1e-12,
                 "%s: event %d lateness %.9g, brute force %.9g" % (what, i, e.Lateness, expected))
    # Differential lateness: beyond the largest lateness of the predecessors
    # (the previous event of the location, the senders of its receives).
    predecessors = collections.defaultdict(list)
    for indexes in by_location.values():
        for a, b in zip(indexes, indexes[1:]):
            predecessors[b].append(a)
    for m in messages:
        predecessors[m.RecvEvent].append(m.SendEvent)
    for i, e in enumerate(events):
        before = max((events[p].Lateness for p in predecessors[i]), default=0.0)
        expected = max(0.0, e.Lateness - before)
        mt.check(abs(e.DifferentialLateness - expected) <= 1e-12,
                 "%s: event %d differential lateness %.9g, brute force %.9g"
                 % (what, i, e.DifferentialLateness, expected))
    # The step -> physical time map and the metric overview's sums.
    spans = {}
    sums = collections.Counter()
    for e in events:
        lo, hi = spans.get(e.GlobalStep, (math.inf, -math.inf))
        spans[e.GlobalStep] = (min(lo, e.Enter), max(hi, e.Exit))
        sums[e.GlobalStep] += e.Metric
    for s in steps:
        if s.GlobalStep in spans:
            mt.check((s.Start, s.End) == spans[s.GlobalStep],
                     "%s: step %d spans %s, brute force %s"
                     % (what, s.GlobalStep, (s.Start, s.End), spans[s.GlobalStep]))
            mt.check(abs(s.MetricSum - sums[s.GlobalStep]) <= 1e-9,
                     "%s: step %d metric sum" % (what, s.GlobalStep))
        else:
            mt.check(s.Events == 0, "%s: step %d has events but no span" % (what, s.GlobalStep))
    return events, messages, steps, phases


def type_names(reader):
    types = table(reader, 5)
    return mt.column(types, "Name")


# --- A ring of 8 ranks: every exchange is Isend, Isend, Waitall. ------------
# Ravel's steps with its Isend coalescing off (TestLogicalTimeCalls.py: on).
iterations = 12
_, ring = trace("ring", "--clusters", 1, "--nodes-per-cluster", 2, "--ranks-per-node", 4,
                "--iterations", iterations, "--pattern", "ring")
lt = logical_time(ring, CoalesceIsends=0)
events, messages, steps, phases = check_invariants(lt, ring, "ring")
collectives = {e.Collective for e in events if e.Kind == COLLECTIVE}
mt.check(len(phases) == iterations + len(collectives),
         "ring: %d phases for %d exchanges and %d collective operations"
         % (len(phases), iterations, len(collectives)))
exchange_phases = [p for p in phases if p.PatternName != "None"]
mt.check(len(exchange_phases) == iterations, "ring: %d exchange phases, expected %d (%s)"
         % (len(exchange_phases), iterations, collections.Counter(p.PatternName for p in phases)))
for p in exchange_phases:
    mt.check(p.PatternName == "ReceivesWaitall" and p.Locations == 8 and p.MaxReceives == 2,
             "ring: phase %d is %s over %d locations with at most %d receives"
             % (p.Phase, p.PatternName, p.Locations, p.MaxReceives))
    first_step = p.FirstGlobalStep // 2
    for location in range(8):
        kinds = [(e.Step - first_step, e.Kind) for e in events
                 if e.Phase == p.Phase and e.Location == location and e.Kind != AGGREGATE]
        mt.check(kinds == [(0, SEND), (1, SEND), (2, RECEIVE)],
                 "ring: phase %d, location %d has steps %s, expected Isend 0, Isend 1, Waitall 2"
                 % (p.Phase, location, kinds))
names = type_names(ring)
for e in events:
    if e.Kind != AGGREGATE:
        expected = {SEND: "MPI_Isend", RECEIVE: "MPI_Waitall"}.get(e.Kind)
        if expected:
            mt.check(names[e.Type] == expected, "ring: a %d event is a %s" % (e.Kind, names[e.Type]))
        else:
            mt.check(names[e.Type] in ("MPI_Barrier", "MPI_Allreduce"),
                     "ring: a collective is a %s" % names[e.Type])

# Physical <-> logical: a step range maps to the window holding its events,
# and that window maps back to a step range holding it.
first, last = exchange_phases[3].FirstGlobalStep, exchange_phases[4].LastGlobalStep
lt.StepWindow = [first, last]
lt.UpdatePipeline()
lt.UpdatePropertyInformation()
window = list(lt.GetProperty("TimeWindowOfSteps"))
inside = [e for e in events if first <= e.GlobalStep <= last]
mt.check(abs(window[0] - min(e.Enter for e in inside)) < 1e-12 and
         abs(window[1] - max(e.Exit for e in inside)) < 1e-12,
         "ring: steps [%d, %d] map to %s" % (first, last, window))
lt.TimeWindow = window
lt.UpdatePipeline()
lt.UpdatePropertyInformation()
back = list(lt.GetProperty("StepsOfTimeWindow"))
overlapping = [s.GlobalStep for s in steps if s.Events and s.End >= window[0] and s.Start <= window[1]]
mt.check(back == [min(overlapping), max(overlapping)] and back[0] <= first and back[1] >= last,
         "ring: window %s maps back to steps %s, brute force [%d, %d]"
         % (window, back, min(overlapping), max(overlapping)))
field = table(lt, 4).GetFieldData().GetArray("TimeWindowOfSteps")
mt.check(field and abs(field.GetComponent(0, 0) - window[0]) < 1e-15,
         "ring: the Steps output does not hold TimeWindowOfSteps")

# User phase boundaries, at the first call of two exchanges (so no message
# crosses one backwards): one phase per interval.
bounds = [min(e.Enter for e in events if e.Phase == exchange_phases[k].Phase and e.Kind != AGGREGATE)
          for k in (2, 6)]
cut = logical_time(ring, PhaseBoundaries=bounds)
cut_events, _, _, cut_phases = check_invariants(cut, ring, "ring with boundaries")
mt.check(len(cut_phases) == 3, "ring: 2 boundaries made %d phases" % len(cut_phases))
for e in cut_events:
    if e.Kind != AGGREGATE:
        interval = sum(1 for b in bounds if e.Enter >= b)
        mt.check(e.Phase == interval, "ring: an event entering at %.9f is in phase %d, not %d"
                 % (e.Enter, e.Phase, interval))
Delete(cut)

# --- A binary-tree gather of 8 ranks: the known send-aligned pattern. ------
_, tree = trace("tree", "--clusters", 1, "--nodes-per-cluster", 2, "--ranks-per-node", 4,
                "--iterations", 3, "--pattern", "tree")
tlt = logical_time(tree)
tevents, _, _, tphases = check_invariants(tlt, tree, "tree")
expected_gather = {4: [(0, SEND)], 5: [(0, SEND)], 6: [(0, SEND)], 7: [(0, SEND)],
                   3: [(1, RECEIVE), (3, SEND)], 2: [(1, RECEIVE), (2, RECEIVE), (3, SEND)],
                   1: [(4, RECEIVE), (5, RECEIVE), (6, SEND)], 0: [(7, RECEIVE), (8, RECEIVE)]}
gathers = 0
for p in tphases:
    mine = [e for e in tevents if e.Phase == p.Phase and e.Kind != AGGREGATE]
    if not any(e.Location == 0 and e.Kind == RECEIVE for e in mine):
        continue
    gathers += 1
    first_step = p.FirstGlobalStep // 2
    got = {loc: [(e.Step - first_step, e.Kind) for e in mine if e.Location == loc] for loc in range(8)}
    mt.check(got == expected_gather, "tree: gather phase %d has steps %s, expected %s"
             % (p.Phase, got, expected_gather))
    mt.check(p.PatternName == "None", "tree: a gather is no exchange (%s)" % p.PatternName)
mt.check(gathers == 3, "tree: %d gather phases for 3 iterations" % gathers)

# --- A slow node in a 3D stencil: lateness starts on its ranks, spreads and
# resets; clustering isolates them. -------------------------------------------
window = (0.010, 0.030)
directory, slow = trace("slow", "--clusters", 2, "--nodes-per-cluster", 2, "--ranks-per-node", 4,
                        "--iterations", 40, "--pattern", "stencil3d", "--perturbation",
                        "slow-node", "--perturb-target", 1, "--perturb-window", *window)
with open(os.path.join(directory, "ground_truth.json")) as f:
    truth = json.load(f)
slow_ranks = set(truth["affected"]["ranks"])
slt = logical_time(slow, Clusters=2)
sevents, _, _, sphases = check_invariants(slt, slow, "slow node")
for e in sevents:
    if e.Kind == COLLECTIVE:
        mt.check(e.Lateness < 1e-7, "slow node: a collective member is %.3g s late: collectives "
                 "synchronise, so lateness resets" % e.Lateness)
clusters = rows(table(slt, 2))
during, before, after, in_window = [], [], [], []
for p in sphases:
    if p.PatternName == "None":
        continue
    mine = [e for e in sevents if e.Phase == p.Phase]
    worst = max(mine, key=lambda e: e.Lateness)
    if p.Start >= window[0] and p.End <= window[1]:
        during.append(worst.Lateness)
        starter = max(mine, key=lambda e: e.DifferentialLateness)
        mt.check(starter.Location in slow_ranks,
                 "slow node: in phase %d the delay starts on rank %d, not on the slow ranks %s"
                 % (p.Phase, starter.Location, sorted(slow_ranks)))
        latest_sender = max((e for e in mine if e.Kind == SEND), key=lambda e: e.Lateness)
        mt.check(latest_sender.Location in slow_ranks,
                 "slow node: in phase %d the latest send is on rank %d" % (p.Phase, latest_sender.Location))
        late_receivers = {e.Location for e in mine if e.Kind == RECEIVE and
                          e.Lateness > 0.5 * worst.Lateness}
        mt.check(late_receivers - slow_ranks,
                 "slow node: in phase %d lateness does not spread to the neighbours" % p.Phase)
        members = [c for c in clusters if c.Phase == p.Phase]
        slow_clusters = {c.Cluster for c in members if c.Location in slow_ranks}
        mt.check(len(slow_clusters) == 1, "slow node: phase %d splits the slow ranks" % p.Phase)
        in_window.append(p.Phase)
    elif p.End < window[0]:
        before.append(worst.Lateness)
    elif p.Start > window[1] + 0.002:
        after.append(worst.Lateness)
mt.check(len(during) >= 5 and before and after, "slow node: %d/%d/%d phases before/during/after"
         % (len(before), len(during), len(after)))
mean = lambda values: sum(values) / len(values)
mt.check(mean(during) > 3 * mean(before) and mean(during) > 3 * mean(after),
         "slow node: lateness during the window (%.3g s) does not stand out from before (%.3g s) "
         "and after (%.3g s)" % (mean(during), mean(before), mean(after)))

# Lateness spreads from the slow ranks to their stencil neighbours, so a
# window phase holds three groups: the slow ranks, their neighbours (late by
# propagation) and the others. Cut at 3 clusters, the slow ranks are one
# cluster of their own in every window phase.
slt.Clusters = 3
slt.UpdatePipeline()
for c_phase in in_window:
    members = [c for c in rows(table(slt, 2)) if c.Phase == c_phase]
    slow_clusters = {c.Cluster for c in members if c.Location in slow_ranks}
    group = {c.Location for c in members if c.Cluster in slow_clusters}
    mt.check(group == slow_ranks, "slow node: cut at 3 clusters, phase %d clusters the slow "
             "ranks %s as %s" % (c_phase, sorted(slow_ranks), sorted(group)))
slt.Clusters = 2
slt.UpdatePipeline()

# Clusters: the cut never exceeds the CLARA clusters, and cutting at more
# clusters refines the partition.
slt.Clusters = 4
slt.UpdatePipeline()
finer = rows(table(slt, 2))
coarse_of = {(c.Phase, c.Location): c.Cluster for c in clusters}
for p in sphases:
    members = [c for c in finer if c.Phase == p.Phase]
    mt.check(len({c.Cluster for c in members}) <= min(4, len(members)),
             "slow node: phase %d shows too many clusters" % p.Phase)
    for c in members:
        mates = {d.Location for d in members if d.Cluster == c.Cluster}
        mt.check(len({coarse_of[(p.Phase, m)] for m in mates}) == 1,
                 "slow node: cutting at 4 clusters does not refine the cut at 2 in phase %d" % p.Phase)

# What the MPI test (TestLogicalTimeMPI.py) must find again on 2 ranks. The
# State and Message columns number the input rows, which under MPI are the
# pieces' rows in rank order: they are left out of the comparison.
def without_row_numbers(t):
    copy = t.NewInstance()
    copy.ShallowCopy(t)
    for name in ("State", "Message"):
        copy.RemoveColumnByName(name)
    return copy



slt.Clusters = 2
slt.UpdatePipeline()
with open(os.path.join(args.output, "..", "logical-serial.json"), "w") as f:
    json.dump({"anchor": os.path.join(directory, "traces.otf2"),
               "digests": {str(port): mt.table_digest(without_row_numbers(table(slt, port)))
                           for port in (0, 1, 2, 4, 5)}},
              f)

# --- The metrics on the logical axis feed Time Slicing. ----------------------
model = TimeSlicing(Input=[OutputPort(slt, 6), OutputPort(slt, 7), OutputPort(slt, 8)],
                    Metric="Variable mean", Slices=10)
model.UpdatePipeline()
image = servermanager.Fetch(model)
dims = image.GetDimensions()
steps_total = table(slt, 4).GetNumberOfRows()
mt.check(dims[0] == 10 and dims[2] == 4, "logical model has dimensions %s" % (dims,))
values = image.GetPointData().GetArray("Value")
width = steps_total / 10.0
location = min(slow_ranks)
# Planes 0 and 2: the global and the per-phase lateness, each the brute-force
# time-weighted mean of its samples over the slice.
for plane, column in ((0, "Lateness"), (2, "PhaseLateness")):
    samples = [(e.GlobalStep, getattr(e, column)) for e in sevents if e.Location == location]
    for t in range(10):
        lo, hi = t * width, (t + 1) * width
        integral = 0.0
        for k, (g, v) in enumerate(samples):
            end = samples[k + 1][0] if k + 1 < len(samples) else steps_total
            integral += v * max(0.0, min(end, hi) - max(g, lo))
        expected = integral / width
        got = values.GetValue(t + dims[0] * (location + dims[1] * plane))
        mt.check(abs(got - expected) <= 1e-9 * max(1.0, abs(expected)),
                 "logical model: slice %d of rank %d has mean %s %.9g, brute force %.9g"
                 % (t, location, column, got, expected))
aggregation = TemporalAggregation(Input=model)
aggregation.UpdatePipeline()
mt.check(servermanager.Fetch(aggregation).GetNumberOfRows() >= 1,
         "the temporal aggregation of the logical model is empty")

# --- Nonsensical input gives clear errors. ----------------------------------
for properties, message in (({"ClaraClusters": 0}, "ClaraClusters"),
                            ({"Clusters": 0}, "Clusters"),
                            ({"PhaseBoundaries": [0.02, 0.01]}, "PhaseBoundaries")):
    errors = mt.ErrorCapture()
    bad = LogicalTime(Input=[OutputPort(ring, i) for i in range(6)], **properties)
    bad.UpdatePipeline()
    errors.close()
    mt.check(message in errors.text(), "no clear error for %s: %s" % (properties, errors.text()))
    Delete(bad)
errors = mt.ErrorCapture()
bad = LogicalTime(Input=[OutputPort(ring, 0), OutputPort(ring, 5)])
bad.UpdatePipeline()
errors.close()
mt.check("Messages" in errors.text(), "no clear error for missing inputs: %s" % errors.text())
print("logical time: ring %d events, tree %d, slow node %d; all checks passed"
      % (len(events), len(tevents), len(sevents)))
