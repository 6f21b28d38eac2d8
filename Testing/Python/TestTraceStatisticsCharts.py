"""Trace Statistics in charts (pvbatch, rendered): Apply's preferred views of
the outputs are a Bar Chart View (Producers) and a Line Chart View (Event
Density), opened as ParaView's Apply opens them, and each chart draws its
series: the screenshot holds many pixels of the series' colour, which the
same chart without the series does not."""
import os

import numpy as np

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOImage import vtkPNGReader

mt.load_plugin(args, globals())

directory = os.path.join(args.output, "trace")
mt.synthesize(args, directory, "--iterations", 10, "--pattern", "tree")
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
statistics = TraceStatistics(Input=[OutputPort(reader, i) for i in range(6)], Bins=60)
statistics.UpdatePipeline()

# The view hints of the XML: what Apply opens for each output port.
controller = servermanager.vtkSMParaViewPipelineControllerWithRendering()
preferred = [controller.GetPreferredViewType(statistics.SMProxy, port) for port in range(3)]
mt.check(preferred == ["XYBarChartView", "SpreadSheetView", "XYChartView"],
         "preferred views %s" % preferred)
for port in (0, 2):
    mt.check(controller.ShowInPreferredView(statistics.SMProxy, port, None) is not None,
             "port %d was not shown in its preferred view" % port)
views = {view.GetXMLName(): view for view in GetViews()}
mt.check("XYBarChartView" in views and "XYChartView" in views, "views opened: %s" % list(views))

SIZE = [800, 500]


def coloured_pixels(view, display, series, rgb, name):
    """Pixels near `rgb` in a screenshot of `view` showing only `series`."""
    display.SeriesColor = [series] + [str(c) for c in rgb]
    counts = []
    for visible in ([series], []):
        display.SeriesVisibility = visible
        path = os.path.join(args.output, "%s%s.png" % (name, "" if visible else "-empty"))
        SaveScreenshot(path, view, ImageResolution=SIZE, TransparentBackground=0)
        png = vtkPNGReader()
        png.SetFileName(path)
        png.Update()
        image = png.GetOutput()
        pixels = vtk_to_numpy(image.GetPointData().GetScalars())[:, :3].astype(int)
        mt.check(image.GetDimensions()[:2] == tuple(SIZE), "%s is %s" % (path, image.GetDimensions()))
        counts.append(int((np.abs(pixels - 255 * np.array(rgb)).max(axis=1) < 60).sum()))
    print("%s: %d pixels of the series' colour, %d without the series" % (name, counts[0], counts[1]))
    return counts


# Producers as bars, one per producer by rank: the bars of 32 producers
# cover much of the plot.
bars = views["XYBarChartView"]
display = GetDisplayProperties(OutputPort(statistics, 0), bars)
display.UseIndexForXAxis = 0
display.XArrayName = "Rank"
drawn, empty = coloured_pixels(bars, display, "Records", (0.85, 0.1, 0.1), "producers-bars")
mt.check(drawn > 5000 and empty < 50, "the bar chart drew %d red pixels (%d without bars)" % (drawn, empty))

# The event density as a line over BinCenter.
lines = views["XYChartView"]
display = GetDisplayProperties(OutputPort(statistics, 2), lines)
display.UseIndexForXAxis = 0
display.XArrayName = "BinCenter"
drawn, empty = coloured_pixels(lines, display, "Records", (0.1, 0.2, 0.9), "density-line")
mt.check(drawn > 500 and empty < 50, "the line chart drew %d blue pixels (%d without the line)" % (drawn, empty))
print("trace statistics charts: bar and line charts drawn")
