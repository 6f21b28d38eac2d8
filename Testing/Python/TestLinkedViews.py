"""Linked views (docs/linked-views.md): one window and one selection for
every Macroscope view of a trace.

A synthesized trace is shown as a Timeline, Temporal and Spatiotemporal
Overviews (Time Slicing -> aggregations), a Treemap (Resource Treemap), a
Logical Timeline (Logical Time) and Topology-Time 3D, and
macroscope.link_views() links them. Checked:

- the whole-trace conventions agree: the Timeline's axis and Time Slicing's
  model span the same times for the default window (0, 0);
- a rubber band over a known state bar of the Timeline (its pixels from the
  state's times through the camera, computed here) gives that state's times,
  and becomes every member's TimeWindow; the outputs follow: the Timeline's
  TimeAxis, the model's TimeWindow, the treemap's, and the Logical
  Timeline's steps equal a brute force over the Logical Events;
- a rubber band over logical columns gives the time span of their steps
  from Logical Time's Steps table (recomputed here);
- set_selection: Time Slicing's model keeps the named resources and types;
  the Logical Timeline's boxes, rows and message lines, the Metric
  Overview's bars, the Clustered Logical Timeline's band members and the
  3D scene's boxes, message segments and footprints are those a brute
  force on the input tables keeps; Streamed Time Slicing's planes equal
  Time Slicing's for the same Types, rebuilt from one cache; unknown names
  are errors naming them;
- the state file: a fresh pvbatch loads it, changes the window on one
  member and every other member follows.
"""
import math
import os
import subprocess
import sys

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())
import macroscope

STATE = os.path.join(args.output, "linked.pvsm")
CHILD = "--load-linked-state" in sys.argv


def close(a, b, tolerance, what):
    mt.check(all(abs(x - y) <= tolerance for x, y in zip(a, b)) and len(a) == len(b),
             "%s: %r, expected %r (tolerance %g)" % (what, list(a), list(b), tolerance))


def field(data, name):
    array = data.GetFieldData().GetAbstractArray(name)
    mt.check(array is not None, "no %s field data on a %s (%d cells; field data: %s)" % (
        name, data.GetClassName(), data.GetNumberOfElements(1) if hasattr(data, "GetNumberOfElements") else -1,
        [data.GetFieldData().GetArrayName(i) for i in range(data.GetFieldData().GetNumberOfArrays())]))
    return [array.GetComponent(0, k) for k in range(array.GetNumberOfComponents())]


def marks(display):
    Render(view)
    return display.GetClientSideObject().GetActiveRepresentation().GetRenderedDataObject(0)


def members_window(name="Macroscope"):
    return {m.GetXMLName() + ":" + str(m.SMProxy.GetGlobalIDAsString()): list(m.TimeWindow)
            for m in macroscope.links.linked_members(name, "TimeWindow")}


def check_all_windows(window, what):
    windows = members_window()
    kinds = sorted(key.split(":")[0] for key in windows)
    # Time Slicing, Resource Treemap and the six displays; not the reader
    # nor Logical Time (docs/linked-views.md).
    expected = sorted(["MacroscopeTimeSlicing", "MacroscopeResourceTreemap"] +
                      ["MacroscopeTraceRepresentation"] * 6)
    mt.check(kinds == expected, "%s: members linked on TimeWindow %r, expected %r"
             % (what, kinds, expected))
    for key, value in windows.items():
        close(value, window, 1e-12, "%s: %s TimeWindow" % (what, key))


def brute_force_steps(events, t0, t1):
    """First and last GlobalStep of the Logical Events in [t0, t1) (an end
    of 0: to the trace end), by the rule of docs/linked-views.md."""
    end = math.inf if t1 == 0 else t1
    found = []
    for g, a, b in zip(events["GlobalStep"], events["Enter"], events["Exit"]):
        if not (math.isfinite(a) and math.isfinite(b)):
            continue
        inside = (a < end and b > t0) if a < b else (a >= t0 and (a < end or math.isinf(end)))
        if inside:
            found.append(g)
    return [min(found), max(found)] if found else [0, -1]



def show_only(display):
    """Shows `display` alone among the chart displays of the first view."""
    for other in shown.values():
        if other.GetXMLName() == "MacroscopeTraceRepresentation" and other is not shown.get(
                "Topology-Time 3D"):
            other.Visibility = 1 if other is display else 0


def leaves_below(tree, name):
    """The LeafIndex of every leaf at or below a vertex called `name`."""
    names = tree.GetVertexData().GetAbstractArray("Name")
    leaf = tree.GetVertexData().GetArray("LeafIndex")
    found = set()
    for v in range(tree.GetNumberOfVertices()):
        if leaf.GetValue(v) < 0:
            continue
        u = v
        while u >= 0:
            if names.GetValue(u) == name:
                found.add(int(leaf.GetValue(v)))
                break
            u = tree.GetParent(u) if u != tree.GetRoot() else -1
    return found


def brute_force_logical(events, keep_leaf, keep_type):
    """The Logical Events rows a selection keeps, from the rule of
    docs/linked-views.md: a selected location, and a selected type or, for
    an aggregate (Type -1), its communication event's (GlobalStep + 1)."""
    triples = list(zip(events["Location"], events["GlobalStep"], events["Type"]))
    typed = {(l, g) for l, g, t in triples if t >= 0 and t in keep_type}
    return {i for i, (l, g, t) in enumerate(triples)
            if l in keep_leaf and ((t >= 0 and t in keep_type) or (t < 0 and (l, g + 1) in typed))}


def scene_outputs(display, **selection):
    """The state boxes a 3D display draws, and the States, Messages and
    Base of a Topology-Time Scene filter (the class the display draws
    with) on the same trace and selection."""
    Render(scene_view)
    boxes = display.GetClientSideObject().GetActiveRepresentation().GetRenderedDataObject(0)
    scene = TopologyTimeScene(Input=ports, **selection)
    scene.UpdatePipeline()
    outputs = [servermanager.Fetch(scene, idx=port) for port in range(3)]
    Delete(scene)
    copy = boxes.NewInstance()
    copy.ShallowCopy(boxes)
    return [copy] + outputs


def cell_values(data, name):
    array = data.GetCellData().GetAbstractArray(name)
    mt.check(array is not None, "no %s cell array on a %s" % (name, data.GetClassName()))
    return [array.GetValue(i) for i in range(array.GetNumberOfValues())]


def check_selection_everywhere(type_names, state_types, ranks_per_node):
    """The selection on the logical views, the 3D scene and Streamed Time
    Slicing, each against a brute force on the input tables."""
    import numpy as np
    macroscope.set_selection(resources=[], types=[])
    macroscope.set_window(0, 0)
    scene = shown["Topology-Time 3D"]
    everything = scene_outputs(scene)
    all_boxes = set(zip(cell_values(everything[0], "vtkOriginalCellIds"),
                        cell_values(everything[0], "Location"), cell_values(everything[0], "Type")))
    mt.check(all_boxes == set(zip(cell_values(everything[1], "vtkOriginalCellIds"),
                                  cell_values(everything[1], "Location"),
                                  cell_values(everything[1], "Type"))),
             "the 3D display and the Topology-Time Scene filter draw different boxes")
    all_flights = set(zip(cell_values(everything[2], "vtkOriginalCellIds"),
                          cell_values(everything[2], "Sender"), cell_values(everything[2], "Receiver")))

    hierarchy = servermanager.Fetch(reader, idx=4)
    keep_leaf = leaves_below(hierarchy, "node-1")
    mt.check(len(keep_leaf) == ranks_per_node, "node-1 has %d leaves" % len(keep_leaf))
    events = {n: mt.column(events_table, n) for n in ("Location", "GlobalStep", "Type", "Phase", "Metric")}
    communication = sorted({t for t in events["Type"] if t >= 0})
    mt.check(len(communication) >= 2, "the trace has %d communication types" % len(communication))
    # Two communication types (both states), given out of the table's order.
    chosen = [type_names[communication[-1]], type_names[communication[0]]]
    keep_type = {communication[0], communication[-1]}
    macroscope.set_selection(resources=["node-1"], types=chosen)
    for rtype, display in shown.items():
        mt.check(list(display.Resources) == ["node-1"] and list(display.Types) == chosen,
                 "the %s display did not follow the selection: %r %r"
                 % (rtype, list(display.Resources), list(display.Types)))

    # Logical Timeline: the boxes (rows of Logical Events) and message lines.
    logical_display = shown["Logical Timeline"]
    show_only(logical_display)
    boxes = marks(logical_display)
    kept = brute_force_logical(events, keep_leaf, keep_type)
    mt.check(kept and len(kept) < len(events["Location"]), "the selection keeps %d of %d events"
             % (len(kept), len(events["Location"])))
    drawn = set(cell_values(boxes, "Event"))
    mt.check(drawn == kept, "Logical Timeline: %d boxes drawn, the brute force keeps %d (%d differ)"
             % (len(drawn), len(kept), len(drawn ^ kept)))
    rows = set(cell_values(boxes, "Location"))
    mt.check(rows == {events["Location"][i] for i in kept} and rows <= keep_leaf,
             "Logical Timeline rows %r, node-1's locations %r" % (sorted(rows), sorted(keep_leaf)))
    messages_table = servermanager.Fetch(logical, idx=1)
    sends, recvs = mt.column(messages_table, "SendEvent"), mt.column(messages_table, "RecvEvent")
    kept_messages = {m for m, (a, b) in enumerate(zip(sends, recvs)) if a in kept and b in kept}
    layout = LogicalTimelineLayout(Input=[OutputPort(logical, i) for i in (0, 1, 2, 3, 4, 5, 8)],
                                   Resources=["node-1"], Types=chosen)
    layout.UpdatePipeline()
    mt.check(set(cell_values(servermanager.Fetch(layout, idx=0), "Event")) == kept,
             "the Logical Timeline Layout filter keeps other events than the display")
    lines = servermanager.Fetch(layout, idx=1)
    Delete(layout)
    drawn_messages = {m for m in cell_values(lines, "Message") if m >= 0}
    mt.check(drawn_messages == kept_messages, "Logical Timeline: %d message lines, the brute force "
             "keeps %d" % (len(drawn_messages), len(kept_messages)))

    # Metric Overview: a bar per step, the sum of the selected events' metric.
    logical_display.Representation = "Metric Overview"
    bars = marks(logical_display)
    got = {int(g): v for g, v in zip(cell_values(bars, "GlobalStep"), cell_values(bars, "Value"))
           if g >= 0}
    sums = {}
    for i in kept:
        sums[events["GlobalStep"][i]] = sums.get(events["GlobalStep"][i], 0.0) + events["Metric"][i]
    expected = {g: v for g, v in sums.items() if v > 0}
    mt.check(set(got) == set(expected) and all(abs(got[g] - expected[g]) <= 1e-9 * max(1.0, abs(v))
                                               for g, v in expected.items()),
             "Metric Overview bars differ from the selected events' sums: %d vs %d steps "
             "(first differences: %r)" % (len(got), len(expected), sorted(
                 (g, got.get(g), expected.get(g)) for g in set(got) | set(expected)
                 if abs(got.get(g, 0) - expected.get(g, 0)) > 1e-9)[:5]))

    # Clustered Logical Timeline: the bands hold the selected members only.
    logical_display.Representation = "Clustered Logical Timeline"
    clustered = marks(logical_display)
    members = {}
    for mark, phase, count in zip(cell_values(clustered, "Mark"), cell_values(clustered, "Phase"),
                                  cell_values(clustered, "Fraction")):
        if mark == 0:  # BAND: Fraction holds its member count
            members[phase] = members.get(phase, 0) + int(count)
    clusters = servermanager.Fetch(logical, idx=2)
    phases_drawn = {events["Phase"][i] for i in kept}
    expected = {}
    for phase, location in zip(mt.column(clusters, "Phase"), mt.column(clusters, "Location")):
        if phase in phases_drawn and location in keep_leaf:
            expected[phase] = expected.get(phase, 0) + 1
    mt.check(members == expected, "Clustered Logical Timeline band members %r, expected %r"
             % (members, expected))
    logical_display.Representation = "Logical Timeline"

    # Topology-Time 3D: the boxes and flights of the whole scene that the
    # selection keeps, and node-1's footprints only.
    selected = scene_outputs(scene, Resources=["node-1"], Types=chosen)
    chosen_ids = {type_names.index(n) for n in chosen}
    expected_boxes = {b for b in all_boxes if b[1] in keep_leaf and b[2] in chosen_ids}
    for output, who in ((selected[0], "display"), (selected[1], "filter")):
        boxes = set(zip(cell_values(output, "vtkOriginalCellIds"),
                        cell_values(output, "Location"), cell_values(output, "Type")))
        mt.check(boxes and boxes == expected_boxes, "3D scene (%s): %d boxes, expected %d of %d"
                 % (who, len(boxes), len(expected_boxes), len(all_boxes)))
    flights = set(zip(cell_values(selected[2], "vtkOriginalCellIds"),
                      cell_values(selected[2], "Sender"), cell_values(selected[2], "Receiver")))
    expected_flights = {f for f in all_flights if f[1] in keep_leaf and f[2] in keep_leaf}
    mt.check(flights and flights == expected_flights, "3D scene: %d message segments, expected %d"
             % (len(flights), len(expected_flights)))
    footprints = [k for k in cell_values(selected[3], "Kind") if k == "process"]
    mt.check(len(footprints) == len(keep_leaf), "3D scene: %d process footprints for node-1"
             % len(footprints))

    # Streamed Time Slicing: the same planes as Time Slicing for the same
    # Types; another selection is rebuilt from the cache, not read again.
    streamed = StreamedTimeSlicing(FileName=reader.FileName, Slices=slicing.Slices,
                                   Resources=["node-1"], Types=chosen, CacheSlices=40 * 10,
                                   CacheDirectory=os.path.join(args.output, "cache"))
    def info(name):
        streamed.UpdatePropertyInformation()
        return streamed.GetProperty(name).GetElement(0)

    for types in (chosen, [chosen[1]], state_types[:3]):
        streamed.Types = types
        macroscope.set_selection(types=types)
        slicing.UpdatePipeline()
        streamed.UpdatePipeline()
        want, _, _ = mt.gather_model(slicing)
        got, _, _ = mt.gather_model(streamed)
        mt.check(got.shape == want.shape and got.shape[0] == len(set(types)),
                 "Types %r: streamed model %r, Time Slicing's %r" % (types, got.shape, want.shape))
        mt.check(np.allclose(got, want, rtol=1e-9, atol=1e-12 * max(1.0, np.abs(want).max())),
                 "Types %r: the streamed planes differ from Time Slicing's by %g"
                 % (types, np.abs(got - want).max()))
        mt.check(info("NumberOfTraceReads") == 1 and info("DirtySlices") == 0,
                 "Types %r: %d trace reads, %d dirty slices (one read, then the cache)"
                 % (types, info("NumberOfTraceReads"), info("DirtySlices")))
    mt.check(info("ModelOrigin") == "cache", "another Types selection was not rebuilt from the cache")
    Delete(streamed)
    macroscope.set_selection(resources=["node-1"], types=chosen)
    print("selection: logical views, 3D scene and Streamed Time Slicing follow")

if CHILD:
    # Process 2: a fresh pvbatch loads the state and moves the window on one member.
    state = sys.argv[sys.argv.index("--load-linked-state") + 1]
    LoadState(state)
    pxm = servermanager.ProxyManager()
    for prop in ("TimeWindow", "Resources", "Types"):
        mt.check(pxm.GetRegisteredLink("Macroscope." + prop) is not None,
                 "the state restored no link Macroscope.%s" % prop)
    slicing = FindSource("slicing")
    span = list(slicing.TimeWindow)
    mt.check(span[1] > span[0] > 0, "the state lost the linked window: %r" % span)
    window = [span[0] * 0.5, span[1] * 0.75]
    slicing.TimeWindow = window
    check_all_windows(window, "after loading the state")
    pairs = [(v, d) for v in GetViews() for d in v.Representations
             if d.GetXMLName() == "MacroscopeTraceRepresentation" and d.Representation == "Timeline"]
    mt.check(len(pairs) == 1, "the state holds %d Timelines, 1 expected" % len(pairs))
    view, timeline = pairs[0]
    close(field(marks(timeline), "TimeAxis")[2:], window, 1e-12, "reloaded Timeline TimeAxis")
    mt.check(len(slicing.Types) == 1, "the state lost the Types selection: %r" % list(slicing.Types))
    print("fresh process: %d members follow the window %r" % (len(members_window()), window))

else:
    # --- the trace and its views --------------------------------------------------
    directory = os.path.join(args.output, "trace")
    mt.synthesize(args, directory, "--clusters", 1, "--nodes-per-cluster", 4, "--ranks-per-node", 4,
                  "--threads-per-rank", 1, "--iterations", 12, "--pattern", "stencil3d",
                  "--perturbation", "slow-node", "--perturb-target", 1,
                  "--perturb-window", 0.004, 0.008)
    reader = OTF2TraceReader(registrationName="reader",
                             FileName=os.path.join(directory, "traces.otf2"))
    ports = [OutputPort(reader, i) for i in range(6)]
    slicing = TimeSlicing(registrationName="slicing", Input=ports, Slices=40)
    temporal = TemporalAggregation(registrationName="temporal", Input=OutputPort(slicing, 0))
    spatiotemporal = SpatiotemporalAggregation(registrationName="st", Input=OutputPort(slicing, 0))
    treemap = ResourceTreemap(registrationName="treemap", Input=OutputPort(slicing, 0))
    logical = LogicalTime(registrationName="logical", Input=ports)
    logical.UpdatePipeline()

    states = servermanager.Fetch(reader, idx=0)
    columns = {n: mt.column(states, n) for n in ("Location", "Start", "End", "Depth", "Type")}
    events_table = servermanager.Fetch(logical, idx=0)
    events = {n: mt.column(events_table, n) for n in ("GlobalStep", "Enter", "Exit")}
    steps_table = servermanager.Fetch(logical, idx=4)
    steps = {n: mt.column(steps_table, n) for n in ("GlobalStep", "Start", "End")}

    view = CreateView("RenderView")
    view.ViewSize = [800, 500]
    view.OrientationAxesVisibility = 0
    # The 3D scene shows the reader's States too: in a view of its own, since
    # Show returns the display a source already has in a view.
    scene_view = CreateView("RenderView")
    scene_view.ViewSize = [400, 300]
    shown = {}
    for source, port, rtype in ((reader, 0, "Timeline"), (temporal, 0, "Temporal Overview"),
                                (spatiotemporal, 0, "Spatiotemporal Overview"),
                                (treemap, 0, "Treemap"), (logical, 0, "Logical Timeline"),
                                (reader, 0, "Topology-Time 3D")):
        target = scene_view if rtype == "Topology-Time 3D" else view
        display = Show(OutputPort(source, port), target, "MacroscopeTraceRepresentation")
        display.SetRepresentationType(rtype)
        display.Visibility = 1 if rtype in ("Timeline", "Topology-Time 3D") else 0
        shown[rtype] = display
    timeline = shown["Timeline"]
    timeline.ViewSize = [800, 500]
    timeline.ShowLegend = 0

    links = macroscope.link_views()
    mt.check(set(links) == {"TimeWindow", "Resources", "Types"},
             "link_views linked %r" % sorted(links))

    # --- one "whole trace" ---------------------------------------------------------
    Render(view)
    view.InteractionMode = "2D"
    view.ResetCamera(False)
    Render(view)
    axis = field(marks(timeline), "TimeAxis")
    slicing.UpdatePipeline()
    model_window = field(slicing.GetClientSideObject().GetOutputDataObject(0), "TimeWindow")
    close(axis[2:], model_window, 1e-9, "whole trace: the Timeline's window vs the model's")
    close(axis[2:], [min(min(columns["Start"]), 0.0), max(columns["End"])], 1e-9,
          "whole trace: the Timeline's window vs the States' span")

    # --- rubber band on the Timeline -----------------------------------------------
    # A long outermost state in the middle of the trace: its bar's x in the chart
    # from its times (the chart spans [0, width] for the whole trace), its pixels
    # through the camera.
    t_lo, t_hi = axis[2], axis[3]
    width = axis[1] - axis[0]  # the plot's, what the labels leave of ViewSize (docs/labels.md)
    candidates = sorted(range(len(columns["Start"])), key=lambda i: -(columns["End"][i] - columns["Start"][i]))
    state = next(i for i in candidates if columns["Start"][i] > t_lo + 0.1 * (t_hi - t_lo)
                 and columns["End"][i] < t_hi - 0.1 * (t_hi - t_lo))
    s, e = columns["Start"][state], columns["End"][state]
    renderer = view.GetClientSideObject().GetRenderer()


    def pixel_of(x):
        renderer.SetWorldPoint(x, 0.25 * timeline.ViewSize[1], 0.0, 1.0)  # within the plot
        renderer.WorldToDisplay()
        return renderer.GetDisplayPoint()


    x_s = axis[0] + (s - t_lo) / (t_hi - t_lo) * width
    x_e = axis[0] + (e - t_lo) / (t_hi - t_lo) * width
    p0, p1 = pixel_of(x_s), pixel_of(x_e)
    mt.check(0 < p0[0] < p1[0] < view.ViewSize[0], "the state's bar is off the view: %r %r" % (p0, p1))
    window = macroscope.select_time_range(view, [p0[0], p0[1] - 5, p1[0], p1[1] + 5])
    seconds_per_pixel = (t_hi - t_lo) / width  # chart units are about pixels here
    close(window, [s, e], 1e-9 * (t_hi - t_lo) + 1e-12, "rubber band over state %d" % state)
    check_all_windows(window, "after the rubber band")
    close(field(marks(timeline), "TimeAxis")[2:], window, 1e-12, "Timeline TimeAxis after the band")
    slicing.UpdatePipeline()
    close(field(slicing.GetClientSideObject().GetOutputDataObject(0), "TimeWindow"), window, 1e-12,
          "Time Slicing's model window")
    treemap.UpdatePipeline()
    close(field(servermanager.Fetch(treemap), "TimeWindow"), window, 1e-12, "Resource Treemap window")

    # The logical view maps the window to steps: brute force on Logical Events.
    timeline.Visibility = 0
    logical_display = shown["Logical Timeline"]
    logical_display.Visibility = 1
    Render(view)
    logical_marks = marks(logical_display)
    expected = brute_force_steps(events, window[0], window[1])
    mt.check(expected[1] >= expected[0], "no logical event in the window %r" % window)
    got = [int(v) for v in field(logical_marks, "StepsOfTimeWindow")]
    mt.check(got == expected, "logical steps of %r: %r, brute force %r" % (window, got, expected))
    drawn = [int(v) for v in field(logical_marks, "StepWindow")]
    mt.check(drawn == expected, "logical columns drawn %r, expected %r" % (drawn, expected))

    # --- rubber band on the Logical Timeline ---------------------------------------
    macroscope.set_window(0, 0)
    check_all_windows([0, 0], "whole trace again")
    logical_display.ViewSize = [800, 500]
    Render(view)
    view.ResetCamera(False)
    Render(view)
    step_axis = field(marks(logical_display), "StepAxis")
    first, last, stride = int(step_axis[2]), int(step_axis[3]), int(step_axis[4])
    columns_drawn = (last - first) // stride + 1
    column_width = (step_axis[1] - step_axis[0]) / columns_drawn
    # Columns 3..7 (their middles, so a pixel either way changes nothing).
    c0, c1 = 3, 7
    q0 = pixel_of(step_axis[0] + (c0 + 0.5) * column_width)
    q1 = pixel_of(step_axis[0] + (c1 + 0.5) * column_width)
    window = macroscope.select_time_range(view, [q0[0], q0[1], q1[0], q1[1]], logical_display)
    s0, s1 = first + c0 * stride, first + c1 * stride
    spans = [(a, b) for g, a, b in zip(steps["GlobalStep"], steps["Start"], steps["End"])
             if s0 <= g <= s1 and math.isfinite(a) and math.isfinite(b)]
    close(window, [min(a for a, _ in spans), max(b for _, b in spans)], 1e-12,
          "logical rubber band over steps %d-%d" % (s0, s1))
    check_all_windows(window, "after the logical rubber band")

    # --- the selection ---------------------------------------------------------------
    type_names = mt.column(servermanager.Fetch(reader, idx=5), "Name")
    type_kinds = mt.column(servermanager.Fetch(reader, idx=5), "Kind")
    state_types = [n for n, k in zip(type_names, type_kinds) if k == "state"]
    chosen = [state_types[-1], state_types[0]]  # given out of order: the model keeps the table's
    macroscope.set_selection(resources=["node-1"], types=chosen)
    slicing.UpdatePipeline()
    model = slicing.GetClientSideObject().GetOutputDataObject(0)
    dims = model.GetDimensions()
    mt.check(dims[2] == 2, "Types %r: the model has %d type planes" % (chosen, dims[2]))
    names = model.GetFieldData().GetAbstractArray("TypeName")
    mt.check(names is not None and [names.GetValue(i) for i in range(names.GetNumberOfValues())]
             == [state_types[0], state_types[-1]], "the model's TypeName are not the chosen types "
             "in the table's order")
    ranks_per_node = 4
    mt.check(dims[1] == ranks_per_node, "Resources node-1: the model has %d resources" % dims[1])
    # The Timeline follows: the rows of node-1's locations, marks of the chosen types.
    mt.check(list(timeline.Resources) == ["node-1"] and list(timeline.Types) == chosen,
             "the Timeline display did not follow the selection: %r %r"
             % (list(timeline.Resources), list(timeline.Types)))
    timeline.Visibility = 1
    logical_display.Visibility = 0
    timeline_marks = marks(timeline)
    rows = field(timeline_marks, "Rows")
    mt.check(int(rows[0]) == ranks_per_node, "Timeline rows for node-1: %r" % rows)
    chosen_ids = {type_names.index(n) for n in chosen}
    drawn_types = {
        int(timeline_marks.GetCellData().GetArray("Type").GetValue(i))
        for i in range(timeline_marks.GetNumberOfCells())}
    mt.check(drawn_types and drawn_types <= chosen_ids,
             "Timeline marks of types %r, chosen %r" % (sorted(drawn_types), sorted(chosen_ids)))
    check_selection_everywhere(type_names, state_types, ranks_per_node)

    errors = mt.ErrorCapture()
    macroscope.set_selection(types=["no such type"])
    slicing.UpdatePipeline()
    show_only(shown["Logical Timeline"])
    Render(view)
    Render(scene_view)
    reported = errors.text()
    errors.close()
    for who in ("MacroscopeTimeSlicing", "LogicalTimelineLayout", "Topology-Time Scene"):
        mt.check(who in reported and "no such type" in reported,
                 "an unknown type gave no error naming it from %s: %r" % (who, reported))
    macroscope.set_selection(types=[])
    errors = mt.ErrorCapture()
    macroscope.set_selection(resources=["nowhere"])
    Render(view)
    Render(scene_view)
    reported = errors.text()
    errors.close()
    for who in ("LogicalTimelineLayout", "Topology-Time Scene"):
        mt.check(who in reported and "nowhere" in reported,
                 "an unknown resource gave no error naming it from %s: %r" % (who, reported))
    show_only(timeline)
    macroscope.set_selection(resources=[], types=[chosen[0]])

    # --- nonsense gives a clear error naming it ------------------------------------------
    def expect_error(proxy, fragment):
        capture = mt.ErrorCapture()
        proxy.UpdatePipeline()
        text = capture.text()
        capture.close()
        mt.check(fragment in text, "expected an error naming %r, got:\n%s" % (fragment, text))

    expect_error(LogicalTimelineLayout(Input=[OutputPort(logical, 0)], TimeWindow=[0.002, 0.001]),
                 "TimeWindow (0.002, 0.001) is empty")
    expect_error(TimelineLayout(Input=ports, Resources=["nowhere"]), "nowhere")
    expect_error(TimelineLayout(Input=ports, Types=["no such state"]), "no such state")

    # --- the state file, in a fresh process ---------------------------------------------
    macroscope.set_window(window[0], window[1])
    SaveState(STATE)
    pvbatch = os.path.join(os.path.dirname(sys.executable), "pvbatch")
    pvbatch = pvbatch if os.path.isfile(pvbatch) else "pvbatch"
    child = subprocess.run([pvbatch, os.path.abspath(__file__)] + sys.argv[1:] +
                           ["--load-linked-state", STATE], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    print(child.stdout)
    mt.check(child.returncode == 0, "the fresh process failed on the state (status %d):\n%s"
             % (child.returncode, child.stdout))
    mt.check("members follow the window" in child.stdout, "the fresh process checked nothing")

    macroscope.unlink_views()
    mt.check(servermanager.ProxyManager().GetRegisteredLink("Macroscope.TimeWindow") is None,
             "unlink_views left the link")
    slicing.TimeWindow = [0.001, 0.002]
    mt.check(list(timeline.TimeWindow) != [0.001, 0.002], "unlinked views still follow")
    print("linked views: every member follows the window and the selection")
