"""Labels that never pile up (docs/labels.md): the Timeline, the temporal
and spatiotemporal overviews, the treemap and Ravel's three views (logical
timeline, clustered logical timeline, metric overview) of the
demo's sample trace (2 clusters x 4 nodes x 4 ranks x 2 threads, a 3D
stencil, node 5 slowed), each rendered with its ViewSize equal to the
view's size at 800x600, 1600x1000, 480x320 and 641x517 (a view the GUI
gave), the camera showing the chart's bounds pixel for pixel. For
every picture:

- the layout's ChartBounds are the view's size;
- the box of every label, measured here again with vtkTextRenderer at the
  display's font size, lies inside the view, and no two boxes overlap;
- the picture shows text inside the boxes (dark pixels on the white
  background), so the boxes are where the text is drawn;
- the chart keeps its essentials: an axis title, at least two tick labels
  on time axes, and some legend entries;
- a title naming a time unit in parentheses stands over ticks in that
  unit, and the time ticks use one unit;
- the legend lists exactly the types the marks draw (the Timeline: as many
  types as its marks hold time of), and shows each of them, or "+ n more".

The pictures are kept in the test's output directory (labels-<chart>-<w>x<h>.png)."""
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

from vtkmodules.vtkIOImage import vtkPNGReader

from macroscope_labels import GROUP, LEGEND, ROW, TICK, TITLE, boxes as label_boxes, problems
SIZES = [(800, 600), (1600, 1000), (480, 320), (641, 517)]  # the last: the view
FONT = 12

directory = os.path.join(args.output, "sample-trace")
mt.synthesize(args, directory, "--clusters", 2, "--nodes-per-cluster", 4, "--ranks-per-node", 4,
              "--threads-per-rank", 2, "--iterations", 100, "--pattern", "stencil3d",
              "--imbalance", 0.2, "--compute-time", 0.001, "--perturbation", "slow-node",
              "--perturb-target", 5, "--perturb-window", 0.02, 0.06, "--perturb-factor", 3.0,
              "--seed", 42)
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
trace = [OutputPort(reader, i) for i in range(6)]
slicing = TimeSlicing(Input=trace, Slices=60)
temporal = TemporalAggregation(Input=OutputPort(slicing, 0), Parameter=0.3)
spatiotemporal = SpatiotemporalAggregation(Input=OutputPort(slicing, 0), Parameter=0.3)
resource_slicing = TimeSlicing(Input=trace, Slices=12, ResourceLevel=3)
treemap = ResourceTreemap(Input=OutputPort(resource_slicing, 0), Cut="Level", Level=2)
logical = LogicalTime(Input=trace)

# chart name, source, representation type, port of the Labels output, whether
# it has a time (or step) axis with tick labels below the plot.
CHARTS = [
    ("timeline", OutputPort(reader, 0), "Timeline", 4, True),
    ("temporal", OutputPort(temporal, 0), "Temporal Overview", 3, True),
    ("spatiotemporal", OutputPort(spatiotemporal, 0), "Spatiotemporal Overview", 3, True),
    ("treemap", OutputPort(treemap, 0), "Treemap", 3, False),
    ("logical", OutputPort(logical, 0), "Logical Timeline", 3, True),
    ("clustered", OutputPort(logical, 0), "Clustered Logical Timeline", 3, True),
    ("metric", OutputPort(logical, 0), "Metric Overview", 3, True),
]

def types_drawn_and_listed(display, labels_port):
    """What the legend of a chart lists (LegendName) and what its marks
    draw, comparable: the type names of the marks (their TypeName), or, for
    the Timeline whose marks hold time of several types, how many types
    they hold time of (MarkTypeId with MarkTypeTime > 0) against how many
    the legend lists."""
    rep = display.GetClientSideObject().GetActiveRepresentation()
    marks = rep.GetRenderedDataObject(0)
    legend = rep.GetRenderedDataObject(labels_port + 1)
    names = legend.GetFieldData().GetAbstractArray("LegendName")
    listed = [names.GetValue(i) for i in range(names.GetNumberOfValues())]
    type_names = marks.GetCellData().GetAbstractArray("TypeName")
    if type_names is not None:
        # Marks that are no type are keyed apart: the temporal overview's
        # grey layers of merged thin types, the treemap's frames of inner
        # nodes ("") and its leaves without a value.
        drawn = ({type_names.GetValue(i) for i in range(type_names.GetNumberOfValues())}
                 - {"visually aggregated", "", "no value"})
        return drawn, set(listed), listed
    ids, times = (marks.GetFieldData().GetArray(a) for a in ("MarkTypeId", "MarkTypeTime"))
    drawn_ids = {int(ids.GetValue(k)) for k in range(ids.GetNumberOfTuples()) if times.GetValue(k) > 0}
    return len(drawn_ids), len(set(listed)), listed


def dark_pixels(image, box, bounds, height):
    """Pixels darker than the background inside `box` (chart coordinates)."""
    dims = image.GetDimensions()
    scalars = image.GetPointData().GetScalars()
    comps = scalars.GetNumberOfComponents()
    x0 = max(0, int(box[0] - bounds[0]))
    x1 = min(dims[0] - 1, int(box[2] - bounds[0]))
    y0 = max(0, int(box[1] - bounds[2]))
    y1 = min(dims[1] - 1, int(box[3] - bounds[2]))
    count = 0
    for py in range(y0, y1 + 1):
        for px in range(x0, x1 + 1):
            value = scalars.GetComponent(py * dims[0] + px, 0)
            if comps >= 3:
                value = min(value, scalars.GetComponent(py * dims[0] + px, 1),
                            scalars.GetComponent(py * dims[0] + px, 2))
            count += value < 160
    return count


summary = []
for width, height in SIZES:
    for name, port, kind, labels_port, time_axis in CHARTS:
        where = "%s at %dx%d" % (name, width, height)
        view = CreateView("RenderView")
        view.ViewSize = [width, height]
        view.OrientationAxesVisibility = 0
        view.UseColorPaletteForBackground = 0
        view.Background = [1, 1, 1]
        view.CameraParallelProjection = 1
        view.InteractionMode = "2D"
        display = Show(port, view, "MacroscopeTraceRepresentation")
        display.SetRepresentationType(kind)
        display.ViewSize = [width, height]
        display.LabelColor = [0.0, 0.0, 0.0]
        display.LabelFontSize = FONT
        Render(view)
        labels = display.GetClientSideObject().GetActiveRepresentation().GetRenderedDataObject(labels_port)
        mt.check(labels is not None and labels.GetNumberOfPoints() > 0, where + ": no labels")
        fields = labels.GetFieldData()
        bounds = [fields.GetArray("ChartBounds").GetComponent(0, c) for c in range(4)]
        mt.check(abs(bounds[1] - bounds[0] - width) < 1e-6 and abs(bounds[3] - bounds[2] - height) < 1e-6,
                 "%s: chart bounds %r are not the view's size" % (where, bounds))
        font = fields.GetArray("LabelFont")
        mt.check(font.GetComponent(0, 0) == FONT, "%s: labels measured at %g pt, drawn at %d"
                 % (where, font.GetComponent(0, 0), FONT))
        # The camera shows the bounds pixel for pixel.
        centre = [0.5 * (bounds[0] + bounds[1]), 0.5 * (bounds[2] + bounds[3])]
        view.CameraFocalPoint = [centre[0], centre[1], 0.0]
        view.CameraPosition = [centre[0], centre[1], 1000.0]
        view.CameraViewUp = [0.0, 1.0, 0.0]
        view.CameraParallelScale = 0.5 * height
        Render(view)
        picture = os.path.join(args.output, "labels-%s-%dx%d.png" % (name, width, height))
        SaveScreenshot(picture, view, ImageResolution=[width, height], TransparentBackground=0)
        png = vtkPNGReader()
        png.SetFileName(picture)
        png.Update()
        image = png.GetOutput()
        mt.check(image.GetDimensions()[:2] == (width, height), "%s: picture %r"
                 % (where, image.GetDimensions()))

        boxes = label_boxes(labels, FONT)
        wrong = problems(boxes, bounds)
        mt.check(not wrong, "%s: %s" % (where, "; ".join(wrong[:5])))
        # The text is drawn where its box is: dark pixels in (nearly) every box
        # of the labels outside the plot (inside it, marks are dark too).
        empty = [t for box, t, k in boxes if k in (TICK, ROW, TITLE, LEGEND)
                 and dark_pixels(image, box, bounds, height) == 0]
        mt.check(not empty, "%s: no text drawn in the boxes of %r" % (where, empty[:5]))
        # A title naming a time unit in parentheses ("... (ms)") stands over
        # tick labels written in that unit, and every time tick of the chart
        # uses one unit.
        import re
        unit_of = re.compile(r"^-?[0-9.]+ (s|ms|\u00b5s|ns)$")
        tick_units = {unit_of.match(t).group(1) for _, t, k in boxes if k in (TICK, ROW) and unit_of.match(t)}
        for _, t, k in boxes:
            named = re.search(r"\((s|ms|\u00b5s|ns)\)$", t) if k == TITLE else None
            if named:
                mt.check(named.group(1) in tick_units,
                         "%s: the title %r names %s, the ticks use %s" % (where, t, named.group(1), sorted(tick_units)))
        time_ticks = {unit_of.match(t).group(1) for _, t, k in boxes if k == TICK and unit_of.match(t)}
        mt.check(len(time_ticks) <= 1, "%s: time ticks in several units %s" % (where, sorted(time_ticks)))
        counts = [sum(1 for _, _, k in boxes if k == kind_) for kind_ in range(6)]
        mt.check(counts[TITLE] >= 1,
                 "%s: no axis title" % where)
        mt.check(not time_axis or counts[TICK] >= 2, "%s: %d tick labels" % (where, counts[TICK]))
        mt.check(counts[LEGEND] >= 2, "%s: %d legend labels" % (where, counts[LEGEND]))
        mt.check(name in ("treemap", "metric") or counts[ROW] >= 2,
                 "%s: %d row labels" % (where, counts[ROW]))
        if name not in ("logical", "clustered", "metric"):  # Ravel's views colour by a metric
            drawn, listed, names = types_drawn_and_listed(display, labels_port)
            mt.check(drawn == listed, "%s: the legend lists %s, the marks draw %s"
                     % (where, listed, drawn))
            shown = {t for _, t, k in boxes if k == LEGEND}
            missing = [n for n in names if not any(n.startswith(s.rstrip("\u2026")) for s in shown)]
            mt.check(len(missing) == 0 or any(s.startswith("+ ") for s in shown),
                     "%s: legend entries %s not drawn, and no \"+ n more\"" % (where, missing))
        summary.append("%s: %d labels (ticks %d, rows %d, groups %d, titles %d, legend %d, nodes %d)"
                       % (where, len(boxes), *counts))
        Delete(display)
        Delete(view)

print("\n".join(summary))
print("pictures in %s" % args.output)
