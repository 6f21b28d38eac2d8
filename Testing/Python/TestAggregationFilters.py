"""The pIC aggregation filters on a synthesized trace's model: each
partition tiles the model, agrees with the quality curves at its p, the
curves are ordered and span [0, 1], p = 0 and p = 1 behave as the method
says, and a p outside [0, 1] is a clear error."""
import math
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

directory = os.path.join(args.output, "trace")
mt.synthesize(args, directory, "--iterations", 20, "--perturbation", "slow-node",
              "--perturb-target", 2)
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
slicing = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=16, ResourceLevel=3)
model = servermanager.Fetch(slicing, idx=0)
slices, resources = model.GetDimensions()[0], model.GetDimensions()[1]


def rows(table, name):
    return mt.column(table, name)


for proxy in (TemporalAggregation, SpatialAggregation, SpatiotemporalAggregation):
    name = proxy.__name__
    aggregation = proxy(Input=OutputPort(slicing, 0))
    curves = None
    for p in (0.0, 0.25, 0.5, 0.8, 1.0):
        aggregation.Parameter = p
        aggregation.UpdatePipeline()
        partition = servermanager.Fetch(aggregation, idx=0)
        curves = servermanager.Fetch(aggregation, idx=1)
        # The parts tile resources x slices exactly once.
        covered = [[0] * slices for _ in range(resources)]
        for a, b, f, l in zip(rows(partition, "FirstLeaf"), rows(partition, "LastLeaf"),
                              rows(partition, "FirstSlice"), rows(partition, "LastSlice")):
            for r in range(a, b + 1):
                for t in range(f, l + 1):
                    covered[r][t] += 1
        mt.check(all(c == 1 for line in covered for c in line), "%s at p=%g: parts do not tile the model" % (name, p))
        # The partition is the curve's partition at p.
        starts, ends = rows(curves, "PStart"), rows(curves, "PEnd")
        quality = partition.GetFieldData().GetArray("PartitionQuality")
        k = max(i for i, s in enumerate(starts) if s <= p)
        mt.check(abs(quality.GetComponent(0, 0) - rows(curves, "Gain")[k]) < 1e-9 and
                 abs(quality.GetComponent(0, 1) - rows(curves, "Loss")[k]) < 1e-9,
                 "%s at p=%g: the partition is not the quality curves' optimum" % (name, p))
        if p == 1.0:
            mt.check(partition.GetNumberOfRows() == 1, "%s: p = 1 does not aggregate everything" % name)
    # The Quality Plot: each partition as a step over [PStart, PEnd], then
    # the current p as a vertical line, NaN separating the series.
    plot = servermanager.Fetch(aggregation, idx=2)
    xs, plot_gain, plot_loss, current = (rows(plot, c) for c in ("p", "Gain", "Loss", "Current p"))
    count = curves.GetNumberOfRows()
    mt.check(plot.GetNumberOfRows() == 2 * count + 2, "%s: the quality plot has %d rows for %d partitions"
             % (name, plot.GetNumberOfRows(), count))
    for k in range(count):
        mt.check(xs[2 * k] == rows(curves, "PStart")[k] and xs[2 * k + 1] == rows(curves, "PEnd")[k] and
                 plot_gain[2 * k] == plot_gain[2 * k + 1] == rows(curves, "Gain")[k] and
                 plot_loss[2 * k] == plot_loss[2 * k + 1] == rows(curves, "Loss")[k] and
                 math.isnan(current[2 * k]), "%s: quality plot step %d is wrong" % (name, k))
    mt.check(xs[-1] == xs[-2] == 1.0 and current[-2] == 0.0 and current[-1] > 0.0 and
             math.isnan(plot_gain[-1]) and math.isnan(plot_loss[-2]),
             "%s: the current p line is not at p = 1" % name)
    # Five values of p, one quality computation; the table says what it is.
    fields = partition.GetFieldData()
    mt.check(fields.GetArray("QualityComputations").GetValue(0) == 1,
             "%s: changing p recomputed the qualities" % name)
    expected = {"TemporalAggregation": "temporal", "SpatialAggregation": "spatial",
                "SpatiotemporalAggregation": "spatiotemporal"}[name]
    mt.check(fields.GetAbstractArray("Constraint").GetValue(0) == expected,
             "%s: Constraint field is not %s" % (name, expected))
    mt.check(fields.GetAbstractArray("NodeParent").GetNumberOfTuples() ==
             model.GetFieldData().GetAbstractArray("NodeParent").GetNumberOfTuples() and
             fields.GetArray("TypeColor") is not None and
             tuple(fields.GetArray("ModelShape").GetTuple3(0)) == tuple(model.GetDimensions()),
             "%s: the Partition table does not describe the model" % name)
    starts, ends = rows(curves, "PStart"), rows(curves, "PEnd")
    mt.check(starts[0] == 0.0 and ends[-1] == 1.0 and all(a < b for a, b in zip(starts, starts[1:])),
             "%s: the quality curves do not cover [0, 1] in order" % name)
    parts = rows(curves, "Parts")
    mt.check(all(a >= b for a, b in zip(parts, parts[1:])), "%s: parts grow with p" % name)
    gains, losses = rows(curves, "Gain"), rows(curves, "Loss")
    mt.check(all(a <= b + 1e-12 for a, b in zip(gains, gains[1:])) and
             all(a <= b + 1e-12 for a, b in zip(losses, losses[1:])),
             "%s: gain and loss must grow with p" % name)
    print("%s: %d distinct partitions" % (name, len(starts)))

    aggregation.Parameter = 1.5
    capture = mt.ErrorCapture()
    try:
        aggregation.UpdatePipeline()
    finally:
        capture.close()
    mt.check("Parameter must be in [0, 1]" in capture.text(), "%s: no error for p = 1.5" % name)
