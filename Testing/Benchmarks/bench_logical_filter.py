"""Times the Logical Time filter on an archive against reading it (the
baseline, in the same run): pvpython bench_logical_filter.py PLUGIN ANCHOR."""
import sys
import time

from paraview.simple import *
from paraview import servermanager

plugin, anchor = sys.argv[1], sys.argv[2]
LoadPlugin(plugin, remote=False, ns=globals())
reader = OTF2TraceReader(FileName=anchor)
start = time.perf_counter()
reader.UpdatePipeline()
read = time.perf_counter() - start
states = reader.GetDataInformation(0).GetNumberOfRows()
logical = LogicalTime(Input=[OutputPort(reader, i) for i in range(6)])
start = time.perf_counter()
logical.UpdatePipeline()
build = time.perf_counter() - start
events = logical.GetDataInformation(0).GetNumberOfRows()
logical.Metric = "Differential Lateness"
start = time.perf_counter()
logical.UpdatePipeline()
recluster = time.perf_counter() - start
print("states: %d" % states)
print("logical_events: %d" % events)
print("read_seconds: %.3f" % read)
print("logical_time_seconds: %.3f" % build)
print("ratio_to_read: %.2f" % (build / read))
print("metric_change_seconds: %.3f" % recluster)
