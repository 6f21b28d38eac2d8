"""pvbatch --symmetric on 2 MPI ranks: the plugin loads on every rank, the
server has 2 partitions, and the pipeline produces the whole hierarchy once
(not once per rank) and renders it."""
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

pm = servermanager.vtkProcessModule.GetProcessModule()
ranks = pm.GetNumberOfLocalPartitions()
rank = pm.GetPartitionId()
mt.check(ranks == 2, "expected 2 MPI ranks, pvbatch runs on %d" % ranks)

mt.load_plugin(args, globals())
trace = SyntheticTrace(OutputDirectory=os.path.join(args.output, "trace"), Clusters=2,
                       NodesPerCluster=2, RanksPerNode=2, ThreadsPerRank=1, Iterations=3)
layout = HierarchyLayout(Input=trace)
layout.UpdatePipeline()
# Rank 0 sees the data information gathered over all ranks: the hierarchy
# must appear exactly once. Other ranks see their own, empty, piece.
points = layout.GetDataInformation().GetNumberOfPoints()
expected = (1 + 2 + 4 + 8 + 8) if rank == 0 else 0
mt.check(points == expected, "rank %d: the layout has %d points, expected %d"
         % (rank, points, expected))

view = CreateView("RenderView")
Show(layout, view)
Render(view)
shot = os.path.join(args.output, "mpi.png")
SaveScreenshot(shot, view, ImageResolution=[400, 300])
if rank == 0:
    mt.check(os.path.getsize(shot) > 0, "no screenshot written on rank 0")
print("rank %d of %d: ok" % (rank, ranks))
