"""Image test: the Logical Timeline, Clustered Logical Timeline and Metric
Overview displays of Logical Time's output on a synthesized trace, against
baselines. The trace: 16 ranks in a 3D stencil (non-blocking halo exchange
ended by a Waitall, so ReceivesWaitall phases), 12 iterations, one node of
4 ranks three times slower for a few milliseconds, whose lateness spreads
to its neighbours. Logical Events are shown without naming the display type
(the filter's hints give the Logical Timeline) and the display finds the
Logical Messages, Clusters, Steps and Phases beside them. Before each
image, the display is checked to have drawn something of the right kind.
Run serially and on two MPI ranks (the reader splits the locations, Logical
Time gathers on the first rank) with the same baselines."""
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

directory = os.path.join(args.output, "trace")
controller = servermanager.vtkProcessModule.GetProcessModule().GetGlobalController()
rank = controller.GetLocalProcessId()
if rank == 0:
    mt.synthesize(args, directory, "--clusters", 1, "--nodes-per-cluster", 4, "--ranks-per-node", 4,
                  "--threads-per-rank", 1, "--iterations", 12, "--pattern", "stencil3d",
                  "--perturbation", "slow-node", "--perturb-target", 1,
                  "--perturb-window", 0.004, 0.008)
controller.Barrier()
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
# Each Isend its own step (CoalesceIsends off): the step windows below and
# the baselines frame the slow node's delay on that axis. The views draw the
# coalesced steps the same way (TestLogicalTimeCalls.py checks the steps).
lt = LogicalTime(Input=[OutputPort(reader, i) for i in range(6)], CoalesceIsends=0)
lt.UpdatePipeline()
# The events are gathered on the first rank (each rank sees its own piece).
events = lt.GetDataInformation(0).GetNumberOfRows()
mt.check((events > 0) == (rank == 0), "rank %d holds %d logical events" % (rank, events))

view = CreateView("RenderView")
view.OrientationAxesVisibility = 0
view.UseColorPaletteForBackground = 0
view.Background = [1, 1, 1]
view.CameraParallelProjection = 1
view.InteractionMode = "2D"
view.ViewSize = [800, 500]
display = Show(OutputPort(lt, 0), view)
mt.check(display.Representation == "Logical Timeline",
         "Logical Events shown as %r, not 'Logical Timeline'" % display.Representation)
display.ViewSize = [560, 380]
display.LabelColor = [0.1, 0.1, 0.1]
display.LabelFontSize = 10


def show(representation, name, marks_wanted):
    display.SetRepresentationType(representation)
    Render(view)
    view.ResetCamera(True)
    Render(view)
    info = display.GetRepresentedDataInformation()
    cells = info.GetNumberOfCells()
    mt.check(rank > 0 or cells == marks_wanted, "%s: %d marks drawn, expected %d"
             % (representation, cells, marks_wanted))
    mt.compare_image(view, name, args, size=(800, 500))


table = servermanager.Fetch(lt, idx=0)
steps, kinds = mt.column(table, "GlobalStep"), mt.column(table, "Kind")
# The whole trace: a box per event.
show("Logical Timeline", "LogicalTimeline", len(steps))
# Steps 20-59, communication only: the slow node's delay spreading.
WINDOW = [20, 59]
display.StepWindow = WINDOW
display.ShowAggregates = 0
show("Logical Timeline", "LogicalTimelineWindow",
     sum(1 for g, k in zip(steps, kinds) if WINDOW[0] <= g <= WINDOW[1] and k != 0))
# Two phases (their global steps from the Phases table) in the clustered
# view, with the aggregates: columns wide enough for the glyphs and the
# Waitall pies. The tables are on the first rank; the others draw nothing,
# whatever their window.
phases = servermanager.Fetch(lt, idx=5)
clustered_window = [0, -1]
if rank == 0:
    first, last = mt.column(phases, "FirstGlobalStep"), mt.column(phases, "LastGlobalStep")
    patterns = mt.column(phases, "Pattern")
    mt.check(len(patterns) > 4 and patterns[3] == 3 and patterns[4] == 3,
             "phases 3 and 4 are not ReceivesWaitall exchanges: patterns %r" % (patterns,))
    clustered_window = [first[3], last[4]]
display.ShowAggregates = 1
display.StepWindow = clustered_window
display.SetRepresentationType("Clustered Logical Timeline")
Render(view)
# Its marks are checked one by one in Python.LogicalTimeDisplay; here, that
# something is drawn, and the image.
cells = display.GetRepresentedDataInformation().GetNumberOfCells()
mt.check(rank > 0 or cells > 0, "Clustered Logical Timeline: nothing drawn")
show("Clustered Logical Timeline", "ClusteredLogicalTimeline", cells)
display.StepWindow = WINDOW
# Metric Overview: the window band and a bar per step of positive sum.
sums = mt.column(servermanager.Fetch(lt, idx=4), "MetricSum")
show("Metric Overview", "MetricOverview", 1 + sum(1 for v in sums if v > 0))
