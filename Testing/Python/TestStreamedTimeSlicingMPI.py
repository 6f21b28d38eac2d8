"""Streamed Time Slicing on 2 MPI ranks: each rank reads a disjoint share
of the locations (their counts add up to the serial read's), the partial
models are summed, and the result equals the serial model (saved by
TestStreamedTimeSlicing.py); rank 0 alone writes the model cache, and a
second source on both ranks rebuilds from it without reading the trace."""
import os
import shutil

import numpy as np

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkCommonCore import vtkIntArray
from vtkmodules.vtkParallelCore import vtkMultiProcessController

pm = servermanager.vtkProcessModule.GetProcessModule()
rank, ranks = pm.GetPartitionId(), pm.GetNumberOfLocalPartitions()
mt.check(ranks == 2, "expected 2 MPI ranks, pvbatch runs on %d" % ranks)
mt.load_plugin(args, globals())
controller = vtkMultiProcessController.GetGlobalController()

serial = np.load(os.path.join(args.output, "..", "streamed-serial.npz"))
anchor = os.path.join(args.output, "..", "Python.StreamedTimeSlicing", "mpi-trace", "traces.otf2")
cache_dir = os.path.join(args.output, "cache")
if rank == 0:
    shutil.rmtree(cache_dir, ignore_errors=True)
controller.Barrier()


def info(source, name):
    source.UpdatePropertyInformation()
    return source.GetProperty(name).GetElement(0)


def all_ranks(value):
    """Every rank's integer, on every rank."""
    mine, every = vtkIntArray(), vtkIntArray()
    mine.InsertNextValue(int(value))
    controller.AllGather(mine, every)
    return [every.GetValue(i) for i in range(every.GetNumberOfValues())]


def gathered_model(source, shape):
    """The whole model on rank 0 (None elsewhere), of the serial model's shape."""
    model = mt.gather_model(source, shape[2])[0]
    if rank == 0:
        mt.check(model.shape == shape, "the model is %s, serially %s" % (model.shape, shape))
    return model


settings = [dict(Metric="State duration", Slices=40),
            dict(Metric="Bytes sent per second", Slices=25),
            dict(Metric="Event count", Slices=50, ResourceLevel=3)]
for i, setting in enumerate(settings):
    streamed = StreamedTimeSlicing(FileName=anchor, UseModelCache=0, **setting)
    streamed.UpdatePipeline()
    read = all_ranks(info(streamed, "LocationsRead"))
    total = int(serial["read%d" % i])
    mt.check(all(count > 0 for count in read), "%s: a rank read no location: %s" % (setting, read))
    mt.check(sum(read) == total, "%s: the ranks read %s locations, the serial read %d: the "
             "shares overlap or miss some" % (setting, read, total))
    expected = serial["model%d" % i]
    model = gathered_model(streamed, expected.shape)
    if rank == 0:
        mt.check(np.allclose(model, expected, rtol=1e-12,
                             atol=1e-12 * max(1.0, np.abs(expected).max())),
                 "%s: the 2-rank model differs from the serial one by %g" % (
                     setting, np.abs(model - expected).max()))
        print("%s: the ranks read %s of %d locations; the model equals the serial one"
              % (setting, read, total))
    Delete(streamed)

# The cache: written once (rank 0), then used by both ranks.
first = StreamedTimeSlicing(FileName=anchor, Slices=20, CacheDirectory=cache_dir)
first.UpdatePipeline()
reads = all_ranks(info(first, "NumberOfTraceReads"))
cache_file = info(first, "CacheFile")
mt.check(reads == [1, 1], "the first read was not made once on each rank: %s" % reads)
controller.Barrier()
mt.check(os.path.isfile(cache_file), "rank %d: no cache at %s" % (rank, cache_file))
second = StreamedTimeSlicing(FileName=anchor, Slices=10, CacheDirectory=cache_dir)
second.UpdatePipeline()
reads = all_ranks(info(second, "NumberOfTraceReads"))
mt.check(reads == [0, 0], "a rank read the trace despite the cache: %s" % reads)
origin = info(second, "ModelOrigin")
mt.check(origin == "cache", "rank %d: the model came from %r, not the cache" % (rank, origin))
expected = serial["model3"]
cached = gathered_model(second, expected.shape)
if rank == 0:
    mt.check(np.allclose(cached, expected, rtol=1e-9, atol=1e-12),
             "the model rebuilt from the cache on 2 ranks differs from the serial one by %g"
             % np.abs(cached - expected).max())
    print("cache written by rank 0, rebuilt on both ranks without reading")
print("rank %d: ok" % rank)
