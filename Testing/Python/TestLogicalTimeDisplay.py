"""The logical views on the real Logical Time filter: its Logical Events
output, shown in a Render View without naming a representation, opens as
the Logical Timeline (the filter's hints), and the display finds the
filter's other outputs beside it: the message lines drawn are the Logical
Messages within the budget and the window, the clustered view's bands are
the Clusters table's and its Waitall pies come from the Phases table's
patterns, the focus processes are the maximum's message partners, and the
Metric Overview's bars are the Steps table's sums. Switching the display
type with SetRepresentationType works. Expected values are recomputed here
from the filter's tables (fetched), not read from the display."""
import collections
import math
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())
from builtins import max as bmax

RECEIVING = (2, 3, 4)  # Receive, SendReceive, Collective
BAND, SENDS, RECEIVES, AGGREGATE, SEND_LINE, RECEIVE_LINE, PIE_BG, PIE, FOCUS = range(9)
WAITALL = 3

directory = os.path.join(args.output, "trace")
mt.synthesize(args, directory, "--clusters", 1, "--nodes-per-cluster", 4, "--ranks-per-node", 4,
              "--threads-per-rank", 1, "--iterations", 12, "--pattern", "stencil3d",
              "--perturbation", "slow-node", "--perturb-target", 1,
              "--perturb-window", 0.004, 0.008)
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
lt = LogicalTime(Input=[OutputPort(reader, i) for i in range(6)])
lt.UpdatePipeline()


def rows(port):
    t = servermanager.Fetch(lt, idx=port)
    names = [t.GetColumnName(c) for c in range(t.GetNumberOfColumns())]
    Row = collections.namedtuple("Row", names)
    return [Row(*values) for values in zip(*[mt.column(t, n) for n in names])]


events, messages, clusters, steps, phases = rows(0), rows(1), rows(2), rows(4), rows(5)
mt.check(len(events) > 0 and len(messages) > 0, "Logical Time gave %d events, %d messages"
         % (len(events), len(messages)))
waitall_phases = {p.Phase for p in phases if p.Pattern == WAITALL}
mt.check(waitall_phases, "the stencil trace has no ReceivesWaitall phase: %r"
         % [(p.Phase, p.PatternName) for p in phases])

view = CreateView("RenderView")
view.ViewSize = [800, 500]
# No representation named: the filter's hints choose it.
display = Show(OutputPort(lt, 0), view)
mt.check(display.GetXMLName() == "MacroscopeTraceRepresentation",
         "Logical Events shown as %s, not MacroscopeTraceRepresentation" % display.GetXMLName())
mt.check(display.Representation == "Logical Timeline",
         "Logical Events shown as %r, not 'Logical Timeline'" % display.Representation)
display.ViewSize = [600, 400]


def drawn():
    """The polydata the display renders (serial: the client is the server),
    keyed by the field or cell array that tells the layers apart."""
    Render(view)
    found = {}
    actors = view.GetClientSideObject().GetRenderer().GetActors()
    actors.InitTraversal()
    for _ in range(actors.GetNumberOfItems()):
        actor = actors.GetNextActor()
        data = actor.GetMapper().GetInput() if actor.GetMapper() else None
        if data is None or not actor.GetVisibility():
            continue
        for key in ("MessagesInWindow", "StepWindow", "Focus"):
            if data.GetFieldData().GetAbstractArray(key) is not None:
                found[key] = data
        for key in ("Mark", "InWindow"):
            if data.GetCellData().GetAbstractArray(key) is not None:
                found[key] = data
    return found


def cell_values(data, name):
    a = data.GetCellData().GetArray(name)
    return [a.GetValue(i) for i in range(data.GetNumberOfCells())]


def message_lines(where, first, last):
    """Lines drawn for messages, checked against the messages meeting the
    steps first..last (last < first: all)."""
    layers = drawn()
    mt.check("MessagesInWindow" in layers, "%s: the display draws no Lines layer" % where)
    lines = layers["MessagesInWindow"]
    fields = lines.GetFieldData()
    in_window = fields.GetArray("MessagesInWindow").GetValue(0)
    omitted = fields.GetArray("MessagesOmitted").GetValue(0)
    want = [m.Message for m in messages
            if last < first or (m.SendGlobalStep <= last and m.RecvGlobalStep >= first)]
    mt.check(in_window == len(want), "%s: %d messages in the window, expected %d"
             % (where, in_window, len(want)))
    ids = sorted(set(v for v in cell_values(lines, "Message") if v >= 0))
    return ids, sorted(want), omitted


# 1. Logical Timeline: every message is a line (672 < MaxMessages = 5000).
ids, want, omitted = message_lines("whole trace", 0, -1)
mt.check(ids == want and omitted == 0, "whole trace: %d message lines drawn (omitted %d), expected "
         "the %d Logical Messages" % (len(ids), omitted, len(want)))
marks = drawn()["StepWindow"]
mt.check(marks.GetNumberOfCells() == len(events), "whole trace: %d boxes for %d events"
         % (marks.GetNumberOfCells(), len(events)))
# A window: the messages meeting it.
display.StepWindow = [20, 40]
ids, want, omitted = message_lines("steps 20-40", 20, 40)
mt.check(0 < len(want) < len(messages) and ids == want and omitted == 0,
         "steps 20-40: message lines %r, expected %r" % (ids, want))
# Over the budget: none drawn, flagged as omitted.
display.MaxMessages = len(want) - 1
ids, want, omitted = message_lines("over budget", 20, 40)
mt.check(ids == [] and omitted == 1, "over budget (%d messages, budget %d): %d lines drawn, "
         "omitted flag %d" % (len(want), len(want) - 1, len(ids), omitted))
display.MaxMessages = 5000
display.StepWindow = [0, -1]

# 2. Clustered Logical Timeline, by SetRepresentationType.
display.SetRepresentationType("Clustered Logical Timeline")
mt.check(display.Representation == "Clustered Logical Timeline",
         "SetRepresentationType gave %r" % display.Representation)
layers = drawn()
mt.check("Mark" in layers and "Focus" in layers, "the clustered view draws no marks")
marks = layers["Mark"]
kinds, phase_of, cluster_of = cell_values(marks, "Mark"), cell_values(marks, "Phase"), cell_values(marks, "Cluster")
step_of, fraction = cell_values(marks, "GlobalStep"), cell_values(marks, "Fraction")
# Bands: one per (phase, cluster) of the Clusters table, as tall as its members.
members = collections.Counter((c.Phase, c.Cluster) for c in clusters)
bands = {(phase_of[i], cluster_of[i]): fraction[i] for i in range(len(kinds)) if kinds[i] == BAND}
mt.check(bands == dict(members), "bands %r, expected the Clusters table's %r" % (bands, dict(members)))
# Waitall pies: one per (phase, cluster, step) where the cluster receives in
# a ReceivesWaitall phase, filled to the mean receives / MaxReceives.
max_receives = {p.Phase: p.MaxReceives for p in phases}
completed = collections.defaultdict(list)
for e in events:
    if e.Phase in waitall_phases and e.Kind in RECEIVING:
        completed[(e.Phase, e.Cluster, e.GlobalStep)].append(e.Receives)
backgrounds = sorted((phase_of[i], cluster_of[i], step_of[i]) for i in range(len(kinds)) if kinds[i] == PIE_BG)
mt.check(backgrounds == sorted(completed), "%d pies drawn, expected %d (one per cluster and receive "
         "step of the ReceivesWaitall phases)" % (len(backgrounds), len(completed)))
pies = {(phase_of[i], cluster_of[i], step_of[i]): fraction[i] for i in range(len(kinds)) if kinds[i] == PIE}
for key, received in completed.items():
    want = min(1.0, sum(received) / len(received) / max_receives[key[0]])
    mt.check(abs(pies.get(key, 0.0) - want) < 1e-9, "pie %r filled to %r, expected %g"
             % (key, pies.get(key), want))
# Focus: the location of the largest metric and its direct message partners.
top = bmax(range(len(events)), key=lambda k: (events[k].Metric, -k))
centre = events[top].Location
partners = {m.Receiver for m in messages if m.Sender == centre} | {m.Sender for m in messages if m.Receiver == centre}
focus_field = layers["Focus"].GetFieldData().GetArray("Focus")
focus = sorted(focus_field.GetValue(i) for i in range(focus_field.GetNumberOfTuples()))
mt.check(focus == sorted(partners | {centre}) and len(focus) > 1,
         "focus %r, expected rank %d and its partners %r" % (focus, centre, sorted(partners)))

# 3. Metric Overview: a bar per step of positive MetricSum, valued by it.
display.SetRepresentationType("Metric Overview")
mt.check(display.Representation == "Metric Overview", "SetRepresentationType gave %r" % display.Representation)
layers = drawn()
mt.check("InWindow" in layers, "the Metric Overview draws no bars")
bars = layers["InWindow"]
want = {s.GlobalStep: s.MetricSum for s in steps if s.MetricSum > 0 and not math.isnan(s.MetricSum)}
got = {g: v for g, v in zip(cell_values(bars, "GlobalStep"), cell_values(bars, "Value")) if g >= 0}
mt.check(sorted(got) == sorted(want) and all(abs(got[g] - want[g]) <= 1e-12 * abs(want[g]) for g in want),
         "Metric Overview bars %r, expected the Steps table's sums %r" % (got, want))

# 4. Back to the Logical Timeline.
display.SetRepresentationType("Logical Timeline")
ids, want, omitted = message_lines("back to the timeline", 0, -1)
mt.check(ids == want, "back to the timeline: %d message lines, expected %d" % (len(ids), len(want)))

# 5. Picking boxes selects their rows of Logical Events, and the steps of a
# selection map to the physical window that shows them in a Gantt chart.
view.ResetCamera(True)
marks = drawn()["StepWindow"]
event_of_cell = cell_values(marks, "Event")
renderer = view.GetClientSideObject().GetRenderer()


def display_point(x, y):
    renderer.SetWorldPoint(x, y, 0.0, 1.0)
    renderer.WorldToDisplay()
    px, py, _ = renderer.GetDisplayPoint()
    return int(round(px)), int(round(py))


box_of = {}
for cell, event in enumerate(event_of_cell):
    b = marks.GetCell(cell).GetBounds()
    box_of[event] = b
picked_rows = []
for event in (0, len(events) // 2, len(events) - 1):
    x0, x1, y0, y1 = box_of[event][:4]
    px, py = display_point(0.5 * (x0 + x1), 0.5 * (y0 + y1))
    ClearSelection(lt)
    SelectSurfaceCells(Rectangle=[px, py, px, py], View=view)
    picked = mt.selected_ids(lt)
    mt.check(picked == [event], "picking the box of event %d selected rows %r" % (event, picked))
    picked_rows.append(event)
# Zoomed on steps 20-40, a rubber band over one row's boxes.
display.StepWindow = [20, 40]
view.ResetCamera(True)
marks = drawn()["StepWindow"]
box_of = {event: marks.GetCell(cell).GetBounds()
          for cell, event in enumerate(cell_values(marks, "Event"))}
location = events[len(events) // 2].Location
band = [i for i, e in enumerate(events) if e.Location == location and 20 <= e.GlobalStep <= 40]
x0 = min(box_of[i][0] for i in band)
x1 = max(box_of[i][1] for i in band)
# The heights every box of the row covers (aggregates are drawn lower), so
# that message lines crossing the row cannot hide a box from the band.
ylo = max(box_of[i][2] for i in band)
yhi = min(box_of[i][3] for i in band)
(ax, ay), (bx, by) = display_point(x0 + 1.0, ylo + 0.5), display_point(x1 - 1.0, yhi - 0.5)
ClearSelection(lt)
SelectSurfaceCells(Rectangle=[min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)], View=view)
picked = mt.selected_ids(lt)
mt.check(picked == band, "a rubber band over steps 20-40 of location %d selected rows %r, "
         "expected %r" % (location, picked, band))
first = min(events[i].GlobalStep for i in picked)
last = max(events[i].GlobalStep for i in picked)
lt.StepWindow = [first, last]
lt.UpdatePipeline()
lt.UpdatePropertyInformation()
window = list(lt.GetProperty("TimeWindowOfSteps"))
in_steps = [e for e in events if first <= e.GlobalStep <= last]
mt.check(window == [min(e.Enter for e in in_steps), max(e.Exit for e in in_steps)],
         "the selected steps %d-%d map to %r" % (first, last, window))
gantt_view = CreateView("RenderView")
gantt = Show(OutputPort(reader, 0), gantt_view, "MacroscopeTraceRepresentation")
gantt.SetRepresentationType("Timeline")
gantt.TimeWindow = window
Render(gantt_view)
gantt_layout = TimelineLayout(Input=[OutputPort(reader, i) for i in range(6)], TimeWindow=window)
gantt_layout.UpdatePipeline()
gantt_marks = servermanager.Fetch(gantt_layout, idx=0)
mt.check(gantt_marks.GetNumberOfCells() > 0, "the Gantt chart of the selected steps is empty")
ClearSelection(lt)
display.StepWindow = [0, -1]
print("picked rows %r and steps %d-%d (%.6f-%.6f s)" % (picked_rows, first, last, window[0], window[1]))
