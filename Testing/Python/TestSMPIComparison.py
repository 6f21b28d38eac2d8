"""Run comparison on SimGrid SMPI traces (its validation): the same MPI
program (examples/smpi/pairs.c) on the normal two-cluster platform and on a
perturbed one where one host computes slower during a window. The difference
model of the two runs (Time Slicing of each, Model Difference), aggregated in
space and time, must isolate that host's ranks and that window: the top part
of the Difference Summary names exactly them.

The ground truth (host, window, slowdown) is read from the perturbed platform
file, the ranks of the host from the host file; a brute-force model of each
run built from pajeng's pj_dump (independent of our reader) demonstrates the
premise (only the slowed ranks differ, and mostly during the window) and is
checked against Time Slicing and the filter's Difference array.
docs/smpi-traces.md, "Comparing a normal and a perturbed run"."""
import collections
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET

import numpy as np

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

DURATION = 1.0   # simulated seconds of each run (compare.sh's argument)
SLICES = 50      # 20 ms slices; an iteration lasts 2.6 ms (cl0) to 5.6 ms (slowed)
example = os.path.join(args.source, "examples", "smpi")
normal_platform = os.path.join(example, "platform.xml")
perturbed_platform = os.path.join(example, "platform-perturbed.xml")


def perturbation(platform):
    """(host, begin, end, scale) of the one SPEED profile of `platform`: the
    host it is connected to, and the interval where its scale is below 1."""
    root = ET.parse(platform).getroot()
    connects = [c for c in root.iter("trace_connect") if c.get("kind") == "SPEED"]
    mt.check(len(connects) == 1, "%s: one SPEED trace_connect expected, %d found"
             % (platform, len(connects)))
    traces = {t.get("id"): t for t in root.iter("trace")}
    trace = traces.get(connects[0].get("trace"))
    mt.check(trace is not None and trace.get("periodicity") == "-1",
             "%s: the profile must exist and be played once (periodicity -1)" % platform)
    points = [tuple(float(x) for x in line.split()) for line in trace.text.splitlines()
              if line.strip()]
    slow = [i for i, (_, scale) in enumerate(points) if scale < 1]
    mt.check(len(slow) == 1 and slow[0] + 1 < len(points) and points[slow[0] + 1][1] == 1,
             "%s: the profile must slow down once and come back to 1: %s" % (platform, points))
    return (connects[0].get("element"), points[slow[0]][0], points[slow[0] + 1][0],
            points[slow[0]][1])


def same_platform_without_profiles(normal, perturbed):
    """The perturbed platform is the normal one plus its speed profile."""
    def canonical(path, drop):
        root = ET.parse(path).getroot()
        for parent in root.iter():
            for child in [c for c in parent if c.tag in drop]:
                parent.remove(child)
        return ET.canonicalize(ET.tostring(root), strip_text=True)
    mt.check(canonical(normal, ()) == canonical(perturbed, ("trace", "trace_connect")),
             "%s is not %s plus a speed profile" % (perturbed, normal))


def ranks_of(host, hostfile, ranks):
    """smpirun's placement: the host file's lines "host:count" in order, the
    ranks given out in blocks of count, cyclically."""
    slots = []
    with open(hostfile) as f:
        for line in f:
            if line.strip():
                name, _, count = line.strip().partition(":")
                slots += [name] * int(count or 1)
    return sorted("rank-%d" % r for r in range(ranks) if slots[r % len(slots)] == host)


def brute_force_model(trace, slices, t0, t1):
    """{(rank, state): seconds per slice} from pj_dump's states, each clipped
    to the slices it overlaps."""
    pj_dump = shutil.which("pj_dump")
    mt.check(pj_dump is not None, "pj_dump not found: install pajeng (scripts/deps.sh)")
    dump = subprocess.run([pj_dump, "-l", "9", trace], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    mt.check(dump.returncode == 0, "pj_dump %s failed: %s" % (trace, dump.stderr))
    width = (t1 - t0) / slices
    model = collections.defaultdict(lambda: np.zeros(slices))
    states = 0
    for line in dump.stdout.splitlines():
        fields = [f.strip() for f in line.split(",")]
        if fields[0] != "State":
            continue
        states += 1
        container, start, end, value = fields[1], float(fields[3]), float(fields[4]), fields[7]
        first = max(0, int((start - t0) / width))
        for k in range(first, min(slices, int((end - t0) / width) + 1)):
            overlap = min(t0 + (k + 1) * width, end) - max(t0 + k * width, start)
            if overlap > 0:
                model[(container, value)][k] += overlap
    mt.check(states > 10000, "%s: only %d states" % (trace, states))
    return model


def model_of(proxy):
    """The model of a Time Slicing (or Model Difference) output as
    {array: {(resource, type): per-slice array}} for the arrays it has, with
    its slice width and slice count."""
    grid = servermanager.Fetch(proxy)
    fields = grid.GetFieldData()
    names = fields.GetAbstractArray("NodeName")
    types = fields.GetAbstractArray("TypeName")
    nx, ny, nz = grid.GetDimensions()
    arrays = {}
    for name in ("Value", "Difference", "A", "B"):
        array = grid.GetPointData().GetArray(name)
        if array is None:
            continue
        values = np.array([array.GetValue(i) for i in range(array.GetNumberOfTuples())])
        values = values.reshape(nz, ny, nx)
        arrays[name] = {(names.GetValue(s), types.GetValue(u)): values[u, s]
                        for s in range(ny) for u in range(nz)}
    return arrays, fields.GetArray("SliceWidth").GetValue(0), nx


def check_close(label, ours, reference, resources, tolerance):
    """Every (resource, type) of `reference` on `resources` equals ours; types
    absent from one side are zero on the other."""
    keys = {k for k in set(ours) | set(reference) if k[0] in resources}
    worst = 0.0
    for key in keys:
        a = ours.get(key)
        b = reference.get(key)
        a = np.zeros(SLICES) if a is None else a
        b = np.zeros(SLICES) if b is None else b
        worst = max(worst, float(np.abs(a - b).max()))
    mt.check(worst <= tolerance, "%s differs from the brute force by %g s (> %g)"
             % (label, worst, tolerance))
    print("%s equals the brute force within %.2g s (%d series)" % (label, worst, len(keys)))


# --- Ground truth, from the files the runs are made of -----------------------
same_platform_without_profiles(normal_platform, perturbed_platform)
host, begin, end, scale = perturbation(perturbed_platform)
mt.check(0 < begin < end < DURATION and scale < 1,
         "the perturbation [%g, %g] x %g must lie inside the run" % (begin, end, scale))
all_ranks = ["rank-%d" % r for r in range(16)]
slowed = ranks_of(host, os.path.join(example, "hosts.txt"), 16)
mt.check(len(slowed) == 2, "host %s should hold 2 ranks, holds %s" % (host, slowed))
print("perturbation: host %s (%s) at %g of its speed in [%g, %g] s"
      % (host, ", ".join(slowed), scale, begin, end))

# --- The two runs (the example script, so that it stays runnable) -----------
runs = os.path.join(args.output, "runs")
script = os.path.join(example, "compare.sh")
result = subprocess.run([script, runs, str(DURATION)], stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT, universal_newlines=True)
mt.check(result.returncode == 0, "%s failed:\n%s" % (script, result.stdout))
traces = {run: os.path.join(runs, run + ".paje") for run in ("normal", "perturbed")}
# The program reports where each rank ran: it must be where the host file says.
with open(os.path.join(runs, "perturbed.log")) as f:
    placed = sorted("rank-" + line.split()[2] for line in f
                    if line.startswith("pairs: rank") and (" on %s:" % host) in line)
mt.check(placed == slowed,
         "the program ran %s on %s, the host file says %s" % (placed, host, slowed))

# --- The premise, by brute force on pj_dump's states -------------------------
width = DURATION / SLICES
reference = {run: brute_force_model(trace, SLICES, 0.0, DURATION) for run, trace in traces.items()}
keys = set(reference["normal"]) | set(reference["perturbed"])
zero = np.zeros(SLICES)
brute_difference = {k: reference["normal"].get(k, zero) - reference["perturbed"].get(k, zero)
                    for k in keys}
# Ranks of other hosts never wait for the slowed ones: identical runs.
others = max(float(np.abs(d).max()) for (rank, _), d in brute_difference.items()
             if rank not in slowed)
mt.check(others <= 1e-9, "ranks off %s differ between the runs by %g s" % (host, others))
# The slowed ranks: each slice inside the window differs much more than any
# slice outside it (one slice of margin: iterations straddle its ends).
inside = [k for k in range(SLICES) if k * width >= begin - 1e-9 and (k + 1) * width <= end + 1e-9]
outside = [k for k in range(SLICES) if (k + 1) * width < begin - 1e-9 or k * width > end + 1e-9]
for rank in slowed:
    total = sum(np.abs(d) for (r, _), d in brute_difference.items() if r == rank)
    computing = brute_difference[(rank, "computing")]
    mt.check(all(computing[k] < 0 for k in inside),
             "%s: the slowed host should compute longer in every slice of the window" % rank)
    low_inside, high_outside = min(total[inside]), max(total[outside])
    mt.check(low_inside >= 3 * high_outside,
             "%s: |normal - perturbed| is %.4f s at least inside the window, up to %.4f s outside"
             % (rank, low_inside, high_outside))
    print("%s: |normal - perturbed| per %g s slice: >= %.4f s inside [%g, %g], <= %.4f s outside"
          % (rank, width, low_inside, begin, end, high_outside))

# --- The pipeline: read, slice, difference, aggregate, summarise -------------
hierarchy = os.path.join(example, "hierarchy.json")
models = {}
for run, trace in traces.items():
    reader = PajeTraceReader(registrationName=run, FileName=trace, HierarchyFile=hierarchy)
    models[run] = TimeSlicing(registrationName=run + " model",
                              Input=[OutputPort(reader, i) for i in range(6)],
                              Slices=SLICES, TimeWindow=[0.0, DURATION])
    models[run].UpdatePipeline()
    arrays, model_width, slices = model_of(models[run])
    mt.check(slices == SLICES and abs(model_width - width) < 1e-12,
             "%s: the model has %d slices of %g s" % (run, slices, model_width))
    check_close("Time Slicing of the %s run" % run, arrays["Value"], reference[run],
                all_ranks, 1e-7)

# --- The difference model against the brute force ----------------------------
def check_difference(matching):
    """Model Difference with Input = the normal run (A), Other = the perturbed
    run (B): its arrays against the brute force; returns the filter."""
    difference = ModelDifference(registrationName="difference " + matching,
                                 Input=OutputPort(models["normal"], 0),
                                 Other=OutputPort(models["perturbed"], 0),
                                 ResourceMatching=matching, Slices=0)
    difference.UpdatePipeline()
    arrays, model_width, slices = model_of(difference)
    mt.check(slices == SLICES and abs(model_width - width) < 1e-12,
             "%s: the difference model has %d slices of %g s, not %d of %g s"
             % (matching, slices, model_width, SLICES, width))
    expected = {"Difference": brute_difference,
                "Value": {k: np.abs(d) for k, d in brute_difference.items()},
                "A": reference["normal"], "B": reference["perturbed"]}
    for name, values in expected.items():
        mt.check(name in arrays, "%s: the difference model has no %s array" % (matching, name))
        check_close("%s: %s" % (matching, name), arrays[name], values, all_ranks, 1e-7)
    return difference


def check_summary(difference, matching):
    """The top part of the summary of the difference's spatiotemporal
    aggregation is the slowed host's ranks during the slowdown."""
    aggregation = SpatiotemporalAggregation(Input=difference)
    summary = DifferenceSummary(Input=OutputPort(aggregation, 0))
    # p across the range where the brute-force model's own aggregation keeps
    # the slowed host's window as one part (normalised p in [0.0019, 0.549)
    # with the macroscope-aggregate tool, docs/smpi-traces.md).
    for parameter in (0.01, 0.1, 0.3, 0.5):
        aggregation.Parameter = parameter
        summary.UpdatePipeline()
        table = servermanager.Fetch(summary)
        label = "%s, p = %g" % (matching, parameter)
        mt.check(table.GetNumberOfRows() > 1, "%s: the summary has %d rows"
                 % (label, table.GetNumberOfRows()))
        means = mt.column(table, "MeanDifference")
        mt.check(means == sorted(means, reverse=True),
                 "%s: the summary is not ranked by MeanDifference: %s" % (label, means))
        resources = sorted(mt.column(table, "Resources")[0].split(";"))
        start, stop = mt.column(table, "Start")[0], mt.column(table, "End")[0]
        sentence = table.GetFieldData().GetAbstractArray("Summary").GetValue(0)
        print("%s: top part %s (%s) x [%g, %g] s, mean difference %g, next %g; %r"
              % (label, mt.column(table, "NodeName")[0], ";".join(resources), start, stop,
                 means[0], means[1], sentence))
        mt.check(resources == slowed,
                 "%s: the top part's resources are %s, the platform slowed %s (%s)"
                 % (label, resources, slowed, host))
        mt.check(abs(start - begin) <= 2 * width and abs(stop - end) <= 2 * width,
                 "%s: the top part spans [%g, %g] s, the platform slowed %s in [%g, %g] s "
                 "(tolerance 2 slices = %g s)" % (label, start, stop, host, begin, end, 2 * width))


# By rank (row i with row i) and by name (hierarchy paths): the same runs,
# the same rows, hence the same answer.
for matching in ("By Rank", "By Name"):
    check_summary(check_difference(matching), matching)
print("ok")
