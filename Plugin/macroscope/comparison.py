"""Run comparison (docs/comparison.md): the difference model of two runs,
its spatiotemporal aggregation and the summary of where they differ most."""
from paraview import servermanager, simple


def _constructors():
    """The plugin's pvpython constructors (ModelDifference...), made as
    LoadPlugin makes them: LoadPlugin(..., ns=globals()) puts them in the
    caller's namespace, not in paraview.simple's."""
    namespace = {}
    simple._add_functions(namespace)
    return namespace


def compare_models(model_a, model_b, matching="By Rank", slices=0, parameter=0.3, count=5):
    """Model Difference of two models (Time Slicing or Streamed Time Slicing
    proxies, or their Model output ports), its Spatiotemporal Aggregation at
    `parameter` and the Difference Summary of the `count` parts of largest
    mean |A - B|. Returns (difference, aggregation, summary)."""
    make = _constructors()
    difference = make["ModelDifference"](Input=model_a, Other=model_b,
                                         ResourceMatching=matching, Slices=slices)
    aggregation = make["SpatiotemporalAggregation"](Input=difference, Parameter=parameter)
    summary = make["DifferenceSummary"](Input=simple.OutputPort(aggregation, 0), Count=count)
    return difference, aggregation, summary


def summary_sentence(summary):
    """The Summary sentence of a Difference Summary proxy ("Runs differ most
    on ..."), after updating it; empty when it has none."""
    summary.UpdatePipeline()
    table = servermanager.Fetch(summary)
    sentence = table.GetFieldData().GetAbstractArray("Summary") if table else None
    return sentence.GetValue(0) if sentence is not None and sentence.GetNumberOfValues() else ""
