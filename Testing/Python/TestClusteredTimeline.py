"""Clustered Timeline Layout on hand-made Logical Time tables.

Recomputed here from the tables: the focus processes are the location of
the largest metric and its message partners (FocusRadius 1), or it alone
(0); the clusters of a phase share the height below the focus rows in
proportion to their members (Clusters table); every glyph's send and
receive sections are as tall as the shares of members sending and
receiving (of the band's inner 60 %), coloured by the mean metric; the
ReceivesWaitall phase has a pie per receiving glyph whose fraction is the
mean receives over the phase's MaxReceives, and no receive line; the
Alternating phase's sections are half rows (its dashed boxes are checked by
the core tests)."""
import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())
from builtins import all as ball, max as bmax, min as bmin, sum as bsum

MARKS, LINES, GUIDES, LABELS, LEGEND = range(5)
BAND, SENDS, RECEIVES, AGGREGATE, SEND_LINE, RECEIVE_LINE, PIE_BG, PIE, FOCUS = range(9)
# Location, GlobalStep, Kind, Metric, Phase, Cluster, Receives.
EVENTS = [
    (0, 0, 0, 0.5, 0, 0, 0), (0, 1, 1, 1.0, 0, 0, 0), (0, 3, 2, 2.0, 0, 0, 2),
    (1, 0, 0, 0.2, 0, 0, 0), (1, 1, 1, 3.0, 0, 0, 0), (1, 3, 2, 2.5, 0, 0, 1),
    (2, 1, 2, 1.5, 0, 0, 1),
    (3, 1, 2, 9.0, 0, 1, 2), (3, 3, 1, 0.0, 0, 1, 0),
    # Phase 1 (Alternating): 0 and 1 send then receive, 2 and 3 the reverse.
    (0, 5, 1, 0.1, 1, 0, 0), (1, 5, 1, 0.1, 1, 0, 0), (0, 7, 2, 0.3, 1, 0, 1), (1, 7, 2, 0.3, 1, 0, 1),
    (2, 5, 2, 0.2, 1, 1, 1), (3, 5, 2, 0.2, 1, 1, 1), (2, 7, 1, 0.4, 1, 1, 0), (3, 7, 1, 0.4, 1, 1, 0),
]
MESSAGES = [(0, 3, 1, 1), (1, 3, 1, 1), (3, 0, 3, 3), (3, 1, 3, 3), (1, 2, 1, 1),
            (0, 2, 5, 5), (1, 3, 5, 5), (2, 0, 7, 7), (3, 1, 7, 7)]
CLUSTERS = [(0, 0, 0), (0, 1, 0), (0, 2, 0), (0, 3, 1), (1, 0, 0), (1, 1, 0), (1, 2, 1), (1, 3, 1)]
PHASES = [(0, 0, 3, 3, 4), (1, 4, 7, 1, 1)]  # Phase, First, Last, Pattern, MaxReceives

EVENTS_SCRIPT = """
from vtkmodules.vtkCommonCore import vtkIntArray, vtkDoubleArray, vtkTypeInt64Array, vtkStringArray
out = self.GetTableOutput()
def column(kind, name):
    a = kind(); a.SetName(name); out.AddColumn(a); return a
cols = [column(vtkIntArray, "Location"), column(vtkTypeInt64Array, "GlobalStep"),
        column(vtkIntArray, "Kind"), column(vtkDoubleArray, "Metric"), column(vtkIntArray, "Phase"),
        column(vtkIntArray, "Cluster"), column(vtkIntArray, "Receives")]
for row in %r:
    for a, v in zip(cols, row):
        a.InsertNextValue(v)
"""
MESSAGES_SCRIPT = """
from vtkmodules.vtkCommonCore import vtkIntArray, vtkTypeInt64Array
out = self.GetTableOutput()
def column(kind, name):
    a = kind(); a.SetName(name); out.AddColumn(a); return a
cols = [column(vtkIntArray, "Sender"), column(vtkIntArray, "Receiver"),
        column(vtkTypeInt64Array, "SendGlobalStep"), column(vtkTypeInt64Array, "RecvGlobalStep"),
        column(vtkTypeInt64Array, "SendEvent")]
for row in %r:
    for a, v in zip(cols, row + (0,)):
        a.InsertNextValue(v)
"""
CLUSTERS_SCRIPT = """
from vtkmodules.vtkCommonCore import vtkIntArray
out = self.GetTableOutput()
def column(name):
    a = vtkIntArray(); a.SetName(name); out.AddColumn(a); return a
cols = [column("Phase"), column("Location"), column("Cluster"), column("ClaraCluster"), column("Medoid")]
for p, l, c in %r:
    for a, v in zip(cols, (p, l, c, c, 0)):
        a.InsertNextValue(v)
"""
PHASES_SCRIPT = """
from vtkmodules.vtkCommonCore import vtkIntArray, vtkTypeInt64Array
out = self.GetTableOutput()
def column(kind, name):
    a = kind(); a.SetName(name); out.AddColumn(a); return a
cols = [column(vtkIntArray, "Phase"), column(vtkTypeInt64Array, "FirstGlobalStep"),
        column(vtkTypeInt64Array, "LastGlobalStep"), column(vtkIntArray, "Pattern"),
        column(vtkIntArray, "MaxReceives")]
for row in %r:
    for a, v in zip(cols, row):
        a.InsertNextValue(v)
"""
sources = [ProgrammableSource(OutputDataSetType="vtkTable", Script=script % (rows,))
           for script, rows in ((EVENTS_SCRIPT, EVENTS), (MESSAGES_SCRIPT, MESSAGES),
                                (CLUSTERS_SCRIPT, CLUSTERS), (PHASES_SCRIPT, PHASES))]
W, H = 800, 600


def focus_of(radius):
    best = bmax(range(len(EVENTS)), key=lambda e: (EVENTS[e][3], -e))
    reached, frontier = {EVENTS[best][0]}, {EVENTS[best][0]}
    for _ in range(radius):
        nxt = set()
        for s, r, _, _ in MESSAGES:
            for a, b in ((s, r), (r, s)):
                if a in frontier and b not in reached:
                    nxt.add(b)
        reached |= nxt
        frontier = nxt
    return EVENTS[best][0], sorted(reached)


def cells(poly):
    data = poly.GetCellData()
    out = []
    for i in range(poly.GetNumberOfCells()):
        x0, x1, y0, y1, _, _ = poly.GetCell(i).GetBounds()
        out.append(dict(mark=data.GetArray("Mark").GetValue(i), phase=data.GetArray("Phase").GetValue(i),
                        cluster=data.GetArray("Cluster").GetValue(i), step=data.GetArray("GlobalStep").GetValue(i),
                        metric=data.GetArray("Metric").GetValue(i), fraction=data.GetArray("Fraction").GetValue(i),
                        location=data.GetArray("Location").GetValue(i), box=(x0, y0, x1, y1)))
    return out


layout = ClusteredTimelineLayout(Input=sources, ViewSize=[W, H])
for radius in (1, 0):
    layout.FocusRadius = radius
    layout.UpdatePipeline()
    marks = servermanager.Fetch(layout, idx=MARKS)
    centre, focus = focus_of(radius)
    got = [marks.GetFieldData().GetArray("Focus").GetValue(i)
           for i in range(marks.GetFieldData().GetArray("Focus").GetNumberOfTuples())]
    mt.check(got == focus and marks.GetFieldData().GetArray("FocusCentre").GetValue(0) == centre,
             "radius %d: focus %r, expected %r around %d" % (radius, got, focus, centre))
    drawn = sorted(set(c["location"] for c in cells(marks) if c["mark"] == FOCUS))
    mt.check(drawn == focus, "radius %d: focus rows drawn for %r, expected %r" % (radius, drawn, focus))
    focus_events = [c for c in cells(marks) if c["mark"] == FOCUS]
    want = len([e for e in EVENTS if e[0] in focus])
    mt.check(len(focus_events) == want, "radius %d: %d focus boxes, expected %d" % (radius, len(focus_events), want))

# Radius 1: check bands and glyphs.
layout.FocusRadius = 1
layout.UpdatePipeline()
all_cells = cells(servermanager.Fetch(layout, idx=MARKS))
_, focus = focus_of(1)
# The plot: what the labels and legend leave of the view (docs/labels.md).
PW, PH = mt.plot_size(layout, LABELS)
mt.check(0.5 * W <= PW < W and 0.5 * H <= PH < H, "a %gx%g plot in a %dx%d view" % (PW, PH, W, H))
W, H = PW, PH
cluster_top = H - bmin(22.0 * len(focus), 0.35 * H) - 12.0
members = {}
for p, l, c in CLUSTERS:
    members.setdefault(p, {}).setdefault(c, 0)
    members[p][c] += 1
bands = {(c["phase"], c["cluster"]): c["box"] for c in all_cells if c["mark"] == BAND}
for p, clusters in members.items():
    total = bsum(clusters.values())
    top = cluster_top
    for c in sorted(clusters):
        bottom = top - cluster_top * clusters[c] / total
        box = bands.get((p, c))
        mt.check(box is not None and abs(box[3] - top) < 1e-9 and abs(box[1] - bottom) < 1e-9,
                 "phase %d cluster %d: band %r, expected y %g to %g" % (p, c, box, bottom, top))
        top = bottom

# Details on demand: every band lists its members by name (the CLUSTERS of
# its phase and cluster), the other marks none.
band_marks = servermanager.Fetch(layout, idx=MARKS)
listed = band_marks.GetCellData().GetAbstractArray("Members")
mt.check(listed is not None, "the marks carry no Members array")
names = band_marks.GetCellData().GetArray("Mark")
for i in range(band_marks.GetNumberOfCells()):
    text = listed.GetValue(i)
    if names.GetValue(i) != BAND:
        mt.check(text == "", "mark %d (kind %d) lists members %r" % (i, names.GetValue(i), text))
        continue
    p, c = band_marks.GetCellData().GetArray("Phase").GetValue(i), band_marks.GetCellData().GetArray("Cluster").GetValue(i)
    expected = [l for q, l, d in CLUSTERS if q == p and d == c]
    import builtins
    mt.check(len(text.split(", ")) == len(expected) and builtins.all(("location %d" % l) in text
                                                                    for l in expected),
             "phase %d cluster %d lists %r, its members are %r" % (p, c, text, expected))

sends = lambda k: k in (1, 3, 4)
receives = lambda k: k in (2, 3, 4)
checked = 0
for (p, c), box in bands.items():
    inner = 0.6 * (box[3] - box[1])
    for step in sorted(set(e[1] for e in EVENTS if e[4] == p and e[5] == c and e[1] % 2)):
        evs = [e for e in EVENTS if e[4] == p and e[5] == c and e[1] == step]
        sf = len([e for e in evs if sends(e[2])]) / members[p][c]
        rf = len([e for e in evs if receives(e[2])]) / members[p][c]
        scale = bmax(1.0, sf + rf)
        for mark, frac, kinds in ((SENDS, sf, sends), (RECEIVES, rf, receives)):
            found = [x for x in all_cells if x["mark"] == mark and x["phase"] == p and x["cluster"] == c
                     and x["step"] == step]
            if frac == 0:
                mt.check(not found, "phase %d cluster %d step %d: a %d section without events" % (p, c, step, mark))
                continue
            mt.check(len(found) == 1, "phase %d cluster %d step %d: %d sections of kind %d"
                     % (p, c, step, len(found), mark))
            x = found[0]
            mean = bsum(e[3] for e in evs if kinds(e[2])) / len([e for e in evs if kinds(e[2])])
            mt.check(abs(x["fraction"] - frac) < 1e-12 and abs(x["metric"] - mean) < 1e-12,
                     "phase %d cluster %d step %d: fraction %r metric %r, expected %r %r"
                     % (p, c, step, x["fraction"], x["metric"], frac, mean))
            height = x["box"][3] - x["box"][1]
            want = inner / 2 - 0.05 * inner if p == 1 else frac / scale * inner  # Alternating: half rows
            mt.check(abs(height - want) < 1e-9, "phase %d cluster %d step %d: section %d is %g tall, expected %g"
                     % (p, c, step, mark, height, want))
            checked += 1
mt.check(checked >= 8, "only %d glyph sections checked" % checked)

# ReceivesWaitall (phase 0): one pie per receiving glyph, fraction = mean receives / 4.
pies = {(x["cluster"], x["step"]): x["fraction"] for x in all_cells if x["mark"] == PIE and x["phase"] == 0}
for c, step in ((0, 1), (0, 3), (1, 1)):
    evs = [e for e in EVENTS if e[4] == 0 and e[5] == c and e[1] == step and receives(e[2])]
    want = bsum(e[6] for e in evs) / len(evs) / 4.0
    mt.check(abs(pies.get((c, step), -1) - want) < 1e-12,
             "pie of cluster %d step %d: %r, expected %r" % (c, step, pies.get((c, step)), want))
mt.check(not [x for x in all_cells if x["mark"] == RECEIVE_LINE and x["phase"] == 0],
         "the Waitall phase keeps receive lines: the pie replaces them")
labels = servermanager.Fetch(layout, idx=LABELS)
text = labels.GetPointData().GetAbstractArray("Label")
texts = [text.GetValue(i) for i in range(labels.GetNumberOfPoints())]
# Cluster 0 of phase 0 has 3 members: named in words, or shorter where the
# margin is narrow, always with its phase, cluster and count.
names = ("phase 0, cluster 0: 3 members", "phase 0, cluster 0 (3)", "p0 c0 (3)")
mt.check("1.5" in texts and any(n in texts for n in names),
         "labels miss the pie average or a cluster: %r" % texts)

capture = mt.ErrorCapture()
try:
    layout.FocusRadius = -1
    layout.UpdatePipeline()
finally:
    capture.close()
mt.check("FocusRadius must be >= 0" in capture.text(), "no FocusRadius error: %r" % capture.text())
print("clustered timeline: %d glyph sections checked" % checked)
