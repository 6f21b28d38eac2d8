"""Ocelotl's analysis in pvpython: load a trace, build its microscopic model,
aggregate it, show the temporal and spatiotemporal overviews and the quality
curves, step through every distinct partition, zoom on a window, and save a
state file that reproduces it all.

    xvfb-run -a pvbatch examples/ocelotl_workflow.py [TRACE.otf2]
        [--plugin PATH] [--output DIR] [--slices N]

Without TRACE, a sample with an injected perturbation (a slow node) is
synthesized first. DIR receives:
  temporal-overview.png, spatiotemporal-overview.png, quality-curves.png
  partitions/temporal-KK.png    one picture per distinct temporal partition
  zoom.png                      the overview of the zoomed window
  ocelotl.pvsm                  the pipeline, views and displays
  workflow.json                 digests of the outputs, so that loading the
                                state in a fresh process can be checked
"""
import argparse
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("trace", nargs="?", help="an OTF2 anchor file (traces.otf2)")
parser.add_argument("--plugin", default=os.path.join(
    here, "..", "build", "lib", "paraview-5.11", "plugins", "Macroscope", "Macroscope.so"))
parser.add_argument("--output", default=os.path.join(here, "..", "out", "ocelotl"))
parser.add_argument("--slices", type=int, default=100)
args, _ = parser.parse_known_args()
output = os.path.abspath(args.output)
os.makedirs(os.path.join(output, "partitions"), exist_ok=True)

from paraview.simple import *
from paraview import servermanager

LoadPlugin(os.path.abspath(args.plugin), remote=False, ns=globals())


def digest(proxy, port):
    """A digest of a table output: equal tables give equal digests."""
    import hashlib
    table = servermanager.Fetch(proxy, idx=port)
    text = []
    for c in range(table.GetNumberOfColumns()):
        column = table.GetColumn(c)
        values = [column.GetVariantValue(i).ToString() for i in range(column.GetNumberOfValues())]
        text.append("%s=%s" % (table.GetColumnName(c), ",".join(values)))
    return hashlib.sha256("\n".join(text).encode()).hexdigest()


def column(table, name):
    array = table.GetColumnByName(name)
    return [array.GetValue(i) for i in range(array.GetNumberOfValues())]


# 1. The trace.
trace_file = args.trace
if not trace_file:
    trace_dir = os.path.join(output, "sample-trace")
    # Overwrite: the script owns this directory; a sample of other
    # parameters left by an older version is replaced.
    sample = SyntheticTrace(registrationName="SampleTrace", OutputDirectory=trace_dir,
                            Overwrite=1,
                            Clusters=2, NodesPerCluster=4, RanksPerNode=2, ThreadsPerRank=1,
                            Iterations=60, Pattern="3D stencil", ComputeTime=0.001,
                            Perturbation="Slow node", PerturbationTarget=5,
                            PerturbationWindow=[0.02, 0.04], PerturbationFactor=3.0)
    sample.UpdatePipeline()
    trace_file = os.path.join(trace_dir, "traces.otf2")
reader = OTF2TraceReader(registrationName="traces.otf2", FileName=os.path.abspath(trace_file))
reader.UpdatePipeline()

# 2. The microscopic model: resources x slices x state types.
slicing = TimeSlicing(registrationName="Model", Input=OutputPort(reader, 0),
                      Slices=args.slices)

# 3. The aggregations: the qualities are computed once, a new p only re-runs
# the optimisation.
temporal = TemporalAggregation(registrationName="TemporalAggregation",
                               Input=OutputPort(slicing, 0), Parameter=0.5)
spatiotemporal = SpatiotemporalAggregation(registrationName="SpatiotemporalAggregation",
                                           Input=OutputPort(slicing, 0), Parameter=0.5)


def overview_view(size):
    view = CreateView("RenderView")
    view.ViewSize = size
    view.OrientationAxesVisibility = 0
    view.CameraParallelProjection = 1
    view.InteractionMode = "2D"
    return view


def fit(view):
    Render(view)
    view.ResetCamera(True)
    Render(view)


# 4. The overviews, in Render Views, as Macroscope trace displays.
size = [1500, 800]
temporal_view = overview_view(size)
temporal_display = Show(OutputPort(temporal, 0), temporal_view, "MacroscopeTraceRepresentation")
temporal_display.SetRepresentationType("Temporal Overview")
temporal_display.ViewSize = [1150, 680]
temporal_display.MinLayerHeight = 4
fit(temporal_view)
SaveScreenshot(os.path.join(output, "temporal-overview.png"), temporal_view, ImageResolution=size)

spatiotemporal_view = overview_view(size)
spatiotemporal_display = Show(OutputPort(spatiotemporal, 0), spatiotemporal_view,
                              "MacroscopeTraceRepresentation")
spatiotemporal_display.SetRepresentationType("Spatiotemporal Overview")
spatiotemporal_display.ViewSize = [1150, 680]
spatiotemporal_display.GroupLevel = 1  # name and separate the clusters
spatiotemporal_display.MinRowHeight = 6
fit(spatiotemporal_view)
SaveScreenshot(os.path.join(output, "spatiotemporal-overview.png"), spatiotemporal_view,
               ImageResolution=size)

# 5. The quality curves, with the current p, in a Line Chart View.
chart = CreateView("XYChartView")
chart.ViewSize = [900, 500]
chart.ChartTitle = "Temporal aggregation: gain and loss against p"
chart.BottomAxisTitle = "p"
chart.LeftAxisTitle = "normalised quality"
curves_display = Show(OutputPort(temporal, 2), chart)
curves_display.UseIndexForXAxis = 0
curves_display.XArrayName = "p"
curves_display.SeriesVisibility = ["Gain", "Loss", "Current p"]
Render(chart)
SaveScreenshot(os.path.join(output, "quality-curves.png"), chart, ImageResolution=[900, 500])

# 6. Step through every distinct partition, least aggregated first: the
# Quality Curves output lists them with the range of p each is optimal on.
curves = servermanager.Fetch(temporal, idx=1)
starts, ends, parts = column(curves, "PStart"), column(curves, "PEnd"), column(curves, "Parts")
steps = []
for k, (start, end) in enumerate(zip(starts, ends)):
    temporal.Parameter = 0.5 * (start + end)
    Render(temporal_view)
    SaveScreenshot(os.path.join(output, "partitions", "temporal-%02d.png" % k), temporal_view,
                   ImageResolution=size)
    partition = servermanager.Fetch(temporal, idx=0)
    steps.append({"p": temporal.Parameter, "expected_parts": parts[k],
                  "parts": partition.GetNumberOfRows(), "digest": digest(temporal, 0),
                  "quality_computations":
                      partition.GetFieldData().GetArray("QualityComputations").GetValue(0)})
print("stepped through %d distinct temporal partitions" % len(steps))

# Keep the partition with the most parts that still aggregates something.
chosen = max((k for k in range(len(steps)) if steps[k]["parts"] < args.slices),
             key=lambda k: steps[k]["parts"], default=0)
temporal.Parameter = steps[chosen]["p"]
Render(temporal_view)

# 7. Zoom: not graphical, a re-run of the whole pipeline on a window (here
# the middle third of the trace) and on the producers active in it; a copy
# of the model keeps the overview above.
start, end = reader.GetProperty("TimeBounds")
window = [start + (end - start) / 3.0, start + 2.0 * (end - start) / 3.0]
# FrameSoC's filter narrows the resources to the producers active in it.
active = ActiveProducers(registrationName="ActiveProducers",
                         Input=OutputPort(reader, 0), TimeWindow=window)
producers = servermanager.Fetch(active).GetFieldData()
names = producers.GetAbstractArray("ResourceNames")
active_names = [names.GetValue(i) for i in range(names.GetNumberOfValues())]
print("%d of %d producers active in the window" % (len(active_names),
                                                  producers.GetArray("Total").GetValue(0)))
zoom_slicing = TimeSlicing(registrationName="ZoomModel",
                           Input=OutputPort(reader, 0),
                           Slices=args.slices, TimeWindow=window)
if active_names:  # an empty list would mean every resource
    zoom_slicing.Resources = active_names
zoom = TemporalAggregation(registrationName="ZoomAggregation", Input=OutputPort(zoom_slicing, 0),
                           Parameter=temporal.Parameter)
zoom_view = overview_view(size)
zoom_display = Show(OutputPort(zoom, 0), zoom_view, "MacroscopeTraceRepresentation")
zoom_display.SetRepresentationType("Temporal Overview")
zoom_display.ViewSize = [1150, 680]
fit(zoom_view)
SaveScreenshot(os.path.join(output, "zoom.png"), zoom_view, ImageResolution=size)

# 8. The state file, and what loading it must give back.
# Every view in a layout tab, so that the GUI shows them all when it loads
# the state (docs/state-files.md).
import macroscope  # noqa: E402

# The curves' table gained its "p" column after SeriesVisibility was set:
# the chart shows the three series, not p against itself.
curves_display.SeriesVisibility = ["Gain", "Loss", "Current p"]
macroscope.layout_tab("Temporal overview", [temporal_view, chart])
macroscope.layout_tab("Spatiotemporal overview", [spatiotemporal_view])
macroscope.layout_tab("Zoom", [zoom_view])
if macroscope.views_outside_layouts():
    raise SystemExit("views outside every layout tab: %s" % macroscope.views_outside_layouts())
SaveState(os.path.join(output, "ocelotl.pvsm"))
record = {
    "trace": os.path.abspath(trace_file),
    "steps": steps,
    "chosen_p": temporal.Parameter,
    "digests": {
        "TemporalAggregation:0": digest(temporal, 0),
        "TemporalAggregation:1": digest(temporal, 1),
        "TemporalAggregation:2": digest(temporal, 2),
        "SpatiotemporalAggregation:0": digest(spatiotemporal, 0),
        "SpatiotemporalAggregation:1": digest(spatiotemporal, 1),
        "ZoomAggregation:0": digest(zoom, 0),
        "ActiveProducers:0": digest(active, 0),
    },
    "displays": {
        "TemporalAggregation": temporal_display.Representation[0],
        "SpatiotemporalAggregation": spatiotemporal_display.Representation[0],
    },
    "display_properties": {
        "TemporalAggregation": {"MinLayerHeight": 4.0, "ViewSize": [1150, 680]},
        "SpatiotemporalAggregation": {"GroupLevel": 1, "MinRowHeight": 6.0, "ViewSize": [1150, 680]},
    },
}
with open(os.path.join(output, "workflow.json"), "w") as f:
    json.dump(record, f, indent=1)
print("workflow: results in %s" % output)
