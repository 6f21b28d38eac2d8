"""Every long Macroscope algorithm reports evenly spread progress and stops
soon when aborted (docs/progress.md).

The proxies are enumerated from Plugin/*.xml, so that a new reader, filter
or layout cannot be forgotten: each is either held to the criterion below
(LONG), or exempt for a stated reason (EXEMPT: it is checked to run in under
half a second on this test's input, or its progress belongs to another
part of the work, PENDING, with the reason).

For each LONG algorithm, on an input large enough to take a noticeable time:
  1. a run reports >= 20 distinct values in (0, 1), never decreasing, with no
     step over 0.25 of the range between 0, the values and 1 (a quarter of
     the bar at most at once), and no silence longer than a quarter of the
     run (or 0.25 s, half the time allowed to hear an abort);
  2. a run aborted from a progress observer once it passed 0.3 stops within
     0.5 s of the request (on free cores: the bound grows with the load
     above the core count), reports no value after it (the pipeline does not
     run it again for another output port), and a message says it was
     aborted;
  3. the next run, without anything reset by hand, gives the same output
     as the first.
"""
import glob
import os
import shutil
import time
import xml.etree.ElementTree as ET

import macroscope_testing as mt
import state_coverage

args = mt.parse_args()
from paraview.simple import *  # noqa: F401,F403
from paraview import servermanager

mt.load_plugin(args, globals())

MIN_VALUES = 20
MAX_STEP = 0.25
MAX_SILENCE = 0.25  # of the run's duration
MIN_SILENCE = 0.25  # seconds: half the time allowed to hear an abort
ABORT_AT = 0.3
ABORT_WITHIN = 0.5  # seconds

# Inputs: an 8M-event OTF2 trace (32 locations) and a 2M-event Pajé trace.
trace_dir = os.path.join(args.output, "trace")
synthetic_dir = os.path.join(args.output, "synthetic")
mt.synthesize(args, trace_dir, "--events", 8000000)
anchor = os.path.join(trace_dir, "traces.otf2")
paje_dir = os.path.join(args.output, "paje")
paje_file = os.path.join(args.output, "big.paje")
mt.synthesize(args, paje_dir, "--events", 2000000, "--paje", paje_file)

reader = OTF2TraceReader(FileName=anchor)
reader.UpdatePipeline()
ports = [OutputPort(reader, i) for i in range(6)]
slicing = TimeSlicing(Input=ports, Slices=200)
slicing.UpdatePipeline()
model = OutputPort(slicing, 0)
logical = LogicalTime(Input=ports)


def logical_ports():
    logical.UpdatePipeline()
    return [OutputPort(logical, i) for i in (0, 1, 2, 3, 4, 5, 8)]


# The aggregations' inputs: a model of 10,000 slices (320,000 cells a type)
# for the spatial and hierarchical ones, of 2,000 for the temporal one and
# of 60 for the spatiotemporal one (quadratic in slices: seconds a run).
fine = TimeSlicing(Input=ports, Slices=10000)
fine.UpdatePipeline()
fine_model = OutputPort(fine, 0)
medium = TimeSlicing(Input=ports, Slices=2000)
medium.UpdatePipeline()
medium_model = OutputPort(medium, 0)
coarse = TimeSlicing(Input=ports, Slices=60)
coarse.UpdatePipeline()
coarse_model = OutputPort(coarse, 0)
aggregations = {}


def aggregated(kind):
    """An aggregation of the models above, made once and updated, as the
    input of the layouts and summaries that read one."""
    if kind not in aggregations:
        aggregations[kind] = kind(Input=coarse_model if kind is SpatiotemporalAggregation else medium_model)
        aggregations[kind].GetClientSideObject().Update(0)  # the partition, without the curves
    return aggregations[kind]


# The algorithms held to the criterion: proxy XML name -> a function making
# the proxy to test on a large input.
LONG = {
    "MacroscopeOTF2Reader": lambda: OTF2TraceReader(FileName=anchor),
    "MacroscopePajeReader": lambda: PajeTraceReader(FileName=paje_file),
    "MacroscopeStreamedTimeSlicing": lambda: StreamedTimeSlicing(
        FileName=anchor, Slices=200, UseModelCache=0),
    # 10,000 slices: a model of 10M cells, where writing it is most of the work.
    "MacroscopeTimeSlicing": lambda: TimeSlicing(Input=ports, Slices=10000),
    "MacroscopeTraceStatistics": lambda: TraceStatistics(Input=ports),
    "MacroscopeActiveProducers": lambda: ActiveProducers(Input=ports),
    "MacroscopeLogicalTime": lambda: LogicalTime(Input=ports),
    "MacroscopeTopologyScene": lambda: TopologyTimeScene(Input=[ports[i] for i in (0, 1, 4, 5)]),
    "MacroscopeTimelineLayout": lambda: TimelineLayout(Input=ports),
    "MacroscopeLogicalTimelineLayout": lambda: LogicalTimelineLayout(Input=logical_ports()),
    "MacroscopeClusteredTimelineLayout": lambda: ClusteredTimelineLayout(Input=logical_ports()),
    "MacroscopeTemporalAggregation": lambda: TemporalAggregation(Input=medium_model),
    "MacroscopeSpatialAggregation": lambda: SpatialAggregation(Input=fine_model),
    "MacroscopeHierarchicalAggregation": lambda: HierarchicalAggregation(Input=fine_model),
    "MacroscopeSpatiotemporalAggregation": lambda: SpatiotemporalAggregation(Input=coarse_model),
    # 20,000 iterations of the default platform, written again at every run
    # (BEFORE_RUN removes the archive, which the source would reuse).
    "MacroscopeSyntheticTrace": lambda: SyntheticTrace(
        OutputDirectory=synthetic_dir, Iterations=20000),
}



def touch_paje():
    """The Pajé reader keeps a file's parse while the file is unchanged: a
    comment at the end makes every run parse (the data stay the same)."""
    with open(paje_file, "a") as f:
        f.write("# run\n")


def renew(source):
    """The aggregations keep their qualities while their model is the same
    (moving Parameter reuses them): a model made again, before the run is
    timed, makes the next run compute them again (the same values)."""
    def run_source_again():
        source.GetClientSideObject().Modified()
        source.SMProxy.MarkModified(source.SMProxy)
        source.UpdatePipeline()
    return run_source_again


# Asked for their first output only (the partition, what an overview
# shows): a proxy's UpdatePipeline() updates every output, and the temporal
# aggregation's quality curves sweep every p, many times the partition's time
# (TestAggregationPartitionFirst.py holds the sweep's progress). The spatial
# and spatiotemporal ones are updated whole, curves included.
PARTITION_ONLY = {"MacroscopeTemporalAggregation"}

# What makes a run of the algorithm do its whole work again.
BEFORE_RUN = {
    "MacroscopeSyntheticTrace": lambda: shutil.rmtree(synthetic_dir, ignore_errors=True),
    "MacroscopePajeReader": touch_paje,
    "MacroscopeTemporalAggregation": renew(medium),
    "MacroscopeSpatialAggregation": renew(fine),
    "MacroscopeHierarchicalAggregation": renew(fine),
    "MacroscopeSpatiotemporalAggregation": renew(coarse),
}

# Fast on this test's input (8M events): each is timed below and must stay
# under half a second, so that an exemption cannot outlive its reason.
EXEMPT_FAST = {
    "MacroscopeHierarchyLayout": lambda: HierarchyLayout(Input=ports[4]),
    "MacroscopeResourceTreemap": lambda: ResourceTreemap(Input=model, Sizes=model),
    "MacroscopeTreemapLayout": lambda: TreemapLayout(Input=ResourceTreemap(Input=model, Sizes=model)),
    "MacroscopeModelDifference": lambda: ModelDifference(Input=model, Other=model),
    "MacroscopeMetricOverviewLayout": lambda: MetricOverviewLayout(Input=logical_ports()),
    # What reads an aggregation's partition (a few hundred parts at most).
    "MacroscopeTemporalOverviewLayout": lambda: TemporalOverviewLayout(
        Input=aggregated(TemporalAggregation)),
    "MacroscopeSpatiotemporalOverviewLayout": lambda: SpatiotemporalOverviewLayout(
        Input=aggregated(SpatiotemporalAggregation)),
    "MacroscopeDifferenceSummary": lambda: DifferenceSummary(
        Input=aggregated(SpatiotemporalAggregation)),
}

# Not yet held to the criterion, with the reason (docs/progress.md lists
# them): none today; an entry here is "proxy XML name": "why".
PENDING = {}

# Base proxies (not in a menu) that only share properties.
ABSTRACT = {"TimeSlicingModel"}


def plugin_algorithms():
    """Names of the sources and filters the plugin declares."""
    names = set()
    for path in sorted(glob.glob(os.path.join(args.source, "Plugin", "*.xml"))):
        for group in ET.parse(path).getroot().iter("ProxyGroup"):
            if group.get("name") in ("sources", "filters"):
                names.update(proxy.get("name") for proxy in group)
    # A state alias runs the algorithm of the proxy it stands for.
    return names - ABSTRACT - set(state_coverage.state_aliases(args.source))


declared = plugin_algorithms()
covered = set(LONG) | set(EXEMPT_FAST) | set(PENDING)
mt.check(not declared - covered, "algorithms without a progress verdict (add them to LONG, "
         "EXEMPT_FAST or PENDING): %s" % sorted(declared - covered))
mt.check(not covered - declared, "verdicts for no algorithm of the plugin: %s"
         % sorted(covered - declared))


class Watch:
    """Records the progress values of one proxy's VTK algorithm, and aborts
    it once they pass `abort_at`."""

    def __init__(self, proxy):
        self.algorithm = proxy.GetClientSideObject()
        self.values = []
        self.abort_at = None
        self.abort_time = None
        self.algorithm.AddObserver("ProgressEvent", self._on_progress)

    def _on_progress(self, algorithm, event):
        value = algorithm.GetProgress()
        self.values.append((time.perf_counter(), value))
        if self.abort_at is not None and self.abort_time is None and value >= self.abort_at:
            self.abort_time = time.perf_counter()
            self.abort_value = value
            algorithm.SetAbortExecute(1)


def execute(proxy, watch, name=None):
    """Runs `proxy` again from scratch (information pass included: the Pajé
    reader parses there) and returns (start, end) times."""
    if name in BEFORE_RUN:
        BEFORE_RUN[name]()
    watch.values.clear()
    watch.algorithm.Modified()
    proxy.SMProxy.MarkModified(proxy.SMProxy)
    start = time.perf_counter()
    proxy.UpdatePipelineInformation()
    if name in PARTITION_ONLY:
        watch.algorithm.Update(0)
    else:
        proxy.UpdatePipeline()
    return start, time.perf_counter()


# Counters of the work a filter did over its life (the aggregations count
# their quality computations, sweeps and partitions), not of its output.
WORK_COUNTERS = {"QualityComputations", "SweepComputations", "PartitionComputations",
                 "SweepOptimizations"}


def digest(proxy):
    """Sizes and sums of every array of every output: equal outputs, equal digests."""
    import numpy
    from vtkmodules.util.numpy_support import vtk_to_numpy
    algorithm = proxy.GetClientSideObject()
    result = []
    for port in range(algorithm.GetNumberOfOutputPorts()):
        data = algorithm.GetOutputDataObject(port)
        entry = [data.GetClassName() if data is not None else None]
        groups = [] if data is None else \
            [data.GetAttributesAsFieldData(a) for a in (0, 1)] + [data.GetFieldData()]
        for arrays in groups:
            for i in range(arrays.GetNumberOfArrays() if arrays is not None else 0):
                array = arrays.GetAbstractArray(i)
                if array.GetName() in WORK_COUNTERS:
                    continue
                if not array.IsA("vtkDataArray"):  # strings: their count only
                    entry.append((array.GetName(), array.GetNumberOfValues()))
                    continue
                values = vtk_to_numpy(array) if array.GetNumberOfTuples() else numpy.zeros(0)
                entry.append((array.GetName(), array.GetNumberOfTuples(),
                              round(float(numpy.nansum(values.astype(float))), 6)))
        result.append(entry)
    return result


def check_spread(name, watch, start, end):
    values = [v for _, v in watch.values]
    inner = sorted({v for v in values if 0.0 < v < 1.0})
    # Each pass (information, data) starts again from 0; within one, no value
    # may go back.
    mt.check(all(a <= b or b == 0.0 for a, b in zip(values, values[1:])),
             "%s: progress went backwards: %s" % (name, values))
    mt.check(len(inner) >= MIN_VALUES, "%s: %d distinct progress values in (0, 1), at least %d "
             "expected" % (name, len(inner), MIN_VALUES))
    points = [0.0] + inner + [1.0]
    step = max(b - a for a, b in zip(points, points[1:]))
    mt.check(step <= MAX_STEP, "%s: progress jumps by %.2f at once (at most %.2f)"
             % (name, step, MAX_STEP))
    times = [start] + [t for t, _ in watch.values] + [end]
    silence = max(b - a for a, b in zip(times, times[1:]))
    limit = max(MAX_SILENCE * (end - start), MIN_SILENCE)
    mt.check(silence <= limit, "%s: %.2f s without progress in a %.2f s run (at most %.2f s)"
             % (name, silence, end - start, limit))
    return len(inner), step, silence


report = []
for name in sorted(LONG):
    proxy = LONG[name]()
    watch = Watch(proxy)
    start, end = execute(proxy, watch, name)
    seconds = end - start
    values, step, silence = check_spread(name, watch, start, end)
    whole = digest(proxy)

    watch.abort_at = ABORT_AT
    capture = mt.ErrorCapture()
    start, end = execute(proxy, watch, name)
    capture.close()
    mt.check(watch.abort_time is not None, "%s: progress never reached %.1f in the aborted run"
             % (name, ABORT_AT))
    stopped = end - watch.abort_time
    # The bound is for free cores: under a load L above C cores a run gets
    # about C/L of a core, and the bound grows by L/C (as in GUI.Repaint).
    load = os.getloadavg()[0]
    within = ABORT_WITHIN * max(1.0, load / (os.cpu_count() or 1))
    mt.check(stopped <= within, "%s: stopped %.2f s after the abort (at most %.2f s: %.1f s "
             "on free cores, load %.1f on %d cores)"
             % (name, stopped, within, ABORT_WITHIN, load, os.cpu_count() or 1))
    # Stopped means stopped: no value of a run going on (or started again
    # by the pipeline for another output port) after the request.
    # (The observer aborts once: a run started again would go past the value
    # at which the abort was asked.)
    late = [v for t, v in watch.values if t > watch.abort_time and watch.abort_value < v < 1.0]
    mt.check(not late, "%s: progress went on after the abort: %s" % (name, late[:10]))
    mt.check("abort" in capture.text().lower(), "%s: no message says the run was aborted:\n%s"
             % (name, capture.text()))

    watch.abort_at = None
    watch.abort_time = None
    execute(proxy, watch, name)
    again = digest(proxy)
    mt.check(again == whole, "%s: the run after an abort differs from a whole run: %s" % (
        name, [(port, a, b) for port, (a, b) in enumerate(zip(whole, again)) if a != b][:2]))
    report.append("%-32s %5.2f s  %4d values  largest step %.2f  longest silence %.2f s  "
                  "abort heard in %.3f s" % (name, seconds, values, step, silence, stopped))
    Delete(proxy)

for name in sorted(EXEMPT_FAST):
    proxy = EXEMPT_FAST[name]()
    watch = Watch(proxy)
    start, end = execute(proxy, watch)
    mt.check(end - start < 0.5, "%s is exempt as fast but took %.2f s: hold it to the criterion"
             % (name, end - start))
    report.append("%-32s %5.2f s  exempt (fast)" % (name, end - start))

# macroscope.watch_progress, as a pvpython user sees it: printed lines by
# default, a callback's values otherwise, and a callback returning False
# aborts the run.
import contextlib
import io

import macroscope

watched = OTF2TraceReader(FileName=anchor)
printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    with macroscope.watch_progress(watched) as watch:
        watched.UpdatePipeline()
lines = printed.getvalue().splitlines()
mt.check(len(lines) >= 10 and lines[-1] == "OTF2 Trace Reader: 100%",
         "watch_progress printed %d lines, ending %r" % (len(lines), lines[-1:]))
mt.check(len({v for _, v in watch.values if 0.0 < v < 1.0}) >= MIN_VALUES,
         "watch_progress saw %d values" % len(watch.values))
seen = []
with macroscope.watch_progress(watched, callback=lambda f: seen.append(f) or f < ABORT_AT):
    capture = mt.ErrorCapture()
    watched.SMProxy.MarkModified(watched.SMProxy)
    watched.GetClientSideObject().Modified()
    watched.UpdatePipeline()
    capture.close()
mt.check("abort" in capture.text().lower() and max(v for v in seen if v < 1.0) < 0.5,
         "a watch_progress callback returning False did not abort the read (reached %.2f)"
         % max(v for v in seen if v < 1.0))
mt.check(watched.GetDataInformation(0).GetNumberOfRows() == 0, "an aborted read output rows")
watched.SMProxy.MarkModified(watched.SMProxy)
watched.GetClientSideObject().Modified()
watched.UpdatePipeline()
mt.check(watched.GetDataInformation(0).GetNumberOfRows() > 0, "the read after a watched abort is empty")
report.append("watch_progress: %d lines printed, abort from a callback heard" % len(lines))

print("\n".join(report))
for name in sorted(PENDING):
    print("%-32s pending: %s" % (name, PENDING[name]))

# The inputs are large (about 120 MB): remove them once checked.
import shutil

for proxy in list(GetSources().values()):
    Delete(proxy)
shutil.rmtree(trace_dir, ignore_errors=True)
shutil.rmtree(paje_dir, ignore_errors=True)
shutil.rmtree(os.path.join(args.output, "synthetic"), ignore_errors=True)
os.remove(paje_file)
