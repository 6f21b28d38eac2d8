"""Driver of bench_relayout.sh (pvbatch): re-layout of a 1M-state Timeline
after a resize of its Macroscope Chart View and after a wheel zoom step,
against the same re-layout asked the former way (the display's explicit
ViewSize or TimeWindow set in a plain Render View), in one process.

    pvbatch bench_relayout.py PLUGIN TRACE REPETITIONS

Prints "name: value" lines. A re-layout is timed from the change to the end
of the view's Update (the representation's RequestData: the layout and the
copy of its outputs), without rasterization; the following Render is timed
apart ("render")."""
import statistics
import sys
import time

from paraview.simple import *  # noqa: F401,F403

plugin, trace, repetitions = sys.argv[1], sys.argv[2], int(sys.argv[3])
LoadPlugin(plugin, remote=False, ns=globals())
from macroscope import navigation as nav  # noqa: E402

reader = OTF2TraceReader(FileName=trace)
reader.UpdatePipeline()
states = reader.GetDataInformation(0).GetNumberOfRows()
print("states: %d" % states)


def timed(change, view):
    begin = time.perf_counter()
    change()
    view.SMProxy.Update()
    middle = time.perf_counter()
    Render(view)
    return middle - begin, time.perf_counter() - middle


def best(samples):
    return min(samples), statistics.median(samples)


sizes = [[1600, 1000], [1400, 900]]

# The chart view: the size pushed by the view, the window by the wheel.
view = nav.chart_view(sizes[0])
display = Show(reader, view)
Render(view)  # cold: the layout's per-trace index is built here
resize, resize_render = [], []
for i in range(repetitions):
    layout_s, render_s = timed(lambda: setattr(view, "ViewSize", sizes[(i + 1) % 2]), view)
    resize.append(layout_s)
    resize_render.append(render_s)
view.ViewSize = sizes[0]
Render(view)
zoom, zoom_render = [], []
for i in range(repetitions):
    # One wheel step in over the middle, then one out: both re-aggregate
    # about the whole trace.
    steps = 1 if i % 2 == 0 else -1
    layout_s, render_s = timed(lambda: nav.wheel(view, steps, 800), view)
    zoom.append(layout_s)
    zoom_render.append(render_s)
marks = display.SMProxy.GetRepresentedDataInformation().GetNumberOfCells()

# The baseline: a plain Render View, the display's own properties.
plain_view = CreateView("RenderView")
plain_view.ViewSize = sizes[0]
plain = Show(reader, plain_view, "MacroscopeTraceRepresentation")
plain.ViewSize = sizes[0]
Render(plain_view)
base_resize, base_zoom = [], []
windows = [list(display.TimeWindow), [0.0, 0.0]]
nav_span = nav.trace_span(view)
step_window = nav._zoom_window(nav_span, nav_span, nav.WHEEL_ZOOM_IN, 0.5 * (nav_span[0] + nav_span[1]))
for i in range(repetitions):
    base_resize.append(timed(lambda: setattr(plain, "ViewSize", sizes[(i + 1) % 2]), plain_view)[0])
for i in range(repetitions):
    base_zoom.append(timed(lambda: setattr(plain, "TimeWindow", step_window if i % 2 == 0 else [0.0, 0.0]),
                           plain_view)[0])

for name, samples in (("resize", resize), ("resize_render", resize_render), ("zoom", zoom),
                      ("zoom_render", zoom_render), ("baseline_resize", base_resize),
                      ("baseline_zoom", base_zoom)):
    low, median = best(samples)
    print("%s_best: %.4f" % (name, low))
    print("%s_median: %.4f" % (name, median))
print("resize_ratio: %.2f" % (statistics.median(resize) / statistics.median(base_resize)))
print("zoom_ratio: %.2f" % (statistics.median(zoom) / statistics.median(base_zoom)))
print("marks: %d" % marks)
