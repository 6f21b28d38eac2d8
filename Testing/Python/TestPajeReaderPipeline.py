"""Downstream filters and views work unchanged on the Pajé reader: Time
Slicing of nested.paje against durations worked out by hand from the file,
and the Timeline representation of its States, whose drawn marks carry the
palette's colours, then, after macroscope.use_palette("trace"), the colours
the file gives its state values."""
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

# The Timeline representation of the States: marks in the palette's
# colours, then in the file's.
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
from vtkmodules.vtkIOImage import vtkPNGReader
import macroscope


def screenshot(tag):
    png = os.path.join(args.output, "timeline-%s.png" % tag)
    SaveScreenshot(png, view, ImageResolution=[800, 500], TransparentBackground=0)
    pngreader = vtkPNGReader()
    pngreader.SetFileName(png)
    pngreader.Update()
    return vtk_to_numpy(pngreader.GetOutput().GetPointData().GetScalars())[:, :3].astype(int)


def hex_rgb(text):
    return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))


FILE_COLOURS = (("compute", (255, 0, 0)), ("MPI_Send", (0, 0, 255)), ("MPI_Recv", (0, 255, 0)))
for tag in ("palette", "trace"):
    if tag == "trace":
        written = macroscope.use_palette("trace")
        types = servermanager.Fetch(reader, idx=5)
        own, palette = types.GetColumnByName("TraceColor"), types.GetColumnByName("Color")
        differ = sum(any(own.GetComponent(r, c) != palette.GetComponent(r, c) for c in range(3))
                     for r in range(types.GetNumberOfRows()))
        mt.check(written == differ >= 3, "use_palette('trace') wrote %d entries; %d types have a "
                 "colour of their own in the file" % (written, differ))
        Render(view)
    pixels = screenshot(tag)
    for name, file_rgb in FILE_COLOURS:
        rgb = file_rgb if tag == "trace" else hex_rgb(macroscope.palette_color(name, "MPI_STATE"))
        close = (abs(pixels - rgb).max(axis=1) <= 8).sum()
        mt.check(close > 200, "%s: the Timeline draws %d pixels in %s's colour %s" % (tag, close, name, rgb))
        print("%s: %d pixels in the %s colour" % (name, close, tag))
    if tag == "palette":
        for name, file_rgb in FILE_COLOURS:
            close = (abs(pixels - file_rgb).max(axis=1) <= 8).sum()
            mt.check(close == 0, "before use_palette('trace'), %d pixels in the file's colour of %s"
                     % (close, name))
print("Time Slicing and Timeline work on the Pajé reader")
