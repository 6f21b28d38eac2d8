"""Image test: the Timeline representation of a synthesized trace with a
slow node, whole (narrow states aggregated and hatched, messages merged)
and zoomed on the perturbation, against baselines. Run serially and on two
MPI ranks (each rank lays out its own locations) with the same baselines."""
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *

mt.load_plugin(args, globals())

directory = os.path.join(args.output, "trace")
from paraview import servermanager
controller = servermanager.vtkProcessModule.GetProcessModule().GetGlobalController()
if controller.GetLocalProcessId() == 0:
    mt.synthesize(args, directory, "--clusters", 1, "--nodes-per-cluster", 2, "--ranks-per-node", 2,
                  "--threads-per-rank", 2, "--iterations", 40, "--pattern", "ring",
                  "--perturbation", "slow-node", "--perturb-target", 1,
                  "--perturb-window", 0.01, 0.02)
controller.Barrier()
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))

view = CreateView("RenderView")
view.OrientationAxesVisibility = 0
view.UseColorPaletteForBackground = 0
view.Background = [1, 1, 1]
view.CameraParallelProjection = 1
view.InteractionMode = "2D"
timeline = Show(OutputPort(reader, 0), view, "MacroscopeTraceRepresentation")
timeline.SetRepresentationType("Timeline")
timeline.ViewSize = [600, 360]
timeline.MinMarkWidth = 3
timeline.LabelColor = [0.1, 0.1, 0.1]
timeline.LabelFontSize = 10
Render(view)
view.ResetCamera(True)
mt.compare_image(view, "Timeline", args, size=(800, 500))

timeline.TimeWindow = [0.012, 0.016]
timeline.GroupLevel = 2
Render(view)
view.ResetCamera(True)
mt.compare_image(view, "TimelineZoom", args, size=(800, 500))
