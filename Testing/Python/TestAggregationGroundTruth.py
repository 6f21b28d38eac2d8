"""Ground truth: Ocelotl's aggregations isolate the perturbations that
macroscope-synth injects (Dosimont et al. 2015 (Ocelotl) §3.4-3.5, Pagano et al. 2013 (FrameSoC) §IV-C and §V-A), judged on
the Partition tables against ground_truth.json, never on pictures.

Four traces, each perturbed one with a control (the same options without
the perturbation):

* slow-node: the default platform (2 clusters x 2 nodes x 4 ranks x
  2 threads, stencil3d), node 1 three times slower in [0.1, 0.2] s;
* congested-cluster: ring, 4 MB messages (a transfer of 0.4 ms against
  1 ms of compute, so that a 4x slower network shows in the state
  durations; with the default 64 KiB it adds 1% to an iteration), cluster 0
  congested 4x in [0.1, 0.2] s. Ring rather than stencil3d: in the 4x2x2
  stencil grid every rank of cluster 1 has a z-neighbour in cluster 0 and
  waits for its congested message, so the whole machine is slowed alike
  (docs/aggregation.md).

For every distinct optimal partition listed by the Quality Curves output
(an overview: at most a tenth as many parts as the model has cells), the
test decides whether it isolates the perturbation. With tol = slice width
(parts end on slice borders) + the trace's longest iteration (a compute
phase or a message straddling a window edge spreads the perturbation, and
lets it fade, within one iteration), and the interior = the slices inside
[begin + tol, end - tol]:

* temporal (Time Slicing, state duration, 100 slices): consecutive parts
  whose union [Start, End] has both ends within tol of the window's, one of
  which contains the interior: the window is one aggregate, apart from edge
  effects within the tolerance, separate from the normal time around it;
* spatiotemporal (50 slices, to keep the test near 15 s: at 100 the sweep
  alone takes 5 s on 32 locations; slow-node: one row per location, mapped from
  the ground truth's location ids through the reader's Hierarchy;
  congested-cluster: one row per process (ResourceLevel 3), since the
  truth names the ranks' master threads): every part meeting the affected
  rows A over the interior is a part of a node of the minimal cover of A by
  hierarchy nodes (node-1, cluster-0), spans the whole interior and lies
  within [begin - tol, end + tol]. So A over the window is a few aggregates
  of its own, separate from the other resources and from normal time.

A perturbed run must have such a partition, whose aggregate over A holds
more of the injected region (compute, MPI_Waitall) per cell than A had
just before the window; its control must have none at any p (same window,
same rows, the perturbed run's tolerance, which is the larger).
"""
import json
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

WINDOW = ["--perturb-window", 0.1, 0.2]
SLOW = ["--iterations", 300]
CONGESTED = ["--iterations", 300, "--pattern", "ring", "--message-bytes", 4000000]
# (kind, control's options, perturbation's options, ResourceLevel of the
# spatiotemporal model)
CASES = [
    ("slow-node", SLOW, ["--perturbation", "slow-node", "--perturb-target", 1,
                         "--perturb-factor", 3] + WINDOW, -1),
    ("congested-cluster", CONGESTED, ["--perturbation", "congested-cluster",
                                      "--perturb-target", 0, "--perturb-factor", 4] + WINDOW, 3),
]
TEMPORAL_SLICES, SPATIOTEMPORAL_SLICES = 100, 50


def column(table, name):
    return mt.column(table, name)


class Trace:
    """A synthesized run: its reader, hierarchy, ground truth and the length
    of its longest iteration."""

    def __init__(self, name, options):
        self.name = name
        directory = os.path.join(args.output, name)
        summary = mt.synthesize(args, directory, *options)
        with open(os.path.join(directory, "ground_truth.json")) as f:
            self.truth = json.load(f)
        self.reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
        self.reader.UpdatePipeline()
        self.ports = [OutputPort(self.reader, i) for i in range(6)]
        self.tree = servermanager.Fetch(self.reader, idx=4)
        iteration = column(servermanager.Fetch(self.reader, idx=5), "Name").index("iteration")
        states = servermanager.Fetch(self.reader, idx=0)
        lengths = [e - s for t, s, e in zip(column(states, "Type"), column(states, "Start"),
                                             column(states, "End")) if t == iteration]
        mt.check(len(lengths) >= summary["iterations"], "%s: no iteration states" % name)
        self.longest_iteration = max(lengths)

    def vertex_of(self, location):
        """The hierarchy vertex of an OTF2 location id: (thread << 32) | rank
        is thread `thread` of process "MPI Rank <rank>", named "Master
        thread" or "OMP thread <thread>" (docs/synthesizer.md)."""
        rank, thread = location & 0xFFFFFFFF, location >> 32
        names = self.tree.GetVertexData().GetAbstractArray("Name")
        name = "Master thread" if thread == 0 else "OMP thread %d" % thread
        process = [v for v in range(self.tree.GetNumberOfVertices())
                   if names.GetValue(v) == "MPI Rank %d" % rank]
        mt.check(len(process) == 1, "%s: no process vertex for rank %d" % (self.name, rank))
        found = [c for c in (self.tree.GetChild(process[0], k)
                             for k in range(self.tree.GetNumberOfChildren(process[0])))
                 if names.GetValue(c) == name]
        mt.check(len(found) == 1, "%s: no leaf for location %d" % (self.name, location))
        return found[0]


def model_rows(trace, model, level):
    """The model rows of the ground truth's affected locations: their leaves
    (level -1) or their ancestors at depth `level`, found by name and kind
    among the model's resources and checked to be unique."""
    fields = model.GetFieldData()
    names, kinds = fields.GetAbstractArray("NodeName"), fields.GetAbstractArray("NodeKind")
    data = trace.tree.GetVertexData()
    tree_names, tree_kinds = data.GetAbstractArray("Name"), data.GetAbstractArray("Kind")
    rows = set()
    for location in trace.truth["affected"]["locations"]:
        vertex = trace.vertex_of(location)
        if level < 0:
            row = data.GetArray("LeafIndex").GetValue(vertex)
            mt.check(names.GetValue(row) == tree_names.GetValue(vertex),
                     "%s: model row %d is %r, the hierarchy says %r" % (
                         trace.name, row, names.GetValue(row), tree_names.GetValue(vertex)))
        else:
            while trace.tree.GetLevel(vertex) > level:
                vertex = trace.tree.GetParent(vertex)
            matches = [r for r in range(model.GetDimensions()[1])
                       if names.GetValue(r) == tree_names.GetValue(vertex) and
                       kinds.GetValue(r) == tree_kinds.GetValue(vertex)]
            mt.check(len(matches) == 1, "%s: %d model rows named %r" % (
                trace.name, len(matches), tree_names.GetValue(vertex)))
            row = matches[0]
        rows.add(row)
    return rows


def minimal_cover(model, rows):
    """The hierarchy nodes whose leaves all lie in `rows` and whose parent's
    do not: the fewest node parts that can cover those rows."""
    parents = model.GetFieldData().GetArray("NodeParent")
    count = parents.GetNumberOfTuples()
    leaves = [set() for _ in range(count)]
    for leaf in range(model.GetDimensions()[1]):
        node = leaf
        while node >= 0:
            leaves[node].add(leaf)
            node = int(parents.GetValue(node))
    inside = [bool(leaves[n]) and leaves[n] <= rows for n in range(count)]
    return {n for n in range(count) if inside[n] and
            (parents.GetValue(n) < 0 or not inside[int(parents.GetValue(n))])}


class Part:
    """One row of a Partition table; `region` is its Mean of one type plane."""

    def __init__(self, partition, i, region):
        get = lambda name: partition.GetColumnByName(name).GetValue(i)
        self.node, self.start, self.end = get("Node"), get("Start"), get("End")
        self.rows = set(range(get("FirstLeaf"), get("LastLeaf") + 1))
        self.slices = (get("FirstSlice"), get("LastSlice"))
        self.region = partition.GetColumnByName("Mean").GetComponent(i, region)


def temporal_hit(parts, begin, end, tol, interior):
    """The consecutive parts that isolate [begin, end], or None."""
    parts = sorted(parts, key=lambda part: part.start)
    firsts = [i for i, part in enumerate(parts) if abs(part.start - begin) <= tol]
    lasts = [j for j, part in enumerate(parts) if abs(part.end - end) <= tol]
    for i in firsts:
        for j in lasts:
            run = parts[i:j + 1]
            if any(part.slices[0] <= interior[0] and part.slices[1] >= interior[-1] for part in run):
                return run
    return None


def spatiotemporal_hit(parts, rows, cover, begin, end, tol, interior):
    """The parts over rows x interior if they isolate the perturbation, else None."""
    touching = [part for part in parts if part.rows & rows and
                part.slices[0] <= interior[-1] and part.slices[1] >= interior[0]]
    for part in touching:
        if part.node not in cover or part.slices[0] > interior[0] or \
                part.slices[1] < interior[-1] or part.start < begin - tol or part.end > end + tol:
            return None
    return touching


def search(trace, mode, slices, level, window, tol, rows, region):
    """Every distinct optimal partition with at most cells / 10 parts that
    isolates the window (and rows): (PStart, PEnd, parts, gain, loss,
    isolating parts, all parts), and how many partitions were searched."""
    begin, end = window
    slicing = TimeSlicing(Input=trace.ports, Slices=slices, ResourceLevel=level)
    model = servermanager.Fetch(slicing, idx=0)
    width, origin = model.GetSpacing()[0], model.GetOrigin()[0]
    interior = [t for t in range(slices) if origin + t * width >= begin + tol and
                origin + (t + 1) * width <= end - tol]
    mt.check(len(interior) >= 2, "the window's interior holds %d slices" % len(interior))
    names = model.GetFieldData().GetAbstractArray("TypeName")
    region = [names.GetValue(u) for u in range(model.GetDimensions()[2])].index(region)
    if mode == "temporal":
        aggregation = TemporalAggregation(Input=OutputPort(slicing, 0))
    else:
        aggregation = SpatiotemporalAggregation(Input=OutputPort(slicing, 0))
        cover = minimal_cover(model, rows)
    aggregation.UpdatePipeline()
    curves = servermanager.Fetch(aggregation, idx=1)
    cells = model.GetDimensions()[0] * model.GetDimensions()[1]
    found, searched = [], 0
    counts = column(curves, "Parts")
    for k, (a, b) in enumerate(zip(column(curves, "PStart"), column(curves, "PEnd"))):
        if counts[k] > cells // 10:
            continue
        searched += 1
        aggregation.Parameter = 0.5 * (a + b)
        aggregation.UpdatePipeline()
        partition = servermanager.Fetch(aggregation, idx=0)
        parts = [Part(partition, i, region) for i in range(partition.GetNumberOfRows())]
        if mode == "temporal":
            hit = temporal_hit(parts, begin, end, tol, interior)
        else:
            hit = spatiotemporal_hit(parts, rows, cover, begin, end, tol, interior)
        if hit is not None:
            found.append((a, b, len(parts), column(curves, "Gain")[k], column(curves, "Loss")[k],
                          hit, parts))
    mt.check(searched > 0, "%s, %s: no partition to search" % (trace.name, mode))
    mt.check(partition.GetFieldData().GetArray("QualityComputations").GetValue(0) == 1,
             "%s, %s: the qualities were computed more than once" % (trace.name, mode))
    Delete(aggregation)
    Delete(slicing)
    return found, searched, curves.GetNumberOfRows()


def report(trace, mode, found, searched, total):
    if not found:
        print("%s, %s: none of the %d partitions searched (of %d) isolates the window"
              % (trace.name, mode, searched, total))
        return
    print("%s, %s: %d of the %d partitions searched (of %d) isolate it, p in [%.4f, %.4f], "
          "%d to %d parts" % (trace.name, mode, len(found), searched, total, found[0][0],
                              found[-1][1], found[-1][2], found[0][2]))
    a, b, parts, gain, loss, hit, _ = found[-1]
    print("  coarsest, p in [%.4f, %.4f]: %d parts, gain %.3f, loss %.3f; over the window %s"
          % (a, b, parts, gain, loss, ", ".join("node %d x [%.4f, %.4f] s" % (
              part.node, part.start, part.end) for part in hit)))


def check_region(trace, found, rows, region):
    """The isolated aggregate over the affected rows holds more of the
    injected region per cell than those rows had just before the window."""
    _, _, _, _, _, hit, parts = found[-1]
    first = min(part.start for part in hit)
    before = [part for part in parts if part.rows & rows and part.start < first <= part.end + 1e-12]
    weight = lambda group: sum(len(part.rows & rows) for part in group)
    inside = sum(part.region * len(part.rows & rows) for part in hit) / weight(hit)
    outside = sum(part.region * len(part.rows & rows) for part in before) / weight(before)
    print("  %s per cell on the affected rows: %.3g s inside the window, %.3g s before"
          % (region, inside, outside))
    mt.check(inside > outside, "%s: the isolated aggregate holds %.3g s of %s per cell, "
             "%.3g s before the window" % (trace.name, inside, region, outside))


for kind, options, perturbation, level in CASES:
    trace = Trace(kind, options + perturbation)
    control = Trace(kind + "-control", options)
    truth = trace.truth
    mt.check(truth["perturbation"] == kind and control.truth["perturbation"] == "none",
             "%s: unexpected ground truth" % kind)
    window = (truth["window"]["begin_seconds"], truth["window"]["end_seconds"])
    region = truth["affected"]["regions"][0]
    for mode, slices, level in (("temporal", TEMPORAL_SLICES, -1),
                                ("spatiotemporal", SPATIOTEMPORAL_SLICES, level)):
        slicing = TimeSlicing(Input=trace.ports, Slices=slices, ResourceLevel=level)
        model = servermanager.Fetch(slicing, idx=0)
        Delete(slicing)
        width = model.GetSpacing()[0]
        tol = width + trace.longest_iteration
        rows = model_rows(trace, model, level) if mode == "spatiotemporal" else None
        print("%s, %s: tolerance %.4f s (slice %.4f s + iteration %.4f s)%s" % (
            kind, mode, tol, width, trace.longest_iteration,
            "" if rows is None else ", affected rows %s" % sorted(rows)))
        found, searched, total = search(trace, mode, slices, level, window, tol, rows, region)
        report(trace, mode, found, searched, total)
        mt.check(found, "%s, %s aggregation: no partition isolates the perturbed window %s%s"
                 % (kind, mode, window, "" if rows is None else " on rows %s" % sorted(rows)))
        if mode == "spatiotemporal":
            check_region(trace, found, rows, region)
        found, searched, total = search(control, mode, slices, level, window, tol, rows, region)
        report(control, mode, found, searched, total)
        mt.check(not found, "%s control, %s aggregation: a partition isolates %s although "
                 "nothing was injected" % (kind, mode, window))
