"""Times the Topology-Time Scene filter on an archive against reading it
(the baseline, in the same run):
pvpython bench_topology.py PLUGIN ANCHOR NETWORK_DOT."""
import sys
import time

from paraview.simple import *

plugin, anchor, network = sys.argv[1], sys.argv[2], sys.argv[3]
LoadPlugin(plugin, remote=False, ns=globals())
reader = OTF2TraceReader(FileName=anchor)
start = time.perf_counter()
reader.UpdatePipeline()
read = time.perf_counter() - start
states = reader.GetDataInformation(0).GetNumberOfRows()
print("states: %d" % states)
print("read_seconds: %.3f" % read)
scene = TopologyTimeScene(Input=[OutputPort(reader, i) for i in (0, 1, 4, 5)], TopologyFile=network)
for base, name in ((0, "communication_pattern"), (1, "network_topology"), (2, "hierarchy_treemap"),
                   (1, "network_topology_again")):
    scene.BaseConfiguration = base
    start = time.perf_counter()
    scene.UpdatePipeline()
    seconds = time.perf_counter() - start
    boxes = scene.GetDataInformation(0).GetNumberOfCells() // 6
    print("%s_seconds: %.3f (boxes %d, ratio to read %.2f)" % (name, seconds, boxes, seconds / read))
scene.BaseConfiguration = 1
rows = reader.GetDataInformation(0).DataInformation.GetRowDataInformation()
t0 = rows.GetArrayInformation("Start").GetComponentRange(0)[0]
t1 = rows.GetArrayInformation("End").GetComponentRange(0)[1]
scene.TimeWindow = [t0 + 0.45 * (t1 - t0), t0 + 0.55 * (t1 - t0)]
start = time.perf_counter()
scene.UpdatePipeline()
seconds = time.perf_counter() - start
print("window_10_percent_seconds: %.3f (boxes %d)" % (seconds, scene.GetDataInformation(0).GetNumberOfCells() // 6))
