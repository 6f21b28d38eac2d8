"""Details on demand (docs/details-on-demand.md): picks known marks of the
Timeline (a plain state, an aggregate, a message) and of the spatiotemporal
overview (a part) at their pixel positions with macroscope.details_at, and
checks the text and the rows against the trace tables; pick() makes
ParaView's selection of the rows. Serial and in client/server."""
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *

mt.load_plugin(args, globals())
import macroscope

directory = os.path.join(args.output, "trace")
mt.synthesize(args, directory, "--clusters", 1, "--nodes-per-cluster", 2, "--ranks-per-node", 2,
              "--threads-per-rank", 2, "--iterations", 40, "--pattern", "ring",
              "--perturbation", "slow-node", "--perturb-target", 1, "--perturb-window", 0.01, 0.02)
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
reader.UpdatePipeline()

view = CreateView("RenderView")
view.ViewSize = [1100, 600]
view.OrientationAxesVisibility = 0
view.CameraParallelProjection = 1
view.InteractionMode = "2D"
timeline = Show(OutputPort(reader, 0), view, "MacroscopeTraceRepresentation")
timeline.SetRepresentationType("Timeline")
timeline.ViewSize = [1000, 500]  # text included: a plot of about 700 x 440
timeline.MinMarkWidth = 6  # aggregates are one MinMarkWidth column wide: room to aim
Render(view)
view.ResetCamera(True)
Render(view)

# The marks as the representation lays them out, from the same layout filter.
layout = TimelineLayout(Input=[OutputPort(reader, p) for p in range(6)], ViewSize=[1000, 500],
                        MinMarkWidth=6)
marks = mt.gather_points(layout, 0)
lines = mt.gather_points(layout, 1)
states = mt.gather_table(reader, 0)
messages = mt.gather_table(reader, 1)
types = mt.gather_table(reader, 5)
type_names = mt.column(types, "Name")


def cell_array(data, name):
    array = data.GetCellData().GetArray(name)
    mt.check(array is not None, "the layout output has no %s array" % name)
    return [array.GetValue(i) for i in range(array.GetNumberOfTuples())]


def display_box(data, cell):
    bounds = data.GetCell(cell).GetBounds()
    x0, y0 = macroscope.chart_to_display(view, bounds[0], bounds[2])
    x1, y1 = macroscope.chart_to_display(view, bounds[1], bounds[3])
    return x0, y0, x1, y1


picks = []  # what ClientServer.Details asks again of a 2-rank pvserver


def record(chart, details):
    picks.append({"chart": chart, "point": list(details.chart), "kind": details.kind,
                  "text": details.text, "rows": len(details.rows),
                  "messages": int(timeline.ShowMessages)})
    return details


def pick_cell(data, cell):
    x0, y0, x1, y1 = display_box(data, cell)
    return record("Timeline", macroscope.details_at(view, round(0.5 * (x0 + x1)), round(0.5 * (y0 + y1)), timeline))


flags = cell_array(marks, "Aggregate")
counts = cell_array(marks, "StateCount")
starts, ends = cell_array(marks, "Start"), cell_array(marks, "End")
mark_types = cell_array(marks, "Type")


def big_enough(cell, pixels=4):
    x0, y0, x1, y1 = display_box(marks, cell)
    return x1 - x0 >= pixels and y1 - y0 >= pixels


def on_top(cell):
    """No other mark is drawn over the centre of `cell` (deeper states lie
    above their callers, at a larger z): the pick there must find it."""
    b = marks.GetCell(cell).GetBounds()
    x, y = 0.5 * (b[0] + b[1]), 0.5 * (b[2] + b[3])
    for other in range(marks.GetNumberOfCells()):
        o = marks.GetCell(other).GetBounds()
        if other != cell and o[4] > b[4] and o[0] <= x <= o[1] and o[2] <= y <= o[3]:
            return False
    return True


# A plain state: its type, resource and times, and its row in States.
plain = [c for c in range(marks.GetNumberOfCells()) if flags[c] == 0 and big_enough(c, 6) and on_top(c)]
mt.check(plain, "the Timeline has no plain mark wide enough to pick")
cell = plain[len(plain) // 2]
details = pick_cell(marks, cell)
print(details.text)
mt.check(details.found and details.kind == "state", "a plain mark reads as %r" % (details.kind,))
mt.check(len(details.rows) == 1 and details.row_table == "States", "a state gives one States row")
row = details.rows[0][1]
state_type = mt.column(states, "Type")[row]
mt.check(state_type == mark_types[cell], "the row's type %d is not the mark's %d" % (state_type, mark_types[cell]))
mt.check(details.text.startswith("State: " + type_names[state_type] + "\n"), "the text names another type")
row_start, row_end = mt.column(states, "Start")[row], mt.column(states, "End")[row]
mt.check(max(row_start, starts[cell]) == starts[cell] and min(row_end, ends[cell]) == ends[cell],
         "the row's times [%g, %g] are not the mark's [%g, %g]" % (row_start, row_end, starts[cell], ends[cell]))
resource = [l for l in details.text.split("\n") if l.startswith("Resource: ")]
mt.check(resource and resource[0] != "Resource: ?" and "/" in resource[0],
         "the text gives no resource path:\n" + details.text)
mt.check("\nDuration: " in details.text, "the text gives no duration")

# An aggregate: its span, its states (as many rows as StateCount) and its composition.
aggregates = [c for c in range(marks.GetNumberOfCells())
              if flags[c] & 1 and counts[c] > 2 and big_enough(c, 3) and on_top(c)]
mt.check(aggregates, "the Timeline has no aggregate to pick")
# What is drawn in front wins the pick: message lines, and deeper states
# inset in their callers. The aggregates are one column wide, crossed by
# messages nearly everywhere on this trace: hide the messages, and aim at
# aggregates from the middle out until one is not covered by a deeper mark.
timeline.ShowMessages = 0
Render(view)
middle = len(aggregates) // 2
for cell in sorted(aggregates, key=lambda c: abs(aggregates.index(c) - middle))[:60]:
    details = pick_cell(marks, cell)
    if details.kind == "aggregate":
        break
timeline.ShowMessages = 1
Render(view)
print(details.text)
mt.check(details.kind == "aggregate", "an aggregate reads as %r" % (details.kind,))
mt.check(len(details.rows) == counts[cell], "the aggregate holds %d states, the pick gives %d rows" % (counts[cell], len(details.rows)))
mt.check(("Aggregate of %d states" % counts[cell]) in details.text, "the text does not count the states")
held = {}
for _, r in details.rows:
    s, e = mt.column(states, "Start")[r], mt.column(states, "End")[r]
    mt.check(s < ends[cell] and e > starts[cell] or s == e, "row %d lies outside the aggregate" % r)
    name = type_names[mt.column(states, "Type")[r]]
    held[name] = held.get(name, 0.0) + min(e, ends[cell]) - max(s, starts[cell])
for name in held:
    mt.check("  %s: " % name in details.text, "the composition misses %s" % name)

# A message: its ends, times and bytes.
line_counts = cell_array(lines, "Count")
single = [c for c in range(lines.GetNumberOfCells()) if line_counts[c] == 1]
mt.check(single, "the Timeline draws no single message")
found = None
for c in single:
    bounds = lines.GetCell(c).GetBounds()
    if bounds[1] - bounds[0] < 8:
        continue
    a = lines.GetCell(c).GetPoints().GetPoint(0)
    b = lines.GetCell(c).GetPoints().GetPoint(1)
    mid = (0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1]))
    x, y = macroscope.chart_to_display(view, *mid)
    d = macroscope.details_at(view, round(x), round(y), timeline)
    if d.kind == "message":
        found = (c, record("Timeline", d))
        break
mt.check(found is not None, "no message could be picked at its middle")
c, details = found
print(details.text)
send = cell_array(lines, "SendTime")[c]
mt.check(len(details.rows) == 1 and details.row_table == "Messages", "a message gives one Messages row")
r = details.rows[0][1]
mt.check(mt.column(messages, "SendTime")[r] == send, "the message row has another send time")
sender = mt.column(messages, "Sender")[r]
mt.check(details.text.startswith("Message\nFrom "), "the text is not a message's")

# Nothing under a pixel outside the chart.
details = macroscope.details_at(view, 2, 2, timeline)
mt.check(not details.found and details.text == "", "a pixel outside the chart found %r" % (details.text,))

# pick(): ParaView's selection of the state's rows.
cell = plain[len(plain) // 3]
x0, y0, x1, y1 = display_box(marks, cell)
details = macroscope.pick(view, round(0.5 * (x0 + x1)), round(0.5 * (y0 + y1)), timeline)
ids = mt.selected_ids(reader)
mt.check(set(ids) == {details.rows[0][1]}, "the selection holds %s, not %s" % (ids, details.rows))

# An overview part: time span, resources and mode type with its share.
Delete(timeline)
slicing = TimeSlicing(Input=[OutputPort(reader, p) for p in range(6)], Slices=20)
partition = SpatiotemporalAggregation(Input=OutputPort(slicing, 0), Parameter=0.3)
overview = Show(OutputPort(partition, 0), view, "MacroscopeTraceRepresentation")
overview.SetRepresentationType("Spatiotemporal Overview")
overview.ViewSize = [600, 360]
Render(view)
view.ResetCamera(True)
Render(view)
olayout = SpatiotemporalOverviewLayout(Input=OutputPort(partition, 0), ViewSize=[600, 360])
parts = mt.gather_points(olayout, 0)
part_ids = cell_array(parts, "Part")
candidates = [c for c in range(parts.GetNumberOfCells()) if part_ids[c] >= 0]
mt.check(candidates, "the overview has no part")
cell = max(candidates, key=lambda c: (lambda b: (b[1] - b[0]) * (b[3] - b[2]))(parts.GetCell(c).GetBounds()))
bounds = parts.GetCell(cell).GetBounds()
x, y = macroscope.chart_to_display(view, 0.5 * (bounds[0] + bounds[1]), 0.5 * (bounds[2] + bounds[3]))
details = record("Spatiotemporal Overview", macroscope.details_at(view, round(x), round(y), overview))
print(details.text)
mt.check(details.kind == "part", "an overview part reads as %r" % (details.kind,))
mt.check(details.rows == [(0, part_ids[cell])], "the part's row is %s, not %d" % (details.rows, part_ids[cell]))
names = parts.GetCellData().GetAbstractArray("TypeName")
mt.check(("Mode type: " + names.GetValue(cell) + " (") in details.text, "the text names another mode")
node_names = parts.GetCellData().GetAbstractArray("NodeName")
mt.check(("Resources: " + node_names.GetValue(cell)) in details.text, "the text names other resources")
share = cell_array(parts, "ModeProportion")[cell]
mt.check(("%.0f %%" % (100 * share)) in details.text or ("%.1f %%" % (100 * share)) in details.text,
         "the text does not give the mode's share %.3f" % share)
# A visual aggregate of the overview: the parts it stands for.
overview.MinRowHeight = 100  # ranks (4 leaves, 90 px) give way to nodes
olayout.MinRowHeight = 100
Render(view)
parts = mt.gather_points(olayout, 0)
part_ids = cell_array(parts, "Part")
counts = cell_array(parts, "PartCount")
aggregates = [c for c in range(parts.GetNumberOfCells()) if part_ids[c] < 0]
mt.check(aggregates, "the overview has no visual aggregate at MinRowHeight 100")
cell = max(aggregates, key=lambda c: (lambda b: (b[1] - b[0]) * (b[3] - b[2]))(parts.GetCell(c).GetBounds()))
bounds = parts.GetCell(cell).GetBounds()
x, y = macroscope.chart_to_display(view, 0.5 * (bounds[0] + bounds[1]), 0.5 * (bounds[2] + bounds[3]))
details = record("Spatiotemporal Overview", macroscope.details_at(view, round(x), round(y), overview))
print(details.text)
mt.check(details.kind == "aggregate-part", "a visual aggregate reads as %r" % (details.kind,))
mt.check(len(details.rows) == counts[cell], "the aggregate stands for %d parts, the pick gives %d rows"
         % (counts[cell], len(details.rows)))
mt.check(("visual aggregate of %d parts" % counts[cell]) in details.text, "the text does not count the parts")
table = mt.gather_table(partition, 0)
first_leaf, last_leaf = cell_array(parts, "FirstLeaf")[cell], cell_array(parts, "LastLeaf")[cell]
for _, r in details.rows:
    mt.check(first_leaf <= mt.column(table, "FirstLeaf")[r] and mt.column(table, "LastLeaf")[r] <= last_leaf,
             "part %d lies outside the aggregate's leaves" % r)

# The temporal overview: a layer, its part's mode and the layer's share.
Delete(overview)
temporal = TemporalAggregation(Input=OutputPort(slicing, 0), Parameter=0.3)
stacks = Show(OutputPort(temporal, 0), view, "MacroscopeTraceRepresentation")
stacks.SetRepresentationType("Temporal Overview")
stacks.ViewSize = [600, 360]
Render(view)
view.ResetCamera(True)
Render(view)
tlayout = TemporalOverviewLayout(Input=OutputPort(temporal, 0), ViewSize=[600, 360])
layers = mt.gather_points(tlayout, 0)
layer_types = cell_array(layers, "Type")
plain = [c for c in range(layers.GetNumberOfCells()) if layer_types[c] >= 0]
cell = max(plain, key=lambda c: (lambda b: (b[1] - b[0]) * (b[3] - b[2]))(layers.GetCell(c).GetBounds()))
bounds = layers.GetCell(cell).GetBounds()
x, y = macroscope.chart_to_display(view, 0.5 * (bounds[0] + bounds[1]), 0.5 * (bounds[2] + bounds[3]))
details = record("Temporal Overview", macroscope.details_at(view, round(x), round(y), stacks))
print(details.text)
mt.check(details.kind == "layer", "a temporal overview layer reads as %r" % (details.kind,))
name = layers.GetCellData().GetAbstractArray("TypeName").GetValue(cell)
mt.check(("Value: layer " + name + ", ") in details.text, "the text names another layer")
part = cell_array(layers, "Part")[cell]
mt.check(details.rows == [(0, part)], "the layer's row is %s, not part %d" % (details.rows, part))
values = cell_array(layers, "Value")
same = [c for c in range(layers.GetNumberOfCells()) if cell_array(layers, "Part")[c] == part and layer_types[c] >= 0]
mode = max(same, key=lambda c: values[c])
mt.check(("Mode type: " + layers.GetCellData().GetAbstractArray("TypeName").GetValue(mode) + " (") in details.text,
         "the text gives another mode type")

import json
with open(os.path.join(args.output, "picks.json"), "w") as out:
    json.dump(picks, out, indent=1)
print("details on demand: state, aggregate, message, part and selection checked")
