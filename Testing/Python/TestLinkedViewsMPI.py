"""Linked views on two MPI ranks (pvbatch --symmetric; docs/linked-views.md):
every rank runs the script, the reader splits the locations and Logical Time
gathers on the first rank. A rubber band over a state bar of the Timeline
gives that state's times on every rank; a rubber band over logical columns
(whose axis only the first rank has) gives the same window on every rank,
the span of their steps in the Steps table; every linked member of every
rank then holds it, Time Slicing's model (summed over the ranks) is sliced
on it, and the first rank's Logical Timeline draws the steps a brute force
over the Logical Events finds."""
import math
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())
import macroscope

controller = servermanager.vtkProcessModule.GetProcessModule().GetGlobalController()
rank = controller.GetLocalProcessId()
mt.check(controller.GetNumberOfProcesses() == 2, "run on 2 ranks, not %d"
         % controller.GetNumberOfProcesses())
directory = os.path.join(args.output, "trace")
if rank == 0:
    mt.synthesize(args, directory, "--clusters", 1, "--nodes-per-cluster", 4, "--ranks-per-node", 4,
                  "--threads-per-rank", 1, "--iterations", 12, "--pattern", "stencil3d")
controller.Barrier()


def field(data, name):
    array = data.GetFieldData().GetAbstractArray(name)
    mt.check(array is not None, "rank %d: no %s field data" % (rank, name))
    return [array.GetComponent(0, k) for k in range(array.GetNumberOfComponents())]


def same_on_all_ranks(values, what):
    """values equal (to 1e-15 relative) on both ranks."""
    from vtkmodules.vtkCommonCore import vtkDoubleArray
    from vtkmodules.vtkParallelCore import vtkCommunicator
    for op in (vtkCommunicator.MIN_OP, vtkCommunicator.MAX_OP):
        mine, agreed = vtkDoubleArray(), vtkDoubleArray()
        for v in values:
            mine.InsertNextValue(v)
        controller.AllReduce(mine, agreed, op)
        got = [agreed.GetValue(i) for i in range(agreed.GetNumberOfValues())]
        mt.check(all(abs(a - b) <= 1e-15 * max(1.0, abs(b)) for a, b in zip(got, values)),
                 "%s differs between the ranks: %r here, %r reduced" % (what, values, got))


reader = OTF2TraceReader(registrationName="reader",
                         FileName=os.path.join(directory, "traces.otf2"))
ports = [OutputPort(reader, i) for i in range(6)]
slicing = TimeSlicing(registrationName="slicing", Input=ports, Slices=20)
logical = LogicalTime(registrationName="logical", Input=ports)
logical.UpdatePipeline()
states = mt.gather_table(reader, 0)  # the root's: every rank's states
steps = logical.GetClientSideObject().GetOutputDataObject(4)
events = logical.GetClientSideObject().GetOutputDataObject(0)
mt.check((events.GetNumberOfRows() > 0) == (rank == 0),
         "rank %d holds %d logical events" % (rank, events.GetNumberOfRows()))

view = CreateView("RenderView")
view.ViewSize = [800, 500]
timeline = Show(OutputPort(reader, 0), view, "MacroscopeTraceRepresentation")
timeline.SetRepresentationType("Timeline")
timeline.ViewSize = [800, 500]
logical_display = Show(OutputPort(logical, 0), view, "MacroscopeTraceRepresentation")
logical_display.SetRepresentationType("Logical Timeline")
logical_display.ViewSize = [800, 500]
logical_display.Visibility = 0
macroscope.link_views()
view.InteractionMode = "2D"
Render(view)
view.ResetCamera(False)
Render(view)
renderer = view.GetClientSideObject().GetRenderer()


def marks(display):
    Render(view)
    return display.GetClientSideObject().GetActiveRepresentation().GetRenderedDataObject(0)


def pixel_of(x, y):
    renderer.SetWorldPoint(x, y, 0.0, 1.0)
    renderer.WorldToDisplay()
    return renderer.GetDisplayPoint()


# The longest state away from the trace's ends, chosen on the root and
# agreed on (the rank holding it need not be the root).
axis = field(marks(timeline), "TimeAxis")
same_on_all_ranks(axis, "the Timeline's TimeAxis")
choice = [0.0, 0.0]
if rank == 0:
    start, end = mt.column(states, "Start"), mt.column(states, "End")
    span = axis[3] - axis[2]
    inner = [(e - s, s, e) for s, e in zip(start, end)
             if s > axis[2] + 0.1 * span and e < axis[3] - 0.1 * span]
    _, choice[0], choice[1] = max(inner)
from vtkmodules.vtkCommonCore import vtkDoubleArray
message = vtkDoubleArray()
for v in choice:
    message.InsertNextValue(v)
controller.Broadcast(message, 0)
s, e = message.GetValue(0), message.GetValue(1)
width = axis[1] - axis[0]  # the plot's, what the labels leave of ViewSize (docs/labels.md)
p0 = pixel_of(axis[0] + (s - axis[2]) / (axis[3] - axis[2]) * width, 150.0)
p1 = pixel_of(axis[0] + (e - axis[2]) / (axis[3] - axis[2]) * width, 150.0)
window = macroscope.select_time_range(view, [p0[0], p0[1], p1[0], p1[1]], timeline)
mt.check(all(abs(a - b) <= 1e-9 * (axis[3] - axis[2]) for a, b in zip(window, [s, e])),
         "rank %d: the band over [%r, %r] gives %r" % (rank, s, e, window))
mt.check(list(slicing.TimeWindow) == window, "rank %d: Time Slicing did not follow" % rank)
model = slicing.GetClientSideObject()
slicing.UpdatePipeline()
model_window = field(model.GetOutputDataObject(0), "TimeWindow")
mt.check(all(abs(a - b) <= 1e-12 for a, b in zip(model_window, window)),
         "rank %d: the model's window %r, the band's %r" % (rank, model_window, window))

# The logical view: its axis is on the root only; the band's window is the root's.
timeline.Visibility = 0
logical_display.Visibility = 1
macroscope.set_window(0, 0)
Render(view)
view.ResetCamera(False)
if rank == 0:
    step_axis = field(marks(logical_display), "StepAxis")
else:
    marks(logical_display)
    step_axis = [0.0] * 5
message = vtkDoubleArray()
for v in step_axis:
    message.InsertNextValue(v)
controller.Broadcast(message, 0)
step_axis = [message.GetValue(i) for i in range(5)]
first, last, stride = int(step_axis[2]), int(step_axis[3]), int(step_axis[4])
column_width = (step_axis[1] - step_axis[0]) / ((last - first) // stride + 1)
q0 = pixel_of(step_axis[0] + 2.5 * column_width, 150.0)  # inside the plot
q1 = pixel_of(step_axis[0] + 6.5 * column_width, 150.0)
window = macroscope.select_time_range(view, [q0[0], q0[1], q1[0], q1[1]], logical_display)
same_on_all_ranks(window, "the logical band's window")
mt.check(list(timeline.TimeWindow) == window and list(slicing.TimeWindow) == window,
         "rank %d: the linked members did not follow the logical band" % rank)
if rank == 0:
    s0, s1 = first + 2 * stride, first + 6 * stride
    rows = [(a, b) for g, a, b in zip(mt.column(steps, "GlobalStep"), mt.column(steps, "Start"),
                                      mt.column(steps, "End")) if s0 <= g <= s1]
    expected = [min(a for a, _ in rows), max(b for _, b in rows)]
    mt.check(window == expected, "logical band over steps %d-%d: %r, Steps give %r"
             % (s0, s1, window, expected))
    def inside(a, b):
        return (a < window[1] and b > window[0]) if a < b else (window[0] <= a < window[1])

    found = [g for g, a, b in zip(mt.column(events, "GlobalStep"), mt.column(events, "Enter"),
                                  mt.column(events, "Exit")) if inside(a, b)]
    drawn = [int(v) for v in field(marks(logical_display), "StepsOfTimeWindow")]
    mt.check(drawn == [min(found), max(found)], "logical steps %r, brute force %r"
             % (drawn, [min(found), max(found)]))
else:
    marks(logical_display)
print("rank %d: the linked views agree on %r" % (rank, window))
