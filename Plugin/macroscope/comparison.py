"""Run comparison (docs/comparison.md): the difference model of two runs,
its spatiotemporal aggregation and the summary of where they differ most."""
from paraview import servermanager, simple

from . import proxies


def compare_models(model_a, model_b, matching="By Rank", slices=0, parameter=0.3, count=5,
                   labels=("A", "B")):
    """Model Difference of two models (Time Slicing or Streamed Time Slicing
    proxies, or their Model output ports), its Spatiotemporal Aggregation at
    `parameter` and the Difference Summary of the `count` parts of largest
    mean |A - B|; `labels` name the runs (RunNames). Returns (difference,
    aggregation, summary)."""
    difference = proxies.create("ModelDifference", Input=model_a, Other=model_b,
                                ResourceMatching=matching, Slices=slices,
                                RunNames=[str(labels[0]), str(labels[1])])
    aggregation = proxies.create("SpatiotemporalAggregation", Input=difference,
                                 Parameter=parameter)
    summary = proxies.create("DifferenceSummary", Input=simple.OutputPort(aggregation, 0),
                             Count=count)
    return difference, aggregation, summary


def summary_sentence(summary):
    """The Summary sentence of a Difference Summary proxy ("Runs differ most
    on ..."), after updating it; empty when it has none."""
    summary.UpdatePipeline()
    table = servermanager.Fetch(summary)
    sentence = table.GetFieldData().GetAbstractArray("Summary") if table else None
    return sentence.GetValue(0) if sentence is not None and sentence.GetNumberOfValues() else ""


class Comparison(object):
    """What compare_runs built: per run (index 0 the reference A, 1 the
    compared run B) its `sources`, `models` and `displays` in `views`; the
    `difference` model (A - B), its `aggregation` and `summary`, shown as a
    Spatiotemporal Overview by `difference_display` in `difference_view`;
    the `layout` holding the three views; `window`, the common window; and
    `link_name`, the group of linked views that couples the two runs."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def sentence(self):
        """The summary's sentence naming the resources and window that differ
        most (see summary_sentence)."""
        return summary_sentence(self.summary)


def _open_trace(trace, hierarchy_file, label):
    """A reader for `trace` (a file name, opened by the reader registered for
    its extension) or `trace` itself when it is already a proxy."""
    if not isinstance(trace, str):
        return trace
    reader = simple.OpenDataFile(trace, registrationName=label)
    if reader is None:
        raise ValueError("compare_runs: no reader for %s" % trace)
    if hierarchy_file:
        reader.HierarchyFile = hierarchy_file
    return reader


def _trace_end(source):
    """The end of `source`'s trace (seconds since its start), from its
    TimeBounds information property."""
    source.UpdatePipelineInformation()
    bounds = source.GetPropertyValue("TimeBounds") if source.ListProperties().count("TimeBounds") else None
    if not bounds or len(bounds) < 2:
        raise ValueError("compare_runs: %s reports no TimeBounds" % source.GetXMLLabel())
    return float(bounds[1])


def chart_view(size, layout=None, hint=-1):
    """A new Macroscope Chart View (docs/views.md) of `size` pixels, white
    background: 2D, its charts laid out for the view's own size. Scripts
    that save chart pictures start from it. It is put in cell `hint` of
    `layout`, or, without one, in a layout tab of its own ("Chart View N"),
    so that a state file's views all come back in the GUI
    (docs/state-files.md); macroscope.layout_tab moves it to another tab."""
    view = simple.CreateView("MacroscopeChartView")
    view.ViewSize = list(size)
    view.OrientationAxesVisibility = 0
    view.UseColorPaletteForBackground = 0
    view.Background = [1, 1, 1]
    if layout is None:
        layout = simple.CreateLayout("Chart View %d" % (len(simple.GetLayouts()) + 1))
        hint = 0
    simple.AssignViewToLayout(view=view, layout=layout, hint=hint)
    return view


def _show_chart(port, view, kind, chart_size=None):
    """`port` shown as `kind` in `view`: laid out for the view's size, or
    for `chart_size` pixels when given (an explicit ViewSize)."""
    display = simple.Show(port, view, "MacroscopeTraceRepresentation")
    display.SetRepresentationType(kind)
    if chart_size is not None:
        display.ViewSize = list(chart_size)
    display.LabelColor = [0.1, 0.1, 0.1]
    return display


def compare_runs(reference, compared, labels=("A", "B"), hierarchy_files=(None, None),
                 window=None, slices=100, matching="By Rank", parameter=0.3, count=5,
                 size=(1600, 1000), link_name="Comparison"):
    """Two runs of one program side by side with coupled zoom, and where they
    differ.

    `reference` (A) and `compared` (B) are trace file names (an OTF2 archive
    or a Paje trace: the reader registered for the extension opens it, with
    the matching entry of `hierarchy_files`) or reader/source proxies. Each
    run is shown as a Timeline in its own Render View, the two side by side
    in one layout, titled "A: <label>" and "B: <label>"; below them, the
    Spatiotemporal Overview of the difference model A - B (Model Difference,
    `matching` "By Rank" or "By Name" for runs of different process counts),
    aggregated at `parameter`, each part coloured by which run had more of
    the type that differs most in it (SignedDifference).

    Both runs are sliced with `slices` slices over one `window` (default: the
    reference run's [0, end], so that the tail of a longer run does not count
    as the largest difference), so the two grids are equal and the difference
    is exact. The zoom is coupled twice: the two Timelines and the two Time
    Slicing filters share their TimeWindow through a group of linked views
    named `link_name` (zooming either run re-draws both and re-computes the
    difference on the zoomed window), and the two views share their camera.
    Returns a Comparison."""
    sources = [_open_trace(trace, hierarchy, label)
               for trace, hierarchy, label in zip((reference, compared), hierarchy_files, labels)]
    if window is None:
        window = [0.0, _trace_end(sources[0])]
    window = [float(window[0]), float(window[1])]
    if not window[1] > window[0]:
        raise ValueError("compare_runs: empty window %s" % window)
    models = [proxies.create("TimeSlicing", Input=simple.OutputPort(source, 0),
                             Slices=slices, TimeWindow=window)
              for source in sources]
    difference, aggregation, summary = compare_models(models[0], models[1], matching=matching,
                                                      slices=slices, parameter=parameter,
                                                      count=count, labels=labels)
    width, height = int(size[0]), int(size[1])
    top = int(height * 0.55)
    layout = simple.CreateLayout("%s: %s vs %s" % (link_name, labels[0], labels[1]))
    layout.SplitVertical(0, 0.55)
    layout.SplitHorizontal(1, 0.5)
    views, displays = [], []
    for cell, source, run, label in zip((3, 4), sources, "AB", labels):
        view = chart_view((width // 2, top), layout, cell)
        # Laid out for the view's own size, labels and legend included.
        displays.append(_show_chart(simple.OutputPort(source, 0), view, "Timeline"))
        displays[-1].Title = "%s: %s" % (run, label)
        views.append(view)
    difference_view = chart_view((width, height - top), layout, 2)
    difference_display = _show_chart(simple.OutputPort(aggregation, 0), difference_view,
                                      "Spatiotemporal Overview")
    layout.SetSize(width, height)

    from . import links
    links.link_views(models + displays, name=link_name)
    simple.AddCameraLink(views[0], views[1], "%s.Camera" % link_name)
    for view in views + [difference_view]:
        simple.Render(view)
        view.ResetCamera(True)
        simple.Render(view)
    return Comparison(sources=sources, models=models, views=views, displays=displays,
                      difference=difference, aggregation=aggregation, summary=summary,
                      difference_view=difference_view, difference_display=difference_display,
                      layout=layout, window=window, link_name=link_name, labels=tuple(labels))
