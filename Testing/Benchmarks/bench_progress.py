"""Progress inventory of every Macroscope algorithm (bench_progress.sh):
    pvpython bench_progress.py PLUGIN TRACE.otf2 TRACE.paje WORKDIR"""
import os
import shutil
import sys
import time

from paraview.simple import *  # noqa: F401,F403

plugin, anchor, paje, work = sys.argv[1:5]
LoadPlugin(plugin, remote=False, ns=globals())


def probe(label, proxy, before=None):
    """Runs `proxy` from scratch (information pass included) and prints its figures."""
    algorithm = proxy.GetClientSideObject()
    values = []
    tag = algorithm.AddObserver("ProgressEvent",
                                lambda caller, event: values.append((time.perf_counter(), caller.GetProgress())))
    if before:
        before()
    algorithm.Modified()
    proxy.SMProxy.MarkModified(proxy.SMProxy)
    start = time.perf_counter()
    proxy.UpdatePipelineInformation()
    proxy.UpdatePipeline()
    end = time.perf_counter()
    algorithm.RemoveObserver(tag)
    inner = sorted({v for _, v in values if 0.0 < v < 1.0})
    points = [0.0] + inner + [1.0]
    times = [start] + [t for t, _ in values] + [end]
    print("| %s | %.2f | %d | %.2f | %.2f |" % (
        label, end - start, len(inner), max(b - a for a, b in zip(points, points[1:])),
        max(b - a for a, b in zip(times, times[1:]))), flush=True)


def touch_paje():
    with open(paje, "a") as f:
        f.write("# run\n")  # a changed file is parsed again


print("| algorithm | seconds | distinct values in (0, 1) | largest step | longest silence (s) |")
print("| --- | --- | --- | --- | --- |")
reader = OTF2TraceReader(FileName=anchor)
probe("OTF2 Trace Reader", reader)
ports = [OutputPort(reader, i) for i in range(6)]
probe("Paje Trace Reader", PajeTraceReader(FileName=paje), touch_paje)
streamed = StreamedTimeSlicing(FileName=anchor, Slices=200, UseModelCache=0)
probe("Streamed Time Slicing (200 slices)", streamed)
slicing = TimeSlicing(Input=ports, Slices=200)
probe("Time Slicing (200 slices)", slicing)
probe("Time Slicing (10,000 slices)", TimeSlicing(Input=ports, Slices=10000))
probe("Trace Statistics", TraceStatistics(Input=ports))
probe("Active Producers", ActiveProducers(Input=ports))
probe("Timeline Layout", TimelineLayout(Input=ports))
probe("Topology-Time Scene", TopologyTimeScene(Input=[ports[i] for i in (0, 1, 4, 5)]))
logical = LogicalTime(Input=ports)
probe("Logical Time", logical)
logical_ports = [OutputPort(logical, i) for i in (0, 1, 2, 3, 4, 5, 8)]
probe("Logical Timeline Layout", LogicalTimelineLayout(Input=logical_ports))
probe("Clustered Timeline Layout", ClusteredTimelineLayout(Input=logical_ports))
probe("Metric Overview Layout", MetricOverviewLayout(Input=logical_ports))
model = OutputPort(slicing, 0)
probe("Model Difference", ModelDifference(Input=model, Other=OutputPort(streamed, 0)))
treemap = ResourceTreemap(Input=model, Sizes=model)
probe("Resource Treemap", treemap)
probe("Treemap Layout", TreemapLayout(Input=treemap))
probe("Hierarchy Layout", HierarchyLayout(Input=ports[4]))
# The source reuses an archive written with the same parameters: remove it
# so that the probe times a real synthesis.
shutil.rmtree(os.path.join(work, "synthetic"), ignore_errors=True)
probe("Synthetic Trace (20,000 iterations)", SyntheticTrace(
    OutputDirectory=os.path.join(work, "synthetic"), Iterations=20000))
# The aggregations on the inputs Python.Progress holds them on: a model of
# 10,000 slices, of 60 for the spatiotemporal one (quadratic in slices).
fine = OutputPort(TimeSlicing(Input=ports, Slices=10000), 0)
coarse = OutputPort(TimeSlicing(Input=ports, Slices=60), 0)
temporal = TemporalAggregation(Input=fine)
probe("Temporal Aggregation (10,000 slices)", temporal)
probe("Temporal Overview Layout", TemporalOverviewLayout(Input=temporal))
probe("Spatial Aggregation (10,000 slices)", SpatialAggregation(Input=fine))
probe("Hierarchical Aggregation (10,000 slices)", HierarchicalAggregation(Input=fine))
spatiotemporal = SpatiotemporalAggregation(Input=coarse)
probe("Spatiotemporal Aggregation (60 slices)", spatiotemporal)
probe("Difference Summary", DifferenceSummary(Input=spatiotemporal))
probe("Spatiotemporal Overview Layout", SpatiotemporalOverviewLayout(Input=spatiotemporal))
