"""Ocelotl's overview of a trace through the streamed model: the fast path
for large traces (docs/overviews.md, "The Overview action").

``overview()`` takes a trace — a file name, or the OTF2/Pajé reader that
File > Open created (applied or not) — builds *Streamed Time Slicing* at its
defaults (the events are folded into the model while the file is read, on
every core, and no table is kept), an aggregation at its defaults, and
shows the Partition as its overview in a Render View fitted to it::

    result = macroscope.overview("run/traces.otf2")
    result.aggregation.Parameter = 0.7       # the view follows

The toolbar's *Overview* action calls it on the active source. The
reader's tables are not read: applying the reader still gives the Timeline
and the details.

Before the aggregation starts, its cost is estimated from the model's shape
(the figures of docs/performance.md); a setting whose estimate exceeds a
few seconds or a large share of memory is reported before it starts, and
the spatiotemporal overview falls back to the temporal one when asked for
``kind="auto"`` (the default).
"""
import collections
import time

from paraview import simple
from . import proxies
from .proxies import input_proxies

_READERS = ("MacroscopeOTF2Reader", "MacroscopePajeReader")
_STREAMED = "MacroscopeStreamedTimeSlicing"

Overview = collections.namedtuple(
    "Overview", "model aggregation display view kind seconds estimate")
Overview.__doc__ = """What ``overview()`` built: the Streamed Time Slicing
source, the aggregation filter, its display and view, the aggregation's kind
("spatiotemporal" or "temporal"), the seconds of each step (a dict: model,
aggregation, render) and the cost estimate that chose the kind."""

Estimate = collections.namedtuple("Estimate", "seconds bytes why")

# Measured on the 2-core machine (docs/performance.md, "pIC aggregation"):
# one spatiotemporal partition at T = 200 slices and |H| = 778 hierarchy
# nodes took 1.15 s with 626 MB of qualities and DP tables (41 B per node
# and interval, T^2/2 intervals); one temporal partition at T = 1000,
# 700 resources and 10 types 4.7 s. Both grow as T^2 times the rest.
_SPATIOTEMPORAL_SECONDS = 1.15 / (778 * 200 ** 2)
_SPATIOTEMPORAL_BYTES_PER_NODE_INTERVAL = 41.0
_TEMPORAL_SECONDS = 4.7 / (700 * 10 * 1000 ** 2)
# What the default path may cost before it says so (and, for "auto",
# falls back to the temporal overview).
_INTERACTIVE_SECONDS = 5.0
_MEMORY_SHARE = 0.25


def _available_bytes():
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 8 << 30


def estimate(kind, slices, resources, types, nodes=None):
    """The rough cost of one partition of `kind` on a model of `slices` x
    `resources` x `types` (and `nodes` hierarchy nodes, about 2 x resources
    when not given): an Estimate(seconds, bytes, why), `why` empty when the
    run is interactive, else a sentence saying what is large."""
    nodes = nodes or 2 * resources
    intervals = slices * (slices + 1) / 2.0
    if kind == "spatiotemporal":
        seconds = _SPATIOTEMPORAL_SECONDS * nodes * slices ** 2
        need = _SPATIOTEMPORAL_BYTES_PER_NODE_INTERVAL * nodes * intervals
    else:
        seconds = _TEMPORAL_SECONDS * resources * types * slices ** 2
        need = 8.0 * 2 * intervals * types
    why = ""
    if seconds > _INTERACTIVE_SECONDS or need > _MEMORY_SHARE * _available_bytes():
        why = ("%s aggregation of %d slices x %d resources x %d types (about %d hierarchy nodes): "
               "about %.0f s and %.1f GB for one partition (estimate); fewer Slices or a coarser "
               "ResourceLevel keep it interactive" % (kind.capitalize(), slices, resources, types,
                                                      nodes, seconds, need / 2.0 ** 30))
    return Estimate(seconds, need, why)


def _trace_source(proxy):
    """The reader or Streamed Time Slicing `proxy` is, or is fed by."""
    seen = set()
    todo = [proxy]
    while todo:
        current = todo.pop()
        key = current.SMProxy.GetGlobalIDAsString()
        if key in seen:
            continue
        seen.add(key)
        if current.GetXMLName() in _READERS + (_STREAMED,):
            return current
        todo.extend(input_proxies(current))
    return None


def streamed_model(source=None, **properties):
    """Streamed Time Slicing of a trace, at its defaults unless `properties`
    say otherwise. `source`: a trace file name, a Macroscope trace reader
    (its FileName and HierarchyFile are taken; it need not have been
    applied), a proxy fed by one, or a Streamed Time Slicing (returned with
    `properties` set); by default the active source. Raises ValueError when
    there is no trace to read."""
    if source is None:
        source = simple.GetActiveSource()
        if source is None:
            raise ValueError("no active source: open a trace (File > Open an OTF2 anchor or a "
                             "Paje file) or give its file name")
    if isinstance(source, str):
        return proxies.create("StreamedTimeSlicing", FileName=source, **properties)
    found = _trace_source(source)
    if found is None:
        raise ValueError("%s is not a trace reader and is fed by none: the overview needs an "
                         "OTF2 or Paje trace" % source.GetXMLLabel())
    if found.GetXMLName() == _STREAMED:
        for name, value in properties.items():
            setattr(found, name, value)
        return found
    file_name = found.FileName
    if not file_name:
        raise ValueError("the %s has no FileName" % found.GetXMLLabel())
    settings = {"FileName": file_name, "HierarchyFile": found.HierarchyFile}
    settings.update(properties)
    return proxies.create("StreamedTimeSlicing", **settings)


def _hierarchy_nodes(model):
    """The hierarchy nodes above the model's resources (its field data's
    NodeParent), or None when the data information lacks them."""
    try:
        fields = model.GetDataInformation(0).DataInformation.GetAttributeInformation(2)  # FIELD
        parents = fields.GetArrayInformation("NodeParent") if fields else None
        return parents.GetNumberOfTuples() if parents else None
    except AttributeError:
        return None


def overview(source=None, kind="auto", view=None, parameter=None, **model_properties):
    """Ocelotl's overview of a trace through the streamed model.

    `source` as in ``streamed_model`` (default: the active source). `kind`:
    "spatiotemporal", "temporal", or "auto" (spatiotemporal unless its
    estimate is not interactive, then temporal, saying why). `view`: the
    Render View to show it in; by default a new one in a layout of its own.
    `parameter`: the aggregation's p (default: the filter's). Other keyword
    arguments set Streamed Time Slicing's properties (e.g. Slices=200).
    Returns an Overview. A non-interactive estimate is printed (and, in the
    GUI, shown in the Output Messages) before the aggregation starts."""
    if kind not in ("auto", "spatiotemporal", "temporal"):
        raise ValueError("kind must be 'auto', 'spatiotemporal' or 'temporal', not %r" % (kind,))
    seconds = {}
    begin = time.perf_counter()
    model = streamed_model(source, **model_properties)
    model.UpdatePipeline()
    seconds["model"] = time.perf_counter() - begin

    extent = model.GetDataInformation(0).GetExtent()
    slices, resources, types = extent[1] + 1, extent[3] + 1, extent[5] + 1
    nodes = _hierarchy_nodes(model)
    chosen = "spatiotemporal" if kind in ("auto", "spatiotemporal") else "temporal"
    cost = estimate(chosen, slices, resources, types, nodes)
    if kind == "auto" and cost.why:
        fallback = estimate("temporal", slices, resources, types, nodes)
        print("Macroscope overview: %s; the temporal overview is shown instead" % cost.why)
        chosen, cost = "temporal", fallback
    if cost.why:
        print("Macroscope overview: %s" % cost.why)

    begin = time.perf_counter()
    aggregation = proxies.create("SpatiotemporalAggregation" if chosen == "spatiotemporal"
                                 else "TemporalAggregation", Input=simple.OutputPort(model, 0))
    if parameter is not None:
        aggregation.Parameter = parameter
    if view is None:
        layout = simple.CreateLayout("Overview")
        view = simple.CreateView("RenderView")
        simple.AssignViewToLayout(view=view, layout=layout, hint=0)
        view.OrientationAxesVisibility = 0
    display = simple.Show(simple.OutputPort(aggregation, 0), view, "MacroscopeTraceRepresentation")
    seconds["aggregation"] = time.perf_counter() - begin
    begin = time.perf_counter()
    view.CameraParallelProjection = 1
    simple.Render(view)
    view.ResetCamera(True)
    simple.Render(view)
    seconds["render"] = time.perf_counter() - begin
    simple.SetActiveView(view)
    simple.SetActiveSource(aggregation)
    return Overview(model, aggregation, display, view, chosen, seconds, cost)


def describe(result):
    """One line saying what ``overview()`` built and how long it took."""
    model = result.model
    extent = model.GetDataInformation(0).GetExtent()
    model.UpdatePropertyInformation()
    return ("Macroscope overview of %s: Streamed Time Slicing %d slices x %d resources x %d types "
            "(from the %s, %.2f s), %s Aggregation p = %g (%.2f s), shown in %.2f s" % (
                model.FileName, extent[1] + 1, extent[3] + 1, extent[5] + 1,
                model.GetProperty("ModelOrigin").GetElement(0), result.seconds["model"],
                result.kind.capitalize(), result.aggregation.Parameter,
                result.seconds["aggregation"], result.seconds["render"]))
