"""Time Slicing of a Pajé trace, serially and on 2 MPI ranks.

Serially (pvpython) the test synthesizes a run with a slow node as a Pajé
trace, slices it with every metric whose rows a Pajé trace has, aggregates
the state-duration model in time, and saves the models and the Partition
rows (paje-slicing-serial.npz beside its output directory). On 2 ranks
(pvbatch --symmetric) every rank reads its share of the leaves (checked
disjoint and covering the hierarchy), Time Slicing sums the ranks' partial
models, and the gathered models must equal the serial ones value for value;
the Temporal Aggregation runs on rank 0 only and its Partition equals the
serial one."""
import os

import numpy as np

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager
from vtkmodules.util.numpy_support import vtk_to_numpy

controller = servermanager.vtkProcessModule.GetProcessModule().GetGlobalController()
rank, ranks = controller.GetLocalProcessId(), controller.GetNumberOfProcesses()
mt.check(ranks in (1, 2), "run serially or on 2 ranks, not %d" % ranks)
mt.load_plugin(args, globals())

SLICES = 40
# (name, Metric): state duration, event count, variable mean, messages sent
# (sender's resource: the ranks' models add up although a message lives on
# its receiver's piece), bytes received per second.
METRICS = [("states", 0), ("events", 1), ("variables", 2), ("sent", 5), ("received", 4)]
saved = os.path.join(args.output, "..", "paje-slicing-serial.npz")


def model_of(slicing):
    """The model [type, resource, slice] from the pieces of every rank."""
    return mt.gather_model(slicing, SLICES)[0]


if ranks == 1:
    directory = os.path.join(args.output, "trace")
    trace = os.path.join(directory, "run.paje")
    mt.synthesize(args, directory, "--clusters", 2, "--nodes-per-cluster", 2,
                  "--ranks-per-node", 2, "--threads-per-rank", 2, "--iterations", 80,
                  "--perturbation", "slow-node", "--perturb-target", 1,
                  "--perturb-window", 0.02, 0.05, "--paje", trace)
else:
    mt.check(os.path.isfile(saved), "no serial results (%s): run Python.PajeTimeSlicing first"
             % saved)
    serial = np.load(saved)
    trace = str(serial["trace"])

reader = PajeTraceReader(FileName=trace)
reader.UpdatePipeline()
ports = [OutputPort(reader, i) for i in range(6)]
leaves = vtk_to_numpy(servermanager.Fetch(reader, idx=4).GetVertexData().GetArray("LeafIndex"))
leaves = sorted(int(v) for v in leaves if v >= 0)

# Each rank's locations, from its own States piece, exchanged between ranks.
local = reader.GetDataInformation(0).GetNumberOfRows()
if ranks == 2:
    mine = sorted(set(vtk_to_numpy(
        reader.GetClientSideObject().GetOutputDataObject(0).GetColumnByName("Location")).tolist()))
    mt.check(mine, "rank %d read no location" % rank)
    from vtkmodules.vtkCommonCore import vtkIntArray
    sent = vtkIntArray()
    for location in mine:
        sent.InsertNextValue(location)
    everyone = vtkIntArray()
    controller.AllGatherV(sent, everyone)
    union = vtk_to_numpy(everyone).tolist()
    mt.check(len(union) == len(set(union)), "rank %d: the ranks' location sets overlap" % rank)
    mt.check(sorted(union) == leaves, "rank %d: the ranks' locations do not cover the %d leaves"
             % (rank, len(leaves)))
    print("rank %d read %d of the %d locations (%d state rows)" % (rank, len(mine), len(leaves), local))

models = {}
for name, metric in METRICS:
    slicing = TimeSlicing(Input=ports, Slices=SLICES, Metric=metric)
    slicing.UpdatePipeline()
    models[name] = model_of(slicing)
    if name == "states":
        aggregation = TemporalAggregation(Input=OutputPort(slicing, 0), Parameter=0.4)
        aggregation.UpdatePipeline()
        partition = mt.gather_table(aggregation, 0)
        rows_here = aggregation.GetClientSideObject().GetOutputDataObject(0).GetNumberOfRows()
        if ranks == 2 and rank == 1:
            mt.check(rows_here == 0, "rank 1 holds %d Partition rows: the aggregation ran there"
                     % rows_here)
        partition_rows = mt.table_rows(partition)
    else:
        Delete(slicing)

def check_on_root():
    for name, model in models.items():
        mt.check(model.sum() > 0, "the %s model is empty" % name)
        mt.check(model.shape[1] == len(leaves), "the %s model has %d resources for %d leaves"
                 % (name, model.shape[1], len(leaves)))
    if ranks == 1:
        np.savez(saved, trace=trace, partition=np.array(repr(partition_rows)),
                 **{"model_" + name: model for name, model in models.items()})
        print("serial models saved: %s" % ", ".join("%s %s" % (n, m.shape) for n, m in models.items()))
    else:
        for name, model in models.items():
            reference = serial["model_" + name]
            mt.check(model.shape == reference.shape, "%s: model %s, serially %s"
                     % (name, model.shape, reference.shape))
            # A cell's value comes from the one rank that read its resource,
            # except messages sent, where two ranks add integer counts: exact
            # either way; the tolerance only covers the order of the sums.
            mt.check(np.allclose(model, reference, rtol=1e-12, atol=0.0),
                     "%s: the 2-rank model differs from the serial one by up to %g"
                     % (name, np.abs(model - reference).max()))
            print("%s: the 2-rank model %s equals the serial one" % (name, model.shape))
        mt.check(repr(partition_rows) == str(serial["partition"]),
                 "the 2-rank temporal Partition (%d rows, gathered over the ranks) differs from the "
                 "serial one" % len(partition_rows))
        print("temporal Partition: %d rows, on rank 0 only, equal to the serial one" % len(partition_rows))


if rank == 0:
    check_on_root()
print("rank %d: ok" % rank)
