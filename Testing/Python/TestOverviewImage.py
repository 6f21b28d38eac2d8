"""Image test: Ocelotl's overviews of a synthesized trace with a slow node,
shown as the Temporal Overview and Spatiotemporal Overview display types
of a Partition, against baselines; then the p of the temporal aggregation
changes and the display redraws from the kept qualities. Run serially and
on two MPI ranks (the Partition table lives on the first rank) with the
same baselines."""
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

directory = os.path.join(args.output, "trace")
controller = servermanager.vtkProcessModule.GetProcessModule().GetGlobalController()
if controller.GetLocalProcessId() == 0:
    mt.synthesize(args, directory, "--clusters", 2, "--nodes-per-cluster", 2, "--ranks-per-node", 2,
                  "--threads-per-rank", 2, "--iterations", 60, "--pattern", "ring",
                  "--perturbation", "slow-node", "--perturb-target", 1,
                  "--perturb-window", 0.015, 0.03)
controller.Barrier()
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
slicing = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=60)
temporal = TemporalAggregation(Input=OutputPort(slicing, 0), Parameter=0.3)
spatiotemporal = SpatiotemporalAggregation(Input=OutputPort(slicing, 0), Parameter=0.3)


def chart_view():
    view = CreateView("RenderView")
    view.OrientationAxesVisibility = 0
    view.UseColorPaletteForBackground = 0
    view.Background = [1, 1, 1]
    view.CameraParallelProjection = 1
    view.InteractionMode = "2D"
    return view


def show(source, view, kind):
    display = Show(OutputPort(source, 0), view, "MacroscopeTraceRepresentation")
    # The aggregation filters' hints pick the overview for their Partition.
    mt.check(display.Representation == kind,
             "the Partition is shown as %r, not %r" % (display.Representation, kind))
    display.ViewSize = [600, 360]
    display.LabelColor = [0.1, 0.1, 0.1]
    display.LabelFontSize = 10
    Render(view)
    view.ResetCamera(True)
    Render(view)
    return display


view = chart_view()
show(temporal, view, "Temporal Overview")
mt.compare_image(view, "TemporalOverview", args, size=(800, 500))

# A new p: one more optimisation, no new qualities, a new picture.
temporal.Parameter = 0.05
Render(view)
mt.compare_image(view, "TemporalOverviewFine", args, size=(800, 500))
fields = servermanager.Fetch(temporal, idx=0).GetFieldData()  # collective
if controller.GetLocalProcessId() == 0:
    mt.check(fields.GetArray("QualityComputations").GetValue(0) == 1,
             "changing p recomputed the qualities")

view2 = chart_view()
display = show(spatiotemporal, view2, "Spatiotemporal Overview")
display.GroupLevel = 1
display.MinRowHeight = 30
Render(view2)
mt.compare_image(view2, "SpatiotemporalOverview", args, size=(800, 500))
