"""Every Macroscope filter and representation on every kind of empty input.

Empty tables are normal: a trace without messages (only collectives), without
events, without variables, or a window that holds nothing at all must go
through every filter and representation without an error, giving the right
columns with zero rows, or the content the other tables call for.

The filters and representation types come from Plugin/*.xml: a proxy of the
Macroscope menu category or a representation type of the Macroscope display
that has no recipe below makes the test fail, so a new one cannot be
forgotten. Every kind of empty input is read by the real readers:

- no messages: a synthesized OTF2 trace of the allreduce pattern;
- no events, no variables: the synthesizer's Pajé twin of a stencil trace
  with its PajeNewEvent, resp. PajeSetVariable lines removed;
- empty window: the OTF2 and the Pajé reader asked for a window after the
  trace's end (no states either).

Errors and warnings of VTK are captured; an error fails the test. Each
representation type is rendered (pvbatch under xvfb-run) and its picture
must show type-coloured marks where the trace has content, and none where
the window holds nothing."""
import glob
import os
import xml.etree.ElementTree as ET

import macroscope_testing as mt
import state_coverage

args = mt.parse_args()
from paraview import servermanager
from paraview.simple import *
from vtkmodules.vtkIOImage import vtkPNGReader

mt.load_plugin(args, globals())
proxies = state_coverage.plugin_proxies(args.source)

# ---------------------------------------------------------------------------
# What must be covered, read from the XML.


def macroscope_menu_proxies():
    names = set()
    for path in glob.glob(os.path.join(args.source, "Plugin", "*.xml")):
        for group in ET.parse(path).getroot().iter("ProxyGroup"):
            if group.get("name") not in ("sources", "filters"):
                continue
            for proxy in group:
                if any(h.get("category") == "Macroscope" for h in proxy.iter("ShowInMenu")):
                    names.add(proxy.get("name"))
    return names


MENU_PROXIES = macroscope_menu_proxies()
REPRESENTATION_TYPES = set(state_coverage.Coverage(args.source).composite().types)
mt.check(MENU_PROXIES and REPRESENTATION_TYPES, "no Macroscope proxies or representation types found")

# Proxies that take no trace: why they are not run on empty inputs.
NOT_TRACE_CONSUMERS = {
    "MacroscopeSyntheticTrace": "writes a trace (the synthesizer), reads none",
}

# The data contract's columns (docs/architecture.md), which readers must give
# their tables even without rows.
CONTRACT = {
    0: ("States", ["Location", "Type", "Depth", "Start", "End"]),
    1: ("Messages", ["Sender", "Receiver", "SendTime", "RecvTime", "Bytes", "Tag", "Communicator"]),
    2: ("Events", ["Location", "Type", "Time"]),
    3: ("Variables", ["Location", "Variable", "Time", "Value"]),
}

# ---------------------------------------------------------------------------
# The traces.

failures = []
current_kind = "setup"


def expect(condition, message):
    if not condition:
        failures.append("[%s] %s" % (current_kind, message))
        print("FAILED: [%s] %s" % (current_kind, message))
    return condition


def columns(table):
    return [table.GetColumnName(c) for c in range(table.GetNumberOfColumns())]


def strip_paje(source, target, removed):
    """Copies a Pajé file without the lines of the event kinds `removed`
    (their definitions stay: the types are declared, no record uses them)."""
    ids = set()
    with open(source) as f:
        lines = f.readlines()
    for line in lines:
        words = line.split()
        if len(words) >= 3 and words[0] == "%EventDef" and words[1] in removed:
            ids.add(words[2])
    mt.check(len(ids) == len(removed), "%s defines %s, expected %s" % (source, ids, removed))
    kept = [l for l in lines if not (l.split() and l.split()[0] in ids)]
    mt.check(len(kept) < len(lines), "%s has no %s records to remove" % (source, removed))
    with open(target, "w") as f:
        f.writelines(kept)
    return target


shape = ["--clusters", 1, "--nodes-per-cluster", 2, "--ranks-per-node", 2,
         "--threads-per-rank", 2, "--iterations", 4]
allreduce_dir = os.path.join(args.output, "allreduce")
mt.synthesize(args, allreduce_dir, "--pattern", "allreduce", *shape)
stencil_dir = os.path.join(args.output, "stencil")
stencil_paje = os.path.join(args.output, "stencil.paje")
summary = mt.synthesize(args, stencil_dir, "--pattern", "stencil3d", "--paje", stencil_paje, *shape)
no_events = strip_paje(stencil_paje, os.path.join(args.output, "no-events.paje"), ["PajeNewEvent"])
no_variables = strip_paje(stencil_paje, os.path.join(args.output, "no-variables.paje"),
                          ["PajeSetVariable"])
LEAVES = 8  # 2 nodes x 2 ranks x 2 threads

# kind -> (reader, its file, the reader's window, the tables that must be empty)
KINDS = {
    "no messages": ("OTF2", os.path.join(allreduce_dir, "traces.otf2"), [0.0, 0.0], [1]),
    "no events": ("Paje", no_events, [0.0, 0.0], [2]),
    "no variables": ("Paje", no_variables, [0.0, 0.0], [3]),
    "empty window": ("OTF2", os.path.join(stencil_dir, "traces.otf2"), [100.0, 200.0], [0, 1, 2, 3]),
    "empty Paje window": ("Paje", stencil_paje, [100.0, 200.0], [0, 1, 2, 3]),
}

# ---------------------------------------------------------------------------
# Running a proxy and checking its outputs.

def captured(action):
    """Runs `action` with VTK's messages captured (pvbatch sends Python's
    output there too, so nothing is printed meanwhile); returns them and
    what `action` returned."""
    capture = mt.ErrorCapture()
    try:
        result = action()
    finally:
        text = capture.text()
        capture.close()
    return text, result


last_text = ""


def quietly(what, action):
    """Runs `action` (see captured); an error fails the test, and so does a
    claim of a missing column (the tables are empty, never malformed).
    Returns whether there was none, and what `action` returned; the
    messages are kept in `last_text`."""
    global last_text
    text, result = captured(action)
    last_text = text
    expect("misses a column" not in text, "%s claims a missing column of well-formed empty "
           "tables:\n%s" % (what, text.strip()[:2000]))
    if "ERROR" in text:
        expect(False, "%s reports an error:\n%s" % (what, text.strip()[:2000]))
        return False, result
    if text.strip():
        print("[%s] %s warns: %s" % (current_kind, what, text.strip()[:500]))
    return True, result


def update(proxy, what):
    """Updates every output port of `proxy`; VTK errors fail the test."""
    return quietly(what, proxy.UpdatePipeline)[0]


def fetch(proxy, port=0):
    return quietly("fetching output %d" % port, lambda: servermanager.Fetch(proxy, idx=port))[1]


def check_tables(proxy, what):
    """Every table output has columns; returns the fetched outputs."""
    outputs = []
    for port in range(proxy.GetNumberOfOutputPorts()):
        data = fetch(proxy, port)
        outputs.append(data)
        if data is not None and data.IsA("vtkTable"):
            expect(data.GetNumberOfColumns() > 0, "%s output %d is a table without columns"
                   % (what, port))
    return outputs


def model_values(image):
    array = image.GetPointData().GetArray("Value")
    if array is None:
        return None
    return [array.GetValue(i) for i in range(array.GetNumberOfValues())]


def check_model(image, what, empty_rows):
    dims = image.GetDimensions()
    values = model_values(image)
    if not expect(values is not None, "%s has no Value array" % what):
        return
    expect(dims[0] == 10, "%s has %d slices, 10 asked" % (what, dims[0]))
    expect(len(values) == dims[0] * dims[1] * dims[2], "%s: %d values for dims %s"
           % (what, len(values), dims))
    expect(all(v == v and abs(v) != float("inf") for v in values), "%s has non-finite values" % what)
    if empty_rows:
        expect(all(v == 0 for v in values), "%s is not zero without rows" % what)
    return values


# ---------------------------------------------------------------------------
# Recipes: one a Macroscope proxy, building it on the kind's pipeline and
# checking what it must give. `ctx` holds the kind's reader and upstream
# filters built by earlier recipes (in this order).

METRICS = sorted(proxies["MacroscopeTimeSlicing"].properties["Metric"].enum.items(),
                 key=lambda item: item[1])
# Metric -> the reader output it slices.
METRIC_TABLE = {0: 0, 1: 2, 2: 3}  # others: Messages (1)


def rows_of(ctx, port):
    return ctx["rows"][port]


def recipe_time_slicing(ctx):
    for text, value in METRICS:
        table = METRIC_TABLE.get(value, 1)
        what = "Time Slicing (%s)" % text
        slicing = TimeSlicing(Input=ctx["outs"], Metric=text, Slices=10)
        if update(slicing, what):
            # the real reason for an all-zero model, not silence.
            said = "No %s in the window" % ("state", "event", "variable sample")[value] \
                if value < 3 else "No message in the window"
            if rows_of(ctx, table) == 0:
                expect(said in last_text and "The trace spans" in last_text,
                       "%s of an empty table does not say '%s' and the trace's span: %r"
                       % (what, said, last_text.strip()[:500]))
            else:
                expect(said not in last_text, "%s warns '%s' with %d rows"
                       % (what, said, rows_of(ctx, table)))
            values = check_model(fetch(slicing), what, rows_of(ctx, table) == 0)
            if value == 0:
                ctx["model"] = slicing
                if rows_of(ctx, 0) > 0 and values:
                    expect(sum(values) > 0, "%s: states but a zero model" % what)


def recipe_streamed(ctx):
    if current_kind.startswith("empty"):
        # Its window is the only one: after the trace's end it is refused, as
        # Time Slicing's is (a window the trace cannot fill is a mistake).
        streamed = StreamedTimeSlicing(FileName=ctx["file"], TimeWindow=ctx["window"],
                                       UseModelCache=0)
        text = captured(streamed.UpdatePipeline)[0]
        expect("after the trace ends" in text, "Streamed Time Slicing accepts a window after the "
               "trace's end: %s" % text.strip()[:500])
        Delete(streamed)
        return
    for text, value in METRICS:
        table = METRIC_TABLE.get(value, 1)
        what = "Streamed Time Slicing (%s)" % text
        streamed = StreamedTimeSlicing(FileName=ctx["file"], Metric=text, Slices=10,
                                       TimeWindow=ctx["window"], UseModelCache=0)
        if update(streamed, what):
            check_model(fetch(streamed), what, rows_of(ctx, table) == 0)
        Delete(streamed)


def recipe_logical_time(ctx):
    logical = LogicalTime(Input=ctx["outs"])
    ctx["logical"] = logical
    if not update(logical, "Logical Time"):
        return
    events = check_tables(logical, "Logical Time")[0]
    if ctx["rows"][0] == 0:
        expect(events.GetNumberOfRows() == 0, "Logical Time has events in an empty window")
        return
    expect(events.GetNumberOfRows() > 0, "Logical Time has no logical event")
    # Every collective is one logical step shared by all its members.
    steps = {}
    members = {}
    for location, step, collective in zip(mt.column(events, "Location"),
                                           mt.column(events, "GlobalStep"),
                                           mt.column(events, "Collective")):
        if collective >= 0:
            steps.setdefault(collective, set()).add(step)
            members.setdefault(collective, set()).add(location)
    if current_kind == "no messages":
        expect(len(steps) >= 4, "Logical Time finds %d collectives in the allreduce trace"
               % len(steps))
        for collective, at in steps.items():
            expect(len(at) == 1, "collective %d spans the steps %s" % (collective, sorted(at)))
            expect(len(members[collective]) == 4, "collective %d has the members %s, the 4 ranks "
                   "expected" % (collective, sorted(members[collective])))


def recipe_statistics(ctx):
    statistics = TraceStatistics(Input=ctx["outs"])
    if not update(statistics, "Trace Statistics"):
        return
    producers, types, density = check_tables(statistics, "Trace Statistics")
    total = producers.GetFieldData().GetArray("TotalStates").GetValue(0)
    expect(total == ctx["rows"][0], "Trace Statistics counts %d states, the reader %d"
           % (total, ctx["rows"][0]))
    # Every producer and type is listed, with zeros where nothing happened.
    expect(producers.GetNumberOfRows() == LEAVES, "Trace Statistics lists %d producers, not the %d "
           "locations" % (producers.GetNumberOfRows(), LEAVES))
    expect(types.GetNumberOfRows() > 0, "Trace Statistics lists no type")


def recipe_active_producers(ctx):
    producers = ActiveProducers(Input=ctx["outs"])
    if update(producers, "Active Producers"):
        check_tables(producers, "Active Producers")


def polydata_cells(proxy, port=0):
    data = fetch(proxy, port)
    return data.GetNumberOfCells() if data is not None and data.IsA("vtkPolyData") else -1


def recipe_timeline_layout(ctx):
    layout = TimelineLayout(Input=ctx["outs"])
    if update(layout, "Timeline Layout") and ctx["rows"][0] > 0:
        expect(polydata_cells(layout) > 0, "Timeline Layout draws no state mark")


def recipe_topology(ctx):
    scene = TopologyTimeScene(Input=[ctx["outs"][i] for i in (0, 1, 4, 5)])
    if update(scene, "Topology-Time Scene") and ctx["rows"][0] > 0:
        expect(polydata_cells(scene) > 0, "the Topology-Time Scene draws no state")


def recipe_hierarchy_layout(ctx):
    layout = HierarchyLayout(Input=ctx["outs"][4])
    if update(layout, "Hierarchy Layout"):
        expect(polydata_cells(layout) > 0, "Hierarchy Layout draws nothing")


def on_model(name, make):
    def recipe(ctx):
        proxy = make(ctx)
        ctx[name] = proxy
        if update(proxy, name):
            check_tables(proxy, name)
    return recipe


def on_logical(name, make):
    def recipe(ctx):
        proxy = make(Input=[OutputPort(ctx["logical"], i) for i in range(9)])
        if update(proxy, name):
            check_tables(proxy, name)
    return recipe


RECIPES = [
    ("MacroscopeTimeSlicing", recipe_time_slicing),
    ("MacroscopeStreamedTimeSlicing", recipe_streamed),
    ("MacroscopeLogicalTime", recipe_logical_time),
    ("MacroscopeTraceStatistics", recipe_statistics),
    ("MacroscopeActiveProducers", recipe_active_producers),
    ("MacroscopeTimelineLayout", recipe_timeline_layout),
    ("MacroscopeTopologyScene", recipe_topology),
    ("MacroscopeHierarchyLayout", recipe_hierarchy_layout),
    ("MacroscopeHierarchicalAggregation", on_model(
        "hierarchical", lambda c: HierarchicalAggregation(Input=c["model"]))),
    ("MacroscopeSpatiotemporalAggregation", on_model(
        "partition", lambda c: SpatiotemporalAggregation(Input=c["model"]))),
    ("MacroscopeSpatialAggregation", on_model(
        "spatial", lambda c: SpatialAggregation(Input=c["model"]))),
    ("MacroscopeTemporalAggregation", on_model(
        "temporal", lambda c: TemporalAggregation(Input=c["model"]))),
    ("MacroscopeModelDifference", on_model(
        "difference", lambda c: ModelDifference(Input=c["model"], Other=c["model"]))),
    ("MacroscopeDifferenceSummary", on_model(
        "summary", lambda c: DifferenceSummary(Input=c["partition"]))),
    ("MacroscopeResourceTreemap", on_model(
        "treemap", lambda c: ResourceTreemap(Input=c["model"]))),
    ("MacroscopeSpatiotemporalOverviewLayout", on_model(
        "stlayout", lambda c: SpatiotemporalOverviewLayout(Input=c["partition"]))),
    ("MacroscopeTemporalOverviewLayout", on_model(
        "tlayout", lambda c: TemporalOverviewLayout(Input=c["temporal"]))),
    ("MacroscopeTreemapLayout", on_model(
        "treemaplayout", lambda c: TreemapLayout(Input=c["treemap"]))),
    ("MacroscopeLogicalTimelineLayout", on_logical("Logical Timeline Layout", LogicalTimelineLayout)),
    ("MacroscopeClusteredTimelineLayout", on_logical("Clustered Timeline Layout",
                                                     ClusteredTimelineLayout)),
    ("MacroscopeMetricOverviewLayout", on_logical("Metric Overview Layout", MetricOverviewLayout)),
]

# Representation type -> the context entry it shows, and whether its picture
# must hold type-coloured marks when the window holds states.
DISPLAYS = {
    "Timeline": "reader",
    "Temporal Overview": "temporal",
    "Spatiotemporal Overview": "partition",
    "Treemap": "treemap",
    "Logical Timeline": "logical",
    "Clustered Logical Timeline": "logical",
    "Metric Overview": "logical",
    "Topology-Time 3D": "reader",
}

covered = {name for name, _ in RECIPES} | set(NOT_TRACE_CONSUMERS)
missing = sorted(MENU_PROXIES - covered)
mt.check(not missing, "proxies of the Macroscope menu without an empty-input recipe: %s" % missing)
unknown = sorted(covered - MENU_PROXIES)
mt.check(not unknown, "recipes for proxies the XML does not define: %s" % unknown)
missing = sorted(REPRESENTATION_TYPES - set(DISPLAYS))
mt.check(not missing, "representation types without an empty-input display: %s" % missing)


def count_pixels(path):
    """The pixels of a saturated colour (type and metric colours, not the
    white background, grey guides or dark labels), and the dark ones."""
    reader = vtkPNGReader()
    reader.SetFileName(path)
    reader.Update()
    scalars = reader.GetOutput().GetPointData().GetScalars()
    coloured = dark = 0
    for i in range(scalars.GetNumberOfTuples()):
        rgb = scalars.GetTuple(i)[:3]
        if max(rgb) - min(rgb) > 60:
            coloured += 1
        elif max(rgb) < 128:
            dark += 1
    return coloured, dark


def render(ctx, rtype, source):
    what = "the %s display" % rtype
    view = CreateView("RenderView")
    view.OrientationAxesVisibility = 0
    view.UseColorPaletteForBackground = 0
    view.Background = [1, 1, 1]
    path = os.path.join(args.output, "%s-%s.png" % (current_kind.replace(" ", "-"),
                                                    rtype.replace(" ", "-")))

    def draw():
        display = Show(OutputPort(source, 0), view, "MacroscopeTraceRepresentation")
        display.SetRepresentationType(rtype)
        display.ShowLegend = 0
        if rtype != "Topology-Time 3D":
            display.LabelColor = [0.1, 0.1, 0.1]  # dark guides and labels on white
        Render(view)
        view.ResetCamera(True)
        SaveScreenshot(path, view, ImageResolution=[400, 250], TransparentBackground=0)
        return display
    ok, display = quietly(what, draw)
    colour, dark = count_pixels(path)
    print("[%s] %s: %d coloured, %d dark pixels (%s)" % (current_kind, what, colour, dark, path))
    if rtype == "Timeline":
        # Even without states it shows its rows and time axis.
        expect(dark > 500, "%s draws no row labels or axis (see %s)" % (what, path))
    if ctx["rows"][0] > 0:
        expect(colour > 200, "%s is blank (%d coloured pixels, see %s)" % (what, colour, path))
    else:
        expect(colour == 0, "%s draws %d coloured pixels of an empty window (see %s)"
               % (what, colour, path))
    Delete(display)
    Delete(view)


for current_kind, (format_name, path, window, empty) in KINDS.items():
    make_reader = OTF2TraceReader if format_name == "OTF2" else PajeTraceReader
    reader = make_reader(FileName=path, TimeWindow=window)
    mt.check(update(reader, "the %s reader" % format_name), "the %s reader fails on %s"
             % (format_name, path))
    # a window that holds nothing is a warning naming the window
    # and the trace's span (both readers); a window with rows, none.
    span = reader.GetProperty("TimeBounds")
    said = "TimeWindow (%g, %g) s holds nothing of %s" % (window[0], window[1], path)
    if current_kind.startswith("empty"):
        expect(said in last_text and ("spans %g s to %g s" % (span[0], span[1])) in last_text,
               "the %s reader's empty window is not reported with the window and the span "
               "(%g to %g s): %r" % (format_name, span[0], span[1], last_text.strip()[:800]))
    else:
        expect("holds nothing" not in last_text, "the %s reader reports an empty window: %r"
               % (format_name, last_text.strip()[:800]))
    ctx = dict(reader=reader, file=path, window=window, outs=[OutputPort(reader, i) for i in range(6)])
    ctx["rows"] = {}
    for port, (table_name, contract) in CONTRACT.items():
        table = fetch(reader, port)
        ctx["rows"][port] = table.GetNumberOfRows()
        missing = [c for c in contract if table.GetColumnByName(c) is None]
        expect(not missing, "the %s reader's %s table misses %s (has %s)"
               % (format_name, table_name, missing, columns(table)))
        if port in empty:
            expect(table.GetNumberOfRows() == 0, "%s has %d rows, none expected"
                   % (table_name, table.GetNumberOfRows()))
        elif port == 0:
            expect(table.GetNumberOfRows() > 0, "States has no rows")
    print("[%s] rows: %s" % (current_kind, ctx["rows"]))
    for name, recipe in RECIPES:
        recipe(ctx)
    for rtype, source in DISPLAYS.items():
        render(ctx, rtype, ctx[source])
mt.check(not failures, "%d failures:\n%s" % (len(failures), "\n".join(failures)))
print("%d proxies and %d representation types on %d kinds of empty input"
      % (len(RECIPES), len(DISPLAYS), len(KINDS)))
