"""Resource Treemap on 2 MPI ranks: each reader piece holds half of the
locations, Time Slicing sums them, and the treemap read whole on every rank
gives on rank 0 the tables of the serial run (saved by
TestResourceTreemap.py): a level cut, the optimal cut and its quality
curves, and an animated time step."""
import json
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

pm = servermanager.vtkProcessModule.GetProcessModule()
rank, ranks = pm.GetPartitionId(), pm.GetNumberOfLocalPartitions()
mt.check(ranks == 2, "expected 2 MPI ranks, pvbatch runs on %d" % ranks)
mt.load_plugin(args, globals())

with open(os.path.join(args.output, "..", "treemap-serial.json")) as f:
    serial = json.load(f)
origin, width = serial["origin"], serial["width"]
reader = OTF2TraceReader(FileName=serial["anchor"])
reader.UpdatePipeline()
mt.check(reader.GetDataInformation(0).GetNumberOfRows() > 0, "rank %d read no states" % rank)
slicing = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=16)
treemap = ResourceTreemap(Input=OutputPort(slicing, 0))


def same(name, table, expected):
    """Rows equal to the serial ones, numbers to 1e-9 (the ranks' models are
    summed in another order)."""
    rows = [list(r) for r in mt.table_rows(table)]
    ok = len(rows) == len(expected) and rows
    for got, want in zip(rows, expected):
        for a, b in zip(got, want):
            if isinstance(a, str) or isinstance(b, str):
                ok = ok and a == b
            else:
                a, b = (list(a), list(b)) if isinstance(a, (list, tuple)) else ([a], [b])
                ok = ok and len(a) == len(b) and all(abs(x - y) <= 1e-9 for x, y in zip(a, b))
    mt.check(ok, "%s: rank 0's table (%d rows) differs from the serial one (%d rows)"
             % (name, len(rows), len(expected)))
    print("%s: %d rows equal to the serial run" % (name, len(rows)))


cases = []
treemap.TimeWindow = [origin + 2.5 * width, origin + 9.25 * width]
treemap.Level = 2
cases.append(("level2", servermanager.Fetch(treemap, idx=0)))
treemap.Level = -1
treemap.TimeWindow = [origin + 4 * width, origin + 12 * width]
treemap.Cut = "Optimal (pIC)"
treemap.Parameter = 0.5
cases.append(("optimal", servermanager.Fetch(treemap, idx=0)))
cases.append(("curves", servermanager.Fetch(treemap, idx=1)))
treemap.Cut = "Level"
treemap.AnimateSlices = 1
treemap.UpdatePipelineInformation()
steps = list(treemap.TimestepValues)
mt.check(len(steps) == 16, "rank %d: %d time steps" % (rank, len(steps)))
treemap.UpdatePipeline(steps[5])
cases.append(("step5", servermanager.Fetch(treemap, idx=0)))
if rank == 0:
    for name, table in cases:
        same(name, table, serial[name])
print("rank %d: ok" % rank)
