"""The OTF2 reader on 2 MPI ranks (pvbatch --symmetric): each rank reads a
disjoint share of the locations, messages crossing the shares are matched,
Hierarchy and Types are whole on every rank, and the union of the pieces
equals the serial read (digests written by TestOTF2Reader.py)."""
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

with open(os.path.join(args.output, "..", "otf2-serial-digests.json")) as f:
    serial = json.load(f)

reader = OTF2TraceReader(FileName=serial["anchor"])
reader.UpdatePipeline()

PORTS = ["States", "Messages", "Events", "Variables", "Hierarchy", "Types"]
# Each rank holds its own piece (data information is local in symmetric mode).
local = {name: reader.GetDataInformation(port).GetNumberOfRows()
         for port, name in enumerate(PORTS) if name not in ("Hierarchy", "Types")}
mt.check(0 < local["States"] < serial["rows"]["States"],
         "rank %d holds %d of %d states: the locations are not shared out"
         % (rank, local["States"], serial["rows"]["States"]))
mt.check(reader.GetDataInformation(5).GetNumberOfRows() == serial["rows"]["Types"],
         "rank %d does not hold the whole Types table" % rank)

# Every rank's own piece: a disjoint share of the locations, whole tables of
# types and hierarchy. Fetch gathers each port's pieces on rank 0.
for port, name in enumerate(PORTS):
    if name == "Hierarchy":
        continue
    table = mt.gather_table(reader, port)
    if rank != 0:
        continue
    if name == "Types":
        mt.check(table.GetNumberOfRows() == ranks * serial["rows"]["Types"],
                 "Types: every rank must hold the whole table (%d rows gathered)" % table.GetNumberOfRows())
        continue
    digest = mt.table_digest(table)
    mt.check(digest == serial[name], "%s: the union of the 2 pieces differs from the serial read" % name)
    print("%s: %d rows, union equals the serial read" % (name, table.GetNumberOfRows()))

field = servermanager.Fetch(reader, idx=0).GetFieldData()
if rank == 0:
    print("rank 0 report:", field.GetAbstractArray("ReadReport").GetValue(0).splitlines()[0])
print("rank %d: ok" % rank)
