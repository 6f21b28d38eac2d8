"""Process 1 of the fresh-process state test (Python.StateFreshSave): builds
the full Macroscope pipeline on a synthesized OTF2 trace and a Pajé trace,
with non-default properties, shows every representation type in a Render
View, and writes the state file, the record of the session (property
values, connections, output digests, screenshot digests; state_fresh.py)
and the screenshots. Python.StateFreshLoad then loads the state in a new
pvbatch and must find the same record."""
import os
import shutil

import macroscope_testing as mt
import state_fresh

args = mt.parse_args()
from paraview.simple import *

mt.load_plugin(args, globals())
errors = state_fresh.capture_errors()
shared = state_fresh.shared_dir(args)
shutil.rmtree(shared, ignore_errors=True)  # never leave an old record for the load to find
os.makedirs(shared)

anchor_dir = os.path.join(shared, "otf2")
mt.synthesize(args, anchor_dir, "--clusters", 2, "--nodes-per-cluster", 2, "--ranks-per-node", 2,
              "--threads-per-rank", 2, "--iterations", 8, "--perturbation", "slow-node")
reader = OTF2TraceReader(registrationName="reader", FileName=os.path.join(anchor_dir, "traces.otf2"))
reader.UpdatePipelineInformation()
locations = list(reader.GetProperty("LocationInfo")[::2])
mt.check(len(locations) == 16, "the trace has %d locations, 16 expected" % len(locations))
# Every location but one, every region but one (the string-vector selections
# must survive the state file).
reader.Locations = locations[1:]
regions = list(reader.GetProperty("RegionInfo")[::2])
reader.Regions = [r for r in regions if r != "MPI_Waitall"]
reader.TimeWindow = [0.0005, 0.02]
reader.ClipStatesToWindow = 1
reader_outputs = [OutputPort(reader, i) for i in range(6)]

slicing = TimeSlicing(registrationName="slicing", Input=reader_outputs, Slices=24, Normalize=1,
                      ResourceLevel=4)
# The same model straight from the file, rebuilt from its cache.
StreamedTimeSlicing(registrationName="streamed", FileName=os.path.join(anchor_dir, "traces.otf2"),
                    Slices=20, Metric="Event count", ResourceLevel=2,
                    CacheDirectory=os.path.join(shared, "model-cache"), CacheSlices=400)
TemporalAggregation(registrationName="temporal", Input=slicing, Parameter=0.3)
SpatialAggregation(registrationName="spatial", Input=slicing, Parameter=0.4, NormalizeQualities=0)
SpatiotemporalAggregation(registrationName="partition", Input=slicing, Parameter=0.35)
HierarchicalAggregation(registrationName="hierarchical", Input=slicing, Function="Max")
TemporalOverviewLayout(registrationName="toverview", Input=FindSource("temporal"), ViewSize=[800, 400],
                       MinLayerHeight=4.0)
SpatiotemporalOverviewLayout(registrationName="stoverview", Input=FindSource("partition"),
                             ViewSize=[800, 400], GroupLevel=1)
ResourceTreemap(registrationName="treemap", Input=slicing, Level=2, Parameter=0.4)
TreemapLayout(registrationName="treemaplayout", Input=FindSource("treemap"), Algorithm="Slice and Dice",
              Margin=4.0)
TimelineLayout(registrationName="timeline", Input=reader_outputs, ViewSize=[900, 300], Depth=0,
               AggregateStyle="Mode")
ActiveProducers(registrationName="producers", Input=reader_outputs, Activity="Idle", Level=3)
TraceStatistics(registrationName="statistics", Input=reader_outputs, Bins=40, Level=3)
logical = LogicalTime(registrationName="logical", Input=reader_outputs, Metric="Duration", Clusters=3,
                      RandomSeed=5, StepWindow=[2, 6], TimeWindow=[0.002, 0.006])
LogicalTimelineLayout(registrationName="logicallayout", Input=[OutputPort(logical, i) for i in (0, 1)],
                      ViewSize=[700, 300], MaxMessages=100)
TopologyTimeScene(registrationName="topology", Input=[reader_outputs[i] for i in (0, 1, 4, 5)],
                  BaseConfiguration="Hierarchy Treemap", Ticks=4, Depth=0)
paje = PajeTraceReader(registrationName="paje",
                       FileName=os.path.join(args.source, "Testing", "Data", "paje", "nested.paje"),
                       TimeWindow=[1.0, 6.0], ClipStatesToWindow=1)
TraceStatistics(registrationName="pajestatistics", Input=[OutputPort(paje, i) for i in range(6)], Bins=7)
SyntheticTrace(registrationName="synthetic", OutputDirectory=os.path.join(shared, "synthetic"),
               Clusters=1, Iterations=3, Pattern="Ring", Seed=11)
HierarchyLayout(registrationName="hierarchylayout", Input=FindSource("synthetic"), LevelSpacing=2.0)

# Every representation type in its own Render View, off its defaults.
displays = {
    "timelineview": (reader, "Timeline", dict(Depth=0, MinRowHeight=5.0, LabelFontSize=10)),
    "temporalview": (FindSource("temporal"), "Temporal Overview", dict(MinLayerHeight=6.0, ShowLegend=0)),
    "stview": (FindSource("partition"), "Spatiotemporal Overview", dict(GroupLevel=1, ShowLabels=0)),
    "treemapview": (FindSource("treemap"), "Treemap", dict(Algorithm="Slice and Dice", Header=12.0)),
    "logicalview": (logical, "Logical Timeline", dict(StepWindow=[1, 9], ShowAggregates=0)),
    "clusteredview": (logical, "Clustered Logical Timeline", dict(FocusRadius=2)),
    "metricview": (logical, "Metric Overview", dict(MaxMessages=50, LabelColor=[0.9, 0.8, 0.2])),
    "topologyview": (reader, "Topology-Time 3D", dict(BaseConfiguration="Hierarchy Treemap", Ticks=3,
                                                      ShowCommunicationGraph=0)),
}
for view_name, (source, rtype, values) in displays.items():
    view = CreateView("RenderView", registrationName=view_name)
    view.OrientationAxesVisibility = 0
    display = Show(OutputPort(source, 0), view, "MacroscopeTraceRepresentation")
    display.SetRepresentationType(rtype)
    for key, value in values.items():
        display.SetPropertyWithName(key, value)
    view.ResetCamera()
    Render(view)

record = state_fresh.record(args, sorted(displays), shared)
# Process 1 must have produced something worth comparing: the main outputs
# are not empty and every view draws more than its background.
for key in ("reader:0", "reader:1", "reader:4", "slicing:0", "temporal:0", "spatial:0", "partition:0",
            "toverview:0", "stoverview:0", "treemap:0", "treemaplayout:0", "timeline:0",
            "statistics:0", "logical:0", "logicallayout:0", "topology:0", "paje:0",
            "pajestatistics:0", "hierarchylayout:0"):
    mt.check(record["outputs"][key][1] > 0, "output %s is empty: %r" % (key, record["outputs"][key]))
from vtkmodules.vtkIOImage import vtkPNGReader
from vtkmodules.util.numpy_support import vtk_to_numpy
for view_name in displays:
    png = vtkPNGReader()
    png.SetFileName(os.path.join(shared, view_name + ".png"))
    png.Update()
    pixels = vtk_to_numpy(png.GetOutput().GetPointData().GetScalars())
    colours = len({tuple(p) for p in pixels[::7]})
    mt.check(colours > 3, "the %s screenshot is blank (%d colours)" % (view_name, colours))

reported = errors.text()
errors.close()  # the capture also swallows Python's output
mt.check("ERROR" not in reported, "the pipeline reported errors:\n" + reported)
SaveState(os.path.join(shared, "pipeline.pvsm"))
state_fresh.save_json(os.path.join(shared, "record.json"), record)
print("saved %d pipeline objects, %d outputs, %d views in %s"
      % (len(GetSources()), len(record["outputs"]), len(record["images"]), shared))
