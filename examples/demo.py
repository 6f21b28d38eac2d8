"""Macroscope's main job on a built-in sample: synthesize a trace with a known
perturbation, run the pipeline, and write pictures, a state file and a text
summary. Run it with pvbatch (under xvfb-run where there is no display):

    xvfb-run -a pvbatch examples/demo.py [--plugin PATH] [--output DIR]

scripts/demo.sh does exactly that after building.
"""
import argparse
import json
import os
import subprocess

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--plugin", default=os.path.join(
    here, "..", "build", "lib", "paraview-5.11", "plugins", "Macroscope", "Macroscope.so"))
parser.add_argument("--output", default=os.path.join(here, "..", "out"))
args = parser.parse_args()
output = os.path.abspath(args.output)
os.makedirs(output, exist_ok=True)

from paraview.simple import *

LoadPlugin(os.path.abspath(args.plugin), remote=False, ns=globals())


def plugin_version(name="Macroscope"):
    """The version the loaded plugin reports (project(VERSION) in CMakeLists.txt)."""
    info = servermanager.vtkSMProxyManager.GetProxyManager().GetPluginManager().GetLocalInformation()
    for i in range(info.GetNumberOfPlugins()):
        if info.GetPluginName(i) == name and info.GetPluginLoaded(i):
            return info.GetPluginVersion(i)
    raise SystemExit("demo: the %s plugin is not loaded" % name)


# The sample: 2 clusters x 4 nodes x 4 ranks x 2 threads on a 3D stencil,
# node 5 three times slower between 20 ms and 60 ms.
trace_dir = os.path.join(output, "sample-trace")
# Overwrite: the demo owns this directory; a sample of other parameters left
# by an older version is replaced (one of the same parameters is reused).
trace = SyntheticTrace(registrationName="SampleTrace", OutputDirectory=trace_dir,
                       Overwrite=1,
                       Clusters=2, NodesPerCluster=4, RanksPerNode=4, ThreadsPerRank=2,
                       Iterations=100, Pattern="3D stencil", Imbalance=0.2,
                       ComputeTime=0.001, Perturbation="Slow node", PerturbationTarget=5,
                       PerturbationWindow=[0.02, 0.06], PerturbationFactor=3.0, Seed=42,
                       WriteTopology=1)
layout = HierarchyLayout(registrationName="PlatformLayout", Input=trace)


def draw_platform(layout, path, size=(1400, 600)):
    """The platform as a node-link tree: each resource a sphere whose area is
    proportional to the events it and everything below it wrote (the tree's
    Events, summed upwards), red where the ground truth's perturbation
    struck; the machine, clusters and nodes named beside their spheres, and
    each level named at the left with its count; legends for the colour and
    the size."""
    tree = servermanager.Fetch(layout)
    points = tree.GetPointData()
    count = tree.GetNumberOfPoints()
    events = [points.GetArray("Events").GetValue(i) for i in range(count)]
    depth = [int(points.GetArray("Depth").GetValue(i)) for i in range(count)]
    names = [points.GetAbstractArray("Name").GetValue(i) for i in range(count)]
    kinds = [points.GetAbstractArray("Kind").GetValue(i) for i in range(count)]
    xyz = [tree.GetPoint(i) for i in range(count)]
    leaves = [i for i in range(count) if depth[i] == max(depth)]
    unit = min(events[i] for i in leaves)  # a leaf's sphere: radius 0.3 columns
    sized = Calculator(registrationName="PlatformSizes", Input=layout, AttributeType="Point Data",
                       ResultArrayName="Radius", Function="0.3*sqrt(Events/%d)" % unit)
    view = CreateView("RenderView")
    view.ViewSize = list(size)
    view.OrientationAxesVisibility = 0
    view.UseColorPaletteForBackground = 0
    view.Background = [1, 1, 1]
    # A view shows one display per pipeline object: a pass-through draws the edges.
    edges = Show(PassArrays(registrationName="Edges", Input=layout), view)
    edges.SetRepresentationType("Wireframe")
    edges.ColorArrayName = ["POINTS", ""]
    edges.AmbientColor = edges.DiffuseColor = [0.65, 0.65, 0.65]
    nodes = Show(sized, view)
    nodes.SetRepresentationType("Point Gaussian")
    nodes.ShaderPreset = "Sphere"
    nodes.ScaleByArray = 1
    nodes.SetScaleArray = ["POINTS", "Radius"]
    nodes.UseScaleFunction = 0
    nodes.GaussianRadius = 1.0
    ColorBy(nodes, ("POINTS", "Perturbed"))
    lut = GetColorTransferFunction("Perturbed")
    lut.InterpretValuesAsCategories = 1
    lut.Annotations = ["0", "unaffected", "1", "perturbed (ground truth)"]
    lut.IndexedColors = [0.25, 0.45, 0.75, 0.85, 0.1, 0.1]
    bar = GetScalarBar(lut, view)
    bar.WindowLocation = "Upper Right Corner"
    bar.Title = "Slow node 5, 20-60 ms"
    bar.ComponentTitle = ""
    bar.TitleColor = bar.LabelColor = [0.1, 0.1, 0.1]
    nodes.SetScalarBarVisibility(view, True)
    view.CameraParallelProjection = 1
    Render(view)  # paraview.simple resets the camera on a view's first render
    # Fit the spheres, not the points: the tree takes pixels [170, 1130] x
    # [20, 540] of 1400 x 600, leaving the level names the left, the colour
    # legend the right and the size legend the bottom.
    radius = [0.3 * (events[i] / float(unit)) ** 0.5 for i in range(count)]
    left = min(xyz[i][0] - radius[i] for i in range(count))
    right = max(xyz[i][0] + radius[i] for i in range(count))
    bottom = min(xyz[i][1] - radius[i] for i in range(count))
    top = max(xyz[i][1] + radius[i] for i in range(count))
    width, height = float(size[0]), float(size[1])
    frame = (170.0 / 1400 * width, 1130.0 / 1400 * width, 60.0 / 600 * height, 580.0 / 600 * height)
    pixels = min((frame[1] - frame[0]) / (right - left), (frame[3] - frame[2]) / (top - bottom))
    centre = [0.5 * (left + right) - (0.5 * (frame[0] + frame[1]) - 0.5 * width) / pixels,
              0.5 * (bottom + top) - (0.5 * (frame[2] + frame[3]) - 0.5 * height) / pixels, 0.0]
    view.CameraFocalPoint = centre
    view.CameraPosition = [centre[0], centre[1], 100.0]
    view.CameraViewUp = [0.0, 1.0, 0.0]
    view.CameraParallelScale = 0.5 * height / pixels

    def label(text, font=13, bold=False):
        shown = Show(Text(registrationName="PlatformLabel:" + text, Text=text), view)
        shown.FontSize = font
        shown.Bold = int(bold)
        shown.Color = [0.1, 0.1, 0.1]
        return shown

    def place(text, x, y, **look):
        """Text anchored in the scene at (x, y), its size in pixels (a
        billboard): it stays beside its sphere in a view of any size, as
        when the state is opened in the GUI."""
        shown = label(text, **look)
        shown.TextPropMode = "Billboard 3D Text"
        shown.BillboardPosition = [x, y, 0.0]

    # A tenth of a column between a sphere and its name; the level names
    # start where the frame leaves them room, at the left.
    gap = 4.0 / pixels
    left_of_tree = left - (frame[0] - 20.0) / pixels
    for i in range(count):
        if depth[i] <= 2:  # the machine, its clusters and nodes, by name
            place(names[i], xyz[i][0] + radius[i] + gap, xyz[i][1] - gap)
    for level in sorted(set(depth)):
        members = [i for i in range(count) if depth[i] == level]
        kind = kinds[members[0]]
        plural = "" if len(members) == 1 else "es" if kind.endswith("s") else "s"
        place("%d %s%s" % (len(members), kind, plural), left_of_tree, xyz[members[0]][1] - gap,
              bold=level == 0)
    sizes = label("Sphere area proportional to the events a resource and all below it wrote: "
                  "%s %s, one %s %s to %s" % (names[depth.index(0)], "{:,}".format(events[depth.index(0)]),
                                              kinds[leaves[0]], "{:,}".format(unit),
                                              "{:,}".format(max(events[i] for i in leaves))),
                  font=12)
    sizes.WindowLocation = "Lower Left Corner"
    Render(view)
    SaveScreenshot(path, view, ImageResolution=list(size))
    return view


view = draw_platform(layout, os.path.join(output, "platform.png"))

# Read the trace back with the OTF2 reader, as a user opening traces.otf2 would.
reader = OTF2TraceReader(registrationName="traces.otf2",
                         FileName=os.path.join(trace_dir, "traces.otf2"))
reader.UpdatePipeline()

def chart_view(size):
    """A Macroscope Chart View of `size` pixels, white: its charts are laid
    out for the view's own size, in the pictures as in the GUI when the
    state is opened in a window of another size (docs/views.md); the
    layout tabs are made at the end (macroscope.layout_tab)."""
    view = CreateView("MacroscopeChartView")
    view.ViewSize = list(size)
    view.OrientationAxesVisibility = 0
    view.UseColorPaletteForBackground = 0
    view.Background = [1, 1, 1]
    return view


# The Gantt chart: the States output shown with the Timeline representation
# (the reader's default in a Render View), grouped by node; states narrower
# than 2 pixels merge into hatched aggregates that keep each type's time.
gantt = chart_view([1600, 1000])
timeline = Show(OutputPort(reader, 0), gantt, "MacroscopeTraceRepresentation")
timeline.SetRepresentationType("Timeline")
timeline.GroupLevel = 2
timeline.LabelColor = [0.1, 0.1, 0.1]
timeline.LabelFontSize = 11
Render(gantt)
gantt.ResetCamera(True)
Render(gantt)
SaveScreenshot(os.path.join(output, "timeline.png"), gantt, ImageResolution=[1600, 1000])
# Details on demand: the window of the slow node, at the states' resolution.
zoom_window = [0.030, 0.036]
timeline.TimeWindow = zoom_window
Render(gantt)
SaveScreenshot(os.path.join(output, "timeline-zoom.png"), gantt, ImageResolution=[1600, 1000])
# The same layouts as data, for the summary.
timeline_counts = {}
for label, window in (("whole trace", [0, 0]), ("zoom", zoom_window)):
    gantt_layout = TimelineLayout(registrationName="TimelineLayout",
                                  Input=OutputPort(reader, 0),
                                  ViewSize=[1600, 1000], GroupLevel=2, TimeWindow=window)
    gantt_layout.UpdatePipeline()
    marks = servermanager.Fetch(gantt_layout, idx=0)
    lines_data = servermanager.Fetch(gantt_layout, idx=1)
    flags = marks.GetCellData().GetArray("Aggregate")
    mark_ids = marks.GetCellData().GetArray("Mark")
    aggregates = {int(mark_ids.GetValue(i)) for i in range(marks.GetNumberOfCells()) if flags.GetValue(i)}
    all_marks = {int(mark_ids.GetValue(i)) for i in range(marks.GetNumberOfCells())}
    merged = lines_data.GetCellData().GetArray("Aggregate")
    timeline_counts[label] = (len(all_marks), len(aggregates), lines_data.GetNumberOfCells(),
                              sum(1 for i in range(lines_data.GetNumberOfCells()) if merged.GetValue(i)))
    Delete(gantt_layout)

# The microscopic model (time slicing) and its heat map: locations × time
# slices, each cell coloured by its dominant state (innermost state time).
# Drawn as the spatiotemporal overview at p = 0, where every part is one
# cell of the model (no aggregation), so that the heat map has the
# Timeline's time axis, row names and top-down order, and a type legend.
# Filters of a trace take the reader's first output (States) and find its
# other outputs beside it (docs/time-slicing.md): one input, one filter in
# the GUI's Pipeline Browser.
states = OutputPort(reader, 0)
slicing = TimeSlicing(registrationName="Model", Input=states, Slices=120)
slicing.UpdatePipeline()
model = servermanager.Fetch(slicing, idx=0)
plane_names = model.GetFieldData().GetAbstractArray("TypeName")
dominant_values = servermanager.Fetch(slicing, idx=1).GetPointData().GetArray("DominantType")
present = sorted({int(dominant_values.GetValue(i)) for i in range(dominant_values.GetNumberOfValues())} - {-1})
span_seconds = reader.GetProperty("TimeBounds")[1]
leaves_count = model.GetDimensions()[1]
model_cells = SpatiotemporalAggregation(registrationName="ModelCells", Input=OutputPort(slicing, 0),
                                        Parameter=0.0)
heat = chart_view([1400, 700])
heat_display = Show(OutputPort(model_cells, 0), heat, "MacroscopeTraceRepresentation")
heat_display.SetRepresentationType("Spatiotemporal Overview")
heat_display.LabelColor = [0.1, 0.1, 0.1]
heat_display.LabelFontSize = 11
Render(heat)
heat.ResetCamera(True)
Render(heat)
SaveScreenshot(os.path.join(output, "model-heatmap.png"), heat, ImageResolution=[1400, 700])

# The same model straight from the file (Streamed Time Slicing): the events
# are folded into the model while they are read, no table is kept, and a
# fine model (1200 slices, a multiple of 120 and 40) is cached in
# out/model-cache for later requests.
import shutil
import time

from vtkmodules.util.numpy_support import vtk_to_numpy

cache_dir = os.path.join(output, "model-cache")
shutil.rmtree(cache_dir, ignore_errors=True)
table_values = vtk_to_numpy(model.GetPointData().GetArray("Value"))
started = time.perf_counter()
streamed = StreamedTimeSlicing(registrationName="Streamed model",
                               FileName=os.path.join(trace_dir, "traces.otf2"), Slices=120,
                               CacheDirectory=cache_dir, CacheSlices=1200)
streamed.UpdatePipeline()
streamed_seconds = time.perf_counter() - started
streamed_values = vtk_to_numpy(servermanager.Fetch(streamed, idx=0).GetPointData().GetArray("Value"))
streamed_gap = float(abs(streamed_values - table_values).max())
if streamed_gap > 1e-9 * max(1.0, float(abs(table_values).max())):
    raise SystemExit("the streamed model differs from Time Slicing's by %g" % streamed_gap)
# A later, coarser request and a zoom come from the cache, not the trace.
started = time.perf_counter()
streamed.Slices = 40
streamed.UpdatePipeline()
streamed.TimeWindow = [0.016, 0.026]
streamed.Slices = 25
streamed.UpdatePipeline()
cached_seconds = time.perf_counter() - started
streamed.UpdatePropertyInformation()
streamed_reads = streamed.GetProperty("NumberOfTraceReads").GetElement(0)
streamed_origin = streamed.GetProperty("ModelOrigin").GetElement(0)
streamed_dirty = streamed.GetProperty("DirtySlices").GetElement(0)
if streamed_reads != 1 or streamed_origin != "cache":
    raise SystemExit("the later requests did not come from the model cache (%d reads, %s)"
                     % (streamed_reads, streamed_origin))

# Ocelotl's temporal aggregation of the model, its quality curves and its
# overview. The qualities are computed once; each p below only re-runs the
# optimisation.
temporal = TemporalAggregation(registrationName="TemporalAggregation", Input=OutputPort(slicing, 0),
                               Parameter=0.5)
temporal.UpdatePipeline()


def column_values(table, name):
    array = table.GetColumnByName(name)
    n = array.GetNumberOfComponents()
    return [array.GetTuple(i) if n > 1 else array.GetValue(i) for i in range(array.GetNumberOfTuples())]


def shares(vector):
    total = sum(vector)
    return [v / total for v in vector] if total > 0 else list(vector)


def distance(a, b):
    """Total variation distance between two types' distributions."""
    return 0.5 * sum(abs(x - y) for x, y in zip(shares(a), shares(b)))


def distinct_partitions(aggregation):
    """(p, partition) for every distinct optimal partition, coarsest first."""
    curves = servermanager.Fetch(aggregation, idx=1)
    starts, ends = column_values(curves, "PStart"), column_values(curves, "PEnd")
    for k in reversed(range(len(starts))):
        aggregation.Parameter = 0.5 * (starts[k] + ends[k])
        yield aggregation.Parameter, servermanager.Fetch(aggregation, idx=0)


# Detection, the analyst's way with Ocelotl: disaggregate from the coarsest
# partition until an interval of time whose state mix differs from the
# steady behaviour (the longest part) appears between two steady parts.
detected_window = None
for p_value, partition in distinct_partitions(temporal):
    starts, ends = column_values(partition, "Start"), column_values(partition, "End")
    amplitudes = column_values(partition, "Amplitude")
    steady = max(range(len(starts)), key=lambda i: ends[i] - starts[i])
    odd = [distance(amplitudes[i], amplitudes[steady]) > 0.1 for i in range(len(starts))]
    for first in range(1, len(starts) - 1):
        if odd[first] and not odd[first - 1]:
            last = first
            while last + 1 < len(starts) and odd[last + 1]:
                last += 1
            if last + 1 < len(starts) and not odd[last + 1]:
                detected_window = (starts[first], ends[last], p_value, partition.GetNumberOfRows())
                break
    if detected_window:
        break
if detected_window:
    temporal.Parameter = detected_window[2]
else:
    temporal.Parameter = 0.5


def show_overview(source, view, kind):
    display = Show(OutputPort(source, 0), view, "MacroscopeTraceRepresentation")
    display.SetRepresentationType(kind)
    display.LabelColor = [0.1, 0.1, 0.1]
    display.LabelFontSize = 11
    Render(view)
    view.ResetCamera(True)
    Render(view)
    return display


temporal_view = chart_view([1600, 900])
show_overview(temporal, temporal_view, "Temporal Overview")
SaveScreenshot(os.path.join(output, "temporal-overview.png"), temporal_view, ImageResolution=[1600, 900])

chart = CreateView("XYChartView")
chart.ViewSize = [900, 500]
chart.ChartTitle = "Temporal aggregation: gain and loss against p (current p marked)"
chart.LeftAxisTitle = "normalised quality"
chart.BottomAxisTitle = "p"
curves_display = Show(OutputPort(temporal, 2), chart)
curves_display.UseIndexForXAxis = 0
curves_display.XArrayName = "p"
curves_display.SeriesVisibility = ["Gain", "Loss", "Current p"]
Render(chart)
SaveScreenshot(os.path.join(output, "quality-curves.png"), chart, ImageResolution=[900, 500])

# The spatiotemporal aggregation, on one row per process and 40 slices (its
# qualities cost nodes x slices^2 intervals: 64 threads x 120 slices take a
# minute on two cores, this model a second). Detection: in the detected
# window, the processes that spend it mostly in a state other than the one
# that dominates the window over all processes.
process_model = TimeSlicing(registrationName="ProcessModel", Input=states, Slices=40, ResourceLevel=3)
spatiotemporal = SpatiotemporalAggregation(registrationName="SpatiotemporalAggregation",
                                           Input=OutputPort(process_model, 0), Parameter=0.5)
spatiotemporal.UpdatePipeline()
detected_resources = None
if detected_window:
    w0, w1 = detected_window[0], detected_window[1]
    for p_value, partition in distinct_partitions(spatiotemporal):
        starts, ends = column_values(partition, "Start"), column_values(partition, "End")
        modes = column_values(partition, "ModeName")
        first_leaf, last_leaf = column_values(partition, "FirstLeaf"), column_values(partition, "LastLeaf")
        rows = 1 + max(last_leaf)
        area, per_row = {}, [dict() for _ in range(rows)]
        for i in range(len(starts)):
            overlap = max(0.0, min(ends[i], w1) - max(starts[i], w0))
            if overlap > 0:
                area[modes[i]] = area.get(modes[i], 0.0) + overlap * (last_leaf[i] - first_leaf[i] + 1)
                for r in range(first_leaf[i], last_leaf[i] + 1):
                    per_row[r][modes[i]] = per_row[r].get(modes[i], 0.0) + overlap
        major = max(area, key=area.get)
        odd_rows = [r for r in range(rows)
                    if sum(t for m, t in per_row[r].items() if m != major) > 0.5 * (w1 - w0)]
        if 0 < len(odd_rows) < rows:
            fields = partition.GetFieldData()
            names = fields.GetAbstractArray("NodeName")
            parents = fields.GetArray("NodeParent")
            # Name the rows by the hierarchy nodes that hold exactly them.
            leaves_of = {}
            for r in range(rows):
                node = r
                while node >= 0:
                    leaves_of.setdefault(node, set()).add(r)
                    node = int(parents.GetValue(node))
            chosen, left = [], set(odd_rows)
            for node in sorted(leaves_of, key=lambda n: -len(leaves_of[n])):
                if leaves_of[node] and leaves_of[node] <= left:
                    chosen.append(names.GetValue(node))
                    left -= leaves_of[node]
            detected_resources = (chosen, major, p_value, partition.GetNumberOfRows())
            break
    if detected_resources:
        spatiotemporal.Parameter = detected_resources[2]
spatiotemporal_view = chart_view([1600, 900])
st_display = show_overview(spatiotemporal, spatiotemporal_view, "Spatiotemporal Overview")
st_display.GroupLevel = 2
Render(spatiotemporal_view)
SaveScreenshot(os.path.join(output, "spatiotemporal-overview.png"), spatiotemporal_view,
               ImageResolution=[1600, 900])

# Triva's and Viva's treemap of the processes, over the window the temporal
# aggregation detected and over a normal window as long: Viva's optimal cut
# of the hierarchy (pIC, like the other aggregations) keeps apart the
# resources whose behaviour differs, and aggregates the rest with their
# proportions summed.
perturbed_window = list(detected_window[:2]) if detected_window else [0.02, 0.06]
length = perturbed_window[1] - perturbed_window[0]
normal_start = perturbed_window[1] + 0.25 * length
if normal_start + length > span_seconds:
    normal_start = max(0.0, perturbed_window[0] - 1.25 * length)
normal_window = [normal_start, normal_start + length]
treemaps = {}
for label, treemap_window in (("perturbed", perturbed_window), ("normal", normal_window)):
    treemaps[label] = ResourceTreemap(registrationName="Treemap " + label,
                                      Input=OutputPort(process_model, 0), Cut="Optimal (pIC)",
                                      TimeWindow=treemap_window)


def cut_names(source):
    table = servermanager.Fetch(source, idx=0)
    names, cut = column_values(table, "Name"), column_values(table, "Cut")
    paths = column_values(table, "Path")
    return [paths[i] for i in range(len(names)) if cut[i]], table


# The coarsest optimal cut of the perturbed window that is not the whole
# machine: Viva's first disaggregation, which keeps apart what behaves
# differently.
treemap_p = None
for p_value, _ in distinct_partitions(treemaps["perturbed"]):
    parts, _ = cut_names(treemaps["perturbed"])
    if len(parts) > 1:
        treemap_p = p_value
        break
treemap_cuts = {}
for label, source in treemaps.items():
    source.Parameter = treemap_p if treemap_p is not None else 0.5
    treemap_cuts[label] = cut_names(source)[0]

treemap_layout = CreateLayout("Treemaps")
treemap_views = []
for label in ("perturbed", "normal"):
    view_t = chart_view([800, 700])
    AssignViewToLayout(view=view_t, layout=treemap_layout, hint=0)
    display_t = Show(OutputPort(treemaps[label], 0), view_t, "MacroscopeTraceRepresentation")
    display_t.LabelColor = [0.1, 0.1, 0.1]
    display_t.LabelFontSize = 11
    Render(view_t)
    view_t.ResetCamera(True)
    Render(view_t)
    treemap_views.append(view_t)
treemap_layout.SetSize(1600, 700)
SaveScreenshot(os.path.join(output, "treemap.png"), treemap_layout, ImageResolution=[1600, 700])

# Triva's animated time slice: the same treemap over each of 12 slices,
# played by the animation scene and saved frame by frame.
animated_model = TimeSlicing(registrationName="AnimatedModel", Input=states, Slices=12, ResourceLevel=3)
animated = ResourceTreemap(registrationName="AnimatedTreemap", Input=OutputPort(animated_model, 0),
                           Cut="Level", Level=2, AnimateSlices=1)
animated.UpdatePipelineInformation()
animation_view = chart_view([900, 700])
animated_display = Show(OutputPort(animated, 0), animation_view, "MacroscopeTraceRepresentation")
# Only sizes change from frame to frame: every node and type keeps its place.
animated_display.Algorithm = "Ordered Squarified"
animated_display.LabelColor = [0.1, 0.1, 0.1]
animated_display.LabelFontSize = 11
scene = GetAnimationScene()
scene.UpdateAnimationUsingDataTimeSteps()
Render(animation_view)
animation_view.ResetCamera(True)
frames_dir = os.path.join(output, "treemap-frames")
os.makedirs(frames_dir, exist_ok=True)
SaveAnimation(os.path.join(frames_dir, "treemap.png"), animation_view, ImageResolution=[900, 700])
animation_frames = sorted(f for f in os.listdir(frames_dir) if f.endswith(".png"))

# FrameSoC's statistics: which producers make most of the records.
statistics = TraceStatistics(registrationName="TraceStatistics", Input=states)
statistics.UpdatePipeline()
producer_stats = servermanager.Fetch(statistics, idx=0)

# Ravel's logical time: communication calls on logical steps, coloured by
# lateness. The physical window 16-26 ms (the slow node's onset) maps to a
# range of steps, which the logical timeline and the clustered timeline
# show; the metric overview shows the lateness of every step.
logical = LogicalTime(registrationName="LogicalTime", Input=states, Clusters=3,
                      TimeWindow=[0.016, 0.026])
logical.UpdatePipeline()
logical.UpdatePropertyInformation()
logical_steps = list(logical.GetProperty("StepsOfTimeWindow"))
logical_view = chart_view([1600, 1000])
logical_display = Show(OutputPort(logical, 0), logical_view, "MacroscopeTraceRepresentation")
logical_display.StepWindow = logical_steps
logical_display.LabelColor = [0.1, 0.1, 0.1]
logical_display.LabelFontSize = 11
for kind, picture in (("Logical Timeline", "logical-timeline.png"),
                      ("Clustered Logical Timeline", "clustered-timeline.png"),
                      ("Metric Overview", "metric-overview.png")):
    logical_display.SetRepresentationType(kind)
    Render(logical_view)
    logical_view.ResetCamera(True)
    Render(logical_view)
    SaveScreenshot(os.path.join(output, picture), logical_view, ImageResolution=[1600, 1000])
logical_events = servermanager.Fetch(logical, idx=0)
logical_phases = servermanager.Fetch(logical, idx=5)
logical_clusters = servermanager.Fetch(logical, idx=2)
location_names = logical_events.GetFieldData().GetAbstractArray("LocationNames")

# Triva's 3D scene: the ranks on the synthetic cluster's network
# (network.dot, written by the synthesizer), their states rising with time
# across the slow node's onset, messages as 3D lines; then the same window
# on the communication pattern and on the hierarchy's treemap.
network_file = os.path.join(trace_dir, "network.dot")
SCENE_WINDOW = [0.012, 0.032]
scene_view = CreateView("RenderView")
scene_view.ViewSize = [1400, 1100]
scene_view.OrientationAxesVisibility = 0
scene_view.UseColorPaletteForBackground = 0
scene_view.Background = [1, 1, 1]
scene_display = Show(OutputPort(reader, 0), scene_view, "MacroscopeTraceRepresentation")
scene_display.SetRepresentationType("Topology-Time 3D")
scene_display.TopologyFile = network_file
scene_display.TimeWindow = SCENE_WINDOW
scene_display.LabelColor = [0.1, 0.1, 0.1]
scene_display.LabelFontSize = 11
for base, picture in ((1, "topology-3d-network.png"), (0, "topology-3d-pattern.png"),
                      (2, "topology-3d-treemap.png")):
    scene_display.BaseConfiguration = base
    # Far enough that the scene leaves the type legend's corner (upper
    # right) free, the focal point a little right of the scene's centre.
    scene_view.CameraPosition = [3.55, -2.65, 2.2]
    scene_view.CameraFocalPoint = [0.62, 0.52, 0.68]
    scene_view.CameraViewUp = [0.0, 0.0, 1.0]
    Render(scene_view)
    SaveScreenshot(os.path.join(output, picture), scene_view, ImageResolution=[1400, 1100])
# The same scene as data, for the summary.
scene_data = TopologyTimeScene(registrationName="TopologyTimeScene",
                               Input=states,
                               BaseConfiguration=1, TopologyFile=network_file,
                               TimeWindow=SCENE_WINDOW)
scene_boxes = servermanager.Fetch(scene_data, idx=0)
scene_lines = servermanager.Fetch(scene_data, idx=1)
scene_base = servermanager.Fetch(scene_data, idx=2)
scene_tree = servermanager.Fetch(reader, idx=4)

# A real MPI program, simulated by SimGrid's SMPI on two clusters
# (examples/smpi): its Pajé trace read with the Pajé reader, its 16 ranks
# (all under the root in the trace) regrouped into clusters and hosts by a
# hierarchy file, and Ocelotl's spatiotemporal overview of it. The two ranks
# of host cl1-1 compute four times as much in the middle third of the
# iterations; the others wait for them.
smpi_dir = os.path.join(output, "smpi")
subprocess.run([os.path.join(here, "smpi", "run.sh"), smpi_dir], check=True)
# The hierarchy file beside the trace, so that the output directory holds
# every file the state reads and travels whole (docs/state-files.md).
smpi_hierarchy = os.path.join(smpi_dir, "hierarchy.json")
shutil.copyfile(os.path.join(here, "smpi", "hierarchy.json"), smpi_hierarchy)
paje = PajeTraceReader(registrationName="smpi.paje", FileName=os.path.join(smpi_dir, "smpi.paje"),
                       HierarchyFile=smpi_hierarchy)
paje.UpdatePipeline()
smpi_span = paje.GetProperty("TimeBounds")[1]
smpi_model = TimeSlicing(registrationName="SMPIModel", Input=OutputPort(paje, 0),
                         Slices=30)
smpi_overview = SpatiotemporalAggregation(registrationName="SMPISpatiotemporalAggregation",
                                          Input=OutputPort(smpi_model, 0), Parameter=0.5)
smpi_overview.UpdatePipeline()
with open(smpi_hierarchy) as f:
    smpi_hosts = {host["name"] for cluster in json.load(f)["children"] for host in cluster["children"]}
# Detection: the coarsest optimal partition in which one host stands apart,
# computing for a long stretch (a third of the run or more) in one part.
smpi_found = None
for p_value, partition in distinct_partitions(smpi_overview):
    starts, ends = column_values(partition, "Start"), column_values(partition, "End")
    modes, nodes = column_values(partition, "ModeName"), column_values(partition, "NodeName")
    apart = [i for i in range(len(starts)) if nodes[i] in smpi_hosts and modes[i] == "computing"
             and ends[i] - starts[i] >= smpi_span / 3.0]
    if apart:
        i = max(apart, key=lambda k: ends[k] - starts[k])
        smpi_found = (nodes[i], starts[i], ends[i], p_value, partition.GetNumberOfRows())
        break
smpi_overview.Parameter = smpi_found[3] if smpi_found else 0.3
smpi_view = chart_view([1600, 900])
smpi_display = show_overview(smpi_overview, smpi_view, "Spatiotemporal Overview")
smpi_display.GroupLevel = 2
Render(smpi_view)
SaveScreenshot(os.path.join(output, "smpi-spatiotemporal-overview.png"), smpi_view,
               ImageResolution=[1600, 900])
smpi_gantt = chart_view([1600, 900])
smpi_timeline = Show(OutputPort(paje, 0), smpi_gantt, "MacroscopeTraceRepresentation")
smpi_timeline.SetRepresentationType("Timeline")
smpi_timeline.GroupLevel = 2
smpi_timeline.LabelColor = [0.1, 0.1, 0.1]
smpi_timeline.LabelFontSize = 11
Render(smpi_gantt)
smpi_gantt.ResetCamera(True)
Render(smpi_gantt)
SaveScreenshot(os.path.join(output, "smpi-timeline.png"), smpi_gantt, ImageResolution=[1600, 900])
smpi_states = servermanager.Fetch(paje, idx=0)
smpi_messages = servermanager.Fetch(paje, idx=1)

# Every view in a layout tab, one per topic: the GUI shows only the views of
# its tabs, so `paraview --state=macroscope.pvsm` then gives back all of them
# (docs/state-files.md). The treemaps have theirs already; the pictures are
# taken, and no view is resized (each tab is its views' size).
import macroscope  # noqa: E402

macroscope.layout_tab("Platform", [view])
macroscope.layout_tab("Timeline", [gantt])
macroscope.layout_tab("Model", [heat])
macroscope.layout_tab("Temporal overview", [temporal_view, chart])
macroscope.layout_tab("Spatiotemporal overview", [spatiotemporal_view])
# The treemaps' own layout sized their picture; their tab comes here, in the
# order of the analysis (a state lists tabs in the order they were made).
macroscope.layout_tab("Treemaps", treemap_views)
RemoveLayout(treemap_layout)  # empty now
macroscope.layout_tab("Treemap animation", [animation_view])
macroscope.layout_tab("Logical time", [logical_view])
macroscope.layout_tab("Topology 3D", [scene_view])
macroscope.layout_tab("SMPI", [smpi_view, smpi_gantt], vertical=True)
if macroscope.views_outside_layouts():
    raise SystemExit("views outside every layout tab: %s" % macroscope.views_outside_layouts())
SaveState(os.path.join(output, "macroscope.pvsm"))

# Summary: what was written, where the perturbation is, per-cluster load.
tree = servermanager.Fetch(trace)
fields = tree.GetFieldData()
kinds = fields.GetAbstractArray("RecordKind")
counts = fields.GetArray("RecordCount")
vertex = tree.GetVertexData()
names = vertex.GetAbstractArray("Name")
kind = vertex.GetAbstractArray("Kind")
events = vertex.GetArray("Events")
with open(os.path.join(trace_dir, "ground_truth.json")) as f:
    truth = json.load(f)

lines = ["Macroscope demo summary", "=======================", "",
         "Macroscope %s (%s)" % (plugin_version(), os.path.abspath(args.plugin)), ""]
lines.append("Trace: %s" % os.path.join(trace_dir, "traces.otf2"))
lines.append("Length: %.6f s" % fields.GetArray("TraceLength").GetValue(0))
leaves = sum(1 for v in range(tree.GetNumberOfVertices()) if kind.GetValue(v) == "thread")
lines.append("Locations (threads): %d" % leaves)
lines.append("Events written: %d" % events.GetValue(0))
lines.append("")
lines.append("Records per OTF2 kind:")
for i in range(kinds.GetNumberOfValues()):
    if counts.GetValue(i):
        lines.append("  %-20s %10d" % (kinds.GetValue(i), counts.GetValue(i)))
lines.append("")
lines.append("Events per cluster and node:")
for v in range(tree.GetNumberOfVertices()):
    if kind.GetValue(v) in ("cluster", "node"):
        indent = "  " if kind.GetValue(v) == "cluster" else "    "
        lines.append("%s%-12s %10d" % (indent, names.GetValue(v), events.GetValue(v)))
lines.append("")
affected = truth["affected"]
window = truth["window"]
lines.append("Ground truth (injected): %s on %s, %.3f-%.3f s, factor %g" % (
    truth["perturbation"], truth["target"]["name"], window["begin_seconds"],
    window["end_seconds"], truth["factor"]))
lines.append("  ranks %s; states %s; %d compute states lengthened" % (
    affected["ranks"], affected["regions"], affected["compute_states"]))
lines.append("")
# What the reader found: span, locations, states by type, messages.
states = servermanager.Fetch(reader, idx=0)
messages = servermanager.Fetch(reader, idx=1)
types = servermanager.Fetch(reader, idx=5)
span = reader.GetProperty("TimeBounds")
type_names = types.GetColumnByName("Name")
per_type = {}
location, type_ids = states.GetColumnByName("Location"), states.GetColumnByName("Type")
starts, ends = states.GetColumnByName("Start"), states.GetColumnByName("End")
for row in range(states.GetNumberOfRows()):
    name = type_names.GetValue(type_ids.GetValue(row))
    count, total = per_type.get(name, (0, 0.0))
    per_type[name] = (count + 1, total + ends.GetValue(row) - starts.GetValue(row))
lines.append("Read back with the OTF2 reader:")
lines.append("  time span: %.6f s to %.6f s" % (span[0], span[1]))
lines.append("  locations: %d" % reader.GetProperty("NumberOfLocations")[0])
lines.append("  states: %d, by type (count, inclusive time summed over locations):" % states.GetNumberOfRows())
for name, (count, total) in sorted(per_type.items(), key=lambda item: -item[1][1]):
    lines.append("    %-24s %8d %12.6f s" % (name, count, total))
sizes = messages.GetColumnByName("Bytes")
volume = sum(sizes.GetValue(i) for i in range(messages.GetNumberOfRows()))
lines.append("  messages: %d matched, %d bytes" % (messages.GetNumberOfRows(), volume))
report = states.GetFieldData()
lines.append("  unmatched sends/receives: %d/%d" % (report.GetArray("UnmatchedSends").GetValue(0),
                                                   report.GetArray("UnmatchedReceives").GetValue(0)))
lines.append("")
lines.append("Timeline (Gantt) at 1560 x 960 px, labels and legend included, states under 2 px aggregated:")
for label, (marks_count, aggregate_count, line_count, merged_count) in timeline_counts.items():
    lines.append("  %-12s %6d marks (%d aggregates, hatched), %d message lines (%d merged)"
                 % (label + ":", marks_count, aggregate_count, line_count, merged_count))
lines.append("  zoom window: %.3f s to %.3f s (the slow node's window)" % tuple(zoom_window))
lines.append("")
lines.append("Microscopic model: %d locations x %d slices x %d state types (%.6f s per slice)"
             % (leaves_count, 120, plane_names.GetNumberOfValues(),
                model.GetFieldData().GetArray("SliceWidth").GetValue(0)))
partition = servermanager.Fetch(temporal, idx=0)
curves = servermanager.Fetch(temporal, idx=1)
lines.append("Temporal aggregation (Ocelotl): %d distinct partitions over p in [0, 1]; shown at p = %.3f, %d parts"
             % (curves.GetNumberOfRows(), temporal.Parameter, partition.GetNumberOfRows()))
part_start, part_end = partition.GetColumnByName("Start"), partition.GetColumnByName("End")
shown = list(range(min(8, partition.GetNumberOfRows())))
for row in shown:
    lines.append("  part %2d: %.4f s to %.4f s" % (row, part_start.GetValue(row), part_end.GetValue(row)))
if partition.GetNumberOfRows() > len(shown):
    lines.append("  ... (%d more parts: see the Partition table in macroscope.pvsm)"
                 % (partition.GetNumberOfRows() - len(shown)))
lines.append("")
lines.append("Perturbation found by the aggregations, next to the injected ground truth:")
if detected_window:
    lines.append("  window:    detected %.4f-%.4f s (temporal partition at p = %.3f, %d parts)"
                 % detected_window)
else:
    lines.append("  window:    none detected")
lines.append("             injected %.4f-%.4f s" % (window["begin_seconds"], window["end_seconds"]))
if detected_resources:
    lines.append("  resources: detected %s (spatiotemporal partition at p = %.3f, %d parts: they spend the"
                 " window in another state than %s, which dominates it elsewhere)"
                 % (", ".join(detected_resources[0]), detected_resources[2], detected_resources[3],
                    detected_resources[1]))
else:
    lines.append("  resources: none detected")
lines.append("             injected %s (ranks %s)" % (truth["target"]["name"], affected["ranks"]))
lines.append("")
lines.append("Treemap of the processes (Triva/Viva), optimal cut of the hierarchy at p = %.3f:"
             % (treemap_p if treemap_p is not None else 0.5))
for label, treemap_window in (("perturbed", perturbed_window), ("normal", normal_window)):
    cut = treemap_cuts[label]
    lines.append("  %-9s window %.4f-%.4f s: %d parts%s" % (
        label, treemap_window[0], treemap_window[1], len(cut),
        (": " + ", ".join(cut)) if len(cut) <= 12 else
        " (apart: %s)" % ", ".join(c for c in cut if c.count("/") < 2)))
slow_apart = [c for c in treemap_cuts["perturbed"] if truth["target"]["name"] in c.split("/")]
lines.append("  the slow node %s is %s in the perturbed window's cut" % (
    truth["target"]["name"], "a part of its own" if truth["target"]["name"] in
    [c.split("/")[-1] for c in slow_apart] else "split into %d parts" % len(slow_apart)))
lines.append("  animated: %d frames, one per slice, in treemap-frames/" % len(animation_frames))
lines.append("")
# Logical time: where the delays start, next to the ground truth.
slow_names = {"MPI Rank %d" % r for r in affected["ranks"]}
phase_start, phase_end = (column_values(logical_phases, c) for c in ("Start", "End"))
pattern_names = column_values(logical_phases, "PatternName")
ev_phase, ev_location, ev_differential = (column_values(logical_events, c)
                                          for c in ("Phase", "Location", "DifferentialLateness"))
starter = {}
for phase, location, value in zip(ev_phase, ev_location, ev_differential):
    if phase not in starter or value > starter[phase][1]:
        starter[phase] = (location, value)
window_phases = [p for p in range(logical_phases.GetNumberOfRows())
                 if pattern_names[p] != "None" and phase_start[p] >= window["begin_seconds"]
                 and phase_end[p] <= window["end_seconds"]]
started_on_slow = sum(1 for p in window_phases
                      if location_names.GetValue(starter[p][0]) in slow_names)
cl_phase, cl_location, cl_cluster = (column_values(logical_clusters, c)
                                     for c in ("Phase", "Location", "Cluster"))
members_of = {}
for phase, location, cluster in zip(cl_phase, cl_location, cl_cluster):
    members_of.setdefault((phase, cluster), set()).add(location_names.GetValue(location))
slow_cluster_alone = sum(1 for p in window_phases
                         if any(members == slow_names for (q, _), members in members_of.items() if q == p))
lines.append("Logical time (Ravel): %d logical events in %d phases (%s)"
             % (logical_events.GetNumberOfRows(), logical_phases.GetNumberOfRows(),
                ", ".join("%d %s" % (n, name) for name, n in sorted(
                    {name: pattern_names.count(name) for name in set(pattern_names)}.items()))))
lines.append("  16-26 ms maps to global steps %d-%d (logical-timeline.png, clustered-timeline.png)"
             % tuple(logical_steps))
lines.append("  exchanges inside the injected window: %d; the delay starts (largest differential "
             "lateness) on the slow node's ranks in %d of them" % (len(window_phases), started_on_slow))
lines.append("  cut at 3 clusters, the slow node's ranks form a cluster of their own in %d of them"
             % slow_cluster_alone)
lines.append("")
stat_fields = producer_stats.GetFieldData()
# Triva's 3D scene: how tall the slow node's compute boxes stand.
def location_ranks(tree):
    names = tree.GetVertexData().GetAbstractArray("Name")
    leaf = tree.GetVertexData().GetArray("LeafIndex")
    ranks = {}
    for v in range(tree.GetNumberOfVertices()):
        if leaf.GetValue(v) >= 0:
            ranks[leaf.GetValue(v)] = names.GetValue(tree.GetParent(v))
    return ranks
rank_of = location_ranks(scene_tree)
box_cells = scene_boxes.GetCellData()
type_names = scene_boxes.GetFieldData().GetAbstractArray("TypeNames")
compute_time = {True: [], False: []}
for c in range(0, scene_boxes.GetNumberOfCells(), 6):  # six faces per box
    if type_names.GetValue(box_cells.GetArray("Type").GetValue(c)) == "compute" and \
            box_cells.GetArray("Start").GetValue(c) >= window["begin_seconds"]:
        slow_box = rank_of[box_cells.GetArray("Location").GetValue(c)] in slow_names
        compute_time[slow_box].append(box_cells.GetArray("Duration").GetValue(c))
base_kinds = [scene_base.GetCellData().GetAbstractArray("Kind").GetValue(i)
              for i in range(scene_base.GetNumberOfCells())]
mean = lambda values: sum(values) / len(values) if values else 0.0
box_ratio = mean(compute_time[True]) / mean(compute_time[False]) if compute_time[False] else 0.0
lines.append("Triva's 3D scene, %g-%g ms on network.dot (topology-3d-*.png): %d state boxes, "
             "%d message lines, %d hosts, %d switches, %d traffic edges"
             % (1e3 * SCENE_WINDOW[0], 1e3 * SCENE_WINDOW[1], scene_boxes.GetNumberOfCells() // 6,
                scene_lines.GetNumberOfCells(), base_kinds.count("host"), base_kinds.count("switch"),
                base_kinds.count("traffic")))
lines.append("  after the onset the slow node's compute boxes stand %.1f times as tall as the "
             "others' (injected factor %g)" % (box_ratio, truth["factor"] if "factor" in truth else 3.0))
lines.append("")
lines.append("Streamed Time Slicing: the 120-slice model read straight from traces.otf2 in %.2f s "
             "(no tables; largest difference from Time Slicing's %.1e), its fine model cached "
             "in model-cache/; 40 slices and a 25-slice zoom on 16-26 ms rebuilt from the "
             "cache in %.2f s (1 trace read in all, %d cached slices shared by overlap)"
             % (streamed_seconds, streamed_gap, cached_seconds, streamed_dirty))
lines.append("")
lines.append("Trace statistics: %d of %d producers (%.0f%%) make 80%% of the %d records"
             % (stat_fields.GetArray("ProducersFor80Percent").GetValue(0), producer_stats.GetNumberOfRows(),
                100.0 * stat_fields.GetArray("ProducerShareFor80Percent").GetValue(0),
                stat_fields.GetArray("TotalRecords").GetValue(0)))
lines.append("")
lines.append("SMPI application (examples/smpi, %s): %d states, %d messages over %.3f s, "
             "16 ranks regrouped by hierarchy.json into 2 clusters and 8 hosts"
             % (os.path.join(smpi_dir, "smpi.paje"), smpi_states.GetNumberOfRows(),
                smpi_messages.GetNumberOfRows(), smpi_span))
if smpi_found:
    lines.append("  the spatiotemporal overview (p = %.3f, %d parts) keeps host %s apart, computing "
                 "from %.3f s to %.3f s while the others wait (slow host injected: cl1-1)"
                 % (smpi_found[3], smpi_found[4], smpi_found[0], smpi_found[1], smpi_found[2]))
lines.append("")
lines.append("Pictures: platform.png, timeline.png, timeline-zoom.png, model-heatmap.png, "
             "temporal-overview.png, spatiotemporal-overview.png, quality-curves.png, treemap.png, "
             "logical-timeline.png, clustered-timeline.png, metric-overview.png, "
             "topology-3d-network.png, topology-3d-pattern.png, topology-3d-treemap.png, "
             "smpi-spatiotemporal-overview.png, smpi-timeline.png; "
             "state file: macroscope.pvsm")
with open(os.path.join(output, "summary.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
print("\n".join(lines))

# The demo doubles as a test (Examples.Demo): fail when the pipeline found nothing.
if states.GetNumberOfRows() == 0 or messages.GetNumberOfRows() == 0 or not present:
    raise SystemExit("demo: the sample trace gave no states, messages or model")
if any(counts[0] == 0 for counts in timeline_counts.values()):
    raise SystemExit("demo: the timeline drew nothing")
# ... and when the aggregations miss the injected perturbation.
if not detected_window or detected_window[1] <= window["begin_seconds"] or \
        detected_window[0] >= window["end_seconds"]:
    raise SystemExit("demo: the temporal aggregation found no window overlapping the injected one")
if not slow_apart or len(treemap_cuts["perturbed"]) >= leaves_count:
    raise SystemExit("demo: the treemap's optimal cut does not keep %s apart" % truth["target"]["name"])
if len(animation_frames) != 12:
    raise SystemExit("demo: the animated treemap saved %d frames, not 12" % len(animation_frames))
if not window_phases or 2 * started_on_slow <= len(window_phases):
    raise SystemExit("demo: logical time does not find the delays starting on the slow node's ranks")
if not detected_resources or truth["target"]["name"] not in detected_resources[0]:
    raise SystemExit("demo: the spatiotemporal aggregation did not single out %s" % truth["target"]["name"])
if not smpi_found or smpi_found[0] != "cl1-1":
    raise SystemExit("demo: the overview of the SMPI trace does not single out host cl1-1 (%s)"
                     % (smpi_found,))
if box_ratio < 2.0:
    raise SystemExit("demo: the 3D scene does not show the slow node's longer compute boxes "
                     "(ratio %.2f)" % box_ratio)
