"""Zoom and pan of Macroscope charts from scripts, as the mouse does in a
Macroscope Chart View (docs/views.md).

The wheel over a chart view zooms its Timelines' time window around the
time under the pointer, a left drag pans it, a right drag zooms it; these
functions do the same from pvpython, pvbatch or the GUI's shell, so a
script can follow a workflow step by step. They change the TimeWindow of
the Timeline displays shown in the view and of the Time Slicing the
overviews shown are computed from (linked views follow, see
macroscope.links), the StepWindow of the logical views (zoom_steps,
pan_steps) and the RowWindow of the Timelines (zoom_rows, pan_rows); the
next Render lays them out again at the new scale. The arithmetic is that of
Core/TimeNavigation.h, which the view's C++ mouse handling uses.
"""
import math

from paraview import simple

# One wheel step: 20 % narrower (in) or 25 % wider (out).
WHEEL_ZOOM_IN = 0.8


def chart_view(size=None, layout=None, hint=-1):
    """A new Macroscope Chart View (2D, its charts laid out for its size);
    `size` sets its ViewSize, e.g. [1600, 1000]. It goes to cell `hint` of
    `layout`, or, without one, to a layout tab of its own ("Chart View N"),
    so that a state file's views all come back in the GUI
    (docs/state-files.md)."""
    view = simple.CreateView("MacroscopeChartView")
    if size is not None:
        view.ViewSize = list(size)
    if layout is None:
        layout = simple.CreateLayout("Chart View %d" % (len(simple.GetLayouts()) + 1))
        hint = 0
    simple.AssignViewToLayout(view=view, layout=layout, hint=hint)
    return view


def _field(data, name, components):
    array = data.GetFieldData().GetArray(name) if data is not None else None
    if array is None or array.GetNumberOfComponents() != components or array.GetNumberOfTuples() < 1:
        return None
    return [array.GetComponent(0, k) for k in range(components)]


def chart_fields(display):
    """The navigation fields of a display's chart as drawn: a dict with
    'ChartRegion' (x0, x1, y0, y1, z0, z1 of what the camera fits),
    'TimeAxis' (x of t0, x of t1, t0, t1), 'TraceSpan' (s0, s1), 'PlotSize'
    (width, height), 'RowWindow' (first and last location drawn, of how
    many) and 'StepNavigation' (x of the first column's left and of the last
    column's right, first and last step drawn, steps per column, the trace's
    first and last step) when the chart has them, read from the labels this
    process drew (also on the client of a server). Empty before the first
    render."""
    composite = display.GetClientSideObject()
    active = composite.GetActiveRepresentation() if composite is not None else None
    if active is None:
        return {}
    for port in range(8):
        data = active.GetRenderedDataObject(port)
        region = _field(data, "ChartRegion", 6)
        if region is not None:
            fields = {"ChartRegion": region}
            for name, size in (("TimeAxis", 4), ("TraceSpan", 2), ("PlotSize", 2),
                               ("StepNavigation", 7)):
                value = _field(data, name, size)
                if value is not None:
                    fields[name] = value
            for port_data in (active.GetRenderedDataObject(p) for p in range(8)):
                rows = _field(port_data, "RowWindow", 3)
                if rows is not None:
                    fields["RowWindow"] = [int(v) for v in rows]
                    break
            return fields
    return {}


OVERVIEWS = ("Temporal Overview", "Spatiotemporal Overview")
SLICINGS = ("vtkMacroscopeTimeSlicing", "vtkMacroscopeStreamedTimeSlicing")


def _source_of(value):
    """The source proxy an Input property holds (its first, for several;
    the proxy of an output port)."""
    if isinstance(value, (list, tuple)):
        value = value[0] if value else None
    if value is not None and not hasattr(value, "SMProxy") and hasattr(value, "Proxy"):
        value = value.Proxy
    return value


def _upstream_slicing(display):
    """The Time Slicing (or Streamed Time Slicing) an overview display's
    model comes from, None if there is none."""
    proxy = _source_of(display.Input)
    for _ in range(32):
        if proxy is None:
            return None
        if proxy.SMProxy.GetVTKClassName() in SLICINGS:
            return proxy
        proxy = _source_of(proxy.Input) if "Input" in proxy.ListProperties() else None
    return None


def time_window_owner(display):
    """The proxy whose TimeWindow `display` draws: the display for a
    Timeline, the upstream Time Slicing for an overview (which is sliced
    again in the new window, as Ocelotl does), else None."""
    if display.Representation in OVERVIEWS:
        return _upstream_slicing(display)
    return display if display.Representation == "Timeline" else None


def _time_displays(view):
    found = []
    for display in view.Representations:
        if display.GetXMLName() != "MacroscopeTraceRepresentation" or not display.Visibility:
            continue
        fields = chart_fields(display)
        if "TimeAxis" in fields and "TraceSpan" in fields and time_window_owner(display):
            found.append((display, fields))
    if not found:
        raise ValueError("the view shows no chart along time that was drawn (show a Timeline "
                         "and render the view first)")
    return found


def drawn_window(view):
    """[t0, t1], the time window the first Timeline of `view` drew."""
    return _time_displays(view)[0][1]["TimeAxis"][2:4]


def trace_span(view):
    """[s0, s1], the time span of the trace of the first Timeline of `view`."""
    return _time_displays(view)[0][1]["TraceSpan"]


def chart_x(view, display_x):
    """The chart abscissa under display abscissa `display_x` (pixels from the
    view's left), from the fitted camera."""
    camera = view.GetActiveCamera()
    width, height = view.ViewSize
    half_width = camera.GetParallelScale() * width / float(height)
    return camera.GetFocalPoint()[0] - half_width + 2.0 * half_width * display_x / float(width)


def _fit(start, end, span):
    width = min(end - start, span[1] - span[0])
    start = min(max(start, span[0]), span[1] - width)
    return [start, start + width]


def _zoom_window(window, span, factor, pivot):
    if not (math.isfinite(factor) and factor > 0):
        raise ValueError("zoom: the factor must be finite and positive, not %r" % factor)
    width = window[1] - window[0]
    minimum = max((span[1] - span[0]) * 1e-6, 1e-9)
    new_width = min(max(width * factor, minimum), span[1] - span[0])
    share = min(max((pivot - window[0]) / width, 0.0), 1.0) if width > 0 else 0.5
    at = min(max(pivot, window[0]), window[1])
    return _fit(at - share * new_width, at - share * new_width + new_width, span)


def _as_property(window, span):
    tolerance = 1e-6 * (span[1] - span[0])
    if window[0] <= span[0] + tolerance and window[1] >= span[1] - tolerance:
        return [0.0, 0.0]  # the whole trace, as the property writes it
    return list(window)


def _apply(view, window):
    """`window` into the TimeWindow of every Timeline display of `view` and
    of the Time Slicing of every overview shown."""
    owners = []
    for display in view.Representations:
        if display.GetXMLName() == "MacroscopeTraceRepresentation" and display.Visibility:
            owner = time_window_owner(display)
            if owner is not None and all(owner.SMProxy != o.SMProxy for o in owners):
                owners.append(owner)
    for owner in owners:
        owner.TimeWindow = list(window)
    return window


def _agreed(compute):
    # pvbatch --symmetric: every rank runs this, only the first drew the
    # labels; its window goes to all so that the properties agree.
    from .links import _agreed as agreed
    return agreed(compute)


def zoom(view, factor, x=None):
    """Zooms the time window of the Timelines of `view` by `factor` (< 1 in,
    > 1 out) around the time under display abscissa `x` (pixels; None: the
    window's centre), within the trace. Returns the window set ((0, 0) for
    the whole trace)."""
    def compute():
        fields = _time_displays(view)[0][1]
        ax0, ax1, t0, t1 = fields["TimeAxis"]
        pivot = 0.5 * (t0 + t1) if x is None else t0 + (chart_x(view, x) - ax0) * (t1 - t0) / (ax1 - ax0)
        return _as_property(_zoom_window([t0, t1], fields["TraceSpan"], factor, pivot),
                            fields["TraceSpan"])
    return _apply(view, _agreed(compute))


def pan(view, dx):
    """Moves the time window of the Timelines of `view` as a drag of `dx`
    pixels would (positive: the chart follows the mouse right, showing
    earlier times), within the trace. Returns the window set."""
    def compute():
        fields = _time_displays(view)[0][1]
        ax0, ax1, t0, t1 = fields["TimeAxis"]
        offset = -(chart_x(view, dx) - chart_x(view, 0.0)) * (t1 - t0) / (ax1 - ax0)
        return _as_property(_fit(t0 + offset, t1 + offset, fields["TraceSpan"]),
                            fields["TraceSpan"])
    return _apply(view, _agreed(compute))


def wheel(view, steps, x=None):
    """`steps` wheel steps over display abscissa `x` (positive: forward,
    zoom in), as the mouse does."""
    return zoom(view, WHEEL_ZOOM_IN ** steps, x)


def _c_round(value):
    """C's round: halves away from zero (Python's round() rounds them to even)."""
    return math.floor(value + 0.5) if value >= 0 else -math.floor(-value + 0.5)


def _zoom_indices(first, last, total, factor, pivot):
    """The arithmetic of macroscope::ZoomIndices then AsProperty
    (Core/TimeNavigation): [0, -1] when all indices are kept."""
    if total < 1 or not (math.isfinite(factor) and factor > 0) or not math.isfinite(pivot):
        raise ValueError("zoom: needs indices, a positive factor and a finite pivot")
    if last < first:
        first, last = 0, total - 1
    first, last = min(max(0, first), total - 1), min(last, total - 1)
    count = last - first + 1.0
    share = min(max((pivot - first) / count, 0.0), 1.0)
    kept = min(max(_c_round(count * factor), 1.0), float(total))
    if kept == count and factor != 1.0:
        kept = min(max(count + (-1.0 if factor < 1.0 else 1.0), 1.0), float(total))
    start = min(max(_c_round(pivot - share * kept), 0.0), total - kept)
    first, last = int(start), int(start + kept) - 1
    return [0, -1] if first <= 0 and last >= total - 1 else [first, last]


def _pan_indices(first, last, total, offset):
    """The arithmetic of macroscope::PanIndices then AsProperty."""
    if total < 1 or not math.isfinite(offset):
        raise ValueError("pan: needs indices and a finite offset")
    if last < first:
        first, last = 0, total - 1
    first = min(max(0, first), total - 1)
    count = min(last, total - 1) - first + 1
    start = int(min(max(_c_round(first + offset), 0.0), float(total - count)))
    first, last = start, start + count - 1
    return [0, -1] if first <= 0 and last >= total - 1 else [first, last]


def chart_y(view, display_y):
    """The chart ordinate under display ordinate `display_y` (pixels from the
    view's bottom), from the fitted camera."""
    camera = view.GetActiveCamera()
    height = view.ViewSize[1]
    scale = camera.GetParallelScale()
    return camera.GetFocalPoint()[1] - scale + 2.0 * scale * display_y / float(height)


def _row_axes(view):
    """(display, axis) of every Timeline drawn: axis = (first, last, total,
    base 0, origin, units per row) with rows from the plot's top downwards."""
    axes = []
    for display in view.Representations:
        if (display.GetXMLName() == "MacroscopeTraceRepresentation" and display.Visibility
                and display.Representation == "Timeline"):
            fields = chart_fields(display)
            if "RowWindow" in fields and "PlotSize" in fields:
                first, last, total = fields["RowWindow"]
                height = fields["PlotSize"][1]
                axes.append((display, (first, last, total, 0, height, -height / (last - first + 1))))
    return axes


def _step_axes(view):
    """(display, axis) of every logical view drawn: axis = (first, last,
    total, base, origin, units per step), indices counted from the trace's
    first step (base)."""
    axes = []
    for display in view.Representations:
        if display.GetXMLName() != "MacroscopeTraceRepresentation" or not display.Visibility:
            continue
        fields = chart_fields(display)
        if "StepNavigation" in fields:
            x0, x1, first, last, stride, trace_first, trace_last = fields["StepNavigation"]
            base = int(trace_first)
            axes.append((display, (int(first) - base, int(last) - base,
                                   int(trace_last) - base + 1, base, x0,
                                   (x1 - x0) / (last - first + stride))))
    return axes


LOGICAL_VIEWS = ("Logical Timeline", "Clustered Logical Timeline")


def _shown_as(view, types):
    """The visible Macroscope displays of `view` showing one of `types` (on
    every rank, drawn or not, so that all set the same property)."""
    return [d for d in view.Representations
            if d.GetXMLName() == "MacroscopeTraceRepresentation" and d.Visibility
            and d.Representation in types]


def _property_window(window, base):
    return [0, -1] if window[1] < window[0] else [window[0] + base, window[1] + base]


def _free_from_shared_window(display):
    """A logical view following a shared TimeWindow draws its steps: set its
    own TimeWindow to (0, 0) with the links holding it paused, so that the
    views linked to it keep their window (as the mouse does)."""
    if list(display.TimeWindow) == [0.0, 0.0]:
        return
    from paraview import servermanager
    manager = servermanager.ProxyManager().SMProxyManager
    paused = []
    for i in range(manager.GetNumberOfLinks()):
        link = manager.GetRegisteredLink(manager.GetLinkName(i))
        if not link.IsA("vtkSMPropertyLink") or not link.GetEnabled():
            continue
        for k in range(link.GetNumberOfLinkedObjects()):
            if (link.GetLinkedProxy(k) == display.SMProxy
                    and link.GetLinkedPropertyName(k) == "TimeWindow"):
                link.SetEnabled(False)
                paused.append(link)
                break
    try:
        display.TimeWindow = [0.0, 0.0]
    finally:
        for link in paused:
            link.SetEnabled(True)


def _zoomed(axes, missing, factor, at):
    """The property window of the first of `axes` zoomed by `factor` around
    chart coordinate `at` (None: the window's middle); `missing` is the
    error when no axis was drawn."""
    if not axes:
        raise ValueError(missing)
    first, last, total, base, origin, units = axes[0][1]
    pivot = first + 0.5 * (last - first + 1) if at is None else first + (at - origin) / units
    return _property_window(_zoom_indices(first, last, total, factor, pivot), base)


def _panned(axes, missing, delta):
    """The property window of the first of `axes` moved by `delta` chart
    units (the chart follows the pointer: the indices move against it)."""
    if not axes:
        raise ValueError(missing)
    first, last, total, base, _, units = axes[0][1]
    return _property_window(_pan_indices(first, last, total, -delta / units), base)


def zoom_rows(view, factor, y=None):
    """Zooms across rows: the RowWindow of the Timelines of `view` scaled by
    `factor` (< 1: fewer locations, taller rows, fewer merged) around the row
    under display ordinate `y` (pixels from the bottom; None: the middle), as
    Ctrl + wheel does. Returns the RowWindow set ((0, -1): every row)."""
    return _set_rows(view, _agreed(lambda: _zoomed(
        _row_axes(view), "zoom_rows: the view shows no Timeline that was drawn", factor,
        None if y is None else chart_y(view, y))))


def pan_rows(view, dy):
    """Moves the RowWindow of the Timelines of `view` as the vertical part
    of a left drag of `dy` pixels does (positive: the rows follow the
    pointer up, showing rows further down). Returns the RowWindow set."""
    return _set_rows(view, _agreed(lambda: _panned(
        _row_axes(view), "pan_rows: the view shows no Timeline that was drawn",
        chart_y(view, dy) - chart_y(view, 0.0))))


def _set_rows(view, window):
    window = [int(v) for v in window]
    for display in _shown_as(view, ("Timeline",)):
        display.RowWindow = window
    return window


def zoom_steps(view, factor, x=None):
    """Zooms along steps: the StepWindow of the logical views of `view`
    scaled by `factor` (< 1: fewer steps, wider columns) around the step
    under display abscissa `x` (None: the middle), as the wheel over a
    logical view does; a view following a shared TimeWindow is freed from
    it first. Returns the StepWindow set ((0, -1): every step)."""
    return _set_steps(view, _agreed(lambda: _zoomed(
        _step_axes(view), "zoom_steps: the view shows no logical view that was drawn", factor,
        None if x is None else chart_x(view, x))))


def pan_steps(view, dx):
    """Moves the StepWindow of the logical views of `view` as a left drag of
    `dx` pixels does (positive: earlier steps). Returns the StepWindow set."""
    return _set_steps(view, _agreed(lambda: _panned(
        _step_axes(view), "pan_steps: the view shows no logical view that was drawn",
        chart_x(view, dx) - chart_x(view, 0.0))))


def _set_steps(view, window):
    window = [int(v) for v in window]
    for display in _shown_as(view, LOGICAL_VIEWS):
        _free_from_shared_window(display)
        display.StepWindow = window
    return window
