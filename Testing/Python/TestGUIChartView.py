# Runs inside the ParaView GUI (paraview --script=...), like TestGUIApply.py:
# the Macroscope Chart View as a user meets it (docs/views.md).
#
# On the demo's sample (64 locations), with the main window at 800 x 600 and
# then 1600 x 1000: the OTF2 reader's States shown in a Macroscope Chart View
# of the layout are a Timeline (the view's representation hint); it is laid out
# for the view's own pixel size (its region equals the view, the camera shows
# one unit per pixel) and every layer (marks, legend, axis, labels) lies
# inside it, every text label's box too (measured again with VTK's text
# renderer) and no two of them overlap; resizing the window lays it out
# again. Then, with real X events
# sent by xdotool to the view's widget: three wheel steps over the Timeline
# narrow its TimeWindow around the pointer's time and, in that time range,
# give more single-state marks and fewer aggregates than the full view; a
# left drag of 200 pixels pans the window by 200 pixels' worth of time; the
# camera's view-up and direction never change (no rotation); Ctrl + wheel
# narrows the rows and a vertical drag pans them. The spatiotemporal
# overview of Spatiotemporal Aggregation is shown in a second chart view of
# the layout and both fit their views at both window sizes; three wheel
# steps over the overview narrow its Time Slicing's window (the model is
# sliced again). Logical Time's Logical Timeline, in a tab of its own, zooms
# its steps with the wheel and pans them with a drag.
# Screenshots of the whole display (xwd) are saved for each size.
#
# MACROSCOPE_SYNTH names macroscope-synth. The verdict goes to the process's
# stdout/stderr and the exit code.
import os
import subprocess
import sys
import traceback

from macroscope_gui_toolbar import Qt  # Testing/Python, on PYTHONPATH
import macroscope_labels  # likewise


def say(text, fd=1):
    os.write(fd, (text + "\n").encode())


def check(condition, message):
    if not condition:
        raise RuntimeError(message)


def xdotool(*arguments):
    done = subprocess.run(["xdotool"] + [str(a) for a in arguments], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    check(done.returncode == 0, "xdotool %s failed: %s" % (" ".join(map(str, arguments)), done.stdout))


def wheel_steps(qt, x, y, steps, pause, ctrl=False):
    """`steps` forward wheel clicks at screen point (x, y), as a user's X
    events, `pause` seconds apart (Ctrl held down when `ctrl`)."""
    xdotool("mousemove", x, y)
    qt.wait(lambda: False, 0.5)
    if ctrl:
        xdotool("keydown", "ctrl")
    for _ in range(steps):
        xdotool("click", 4)
        qt.wait(lambda: False, pause)
    if ctrl:
        xdotool("keyup", "ctrl")


status = 1
try:
    from paraview.simple import *
    from paraview import servermanager
    plugin = os.environ["MACROSCOPE_PLUGIN"]
    output = os.environ["MACROSCOPE_OUTPUT"]
    synth = os.environ["MACROSCOPE_SYNTH"]
    os.makedirs(output, exist_ok=True)
    LoadPlugin(plugin, remote=False, ns=globals())
    import macroscope
    from macroscope import navigation as nav
    qt = Qt()

    trace = os.path.join(output, "trace")
    command = [synth, "--output", trace, "--force", "--quiet", "--clusters", "2",
               "--nodes-per-cluster", "4", "--ranks-per-node", "4", "--threads-per-rank", "2",
               "--iterations", "100", "--pattern", "stencil3d"]
    made = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(made.returncode == 0, "%s failed:\n%s" % (" ".join(command), made.stdout))

    windows = qt.widgets("QMainWindow")
    check(len(windows) >= 1, "no main window")
    main_window = windows[0]

    def resize_window(width, height):
        qt.resize(main_window, width, height)
        qt.wait(lambda: False, 1.5)

    def screenshot(name):
        path = os.path.join(output, name + ".xwd")
        with open(path, "wb") as f:
            subprocess.run(["xwd", "-root", "-silent"], stdout=f, check=True)
        say("screenshot: " + path)

    def fits(view, display, what, strict=True):
        """The chart region equals the view (one unit per pixel) and the
        camera shows it exactly; every layer lies inside. Not `strict`: a
        view too small for the labels and legend at one unit per pixel may
        show a larger region, scaled down, but whole."""
        Render(view)
        found = nav.chart_fields(display)
        check("ChartRegion" in found, "%s: no chart region drawn" % what)
        x0, x1, y0, y1 = found["ChartRegion"][:4]
        width, height = view.ViewSize
        camera = view.GetActiveCamera()
        shown = (2 * camera.GetParallelScale() * width / float(height), 2 * camera.GetParallelScale())
        if strict or (x1 - x0 <= width + 1 and y1 - y0 <= height + 1):
            check(width - 2 <= x1 - x0 <= width and height - 2 <= y1 - y0 <= height,
                  "%s: chart region %.1f x %.1f in a view of %d x %d" % (what, x1 - x0, y1 - y0, width, height))
            check(abs(shown[1] - height) <= 2,
                  "%s: the camera shows %.1f units over %d pixels" % (what, shown[1], height))
        else:
            check(shown[0] >= x1 - x0 - 1 and shown[1] >= y1 - y0 - 1,
                  "%s: the camera shows %.0f x %.0f of a %.0f x %.0f region"
                  % (what, shown[0], shown[1], x1 - x0, y1 - y0))
            say("%s: the labels need %.0f x %.0f pixels, the view has %d x %d: scaled by %.2f"
                % (what, x1 - x0, y1 - y0, width, height, min(width / (x1 - x0), height / (y1 - y0))))
        active = display.GetClientSideObject().GetActiveRepresentation()
        for port in range(8):
            data = active.GetRenderedDataObject(port)
            if data is None or not data.IsA("vtkPolyData") or data.GetNumberOfPoints() == 0:
                continue
            b = data.GetBounds()
            check(b[0] >= x0 - 0.5 and b[1] <= x1 + 0.5 and b[2] >= y0 - 0.5 and b[3] <= y1 + 0.5,
                  "%s: layer %d (x %.0f..%.0f, y %.0f..%.0f) leaves the view's region" %
                  (what, port, b[0], b[1], b[2], b[3]))
        # The text: every label's box (measured again) inside the region, no
        # two overlapping.
        labels = macroscope_labels.labels_of(active)
        check(labels is not None and labels.GetNumberOfPoints() > 0, "%s: no labels drawn" % what)
        boxes = macroscope_labels.boxes(labels)
        wrong = macroscope_labels.problems(boxes, [x0, x1, y0, y1], 0.5)
        check(not wrong, "%s: %s" % (what, "; ".join(wrong[:5])))
        say("%s: view %d x %d, chart region %.1f x %.1f, %d labels inside, none overlapping"
            % (what, width, height, x1 - x0, y1 - y0, len(boxes)))
        return found

    def counts(display, window, saved=None):
        marks = saved or display.GetClientSideObject().GetActiveRepresentation().GetRenderedDataObject(0)
        axis = (saved_axis if saved else nav.chart_fields(display)["TimeAxis"])
        flags = marks.GetCellData().GetArray("Aggregate")
        plain = aggregates = 0
        bounds = [0.0] * 6
        for i in range(marks.GetNumberOfCells()):
            marks.GetCellBounds(i, bounds)
            t = axis[2] + (0.5 * (bounds[0] + bounds[1]) - axis[0]) * (axis[3] - axis[2]) / (axis[1] - axis[0])
            if window[0] <= t <= window[1]:
                if flags.GetValue(i):
                    aggregates += 1
                else:
                    plain += 1
        return plain, aggregates

    # 800 x 600: the reader's States in a Macroscope Chart View of the
    # layout, in place of the start-up Render View.
    resize_window(800, 600)
    reader = OTF2TraceReader(FileName=os.path.join(trace, "traces.otf2"))
    start_view = GetActiveView()
    layout = GetLayout(start_view)
    Delete(start_view)
    view = CreateView("MacroscopeChartView")
    AssignViewToLayout(view=view, layout=layout, hint=0)
    SetActiveView(view)
    Show(OutputPort(reader, 0), view)
    qt.wait(lambda: False, 1.5)
    timeline = GetDisplayProperties(OutputPort(reader, 0), view)
    check(timeline.Representation == "Timeline" and timeline.Visibility == 1,
          "the States show as %r" % timeline.Representation)
    check(list(timeline.ViewSize) == [0, 0], "ViewSize is %s, not automatic" % list(timeline.ViewSize))
    widgets = qt.widgets("pqQVTKWidget")
    check(len(widgets) >= 1, "the chart view has no pqQVTKWidget (no pqRenderView)")
    small = fits(view, timeline, "800x600 Timeline", strict=False)
    screenshot("timeline-800x600")

    # 1600 x 1000: laid out again.
    resize_window(1600, 1000)
    large = fits(view, timeline, "1600x1000 Timeline")
    check(large["ChartRegion"][1] - large["ChartRegion"][0] > small["ChartRegion"][1] - small["ChartRegion"][0] + 100,
          "the window grew but the chart did not: %s then %s" % (small["ChartRegion"][:4], large["ChartRegion"][:4]))
    camera = view.GetActiveCamera()
    up, direction = camera.GetViewUp(), camera.GetDirectionOfProjection()

    from vtkmodules.vtkCommonDataModel import vtkPolyData
    saved = vtkPolyData()
    saved.DeepCopy(timeline.GetClientSideObject().GetActiveRepresentation().GetRenderedDataObject(0))
    saved_axis = large["TimeAxis"]
    span = large["TraceSpan"]

    # Three wheel steps over the chart's middle (real X events).
    widget = [w for w in qt.widgets("pqQVTKWidget")][0]
    left, top = qt.global_position(widget)
    width, height = view.ViewSize
    ax0, ax1, t0, t1 = large["TimeAxis"]
    chart_middle = 0.5 * (ax0 + ax1)
    region = large["ChartRegion"]
    x = int(round((chart_middle - region[0]) / (region[1] - region[0]) * width))
    y = int(round(height * 0.5))
    pointer_time = t0 + (nav.chart_x(view, x) - ax0) * (t1 - t0) / (ax1 - ax0)
    wheel_steps(qt, left + x, top + y, 3, 0.7)
    check(qt.wait(lambda: list(timeline.TimeWindow) != [0.0, 0.0], 10),
          "three wheel steps over the Timeline left TimeWindow at %s" % list(timeline.TimeWindow))
    qt.wait(lambda: False, 1)
    window = list(timeline.TimeWindow)
    zoomed = fits(view, timeline, "1600x1000 zoomed")
    check(window[1] - window[0] < 0.6 * (span[1] - span[0]),
          "the wheel narrowed the window only to %s of %s" % (window, span))
    check(window[0] <= pointer_time <= window[1], "the pointer's time %g left the window %s" % (pointer_time, window))
    before = counts(timeline, window, saved)
    after = counts(timeline, window)
    say("wheel: TimeWindow %s; in it %d single-state marks and %d aggregates at full view, %d and %d zoomed"
        % (window, before[0], before[1], after[0], after[1]))
    check(after[0] > before[0] and after[1] < before[1],
          "zooming gave %d single-state marks and %d aggregates, %d and %d at full view" % (after + before))

    # A left drag of 200 pixels to the right: earlier times.
    units = zoomed["TimeAxis"][1] - zoomed["TimeAxis"][0]
    seconds_per_pixel = (window[1] - window[0]) / units
    xdotool("mousedown", 1)
    for dx in range(20, 201, 20):
        xdotool("mousemove", left + x + dx, top + y)
        qt.wait(lambda: False, 0.15)
    xdotool("mouseup", 1)
    qt.wait(lambda: False, 1.5)
    panned = list(timeline.TimeWindow)
    shift = window[0] - panned[0]
    say("drag: TimeWindow %s -> %s (%.3g s for 200 px)" % (window, panned, shift))
    check(abs(shift - 200 * seconds_per_pixel) <= 0.05 * 200 * seconds_per_pixel,
          "a 200-pixel drag moved the window by %g s, not %g s" % (shift, 200 * seconds_per_pixel))
    check(abs((panned[1] - panned[0]) - (window[1] - window[0])) <= 1e-9 * span[1], "the drag changed the width")
    fits(view, timeline, "1600x1000 panned")
    camera = view.GetActiveCamera()
    check(camera.GetViewUp() == up and camera.GetDirectionOfProjection() == direction,
          "the drag turned the camera: view up %s -> %s, direction %s -> %s"
          % (up, camera.GetViewUp(), direction, camera.GetDirectionOfProjection()))
    screenshot("timeline-1600x1000-zoomed")

    # Across rows: with rows of at least 20 pixels the 64 locations merge
    # into their ranks; three Ctrl + wheel steps over the plot's middle keep
    # about half of the locations, each on its own row again.
    def rows_of(display):
        marks = display.GetClientSideObject().GetActiveRepresentation().GetRenderedDataObject(0)
        rows = marks.GetFieldData().GetArray("Rows")
        return [int(rows.GetComponent(0, k)) for k in range(4)]  # rows, level, bands, rows per band
    timeline.MinRowHeight = 20
    Render(view)
    merged = rows_of(timeline)
    whole = nav.chart_fields(timeline)["RowWindow"]
    check(merged[1] >= 0 and merged[0] < whole[2],
          "with 20-pixel rows the %d locations still have a row each: %s" % (whole[2], merged))
    wheel_steps(qt, left + x, top + y, 3, 0.7, ctrl=True)
    check(qt.wait(lambda: list(timeline.RowWindow) != [0, -1], 10),
          "three Ctrl + wheel steps left RowWindow at %s" % list(timeline.RowWindow))
    qt.wait(lambda: False, 1)
    Render(view)
    rows = list(timeline.RowWindow)
    unmerged = rows_of(timeline)
    drawn = nav.chart_fields(timeline)["RowWindow"]
    say("ctrl+wheel: RowWindow %s of %d locations; rows %s before, %s after" % (rows, whole[2], merged, unmerged))
    check(rows[1] - rows[0] + 1 <= 0.6 * whole[2] and drawn[:2] == rows,
          "three steps kept rows %s (drawn %s) of %d" % (rows, drawn, whole[2]))
    check(unmerged[1] == -1 and unmerged[0] == rows[1] - rows[0] + 1,
          "the zoomed rows still merge: %s" % unmerged)
    check(list(timeline.TimeWindow) == panned, "Ctrl + wheel changed the time window")
    fits(view, timeline, "1600x1000 rows zoomed")
    screenshot("timeline-1600x1000-rows-zoomed")

    # A left drag upwards by three rows' height: the rows follow the pointer,
    # three rows further down come into view; the time window stays.
    row_pixels = nav.chart_fields(timeline)["PlotSize"][1] / (rows[1] - rows[0] + 1)
    row_pixels *= height / (2.0 * view.GetActiveCamera().GetParallelScale())
    xdotool("mousemove", left + x, top + y)
    xdotool("mousedown", 1)
    for k in range(1, 7):
        xdotool("mousemove", left + x, top + y - int(round(k * 0.5 * row_pixels)))
        qt.wait(lambda: False, 0.15)
    xdotool("mouseup", 1)
    qt.wait(lambda: False, 1.5)
    rows_panned = list(timeline.RowWindow)
    say("vertical drag of %d px: RowWindow %s -> %s" % (int(round(3 * row_pixels)), rows, rows_panned))
    check(rows_panned == [rows[0] + 3, rows[1] + 3],
          "a drag up by 3 rows moved the rows %s to %s" % (rows, rows_panned))
    check(list(timeline.TimeWindow) == panned, "the vertical drag changed the time window")
    timeline.RowWindow = rows

    # The spatiotemporal overview in a second chart view of the layout.
    model = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=100)
    aggregation = SpatiotemporalAggregation(Input=model)
    overview_view = CreateView("MacroscopeChartView")
    AssignViewToLayout(view=overview_view, layout=GetLayout(view), hint=0)
    overview = Show(aggregation, overview_view)
    check(overview.Representation == "Spatiotemporal Overview", "the overview shows as %r" % overview.Representation)
    qt.wait(lambda: False, 1.5)
    fits(view, timeline, "1600x1000 Timeline beside the overview", strict=False)
    fits(overview_view, overview, "1600x1000 overview", strict=False)
    screenshot("both-1600x1000")

    # Ocelotl's zoom: three wheel steps over the overview slice the model
    # again in a narrower window (its Time Slicing's TimeWindow).
    def new_widget(known):
        fresh = [w for w in qt.widgets("pqQVTKWidget") if w not in known]
        check(len(fresh) == 1, "%d new render widgets, expected one" % len(fresh))
        return fresh[0]

    overview_widget = new_widget([widget])
    o_left, o_top = qt.global_position(overview_widget)
    o_found = nav.chart_fields(overview)
    o_region = o_found["ChartRegion"]
    o_axis = o_found["TimeAxis"]
    ow, oh = overview_view.ViewSize
    camera = overview_view.GetActiveCamera()
    o_scale = 2.0 * camera.GetParallelScale() / oh  # chart units per pixel
    o_x = int(round(ow / 2.0 + (0.5 * (o_axis[0] + o_axis[1]) - camera.GetFocalPoint()[0]) / o_scale))
    o_pointer = o_axis[2] + (nav.chart_x(overview_view, o_x) - o_axis[0]) * (o_axis[3] - o_axis[2]) / (o_axis[1] - o_axis[0])
    wheel_steps(qt, o_left + o_x, o_top + oh // 2, 3, 1.0)
    check(qt.wait(lambda: list(model.TimeWindow) != [0.0, 0.0], 15),
          "three wheel steps over the overview left the slicing's TimeWindow at %s" % list(model.TimeWindow))
    qt.wait(lambda: False, 1.5)
    Render(overview_view)
    sliced = list(model.TimeWindow)
    drawn = nav.chart_fields(overview)["TimeAxis"][2:4]
    say("overview wheel: Time Slicing's TimeWindow %s (pointer at %.4g s), overview drawn over %s"
        % (sliced, o_pointer, drawn))
    check(abs((sliced[1] - sliced[0]) - 0.8 ** 3 * (span[1] - span[0])) <= 1e-6 * span[1],
          "three wheel steps gave the model a window of %g s of %g s" % (sliced[1] - sliced[0], span[1] - span[0]))
    check(sliced[0] <= o_pointer <= sliced[1], "the pointer's time %g left the window %s" % (o_pointer, sliced))
    check(max(abs(a - b) for a, b in zip(drawn, sliced)) < 1e-9, "the overview drew %s, not %s" % (drawn, sliced))
    fits(overview_view, overview, "1600x1000 overview zoomed", strict=False)
    screenshot("both-1600x1000-overview-zoomed")
    model.TimeWindow = [0.0, 0.0]
    qt.wait(lambda: False, 1.0)

    # Ravel's logical view in a tab of its own: the wheel narrows its
    # StepWindow around the pointer's step, a drag pans it.
    logical = LogicalTime(Input=[OutputPort(reader, i) for i in range(6)])
    logical_layout = CreateLayout("Logical")
    logical_view = CreateView("MacroscopeChartView")
    AssignViewToLayout(view=logical_view, layout=logical_layout, hint=0)
    steps = Show(logical, logical_view)
    if steps.Representation != "Logical Timeline":
        steps.SetRepresentationType("Logical Timeline")
    qt.wait(lambda: False, 2.0)
    fits(logical_view, steps, "1600x1000 logical", strict=False)
    full = nav.chart_fields(steps)["StepNavigation"]
    logical_widget = new_widget([widget, overview_widget])
    l_left, l_top = qt.global_position(logical_widget)
    lw, lh = logical_view.ViewSize
    wheel_steps(qt, l_left + lw // 2, l_top + lh // 2, 3, 0.8)
    check(qt.wait(lambda: list(steps.StepWindow) != [0, -1], 10),
          "three wheel steps over the logical view left StepWindow at %s" % list(steps.StepWindow))
    qt.wait(lambda: False, 1.0)
    Render(logical_view)
    step_window = list(steps.StepWindow)
    now = nav.chart_fields(steps)["StepNavigation"]
    total = full[6] - full[5] + 1
    say("logical wheel: StepWindow %s of %d steps, drawn %d..%d" % (step_window, total, now[2], now[3]))
    check(abs((step_window[1] - step_window[0] + 1) - 0.8 ** 3 * total) <= 3,
          "three wheel steps kept steps %s of %d" % (step_window, total))
    check(now[2] >= step_window[0] and now[3] <= step_window[1], "drew steps %s..%s" % (now[2], now[3]))
    fits(logical_view, steps, "1600x1000 logical zoomed", strict=False)
    screenshot("logical-1600x1000-zoomed")
    column = (now[1] - now[0]) / ((now[3] - now[2]) / now[4] + 1)
    column *= lh / (2.0 * logical_view.GetActiveCamera().GetParallelScale())  # in pixels
    xdotool("mousedown", 1)
    for k in range(1, 9):
        xdotool("mousemove", l_left + lw // 2 + int(round(k * 0.5 * column * now[4])), l_top + lh // 2)
        qt.wait(lambda: False, 0.15)
    xdotool("mouseup", 1)
    qt.wait(lambda: False, 1.5)
    moved = list(steps.StepWindow)
    say("logical drag of %d px: StepWindow %s -> %s" % (int(round(4 * column * now[4])), step_window, moved))
    check(moved[1] - moved[0] == step_window[1] - step_window[0] and
          abs((step_window[0] - moved[0]) - 4 * now[4]) <= 1,
          "a drag of 4 columns to the right moved the steps %s to %s" % (step_window, moved))
    SetActiveView(view)
    resize_window(800, 600)
    fits(view, timeline, "800x600 Timeline beside the overview", strict=False)
    fits(overview_view, overview, "800x600 overview", strict=False)
    screenshot("both-800x600")
    status = 0
    say("OK")
except Exception:
    say(traceback.format_exc(), 2)
sys.stdout.flush()
sys.stderr.flush()
os._exit(status)
