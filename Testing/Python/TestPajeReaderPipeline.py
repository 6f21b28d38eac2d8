"""Downstream filters and views work unchanged on the Pajé reader: Time
Slicing of nested.paje against durations worked out by hand from the file,
and the Timeline representation of its States, whose drawn marks carry the
colours the file gives its state values."""
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager
from vtkmodules.util.numpy_support import vtk_to_numpy

mt.load_plugin(args, globals())

trace = os.path.join(args.source, "Testing", "Data", "paje", "nested.paje")
reader = PajeTraceReader(FileName=trace)
reader.UpdatePipeline()

# Time Slicing: 9 slices over the TimeBounds [0, 9], exclusive state time.
slicing = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=9)
slicing.UpdatePipeline()
image = servermanager.Fetch(slicing)
dims = image.GetDimensions()
mt.check(tuple(dims[:2]) == (9, 3), "model is %s, expected 9 slices x 3 leaves" % (dims,))
mt.check(abs(image.GetSpacing()[0] - 1.0) < 1e-12, "slices are %g s wide, expected 1" % image.GetSpacing()[0])
v = vtk_to_numpy(image.GetPointData().GetArray(0)).reshape(dims[::-1])  # [type, leaf, slice]
fd = image.GetFieldData()
names = [fd.GetAbstractArray("TypeName").GetValue(i) for i in range(dims[2])]
plane = {n: i for i, n in enumerate(names)}
# By hand: r0 computes [1,6] around an MPI_Send [2,3]; r1 is in MPI_Recv
# [1.5,4], compute [4,7], MPI_Send [7,8]; r2 computes [0.5,9].
expected = {("compute", 0): 4.0, ("MPI_Send", 0): 1.0, ("MPI_Recv", 1): 2.5, ("compute", 1): 3.0,
            ("MPI_Send", 1): 1.0, ("compute", 2): 8.5}
for t in ("compute", "MPI_Send", "MPI_Recv"):
    mt.check(t in plane, "no model plane for %s (planes %s)" % (t, names))
    for leaf in range(3):
        got = v[plane[t], leaf].sum()
        mt.check(abs(got - expected.get((t, leaf), 0.0)) < 1e-9,
                 "%s on leaf %d: %.9f s, expected %.9f" % (t, leaf, got, expected.get((t, leaf), 0.0)))
# One slice by hand: [2, 3] on r0 is all MPI_Send.
mt.check(abs(v[plane["MPI_Send"], 0, 2] - 1.0) < 1e-9 and abs(v[plane["compute"], 0, 2]) < 1e-9,
         "slice [2,3] of r0 is not all MPI_Send")

# The Timeline representation of the States: marks in the file's colours.
view = CreateView("RenderView")
view.OrientationAxesVisibility = 0
view.UseColorPaletteForBackground = 0
view.Background = [1, 1, 1]
view.CameraParallelProjection = 1
view.InteractionMode = "2D"
timeline = Show(OutputPort(reader, 0), view, "MacroscopeTraceRepresentation")
timeline.SetRepresentationType("Timeline")
timeline.ViewSize = [600, 300]
Render(view)
view.ResetCamera(True)
png = os.path.join(args.output, "timeline.png")
SaveScreenshot(png, view, ImageResolution=[800, 500], TransparentBackground=0)
from vtkmodules.vtkIOImage import vtkPNGReader
pngreader = vtkPNGReader()
pngreader.SetFileName(png)
pngreader.Update()
pixels = vtk_to_numpy(pngreader.GetOutput().GetPointData().GetScalars())[:, :3].astype(int)
for name, rgb in (("compute", (255, 0, 0)), ("MPI_Send", (0, 0, 255)), ("MPI_Recv", (0, 255, 0))):
    close = (abs(pixels - rgb).max(axis=1) <= 8).sum()
    mt.check(close > 200, "the Timeline draws %d pixels in %s's colour %s" % (close, name, rgb))
    print("%s: %d pixels in the file's colour" % (name, close))
print("Time Slicing and Timeline work on the Pajé reader")
