"""Logical Timeline Layout and Metric Overview Layout on hand-made Logical
Time tables (one Programmable Source per table).

Geometry, recomputed here from the tables: one row per location having
events (location 2 has none), equal boxes on the grid of global steps,
aggregates at half height, inset and borders only above the 8 pixel budget,
box colours from the metric through the documented colour map; message
lines from the send cell's centre to the receive cell's, omitted above
MaxMessages; StepWindow and ShowAggregates choose the columns. The metric
overview's bars are the per-step sums relative to the largest, the same
from the Steps table or from the events alone, with the window marked.
Bad properties and tables are clear errors."""
import math

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())
from builtins import all as ball, max as bmax, min as bmin, sum as bsum

MARKS, LINES, GUIDES, LABELS, LEGEND = range(5)
AGG, SEND, RECV = 0, 1, 2
# Location, GlobalStep, Kind, Metric.
EVENTS = [
    (0, 0, AGG, 0.0), (0, 1, SEND, 1.0), (0, 6, AGG, 0.5), (0, 7, RECV, 2.0),
    (1, 2, AGG, 0.0), (1, 3, RECV, 3.0), (1, 4, AGG, 0.0), (1, 5, SEND, 0.0),
    (3, 4, AGG, 1.5), (3, 5, SEND, 4.0),
]
# Sender, Receiver, SendGlobalStep, RecvGlobalStep, SendEvent, RecvEvent.
MESSAGES = [(0, 1, 1, 3, 1, 5), (1, 0, 5, 7, 7, 3), (3, 0, 5, 7, 9, 3)]
NAMES = ["MPI Rank 0", "MPI Rank 1", "MPI Rank 2", "MPI Rank 3"]

EVENTS_SCRIPT = """
from vtkmodules.vtkCommonCore import vtkIntArray, vtkDoubleArray, vtkTypeInt64Array, vtkStringArray
out = self.GetTableOutput()
def column(kind, name):
    a = kind(); a.SetName(name); out.AddColumn(a); return a
loc = column(vtkIntArray, "Location"); step = column(vtkTypeInt64Array, "Step")
gstep = column(vtkTypeInt64Array, "GlobalStep"); kind = column(vtkIntArray, "Kind")
metric = column(vtkDoubleArray, "Metric"); phase = column(vtkIntArray, "Phase")
cluster = column(vtkIntArray, "Cluster")
for l, g, k, m in %r:
    loc.InsertNextValue(l); step.InsertNextValue(g // 2); gstep.InsertNextValue(g)
    kind.InsertNextValue(k); metric.InsertNextValue(m); phase.InsertNextValue(0)
    cluster.InsertNextValue(0)
name = vtkStringArray(); name.SetName("MetricName"); name.InsertNextValue("Lateness")
out.GetFieldData().AddArray(name)
names = vtkStringArray(); names.SetName("LocationNames")
for n in %r:
    names.InsertNextValue(n)
out.GetFieldData().AddArray(names)
"""

MESSAGES_SCRIPT = """
from vtkmodules.vtkCommonCore import vtkIntArray, vtkTypeInt64Array, vtkDoubleArray
out = self.GetTableOutput()
def column(kind, name):
    a = kind(); a.SetName(name); out.AddColumn(a); return a
cols = [column(vtkTypeInt64Array, "Message"), column(vtkTypeInt64Array, "SendEvent"),
        column(vtkTypeInt64Array, "RecvEvent"), column(vtkIntArray, "Sender"),
        column(vtkIntArray, "Receiver"), column(vtkTypeInt64Array, "SendGlobalStep"),
        column(vtkTypeInt64Array, "RecvGlobalStep"), column(vtkDoubleArray, "SendTime"),
        column(vtkDoubleArray, "RecvTime")]
for i, (s, r, ss, rs, se, re) in enumerate(%r):
    for a, v in zip(cols, (i, se, re, s, r, ss, rs, 0.0, 0.0)):
        a.InsertNextValue(v)
"""

STEPS_SCRIPT = """
from vtkmodules.vtkCommonCore import vtkTypeInt64Array, vtkDoubleArray
out = self.GetTableOutput()
def column(kind, name):
    a = kind(); a.SetName(name); out.AddColumn(a); return a
g = column(vtkTypeInt64Array, "GlobalStep"); s = column(vtkTypeInt64Array, "Step")
start = column(vtkDoubleArray, "Start"); end = column(vtkDoubleArray, "End")
total = column(vtkDoubleArray, "MetricSum"); n = column(vtkTypeInt64Array, "Events")
for step, value, count in %r:
    g.InsertNextValue(step); s.InsertNextValue(step // 2); start.InsertNextValue(0.0)
    end.InsertNextValue(1.0); total.InsertNextValue(value); n.InsertNextValue(count)
"""

events_source = ProgrammableSource(OutputDataSetType="vtkTable", Script=EVENTS_SCRIPT % (EVENTS, NAMES))
messages_source = ProgrammableSource(OutputDataSetType="vtkTable", Script=MESSAGES_SCRIPT % (MESSAGES,))
LAST = bmax(e[1] for e in EVENTS)
SUMS = [bsum(e[3] for e in EVENTS if e[1] == g) for g in range(LAST + 1)]
COUNTS = [len([e for e in EVENTS if e[1] == g]) for g in range(LAST + 1)]
steps_source = ProgrammableSource(OutputDataSetType="vtkTable",
                                  Script=STEPS_SCRIPT % (list(zip(range(LAST + 1), SUMS, COUNTS)),))

STOPS = [(255, 255, 204), (253, 141, 60), (189, 0, 38)]


def metric_color(t):
    """The documented colour map: three stops, linear between them."""
    t = bmin(1.0, bmax(0.0, t))
    seg, u = (0, 2 * t) if t < 0.5 else (1, 2 * t - 1)
    # Rounded half up (the values are positive), like C++ lround.
    return tuple(int(math.floor(STOPS[seg][c] + u * (STOPS[seg + 1][c] - STOPS[seg][c]) + 0.5)) for c in range(3))


def cell_boxes(poly):
    boxes = []
    for i in range(poly.GetNumberOfCells()):
        x0, x1, y0, y1, _, _ = poly.GetCell(i).GetBounds()
        boxes.append((x0, y0, x1, y1))
    return boxes


def close(a, b, tol=1e-9):
    return ball(abs(x - y) <= tol for x, y in zip(a, b))


def expected_boxes(width, height, first, last, aggregates):
    """The boxes of the documented rules, by event row."""
    rows = sorted(set(e[0] for e in EVENTS))
    if not aggregates:
        first += 0 if first % 2 else 1
        last -= 0 if last % 2 else 1
    steps = [g for g in range(first, last + 1) if aggregates or g % 2]
    w, h = width / len(steps), height / len(rows)
    inset = bmin(3.0, bmax(1.0, 0.1 * bmin(w, h))) if w >= 8 and h >= 8 else 0.0
    boxes = {}
    for k, (l, g, kind, m) in enumerate(EVENTS):
        if g not in steps:
            continue
        c, r = steps.index(g), rows.index(l)
        x0, x1 = c * w + inset, (c + 1) * w - inset
        y1, y0 = height - r * h - inset, height - (r + 1) * h + inset
        if kind == AGG:
            mid, half = 0.5 * (y0 + y1), 0.25 * (y1 - y0)
            y0, y1 = mid - half, mid + half
        boxes[k] = (x0, y0, x1, y1)
    return boxes, steps, rows, w, h


def check_timeline(layout, width, height, first, last, aggregates, where, named=True):
    layout.UpdatePipeline()
    marks = servermanager.Fetch(layout, idx=MARKS)
    expected, steps, rows, w, h = expected_boxes(width, height, first, last, aggregates)
    event_ids = marks.GetCellData().GetArray("Event")
    colors = marks.GetCellData().GetArray("Color")
    mt.check(marks.GetNumberOfCells() == len(expected),
             "%s: %d boxes, expected %d" % (where, marks.GetNumberOfCells(), len(expected)))
    low, high = bmin(e[3] for e in EVENTS), bmax(e[3] for e in EVENTS)
    for i, box in enumerate(cell_boxes(marks)):
        k = event_ids.GetValue(i)
        mt.check(k in expected and close(box, expected[k]),
                 "%s: event %d drawn at %r, expected %r" % (where, k, box, expected.get(k)))
        want = metric_color((EVENTS[k][3] - low) / (high - low))
        got = tuple(int(colors.GetComponent(i, c)) for c in range(3))
        mt.check(got == want, "%s: event %d (metric %g) coloured %r, expected %r"
                 % (where, k, EVENTS[k][3], got, want))
    window = marks.GetFieldData().GetArray("StepWindow")
    mt.check(window.GetTuple2(0) == (steps[0], steps[-1]),
             "%s: StepWindow field %r, expected %r" % (where, window.GetTuple2(0), (steps[0], steps[-1])))
    # Row labels name the locations having events, top row first.
    labels = servermanager.Fetch(layout, idx=LABELS)
    text = labels.GetPointData().GetAbstractArray("Label")
    kinds = labels.GetPointData().GetArray("LabelKind")
    row_labels = [(labels.GetPoint(i)[1], text.GetValue(i)) for i in range(labels.GetNumberOfPoints())
                  if kinds.GetValue(i) == 1]
    want_labels = [(height - (r + 0.5) * h, NAMES[l]) for r, l in enumerate(rows)]
    if not named:  # a view too narrow for the names: none, or elided ones
        mt.check(ball(t[1].endswith("\u2026") for t in row_labels), "%s: row labels %r in a "
                 "margin too narrow for them" % (where, row_labels))
        return steps, w, h
    mt.check(len(row_labels) == len(want_labels) and ball(
        abs(a[0] - b[0]) < 1e-9 and a[1] == b[1] for a, b in zip(row_labels, want_labels)),
        "%s: row labels %r, expected %r" % (where, row_labels, want_labels))
    return steps, w, h


def message_lines(layout):
    lines = servermanager.Fetch(layout, idx=LINES)
    ids = lines.GetCellData().GetArray("Message")
    found = {}
    for i in range(lines.GetNumberOfCells()):
        if ids.GetValue(i) >= 0:
            p0 = lines.GetPoint(lines.GetCell(i).GetPointId(0))
            p1 = lines.GetPoint(lines.GetCell(i).GetPointId(1))
            found[ids.GetValue(i)] = (p0[0], p0[1], p1[0], p1[1])
    borders = len([i for i in range(lines.GetNumberOfCells()) if ids.GetValue(i) < 0])
    fields = lines.GetFieldData()
    return (found, borders, fields.GetArray("MessagesInWindow").GetValue(0),
            fields.GetArray("MessagesOmitted").GetValue(0))


# 1. The whole trace, 800 x 300: 8 columns and 3 rows over the plot, spaced.
# The plot is what the labels and legend leave of the view (docs/labels.md).
VW, VH = 800, 300
timeline = LogicalTimelineLayout(Input=[events_source, messages_source], ViewSize=[VW, VH])
W, H = mt.plot_size(timeline, LABELS)
mt.check(0.5 * VW <= W < VW and 0.5 * VH <= H < VH, "a %gx%g plot in a %dx%d view" % (W, H, VW, VH))
steps, w, h = check_timeline(timeline, W, H, 0, LAST, True, "whole trace")
found, borders, in_window, omitted = message_lines(timeline)
mt.check(borders == 4 * len(EVENTS), "spaced boxes: %d border lines, expected %d" % (borders, 4 * len(EVENTS)))
rows = sorted(set(e[0] for e in EVENTS))
for k, (s, r, ss, rs, _, _) in enumerate(MESSAGES):
    want = ((ss + 0.5) * w, H - (rows.index(s) + 0.5) * h, (rs + 0.5) * w, H - (rows.index(r) + 0.5) * h)
    mt.check(k in found and close(found[k], want),
             "message %d drawn %r, expected %r" % (k, found.get(k), want))
mt.check(in_window == 3 and omitted == 0, "3 messages in the window, drawn: got %r" % ((in_window, omitted),))

# 2. Over the budget: none drawn; small boxes: no spacing nor border.
timeline.MaxMessages = 2
timeline.ViewSize = [60, 300]  # under 7.5 pixels per column: under the budget
check_timeline(timeline, *mt.plot_size(timeline, LABELS), 0, LAST, True, "narrow", named=False)
found, borders, in_window, omitted = message_lines(timeline)
mt.check(not found and in_window == 3 and omitted == 1,
         "over MaxMessages = 2, expected no message line, got %r" % ((found, in_window, omitted),))
mt.check(borders == 0, "boxes under 8 pixels have %d border lines" % borders)

# 3. A window of steps, and the communication steps only.
timeline.MaxMessages = 5000
timeline.ViewSize = [VW, VH]
timeline.StepWindow = [2, 5]
check_timeline(timeline, W, H, 2, 5, True, "window 2-5")
found, _, in_window, _ = message_lines(timeline)
mt.check(in_window == 3 and len(found) == 3, "window 2-5: %d messages meet it, %d drawn" % (in_window, len(found)))
# Message 0 (1 -> 3) enters at the left side: x = 0, y interpolated.
s0 = H - 0.5 * h
r0 = H - 1.5 * h
x_send, x_recv = (1 - 2 + 0.5) * W / 4, (3 - 2 + 0.5) * W / 4
y_cut = s0 + (r0 - s0) * (0.0 - x_send) / (x_recv - x_send)
mt.check(close(found[0], (0.0, y_cut, x_recv, r0)), "window 2-5: message 0 cut to %r, expected %r"
         % (found[0], (0.0, y_cut, x_recv, r0)))
timeline.StepWindow = [0, -1]
timeline.ShowAggregates = 0
check_timeline(timeline, W, H, 0, LAST, False, "communication steps")

# 4. The metric overview, from Steps and from the events alone.
for inputs, where in (([events_source, messages_source, steps_source], "Steps table"),
                      ([events_source], "events only")):
    overview = MetricOverviewLayout(Input=inputs, ViewSize=[VW, 200], StepWindow=[2, 5])
    overview.UpdatePipeline()
    W, PH = mt.plot_size(overview, LABELS)
    marks = servermanager.Fetch(overview, idx=MARKS)
    data = marks.GetCellData()
    boxes = cell_boxes(marks)
    bar_w = W / (LAST + 1.0)
    largest = bmax(SUMS)
    want = [(g, (g * bar_w, 0.0, (g + 1) * bar_w, SUMS[g] / largest * PH)) for g in range(LAST + 1)
            if SUMS[g] > 0]
    got = [(data.GetArray("GlobalStep").GetValue(i), boxes[i]) for i in range(len(boxes))
           if data.GetArray("GlobalStep").GetValue(i) >= 0]
    mt.check(len(got) == len(want) and ball(a[0] == b[0] and close(a[1], b[1]) for a, b in zip(got, want)),
             "%s: bars %r, expected %r" % (where, got, want))
    band = [boxes[i] for i in range(len(boxes)) if data.GetArray("GlobalStep").GetValue(i) == -1]
    mt.check(len(band) == 1 and close(band[0], (2 * bar_w, 0.0, 6 * bar_w, PH)),
             "%s: the window band is %r" % (where, band))
    inside = [data.GetArray("GlobalStep").GetValue(i) for i in range(len(boxes))
              if data.GetArray("InWindow").GetValue(i) == 1 and data.GetArray("GlobalStep").GetValue(i) >= 0]
    mt.check(inside == [3, 4, 5], "%s: bars in the window %r, expected [3, 4, 5]" % (where, inside))


# 5. Errors.
def expect_error(proxy, fragment):
    capture = mt.ErrorCapture()
    try:
        proxy.UpdatePipeline()
    finally:
        capture.close()
    mt.check(fragment in capture.text(), "expected an error mentioning %r, got: %r"
             % (fragment, capture.text()))


timeline.MaxMessages = -1
expect_error(timeline, "MaxMessages must be >= 0")
timeline.MaxMessages = 10
timeline.StepWindow = [-3, 4]
expect_error(timeline, "StepWindow starts at a negative global step")
timeline.StepWindow = [0, -1]
other = ProgrammableSource(OutputDataSetType="vtkTable", Script="""
from vtkmodules.vtkCommonCore import vtkDoubleArray
a = vtkDoubleArray(); a.SetName("Start"); a.InsertNextValue(0.0); self.GetTableOutput().AddColumn(a)
""")
expect_error(LogicalTimelineLayout(Input=[events_source, other]), "none of the outputs of Logical Time")
expect_error(LogicalTimelineLayout(Input=[messages_source]), "needs the Logical Events output")
bad = ProgrammableSource(OutputDataSetType="vtkTable", Script=EVENTS_SCRIPT % ([(0, 1, 9, 0.0)], NAMES))
expect_error(MetricOverviewLayout(Input=[bad]), "Kind outside 0..4")
print("logical views: geometry checked")
