"""The asked partition first: on the demo's sample (64
locations), an aggregation asked for its Partition computes the qualities and
that partition only, not the sweep over every p; fetching the Quality Curves
or the Quality Plot then sweeps once; changing Parameter reuses the qualities
and the sweep. A long aggregation reports at least 20 progress values and an
abort stops it quickly with a clean error, the next run being correct."""
import os
import time

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

# The demo's sample (examples/demo.py): 2 clusters x 4 nodes x 4 ranks x 2
# threads, 3D stencil, node 5 three times slower in [20, 60] ms.
directory = os.path.join(args.output, "trace")
mt.synthesize(args, directory, "--clusters", 2, "--nodes-per-cluster", 4, "--ranks-per-node", 4,
              "--threads-per-rank", 2, "--iterations", 100, "--pattern", "stencil3d",
              "--perturbation", "slow-node", "--perturb-target", 5,
              "--perturb-window", 0.02, 0.06, "--perturb-factor", 3)
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
ports = [OutputPort(reader, i) for i in range(6)]


def counter(table, name):
    array = table.GetFieldData().GetArray(name)
    mt.check(array is not None, "no %s field in the table" % name)
    return array.GetValue(0)


def quality(table):
    array = table.GetFieldData().GetArray("PartitionQuality")
    return array.GetComponent(0, 0), array.GetComponent(0, 1)


# (a) The README's snippet: 200 slices, spatiotemporal, p = 0.6, Partition only.
model = TimeSlicing(Input=ports, Slices=200)
overview = SpatiotemporalAggregation(Input=OutputPort(model, 0), Parameter=0.6)
algorithm = overview.GetClientSideObject()
progress = []
algorithm.AddObserver("ProgressEvent", lambda caller, event: progress.append(caller.GetProgress()))
partition = servermanager.Fetch(overview, idx=0)
mt.check(partition.GetNumberOfRows() > 1, "the partition at p = 0.6 has %d parts" % partition.GetNumberOfRows())
mt.check(counter(partition, "QualityComputations") == 1 and counter(partition, "SweepComputations") == 0,
         "asked for the partition, the filter computed qualities %d times and swept %d times"
         % (counter(partition, "QualityComputations"), counter(partition, "SweepComputations")))
for port in (1, 2):
    rows = algorithm.GetOutputDataObject(port).GetNumberOfRows()
    mt.check(rows == 0, "output %d holds %d rows though only the partition was asked for" % (port, rows))
# A long execution reports progress: at least 20 distinct values in (0, 1).
steps = sorted(set(p for p in progress if 0.0 < p < 1.0))
mt.check(len(steps) >= 20, "only %d progress values for the qualities and one partition" % len(steps))
mt.check(all(a <= b for a, b in zip(progress, progress[1:])), "progress went backwards")

# (b) Moving p: the qualities are reused, still no sweep.
overview.Parameter = 0.5
moved = servermanager.Fetch(overview, idx=0)
mt.check(counter(moved, "QualityComputations") == 1 and counter(moved, "SweepComputations") == 0,
         "changing p recomputed the qualities or swept")
mt.check(moved.GetNumberOfRows() >= partition.GetNumberOfRows(),
         "p = 0.5 gives fewer parts (%d) than p = 0.6 (%d)" % (moved.GetNumberOfRows(), partition.GetNumberOfRows()))

# Abort mid-way (from a progress observer) during the qualities and the
# partition of a fresh filter: a clean error within 0.5 s, nothing output,
# and the next request gives the partition of the filter never aborted.
def modified(proxy):
    """What a user's Apply does after an abort: the filter runs again (an
    aborted run leaves its outputs empty, not to be re-run at the next
    request, which would undo the abort; docs/progress.md)."""
    proxy.GetClientSideObject().Modified()
    proxy.SMProxy.MarkModified(proxy.SMProxy)


fresh = SpatiotemporalAggregation(Input=OutputPort(model, 0), Parameter=0.5)
fresh_algorithm = fresh.GetClientSideObject()
abort = {"at": 0.3, "asked": None, "ended": None}


def abort_observer(caller, event):
    if abort["at"] is not None and caller.GetProgress() >= abort["at"] and abort["asked"] is None:
        abort["asked"] = time.time()
        caller.SetAbortExecute(1)


fresh_algorithm.AddObserver("ProgressEvent", abort_observer)
fresh_algorithm.AddObserver("EndEvent", lambda caller, event: abort.__setitem__("ended", time.time()))
executions = []
fresh_algorithm.AddObserver("StartEvent", lambda caller, event: executions.append(time.time()))
capture = mt.ErrorCapture()
# One request of the Partition, on the VTK filter.
fresh_algorithm.Update(0)
aborted = fresh_algorithm.GetOutputDataObject(0)
capture.close()
mt.check(len(executions) == 1, "%d executions for one request" % len(executions))
mt.check(abort["asked"] is not None, "the abort observer never ran")
mt.check("aborted" in capture.text(), "no message says the aggregation was aborted:\n" + capture.text())
mt.check(aborted.GetNumberOfRows() == 0, "an aborted aggregation output %d parts" % aborted.GetNumberOfRows())
latency = abort["ended"] - abort["asked"]
mt.check(latency <= 0.5, "the aggregation stopped %.2f s after the abort" % latency)
abort["at"] = None
modified(fresh)
again = servermanager.Fetch(fresh, idx=0)
mt.check(mt.table_rows(again) == mt.table_rows(moved) and quality(again) == quality(moved),
         "the run after an abort differs from the filter never aborted")

# (a, continued) The sweep when its outputs are fetched, on a smaller model
# whose sweep takes seconds.
small = TimeSlicing(Input=ports, Slices=24)
curves_filter = SpatiotemporalAggregation(Input=OutputPort(small, 0), Parameter=0.6)
curves_algorithm = curves_filter.GetClientSideObject()
first = servermanager.Fetch(curves_filter, idx=0)
mt.check(counter(first, "SweepComputations") == 0, "the small model's partition swept")
sweep_progress = []
curves_algorithm.AddObserver("ProgressEvent",
                             lambda caller, event: sweep_progress.append(caller.GetProgress()))
curves = servermanager.Fetch(curves_filter, idx=1)
mt.check(curves.GetNumberOfRows() > 20, "the quality curves have %d rows" % curves.GetNumberOfRows())
mt.check(counter(curves, "SweepComputations") == 1, "fetching the curves did not sweep exactly once")
found = counter(curves, "SweepOptimizations")
mt.check(found <= 2 * curves.GetNumberOfRows() + 2,
         "the sweep ran %d DPs for %d partitions" % (found, curves.GetNumberOfRows()))
steps = sorted(set(p for p in sweep_progress if 0.0 < p < 1.0))
mt.check(len(steps) >= 20, "only %d progress values during the sweep" % len(steps))
plot = servermanager.Fetch(curves_filter, idx=2)
mt.check(plot.GetNumberOfRows() == 2 * curves.GetNumberOfRows() + 2, "the quality plot does not match the curves")
mt.check(counter(plot, "SweepComputations") == 1, "fetching the plot after the curves swept again")
again = servermanager.Fetch(curves_filter, idx=1)
mt.check(counter(again, "SweepComputations") == 1, "fetching the curves twice swept twice")

# (b) p moves: qualities and sweep reused; the partition is the curves' one,
# taken from the sweep without a DP when p is inside one of its intervals.
starts = mt.column(curves, "PStart")
dps = counter(servermanager.Fetch(curves_filter, idx=0), "PartitionComputations")
for p in (0.3, 0.75):
    curves_filter.Parameter = p
    moved = servermanager.Fetch(curves_filter, idx=0)
    plot = servermanager.Fetch(curves_filter, idx=2)
    mt.check(counter(moved, "QualityComputations") == 1 and counter(moved, "SweepComputations") == 1 and
             counter(plot, "SweepComputations") == 1, "p = %g recomputed the qualities or the sweep" % p)
    k = max(i for i, s in enumerate(starts) if s <= p)
    gain, loss = quality(moved)
    mt.check(abs(gain - mt.column(curves, "Gain")[k]) < 1e-9 and abs(loss - mt.column(curves, "Loss")[k]) < 1e-9,
             "p = %g: the partition is not the curves' optimum" % p)
    mt.check(mt.column(plot, "p")[-1] == p, "the plot's current p is not %g" % p)
    mt.check(counter(moved, "PartitionComputations") == dps,
             "p = %g ran a DP though the sweep holds its partition" % p)
# Another normalisation sweeps once more, then both are cached.
curves_filter.NormalizeQualities = 0
raw = servermanager.Fetch(curves_filter, idx=1)
mt.check(counter(raw, "SweepComputations") == 2, "raw qualities did not sweep once")
curves_filter.NormalizeQualities = 1
again = servermanager.Fetch(curves_filter, idx=1)
mt.check(counter(again, "SweepComputations") == 2 and mt.table_rows(again) == mt.table_rows(curves),
         "going back to normalised qualities swept again or changed the curves")
# UpdatePipeline() on the proxy updates every output through ParaView's post
# filters, which consume nothing: no sweep; a Fetch of the curves afterwards
# runs the filter again (though the post filter holds an empty copy) and
# sweeps, reusing the qualities and the partition.
whole = SpatiotemporalAggregation(Input=OutputPort(small, 0), Parameter=0.6)
whole.UpdatePipeline()
whole_algorithm = whole.GetClientSideObject()
mt.check(counter(whole_algorithm.GetOutputDataObject(0), "SweepComputations") == 0 and
         whole_algorithm.GetOutputDataObject(1).GetNumberOfRows() == 0,
         "UpdatePipeline() of every output swept")
whole_curves = servermanager.Fetch(whole, idx=1)
mt.check(mt.table_rows(whole_curves) == mt.table_rows(curves), "the curves fetched after UpdatePipeline() differ")
mt.check([counter(whole_algorithm.GetOutputDataObject(0), name) for name in
          ("QualityComputations", "PartitionComputations", "SweepComputations")] == [1, 1, 1],
         "the curves after UpdatePipeline() recomputed the qualities or the partition")

# Abort during the sweep: a clean error, then the next fetch gives the curves.
sweeping = SpatiotemporalAggregation(Input=OutputPort(small, 0), Parameter=0.6)
sweeping_algorithm = sweeping.GetClientSideObject()
servermanager.Fetch(sweeping, idx=0)
abort.update({"at": 0.5, "asked": None, "ended": None})
sweeping_algorithm.AddObserver("ProgressEvent", abort_observer)
sweeping_algorithm.AddObserver("EndEvent", lambda caller, event: abort.__setitem__("ended", time.time()))
capture = mt.ErrorCapture()
# A downstream VTK filter asks for the curves (the post filter ParaView puts
# on every output does not: updating output 1 through it alone would not sweep).
from vtkmodules.vtkFiltersCore import vtkPassThrough
consumer = vtkPassThrough()
consumer.SetInputConnection(sweeping_algorithm.GetOutputPort(1))
consumer.Update()
cut = sweeping_algorithm.GetOutputDataObject(1)
capture.close()
mt.check(abort["asked"] is not None and "aborted" in capture.text(),
         "the sweep was not aborted with a message:\n" + capture.text())
mt.check(cut.GetNumberOfRows() == 0, "an aborted sweep output %d rows" % cut.GetNumberOfRows())
mt.check(abort["ended"] - abort["asked"] <= 0.5,
         "the sweep stopped %.2f s after the abort" % (abort["ended"] - abort["asked"]))
abort["at"] = None
modified(sweeping)
whole_again = servermanager.Fetch(sweeping, idx=1)
mt.check(mt.table_rows(whole_again) == mt.table_rows(curves), "the sweep after an abort differs")
# Hierarchical Aggregation (Triva's): progress in at least 20 steps, abort.
levels = HierarchicalAggregation(Input=OutputPort(model, 0))
levels_algorithm = levels.GetClientSideObject()
levels_progress = []
levels_algorithm.AddObserver("ProgressEvent", lambda caller, event: levels_progress.append(caller.GetProgress()))
tree = servermanager.Fetch(levels)
vertices = tree.GetNumberOfVertices()
mt.check(vertices > 64, "the hierarchy has %d vertices" % vertices)
mt.check(len(set(p for p in levels_progress if 0.0 < p < 1.0)) >= 20,
         "Hierarchical Aggregation reported %d progress values" % len(set(levels_progress)))
levels.Function = "Max"
abort.update({"at": 0.2, "asked": None, "ended": None})
levels_algorithm.AddObserver("ProgressEvent", abort_observer)
capture = mt.ErrorCapture()
levels_algorithm.Update(0)
capture.close()
mt.check("aborted" in capture.text() and levels_algorithm.GetOutputDataObject(0).GetNumberOfVertices() == 0,
         "Hierarchical Aggregation was not aborted cleanly:\n" + capture.text())
abort["at"] = None
modified(levels)
mt.check(servermanager.Fetch(levels).GetNumberOfVertices() == vertices,
         "Hierarchical Aggregation after an abort is not whole")

print("partition first: %d parts at p = 0.6 without a sweep; %d partitions when asked; "
      "%d progress values" % (partition.GetNumberOfRows(), curves.GetNumberOfRows(), len(steps)))
