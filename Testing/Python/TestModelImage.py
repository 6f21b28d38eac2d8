"""Image test: the heat map of a synthesized trace's microscopic model
(locations × slices, each cell coloured by its dominant state), with a slow
node injected, against a baseline."""
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

directory = os.path.join(args.output, "trace")
mt.synthesize(args, directory, "--iterations", 40, "--pattern", "stencil3d",
              "--perturbation", "slow-node", "--perturb-target", 1, "--perturb-window", 0.01, 0.03)
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
slicing = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=60)
slicing.UpdatePipeline()
model = servermanager.Fetch(slicing, idx=0)
names = model.GetFieldData().GetAbstractArray("TypeName")
colors = model.GetFieldData().GetArray("TypeColor")
leaves = model.GetDimensions()[1]
span = reader.GetProperty("TimeBounds")[1]

view = CreateView("RenderView")
view.OrientationAxesVisibility = 0
view.UseColorPaletteForBackground = 0
view.Background = [1, 1, 1]
cells = Show(OutputPort(slicing, 1), view)
cells.SetRepresentationType("Slice")
ColorBy(cells, ("POINTS", "DominantType"))
lut = GetColorTransferFunction("DominantType")
lut.InterpretValuesAsCategories = 1
lut.Annotations = sum(([str(p), names.GetValue(p)] for p in range(names.GetNumberOfValues())), [])
lut.IndexedColors = [colors.GetComponent(p, c) / 255.0 for p in range(names.GetNumberOfValues()) for c in range(3)]
cells.Scale = [2.0 * leaves / span, 1.0, 1.0]
view.CameraParallelProjection = 1
Render(view)
view.CameraParallelScale = 0.68 * leaves
view.CameraPosition = [leaves, leaves / 2.0, 10.0 * leaves]
view.CameraFocalPoint = [leaves, leaves / 2.0, 0.0]
view.CameraViewUp = [0.0, 1.0, 0.0]
Render(view)
mt.compare_image(view, "ModelHeatMap", args)
