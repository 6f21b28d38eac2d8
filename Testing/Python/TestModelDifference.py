"""Run comparison (docs/comparison.md): the difference of a run
and its perturbed twin isolates the perturbation, judged against the
synthesizer's ground_truth.json.

* Perturbation: the same run (8 ranks on 4 nodes, ring, 4 MB messages)
  with and without a slow node (node 1 three times slower in [0.05, 0.1] s),
  both sliced by process over the control's duration (the perturbed run
  lasts longer: its extra tail would differ everywhere). The Spatiotemporal
  Aggregation of Model Difference at p = 0.3 and Difference Summary: the
  top-ranked part's resources are the ground truth's ranks and its window
  is the injected one, each end within a slice. Messages dominate compute
  on purpose: a slow node makes every rank wait for it, and the state
  durations of the waiting ranks change more than the slow node's own
  unless communication outweighs compute (docs/comparison.md).
* Identity: a model against itself gives Value 0 everywhere, and its
  aggregation is one part, at every p tried.
* By name: the control against a run with 3 ranks per node instead of 2:
  the union of the process paths (3 shared, 5 and 9 of each run's own, by
  the block numbering of docs/synthesizer.md), UnmatchedResources (5, 9),
  and every row's A and B equal to the row of the same path in each model.

Runs serially and on 2 ranks (pvbatch --symmetric): Time Slicing holds its
whole model on every rank, Model Difference then computes on every rank and
the aggregation and summary output on piece 0.
"""
import json
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())
import numpy as np
from vtkmodules.util.numpy_support import vtk_to_numpy

SLICES = 50
BASE = ["--clusters", 2, "--nodes-per-cluster", 2, "--ranks-per-node", 2, "--threads-per-rank", 1,
        "--iterations", 400, "--pattern", "ring", "--compute-time", 0.0001,
        "--message-bytes", 4000000, "--imbalance", 0]
PERTURBATION = ["--perturbation", "slow-node", "--perturb-target", 1, "--perturb-factor", 3,
                "--perturb-window", 0.05, 0.1]
root = servermanager.vtkProcessModule.GetProcessModule().GetPartitionId() == 0


pm = servermanager.vtkProcessModule.GetProcessModule()
ranks = pm.GetNumberOfLocalPartitions()
mt.check(ranks in (1, 2), "run serially or on 2 ranks, not %d" % ranks)
# The serial run synthesizes the traces; the 2-rank run (its CTest fixture
# follower) reads them, so that no two processes write one trace.
RUNS = os.path.join(args.output, "..", "model-difference-runs")


def run(name, *options):
    """Synthesizes a run (serially) and returns its reader's outputs and its
    ground truth."""
    directory = os.path.join(RUNS, name)
    if ranks == 1:
        mt.synthesize(args, directory, *options)
    mt.check(os.path.isfile(os.path.join(directory, "ground_truth.json")),
             "%s is missing: run Python.ModelDifference first" % directory)
    with open(os.path.join(directory, "ground_truth.json")) as f:
        truth = json.load(f)
    reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
    return [OutputPort(reader, i) for i in range(6)], truth


def trace_end(ports):
    slicing = TimeSlicing(Input=ports, Slices=1)
    slicing.UpdatePipeline()
    end = slicing.GetDataInformation().DataInformation.GetFieldDataInformation() \
        .GetArrayInformation("TimeWindow").GetComponentRange(1)[1]
    Delete(slicing)
    return end


def model(ports, end):
    """Processes x SLICES slices over [0, end]."""
    return TimeSlicing(Input=ports, Slices=SLICES, ResourceLevel=3, TimeWindow=[0.0, end])


def value_range(source, array):
    source.UpdatePipeline()
    info = source.GetDataInformation().DataInformation.GetPointDataInformation().GetArrayInformation(array)
    mt.check(info is not None, "%s has no point array %s" % (source.GetXMLName(), array))
    return info.GetComponentRange(0)


def gather(source, names):
    """Arrays of `source`'s image, whole, as [type, resource, slice] on the
    root (None elsewhere), and its field data."""
    grid = mt.gather_points(source, 0)
    if not root:
        return None, None
    fields = grid.GetFieldData()
    origin = fields.GetArray("TimeWindow").GetTuple2(0)[0]
    width = fields.GetArray("SliceWidth").GetValue(0)
    xyz = np.array([grid.GetPoint(i) for i in range(grid.GetNumberOfPoints())])
    index = (np.rint(xyz[:, 2]).astype(int), np.rint(xyz[:, 1]).astype(int),
             np.rint((xyz[:, 0] - origin) / width).astype(int))
    shape = tuple(int(i.max()) + 1 for i in index)
    arrays = {}
    for name in names:
        values = np.full(shape, np.nan)
        values[index] = vtk_to_numpy(grid.GetPointData().GetArray(name))
        mt.check(not np.isnan(values).any(), "the pieces do not cover the %s model" % (shape,))
        arrays[name] = values
    return arrays, fields


def paths(fields, rows):
    """The "/"-joined path below the root of the first `rows` nodes."""
    names, parents = fields.GetAbstractArray("NodeName"), fields.GetArray("NodeParent")
    out = []
    for r in range(rows):
        parts, node = [], r
        while parents.GetValue(node) >= 0:
            parts.insert(0, names.GetValue(node))
            node = int(parents.GetValue(node))
        out.append("/".join(parts))
    return out


control_ports, _ = run("control", *BASE)
perturbed_ports, truth = run("perturbed", *(BASE + PERTURBATION))
wider_ports, _ = run("wider", *(BASE[:4] + ["--ranks-per-node", 3] + BASE[6:]))
mt.check(truth["perturbation"] == "slow-node", "unexpected ground truth %r" % truth["perturbation"])
end = trace_end(control_ports)
control = model(control_ports, end)
perturbed = model(perturbed_ports, end)

# 1. The perturbation.
difference = ModelDifference(Input=OutputPort(control, 0), Other=OutputPort(perturbed, 0))
aggregation = SpatiotemporalAggregation(Input=difference, Parameter=0.3)
summary = DifferenceSummary(Input=OutputPort(aggregation, 0), Count=4)
summary.UpdatePipeline()
table = servermanager.Fetch(summary)
if root:
    sentence = table.GetFieldData().GetAbstractArray("Summary").GetValue(0)
    print(sentence)
    mt.check(table.GetNumberOfRows() == 4, "the summary keeps %d rows, Count is 4" % table.GetNumberOfRows())
    mt.check(mt.column(table, "Rank") == [1, 2, 3, 4], "ranks %r" % mt.column(table, "Rank"))
    means = mt.column(table, "MeanDifference")
    mt.check(means == sorted(means, reverse=True) and means[0] > 0, "MeanDifference not descending: %r" % means)
    ranks = {"MPI Rank %d" % r for r in truth["affected"]["ranks"]}
    top = set(mt.column(table, "Resources")[0].split(";"))
    mt.check(top == ranks, "the top part covers %s, the ground truth's ranks are %s" % (sorted(top), sorted(ranks)))
    width = (end - 0.0) / SLICES
    begin, finish = truth["window"]["begin_seconds"], truth["window"]["end_seconds"]
    start, stop = mt.column(table, "Start")[0], mt.column(table, "End")[0]
    mt.check(abs(start - begin) <= width and abs(stop - finish) <= width,
             "the top part spans [%g, %g] s, the perturbation [%g, %g] s (slice %g s)"
             % (start, stop, begin, finish, width))
    mt.check(mt.column(table, "ModeName")[0] in truth["affected"]["regions"] + ["MPI_Waitall"],
             "the top part differs most in %s" % mt.column(table, "ModeName")[0])
    mt.check(truth["target"]["name"] in sentence and "%.3g s" % start in sentence,
             "the summary does not name %s and its window: %s" % (truth["target"]["name"], sentence))
    # The difference is the two models' difference: A and B are the inputs.
low, high = value_range(difference, "Value")
mt.check(low == 0.0 and high > 0.0, "Value of the perturbed difference in [%g, %g]" % (low, high))
arrays, fields = gather(difference, ("Value", "Difference", "A", "B"))
inputs = [gather(source, ("Value",))[0] for source in (control, perturbed)]
if root:
    mt.check(np.array_equal(arrays["Difference"], arrays["A"] - arrays["B"]) and
             np.array_equal(arrays["Value"], np.abs(arrays["Difference"])),
             "Difference is not A - B, or Value not |A - B|")
    a, b = inputs[0]["Value"], inputs[1]["Value"]
    mt.check(a.shape == b.shape == arrays["A"].shape and np.array_equal(arrays["A"], a) and
             np.array_equal(arrays["B"], b), "A and B are not the two models (same grid, same types)")

# The parts' signed means: A - B of each type over the part's resources
# and slices (brute force over the gathered difference), and the overview
# coloured by them: blue where A had more of the mode type, red where B had,
# grey where both had in places, named by the runs.
parts = servermanager.Fetch(aggregation, idx=0)
if root:
    signed, mean = parts.GetColumnByName("SignedMean"), parts.GetColumnByName("Mean")
    mt.check(signed is not None and signed.GetNumberOfComponents() == arrays["A"].shape[0],
             "the difference's partition has no SignedMean per type")
    for i in range(parts.GetNumberOfRows()):
        leaves = slice(int(mt.column(parts, "FirstLeaf")[i]), int(mt.column(parts, "LastLeaf")[i]) + 1)
        slices = slice(int(mt.column(parts, "FirstSlice")[i]), int(mt.column(parts, "LastSlice")[i]) + 1)
        expected = arrays["Difference"][:, leaves, slices].mean(axis=(1, 2))
        got = np.array(signed.GetTuple(i))
        mt.check(np.allclose(got, expected, rtol=1e-9, atol=1e-15),
                 "part %d: SignedMean %r, the mean of A - B over its cells %r" % (i, got, expected))
        mt.check(np.all(np.abs(got) <= np.array(mean.GetTuple(i)) * (1 + 1e-12) + 1e-15),
                 "part %d: |SignedMean| above Mean (|A - B|)" % i)
named = ModelDifference(Input=OutputPort(control, 0), Other=OutputPort(perturbed, 0),
                        RunNames=["control", "slow"])
named_overview = SpatiotemporalOverviewLayout(
    Input=OutputPort(SpatiotemporalAggregation(Input=named, Parameter=0.3), 0))
named_overview.UpdatePipeline()
marks = servermanager.Fetch(named_overview, idx=0)
legend = servermanager.Fetch(named_overview, idx=4)
labels = servermanager.Fetch(named_overview, idx=3)
if root:
    cells = marks.GetCellData()
    colors, nets, values = cells.GetArray("Color"), cells.GetArray("SignedValue"), cells.GetArray("Value")
    mt.check(nets is not None, "the difference's overview has no SignedValue per mark")
    seen = set()
    largest = max(abs(nets.GetValue(i)) for i in range(marks.GetNumberOfCells()))
    for i in range(marks.GetNumberOfCells()):
        r, g, b = colors.GetTuple(i)[:3]
        net, value = nets.GetValue(i), values.GetValue(i)
        kind = ("equal" if value == 0 else "mixed" if abs(net) < 0.5 * value
                else "A" if net > 0 else "B")
        seen.add(kind)
        # A tiny difference is near-white: its hue shows from 5 % of the scale.
        clear = abs(net) >= 0.05 * largest
        ok = {"equal": (r, g, b) == (247, 247, 247), "mixed": (r, g, b) == (150, 150, 150),
              "A": b > r if clear else b >= r, "B": r > b if clear else r >= b}[kind]
        mt.check(ok, "mark %d (A - B %g of |A - B| %g: %s) drawn in %r" % (i, net, value, kind, (r, g, b)))
    mt.check({"A", "B"} <= seen, "the slow node's run should be more somewhere and less elsewhere: %r" % seen)
    names = [legend.GetFieldData().GetAbstractArray("LegendName").GetValue(k)
             for k in range(legend.GetFieldData().GetAbstractArray("LegendName").GetNumberOfValues())]
    mt.check(names[0].startswith("control more by ") and names[4].startswith("slow more by ")
             and names[2] == "equal", "the legend does not name the runs: %r" % names)
    texts = [labels.GetPointData().GetAbstractArray("Label").GetValue(k)
             for k in range(labels.GetNumberOfPoints())]
    mt.check(any(text.startswith("control \u2212 slow, p = 0.3") for text in texts),
             "no title naming the runs among %r" % texts[:5])
named_overview.SignedDifference = 0
named_overview.UpdatePipeline()
legend = servermanager.Fetch(named_overview, idx=4)
if root:
    plain = legend.GetFieldData().GetAbstractArray("LegendName")
    mt.check(plain.GetNumberOfValues() > 0 and all(
        "more by" not in plain.GetValue(k) for k in range(plain.GetNumberOfValues())),
        "SignedDifference off still draws the signed legend")

# The consumers of a model take the difference unchanged: every
# aggregation, and the layouts the overview representations draw.
capture = mt.ErrorCapture()
temporal = TemporalAggregation(Input=difference, Parameter=0.3)
spatial = SpatialAggregation(Input=difference, Parameter=0.3)
hierarchical = HierarchicalAggregation(Input=difference, Function="Sum")
layouts = [TemporalOverviewLayout(Input=OutputPort(temporal, 0)),
           SpatiotemporalOverviewLayout(Input=OutputPort(aggregation, 0))]
for source in [temporal, spatial, hierarchical] + layouts:
    source.UpdatePipeline()
errors = capture.text()
capture.close()
mt.check(not errors, "the consumers of a model refuse the difference:\n" + errors)
for source in (temporal, spatial):
    mt.check(not root or source.GetDataInformation(0).GetNumberOfRows() >= 1,
             "%s gives no part" % source.GetXMLName())
nodes = fields.GetArray("NodeParent").GetNumberOfTuples() if root else 0
tree = servermanager.Fetch(hierarchical)
mt.check(not root or tree.GetNumberOfVertices() == nodes,
         "Hierarchical Aggregation gives %d vertices for %d nodes" % (tree.GetNumberOfVertices(), nodes))
for layout in layouts:
    mt.check(not root or layout.GetDataInformation().GetNumberOfCells() > 0,
             "%s draws nothing" % layout.GetXMLName())

# 2. Identity.
itself = ModelDifference(Input=OutputPort(control, 0), Other=OutputPort(control, 0))
mt.check(value_range(itself, "Value") == (0.0, 0.0), "a model minus itself: Value in %r"
         % (value_range(itself, "Value"),))
mt.check(value_range(itself, "A") == value_range(control, "Value"), "A of the identity is not the model")
flat = SpatiotemporalAggregation(Input=itself)
for p in (0.0, 0.3, 1.0):
    flat.Parameter = p
    flat.UpdatePipeline()
    parts = servermanager.Fetch(flat)
    mt.check(not root or parts.GetNumberOfRows() == 1,
             "the aggregation of a zero difference has %d parts at p = %g" % (parts.GetNumberOfRows(), p))

# 3. By name, 8 processes against 12.
wider = model(wider_ports, end)
by_name = ModelDifference(Input=OutputPort(control, 0), Other=OutputPort(wider, 0),
                          ResourceMatching="By Name")
arrays, fields = gather(by_name, ("A", "B"))
models = [gather(source, ("Value",)) for source in (control, wider)]
if root:
    unmatched = fields.GetArray("UnmatchedResources").GetTuple2(0)
    mt.check(unmatched == (5.0, 9.0), "UnmatchedResources %r, expected (5, 9)" % (unmatched,))
    rows = arrays["A"].shape[1]
    mt.check(rows == 17, "the union has %d processes, expected 3 shared + 5 + 9 = 17" % rows)
    union = paths(fields, rows)
    mt.check(len(set(union)) == rows, "duplicate paths in the union")
    for run_index, name in ((0, "A"), (1, "B")):
        values, own_fields = models[run_index]
        values = values["Value"]
        own = paths(own_fields, values.shape[1])
        for r, path in enumerate(union):
            expected = values[:, own.index(path), :] if path in own else 0.0
            mt.check(np.array_equal(arrays[name][:, r, :], np.broadcast_to(expected, arrays[name][:, r, :].shape)),
                     "row %s of %s is not that run's row" % (path, name))
    mt.check(fields.GetAbstractArray("ResourceMatching").GetValue(0) == "by name",
             "ResourceMatching field %r" % fields.GetAbstractArray("ResourceMatching").GetValue(0))

# 4. Errors, not crashes: another metric, not a model (Time Slicing's Mode
# image), bad Slices, no Other.
events = TimeSlicing(Input=control_ports, Slices=SLICES, Metric="Event count", ResourceLevel=3)
for other, settings, expected in ((OutputPort(events, 0), {}, "different metrics"),
                                  (OutputPort(perturbed, 1), {}, "Other (run B) is not a microscopic model"),
                                  (OutputPort(perturbed, 0), {"Slices": -3}, "Slices must be"),
                                  (OutputPort(perturbed, 0), {"ResourceMatching": 2}, "ResourceMatching must be"),
                                  (None, {}, "Other (run B) is missing")):
    capture = mt.ErrorCapture()
    if other is not None:
        settings["Other"] = other
    bad = ModelDifference(Input=OutputPort(control, 0), **settings)
    bad.UpdatePipeline()
    text = capture.text()
    capture.close()
    mt.check(expected in text, "expected an error with %r, got %r" % (expected, text))
    Delete(bad)
print("model difference: perturbation, identity, by-name and errors checked")

# The helpers of the embedded package give the same summary.
import macroscope
_, _, helped = macroscope.compare_models(OutputPort(control, 0), OutputPort(perturbed, 0))
sentence = macroscope.summary_sentence(helped)
mt.check(not root or sentence == table.GetFieldData().GetAbstractArray("Summary").GetValue(0),
         "macroscope.compare_models gives %r" % sentence)
