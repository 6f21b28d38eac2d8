"""pvbatch driver of Testing/Benchmarks/bench_open_to_timeline.sh (see there).

    pvbatch bench_open_to_timeline.py PLUGIN ANCHOR PNG timeline
    pvbatch bench_open_to_timeline.py PLUGIN ANCHOR PNG parts

timeline  File > Open (the reader's proxy), then the States shown with the
          Timeline representation in a 1600 x 900 Render View at its
          defaults, rendered, fitted and written as a PNG: the first readable
          Timeline. Prints the seconds of each step.
parts     where the time goes: the reader's tables alone (UpdatePipeline),
          then the Timeline Layout filter alone, cold (its index built) and
          again for another window (the index kept).
Prints "name: value" lines.
"""
import os
import sys
import time

from paraview import simple

SIZE = [1600, 900]


def say(name, value):
    print("%s: %s" % (name, ("%.6g" % value) if isinstance(value, float) else value))
    sys.stdout.flush()


def rss_peak_mb():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024 / 1e6
    return float("nan")


def timeline(anchor, png):
    view = simple.CreateView("RenderView")
    view.ViewSize = SIZE
    view.OrientationAxesVisibility = 0
    simple.Render(view)  # the OpenGL context exists before anything is timed
    begin = time.perf_counter()
    reader = OTF2TraceReader(FileName=anchor)  # noqa: F821 (a plugin proxy)
    say("open_s", time.perf_counter() - begin)
    mark = time.perf_counter()
    display = simple.Show(simple.OutputPort(reader, 0), view, "MacroscopeTraceRepresentation")
    display.SetRepresentationType("Timeline")
    say("show_s", time.perf_counter() - mark)  # Show updates the reader: its tables
    mark = time.perf_counter()
    simple.Render(view)  # the layout (index, marks), its polydata, delivery, upload
    say("layout_render_s", time.perf_counter() - mark)
    mark = time.perf_counter()
    view.ResetCamera(True)
    simple.Render(view)
    simple.SaveScreenshot(png, view, ImageResolution=SIZE)
    say("picture_s", time.perf_counter() - mark)
    say("first_timeline_s", time.perf_counter() - begin)
    say("peak_rss_mb", rss_peak_mb())
    say("png_bytes", os.path.getsize(png))


def parts(anchor):
    begin = time.perf_counter()
    reader = OTF2TraceReader(FileName=anchor)  # noqa: F821
    reader.UpdatePipeline()
    say("read_s", time.perf_counter() - begin)
    states = reader.GetClientSideObject().GetOutputDataObject(0).GetNumberOfRows()
    messages = reader.GetClientSideObject().GetOutputDataObject(1).GetNumberOfRows()
    say("states", states)
    say("messages", messages)
    layout = TimelineLayout(Input=[simple.OutputPort(reader, i) for i in range(6)])  # noqa: F821
    mark = time.perf_counter()
    layout.UpdatePipeline()
    say("layout_cold_s", time.perf_counter() - mark)
    say("marks_cells", layout.GetDataInformation(0).GetNumberOfCells())
    say("messages_cells", layout.GetDataInformation(1).GetNumberOfCells())
    say("hatching_cells", layout.GetDataInformation(2).GetNumberOfCells())
    length = reader.TimeBounds[1] - reader.TimeBounds[0]
    layout.TimeWindow = [0.0, 0.999 * length]
    mark = time.perf_counter()
    layout.UpdatePipeline()
    say("layout_warm_s", time.perf_counter() - mark)


def main():
    plugin, anchor, png, mode = sys.argv[1:5]
    simple.LoadPlugin(plugin, remote=False, ns=globals())
    if mode == "timeline":
        timeline(anchor, png)
    else:
        parts(anchor)


main()
