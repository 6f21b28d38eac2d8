"""Image test: the Synthetic Trace source's hierarchy drawn by the Hierarchy
Layout filter, coloured by the injected ground truth, against a baseline."""
import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *

mt.load_plugin(args, globals())

trace = SyntheticTrace(OutputDirectory=args.output + "/trace", Clusters=2, NodesPerCluster=3,
                       RanksPerNode=2, ThreadsPerRank=2, Iterations=4, Pattern="Ring",
                       Perturbation="Slow node", PerturbationTarget=4, Seed=7)
layout = HierarchyLayout(Input=trace)

view = CreateView("RenderView")
view.OrientationAxesVisibility = 0
view.Background = [1, 1, 1]
view.UseColorPaletteForBackground = 0
display = Show(layout, view)
display.SetRepresentationType("Points")
display.PointSize = 9
display.RenderPointsAsSpheres = 1
ColorBy(display, ("POINTS", "Perturbed"))
lut = GetColorTransferFunction("Perturbed")
lut.RGBPoints = [0.0, 0.25, 0.45, 0.75, 1.0, 0.85, 0.1, 0.1]
# A view shows one display per pipeline object: a pass-through draws the edges.
edges = Show(PassArrays(Input=layout), view)
edges.SetRepresentationType("Wireframe")
edges.AmbientColor = edges.DiffuseColor = [0.6, 0.6, 0.6]
edges.ColorArrayName = ["POINTS", ""]
view.ResetCamera()
Render(view)

mt.compare_image(view, "HierarchyLayout", args)
