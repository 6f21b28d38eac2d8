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
    width = timeline.ViewSize[0]
    candidates = sorted(range(len(columns["Start"])), key=lambda i: -(columns["End"][i] - columns["Start"][i]))
    state = next(i for i in candidates if columns["Start"][i] > t_lo + 0.1 * (t_hi - t_lo)
                 and columns["End"][i] < t_hi - 0.1 * (t_hi - t_lo))
    s, e = columns["Start"][state], columns["End"][state]
    renderer = view.GetClientSideObject().GetRenderer()


    def pixel_of(x):
        renderer.SetWorldPoint(x, 0.5 * timeline.ViewSize[1], 0.0, 1.0)
        renderer.WorldToDisplay()
        return renderer.GetDisplayPoint()


    x_s = (s - t_lo) / (t_hi - t_lo) * width
    x_e = (e - t_lo) / (t_hi - t_lo) * width
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
    errors = mt.ErrorCapture()
    macroscope.set_selection(types=["no such type"])
    slicing.UpdatePipeline()
    reported = errors.text()
    errors.close()
    mt.check("no such type" in reported, "an unknown type gave no error naming it: %r" % reported)
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
