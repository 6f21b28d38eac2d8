"""Logical Time on 2 MPI ranks: each reader piece holds half of the
locations; the filter gathers them on rank 0, whose tables must equal the
serial run's (saved by TestLogicalTime.py), while rank 1's are empty."""
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

with open(os.path.join(args.output, "..", "logical-serial.json")) as f:
    serial = json.load(f)
reader = OTF2TraceReader(FileName=serial["anchor"])
reader.UpdatePipeline()
states = reader.GetDataInformation(0).GetNumberOfRows()
lt = LogicalTime(Input=[OutputPort(reader, i) for i in range(6)], Clusters=2)
lt.UpdatePipeline()
# Fetch is collective in symmetric mode: every rank asks for every port.
for port, digest in sorted(serial["digests"].items()):
    output = servermanager.Fetch(lt, idx=int(port))
    if rank == 0:
        for name in ("State", "Message"):  # input row numbers: see TestLogicalTime.py
            output.RemoveColumnByName(name)
        got = mt.table_digest(output)
        mt.check(got == digest, "port %s: rank 0's table (%d rows) differs from the serial run's"
                 % (port, output.GetNumberOfRows()))
        print("port %s: %d rows equal to the serial run" % (port, output.GetNumberOfRows()))
local = lt.GetClientSideObject().GetOutputDataObject(0)
if rank == 1:
    mt.check(local.GetNumberOfRows() == 0, "rank 1 holds %d logical events" % local.GetNumberOfRows())
mt.check(states > 0, "rank %d read no states" % rank)
