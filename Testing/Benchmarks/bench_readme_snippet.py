"""Driver of bench_readme_snippet.sh, run by pvbatch: the README's snippet
(OTF2 reader -> Time Slicing, Slices=SLICES -> Spatiotemporal Aggregation,
Parameter=0.6 -> the Partition fetched), then a change of Parameter, then the
baseline (the same aggregation with its sweep forced, by fetching the Quality
Curves, as every execution did before the partition came first). Prints one
line of key=value fields; times in seconds.

    pvbatch bench_readme_snippet.py PLUGIN TRACE SLICES BASELINE(0|1)"""
import sys
import time

from paraview.simple import LoadPlugin, OutputPort
from paraview import servermanager

plugin, trace, slices, baseline = sys.argv[1:5]
LoadPlugin(plugin, remote=False, ns=globals())


class Executions:
    """The filter's own execution time (StartEvent to EndEvent), summed."""

    def __init__(self, proxy):
        self.seconds = 0.0
        self.count = 0
        algorithm = proxy.GetClientSideObject()
        algorithm.AddObserver("StartEvent", self._start)
        algorithm.AddObserver("EndEvent", self._end)

    def _start(self, caller, event):
        self._began = time.perf_counter()

    def _end(self, caller, event):
        self.seconds += time.perf_counter() - self._began
        self.count += 1


def fields(table, *names):
    return [table.GetFieldData().GetArray(n).GetValue(0) for n in names]


# The snippet, from nothing to the fetched Partition.
start = time.perf_counter()
reader = OTF2TraceReader(FileName=trace)  # noqa: F821 (defined by LoadPlugin)
model = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=int(slices))  # noqa: F821
servermanager.Fetch(model, idx=0)
modelled = time.perf_counter()
overview = SpatiotemporalAggregation(Input=OutputPort(model, 0), Parameter=0.6)  # noqa: F821
executions = Executions(overview)
partition = servermanager.Fetch(overview, idx=0)
snippet = time.perf_counter() - start
aggregation = time.perf_counter() - modelled
aggregation_filter = executions.seconds
qualities, sweeps = fields(partition, "QualityComputations", "SweepComputations")
parts = partition.GetNumberOfRows()

# Moving p.
executions.seconds = 0.0
start = time.perf_counter()
overview.Parameter = 0.5
moved = servermanager.Fetch(overview, idx=0)
move = time.perf_counter() - start
move_filter = executions.seconds
moved_qualities, moved_sweeps = fields(moved, "QualityComputations", "SweepComputations")

line = ("slices=%s parts=%d snippet=%.3f model=%.3f aggregation=%.3f aggregation_filter=%.3f "
        "qualities=%d sweeps=%d move=%.4f move_filter=%.4f move_parts=%d move_qualities=%d move_sweeps=%d" % (
            slices, parts, snippet, snippet - aggregation, aggregation, aggregation_filter, qualities, sweeps,
            move, move_filter, moved.GetNumberOfRows(), moved_qualities, moved_sweeps))

# The baseline: a fresh filter on the same model whose curves are fetched,
# i.e. qualities, the partition and the sweep over every p.
if baseline == "1":
    swept = SpatiotemporalAggregation(Input=OutputPort(model, 0), Parameter=0.6)  # noqa: F821
    start = time.perf_counter()
    curves = servermanager.Fetch(swept, idx=1)
    full = time.perf_counter() - start
    line += " baseline=%.3f partitions=%d dps=%d ratio=%.1f" % (
        full, curves.GetNumberOfRows(), fields(curves, "SweepOptimizations")[0], full / aggregation)
print(line)
sys.stdout.flush()
