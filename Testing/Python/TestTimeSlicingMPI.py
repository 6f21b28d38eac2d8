"""Time Slicing on 2 MPI ranks: each rank slices the locations its reader
piece holds, the pieces' models are summed, and the result equals the
serial model (saved by TestTimeSlicing.py); the aggregation runs on it."""
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

serial = np.load(os.path.join(args.output, "..", "timeslicing-serial.npz"))
reader = OTF2TraceReader(FileName=str(serial["anchor"]))
reader.UpdatePipeline()
local_states = reader.GetDataInformation(0).GetNumberOfRows()
slicing = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=40)
slicing.UpdatePipeline()
# Every rank outputs the extent it is asked for (a share of the model);
# gathered, the pieces are points at (time, resource, type).
local_points = slicing.GetDataInformation(0).GetNumberOfPoints()
mt.check(0 < local_points < serial["model"].size,
         "rank %d holds %d of %d model values: the extent is not shared out"
         % (rank, local_points, serial["model"].size))
gathered = mt.gather_points(slicing, 0)
aggregation = HierarchicalAggregation(Input=OutputPort(slicing, 0))
aggregation.UpdatePipeline()

gathered = mt.gather_points(slicing, 0)
if rank == 0:
    mt.check(0 < local_states, "rank 0 read no states")
    origin, width = 0.0, serial["width"]
    points = gathered.GetNumberOfPoints()
    xyz = np.array([gathered.GetPoint(i) for i in range(points)])
    values = vtk_to_numpy(gathered.GetPointData().GetArray("Value"))
    model = np.full(serial["model"].shape, np.nan)
    t = np.rint((xyz[:, 0] - origin) / width).astype(int)
    model[np.rint(xyz[:, 2]).astype(int), np.rint(xyz[:, 1]).astype(int), t] = values
    mt.check(not np.isnan(model).any(), "the gathered pieces do not cover the model")
    mt.check(np.allclose(model, serial["model"], rtol=1e-12, atol=1e-15),
             "the 2-rank model differs from the serial one by up to %g"
             % np.abs(model - serial["model"]).max())
    tree = aggregation.GetClientSideObject().GetOutputDataObject(0)
    total = vtk_to_numpy(tree.GetVertexData().GetArray("Total"))[0]
    mt.check(abs(total - serial["model"].sum()) < 1e-9, "the aggregated root (%.9f) differs from the model total (%.9f)" % (total, serial["model"].sum()))
    print("2-rank model equals the serial model (%d values)" % model.size)
print("rank %d: ok" % rank)
