"""Apply computes the asked partition only: the sweep over every p
(outputs 1 Quality Curves and 2 Quality Plot of the aggregation filters) runs
only when something consumes those outputs.

On the demo's sample (64 locations, 40 slices), a Spatiotemporal Aggregation:
(a) UpdatePipeline() of the proxy (every output, as the GUI's Apply and
    pvpython do) computes the qualities and one partition, no sweep;
(b) showing every output in its preferred view as Apply does
    (ParaViewPipelineController.ShowInPreferredView) shows the Partition in
    the Render View and opens no view for the curves: still no sweep;
(c) the Quality Plot shown in a Line Chart View and rendered sweeps once,
    and the curves are there; moving p afterwards reuses qualities and sweep;
(d) Fetch(idx=2) of a filter whose outputs were all updated before (so that
    ParaView's post filter already holds an empty copy) sweeps and gives the
    curves, and so does Fetch(idx=1) of a filter never updated;
(e) the qualities are computed once per filter throughout, the partition
    once per p;
(f) the three aggregation proxies hint no view for outputs 1 and 2 (their
    pipeline icons stay the spreadsheet and the chart).

With --port, the same runs against a pvserver (RunClientServer.py starts one
on 2 MPI ranks): the ranks stay in step (a rank executing alone would wait
for the other in Time Slicing's collectives, and the test would time out)."""
import argparse
import builtins

import macroscope_testing as mt

args = mt.parse_args()
server = argparse.ArgumentParser()
server.add_argument("--port", type=int, default=0)
server = server.parse_known_args()[0].port

from paraview.simple import *
from paraview import servermanager

if server:
    Connect("localhost", server)
mt.load_plugin(args, globals())
import os

directory = os.path.join(args.output, "trace")
mt.synthesize(args, directory, "--clusters", 2, "--nodes-per-cluster", 4, "--ranks-per-node", 4,
              "--threads-per-rank", 2, "--iterations", 100, "--pattern", "stencil3d",
              "--perturbation", "slow-node", "--perturb-target", 5,
              "--perturb-window", 0.02, 0.06, "--perturb-factor", 3)
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
model = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=40)


# (In the builtin session a ProgrammableFilter imports numpy's and VTK's all,
# any, abs... into __main__: the builtins are named explicitly.)
# The filter's counters as its own output 0 holds them now (the copies its
# consumers hold may be older): a ProgrammableFilter on output 0 reaches the
# filter itself, behind ParaView's post filter, on every rank, and gives one
# row per rank: the rank, the rows of the filter's Partition there (piece 0
# holds the table: the other ranks compute nothing), the counters (-1 where
# absent).
COUNTERS = ("QualityComputations", "PartitionComputations", "SweepComputations")
COUNTERS_SCRIPT = """
from vtkmodules.vtkCommonCore import vtkIntArray
from vtkmodules.vtkParallelCore import vtkMultiProcessController
producer = self.GetInputAlgorithm()
if producer.IsA("vtkPVPostFilter"):
    producer = producer.GetInputAlgorithm()
partition = producer.GetOutputDataObject(0)
controller = vtkMultiProcessController.GetGlobalController()
row = [("Rank", controller.GetLocalProcessId() if controller else 0),
       ("Rows", partition.GetNumberOfRows())]
for name in %r:
    array = partition.GetFieldData().GetArray(name)
    row.append((name, array.GetValue(0) if array is not None else -1))
for name, value in row:
    column = vtkIntArray()
    column.SetName(name)
    column.InsertNextValue(value)
    self.GetTableOutput().AddColumn(column)
""" % (COUNTERS,)


def counters(proxy):
    """QualityComputations, PartitionComputations, SweepComputations of the
    filter (reading them does not run it); checks that only piece 0 holds
    the Partition."""
    reader = ProgrammableFilter(Input=OutputPort(proxy, 0), OutputDataSetType="vtkTable",
                                Script=COUNTERS_SCRIPT)
    table = mt.gather_table(reader, 0)
    Delete(reader)
    ranks, rows = mt.column(table, "Rank"), mt.column(table, "Rows")
    mt.check(0 in ranks, "no counters from rank 0: %s" % ranks)
    root = ranks.index(0)
    others = [(r, n) for r, n in zip(ranks, rows) if r != 0]
    mt.check(rows[root] > 0 and builtins.all(n == 0 for r, n in others),
             "Partition rows per rank: %s (piece 0 alone must hold them)" % list(zip(ranks, rows)))
    RANKS_SEEN.update(ranks)
    return [mt.column(table, name)[root] for name in COUNTERS]


RANKS_SEEN = set()


def views():
    return sorted(v.GetXMLName() for v in GetViews())


# (a) UpdatePipeline of every output.
aggregation = SpatiotemporalAggregation(Input=OutputPort(model, 0), Parameter=0.6)
aggregation.UpdatePipeline()
mt.check(counters(aggregation) == [1, 1, 0],
         "UpdatePipeline() of every output: qualities, partitions, sweeps = %s, not [1, 1, 0]"
         % counters(aggregation))
for port in (1, 2):
    rows = aggregation.GetDataInformation(port).GetNumberOfRows()
    mt.check(rows == 0, "output %d holds %d rows after UpdatePipeline()" % (port, rows))
mt.check(aggregation.GetDataInformation(0).GetNumberOfRows() > 1, "the Partition is empty")

# (b) Apply's display step: each output to its preferred view. The
# Partition's is the Macroscope Chart View (docs/views.md), the view a
# Timeline of the trace is in when the user applies.
render_view = CreateView("MacroscopeChartView")
before = views()
controller = servermanager.ParaViewPipelineController()
shown = [controller.ShowInPreferredView(aggregation.SMProxy, port, render_view.SMProxy) for port in range(3)]
Render(render_view)
mt.check(shown[0] is not None and shown[0].GetGlobalID() == render_view.GetGlobalID(),
         "the Partition was not shown in the active Macroscope Chart View")
mt.check(shown[1] is None and shown[2] is None and views() == before,
         "Apply opened views for the curves: %s -> %s" % (before, views()))
mt.check(counters(aggregation) == [1, 1, 0], "Apply's display step swept: %s" % counters(aggregation))
overview = GetDisplayProperties(OutputPort(aggregation, 0), render_view)
mt.check(overview.Representation == "Spatiotemporal Overview",
         "the Partition is shown as %r" % overview.Representation)

# (c) The Quality Plot in a Line Chart View: the sweep runs.
chart = CreateView("XYChartView")
plot_display = Show(OutputPort(aggregation, 2), chart)
plot_display.UseIndexForXAxis = 0
plot_display.XArrayName = "p"
Render(chart)
mt.check(counters(aggregation) == [1, 1, 1], "showing the Quality Plot: %s, not one sweep" % counters(aggregation))
plot = servermanager.Fetch(aggregation, idx=2)
curves = servermanager.Fetch(aggregation, idx=1)
partitions = curves.GetNumberOfRows()
mt.check(partitions > 20 and plot.GetNumberOfRows() == 2 * partitions + 2,
         "the curves have %d partitions and the plot %d rows" % (partitions, plot.GetNumberOfRows()))
mt.check(counters(aggregation) == [1, 1, 1], "fetching the curves swept again: %s" % counters(aggregation))
# Moving p with the plot shown: the partition comes from the sweep.
aggregation.Parameter = 0.45
Render(render_view)
Render(chart)
mt.check(counters(aggregation)[0] == 1 and counters(aggregation)[2] == 1,
         "moving p recomputed qualities or sweep: %s" % counters(aggregation))
shown_plot = servermanager.Fetch(aggregation, idx=2)
mt.check(mt.column(shown_plot, "p")[-2:] == [0.45, 0.45], "the plot does not mark p = 0.45")

# (d) A consumer arriving after UpdatePipeline, and one with no update before.
updated = SpatiotemporalAggregation(Input=OutputPort(model, 0), Parameter=0.6)
updated.UpdatePipeline()
mt.check(counters(updated) == [1, 1, 0], "a second filter swept on UpdatePipeline()")
late = servermanager.Fetch(updated, idx=2)
mt.check(late.GetNumberOfRows() == plot.GetNumberOfRows(),
         "Fetch(idx=2) after UpdatePipeline() gave %d rows, not %d" % (late.GetNumberOfRows(), plot.GetNumberOfRows()))
mt.check(counters(updated) == [1, 1, 1], "Fetch(idx=2) after UpdatePipeline(): %s" % counters(updated))
# The curves of output 1, generated by the execution for output 2, reach
# output 1's post filter too (it ran on the empty table before).
mt.check(servermanager.Fetch(updated, idx=1).GetNumberOfRows() == partitions,
         "output 1 stayed empty after the sweep run for output 2")
mt.check(counters(updated) == [1, 1, 1], "fetching output 1 after output 2 swept again")
fresh = SpatiotemporalAggregation(Input=OutputPort(model, 0), Parameter=0.6)
mt.check(servermanager.Fetch(fresh, idx=1).GetNumberOfRows() == partitions,
         "Fetch(idx=1) of a fresh filter gave no curves")
mt.check(counters(fresh) == [1, 1, 1], "Fetch(idx=1) of a fresh filter: %s" % counters(fresh))

# (f) The hints of the three aggregations.
hints = servermanager.vtkSMParaViewPipelineControllerWithRendering()
for proxy in (TemporalAggregation, SpatialAggregation, SpatiotemporalAggregation):
    instance = proxy(Input=OutputPort(model, 0))
    kinds = [hints.GetPreferredViewType(instance.SMProxy, port) for port in range(3)]
    icons = [hints.GetPipelineIcon(instance.SMProxy, port) for port in (1, 2)]
    mt.check(kinds == ["MacroscopeChartView", "None", "None"] and icons == ["SpreadSheetView", "XYChartView"],
             "%s: preferred views %s, icons %s" % (proxy.__name__, kinds, icons))
    Delete(instance)

mt.check(len(RANKS_SEEN) == (2 if server else 1), "counters came from ranks %s" % sorted(RANKS_SEEN))
print("Apply %s: the Partition alone (%d parts) on UpdatePipeline and ShowInPreferredView; "
      "the sweep (%d partitions) once the Quality Plot is shown or fetched"
      % ("on a server" if server else "builtin", aggregation.GetDataInformation(0).GetNumberOfRows(), partitions))
