"""Trace Statistics on 2 MPI ranks (pvbatch --symmetric): each rank counts
the locations of its reader piece, the counts are reduced, and piece 0
holds tables equal to a brute-force recount of the whole trace (the union
of the reader's pieces, gathered on rank 0); the other rank's are empty."""
import os

import macroscope_testing as mt
import statistics_brute_force as bf

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

pm = servermanager.vtkProcessModule.GetProcessModule()
rank, ranks = pm.GetPartitionId(), pm.GetNumberOfLocalPartitions()
mt.check(ranks == 2, "expected 2 MPI ranks, pvbatch runs on %d" % ranks)
mt.load_plugin(args, globals())

directory = os.path.join(args.output, "trace")
if rank == 0:
    mt.synthesize(args, directory, "--iterations", 8, "--pattern", "tree", "--clusters", 2,
                  "--nodes-per-cluster", 2, "--ranks-per-node", 2, "--threads-per-rank", 2)
pm.GetGlobalController().Barrier()

reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
ports = [OutputPort(reader, i) for i in range(6)]
reader.UpdatePipeline()
span = reader.GetProperty("TimeBounds")[1]
local_states = reader.GetDataInformation(0).GetNumberOfRows()
# The whole trace, for the brute force: the union of the pieces on rank 0.
tables = [mt.gather_table(reader, port) for port in range(4)]
local = reader.GetClientSideObject()
hierarchy, types = local.GetOutputDataObject(4), local.GetOutputDataObject(5)


def local_outputs(proxy):
    proxy.UpdatePipeline()
    algorithm = proxy.GetClientSideObject()
    return [algorithm.GetOutputDataObject(i) for i in range(3)]


def check(proxy, begin, end, closed, bins, level, what):
    outputs = local_outputs(proxy)
    if rank == 0:
        trace = bf.Trace(*(tables + [hierarchy, types]))
        bf.check_tables(*outputs, bf.expected(trace, begin, end, closed, bins, level), what)
        mt.check(bf.field(outputs[0], "TotalStates") > local_states or begin > 0,
                 "%s: rank 0 counted only its own piece" % what)
        print("%s: the 2-rank tables equal the brute force of the whole trace" % what)
    else:
        mt.check(all(table.GetNumberOfRows() == 0 for table in outputs),
                 "%s: rank %d holds rows; piece 0 alone should" % (what, rank))


mt.check(0 < local_states, "rank %d read no states" % rank)
statistics = TraceStatistics(Input=ports, Bins=50)
check(statistics, 0.0, span, True, 50, -1, "whole trace")
if rank == 0:
    whole = tables[0].GetNumberOfRows()
    mt.check(local_states < whole, "rank 0 holds all %d states: the locations are not shared out" % whole)
statistics.TimeWindow = [0.25 * span, 0.6 * span]
statistics.Level = 3
check(statistics, 0.25 * span, 0.6 * span, False, 50, 3, "window, processes")
print("rank %d: ok" % rank)
