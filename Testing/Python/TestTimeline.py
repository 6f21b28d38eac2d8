"""Timeline Layout and the Timeline representation on a synthesized trace:
marks and lines counted against the reader's tables, aggregate marks present
exactly when a pixel budget is exceeded, time per type conserved through
the aggregation, rows replaced by a hierarchy level when they do not fit,
zoom, labels, legend, and clear errors for nonsensical properties."""
import collections
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

TIME_AGGREGATE, ROW_AGGREGATE, MESSAGE_AGGREGATE = 1, 2, 4

directory = os.path.join(args.output, "trace")
summary = mt.synthesize(args, directory, "--clusters", 1, "--nodes-per-cluster", 2,
                        "--ranks-per-node", 2, "--threads-per-rank", 2, "--iterations", 60,
                        "--pattern", "ring")
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
reader.UpdatePipeline()
states = servermanager.Fetch(reader, idx=0)
messages = servermanager.Fetch(reader, idx=1)
n_states = states.GetNumberOfRows()
n_messages = messages.GetNumberOfRows()
mt.check(n_states > 1000 and n_messages > 100, "the sample trace is too small: %d states, %d messages"
         % (n_states, n_messages))
span = reader.GetProperty("TimeBounds")[1]
starts, ends, types = (mt.column(states, c) for c in ("Start", "End", "Type"))
time_of_type = collections.Counter()
for s, e, t in zip(starts, ends, types):
    time_of_type[t] += e - s

layout = TimelineLayout(Input=[OutputPort(reader, i) for i in range(6)])


def output(port):
    layout.UpdatePipeline()
    return servermanager.Fetch(layout, idx=port)


def cell_values(data, name):
    array = data.GetCellData().GetAbstractArray(name)
    mt.check(array is not None, "no cell array %s" % name)
    return [array.GetValue(i) for i in range(array.GetNumberOfValues())]


def type_times(marks):
    times = collections.Counter()
    for t, seconds in zip(cell_values(marks, "Type"), cell_values(marks, "TypeTime")):
        times[t] += seconds
    return times


def composition_times(marks):
    """Each type's time from the per-mark composition in the field data
    (MarkTypeOffset, MarkTypeId, MarkTypeTime), whatever the style."""
    field = marks.GetFieldData()
    offsets, ids, seconds = (field.GetArray(n) for n in ("MarkTypeOffset", "MarkTypeId", "MarkTypeTime"))
    mt.check(offsets is not None and ids is not None and seconds is not None, "no per-mark composition")
    mt.check(offsets.GetNumberOfValues() == len(set(cell_values(marks, "Mark"))) + 1,
             "MarkTypeOffset: %d values for %d marks" % (offsets.GetNumberOfValues(), len(set(cell_values(marks, "Mark")))))
    times = collections.Counter()
    for k in range(ids.GetNumberOfValues()):
        times[ids.GetValue(k)] += seconds.GetValue(k)
    return times


def check_conservation(marks, what, cells=True):
    """Each type's time in the States, in the cells' TypeTime (Stacked style
    or plain marks only) and in the per-mark composition."""
    sources = [("composition", composition_times(marks))]
    if cells:
        sources.append(("cells", type_times(marks)))
    for name, got in sources:
        for t, expected in time_of_type.items():
            mt.check(abs(got[t] - expected) <= 1e-9 * span + 1e-9 * expected,
                     "%s (%s): type %d has %.12g s in the marks, %.12g s in the States"
                     % (what, name, t, got[t], expected))


# 1. A budget every state meets: one plain mark per state, one line per
# message, no aggregate and no hatching.
layout.ViewSize = [20000000, 2000]
layout.MinMarkWidth = 1
layout.MinRowHeight = 3
layout.MaxMessagesPerPixel = 0
marks = output(0)
flags = cell_values(marks, "Aggregate")
mt.check(marks.GetNumberOfCells() == n_states,
         "wide view: %d marks for %d states" % (marks.GetNumberOfCells(), n_states))
mt.check(not any(flags), "wide view: %d aggregate marks where every state is wide" % sum(map(bool, flags)))
mt.check(all(c == 1 for c in cell_values(marks, "StateCount")), "wide view: a mark holds several states")
mt.check(output(2).GetNumberOfCells() == 0, "wide view: hatching without aggregates")
lines = output(1)
mt.check(lines.GetNumberOfLines() == n_messages,
         "wide view: %d message lines for %d messages" % (lines.GetNumberOfLines(), n_messages))
check_conservation(marks, "wide view")
rows = marks.GetFieldData().GetArray("Rows")
mt.check(rows.GetComponent(0, 0) == summary["locations"] and rows.GetComponent(0, 1) == -1,
         "wide view: expected one row per location, got rows=%d level=%d"
         % (rows.GetComponent(0, 0), rows.GetComponent(0, 1)))

# 2. A narrow view: narrow states merge into flagged, hatched aggregates that
# keep the time of every type; nothing is dropped.
layout.ViewSize = [150, 600]
layout.MinMarkWidth = 3
layout.AggregateStyle = "Stacked"  # the default is Mode: checked below
marks = output(0)
flags = cell_values(marks, "Aggregate")
mt.check(any(f & TIME_AGGREGATE for f in flags), "narrow view: no aggregate mark")
mark_ids = cell_values(marks, "Mark")
# One aggregate per budget column at most (3 px: 50 columns per row and depth).
mt.check(len(set(mark_ids)) < n_states / 2,
         "narrow view: %d marks for %d states, the aggregation did not merge" % (len(set(mark_ids)), n_states))
counted = {}
for m, c in zip(mark_ids, cell_values(marks, "StateCount")):
    counted[m] = c
mt.check(sum(counted.values()) == n_states, "narrow view: the marks hold %d states, the trace %d"
         % (sum(counted.values()), n_states))
check_conservation(marks, "narrow view, stacked")
mt.check(output(2).GetNumberOfCells() > 0, "narrow view: aggregates are not hatched")
# Stacked layers of one mark share its extent and split its height by time.
by_mark = collections.defaultdict(list)
for cell, m in enumerate(mark_ids):
    by_mark[m].append(cell)
stacked = [cells for cells in by_mark.values() if len(cells) > 1]
mt.check(stacked, "narrow view: no aggregate shows several types")
fractions = cell_values(marks, "Fraction")
for cells in stacked[:50]:
    mt.check(abs(sum(fractions[c] for c in cells) - 1.0) < 1e-9, "stacked layers do not sum to the mark")
    bounds = [marks.GetCell(c).GetBounds() for c in cells]
    heights = [b[3] - b[2] for b in bounds]
    total = sum(heights)
    for c, h in zip(cells, heights):
        mt.check(abs(h / total - fractions[c]) < 1e-6, "a stacked layer's height is not its time share")
# Aggregates narrower than the budget are widened to it, never dropped.
for cell in range(marks.GetNumberOfCells()):
    b = marks.GetCell(cell).GetBounds()
    if flags[cell] & TIME_AGGREGATE:
        mt.check(b[1] - b[0] >= 3 - 1e-9, "an aggregate mark is %.3g px wide, under the 3 px budget"
                 % (b[1] - b[0]))
# The mode style: one cell per mark, coloured by its main type.
layout.AggregateStyle = "Mode"
mode_marks = output(0)
mt.check(mode_marks.GetNumberOfCells() == len(by_mark),
         "mode style: %d cells for %d marks" % (mode_marks.GetNumberOfCells(), len(by_mark)))
layout.AggregateStyle = "Mode"  # back to the default, which the representation uses

# Messages: at most one per pixel column and row pair, the rest merged into
# red lines that count them all; past one line per pixel column, a density
# strip (a quad per pixel column) that counts them all instead (20 px:
# several iterations per column).
layout.MaxMessagesPerPixel = 1
layout.ViewSize = [20, 600]
lines = output(1)
line_flags = cell_values(lines, "Aggregate")
MESSAGE_DENSITY = 8
mt.check(line_flags and all(f == MESSAGE_DENSITY for f in line_flags),
         "narrow view: the messages are not a density: flags %s" % sorted(set(line_flags)))
mt.check(lines.GetNumberOfLines() == 0 and lines.GetNumberOfCells() <= 20,
         "narrow view: %d lines, %d cells in 20 px" % (lines.GetNumberOfLines(), lines.GetNumberOfCells()))
mt.check(sum(cell_values(lines, "Count")) == n_messages,
         "narrow view: the density counts %d messages, the trace has %d" % (sum(cell_values(lines, "Count")), n_messages))
narrow_plot_height = output(4).GetFieldData().GetArray("PlotSize").GetComponent(0, 1)
mt.check(min(lines.GetBounds()[2], lines.GetBounds()[3]) > narrow_plot_height,
         "narrow view: the density strip is not above the %g px plot: %s"
         % (narrow_plot_height, lines.GetBounds()))
# Many messages per pixel but few lines: merged red lines (a wider view, a
# per-pixel limit large enough to keep the lines under the width).
layout.ViewSize = [400, 600]
layout.MaxMessagesPerPixel = 1
lines = output(1)
line_flags = cell_values(lines, "Aggregate")
mt.check(sum(cell_values(lines, "Count")) == n_messages,
         "the lines count %d messages, the trace has %d" % (sum(cell_values(lines, "Count")), n_messages))
mt.check(all(f in (0, MESSAGE_AGGREGATE) for f in line_flags) or all(f == MESSAGE_DENSITY for f in line_flags),
         "lines and density mixed: flags %s" % sorted(set(line_flags)))
mt.check(lines.GetNumberOfCells() < n_messages, "400 px: messages were not merged")
layout.ShowMessages = 0
mt.check(output(1).GetNumberOfCells() == 0, "ShowMessages off still draws messages")
layout.ShowMessages = 1

# 3. Rows that do not fit give way to a hierarchy level (Dosimont et al. 2014 (VPA) III-C): 8
# locations in a plot of 5 rows become the 4 ranks; rows flagged.
# The plot is what the labels leave of the view (docs/labels.md): the row
# budget is a fifth of its height, room for 4 rows but not 8.
layout.ViewSize = [500, 80]
plot_height = output(4).GetFieldData().GetArray("PlotSize").GetComponent(0, 1)
layout.MinRowHeight = plot_height / 5.0
marks = output(0)
rows = marks.GetFieldData().GetArray("Rows")
mt.check(rows.GetComponent(0, 0) == 4 and rows.GetComponent(0, 1) >= 1,
         "short view: expected the 4 ranks as rows, got %d rows at level %d"
         % (rows.GetComponent(0, 0), rows.GetComponent(0, 1)))
flags = cell_values(marks, "Aggregate")
mt.check(all(f & ROW_AGGREGATE for f in flags), "short view: marks of merged rows are not flagged")
check_conservation(marks, "short view, mode", cells=False)
labels = output(4)
texts = [labels.GetPointData().GetAbstractArray("Label").GetValue(i) for i in range(labels.GetNumberOfPoints())]
kinds = [labels.GetPointData().GetArray("LabelKind").GetValue(i) for i in range(labels.GetNumberOfPoints())]
row_labels = [t for t, k in zip(texts, kinds) if k == 1]
# Each rank row is named, by itself when the rows hold the text, else by
# its node (the ranks of 2 nodes, rows of plot / 4 pixels: docs/labels.md).
rank_height = plot_height / 4.0
label_pitch = 14.0  # a 12 pt row label and its gap
mt.check(row_labels == (["MPI Rank %d" % r for r in range(4)] if rank_height >= label_pitch
                        else ["node-0", "node-1"]),
         "short view: rows of %.1f px should be named by their %s, got %r"
         % (rank_height, "ranks" if rank_height >= label_pitch else "nodes", row_labels))

# 4. Zoom: only the window is drawn, at the states' own resolution.
layout.ViewSize = [1600, 900]
layout.MinRowHeight = 3
layout.TimeWindow = [0.25 * span, 0.3 * span]
marks = output(0)
for name, bound in (("Start", 0.25 * span), ("End", 0.3 * span)):
    values = cell_values(marks, name)
    mt.check(all(0.25 * span - 1e-12 <= v <= 0.3 * span + 1e-12 for v in values),
             "zoom: a mark's %s lies outside the window" % name)
inside = sum(1 for s, e in zip(starts, ends) if s < 0.3 * span and e > 0.25 * span)
held = sum({m: c for m, c in zip(cell_values(marks, "Mark"), cell_values(marks, "StateCount"))}.values())
mt.check(held == inside, "zoom: the marks hold %d states, %d overlap the window" % (held, inside))
labels = output(4)
texts = [labels.GetPointData().GetAbstractArray("Label").GetValue(i) for i in range(labels.GetNumberOfPoints())]
kinds = [labels.GetPointData().GetArray("LabelKind").GetValue(i) for i in range(labels.GetNumberOfPoints())]
ticks = [t for t, k in zip(texts, kinds) if k == 0]
mt.check(len(ticks) >= 3 and all(t.endswith("s") for t in ticks), "zoom: tick labels %r" % ticks)
mt.check(len(set(ticks)) == len(ticks), "zoom: repeated tick labels %r" % ticks)
legend = output(5)
names = legend.GetFieldData().GetAbstractArray("LegendName")
mt.check(names is not None and names.GetNumberOfValues() >= 3, "zoom: the legend lists no types")
legend_labels = [t for t, k in zip(texts, kinds) if k == 4]
mt.check(names.GetValue(0) in legend_labels, "the legend's first type has no label")
mt.check(legend.GetNumberOfCells() >= names.GetNumberOfValues() or names.GetNumberOfValues() > 24,
         "the legend has %d swatches for %d types" % (legend.GetNumberOfCells(), names.GetNumberOfValues()))
layout.TimeWindow = [0, 0]

# 5. Nonsensical properties and inputs: a clear error, no output, no crash.
for prop, value, words in (("TimeWindow", [0.5 * span, 0.1 * span], "TimeWindow"),
                           ("ViewSize", [0, 900], "ViewSize"),
                           ("MinMarkWidth", -1.0, "MinMarkWidth"),
                           ("Depth", -3, "Depth")):
    previous = layout.GetPropertyValue(prop)
    previous = list(previous) if hasattr(previous, "__len__") else previous
    layout.SetPropertyWithName(prop, value)
    capture = mt.ErrorCapture()
    layout.UpdatePipeline()
    text = capture.text()
    capture.close()
    mt.check(words in text, "%s=%r: expected an error naming it, got %r" % (prop, value, text))
    layout.SetPropertyWithName(prop, previous)
# Several outputs are taken as given: without the Hierarchy, an error asks
# for it. (States alone is the one-click form: the layout finds the rest
# beside it, Python.OneInput.)
states_only = TimelineLayout(Input=[OutputPort(reader, 0), OutputPort(reader, 1)])
capture = mt.ErrorCapture()
states_only.UpdatePipeline()
text = capture.text()
capture.close()
mt.check("Hierarchy" in text, "States and Messages: expected an error asking for the Hierarchy, got %r"
         % text)

# 6. The representation draws the same layout from the States table alone.
view = CreateView("RenderView")
view.ViewSize = [800, 500]
display = Show(OutputPort(reader, 0), view, "MacroscopeTraceRepresentation")
mt.check(display.GetXMLName() == "MacroscopeTraceRepresentation", "no Timeline display for States")
display.SetRepresentationType("Timeline")
mt.check(display.Representation == "Timeline", "representation type %r" % display.Representation)
mt.check("Timeline" in display.GetProperty("Representation").Available, "Timeline is not offered")
display.ViewSize = [150, 600]
display.MinMarkWidth = 3
Render(view)
drawn = display.GetRepresentedDataInformation().GetNumberOfCells()
layout.ViewSize = [150, 600]
layout.MinMarkWidth = 3
layout.MaxMessagesPerPixel = 1
mt.check(drawn > 0 and drawn == output(0).GetNumberOfCells(),
         "the representation draws %d mark cells, the layout filter %d" % (drawn, output(0).GetNumberOfCells()))
print("timeline: %d states, %d messages; checks passed" % (n_states, n_messages))
