"""pvbatch driver of Testing/Benchmarks/bench_overview.sh (see there).

    pvbatch bench_overview.py PLUGIN ANCHOR [SLICES [P_CHANGES]]

In one process, timed end to end, the pipeline of an overview:

  read       OTF2 Trace Reader, all six outputs (UpdatePipeline)
  slice      Time Slicing, SLICES slices (default 100), state duration
  aggregate  Temporal Aggregation at p = 0.5 (UpdatePipeline): the qualities
             and the optimal partition; the quality curves (every distinct
             partition) are computed after the timed stages, when fetched
  fetch      the Partition table brought to the client (servermanager.Fetch)
  render     the Partition shown as a Temporal Overview in a Render View
             (the aggregation filter's hint picks it), rendered and saved as
             a PNG (the picture the analyst sees)

then P_CHANGES (default 20) changes of p, each timed from setting Parameter
to the filter updated, to the Partition table fetched and to the overview
re-rendered, and the Partition table's field data
QualityComputations (how many times the filter computed qualities) after
them. It prints "name: value" lines on stdout.

vtkSMPTools is set to the STDThread backend explicitly: Debian's VTK
defaults to Sequential. (Macroscope's own filters run std::threads on every
core whatever the backend.)
"""
import os
import resource
import sys
import tempfile
import time

from paraview import simple
from paraview import servermanager
from vtkmodules.vtkCommonCore import vtkSMPTools


def say(name, value):
    if isinstance(value, float):
        value = "%.6g" % value
    print("%s: %s" % (name, value))
    sys.stdout.flush()


def peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6


class Stages:
    """Times consecutive stages of one pipeline; `total` is their sum."""

    def __init__(self):
        self.seconds = {}

    def run(self, name, work):
        begin = time.perf_counter()
        result = work()
        self.seconds[name] = time.perf_counter() - begin
        say("%s_s" % name, self.seconds[name])
        return result

    def total(self):
        return sum(self.seconds.values())


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    plugin, anchor = sys.argv[1:3]
    slices = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    changes = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    vtkSMPTools.SetBackend("STDThread")
    say("smp_backend", vtkSMPTools.GetBackend())
    say("smp_threads", vtkSMPTools.GetEstimatedNumberOfThreads())
    begin = time.perf_counter()
    simple.LoadPlugin(plugin, remote=False, ns=globals())
    say("load_plugin_s", time.perf_counter() - begin)

    stages = Stages()

    def read():
        reader = OTF2TraceReader(FileName=anchor)  # noqa: F821 (a plugin proxy)
        reader.UpdatePipeline()
        return reader

    reader = stages.run("read", read)

    def slice_model():
        slicing = TimeSlicing(Input=[simple.OutputPort(reader, i) for i in range(6)],  # noqa: F821
                              Slices=slices)
        slicing.UpdatePipeline()
        return slicing

    slicing = stages.run("slice", slice_model)

    def aggregate():
        aggregation = TemporalAggregation(Input=simple.OutputPort(slicing, 0))  # noqa: F821
        aggregation.Parameter = 0.5
        aggregation.UpdatePipeline()
        return aggregation

    aggregation = stages.run("aggregate", aggregate)
    partition = stages.run("fetch", lambda: servermanager.Fetch(aggregation, idx=0))
    view = simple.CreateView("RenderView")
    view.ViewSize = [1600, 900]
    view.CameraParallelProjection = 1
    view.OrientationAxesVisibility = 0
    picture = os.path.join(tempfile.gettempdir(), "macroscope-bench-overview.png")

    def render():
        display = simple.Show(simple.OutputPort(aggregation, 0), view, "MacroscopeTraceRepresentation")
        if display.Representation[0] != "Temporal Overview":
            raise SystemExit("the Partition is shown as %r" % display.Representation[0])
        simple.Render(view)
        view.ResetCamera(True)
        simple.SaveScreenshot(picture, view, ImageResolution=[1600, 900])
        return display

    stages.run("render", render)
    say("picture", picture)
    say("total_s", stages.total())
    say("first_update_s", stages.seconds["aggregate"] + stages.seconds["fetch"])

    algorithm = reader.GetClientSideObject()
    say("states", algorithm.GetOutputDataObject(0).GetNumberOfRows())
    say("locations", reader.NumberOfLocations)
    say("trace_seconds", reader.TimeBounds[1] - reader.TimeBounds[0])
    say("parts", partition.GetNumberOfRows())
    curves = servermanager.Fetch(aggregation, idx=1)
    say("partitions", curves.GetNumberOfRows())
    say("peak_rss_after_first_mb", peak_rss_mb())

    # Changing p: only the optimisation runs again. p sweeps [0.05, 0.95],
    # never 0.5 again, so that every change updates the filter.
    updates, fetches, renders = [], [], []
    for k in range(changes):
        p = 0.05 + 0.9 * k / max(1, changes - 1)
        begin = time.perf_counter()
        aggregation.Parameter = p
        aggregation.UpdatePipeline()
        middle = time.perf_counter()
        partition = servermanager.Fetch(aggregation, idx=0)
        fetched = time.perf_counter()
        simple.Render(view)
        updates.append(middle - begin)
        fetches.append(fetched - middle)
        renders.append(time.perf_counter() - fetched)
    say("p_changes", changes)
    say("p_change_update_mean_s", sum(updates) / changes)
    say("p_change_fetch_mean_s", sum(fetches) / changes)
    say("p_change_render_mean_s", sum(renders) / changes)
    say("p_change_mean_s", (sum(updates) + sum(fetches)) / changes)
    say("p_change_max_s", max(u + f for u, f in zip(updates, fetches)))
    say("p_change_total_s", sum(updates) + sum(fetches))
    say("quality_computations",
        int(partition.GetFieldData().GetArray("QualityComputations").GetValue(0)))
    say("peak_rss_mb", peak_rss_mb())


main()
