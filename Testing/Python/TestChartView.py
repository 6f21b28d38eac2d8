"""The Macroscope Chart View (docs/views.md) from scripts: the charts are
laid out for the view's pixel size and again when ViewSize changes, every
layer lies inside the region the camera fits, the camera never rotates,
scripted zoom and pan (macroscope.navigation) narrow and move the Timeline's
TimeWindow within the trace and re-aggregate (more single-state marks, fewer
aggregates), over an overview they move its Time Slicing's window, over a
logical view its StepWindow (freed from a shared window), a drag pans a
narrowed RowWindow, an explicit ViewSize still overrides, the plain Render View
keeps its 1600 x 900 layout, and the automatic size round-trips through a
state file.

Runs in the builtin session (pvpython), under pvbatch --symmetric on 2 MPI
ranks, and, with --port, first builtin then as the client of a pvserver of
2 ranks (RunClientServer.py): the windows after the same zoom and pan must
be the same in both sessions."""
import argparse
import os

import macroscope_testing as mt

args = mt.parse_args()
port = argparse.ArgumentParser()
port.add_argument("--port", type=int, default=0)
port = port.parse_known_args()[0].port

from paraview.simple import *  # noqa: E402
from paraview import servermanager  # noqa: E402
from vtkmodules.vtkParallelCore import vtkMultiProcessController  # noqa: E402

controller = vtkMultiProcessController.GetGlobalController()
rank = controller.GetLocalProcessId() if controller else 0
directory = os.path.join(args.output, "trace")
if rank == 0:
    # The demo's sample (64 locations): aggregates at full view.
    mt.synthesize(args, directory, "--clusters", 2, "--nodes-per-cluster", 4, "--ranks-per-node", 4,
                  "--threads-per-rank", 2, "--iterations", 100, "--pattern", "stencil3d")
if controller and controller.GetNumberOfProcesses() > 1:
    controller.Barrier()
trace = os.path.join(directory, "traces.otf2")


def fields(display):
    from macroscope import navigation as nav
    return nav.chart_fields(display)


def check_fits(view, display, what):
    """The chart region equals the view's size (one unit per pixel) and the
    camera shows exactly that region, looking down -z with y up."""
    found = fields(display)
    if not found:
        mt.check(rank > 0, "%s: the display drew no ChartRegion" % what)
        return None
    x0, x1, y0, y1 = found["ChartRegion"][:4]
    width, height = view.ViewSize
    mt.check(width - 2.0 <= x1 - x0 <= width and height - 2.0 <= y1 - y0 <= height,
             "%s: chart region %.1f x %.1f in a view of %d x %d" % (what, x1 - x0, y1 - y0, width, height))
    camera = view.GetActiveCamera()
    mt.check(camera.GetParallelProjection() == 1, "%s: perspective camera" % what)
    mt.check(abs(2.0 * camera.GetParallelScale() - height) <= 2.0,
             "%s: camera shows %.1f units over %d pixels" % (what, 2 * camera.GetParallelScale(), height))
    up, direction = camera.GetViewUp(), camera.GetDirectionOfProjection()
    mt.check(max(abs(a - b) for a, b in zip(up, (0, 1, 0))) < 1e-9 and
             max(abs(a - b) for a, b in zip(direction, (0, 0, -1))) < 1e-9,
             "%s: the camera turned: view up %s, direction %s" % (what, up, direction))
    return found


def check_inside(display, region, what):
    """Every layer this process drew lies inside the chart region."""
    active = display.GetClientSideObject().GetActiveRepresentation()
    for port in range(8):
        data = active.GetRenderedDataObject(port)
        if data is None or not data.IsA("vtkPolyData") or data.GetNumberOfPoints() == 0:
            continue
        b = data.GetBounds()
        mt.check(b[0] >= region[0] - 0.5 and b[1] <= region[1] + 0.5 and
                 b[2] >= region[2] - 0.5 and b[3] <= region[3] + 0.5,
                 "%s: layer %d spans x %.1f..%.1f y %.1f..%.1f, outside the region %s"
                 % (what, port, b[0], b[1], b[2], b[3], [round(v, 1) for v in region[:4]]))


def mark_counts(display, window=None):
    """(single-state marks, aggregate marks) this process drew, only those
    whose middle falls in the time `window` if given; None on a client of a
    server (it draws from the server's image)."""
    marks = display.GetClientSideObject().GetActiveRepresentation().GetRenderedDataObject(0)
    flags = marks.GetCellData().GetArray("Aggregate") if marks is not None else None
    if flags is None or marks.GetNumberOfCells() == 0:
        return None
    axis = fields(display)["TimeAxis"]
    plain = aggregates = 0
    bounds = [0.0] * 6
    for i in range(marks.GetNumberOfCells()):
        if window is not None:
            marks.GetCellBounds(i, bounds)
            middle = axis[2] + (0.5 * (bounds[0] + bounds[1]) - axis[0]) * (axis[3] - axis[2]) / (axis[1] - axis[0])
            if not window[0] <= middle <= window[1]:
                continue
        if flags.GetValue(i):
            aggregates += 1
        else:
            plain += 1
    return plain, aggregates


def rows_drawn(display):
    """(rows, level, bands, rows per band) of the Timeline this process drew
    (the Rows field data), None where it drew no marks."""
    marks = display.GetClientSideObject().GetActiveRepresentation().GetRenderedDataObject(0)
    rows = marks.GetFieldData().GetArray("Rows") if marks is not None else None
    if rows is None or marks.GetNumberOfCells() == 0:
        return None
    return [int(rows.GetComponent(0, k)) for k in range(4)]



def check_overview_zoom(session, results, model, overview, overview_view):
    """Ocelotl's zoom: the wheel over an overview narrows the window of the
    Time Slicing it comes from, which slices the model again in it; a pan
    moves that window."""
    from macroscope import navigation as nav
    before = fields(overview).get("TimeAxis") if rank == 0 else None
    span = fields(overview).get("TraceSpan") if rank == 0 else None
    window = nav.wheel(overview_view, 3, 800)
    Render(overview_view)
    results["overview"] = list(model.TimeWindow)
    mt.check(list(model.TimeWindow) == list(window),
             "%s: the overview's wheel set the slicing's window %s, not %s"
             % (session, list(model.TimeWindow), window))
    if rank == 0:
        mt.check(before is not None and span is not None,
                 "%s: the overview carries no TimeAxis or TraceSpan" % session)
        drawn = fields(overview)["TimeAxis"][2:4]
        mt.check(max(abs(a - b) for a, b in zip(drawn, window)) < 1e-12,
                 "%s: the overview drew %s after the slicing's window became %s" % (session, drawn, window))
        mt.check(abs((window[1] - window[0]) - 0.8 ** 3 * (span[1] - span[0])) <= 1e-9 * span[1],
                 "%s: three wheel steps over the overview gave %s in %s" % (session, window, span))
        check_fits(overview_view, overview, session + " overview zoomed")
    moved = nav.pan(overview_view, 100)
    Render(overview_view)
    if rank == 0:
        axis = fields(overview)["TimeAxis"]
        shift = window[0] - moved[0]
        expected = 100.0 * (window[1] - window[0]) / (axis[1] - axis[0])
        mt.check(abs(shift - expected) <= 0.02 * expected and list(model.TimeWindow) == list(moved),
                 "%s: a 100-pixel pan over the overview moved its window by %g s, expected %g s"
                 % (session, shift, expected))
    model.TimeWindow = [0.0, 0.0]
    Render(overview_view)


def check_rows_pan(session, results, view, display):
    """The vertical part of a left drag pans the rows of a narrowed RowWindow."""
    from macroscope import navigation as nav
    display.MinRowHeight = 20
    nav.zoom_rows(view, 0.25)
    Render(view)
    window = list(display.RowWindow)
    row_pixels = None
    if rank == 0:
        first, last, _ = fields(display)["RowWindow"]
        row_pixels = fields(display)["PlotSize"][1] / (last - first + 1)
    pixels = _agreed_value(3.0 * row_pixels if rank == 0 else 0.0)
    moved = nav.pan_rows(view, pixels)  # the rows follow the pointer up: 3 rows further down
    Render(view)
    results["rows_panned"] = list(display.RowWindow)
    mt.check(moved == [window[0] + 3, window[1] + 3] and list(display.RowWindow) == moved,
             "%s: a drag of 3 rows up moved the rows %s to %s" % (session, window, moved))
    if rank == 0:
        first, last, total = fields(display)["RowWindow"]
        mt.check([first, last] == moved, "%s: drew rows %d..%d after the pan to %s" % (session, first, last, moved))
    top = nav.pan_rows(view, -1000.0 * pixels)
    mt.check(top[0] == 0 and top[1] - top[0] == window[1] - window[0],
             "%s: a long drag down stopped at rows %s" % (session, top))
    nav.zoom_rows(view, 4.0)
    display.MinRowHeight = 3
    Render(view)


def _agreed_value(value):
    """The first rank's value on every rank (pvbatch --symmetric)."""
    controller = vtkMultiProcessController.GetGlobalController()
    if controller is None or controller.GetNumberOfProcesses() < 2:
        return value
    from vtkmodules.vtkCommonCore import vtkDoubleArray
    message = vtkDoubleArray()
    message.SetNumberOfValues(1)
    message.SetValue(0, value)
    controller.Broadcast(message, 0)
    return message.GetValue(0)


def check_step_zoom(session, results, reader, view, timeline):
    """Ravel's logical view zooms along steps: the wheel narrows its
    StepWindow around the step under the pointer, a drag pans it; a view
    following a shared time window is freed from it, the views linked to it
    keep theirs."""
    from macroscope import navigation as nav
    import macroscope
    logical = LogicalTime(Input=[OutputPort(reader, i) for i in range(6)])
    logical_view = nav.chart_view([1200, 700])
    steps = Show(logical, logical_view)
    if steps.Representation != "Logical Timeline":
        steps.SetRepresentationType("Logical Timeline")
    Render(logical_view)
    full = fields(steps).get("StepNavigation") if rank == 0 else None
    if rank == 0:
        mt.check(full is not None, "%s: the Logical Timeline carries no StepNavigation" % session)
        check_fits(logical_view, steps, session + " logical")
    zoomed = nav.zoom_steps(logical_view, 0.25, 600)
    Render(logical_view)
    results["steps"] = list(steps.StepWindow)
    mt.check(list(steps.StepWindow) == zoomed and zoomed[1] > zoomed[0],
             "%s: zoom_steps set %s, the display has %s" % (session, zoomed, list(steps.StepWindow)))
    if rank == 0:
        now = fields(steps)["StepNavigation"]
        total = full[6] - full[5] + 1
        mt.check(now[2] >= zoomed[0] and now[3] <= zoomed[1] and now[6] == full[6],
                 "%s: drew steps %g..%g after zooming to %s" % (session, now[2], now[3], zoomed))
        mt.check(abs((zoomed[1] - zoomed[0] + 1) - 0.25 * total) <= 1.0,
                 "%s: a quarter of %d steps is %s" % (session, total, zoomed))
        # The pointer's step keeps its place: at 600 px, the middle of the view.
        middle = full[5] + 0.5 * total
        mt.check(zoomed[0] <= middle <= zoomed[1] + 1, "%s: the pivot step %g left %s" % (session, middle, zoomed))
        column = (now[1] - now[0]) / ((now[3] - now[2]) / now[4] + 1)
        shift = 4.0 * now[4] * column
    pixels = _agreed_value(shift if rank == 0 else 0.0)
    moved = nav.pan_steps(logical_view, pixels)
    mt.check(moved[1] - moved[0] == zoomed[1] - zoomed[0] and moved[0] < zoomed[0],
             "%s: a drag to the right moved the steps %s to %s" % (session, zoomed, moved))
    Render(logical_view)

    # Linked: the logical view follows the Timeline's window until it zooms
    # its own steps; then it leaves the window, the Timeline keeps it.
    names = macroscope.link_views([timeline, steps], name="StepZoom")
    span = nav.trace_span(view) if rank == 0 else None
    shared = [0.25 * span[1], 0.5 * span[1]] if rank == 0 else [0.0, 0.0]
    shared = [_agreed_value(v) for v in shared]
    timeline.TimeWindow = shared
    mt.check(list(steps.TimeWindow) == shared, "%s: the link did not carry the window" % session)
    Render(logical_view)
    nav.zoom_steps(logical_view, 0.5)
    Render(logical_view)
    mt.check(list(steps.TimeWindow) == [0.0, 0.0] and list(timeline.TimeWindow) == shared,
             "%s: after its own zoom the logical view has TimeWindow %s, the Timeline %s (shared %s)"
             % (session, list(steps.TimeWindow), list(timeline.TimeWindow), shared))
    timeline.TimeWindow = [0.1 * shared[0], shared[0]]
    mt.check(list(steps.TimeWindow) == list(timeline.TimeWindow),
             "%s: the link no longer carries the Timeline's window" % session)
    del names  # a link still referenced would keep observing its members
    macroscope.unlink_views(name="StepZoom")
    timeline.TimeWindow = results["panned"]
    Delete(steps)
    Delete(logical_view)
    Delete(logical)


def check_every_chart(session, reader, model):
    """Every 2D chart type the plugin draws fits a chart view at two sizes:
    region = view, every layer and every label inside, no two labels
    overlapping. The difference overview of a comparison also zooms with
    the wheel (its run A's Time Slicing)."""
    import macroscope_labels
    from macroscope import navigation as nav
    ports = [OutputPort(reader, i) for i in range(6)]
    temporal = TemporalAggregation(Input=model)
    resource_model = TimeSlicing(Input=ports, Slices=12, ResourceLevel=3)
    treemap = ResourceTreemap(Input=resource_model, Cut="Level", Level=2)
    logical = LogicalTime(Input=ports)
    difference = ModelDifference(Input=model, Other=model)
    difference_overview = SpatiotemporalAggregation(Input=difference)
    charts = [(temporal, "Temporal Overview"), (treemap, "Treemap"),
              (logical, "Logical Timeline"), (logical, "Clustered Logical Timeline"),
              (logical, "Metric Overview"), (difference_overview, "Spatiotemporal Overview")]
    for source, kind in charts:
        view = nav.chart_view([800, 600])
        display = Show(OutputPort(source, 0), view, "MacroscopeTraceRepresentation")
        display.SetRepresentationType(kind)
        for size in ([800, 600], [1600, 1000]):
            view.ViewSize = size
            Render(view)
            what = "%s %s %dx%d" % (session, kind, size[0], size[1])
            found = check_fits(view, display, what)
            if found:
                check_inside(display, found["ChartRegion"], what)
            # The labels where one process lays the whole chart out (pvpython,
            # a client of a server); under MPI a rank may hold only its piece.
            if found and (controller is None or controller.GetNumberOfProcesses() == 1):
                active = display.GetClientSideObject().GetActiveRepresentation()
                labels = macroscope_labels.labels_of(active)
                mt.check(labels is not None and labels.GetNumberOfPoints() > 0, what + ": no labels")
                wrong = macroscope_labels.problems(macroscope_labels.boxes(labels),
                                                   found["ChartRegion"][:4], 0.5)
                mt.check(not wrong, "%s: %s" % (what, "; ".join(wrong[:3])))
        if source is difference_overview:
            window = nav.wheel(view, 2)
            Render(view)
            mt.check(list(model.TimeWindow) == list(window) and window != [0.0, 0.0],
                     "%s: the wheel over the difference overview set %s, the model has %s"
                     % (session, window, list(model.TimeWindow)))
            model.TimeWindow = [0.0, 0.0]
        Delete(display)
        Delete(view)
    for source in (difference_overview, difference, logical, treemap, resource_model, temporal):
        Delete(source)


def picture_difference(first, second):
    """The share of pixels of two PNG pictures of one size that differ by
    more than 16 levels in a channel."""
    from vtkmodules.vtkIOImage import vtkPNGReader
    from vtkmodules.util.numpy_support import vtk_to_numpy
    import numpy
    images = []
    for path in (first, second):
        reader = vtkPNGReader()
        reader.SetFileName(path)
        reader.Update()
        data = reader.GetOutput()
        pixels = vtk_to_numpy(data.GetPointData().GetScalars()).astype(numpy.int32)
        images.append((data.GetDimensions(), pixels[:, :3]))
    mt.check(images[0][0] == images[1][0], "pictures of %s and %s" % (images[0][0], images[1][0]))
    for path, (_, pixels) in zip((first, second), images):
        colours = len(numpy.unique(pixels[:, 0] * 65536 + pixels[:, 1] * 256 + pixels[:, 2]))
        mt.check(colours >= 8, "%s has %d colours: nothing drawn?" % (path, colours))
    differs = numpy.abs(images[0][1] - images[1][1]).max(axis=1) > 16
    return float(differs.mean())

def run(session):
    from macroscope import navigation as nav
    results = {}
    reader = OTF2TraceReader(FileName=trace)
    view = nav.chart_view([800, 600])
    mt.check(view.GetXMLName() == "MacroscopeChartView", "chart_view made a %s" % view.GetXMLName())
    display = Show(reader, view)
    mt.check(display.GetXMLName() == "MacroscopeTraceRepresentation" and display.Representation == "Timeline",
             "%s: the States show as %s %r" % (session, display.GetXMLName(), display.Representation))
    mt.check(list(display.ViewSize) == [0, 0], "ViewSize defaults to %s, not automatic (0 0)" % list(display.ViewSize))
    Render(view)
    small = check_fits(view, display, session + " 800x600")
    if small:
        check_inside(display, small["ChartRegion"], session + " 800x600")

    view.ViewSize = [1600, 1000]
    Render(view)
    large = check_fits(view, display, session + " 1600x1000")
    if large:
        check_inside(display, large["ChartRegion"], session + " 1600x1000")
        mt.check(small["ChartRegion"] != large["ChartRegion"], "resizing the view did not lay out again")
    if rank == 0:
        results["axis"] = large["TimeAxis"]
    counts_full_marks = None
    if mark_counts(display) is not None:
        # A copy of the full view's marks, counted once the window is known.
        from vtkmodules.vtkCommonDataModel import vtkPolyData
        saved = vtkPolyData()
        saved.DeepCopy(display.GetClientSideObject().GetActiveRepresentation().GetRenderedDataObject(0))
        saved_axis = fields(display)["TimeAxis"]

        def counts_full_marks(window):
            flags = saved.GetCellData().GetArray("Aggregate")
            plain = aggregates = 0
            bounds = [0.0] * 6
            a = saved_axis
            for i in range(saved.GetNumberOfCells()):
                saved.GetCellBounds(i, bounds)
                middle = a[2] + (0.5 * (bounds[0] + bounds[1]) - a[0]) * (a[3] - a[2]) / (a[1] - a[0])
                if window[0] <= middle <= window[1]:
                    aggregates += 1 if flags.GetValue(i) else 0
                    plain += 0 if flags.GetValue(i) else 1
            return plain, aggregates

    # Three wheel steps over the chart's middle, then a drag of 150 pixels.
    span = nav.trace_span(view) if rank == 0 else None
    middle = 0.5 * 1600
    window = nav.wheel(view, 3, middle)
    Render(view)
    results["zoomed"] = list(display.TimeWindow)
    mt.check(list(display.TimeWindow) == list(window), "the wheel's window was not set")
    if rank == 0:
        drawn = nav.drawn_window(view)
        mt.check(abs(drawn[0] - window[0]) < 1e-12 and abs(drawn[1] - window[1]) < 1e-12,
                 "drew %s after setting %s" % (drawn, window))
        width = window[1] - window[0]
        mt.check(abs(width - 0.8 ** 3 * (span[1] - span[0])) <= 1e-9 * span[1],
                 "three wheel steps gave a window of %g s out of %g s" % (width, span[1] - span[0]))
        mt.check(span[0] <= window[0] < window[1] <= span[1], "window %s outside the trace %s" % (window, span))
        check_fits(view, display, session + " zoomed")
    counts_zoomed = mark_counts(display)
    if counts_full_marks is not None and counts_zoomed:
        # The same time range at full view, from the marks drawn then.
        counts_full = counts_full_marks(window)
        mt.check(counts_zoomed[0] > counts_full[0] and counts_zoomed[1] < counts_full[1],
                 "%s: zoom gave %d single-state marks and %d aggregates in %s, %d and %d there at "
                 "full view" % (session, counts_zoomed[0], counts_zoomed[1], window, counts_full[0],
                                counts_full[1]))
        print("%s: in %s, %d single-state marks and %d aggregates at full view, %d and %d zoomed"
              % (session, window, counts_full[0], counts_full[1], counts_zoomed[0], counts_zoomed[1]))
    units = (results.get("axis") or [0, 1])[1] - (results.get("axis") or [0, 1])[0]
    before = list(display.TimeWindow)
    moved = nav.pan(view, 150)
    Render(view)
    results["panned"] = list(display.TimeWindow)
    if rank == 0:
        width = before[1] - before[0]
        mt.check(abs((moved[1] - moved[0]) - width) <= 1e-9 * width, "the pan changed the width")
        shift = before[0] - moved[0]
        expected = 150.0 * width / units
        mt.check(abs(shift - expected) <= 0.02 * expected,
                 "a 150-pixel pan moved the window by %g s, expected %g s" % (shift, expected))
        check_fits(view, display, session + " panned")
    # The picture after the zoom and pan, compared across sessions below.
    picture = os.path.join(args.output, "panned-%s.png" % session)
    SaveScreenshot(picture, view, ImageResolution=list(view.ViewSize))
    results["picture"] = picture

    # Across rows (Ctrl + wheel, docs/views.md): with 20-pixel rows the 64
    # locations merge into their ranks; a quarter of them get a row each.
    display.MinRowHeight = 20
    Render(view)
    merged = rows_drawn(display)
    rows = nav.zoom_rows(view, 0.25)
    Render(view)
    results["rows"] = list(display.RowWindow)
    mt.check(list(display.RowWindow) == list(rows), "zoom_rows' window was not set")
    unmerged = rows_drawn(display)
    if rank == 0:
        first, last, total = fields(display)["RowWindow"]
        mt.check(total == 64 and [first, last] == list(rows) and last - first + 1 == 16,
                 "%s: a quarter of 64 rows drew rows %d..%d of %d (set %s)" % (session, first, last, total, rows))
        check_fits(view, display, session + " rows zoomed")
    if merged and unmerged:
        mt.check(merged[1] >= 0 and unmerged == [16, -1, 16, 1],
                 "%s: rows %s at full height, %s zoomed (rows, level, bands, rows per band)"
                 % (session, merged, unmerged))
    # (The mouse's path, vtkSMMacroscopeChartViewProxy::ZoomRows, is
    # GUI.ChartView's: Ctrl + wheel as X events.)
    mt.check(nav.zoom_rows(view, 4.0) == [0, -1] and list(display.RowWindow) == [0, -1],
             "zooming out by 4 left rows %s" % list(display.RowWindow))
    display.MinRowHeight = 3
    Render(view)

    # 3D interaction is refused: the view stays 2D.
    view.InteractionMode = "3D"
    Render(view)
    client_view = view.GetClientSideObject()
    mt.check(client_view.GetInteractionMode() == 1, "the chart view went to 3D interaction")
    view.InteractionMode = "2D"

    # The spatiotemporal overview in a chart view of its own.
    model = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=100)
    aggregation = SpatiotemporalAggregation(Input=model)
    overview_view = nav.chart_view([800, 600])
    overview = Show(aggregation, overview_view)
    mt.check(overview.Representation == "Spatiotemporal Overview",
             "the aggregation shows as %r" % overview.Representation)
    Render(overview_view)
    found = check_fits(overview_view, overview, session + " overview 800x600")
    if found:
        check_inside(overview, found["ChartRegion"], session + " overview")
    overview_view.ViewSize = [1600, 1000]
    Render(overview_view)
    check_fits(overview_view, overview, session + " overview 1600x1000")
    check_overview_zoom(session, results, model, overview, overview_view)
    check_rows_pan(session, results, view, display)
    check_step_zoom(session, results, reader, view, display)
    check_every_chart(session, reader, model)

    # An explicit ViewSize still rules (scripted pictures, old state files).
    display.ViewSize = [1600, 900]
    view.ViewSize = [800, 600]
    Render(view)
    if rank == 0:
        region = fields(display)["ChartRegion"]
        mt.check(abs((region[1] - region[0]) - 1600) < 1.0 and abs((region[3] - region[2]) - 900) < 1.0,
                 "an explicit ViewSize 1600 900 (text included) gave a region %s" % region[:4])
    display.ViewSize = [0, 0]

    # The plain Render View: no size pushed, the former 1600 x 900 layout.
    render_view = CreateView("RenderView")
    render_view.ViewSize = [700, 500]
    plain = Show(reader, render_view, "MacroscopeTraceRepresentation")
    Render(render_view)
    if rank == 0:
        region = fields(plain)["ChartRegion"]
        mt.check(abs((region[1] - region[0]) - 1600) < 1.0 and abs((region[3] - region[2]) - 900) < 1.0,
                 "in a Render View the chart was laid out for %s, not 1600 x 900" % region[:4])

    # The automatic size round-trips through a state file.
    Render(view)
    state = os.path.join(args.output, "chart-view-%s.pvsm" % session)
    SaveState(state)
    if rank == 0:
        text = open(state).read()
        mt.check('type="MacroscopeChartView"' in text or "MacroscopeChartView" in text,
                 "the state file has no Macroscope Chart View")
    if session != "builtin":
        return results  # a reset would reconnect to the server: loaded in the builtin run
    ResetSession()
    mt.load_plugin(args, globals())
    LoadState(state)
    views = [v for v in GetViews() if v.GetXMLName() == "MacroscopeChartView"]
    mt.check(len(views) == 2, "%d chart views after loading the state" % len(views))
    for v in views:
        for d in v.Representations:
            if d.GetXMLName() == "MacroscopeTraceRepresentation" and d.Representation == "Timeline":
                mt.check(list(d.ViewSize) == [0, 0], "the state gave back ViewSize %s" % list(d.ViewSize))
                v.ViewSize = [900, 700]
                Render(v)
                check_fits(v, d, session + " after the state")
                mt.check(list(d.TimeWindow) == results["panned"],
                         "the state gave back TimeWindow %s, not %s" % (list(d.TimeWindow), results["panned"]))
    ResetSession()
    return results


mt.load_plugin(args, globals())
builtin = run("builtin")
print("builtin: zoomed %s, panned %s, overview %s, rows %s, steps %s"
      % (builtin["zoomed"], builtin["panned"], builtin["overview"], builtin["rows_panned"],
         builtin["steps"]))
if port:
    Connect("localhost", port)
    mt.load_plugin(args, globals())
    remote = run("client-server")
    print("client/server: zoomed %s, panned %s, overview %s, rows %s, steps %s"
          % (remote["zoomed"], remote["panned"], remote["overview"], remote["rows_panned"],
             remote["steps"]))
    differing = picture_difference(builtin["picture"], remote["picture"])
    print("pictures after the zoom and pan: %.3f %% of the pixels differ between the sessions"
          % (100.0 * differing))
    mt.check(differing <= 0.002, "the zoomed and panned Timeline differs between builtin and "
             "client/server in %.2f %% of its pixels" % (100.0 * differing))
    for key in ("rows_panned", "steps"):
        mt.check(builtin[key] == remote[key],
                 "%s: %s builtin, %s client/server" % (key, builtin[key], remote[key]))
    for key in ("zoomed", "panned", "overview"):
        mt.check(max(abs(a - b) for a, b in zip(builtin[key], remote[key])) <= 1e-12 * max(1.0, abs(builtin[key][1])),
                 "%s window: %s builtin, %s client/server" % (key, builtin[key], remote[key]))
    Disconnect()
print("OK")
