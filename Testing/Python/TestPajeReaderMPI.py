"""The Pajé reader on 2 MPI ranks (pvbatch --symmetric): every rank parses
the file and keeps a disjoint, contiguous share of the leaves (a link goes
with its receiver), Hierarchy and Types are whole on every rank, and the
union of the pieces equals the serial read (digests written by
TestPajeReader.py). With a window and selections, each piece counts only
its own left-out rows: the counters summed over the ranks equal the serial
read's."""
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

with open(os.path.join(args.output, "..", "paje-serial-digests.json")) as f:
    serial = json.load(f)

reader = PajeTraceReader(FileName=serial["trace"])
reader.UpdatePipeline()

PORTS = ["States", "Messages", "Events", "Variables", "Hierarchy", "Types"]
local = reader.GetDataInformation(0).GetNumberOfRows()
mt.check(0 < local < serial["rows"]["States"],
         "rank %d holds %d of %d states: the leaves are not shared out"
         % (rank, local, serial["rows"]["States"]))
mt.check(reader.GetDataInformation(5).GetNumberOfRows() == serial["rows"]["Types"],
         "rank %d does not hold the whole Types table" % rank)

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
    mt.check(mt.table_digest(table) == serial[name],
             "%s: the union of the 2 pieces differs from the serial read" % name)
    print("%s: %d rows, union equals the serial read" % (name, table.GetNumberOfRows()))
# A window and selections: the pieces' counters add up to the serial ones.
from vtkmodules.vtkCommonCore import vtkTypeInt64Array
from vtkmodules.vtkParallelCore import vtkCommunicator, vtkMultiProcessController

case = serial["case"]
picked = PajeTraceReader(FileName=serial["trace"], TimeWindow=case.get("window", [0.0, 0.0]),
                         Locations=case["leaves"], Regions=case["values"])
picked.UpdatePipeline()
fields = picked.GetClientSideObject().GetOutputDataObject(0).GetFieldData()
names = sorted(serial["counters"])
mine = vtkTypeInt64Array()
for name in names:
    mt.check(fields.GetArray(name) is not None, "rank %d: no %s counter" % (rank, name))
    mine.InsertNextValue(fields.GetArray(name).GetValue(0))
total = vtkTypeInt64Array()
vtkMultiProcessController.GetGlobalController().AllReduce(mine, total, vtkCommunicator.SUM_OP)
summed = {name: total.GetValue(i) for i, name in enumerate(names)}
mt.check(summed == serial["counters"],
         "rank %d: the pieces' counters add up to %s, the serial read's are %s"
         % (rank, summed, serial["counters"]))
mt.check(any(summed.values()), "the case left nothing out: it tests nothing")
print("rank %d: counters %s; summed over the pieces, the serial read's" % (rank, [
    mine.GetValue(i) for i in range(len(names))]))
print("rank %d: ok" % rank)
