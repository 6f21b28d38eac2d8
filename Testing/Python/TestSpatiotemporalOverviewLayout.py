"""The Spatiotemporal Overview Layout on the partitions of a synthesized
trace with a slow node: the marks tile the plot exactly once, take the
colour of their mode type with the mode's proportion as opacity, show every
part as itself when the row budget is 0, and with a large budget show the
visual aggregates that a recomputation from the Partition table predicts
(display cut, shared cuts, diagonal or cross). Temporal partitions are
full-height columns; bad properties and inputs are clear errors."""
import math
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

directory = os.path.join(args.output, "trace")
mt.synthesize(args, directory, "--clusters", 2, "--nodes-per-cluster", 4, "--ranks-per-node", 4,
              "--threads-per-rank", 2, "--iterations", 30, "--perturbation", "slow-node",
              "--perturb-target", 5, "--perturb-window", 0.01, 0.02)
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
SLICES = 24
slicing = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=SLICES)
VW, VH = 960, 512  # the view; W, H: its plot, what the labels leave of it (docs/labels.md)
W, H = None, None
LEAVES = 64  # 2 clusters x 4 nodes x 4 ranks x 2 threads


def values(array, n=None):
    if array.IsA("vtkStringArray"):
        return [array.GetValue(i) for i in range(array.GetNumberOfValues())]
    comps = array.GetNumberOfComponents()
    if comps == 1:
        return [array.GetValue(i) for i in range(array.GetNumberOfTuples())]
    return [tuple(array.GetComponent(i, k) for k in range(comps)) for i in range(array.GetNumberOfTuples())]


def cell_arrays(poly):
    data = poly.GetCellData()
    return {data.GetArrayName(k): values(data.GetAbstractArray(k)) for k in range(data.GetNumberOfArrays())}


class Hierarchy:
    """Children, leaf ranges and depths from the NodeParent field data."""

    def __init__(self, parent):
        self.parent = parent
        self.children = [[] for _ in parent]
        for n, p in enumerate(parent):
            if p >= 0:
                self.children[p].append(n)
        self.root = len(parent) - 1
        self.begin = [0] * len(parent)
        self.end = [0] * len(parent)
        for n in range(len(parent)):  # children before parents
            if not self.children[n]:
                self.begin[n], self.end[n] = n, n + 1
            else:
                self.begin[n] = min(self.begin[c] for c in self.children[n])
                self.end[n] = max(self.end[c] for c in self.children[n])

    def count(self, n):
        return self.end[n] - self.begin[n]


def mode_of(sums):
    best = 0
    for u, v in enumerate(sums):
        if v > sums[best]:
            best = u
    total = sum(sums)
    return best, (sums[best] / total if total > 0 else 0.0)


def expected_marks(partition, budget):
    """Brute force from the Partition table: the display cut from the root
    down, then for each display row the cells of the parts below it; each
    leaf's cuts from a per-cell ownership grid."""
    fields = partition.GetFieldData()
    h = Hierarchy([int(v) for v in values(fields.GetAbstractArray("NodeParent"))])
    leaves = h.count(h.root)
    px = H / leaves
    visible = lambda n: h.count(n) * px >= budget * (1 - 1e-9)
    rows, stack = [], [h.root]
    while stack:
        n = stack.pop()
        if h.children[n] and all(visible(c) for c in h.children[n]):
            stack.extend(h.children[n])
        else:
            rows.append(n)
    row_of_leaf = {}
    for r in rows:
        for s in range(h.begin[r], h.end[r]):
            row_of_leaf[s] = r
    nodes, first, last = (mt.column(partition, c) for c in ("Node", "FirstSlice", "LastSlice"))
    mean = values(partition.GetColumnByName("Mean"))
    owner = {}
    for i, n in enumerate(nodes):
        for s in range(h.begin[n], h.end[n]):
            for t in range(first[i], last[i] + 1):
                owner[s, t] = i

    def below(n):
        p = h.parent[n]
        while p >= 0:
            if p in rows:
                return True
            p = h.parent[p]
        return False

    marks = {}
    for i, n in enumerate(nodes):
        if not below(n):
            m, share = mode_of(list(mean[i]))
            marks[(n, first[i], last[i])] = dict(kind=0, part=i, mode=m, share=share, count=1)
    for r in rows:
        hidden_slices = [t for t in range(SLICES) if below(nodes[owner[h.begin[r], t]])]
        # Boundaries shared by every leaf of the row, within its hidden slices.
        t = 0
        while t < SLICES:
            if t not in hidden_slices:
                t += 1
                continue
            end = t + 1
            while end < SLICES and end in hidden_slices and not all(
                    owner[s, end] != owner[s, end - 1] for s in range(h.begin[r], h.end[r])):
                end += 1
            inside = {owner[s, k] for s in range(h.begin[r], h.end[r]) for k in range(t, end)}
            sums = [0.0] * len(mean[0])
            for i in inside:
                cells = h.count(nodes[i]) * (last[i] - first[i] + 1)
                for u in range(len(sums)):
                    sums[u] += mean[i][u] * cells
            m, share = mode_of(sums)
            spans = all(first[i] == t and last[i] == end - 1 for i in inside)
            marks[(r, t, end - 1)] = dict(kind=1 if spans else 2, part=-1, mode=m, share=share,
                                          count=len(inside))
            t = end
    return marks, len(rows)


def check_layout(name, aggregation, budget):
    global W, H
    layout = SpatiotemporalOverviewLayout(Input=OutputPort(aggregation, 0), ViewSize=[VW, VH],
                                          MinRowHeight=budget)
    layout.UpdatePipeline()
    W, H = mt.plot_size(layout, 3)
    mt.check(0.5 * VW <= W < VW and 0.5 * VH <= H < VH, "%s: a %gx%g plot in a %dx%d view"
             % (name, W, H, VW, VH))
    partition = servermanager.Fetch(aggregation, idx=0)
    fields = partition.GetFieldData()
    colors = values(fields.GetArray("TypeColor"))
    marks = servermanager.Fetch(layout, idx=0)
    a = cell_arrays(marks)
    n = marks.GetNumberOfCells()
    mt.check(n > 0 and all(len(v) == n for v in a.values()), "%s: marks and their arrays disagree" % name)
    # Tiling: per (leaf, slice) cell, and the quads' pixels.
    cover = [[0] * SLICES for _ in range(LEAVES)]
    area = 0.0
    for i in range(n):
        b = marks.GetCell(i).GetBounds()
        fl, ll, fs, ls = a["FirstLeaf"][i], a["LastLeaf"][i], a["FirstSlice"][i], a["LastSlice"][i]
        mt.check(abs(b[0] - W * fs / SLICES) < 1e-6 and abs(b[1] - W * (ls + 1) / SLICES) < 1e-6 and
                 abs(b[3] - H * (LEAVES - fl) / LEAVES) < 1e-6 and
                 abs(b[2] - H * (LEAVES - ll - 1) / LEAVES) < 1e-6,
                 "%s: mark %d at %s does not span leaves %d-%d, slices %d-%d" % (name, i, b, fl, ll, fs, ls))
        area += (b[1] - b[0]) * (b[3] - b[2])
        for s in range(fl, ll + 1):
            for t in range(fs, ls + 1):
                cover[s][t] += 1
        # Colour of the mode type, at the opacity of its proportion over white.
        rgba = a["Color"][i]
        share = a["ModeProportion"][i]
        expected = tuple(int(math.floor(255.0 - share * (255.0 - c) + 0.5)) for c in colors[a["Type"][i]])
        mt.check(tuple(rgba[:3]) == expected and rgba[3] == 255,
                 "%s: mark %d has colour %s, expected %s (the mode's colour at opacity %g over white)"
                 % (name, i, rgba, expected, share))
    mt.check(all(c == 1 for line in cover for c in line), "%s: the marks do not tile the model once" % name)
    mt.check(abs(area - W * H) < 1e-6, "%s: marks cover %g pixels, the plot %g" % (name, area, W * H))

    # Against the brute force from the Partition table.
    expected, rows = expected_marks(partition, budget)
    got = {}
    for i in range(n):
        got[(a["Node"][i], a["FirstSlice"][i], a["LastSlice"][i])] = dict(
            kind=a["VisualAggregate"][i], part=a["Part"][i], mode=a["Type"][i],
            share=a["ModeProportion"][i], count=a["PartCount"][i])
    mt.check(set(got) == set(expected), "%s: %d marks, the brute force expects %d (first differences: %s)"
             % (name, len(got), len(expected), sorted(set(got) ^ set(expected))[:4]))
    for key, e in expected.items():
        g = got[key]
        mt.check(g["kind"] == e["kind"] and g["part"] == e["part"] and g["mode"] == e["mode"] and
                 g["count"] == e["count"] and abs(g["share"] - e["share"]) < 1e-9,
                 "%s: mark %s is %s, the brute force expects %s" % (name, key, g, e))
    mt.check(marks.GetFieldData().GetArray("DisplayRows").GetValue(0) == rows,
             "%s: DisplayRows field is not %d" % (name, rows))

    # Marking: one diagonal per aggregate, one more line per cross, along its corners.
    marking = servermanager.Fetch(layout, idx=1)
    m = cell_arrays(marking)
    for i in range(marking.GetNumberOfCells()):
        mark, kind = m["Mark"][i], m["MarkingKind"][i]
        if mark < 0 or kind == 0:
            continue
        b = marks.GetCell(mark).GetBounds()
        p0, p1 = marking.GetCell(i).GetPoints().GetPoint(0), marking.GetCell(i).GetPoints().GetPoint(1)
        corners = ((b[0], b[2]), (b[1], b[3])) if kind == 1 else ((b[0], b[3]), (b[1], b[2]))
        mt.check(all(abs(p[k] - c[k]) < 1e-6 for p, c in zip((p0, p1), corners) for k in (0, 1)),
                 "%s: marking line %d does not join the corners of mark %d" % (name, i, mark))
    kinds = a["VisualAggregate"]
    for kind in (1, 2):
        lines = sum(1 for mk, k in zip(m["Mark"], m["MarkingKind"]) if mk >= 0 and k == kind)
        mt.check(lines == sum(1 for k in kinds if k >= kind),
                 "%s: %d marking lines of kind %d" % (name, lines, kind))

    # Labels: ticks, row names from NodeName, the legend of the modes drawn.
    labels = servermanager.Fetch(layout, idx=3)
    text = values(labels.GetPointData().GetAbstractArray("Label"))
    label_kinds = values(labels.GetPointData().GetArray("LabelKind"))
    mt.check(label_kinds.count(0) >= 2 and label_kinds.count(3) == 2, "%s: no time axis labels in %s" % (name, list(zip(text, label_kinds))))
    # The titles: the time axis's, and above the plot what is shown: p, the
    # number of parts (the Partition's rows) and the model's shape.
    titles = [t for t, k in zip(text, label_kinds) if k == 3]
    what = [t for t in titles if " parts of " in t or " part of " in t]
    parts = "%d part%s of %d slices \u00d7 %d resources" % (
        partition.GetNumberOfRows(), "" if partition.GetNumberOfRows() == 1 else "s", SLICES, LEAVES)
    mt.check(len(what) == 1 and what[0].startswith("p = ") and what[0].endswith(parts),
             "%s: titles %s do not say p and %r" % (name, titles, parts))
    node_names = set(values(fields.GetAbstractArray("NodeName")))
    row_labels = [t for t, k in zip(text, label_kinds) if k == 1]
    mt.check(0 < len(row_labels) <= rows and all(t.split(" / ")[-1] in node_names for t in row_labels),
             "%s: row labels %s are not node names" % (name, row_labels[:5]))
    legend = servermanager.Fetch(layout, idx=4)
    legend_names = values(legend.GetFieldData().GetAbstractArray("LegendName"))
    type_names = values(fields.GetAbstractArray("TypeName"))
    mt.check(sorted(legend_names) == sorted({type_names[t] for t in a["Type"]}),
             "%s: legend %s is not the modes drawn" % (name, legend_names))
    mt.check(all(t in text for t in legend_names), "%s: legend names are not labelled" % name)
    # A swatch per type, two grey swatches with the diagonal and the cross.
    mt.check(legend.GetNumberOfPolys() == len(legend_names) + 2 and legend.GetNumberOfLines() == 3 and
             "aggregate: one time partition" in text and
             "aggregate: mixed time partitions" in text,
             "%s: the legend does not show the types and the two aggregate marks" % name)
    Delete(layout)
    return a, rows


aggregation = SpatiotemporalAggregation(Input=OutputPort(slicing, 0))
seen = {1: 0, 2: 0}
for p in (0.2, 0.5, 0.8):
    aggregation.Parameter = p
    aggregation.UpdatePipeline()
    parts = aggregation.GetDataInformation(0).GetNumberOfRows()
    # No budget: every part as itself.
    a, rows = check_layout("p=%g, budget 0" % p, aggregation, 0.0)
    mt.check(len(a["Part"]) == parts and sorted(a["Part"]) == list(range(parts)) and
             set(a["VisualAggregate"]) == {0} and rows == LEAVES,
             "p=%g: with MinRowHeight 0 the marks are not the %d parts" % (p, parts))
    # 30 px: a node (8 threads, 32 px) is a row, its ranks (8 px) are not.
    a, rows = check_layout("p=%g, budget 30" % p, aggregation, 30.0)
    mt.check(rows <= 8, "p=%g: %d display rows at 30 px" % (p, rows))
    for k in (1, 2):
        seen[k] += a["VisualAggregate"].count(k)
    print("p=%g: %d parts, %d marks at 30 px (%d diagonal, %d cross)" % (
        p, parts, len(a["Part"]), a["VisualAggregate"].count(1), a["VisualAggregate"].count(2)))
mt.check(seen[1] > 0 and seen[2] > 0, "no diagonal or no cross aggregate: %s" % seen)

# Groups: the clusters (depth 1) are separated and named; the threads
# (depth 4) lie inside the display rows (nodes) at 30 px and are not.
partition = servermanager.Fetch(aggregation, idx=0)
parent = [int(v) for v in values(partition.GetFieldData().GetAbstractArray("NodeParent"))]
depth = [0] * len(parent)
for n in reversed(range(len(parent))):
    depth[n] = 0 if parent[n] < 0 else depth[parent[n]] + 1
names = values(partition.GetFieldData().GetAbstractArray("NodeName"))
for level, expected in ((1, sorted(names[n] for n in range(len(parent)) if depth[n] == 1)), (4, [])):
    layout = SpatiotemporalOverviewLayout(Input=OutputPort(aggregation, 0), ViewSize=[VW, VH],
                                          MinRowHeight=30.0, GroupLevel=level)
    labels = servermanager.Fetch(layout, idx=3)
    groups = sorted(t for t, k in zip(values(labels.GetPointData().GetAbstractArray("Label")),
                                      values(labels.GetPointData().GetArray("LabelKind"))) if k == 2)
    mt.check(groups == expected, "GroupLevel %d names %s, expected %s" % (level, groups, expected))
    guides = servermanager.Fetch(layout, idx=2)
    # Full-width horizontal lines: the frame's top, the time axis and one per group.
    full = 0
    for i in range(guides.GetNumberOfCells()):
        points = guides.GetCell(i).GetPoints()
        (x0, y0, _), (x1, y1, _) = points.GetPoint(0), points.GetPoint(1)
        full += y0 == y1 and x0 == 0 and x1 == W
    mt.check(full == 2 + len(expected), "GroupLevel %d: %d full-width guides" % (level, full))
    Delete(layout)

# A spatial partition spans all slices: its aggregates are diagonals.
spatial = SpatialAggregation(Input=OutputPort(slicing, 0), Parameter=0.3)
a, rows = check_layout("spatial", spatial, 60.0)
mt.check(2 not in a["VisualAggregate"], "spatial parts gave a cross")
# Temporal parts are full-height columns whatever the budget.
temporal = TemporalAggregation(Input=OutputPort(slicing, 0), Parameter=0.5)
for budget in (0.0, 1000.0):
    a, rows = check_layout("temporal, budget %g" % budget, temporal, budget)
    mt.check(set(a["VisualAggregate"]) == {0} and set(a["FirstLeaf"]) == {0} and
             set(a["LastLeaf"]) == {LEAVES - 1},
             "temporal parts are not full-height columns at %g px" % budget)

# Bad properties and inputs are errors that say what is wrong.
for settings, expected in ((dict(MinRowHeight=-1.0), "MinRowHeight must be"),
                           (dict(ViewSize=[0, 100]), "ViewSize must be"),
                           (dict(GroupLevel=-2), "GroupLevel must be")):
    layout = SpatiotemporalOverviewLayout(Input=OutputPort(aggregation, 0), **settings)
    capture = mt.ErrorCapture()
    try:
        layout.UpdatePipeline()
    finally:
        capture.close()
    mt.check(expected in capture.text(), "no error for %s: %r" % (settings, capture.text()))
    Delete(layout)
layout = SpatiotemporalOverviewLayout(Input=OutputPort(reader, 0))
capture = mt.ErrorCapture()
try:
    layout.UpdatePipeline()
finally:
    capture.close()
mt.check("needs the Partition output" in capture.text(), "no error for a States table: %r" % capture.text())
mt.check(layout.GetDataInformation(0).GetNumberOfCells() == 0, "a States table gave marks")
print("spatiotemporal overview layout: checked")
