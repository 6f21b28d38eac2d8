"""The HierarchyFile property on 2 MPI ranks (pvbatch --symmetric): the
pieces split the archive's locations, then renumber to the regrouped leaves;
the union of the pieces equals the serial regrouped read, every rank holds
the whole regrouped Hierarchy, and Time Slicing's 2-rank model equals the
serial one (digests and model written by TestHierarchyFile.py)."""
import json
import os

import numpy as np

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager
from vtkmodules.util.numpy_support import vtk_to_numpy

pm = servermanager.vtkProcessModule.GetProcessModule()
rank, ranks = pm.GetPartitionId(), pm.GetNumberOfLocalPartitions()
mt.check(ranks == 2, "expected 2 MPI ranks, pvbatch runs on %d" % ranks)
mt.load_plugin(args, globals())

with open(os.path.join(args.output, "..", "hierarchy-file-serial.json")) as f:
    serial = json.load(f)
serial_model = np.array(serial["model"])

reader = OTF2TraceReader(FileName=serial["anchor"], HierarchyFile=serial["hierarchy"])
reader.UpdatePipeline()
local_states = reader.GetDataInformation(0).GetNumberOfRows()

# Every rank holds the whole regrouped hierarchy (its own, not fetched).
tree = reader.GetClientSideObject().GetOutputDataObject(4)
names = tree.GetVertexData().GetAbstractArray("Name")
leaves = tree.GetVertexData().GetAbstractArray("LeafIndex")
mt.check(names.GetValue(0) == "grid" and names.GetValue(1) == "even",
         "rank %d: the Hierarchy is not the regrouped one (%s, %s)" % (rank, names.GetValue(0), names.GetValue(1)))
mt.check(sum(1 for v in range(tree.GetNumberOfVertices()) if leaves.GetValue(v) >= 0) == serial_model.shape[1],
         "rank %d: the Hierarchy does not have every leaf" % rank)

for port, name in enumerate(["States", "Messages", "Events", "Variables"]):
    table = mt.gather_table(reader, port)
    if rank == 0:
        mt.check(mt.table_digest(table) == serial["digests"][port],
                 "%s: the union of the 2 pieces differs from the serial regrouped read" % name)
        print("%s: %d rows, union equals the serial read" % (name, table.GetNumberOfRows()))

slicing = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=12)
slicing.UpdatePipeline()
gathered = mt.gather_points(slicing, 0)
if rank == 0:
    mt.check(0 < local_states, "rank 0 read no states")
    width = slicing.GetClientSideObject().GetOutputDataObject(0).GetSpacing()[0]
    points = gathered.GetNumberOfPoints()
    xyz = np.array([gathered.GetPoint(i) for i in range(points)])
    values = vtk_to_numpy(gathered.GetPointData().GetArray("Value"))
    model = np.full(serial_model.shape, np.nan)
    model[np.rint(xyz[:, 2]).astype(int), np.rint(xyz[:, 1]).astype(int),
          np.rint(xyz[:, 0] / width).astype(int)] = values
    mt.check(not np.isnan(model).any(), "the gathered pieces do not cover the model")
    mt.check(np.allclose(model, serial_model, rtol=1e-12, atol=1e-15),
             "the 2-rank regrouped model differs from the serial one by up to %g"
             % np.abs(model - serial_model).max())
    print("2-rank regrouped model equals the serial one (%d values)" % model.size)
print("rank %d: ok" % rank)
