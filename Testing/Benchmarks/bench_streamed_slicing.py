"""Driver of bench_streamed_slicing.sh, run by pvbatch (alone or on MPI
ranks): times Streamed Time Slicing's UpdatePipeline on a trace and prints,
on rank 0, one line of key=value fields.

    pvbatch [--symmetric] bench_streamed_slicing.py PLUGIN ANCHOR SLICES CACHE_DIR
CACHE_DIR "-" reads the trace without the cache; otherwise the model is
built from (and the cache written to) CACHE_DIR."""
import sys
import time

from paraview.simple import LoadPlugin
from paraview import servermanager

plugin, anchor, slices, cache_dir = sys.argv[1:5]
LoadPlugin(plugin, remote=False, ns=globals())
pm = servermanager.vtkProcessModule.GetProcessModule()
rank, ranks = pm.GetPartitionId(), pm.GetNumberOfLocalPartitions()

settings = dict(FileName=anchor, Slices=int(slices))
if cache_dir == "-":
    settings["UseModelCache"] = 0
else:
    settings["CacheDirectory"] = cache_dir
source = StreamedTimeSlicing(**settings)  # noqa: F821 (defined by LoadPlugin)
source.UpdatePipelineInformation()
start = time.perf_counter()
source.UpdatePipeline()
elapsed = time.perf_counter() - start
source.UpdatePropertyInformation()
info = source.GetDataInformation(0)
if rank == 0:
    extent = info.GetExtent()
    print("ranks=%d seconds=%.3f origin=%s reads=%d locations_read=%d model=%dx%dx%d" % (
        ranks, elapsed, source.GetProperty("ModelOrigin").GetElement(0),
        source.GetProperty("NumberOfTraceReads").GetElement(0),
        source.GetProperty("LocationsRead").GetElement(0),
        extent[1] + 1, extent[3] + 1, extent[5] + 1))
    sys.stdout.flush()
