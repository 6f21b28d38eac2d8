"""Linked views: one analysis window and one resource/type selection for
every Macroscope view of a trace (docs/linked-views.md).

The shared values are the ``TimeWindow``, ``Resources`` and ``Types``
properties of the Macroscope filters and displays that have them. They are
kept equal by ParaView's own property links (``vtkSMPropertyLink``),
registered with the session's proxy manager under ``<name>.<property>``, so
that ParaView saves them in state files, restores them on loading and lists
them in the GUI's Link Manager. A rectangle drawn over a Timeline (or a
logical timeline) becomes the shared window through ``select_time_range``.
"""
import math

from paraview import servermanager
from .proxies import input_proxies, linked_proxies

#: The properties a group of linked views shares.
SHARED_PROPERTIES = ("TimeWindow", "Resources", "Types")

#: Displays whose chart maps x to time (Timeline) or to steps (logical).
_TIME_AXIS_VIEWS = ("Timeline",)
_STEP_AXIS_VIEWS = ("Logical Timeline",)

# Readers also have a TimeWindow, but theirs chooses what is read: linking it
# would re-read the trace on every zoom and shrink what "whole trace" means
# for everything downstream. They are the roots of the trace, not members.
# Logical Time's TimeWindow only reports the steps of a window, by its own
# rule, and any change of it re-clusters: the logical views map the shared
# window themselves.
_NOT_MEMBERS = ("MacroscopeOTF2Reader", "MacroscopePajeReader", "MacroscopeSyntheticTrace",
                "MacroscopeLogicalTime")


def _link_name(name, prop):
    return "%s.%s" % (name, prop)


# Proxies under the name they had before a rename, which state files written
# then create (Plugin/ActiveProducers.xml): linked like the proxy they stand for.
_STATE_ALIASES = ("ActiveProducers",)


def _is_macroscope(proxy):
    xml = proxy.GetXMLName()
    return (xml.startswith("Macroscope") or xml in _STATE_ALIASES) and xml not in _NOT_MEMBERS


def _below(proxy, roots, seen=None):
    """True when `proxy` is one of `roots` or fed, directly or not, by one."""
    seen = set() if seen is None else seen
    key = proxy.SMProxy.GetGlobalIDAsString()
    if key in seen:
        return False
    seen.add(key)
    if any(proxy.SMProxy == root.SMProxy for root in roots):
        return True
    return any(_below(upstream, roots, seen) for upstream in input_proxies(proxy))


def session_members(roots=None):
    """Every Macroscope filter and Macroscope display of the session that has
    one of SHARED_PROPERTIES; with `roots` (readers or sources), only those
    in the pipeline below them (one trace)."""
    pxm = servermanager.ProxyManager()
    members = []
    for group in ("sources", "representations"):
        for proxy in pxm.GetProxiesInGroup(group).values():
            if not _is_macroscope(proxy):
                continue
            if not any(proxy.ListProperties().count(p) for p in SHARED_PROPERTIES):
                continue
            if roots is not None and not _below(proxy, roots):
                continue
            members.append(proxy)
    return members


def _members_of(proxies):
    """The members named by `proxies`: None for the whole session; a reader
    or source that is no member stands for the pipeline below it."""
    if proxies is None:
        return session_members()
    if not isinstance(proxies, (list, tuple)):
        proxies = [proxies]
    members = []
    roots = []
    for proxy in proxies:
        if _is_macroscope(proxy) and any(proxy.ListProperties().count(p)
                                         for p in SHARED_PROPERTIES):
            members.append(proxy)
        else:
            roots.append(proxy)
    if roots:
        members += [m for m in session_members(roots)
                    if not any(m.SMProxy == k.SMProxy for k in members)]
    return members


def link_views(proxies=None, name="Macroscope"):
    """Links the TimeWindow, Resources and Types of `proxies` (default: every
    Macroscope filter and display of the session; a reader or source given
    stands for the pipeline below it) with one bidirectional
    vtkSMPropertyLink per property, registered as "<name>.<property>".
    Members start with the first member's values. Returns the links by
    property name; an earlier group of that name is replaced."""
    members = _members_of(proxies)
    if not members:
        raise ValueError("link_views: no Macroscope filter or display with a "
                         "TimeWindow, Resources or Types property to link")
    unlink_views(name)
    pxm = servermanager.ProxyManager()
    links = {}
    for prop in SHARED_PROPERTIES:
        having = [m for m in members if m.ListProperties().count(prop)]
        if not having:
            continue  # a link of one member still carries set_window/set_selection
        # Equal values first, from the first member, so that the link starts
        # from one window; then every member is both source and target.
        value = having[0].GetPropertyValue(prop)
        for member in having[1:]:
            member.SetPropertyWithName(prop, value)
        link = servermanager.vtkSMPropertyLink()
        for member in having:
            link.AddLinkedProperty(member.SMProxy, prop, 1)  # vtkSMLink::INPUT
            link.AddLinkedProperty(member.SMProxy, prop, 2)  # vtkSMLink::OUTPUT
        pxm.RegisterLink(_link_name(name, prop), link)
        links[prop] = link
    return links


def unlink_views(name="Macroscope"):
    """Removes the links of the group `name` (the members keep their values)."""
    pxm = servermanager.ProxyManager()
    for prop in SHARED_PROPERTIES:
        link_name = _link_name(name, prop)
        link = pxm.GetRegisteredLink(link_name)
        if link is not None:
            # A link still referenced (by the caller of link_views) would
            # keep observing its members after being unregistered.
            link.RemoveAllLinks()
            pxm.UnRegisterLink(link_name)


def linked_members(name="Macroscope", prop="TimeWindow"):
    """The proxies of the group `name` linked on `prop` (empty when none)."""
    link = servermanager.ProxyManager().GetRegisteredLink(_link_name(name, prop))
    if link is None:
        return []
    return linked_proxies(link)


def _set_shared(name, prop, value):
    members = linked_members(name, prop)
    if not members:
        raise ValueError("no views are linked on %s under the name %r; call "
                         "link_views first" % (prop, name))
    # One member is enough: the link copies the value to the others.
    members[0].SetPropertyWithName(prop, value)
    return members


def set_window(t0, t1, name="Macroscope"):
    """Sets the shared window [t0, t1] in seconds since the trace start (an
    end of 0 is the trace end; (0, 0) the whole trace) on every view linked
    under `name`."""
    t0, t1 = float(t0), float(t1)
    if not (math.isfinite(t0) and math.isfinite(t1)) or (t1 != 0.0 and t1 <= t0):
        raise ValueError("set_window: (%g, %g) is no window; give t0 < t1 (t1 = 0 "
                         "for the trace end)" % (t0, t1))
    _set_shared(name, "TimeWindow", [t0, t1])


def set_selection(resources=None, types=None, name="Macroscope"):
    """Sets the shared resource selection (hierarchy names or paths, as Time
    Slicing's Resources) and type selection (type names); None leaves one
    as it is, an empty list selects everything."""
    if resources is not None:
        _set_shared(name, "Resources", list(resources))
    if types is not None:
        _set_shared(name, "Types", list(types))


def link_selection(source, other, name="Macroscope.Selection"):
    """ParaView's selection link (AddSelectionLink) between two sources
    whose outputs have the same rows (two readers of one trace file, a
    source and a pass-through of it): a row selected in a spreadsheet or a
    view of one is selected in the other."""
    from paraview import simple
    simple.AddSelectionLink(source, other, name)


# --- rubber band -> window ------------------------------------------------


def _chart_displays(view):
    return [d for d in view.Representations
            if d.GetXMLName() == "MacroscopeTraceRepresentation" and d.Visibility]


def _pick_display(view, display):
    if display is not None:
        return display
    for candidate in _chart_displays(view):
        if candidate.Representation in _TIME_AXIS_VIEWS + _STEP_AXIS_VIEWS:
            return candidate
    raise ValueError("window_from_rectangle: the view shows no Timeline or Logical "
                     "Timeline; give the display")


def _marks(display):
    """The marks drawn by `display` (the layout's first output), with the
    axis field data; in builtin sessions (pvpython, pvbatch) only."""
    composite = display.GetClientSideObject()
    active = composite.GetActiveRepresentation() if composite is not None else None
    marks = active.GetRenderedDataObject(0) if active is not None else None
    if marks is None:
        raise RuntimeError("window_from_rectangle: the display has drawn nothing yet "
                           "(render the view first)")
    return marks


def _world_x(view, x, y):
    """The chart x under the display point (x, y): the camera ray through it
    met with the chart's plane z = 0."""
    renderer = view.GetRenderer()
    ends = []
    for depth in (0.0, 1.0):
        renderer.SetDisplayPoint(float(x), float(y), depth)
        renderer.DisplayToWorld()
        w = renderer.GetWorldPoint()
        ends.append([w[i] / w[3] for i in range(3)] if w[3] else list(w[:3]))
    near, far = ends
    dz = far[2] - near[2]
    s = -near[2] / dz if dz else 0.0
    return near[0] + s * (far[0] - near[0])


def _axis(marks, name, size):
    array = marks.GetFieldData().GetArray(name)
    if array is None or array.GetNumberOfComponents() != size or array.GetNumberOfTuples() < 1:
        return None
    return [array.GetComponent(0, k) for k in range(size)]


def _steps_to_window(display, first, last):
    """The time span of global steps [first, last]: from the earliest start
    to the latest end of the Steps table of Logical Time (the filter's
    step <-> time map, as its TimeWindowOfSteps), else of the events'
    Enter and Exit."""
    sources = input_proxies(display)
    if not sources:
        raise ValueError("window_from_rectangle: the logical display has no input")
    source = sources[0]
    spans = []
    for port in range(source.SMProxy.GetNumberOfOutputPorts()):
        # The local output (no collective Fetch: under MPI only the first
        # rank holds Logical Time's gathered tables, see _agreed).
        table = source.GetClientSideObject().GetOutputDataObject(port)
        if table is None or not table.IsA("vtkTable"):
            continue
        step = table.GetColumnByName("GlobalStep")
        if step is None:
            continue
        if table.GetColumnByName("MetricSum") is not None:
            begin, end = table.GetColumnByName("Start"), table.GetColumnByName("End")
        else:
            begin, end = table.GetColumnByName("Enter"), table.GetColumnByName("Exit")
        if begin is None or end is None:
            continue
        rows = [(begin.GetValue(i), end.GetValue(i)) for i in range(table.GetNumberOfRows())
                if first <= step.GetValue(i) <= last]
        rows = [r for r in rows if math.isfinite(r[0]) and math.isfinite(r[1])]
        if rows:
            spans.append((min(r[0] for r in rows), max(r[1] for r in rows),
                          table.GetColumnByName("MetricSum") is not None))
    if not spans:
        raise ValueError("window_from_rectangle: steps %d-%d have no time span" % (first, last))
    steps_table = [s for s in spans if s[2]]
    chosen = steps_table[0] if steps_table else spans[0]
    return [chosen[0], chosen[1]]


def _agreed(compute):
    """compute() on every process, then the first process's answer on all
    (pvbatch --symmetric runs this on every rank, but only the first holds
    the gathered logical tables): the same window, or the same error,
    everywhere, so that the properties set afterwards agree."""
    from vtkmodules.vtkCommonCore import vtkDoubleArray
    from vtkmodules.vtkParallelCore import vtkMultiProcessController
    controller = vtkMultiProcessController.GetGlobalController()
    try:
        result, problem = compute(), None
    except (ValueError, RuntimeError) as error:
        result, problem = None, error
    if controller is None or controller.GetNumberOfProcesses() < 2:
        if problem is not None:
            raise problem
        return result
    message = vtkDoubleArray()
    message.SetNumberOfValues(3)
    message.SetValue(0, 0.0 if problem is not None else 1.0)
    message.SetValue(1, result[0] if result else 0.0)
    message.SetValue(2, result[1] if result else 0.0)
    controller.Broadcast(message, 0)
    if message.GetValue(0) == 0.0:
        raise ValueError("window_from_rectangle failed on the first process%s"
                         % (": %s" % problem if problem is not None else ""))
    return [message.GetValue(1), message.GetValue(2)]


def window_from_rectangle(view, rectangle, display=None):
    """The time window [t0, t1] (seconds) a display-coordinates rectangle
    [x0, y0, x1, y1] of `view` covers on a Timeline (its TimeAxis) or a
    Logical Timeline (its StepAxis: the columns met, whose steps map to time
    through Logical Time's Steps). The rectangle is clipped to the chart."""
    display = _pick_display(view, display)
    return _agreed(lambda: _window_of(view, rectangle, display))


def _window_of(view, rectangle, display):
    marks = _marks(display)
    x0, y0, x1, y1 = [float(v) for v in rectangle]
    a = _world_x(view, min(x0, x1), 0.5 * (y0 + y1))
    b = _world_x(view, max(x0, x1), 0.5 * (y0 + y1))
    time_axis = _axis(marks, "TimeAxis", 4)
    if time_axis is not None:
        ax0, ax1, t0, t1 = time_axis
        scale = (t1 - t0) / (ax1 - ax0)
        a, b = max(a, ax0), min(b, ax1)
        if b <= a:
            raise ValueError("window_from_rectangle: the rectangle misses the chart")
        return [t0 + (a - ax0) * scale, t0 + (b - ax0) * scale]
    step_axis = _axis(marks, "StepAxis", 5)
    if step_axis is not None:
        ax0, ax1, first, last, stride = step_axis
        columns = int(round((last - first) / stride)) + 1
        if columns < 1 or ax1 <= ax0:
            raise ValueError("window_from_rectangle: the logical view draws no step")
        width = (ax1 - ax0) / columns
        a, b = max(a, ax0), min(b, ax1)
        if b <= a:
            raise ValueError("window_from_rectangle: the rectangle misses the chart")
        c0 = int(math.floor((a - ax0) / width))
        c1 = min(columns - 1, int(math.ceil((b - ax0) / width)) - 1)
        s0 = int(first + c0 * stride)
        s1 = int(first + max(c0, c1) * stride)
        return _steps_to_window(display, s0, s1)
    raise ValueError("window_from_rectangle: the display's marks carry no TimeAxis or "
                     "StepAxis (show a Timeline or a Logical Timeline)")


def select_time_range(view, rectangle, display=None, name="Macroscope"):
    """Makes the window under `rectangle` (display coordinates [x0, y0, x1,
    y1], e.g. a rubber band) the shared window: set on the display, the links
    of the group `name` carry it to every linked view. Returns the window."""
    display = _pick_display(view, display)
    window = window_from_rectangle(view, rectangle, display)
    display.TimeWindow = window
    return window
