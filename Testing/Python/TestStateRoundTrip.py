"""Every property of every Macroscope proxy survives a ParaView state file:
set non-default values, save the state, reset the session, load it back."""
import json
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *

mt.load_plugin(args, globals())

settings = {
    "SyntheticTrace": dict(OutputDirectory=os.path.join(args.output, "trace"), Clusters=3,
                           NodesPerCluster=2, RanksPerNode=3, ThreadsPerRank=1, Iterations=5,
                           Pattern="Binary tree", Imbalance=0.35, ComputeTime=0.002,
                           MessageBytes=4096, Perturbation="Congested cluster",
                           PerturbationTarget=1, PerturbationWindow=[0.001, 0.004],
                           PerturbationFactor=5.0, Seed=99, WriteTopology=1),
    "HierarchyLayout": dict(ColumnSpacing=2.5, LevelSpacing=3.0),
}

anchor_dir = os.path.join(args.output, "otf2")
mt.synthesize(args, anchor_dir, "--iterations", 3, "--clusters", 1)
settings["OTF2TraceReader"] = dict(
    FileName=os.path.join(anchor_dir, "traces.otf2"), TimeWindow=[0.001, 0.002],
    ClipStatesToWindow=1,
    Locations=["cluster-0/node-0/MPI Rank 0/Master thread", "cluster-0/node-1/MPI Rank 5/OMP thread 1"],
    Regions=["MPI_Waitall", "compute"])
reader = OTF2TraceReader(registrationName="reader", **settings["OTF2TraceReader"])
reader.UpdatePipeline()
rows_before = reader.GetDataInformation(0).GetNumberOfRows()
mt.check(rows_before > 0, "the selections left no states to compare")

settings["TimeSlicing"] = dict(Slices=17, TimeWindow=[0.0005, 0.003], Metric="Event count",
                              Normalize=1, Depth=2, ResourceLevel=3,
                              Resources=["node-1", "machine/cluster-0/node-0/MPI Rank 0"])
slicing = TimeSlicing(registrationName="slicing", Input=[OutputPort(reader, i) for i in range(6)],
                      **settings["TimeSlicing"])
settings["ActiveProducers"] = dict(TimeWindow=[0.001, 0.002], Activity="Idle", Level=2,
                                  MinimumRecords=3)
producers = ActiveProducers(registrationName="producers", Input=[OutputPort(reader, i) for i in range(6)],
                            **settings["ActiveProducers"])
producers.UpdatePipeline()
producer_rows = producers.GetDataInformation().GetNumberOfRows()
mt.check(producer_rows > 0, "Active Producers lists no idle producer to compare")
settings["HierarchicalAggregation"] = dict(Function="Mean", TimeWindow=[0.001, 0.002])
aggregation = HierarchicalAggregation(registrationName="aggregation", Input=OutputPort(slicing, 0),
                                      **settings["HierarchicalAggregation"])
aggregation.UpdatePipeline()
settings["SpatiotemporalAggregation"] = dict(Parameter=0.35, NormalizeQualities=0)
partition = SpatiotemporalAggregation(registrationName="partition", Input=OutputPort(slicing, 0),
                                      **settings["SpatiotemporalAggregation"])
settings["SpatiotemporalOverviewLayout"] = dict(ViewSize=[640, 320], MinRowHeight=7.5, GroupLevel=2)
SpatiotemporalOverviewLayout(registrationName="stoverview", Input=OutputPort(partition, 0),
                             **settings["SpatiotemporalOverviewLayout"])

settings["ResourceTreemap"] = dict(Cut="Optimal (pIC)", Level=2, Parameter=0.35, NormalizeQualities=0,
                                  SizeBy="Sizes Input", SizeType="compute", TimeWindow=[0.001, 0.002],
                                  AnimateSlices=1, WindowSlices=3)
ResourceTreemap(registrationName="treemap", Input=OutputPort(slicing, 0), Sizes=OutputPort(slicing, 0),
                **settings["ResourceTreemap"])

settings["LogicalTime"] = dict(PhaseBoundaries=[0.001, 0.0025], MergeByEnclosingCall=0,
                               Metric="Differential Lateness", Clustering=0, ClaraClusters=5,
                               ClaraSamples=3, RandomSeed=7, Clusters=3, StepWindow=[4, 9],
                               TimeWindow=[0.001, 0.002])
LogicalTime(registrationName="logical", Input=[OutputPort(FindSource("reader"), i) for i in range(6)],
            **settings["LogicalTime"])

settings["TemporalOverviewLayout"] = dict(ViewSize=[900, 500], MinLayerHeight=4.5)
temporal = TemporalAggregation(registrationName="temporal", Input=OutputPort(slicing, 0))
overview = TemporalOverviewLayout(registrationName="overview", Input=OutputPort(temporal, 0),
                                  **settings["TemporalOverviewLayout"])

settings["TimelineLayout"] = dict(TimeWindow=[0.001, 0.002], ViewSize=[800, 400],
                                  MinMarkWidth=4.5, MinRowHeight=5.0, Depth=1, ShowMessages=0,
                                  MaxMessagesPerPixel=3, GroupLevel=2, AggregateStyle="Mode")
timeline = TimelineLayout(registrationName="timeline", Input=[OutputPort(reader, i) for i in range(6)],
                          **settings["TimelineLayout"])
settings["TraceStatistics"] = dict(TimeWindow=[0.0005, 0.0025], Bins=33, Level=3)
statistics = TraceStatistics(registrationName="statistics", Input=[OutputPort(reader, i) for i in range(6)],
                             **settings["TraceStatistics"])
# The Timeline display of the reader's States (display properties live in
# the state file too).
view = CreateView("RenderView")
display_settings = dict(TimeWindow=[0.0005, 0.0025], ViewSize=[700, 300], MinMarkWidth=2.5,
                        MinRowHeight=6.0, Depth=0, ShowMessages=0, MaxMessagesPerPixel=2,
                        GroupLevel=1, AggregateStyle="Mode", ShowLabels=0, ShowLegend=0,
                        LabelColor=[0.2, 0.3, 0.4], LabelFontSize=9)
display = Show(OutputPort(reader, 0), view, "MacroscopeTraceRepresentation")
for key, value in display_settings.items():
    display.SetPropertyWithName(key, value)

# The Treemap display of Resource Treemap, and its layout as a filter.
settings["TreemapLayout"] = dict(ViewSize=[640, 480], Algorithm="Slice and Dice", Margin=5.5,
                                 Header=11.0, LabelFontSize=9)
TreemapLayout(registrationName="treemaplayout", Input=OutputPort(FindSource("treemap"), 0),
              **settings["TreemapLayout"])
treemap_view = CreateView("RenderView")
treemap_display_settings = dict(ViewSize=[500, 400], Algorithm="Slice and Dice", Margin=6.5,
                                Header=12.5, ShowLabels=0, LabelColor=[0.3, 0.2, 0.1],
                                LabelFontSize=8)
treemap_display = Show(OutputPort(FindSource("treemap"), 0), treemap_view,
                       "MacroscopeTraceRepresentation")
treemap_display.SetRepresentationType("Treemap")
for key, value in treemap_display_settings.items():
    treemap_display.SetPropertyWithName(key, value)

# Ravel's logical views: their layouts as filters and their display, on a
# one-event Logical Events table.
logical_events = ProgrammableSource(registrationName="logicalevents", OutputDataSetType="vtkTable", Script="""
from vtkmodules.vtkCommonCore import vtkIntArray, vtkDoubleArray
for name in ("Location", "GlobalStep", "Kind", "Phase", "Cluster"):
    a = vtkIntArray(); a.SetName(name); a.InsertNextValue(1 if name == "GlobalStep" else 0)
    self.GetTableOutput().AddColumn(a)
m = vtkDoubleArray(); m.SetName("Metric"); m.InsertNextValue(1.0); self.GetTableOutput().AddColumn(m)
""")
logical_common = dict(ViewSize=[640, 360], StepWindow=[1, 7], ShowAggregates=0, MaxMessages=42)
settings["LogicalTimelineLayout"] = dict(logical_common)
settings["ClusteredTimelineLayout"] = dict(logical_common, FocusRadius=3)
settings["MetricOverviewLayout"] = dict(logical_common)
for name in ("LogicalTimelineLayout", "ClusteredTimelineLayout", "MetricOverviewLayout"):
    globals()[name](registrationName=name.lower(), Input=[logical_events], **settings[name])
logical_view = CreateView("RenderView")
logical_display_settings = dict(ViewSize=[520, 300], StepWindow=[3, 9], ShowAggregates=0,
                                MaxMessages=17, FocusRadius=2, ShowLegend=0, LabelFontSize=11)
logical_display = Show(logical_events, logical_view, "MacroscopeTraceRepresentation")
logical_display.SetRepresentationType("Clustered Logical Timeline")
for key, value in logical_display_settings.items():
    logical_display.SetPropertyWithName(key, value)
logical_events.UpdatePipeline()  # runs the script now, before the built-ins are restored
# The Programmable Source's script ran in this interpreter and shadowed
# these built-ins with numpy's: restore them.
from builtins import all, max, min, sum

# Triva's topology-time scene, as a filter and as the Topology-Time 3D
# display of the reader's States.
topology_file = os.path.join(args.output, "network.dot")
with open(topology_file, "w") as f:
    f.write('graph network { "node-0" -- "switch" [bandwidth="1e9"]; }\n')
settings["TopologyTimeScene"] = dict(BaseConfiguration="Hierarchy Treemap", TopologyFile=topology_file,
                                     TimeWindow=[0.001, 0.0025], Scale=250.0, Offset=0.125,
                                     BoxSize=0.03, Depth=2, Ticks=9, ShowMessages=0,
                                     ShowCommunicationGraph=0, MaxEdgeWidth=0.045,
                                     TreemapSize="State Time")
TopologyTimeScene(registrationName="topology",
                  Input=[OutputPort(FindSource("reader"), i) for i in (0, 1, 4, 5)],
                  **settings["TopologyTimeScene"])
topology_view = CreateView("RenderView")
topology_display_settings = dict(BaseConfiguration="Network Topology", TopologyFile=topology_file,
                                 Scale=120.0, Offset=0.075, BoxSize=0.025, Ticks=4,
                                 ShowCommunicationGraph=0, MaxEdgeWidth=0.02,
                                 TreemapSize="State Time", TimeWindow=[0.0015, 0.003], Depth=1,
                                 ShowMessages=0, ShowLabels=0, LabelColor=[0.5, 0.25, 0.75],
                                 LabelFontSize=15)
topology_display = Show(OutputPort(FindSource("reader"), 0), topology_view,
                        "MacroscopeTraceRepresentation")
topology_display.SetRepresentationType("Topology-Time 3D")
for key, value in topology_display_settings.items():
    topology_display.SetPropertyWithName(key, value)

# The Pajé reader, every property off its default (the hierarchy file
# regroups two of its leaves; the Locations paths are those of the new tree).
paje_hierarchy = os.path.join(args.output, "paje-pair.json")
with open(paje_hierarchy, "w") as f:
    json.dump({"name": "all", "children": [{"name": "pair", "children": [
        {"name": "r2"}, {"name": "r0"}]}]}, f)
settings["PajeTraceReader"] = dict(
    FileName=os.path.join(args.source, "Testing", "Data", "paje", "nested.paje"),
    HierarchyFile=paje_hierarchy,
    TimeWindow=[1.0, 5.0], ClipStatesToWindow=1, Locations=["pair/r0", "pair/r2"],
    Regions=["compute", "MPI_Send"])
paje_reader = PajeTraceReader(registrationName="pajereader", **settings["PajeTraceReader"])
paje_reader.UpdatePipeline()
paje_rows_before = paje_reader.GetDataInformation(0).GetNumberOfRows()
mt.check(paje_rows_before == 3, "the Pajé reader's selections keep %d states, 3 expected" % paje_rows_before)

trace = SyntheticTrace(registrationName="trace", **settings["SyntheticTrace"])
layout = HierarchyLayout(registrationName="layout", Input=trace, **settings["HierarchyLayout"])
layout.UpdatePipeline()

state = os.path.join(args.output, "roundtrip.pvsm")
SaveState(state)
ResetSession()
mt.load_plugin(args, globals())
LoadState(state)

display = GetDisplayProperties(FindSource("reader"), GetRenderViews()[0])
mt.check(display is not None and display.GetXMLName() == "MacroscopeTraceRepresentation",
         "the Timeline display is missing after LoadState")
mt.check(display.Representation == "Timeline", "display type %r after reload" % display.Representation)


def check_value(name, key, got, expected):
    if isinstance(expected, list) and isinstance(expected[0], str):
        mt.check(sorted(got) == sorted(expected),
                 "%s.%s: %r after reload, expected %r" % (name, key, list(got), expected))
    elif isinstance(expected, list):
        got = list(got)
        mt.check(all(abs(a - b) < 1e-12 for a, b in zip(got, expected)) and len(got) == len(expected),
                 "%s.%s: %r after reload, expected %r" % (name, key, got, expected))
    elif isinstance(expected, float):
        mt.check(abs(float(got) - expected) < 1e-12,
                 "%s.%s: %r after reload, expected %r" % (name, key, got, expected))
    else:
        mt.check(got == expected, "%s.%s: %r after reload, expected %r" % (name, key, got, expected))


for key, expected in display_settings.items():
    check_value("display", key, display.GetPropertyValue(key), expected)
treemap_display = GetDisplayProperties(FindSource("treemap"), GetRenderViews()[1])
mt.check(treemap_display is not None and treemap_display.Representation == "Treemap",
         "the Treemap display is missing after LoadState")
for key, expected in treemap_display_settings.items():
    check_value("treemap display", key, treemap_display.GetPropertyValue(key), expected)

for name, proxy_settings in (("trace", settings["SyntheticTrace"]),
                             ("timeline", settings["TimelineLayout"]),
                             ("layout", settings["HierarchyLayout"]),
                             ("reader", settings["OTF2TraceReader"]),
                             ("slicing", settings["TimeSlicing"]),
                             ("producers", settings["ActiveProducers"]),
                             ("aggregation", settings["HierarchicalAggregation"]),
                             ("partition", settings["SpatiotemporalAggregation"]),
                             ("overview", settings["TemporalOverviewLayout"]),
                             ("statistics", settings["TraceStatistics"]),
                             ("stoverview", settings["SpatiotemporalOverviewLayout"]),
                             ("treemap", settings["ResourceTreemap"]),
                             ("treemaplayout", settings["TreemapLayout"]),
                             ("logical", settings["LogicalTime"]),
                             ("pajereader", settings["PajeTraceReader"])):
    proxy = FindSource(name)
    mt.check(proxy is not None, "%s missing after LoadState" % name)
    for key, expected in proxy_settings.items():
        check_value(name, key, proxy.GetPropertyValue(key), expected)

logical_display = GetDisplayProperties(FindSource("logicalevents"), GetRenderViews()[2])
mt.check(logical_display is not None and logical_display.Representation == "Clustered Logical Timeline",
         "the Clustered Logical Timeline display is missing after LoadState")
for key, expected in logical_display_settings.items():
    check_value("logical display", key, logical_display.GetPropertyValue(key), expected)
for name in ("LogicalTimelineLayout", "ClusteredTimelineLayout", "MetricOverviewLayout"):
    proxy = FindSource(name.lower())
    mt.check(proxy is not None, "%s missing after LoadState" % name)
    for key, expected in settings[name].items():
        check_value(name, key, proxy.GetPropertyValue(key), expected)
# The Programmable Source's script ran in this interpreter and shadowed
# these built-ins with numpy's: restore them.
from builtins import all, max, min, sum

topology_display = GetDisplayProperties(FindSource("reader"), GetRenderViews()[3])
mt.check(topology_display is not None and topology_display.Representation == "Topology-Time 3D",
         "the Topology-Time 3D display is missing after LoadState")
for key, expected in topology_display_settings.items():
    check_value("topology display", key, topology_display.GetPropertyValue(key), expected)
topology = FindSource("topology")
mt.check(topology is not None, "the Topology-Time Scene is missing after LoadState")
for key, expected in settings["TopologyTimeScene"].items():
    check_value("topology", key, topology.GetPropertyValue(key), expected)
mt.check(len(topology.Input) == 4, "the Topology-Time Scene has %d inputs after reload, 4 before"
         % len(topology.Input))
sizes = FindSource("treemap").Sizes
mt.check(sizes is not None and sizes.GetXMLName() == "MacroscopeTimeSlicing",
         "the treemap's Sizes input is %r after reload" % sizes)

# The reloaded reader reads the same rows.
reader = FindSource("reader")
reader.UpdatePipeline()
mt.check(reader.GetDataInformation(0).GetNumberOfRows() == rows_before,
         "the reloaded reader reads %d states, %d before" % (
             reader.GetDataInformation(0).GetNumberOfRows(), rows_before))

producers = FindSource("producers")
producers.UpdatePipeline()
mt.check(producers.GetDataInformation().GetNumberOfRows() == producer_rows,
         "the reloaded Active Producers lists %d producers, %d before"
         % (producers.GetDataInformation().GetNumberOfRows(), producer_rows))

# The reloaded pipeline runs and gives the same drawing.
layout = FindSource("layout")
layout.UpdatePipeline()
points = layout.GetDataInformation().GetNumberOfPoints()
expected = 1 + 3 + 3 * 2 + 3 * 2 * 3 + 3 * 2 * 3 * 1  # machine, clusters, nodes, ranks, threads
mt.check(points == expected, "reloaded layout has %d points, expected %d" % (points, expected))
print("state round trip: %d properties checked"
      % (sum(len(s) for s in settings.values()) + len(display_settings)))

paje_reader = FindSource("pajereader")
paje_reader.UpdatePipeline()
mt.check(paje_reader.GetDataInformation(0).GetNumberOfRows() == paje_rows_before,
         "the reloaded Pajé reader reads %d states, %d before"
         % (paje_reader.GetDataInformation(0).GetNumberOfRows(), paje_rows_before))
# The OTF2 reader's HierarchyFile, with a Locations path of the regrouped
# tree: both survive a state file, and the reloaded reader reads the same rows.
import json
hierarchy_file = os.path.join(args.output, "pair.json")
with open(hierarchy_file, "w") as f:
    json.dump({"name": "all", "children": [{"name": "pair", "kind": "cluster", "children": [
        {"name": "MPI Rank 5"}, {"name": "MPI Rank 0"}]}]}, f)
hreader_settings = dict(FileName=os.path.join(anchor_dir, "traces.otf2"), HierarchyFile=hierarchy_file,
                        Locations=["pair/MPI Rank 5/OMP thread 1", "pair/MPI Rank 0/Master thread"])
hreader = OTF2TraceReader(registrationName="hreader", **hreader_settings)
hreader.UpdatePipeline()
hrows = hreader.GetDataInformation(0).GetNumberOfRows()
mt.check(hrows > 0, "the regrouped Locations selected no states")
hstate = os.path.join(args.output, "roundtrip-hierarchy.pvsm")
SaveState(hstate)
ResetSession()
mt.load_plugin(args, globals())
LoadState(hstate)
hreader = FindSource("hreader")
mt.check(hreader is not None, "hreader missing after LoadState")
for key, expected in hreader_settings.items():
    check_value("hreader", key, hreader.GetPropertyValue(key), expected)
hreader.UpdatePipeline()
mt.check(hreader.GetDataInformation(0).GetNumberOfRows() == hrows,
         "the reloaded regrouped reader reads %d states, %d before"
         % (hreader.GetDataInformation(0).GetNumberOfRows(), hrows))
