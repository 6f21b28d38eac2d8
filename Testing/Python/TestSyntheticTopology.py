"""The Synthetic Trace source's WriteTopology writes topology.dot and
network.dot beside the archive, and the network's hosts are exactly the
nodes of the platform tree the source outputs (so the 3D scene can place
the trace's processes on them); turning it off removes both files."""
import os
import shutil
import re

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *

mt.load_plugin(args, globals())

out = os.path.join(args.output, "trace")
shutil.rmtree(out, ignore_errors=True)  # the source reuses an archive left by a previous run
network_file = os.path.join(out, "network.dot")
topology_file = os.path.join(out, "topology.dot")
trace = SyntheticTrace(OutputDirectory=out, Clusters=3, NodesPerCluster=2, RanksPerNode=1,
                       ThreadsPerRank=1, Iterations=2, Perturbation="Slow node",
                       PerturbationTarget=4)
trace.UpdatePipeline()
mt.check(not os.path.exists(network_file) and not os.path.exists(topology_file),
         "WriteTopology is off by default, yet GraphViz files were written")

trace.WriteTopology = 1
trace.UpdatePipeline()
mt.check(os.path.isfile(topology_file), "WriteTopology did not write topology.dot")
mt.check(os.path.isfile(network_file), "WriteTopology did not write network.dot")

# The platform tree: its "node" vertices and which of them are perturbed.
tree = servermanager.Fetch(trace)
vertices = tree.GetVertexData()
names, kinds = vertices.GetAbstractArray("Name"), vertices.GetAbstractArray("Kind")
perturbed = vertices.GetAbstractArray("Perturbed")
nodes, hot_nodes = set(), set()
for v in range(tree.GetNumberOfVertices()):
    if kinds.GetValue(v) == "node":
        nodes.add(names.GetValue(v))
        if perturbed.GetValue(v):
            hot_nodes.add(names.GetValue(v))
mt.check(len(nodes) == 6 and hot_nodes == {"node-4"},
         "unexpected platform tree: nodes %s, perturbed %s" % (sorted(nodes), sorted(hot_nodes)))

with open(network_file) as f:
    dot = f.read()
mt.check(dot.startswith("graph network {"), "network.dot is not an undirected graph")
statements = re.findall(r'^\s*"([^"]+)" \[kind="(host|switch)"([^\]]*)\]', dot, re.M)
hosts = {name for name, kind, _ in statements if kind == "host"}
switches = {name for name, kind, _ in statements if kind == "switch"}
hot_hosts = {name for name, kind, rest in statements if kind == "host" and 'perturbed="1"' in rest}
mt.check(hosts == nodes, "network.dot hosts %s != tree nodes %s" % (sorted(hosts), sorted(nodes)))
mt.check(switches == {"core-switch", "switch-0", "switch-1", "switch-2"},
         "network.dot switches: %s" % sorted(switches))
mt.check(hot_hosts == hot_nodes, "perturbed hosts %s != perturbed nodes %s"
         % (sorted(hot_hosts), sorted(hot_nodes)))
links = re.findall(r'^\s*"([^"]+)" -- "([^"]+)" \[bandwidth="([^"]+)" latency="([^"]+)"', dot, re.M)
mt.check(len(links) == 6 + 3, "network.dot has %d links, expected 9" % len(links))
for a, b, bandwidth, latency in links:
    # The source keeps the synthesizer's default network model (10 GB/s, 2 us);
    # uplinks carry both hosts of a cluster.
    expected = 2 * 1e10 if a == "core-switch" else 1e10
    mt.check(float(bandwidth) == expected and float(latency) == 2e-6,
             "link %s -- %s: bandwidth %s latency %s" % (a, b, bandwidth, latency))

# Off again: the archive of the same parameters is reused and nothing on
# disk changes (the GraphViz files still describe it; removing them would be
# writing what nobody asked for, docs/synthesizer.md).
times = [os.stat(f).st_mtime_ns for f in (network_file, topology_file)]
trace.WriteTopology = 0
trace.UpdatePipeline()
mt.check([os.stat(f).st_mtime_ns for f in (network_file, topology_file)] == times,
         "turning WriteTopology off touched the GraphViz files")
print("ok: %d hosts, %d switches, %d links" % (len(hosts), len(switches), len(links)))
