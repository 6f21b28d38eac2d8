"""pvbatch driver of Testing/Benchmarks/bench_timeline.sh (see there).

    pvbatch bench_timeline.py PLUGIN ANCHOR OUTPUT_DIR time
    pvbatch bench_timeline.py PLUGIN ANCHOR OUTPUT_DIR memory FRACTION

Both modes read the archive ANCHOR with the OTF2 Trace Reader (the baseline),
open a 1600x900 Render View and draw the States table with the Timeline
representation as the issue's script does: Show, Render, ResetCamera,
Render, SaveScreenshot. They print "name: value" lines on stdout.

time      the whole trace from Show to the PNG written (geometry + render,
          cold: the layout's per-trace index is built there too) and its
          steps; a render of the unchanged view, with and without the
          messages; then, the index built, a window of 1% of the trace in the
          middle and the whole trace again (zoom in and out); then the
          Timeline Layout filter alone (cold, whole trace again, window),
          which separates the geometry from the rendering.
memory    FRACTION of the trace (1 = the whole trace, else a window of that
          fraction in the middle), cold: the resident memory added from Show
          to the PNG (the peak, above the resident memory before Show; the
          peak is reset there through /proc/self/clear_refs), then what was
          drawn (cells, points, memory of the layout's polydata outputs, same
          options) and the states in the window.

Every PNG written is checked not to be blank: its fraction of non-white
pixels and its number of distinct colours are printed (the shell script
sets the limits).
"""
import os
import resource
import sys
import time

from paraview import simple
from vtkmodules.numpy_interface import dataset_adapter
from vtkmodules.vtkIOImage import vtkPNGReader
import numpy

SIZE = [1600, 900]
# Output ports of the Timeline Layout filter.
PORTS = ["marks", "messages", "hatching", "guides", "labels", "legend"]


def say(name, value):
    if isinstance(value, float):
        value = "%.6g" % value
    print("%s: %s" % (name, value))
    sys.stdout.flush()


def status_mb(field):
    """VmRSS or VmHWM of this process in MB (10^6 bytes)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024 / 1e6
    return float("nan")


def reset_peak():
    """Resets VmHWM to the current RSS (Linux >= 4.0). False if refused."""
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
        return True
    except OSError:
        return False


def png_figures(path):
    """Fraction of non-white pixels and number of distinct colours."""
    reader = vtkPNGReader()
    reader.SetFileName(path)
    reader.Update()
    image = reader.GetOutput()
    pixels = dataset_adapter.WrapDataObject(image).PointData[0]
    pixels = numpy.asarray(pixels)[:, :3].astype(numpy.uint32)
    if pixels.shape[0] != SIZE[0] * SIZE[1]:
        return 0.0, 0
    nonwhite = numpy.count_nonzero((pixels < 250).any(axis=1)) / float(pixels.shape[0])
    colours = numpy.unique(pixels[:, 0] << 16 | pixels[:, 1] << 8 | pixels[:, 2]).size
    return nonwhite, colours


def report_png(prefix, path):
    nonwhite, colours = png_figures(path) if os.path.isfile(path) else (0.0, 0)
    say(prefix + "_png_nonwhite", nonwhite)
    say(prefix + "_png_colours", colours)


def window_of(fraction, length):
    """TimeWindow of FRACTION of the trace in its middle; (0, 0) = all."""
    if fraction >= 1.0:
        return [0.0, 0.0]
    middle = 0.5 * length
    return [middle - 0.5 * fraction * length, middle + 0.5 * fraction * length]


def states_in(states, window, length):
    """States the layout draws for WINDOW: those overlapping its interior,
    and instants inside it (docs/timeline.md)."""
    t0, t1 = window if window[1] > 0 else (0.0, length)
    start, end = states
    inside = ((start < t1) & (end > t0)) | ((start == end) & (start >= t0) & (start <= t1))
    return int(numpy.count_nonzero(inside))


def open_trace(anchor):
    """Reads the trace; prints the reading time (the baseline) and its size."""
    begin = time.perf_counter()
    reader = OTF2TraceReader(FileName=anchor)  # noqa: F821 (a plugin proxy)
    reader.UpdatePipeline()
    seconds = time.perf_counter() - begin
    algorithm = reader.GetClientSideObject()
    table_bytes = sum(algorithm.GetOutputDataObject(port).GetActualMemorySize() * 1024
                      for port in range(6))
    states = dataset_adapter.WrapDataObject(algorithm.GetOutputDataObject(0)).RowData
    messages = algorithm.GetOutputDataObject(1)
    say("states", algorithm.GetOutputDataObject(0).GetNumberOfRows())
    say("messages", messages.GetNumberOfRows())
    say("locations", reader.NumberOfLocations)
    say("trace_seconds", reader.TimeBounds[1] - reader.TimeBounds[0])
    say("tables_mb", table_bytes / 1e6)
    say("read_s", seconds)
    length = reader.TimeBounds[1] - reader.TimeBounds[0]
    return reader, (numpy.asarray(states["Start"]), numpy.asarray(states["End"])), length


def open_view():
    view = simple.CreateView("RenderView")
    view.ViewSize = SIZE
    view.OrientationAxesVisibility = 0
    view.UseColorPaletteForBackground = 0
    view.Background = [1, 1, 1]
    view.CameraParallelProjection = 1
    view.InteractionMode = "2D"
    simple.Render(view)  # the OpenGL context exists before anything is timed
    return view


def show_timeline(reader, view, png, window=None, probe=lambda step: None):
    """Show to PNG as in the issue; returns the seconds of each step.
    probe(STEP) is called after each step, outside the timed part."""
    steps = {}
    begin = time.perf_counter()
    display = simple.Show(simple.OutputPort(reader, 0), view, "MacroscopeTraceRepresentation")
    display.SetRepresentationType("Timeline")
    display.LabelColor = [0.1, 0.1, 0.1]
    if window is not None:
        display.TimeWindow = window
    steps["show"] = time.perf_counter() - begin
    mark = time.perf_counter()
    simple.Render(view)  # updates the representation: layout, delivery, upload
    steps["update"] = time.perf_counter() - mark
    probe("update")
    mark = time.perf_counter()
    view.ResetCamera(True)
    simple.Render(view)  # the chart fills the view: rasterization
    steps["render"] = time.perf_counter() - mark
    probe("render")
    mark = time.perf_counter()
    simple.SaveScreenshot(png, view, ImageResolution=SIZE)
    steps["png"] = time.perf_counter() - mark
    probe("png")
    steps["total"] = sum(steps.values())
    return display, steps


def redraw(display, view, window, png):
    """Zoom (or zoom out) an existing Timeline: TimeWindow to the PNG."""
    begin = time.perf_counter()
    display.TimeWindow = window
    simple.Render(view)
    simple.SaveScreenshot(png, view, ImageResolution=SIZE)
    return time.perf_counter() - begin


def layout_geometry(layout):
    """Cells, points and memory (MB) of the layout filter's outputs."""
    figures = {}
    for port, name in enumerate(PORTS[:layout.GetNumberOfOutputPorts()]):
        information = layout.GetDataInformation(port)
        figures[name] = (information.GetNumberOfCells(), information.GetNumberOfPoints(),
                         information.GetMemorySize() * 1024 / 1e6)
    return figures


def report_geometry(prefix, figures):
    for name in PORTS:
        say("%s_%s_cells" % (prefix, name), figures[name][0] if name in figures else 0)
    say(prefix + "_cells", sum(f[0] for f in figures.values()))
    say(prefix + "_points", sum(f[1] for f in figures.values()))
    say(prefix + "_geometry_mb", sum(f[2] for f in figures.values()))


def time_mode(reader, states, length, output):
    view = open_view()
    whole_png = os.path.join(output, "timeline_whole.png")
    window_png = os.path.join(output, "timeline_window.png")
    display, steps = show_timeline(reader, view, whole_png)
    for step in ["show", "update", "render", "png", "total"]:
        say("whole_cold_%s_s" % step, steps[step])
    report_png("whole", whole_png)

    mark = time.perf_counter()
    simple.Render(view)
    say("whole_rerender_s", time.perf_counter() - mark)
    display.ShowMessages = 0
    simple.Render(view)
    mark = time.perf_counter()
    simple.Render(view)
    say("whole_rerender_no_messages_s", time.perf_counter() - mark)
    display.ShowMessages = 1

    window = window_of(0.01, length)
    say("window", "%.6f %.6f" % tuple(window))
    say("window_states", states_in(states, window, length))
    say("window_warm_s", redraw(display, view, window, window_png))
    report_png("window", window_png)
    say("whole_warm_s", redraw(display, view, [0.0, 0.0], whole_png))

    # The same geometry without rendering: the Timeline Layout filter.
    simple.Hide(simple.OutputPort(reader, 0), view)
    inputs = [simple.OutputPort(reader, port) for port in range(6)]
    mark = time.perf_counter()
    layout = TimelineLayout(Input=inputs)  # noqa: F821
    layout.UpdatePipeline()
    say("layout_whole_cold_s", time.perf_counter() - mark)
    report_geometry("whole", layout_geometry(layout))
    layout.TimeWindow = [0.0, length]  # the same drawing again, the index kept
    mark = time.perf_counter()
    layout.UpdatePipeline()
    say("layout_whole_warm_s", time.perf_counter() - mark)
    layout.TimeWindow = window
    mark = time.perf_counter()
    layout.UpdatePipeline()
    say("layout_window_warm_s", time.perf_counter() - mark)
    report_geometry("window", layout_geometry(layout))


def memory_mode(reader, states, length, output, fraction):
    view = open_view()
    window = window_of(fraction, length)
    base = status_mb("VmRSS")
    exact = reset_peak()
    if not exact:
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6
    png = os.path.join(output, "timeline_memory_%g.png" % fraction)
    peaks = {}

    def probe(step):
        peaks[step] = status_mb("VmHWM") if exact else \
            resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6

    _, steps = show_timeline(reader, view, png, window, probe)
    peak = peaks["png"]
    say("fraction", fraction)
    say("window_states", states_in(states, window, length))
    say("rss_before_show_mb", base)
    say("peak_rss_mb", peak)
    for step in ["update", "render", "png"]:
        say("growth_%s_mb" % step, peaks[step] - base)
    say("growth_mb", peak - base)
    say("peak_reset", int(exact))
    say("total_s", steps["total"])
    report_png("memory", png)
    # What was drawn: the representation lays out with the filter's defaults.
    simple.Hide(simple.OutputPort(reader, 0), view)
    inputs = [simple.OutputPort(reader, port) for port in range(6)]
    layout = TimelineLayout(Input=inputs)  # noqa: F821
    layout.TimeWindow = window
    layout.UpdatePipeline()
    report_geometry("drawn", layout_geometry(layout))


def main():
    if len(sys.argv) < 5 or sys.argv[4] not in ("time", "memory"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    plugin, anchor, output, mode = sys.argv[1:5]
    os.makedirs(output, exist_ok=True)
    simple.LoadPlugin(plugin, remote=False, ns=globals())
    reader, states, length = open_trace(anchor)
    if mode == "time":
        time_mode(reader, states, length, output)
    else:
        memory_mode(reader, states, length, output, float(sys.argv[5]))


main()
