"""pvbatch driver of Testing/Benchmarks/bench_open_to_overview.sh (see there).

    pvbatch bench_open_to_overview.py PLUGIN ANCHOR MODE KIND PICTURE

Times, in one process, File > Open of ANCHOR then its first overview:

  open       the OTF2 Trace Reader proxy and its information pass (what
             File > Open does before Apply)
  model      MODE "stream": macroscope.overview(reader, kind=KIND), the
             toolbar's Overview action: Streamed Time Slicing at its defaults
             (model cache on, as in the GUI; the script removes the cache
             first, so this is a first open);
             MODE "tables": Apply on the reader (its six tables), then Time
             Slicing at its defaults
  aggregate  KIND ("spatiotemporal" or "temporal") Aggregation at its
             defaults, shown (Show)
  render     rendered in the view fitted to it (stream: in macroscope.overview)
  picture    saved as PICTURE (1600 x 900)

and prints "name: value" lines: each stage's seconds, `first_overview_s`
(open to the picture written), the model's shape, the parts and the peak
RSS. The plugin's load is timed apart (`load_plugin_s`): the GUI loads it
once at start-up.
"""
import resource
import sys
import time

from paraview import simple
from paraview import servermanager


def say(name, value):
    if isinstance(value, float):
        value = "%.6g" % value
    print("%s: %s" % (name, value))
    sys.stdout.flush()


def main():
    if len(sys.argv) != 6:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    plugin, anchor, mode, kind, picture = sys.argv[1:6]
    begin = time.perf_counter()
    simple.LoadPlugin(plugin, remote=False, ns=globals())
    import macroscope
    say("load_plugin_s", time.perf_counter() - begin)

    seconds = {}
    start = time.perf_counter()
    reader = OTF2TraceReader(FileName=anchor)  # noqa: F821 (a plugin proxy)
    reader.UpdatePipelineInformation()
    seconds["open"] = time.perf_counter() - start

    if mode == "stream":
        result = macroscope.overview(reader, kind=kind)
        seconds["model"] = result.seconds["model"]
        seconds["aggregate"] = result.seconds["aggregation"]
        seconds["render"] = result.seconds["render"]
        source, aggregation, view = result.model, result.aggregation, result.view
        say("estimate_s", result.estimate.seconds)
    else:
        start = time.perf_counter()
        reader.UpdatePipeline()
        source = TimeSlicing(Input=[simple.OutputPort(reader, i) for i in range(6)])  # noqa: F821
        source.UpdatePipeline()
        seconds["model"] = time.perf_counter() - start
        start = time.perf_counter()
        make = SpatiotemporalAggregation if kind == "spatiotemporal" else TemporalAggregation  # noqa: F821
        aggregation = make(Input=simple.OutputPort(source, 0))
        view = simple.CreateView("RenderView")
        view.OrientationAxesVisibility = 0
        simple.Show(simple.OutputPort(aggregation, 0), view, "MacroscopeTraceRepresentation")
        seconds["aggregate"] = time.perf_counter() - start
        start = time.perf_counter()
        view.CameraParallelProjection = 1
        simple.Render(view)
        view.ResetCamera(True)
        simple.Render(view)
        seconds["render"] = time.perf_counter() - start
    start = time.perf_counter()
    view.ViewSize = [1600, 900]
    simple.SaveScreenshot(picture, view, ImageResolution=[1600, 900])
    seconds["picture"] = time.perf_counter() - start
    for name in ("open", "model", "aggregate", "render", "picture"):
        say("%s_s" % name, seconds[name])
    say("first_overview_s", sum(seconds.values()))
    extent = source.GetDataInformation(0).GetExtent()
    say("model", "%dx%dx%d" % (extent[1] + 1, extent[3] + 1, extent[5] + 1))
    say("kind", kind)
    say("parts", servermanager.Fetch(aggregation, idx=0).GetNumberOfRows())
    say("peak_rss_mb", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0)


main()
