"""Every property of every Macroscope proxy survives a ParaView state file:
set non-default values, save the state, reset the session, load it back.

What "every" means is read from Plugin/*.xml (state_coverage.py): the test
fails, listing them, when a proxy or a settable property of the XML is not
set off its default and checked after the reload, so a property added later
fails here until it is covered. Input properties are checked by comparing
the pipeline connections; display properties on the Render View display of
each representation type. A new source proxy without input (such as the
file-backed Streamed Time Slicing) needs only an entry in `standalone`."""
import json
import os
import shutil

import macroscope_testing as mt
import state_coverage

args = mt.parse_args()
from paraview import servermanager
from paraview.simple import *

mt.load_plugin(args, globals())
coverage = state_coverage.Coverage(args.source)

anchor_dir = os.path.join(args.output, "otf2")
mt.synthesize(args, anchor_dir, "--iterations", 3, "--clusters", 1)
anchor = os.path.join(anchor_dir, "traces.otf2")
trace_dir = os.path.join(args.output, "trace")
shutil.rmtree(trace_dir, ignore_errors=True)  # a fresh archive of the parameters below

streamed_hierarchy = os.path.join(args.output, "streamed-pair.json")
with open(streamed_hierarchy, "w") as f:
    json.dump({"name": "all", "children": [{"name": "pair", "kind": "cluster", "children": [
        {"name": "MPI Rank 1"}, {"name": "MPI Rank 2"}]}]}, f)

# Proxies built from this table alone (sources without input): registration
# name -> (XML name, every property off its default, one entry a property).
# A new source proxy of Plugin/*.xml needs only its entry here.
standalone = {
    "trace": ("MacroscopeSyntheticTrace", dict(
        OutputDirectory=trace_dir,
        Overwrite=1,
        Clusters=3,
        NodesPerCluster=1,
        RanksPerNode=3,
        ThreadsPerRank=1,
        Iterations=5,
        Pattern="Binary tree",
        Imbalance=0.35,
        ComputeTime=0.002,
        MessageBytes=4096,
        Perturbation="Congested cluster",
        PerturbationTarget=1,
        PerturbationWindow=[0.001, 0.004],
        PerturbationFactor=5.0,
        Seed=99,
        WriteTopology=1,
        ClockOffsets=[0.0, 0.25, 0.5])),
    "streamed": ("MacroscopeStreamedTimeSlicing", dict(
        FileName=anchor,
        HierarchyFile=streamed_hierarchy,
        Slices=17,
        TimeWindow=[0.0005, 0.003],
        Metric="Event count",
        Normalize=1,
        Depth=2,
        ResourceLevel=1,
        Resources=["pair"],
        UseModelCache=0,
        CacheDirectory=os.path.join(args.output, "model-cache"),
        CacheSlices=400,
        Exact=1)),
}

# registration name -> the settings the hand-built pipeline below gives it.
settings = {}
for name, (xml_name, values) in standalone.items():
    label = coverage.proxies[xml_name].label
    globals()[servermanager._make_name_valid(label)](registrationName=name, **values)
    settings[name] = values

settings["reader"] = dict(
    FileName=anchor, TimeWindow=[0.001, 0.002],
    ClipStatesToWindow=1,
    Locations=["cluster-0/node-0/MPI Rank 0/Master thread", "cluster-0/node-1/MPI Rank 5/OMP thread 1"],
    Regions=["MPI_Waitall", "compute"])
reader = OTF2TraceReader(registrationName="reader", **settings["reader"])
reader.UpdatePipeline()
rows_before = reader.GetDataInformation(0).GetNumberOfRows()
mt.check(rows_before > 0, "the selections left no states to compare")
reader_outputs = [OutputPort(reader, i) for i in range(6)]

# Types (linked views): one event type of the trace, for the Event count metric.
trace_types = servermanager.Fetch(reader, idx=5)
event_types = [n for n, k in zip(mt.column(trace_types, "Name"), mt.column(trace_types, "Kind"))
               if k == "event"]
mt.check(event_types, "the trace has no event type for Time Slicing's Types")
settings["slicing"] = dict(Slices=17, TimeWindow=[0.0005, 0.003], Metric="Event count",
                           Normalize=1, Depth=2, ResourceLevel=3,
                           Resources=["node-1", "machine/cluster-0/node-0/MPI Rank 0"],
                           Types=[event_types[0]])
slicing = TimeSlicing(registrationName="slicing", Input=reader_outputs, **settings["slicing"])
# Streamed Time Slicing's Types (linked views), once the trace's types are known.
settings["streamed"]["Types"] = [event_types[0]]
FindSource("streamed").Types = settings["streamed"]["Types"]
settings["producers"] = dict(TimeWindow=[0.001, 0.002], Activity="Idle", Level=2, MinimumRecords=3)
producers = ActiveProducers(registrationName="producers", Input=reader_outputs, **settings["producers"])
producers.UpdatePipeline()
producer_rows = producers.GetDataInformation().GetNumberOfRows()
mt.check(producer_rows > 0, "Active Producers lists no idle producer to compare")
settings["aggregation"] = dict(Function="Mean", TimeWindow=[0.001, 0.002])
HierarchicalAggregation(registrationName="aggregation", Input=OutputPort(slicing, 0),
                        **settings["aggregation"])
settings["partition"] = dict(Parameter=0.35, NormalizeQualities=0)
SpatiotemporalAggregation(registrationName="partition", Input=OutputPort(slicing, 0),
                          **settings["partition"])
settings["spatial"] = dict(Parameter=0.25, NormalizeQualities=0)
SpatialAggregation(registrationName="spatial", Input=OutputPort(slicing, 0), **settings["spatial"])
settings["temporal"] = dict(Parameter=0.65, NormalizeQualities=0)
TemporalAggregation(registrationName="temporal", Input=OutputPort(slicing, 0), **settings["temporal"])
settings["difference"] = dict(ResourceMatching="By Name", Slices=9, RunNames=["run a", "run b"])
ModelDifference(registrationName="difference", Input=OutputPort(slicing, 0),
                Other=OutputPort(FindSource("streamed"), 0), **settings["difference"])
settings["summary"] = dict(Count=3, OnsetFraction=0.25)
DifferenceSummary(registrationName="summary", Input=FindSource("partition"), **settings["summary"])
settings["stoverview"] = dict(ViewSize=[640, 320], MinRowHeight=7.5, GroupLevel=2, SignedDifference=0)
SpatiotemporalOverviewLayout(registrationName="stoverview", Input=FindSource("partition"),
                             **settings["stoverview"])
settings["overview"] = dict(ViewSize=[900, 500], MinLayerHeight=4.5)
TemporalOverviewLayout(registrationName="overview", Input=FindSource("temporal"), **settings["overview"])

settings["treemap"] = dict(Cut="Optimal (pIC)", Level=2, Parameter=0.35, NormalizeQualities=0,
                           SizeBy="Sizes Input", SizeType="compute", TimeWindow=[0.001, 0.002],
                           AnimateSlices=1, WindowSlices=3)
ResourceTreemap(registrationName="treemap", Input=OutputPort(slicing, 0), Sizes=OutputPort(slicing, 0),
                **settings["treemap"])
settings["treemaplayout"] = dict(ViewSize=[640, 480], Algorithm="Slice and Dice", Margin=5.5,
                                 Header=11.0, LabelFontSize=9)
TreemapLayout(registrationName="treemaplayout", Input=FindSource("treemap"), **settings["treemaplayout"])

settings["logical"] = dict(PhaseBoundaries=[0.001, 0.0025],
                           MergeByEnclosingCall="Enclosing Call Including Outermost (Ravel)",
                           Metric="Phase Differential Lateness", Clustering=0, ClaraClusters=5,
                           ClaraSamples=3, RandomSeed=7, Clusters=3, StepWindow=[4, 9],
                           TimeWindow=[0.001, 0.002], MergeDepth=1,
                           CollectiveBoundaries="Named Collective", BoundaryCollective="MPI_Barrier",
                           ClockCorrection="From Collectives")
settings["logical"].update(CoalesceIsends=0)
LogicalTime(registrationName="logical", Input=reader_outputs, **settings["logical"])

settings["timeline"] = dict(TimeWindow=[0.001, 0.002], RowWindow=[1, 3], ViewSize=[800, 400],
                            MinMarkWidth=4.5, MinRowHeight=5.0, Depth=1, ShowMessages=0,
                            MaxMessagesPerPixel=3, GroupLevel=2, AggregateStyle="Stacked",
                            Resources=["cluster-0"], Types=["compute"], Title="run A")
TimelineLayout(registrationName="timeline", Input=reader_outputs, **settings["timeline"])
settings["statistics"] = dict(TimeWindow=[0.0005, 0.0025], Bins=33, Level=3)
TraceStatistics(registrationName="statistics", Input=reader_outputs, **settings["statistics"])

# Ravel's logical views: their layouts as filters on a one-event Logical
# Events table (their displays are below).
logical_events = ProgrammableSource(registrationName="logicalevents", OutputDataSetType="vtkTable", Script="""
from vtkmodules.vtkCommonCore import vtkIntArray, vtkDoubleArray
for name in ("Location", "GlobalStep", "Kind", "Phase", "Cluster"):
    a = vtkIntArray(); a.SetName(name); a.InsertNextValue(1 if name == "GlobalStep" else 0)
    self.GetTableOutput().AddColumn(a)
m = vtkDoubleArray(); m.SetName("Metric"); m.InsertNextValue(1.0); self.GetTableOutput().AddColumn(m)
for name, at in (("Enter", 0.001), ("Exit", 0.002)):
    t = vtkDoubleArray(); t.SetName(name); t.InsertNextValue(at); self.GetTableOutput().AddColumn(t)
""")
logical_events.UpdatePipeline()  # runs the script now, before the built-ins are restored
# The Programmable Source's script ran in this interpreter and shadowed
# these built-ins with numpy's: restore them.
from builtins import all, max, min, sum
logical_common = dict(ViewSize=[640, 360], StepWindow=[1, 7], ShowAggregates=0, MaxMessages=42,
                      TimeWindow=[0.0005, 0.003])
logical_common.update(Resources=["node-1"], Types=["MPI_Send", "MPI_Recv"])  # linked views
settings["logicaltimelinelayout"] = dict(logical_common)
settings["clusteredtimelinelayout"] = dict(logical_common, FocusRadius=3)
settings["metricoverviewlayout"] = dict(logical_common)
LogicalTimelineLayout(registrationName="logicaltimelinelayout", Input=[logical_events],
                      **settings["logicaltimelinelayout"])
ClusteredTimelineLayout(registrationName="clusteredtimelinelayout", Input=[logical_events],
                        **settings["clusteredtimelinelayout"])
MetricOverviewLayout(registrationName="metricoverviewlayout", Input=[logical_events],
                     **settings["metricoverviewlayout"])

# Triva's topology-time scene as a filter (its display is below).
topology_file = os.path.join(args.output, "network.dot")
with open(topology_file, "w") as f:
    f.write('graph network { "node-0" -- "switch" [bandwidth="1e9"]; }\n')
settings["topology"] = dict(BaseConfiguration="Hierarchy Treemap", TopologyFile=topology_file,
                            TimeWindow=[0.001, 0.0025], Scale=250.0, Offset=0.125,
                            BoxSize=0.03, Depth=2, Ticks=9, ShowMessages=0,
                            ShowCommunicationGraph=0, MaxEdgeWidth=0.045,
                            TreemapSize="State Time", Resources=["cluster-0"],
                            Types=["compute"])
TopologyTimeScene(registrationName="topology", Input=[reader_outputs[i] for i in (0, 1, 4, 5)],
                  **settings["topology"])

# The Pajé reader, every property off its default (the hierarchy file
# regroups two of its leaves; the Locations paths are those of the new tree).
paje_hierarchy = os.path.join(args.output, "paje-pair.json")
with open(paje_hierarchy, "w") as f:
    json.dump({"name": "all", "children": [{"name": "pair", "children": [
        {"name": "r2"}, {"name": "r0"}]}]}, f)
settings["pajereader"] = dict(
    FileName=os.path.join(args.source, "Testing", "Data", "paje", "nested.paje"),
    HierarchyFile=paje_hierarchy,
    TimeWindow=[1.0, 5.0], ClipStatesToWindow=1, Locations=["pair/r0", "pair/r2"],
    Regions=["compute", "MPI_Send"])
paje_reader = PajeTraceReader(registrationName="pajereader", **settings["pajereader"])
paje_reader.UpdatePipeline()
paje_rows_before = paje_reader.GetDataInformation(0).GetNumberOfRows()
mt.check(paje_rows_before == 3, "the Pajé reader's selections keep %d states, 3 expected" % paje_rows_before)

settings["layout"] = dict(ColumnSpacing=2.5, LevelSpacing=3.0)
HierarchyLayout(registrationName="layout", Input=FindSource("trace"), **settings["layout"])
FindSource("layout").UpdatePipeline()

# Every representation type, each in its own Render View: view name ->
# (shown source, representation type, display properties off their defaults).
label = dict(ShowLabels=0, ShowLegend=0, Visibility=0)
displays = {
    "timelineview": ("reader", "Timeline", dict(
        label, TimeWindow=[0.0005, 0.0025], RowWindow=[0, 2], ViewSize=[700, 300],
        ViewPixelSize=[711, 307], MinMarkWidth=2.5,
        MinRowHeight=6.0, Depth=0, ShowMessages=0, MaxMessagesPerPixel=2, GroupLevel=1,
        AggregateStyle="Stacked", LabelColor=[0.2, 0.3, 0.4], LabelFontSize=9,
        Resources=["cluster-0"], Types=["compute"], Title="A: control")),
    "temporalview": ("temporal", "Temporal Overview", dict(
        label, ViewSize=[610, 280], ViewPixelSize=[621, 287], MinLayerHeight=5.5, LabelColor=[0.1, 0.6, 0.2],
        LabelFontSize=10)),
    "stview": ("partition", "Spatiotemporal Overview", dict(
        label, ViewSize=[620, 290], ViewPixelSize=[631, 297], MinRowHeight=4.5, GroupLevel=1, LabelColor=[0.6, 0.1, 0.2],
        LabelFontSize=13, SignedDifference=0)),
    "treemapview": ("treemap", "Treemap", dict(
        label, ViewSize=[500, 400], ViewPixelSize=[511, 407], Algorithm="Slice and Dice", Margin=6.5, Header=12.5,
        LabelColor=[0.3, 0.2, 0.1], LabelFontSize=8)),
    "logicalview": ("logicalevents", "Logical Timeline", dict(
        label, ViewSize=[530, 310], ViewPixelSize=[541, 317], StepWindow=[2, 8], ShowAggregates=0, MaxMessages=19, TimeWindow=[0.0015, 0.0025],
        FocusRadius=4, LabelColor=[0.7, 0.7, 0.1], LabelFontSize=14,
        Resources=["node-0"], Types=["MPI_Send"])),
    "clusteredview": ("logicalevents", "Clustered Logical Timeline", dict(
        label, ViewSize=[520, 300], ViewPixelSize=[531, 307], StepWindow=[3, 9], ShowAggregates=0, MaxMessages=17, TimeWindow=[0.001, 0.0025],
        FocusRadius=2, LabelColor=[0.1, 0.7, 0.7], LabelFontSize=11,
        Resources=["node-1"], Types=["MPI_Recv"])),
    "metricview": ("logicalevents", "Metric Overview", dict(
        label, ViewSize=[540, 320], ViewPixelSize=[551, 327], StepWindow=[0, 5], ShowAggregates=0, MaxMessages=23, TimeWindow=[0.0005, 0.002],
        FocusRadius=5, LabelColor=[0.7, 0.1, 0.7], LabelFontSize=16,
        Resources=["cluster-0"], Types=["MPI_Wait"])),
    "topologyview": ("reader", "Topology-Time 3D", dict(
        BaseConfiguration="Network Topology", TopologyFile=topology_file, Scale=120.0,
        Offset=0.075, BoxSize=0.025, Ticks=4, ShowCommunicationGraph=0, MaxEdgeWidth=0.02,
        TreemapSize="State Time", TimeWindow=[0.0015, 0.003], Depth=1, ShowMessages=0,
        ShowLabels=0, Visibility=0, LabelColor=[0.5, 0.25, 0.75], LabelFontSize=15,
        Resources=["node-0"], Types=["MPI_Waitall"])),
}
# Type colours (docs/colours.md) on every display that draws types.
for view_name in ("timelineview", "temporalview", "stview", "treemapview", "topologyview"):
    displays[view_name][2]["TypeColors"] = ["compute", "#ff8000", "MPI_Send", "#0a0b0c"]
for view_name, (source_name, rtype, values) in displays.items():
    view = CreateView("RenderView", registrationName=view_name)
    display = Show(FindSource(source_name), view, "MacroscopeTraceRepresentation")
    display.SetRepresentationType(rtype)
    for key, value in values.items():
        display.SetPropertyWithName(key, value)


def connections():
    """(proxy, input property) -> [(producer, port)] for every pipeline
    object, and view -> [(producer, port, representation type)]."""
    pxm = servermanager.ProxyManager()
    out = {}
    for (name, _), proxy in GetSources().items():
        for prop_name in proxy.ListProperties():
            prop = proxy.SMProxy.GetProperty(prop_name)
            if prop is not None and prop.IsA("vtkSMInputProperty"):
                out["%s.%s" % (name, prop_name)] = sorted(
                    (pxm.GetProxyName("sources", prop.GetProxy(i)), prop.GetOutputPortForConnection(i))
                    for i in range(prop.GetNumberOfProxies()))
    for view_name in displays:
        view = FindView(view_name)
        mt.check(view is not None, "view %s missing" % view_name)
        out[view_name] = sorted(
            (pxm.GetProxyName("sources", rep.Input.SMProxy), rep.Input.Port, rep.Representation)
            for rep in view.Representations if rep.GetXMLName() == "MacroscopeTraceRepresentation")
    return out


def check_value(where, key, got, expected):
    if isinstance(expected, list) and expected and isinstance(expected[0], str):
        mt.check(sorted(got) == sorted(expected),
                 "%s.%s: %r after reload, expected %r" % (where, key, list(got), expected))
    elif isinstance(expected, list):
        got = list(got)
        mt.check(all(abs(a - b) < 1e-12 for a, b in zip(got, expected)) and len(got) == len(expected),
                 "%s.%s: %r after reload, expected %r" % (where, key, got, expected))
    elif isinstance(expected, float):
        mt.check(abs(float(got) - expected) < 1e-12,
                 "%s.%s: %r after reload, expected %r" % (where, key, got, expected))
    else:
        mt.check(got == expected, "%s.%s: %r after reload, expected %r" % (where, key, got, expected))


def check_source(name, values):
    proxy = FindSource(name)
    mt.check(proxy is not None, "%s missing after LoadState" % name)
    for key, expected in values.items():
        check_value(name, key, proxy.GetPropertyValue(key), expected)
        coverage.setting(proxy.GetXMLName(), key, expected)
        coverage.checked_value(proxy.GetXMLName(), key)
    return proxy.GetXMLName()


connections_before = connections()
state = os.path.join(args.output, "roundtrip.pvsm")
SaveState(state)
ResetSession()
mt.load_plugin(args, globals())
LoadState(state)

seen = set()
connections_after = connections()
for key, expected in connections_before.items():
    mt.check(connections_after.get(key) == expected, "connections of %s: %r after reload, %r before"
             % (key, connections_after.get(key), expected))
for name, values in settings.items():
    seen.add(check_source(name, values))

composite = coverage.composite()
for view_name, (source_name, rtype, values) in displays.items():
    display = GetDisplayProperties(FindSource(source_name), FindView(view_name))
    mt.check(display is not None and display.GetXMLName() == composite.name,
             "the %s display is missing after LoadState" % rtype)
    mt.check(display.Representation == rtype, "the %s display shows %r after reload"
             % (rtype, display.Representation))
    seen.update((composite.name, composite.types[rtype]))
    if not composite.properties["Representation"].is_default(rtype):
        coverage.setting(composite.name, "Representation", rtype)
        coverage.checked_value(composite.name, "Representation")
    for key, expected in values.items():
        check_value("%s display" % rtype, key, display.GetPropertyValue(key), expected)
        for xml_name in coverage.display_setting(rtype, key, expected):
            coverage.checked_value(xml_name, key)
topology = FindSource("topology")
mt.check(len(topology.Input) == 4, "the Topology-Time Scene has %d inputs after reload, 4 before"
         % len(topology.Input))

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

# The reloaded pipeline runs and gives the same drawing; the reloaded
# Synthetic Trace reuses the archive of the same parameters: no file written.
archive_time = os.stat(os.path.join(trace_dir, "traces.otf2")).st_mtime_ns
layout = FindSource("layout")
layout.UpdatePipeline()
mt.check(os.stat(os.path.join(trace_dir, "traces.otf2")).st_mtime_ns == archive_time,
         "the reloaded Synthetic Trace wrote its archive again")
points = layout.GetDataInformation().GetNumberOfPoints()
trace = settings["trace"]
clusters = trace["Clusters"]
nodes = clusters * trace["NodesPerCluster"]
ranks = nodes * trace["RanksPerNode"]
expected = 1 + clusters + nodes + ranks + ranks * trace["ThreadsPerRank"]  # with the machine root
mt.check(points == expected, "reloaded layout has %d points, expected %d" % (points, expected))

paje_reader = FindSource("pajereader")
paje_reader.UpdatePipeline()
mt.check(paje_reader.GetDataInformation(0).GetNumberOfRows() == paje_rows_before,
         "the reloaded Pajé reader reads %d states, %d before"
         % (paje_reader.GetDataInformation(0).GetNumberOfRows(), paje_rows_before))

# The OTF2 reader's HierarchyFile, with a Locations path of the regrouped
# tree: both survive a state file, and the reloaded reader reads the same rows.
hierarchy_file = os.path.join(args.output, "pair.json")
with open(hierarchy_file, "w") as f:
    json.dump({"name": "all", "children": [{"name": "pair", "kind": "cluster", "children": [
        {"name": "MPI Rank 5"}, {"name": "MPI Rank 0"}]}]}, f)
hreader_settings = dict(FileName=anchor, HierarchyFile=hierarchy_file,
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
check_source("hreader", hreader_settings)
hreader = FindSource("hreader")
hreader.UpdatePipeline()
mt.check(hreader.GetDataInformation(0).GetNumberOfRows() == hrows,
         "the reloaded regrouped reader reads %d states, %d before"
         % (hreader.GetDataInformation(0).GetNumberOfRows(), hrows))

# Nothing of Plugin/*.xml left out.
mt.check(not coverage.fixed_errors(), "\n".join(coverage.fixed_errors()))
mt.check(not coverage.errors, "settings that prove nothing:\n  " + "\n  ".join(coverage.errors))
missing_proxies = coverage.uncovered_proxies(seen)
mt.check(not missing_proxies, "proxies of Plugin/*.xml this test never builds (add them): "
         + ", ".join(missing_proxies))
missing = coverage.missing()
mt.check(not missing, "%d properties of Plugin/*.xml are not set off their default and checked "
         "after a reload (add them to this test):\n  %s" % (len(missing), "\n  ".join(missing)))
print("state round trip: %d properties of %d proxies checked, %d connections"
      % (len(coverage.checked), len(seen), len(connections_before)))
