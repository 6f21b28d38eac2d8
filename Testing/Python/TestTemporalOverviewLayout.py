"""Temporal Overview Layout on a synthesized trace with a slow node, for
several p: one stack per part spanning exactly its [Start, End] in pixels,
layer heights equal to the Amplitude column times one scale (the tallest
stack fills the view) or the type sits in the stack's merged layer, which is
as tall as the layers it replaces; types in one order (largest area at the
bottom); a huge budget merges every stack, budget 0 nothing; a spatial or
spatiotemporal partition, a table that is no partition and a negative
budget are clear errors. All expectations are recomputed here from the
Partition table."""
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

directory = os.path.join(args.output, "trace")
mt.synthesize(args, directory, "--iterations", 20, "--perturbation", "slow-node",
              "--perturb-target", 2, "--perturb-window", 0.004, 0.008)
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
slicing = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=40)
aggregation = TemporalAggregation(Input=OutputPort(slicing, 0))
WIDTH, HEIGHT = 1000, 600
layout = TemporalOverviewLayout(Input=OutputPort(aggregation, 0), ViewSize=[WIDTH, HEIGHT])
MARKS, MARKING, GUIDES, LABELS, LEGEND = range(5)
TOL = 1e-6  # pixels


def partition_rows(table):
    """(start, end, amplitudes) per row, the window, the type names."""
    amplitude = table.GetColumnByName("Amplitude")
    types = amplitude.GetNumberOfComponents()
    rows = [(mt.column(table, "Start")[k], mt.column(table, "End")[k],
             [amplitude.GetComponent(k, u) for u in range(types)])
            for k in range(table.GetNumberOfRows())]
    window = table.GetFieldData().GetArray("TimeWindow").GetTuple2(0)
    names = table.GetFieldData().GetAbstractArray("TypeName")
    return rows, window, [names.GetValue(u) for u in range(types)]


def layers_of(marks):
    """One dict per quad of the Marks output."""
    data = marks.GetCellData()
    arrays = {name: data.GetAbstractArray(name) for name in
              ("Part", "Type", "Value", "VisualAggregate", "Contents", "MergedTypes")}
    mt.check(all(a is not None for a in arrays.values()),
             "Marks misses one of the cell arrays %s" % sorted(arrays))
    color = data.GetArray("Color")
    mt.check(color is not None and color.GetNumberOfComponents() == 4, "Marks has no RGBA Color")
    layers = []
    for i in range(marks.GetNumberOfCells()):
        x0, x1, y0, y1, _, _ = marks.GetCell(i).GetBounds()
        layers.append(dict(part=arrays["Part"].GetValue(i), type=arrays["Type"].GetValue(i),
                           value=arrays["Value"].GetValue(i),
                           flags=arrays["VisualAggregate"].GetValue(i),
                           contents=arrays["Contents"].GetValue(i),
                           merged=arrays["MergedTypes"].GetValue(i),
                           x0=x0, x1=x1, y0=y0, y1=y1))
    return layers


def check_overview(p, budget):
    """Checks the layout of the partition at p with MinLayerHeight `budget`;
    returns (number of merged layers, number of stacks drawn)."""
    where = "p=%g, budget %g" % (p, budget)
    aggregation.Parameter = p
    layout.MinLayerHeight = budget
    layout.UpdatePipeline()
    rows, (t0, t1), names = partition_rows(servermanager.Fetch(aggregation, idx=0))
    marks = servermanager.Fetch(layout, idx=MARKS)
    # The plot: what the labels leave of the view (docs/labels.md).
    WIDTH, HEIGHT = mt.plot_size(layout, LABELS)
    scale = marks.GetFieldData().GetArray("AmplitudeScale").GetValue(0)
    totals = [sum(a) for _, _, a in rows]
    mt.check(max(totals) > 0, where + ": the model is empty")
    mt.check(abs(scale - HEIGHT / max(totals)) <= 1e-12 * scale,
             "%s: scale %r, expected height / tallest total = %r" % (where, scale, HEIGHT / max(totals)))
    pps = WIDTH / (t1 - t0)
    types = len(names)
    area = [sum(a[u] * (e - s) for s, e, a in rows) for u in range(types)]
    order = sorted(range(types), key=lambda u: (-area[u], u))  # bottom first
    rank = {u: i for i, u in enumerate(order)}

    layers = layers_of(marks)
    by_part = {}
    for layer in layers:
        by_part.setdefault(layer["part"], []).append(layer)
    drawn = [k for k in range(len(rows)) if totals[k] > 0]
    mt.check(sorted(by_part) == drawn,
             "%s: stacks for parts %s, expected one per non-empty part %s" % (where, sorted(by_part), drawn))
    merged_layers = 0
    for k, stack in by_part.items():
        start, end, amplitude = rows[k]
        stack.sort(key=lambda layer: layer["y0"])
        mt.check(abs(stack[0]["y0"]) < TOL, "%s: stack %d does not stand on y = 0" % (where, k))
        plain = set()
        merged = None
        for i, layer in enumerate(stack):
            mt.check(abs(layer["x0"] - (start - t0) * pps) < TOL and abs(layer["x1"] - (end - t0) * pps) < TOL,
                     "%s: stack %d spans x %g..%g, its part %g..%g s" % (where, k, layer["x0"], layer["x1"], start, end))
            if i > 0:
                mt.check(abs(layer["y0"] - stack[i - 1]["y1"]) < TOL, "%s: gap in stack %d" % (where, k))
            height = layer["y1"] - layer["y0"]
            if layer["type"] >= 0:
                u = layer["type"]
                mt.check(layer["flags"] == 0 and u not in plain, "%s: stack %d: bad plain layer" % (where, k))
                mt.check(abs(height / scale - amplitude[u]) <= 1e-9 * max(1.0, amplitude[u]),
                         "%s: stack %d type %d: height / scale %r, amplitude %r"
                         % (where, k, u, height / scale, amplitude[u]))
                mt.check(height >= budget - TOL, "%s: stack %d keeps a layer under the budget" % (where, k))
                plain.add(u)
            else:
                mt.check(merged is None and i == len(stack) - 1 and layer["flags"] & 1,
                         "%s: stack %d: the merged layer is not alone on top" % (where, k))
                merged = layer
        # Plain layers follow the one type order of the chart.
        ranks = [rank[layer["type"]] for layer in stack if layer["type"] >= 0]
        mt.check(ranks == sorted(ranks), "%s: stack %d breaks the type order" % (where, k))
        # Every non-zero type is a layer or inside the merged layer.
        missing = [u for u in order if amplitude[u] > 0 and u not in plain]
        if missing:
            merged_layers += 1
            mt.check(merged is not None, "%s: stack %d lost types %s" % (where, k, missing))
            mt.check(all(amplitude[u] * scale < budget for u in missing),
                     "%s: stack %d merged a layer thicker than the budget" % (where, k))
            expected = sum(amplitude[u] for u in missing)
            mt.check(abs(merged["value"] - expected) <= 1e-9 * max(1.0, expected) and
                     abs((merged["y1"] - merged["y0"]) / scale - expected) <= 1e-9 * max(1.0, expected),
                     "%s: stack %d: merged layer %r, its types sum to %r" % (where, k, merged["value"], expected))
            mt.check(merged["contents"] == ", ".join(names[u] for u in missing) and merged["merged"] == len(missing),
                     "%s: stack %d: merged layer lists %r, expected %s" % (where, k, merged["contents"], missing))
        else:
            mt.check(merged is None, "%s: stack %d has an empty merged layer" % (where, k))
        # No layer lost: the stack is as tall as its total.
        mt.check(abs(stack[-1]["y1"] / scale - totals[k]) <= 1e-9 * max(1.0, totals[k]),
                 "%s: stack %d is %r tall, its total %r" % (where, k, stack[-1]["y1"] / scale, totals[k]))
    # The stacks tile the window, in time order.
    spans = sorted((stack[0]["x0"], stack[0]["x1"]) for stack in by_part.values())
    if len(drawn) == len(rows):
        mt.check(abs(spans[0][0]) < TOL and abs(spans[-1][1] - WIDTH) < TOL and
                 all(abs(a[1] - b[0]) < TOL for a, b in zip(spans, spans[1:])),
                 "%s: the stacks do not tile the window" % where)

    # Merged layers are marked; the legend lists the types drawn, largest first.
    marking = servermanager.Fetch(layout, idx=MARKING)
    mt.check((marking.GetNumberOfCells() > 0) == (merged_layers > 0),
             "%s: %d marking lines for %d merged layers" % (where, marking.GetNumberOfCells(), merged_layers))
    legend = servermanager.Fetch(layout, idx=LEGEND).GetFieldData().GetAbstractArray("LegendName")
    plain_types = {layer["type"] for layer in layers if layer["type"] >= 0}
    expected = [names[u] for u in order if u in plain_types]
    mt.check([legend.GetValue(i) for i in range(legend.GetNumberOfValues())] == expected,
             "%s: legend lists %s, expected %s" % (where, [legend.GetValue(i) for i in range(legend.GetNumberOfValues())], expected))
    return merged_layers, len(drawn)


merged_with_default = 0
for p in (0.0, 0.3, 0.6, 1.0):
    merged, stacks = check_overview(p, 3.0)
    merged_with_default += merged
    merged, _ = check_overview(p, 0.0)
    mt.check(merged == 0, "p=%g: budget 0 still merges layers" % p)
    flags = servermanager.Fetch(layout, idx=MARKS).GetCellData().GetArray("VisualAggregate")
    mt.check(all(flags.GetValue(i) == 0 for i in range(flags.GetNumberOfTuples())),
             "p=%g: budget 0 flags a layer" % p)
    merged, stacks = check_overview(p, 1e9)
    mt.check(merged == stacks and stacks > 0, "p=%g: a huge budget left %d of %d stacks unmerged"
             % (p, stacks - merged, stacks))
    marks = servermanager.Fetch(layout, idx=MARKS)
    mt.check(marks.GetNumberOfCells() == stacks, "p=%g: a huge budget left plain layers" % p)
    print("p=%g: %d stacks" % (p, stacks))
# The default budget does merge something on this trace (the MPI calls are thin).
mt.check(merged_with_default > 0, "the default budget never merged a layer: the test checks nothing")

# Guides and labels: the time axis and a value axis named after the metric.
layout.MinLayerHeight = 3.0
layout.UpdatePipeline()
labels = servermanager.Fetch(layout, idx=LABELS)
text = labels.GetPointData().GetAbstractArray("Label")
kinds = labels.GetPointData().GetArray("LabelKind")
titles = [text.GetValue(i) for i in range(text.GetNumberOfValues()) if kinds.GetValue(i) == 3]
value_title = [t for t in titles if t.startswith("state time per ")]
# Above the plot: what is shown (p and the number of parts), then the value axis.
part_count = servermanager.Fetch(aggregation).GetNumberOfRows()
shown = [t for t in titles if t.startswith("p = ")]
mt.check(len(shown) == 1 and (": %d part%s of " % (part_count, "" if part_count == 1 else "s")) in shown[0],
         "the titles %s do not say p and the parts" % titles)
mt.check(any(t.startswith("time, ") for t in titles) and len(value_title) == 1,
         "axis titles %s" % titles)
# The value title's unit is that of its tick labels ("... (ms)" over "20 ms").
unit = value_title[0][value_title[0].rfind("(") + 1:-1]
value_texts = [text.GetValue(i) for i in range(text.GetNumberOfValues()) if kinds.GetValue(i) == 1]
mt.check(unit in ("s", "ms", "\u00b5s", "ns") and all(v.endswith(" " + unit) for v in value_texts),
         "the value title %r over ticks %s" % (value_title[0], value_texts))
mt.check(servermanager.Fetch(layout, idx=GUIDES).GetNumberOfLines() > 4, "no axis ticks in Guides")
# Value-axis labels (row-label kind: right-aligned left of the axis) on
# ticks from 0 up to the tallest stack.
value_ticks = [labels.GetPoint(i) for i in range(text.GetNumberOfValues()) if kinds.GetValue(i) == 1]
mt.check(len(value_ticks) >= 2 and all(x < 0 and -TOL <= y <= HEIGHT + TOL for x, y, _ in value_ticks)
         and min(y for _, y, _ in value_ticks) == 0.0, "value-axis labels at %s" % value_ticks)

# Errors: other partitions, a table that is no partition, a negative budget.
def expect_error(message, where):
    capture = mt.ErrorCapture()
    try:
        layout.UpdatePipeline()
    finally:
        capture.close()
    mt.check(message in capture.text(), "%s: expected an error with %r, got %r" % (where, message, capture.text()))


for proxy in (SpatiotemporalAggregation, SpatialAggregation):
    other = proxy(Input=OutputPort(slicing, 0), Parameter=0.5)
    layout.Input = OutputPort(other, 0)
    expect_error("draw it with the Spatiotemporal Overview", proxy.__name__)
layout.Input = OutputPort(reader, 0)
expect_error("needs the Partition output of Temporal Aggregation", "States table")
layout.Input = OutputPort(aggregation, 0)
layout.MinLayerHeight = -1.0
expect_error("MinLayerHeight must be", "negative budget")
layout.MinLayerHeight = 3.0
layout.ViewSize = [0, 600]
expect_error("ViewSize must be at least 1 x 1", "empty view")
# Fixed, the pipeline draws again.
layout.ViewSize = [WIDTH, HEIGHT]
layout.UpdatePipeline()
mt.check(servermanager.Fetch(layout, idx=MARKS).GetNumberOfCells() > 0, "no marks after fixing ViewSize")
