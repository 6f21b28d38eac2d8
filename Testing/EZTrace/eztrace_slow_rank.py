"""Ground truth on a real trace: the program slows one known rank (a busy
loop `factor` times longer than the others'), and Macroscope's analyses of
the EZTrace archive must single that rank out (docs/eztrace.md).

    pvbatch eztrace_slow_rank.py ARCHIVE --plugin Macroscope.so --output DIR
            --slowed RANK --compute REGION [--margin M]

EZTrace's clocks are per process (each starts at 0 when its process starts,
docs/eztrace.md): times on different ranks are offset by up to tens of
milliseconds, so only the measures that compare a rank with itself, or that
difference exits of consecutive events, are ground truth here:

* Time Slicing (per process, exclusive state durations): the slowed rank
  has the most time in REGION, at least M times the next rank's, and the
  least time in MPI calls (the others wait for it);
* Spatial Aggregation of that model, at its finest partition (one part per
  process): the part with the highest mean of REGION is the slowed rank's;
* Logical Time: the slowed rank has the most time in the aggregated
  computation between communication events, the largest total differential
  lateness over those aggregates (where delays start, Ravel's measure: the
  lateness an event adds to its predecessors'), and the least time in its
  communication events;
* the Timeline, the Logical Timeline and the spatiotemporal overview are
  rendered to OUTPUT/*.png, and must not be blank.
"""
import argparse
import collections
import os
import re
import sys

parser = argparse.ArgumentParser()
parser.add_argument("archive")
parser.add_argument("--plugin", required=True)
parser.add_argument("--output", required=True)
parser.add_argument("--slowed", type=int, required=True)
parser.add_argument("--compute", required=True, help="the region the busy loop runs in")
parser.add_argument("--margin", type=float, default=1.25)
parser.add_argument("--slices", type=int, default=50)
args = parser.parse_args()
os.makedirs(args.output, exist_ok=True)

failures = []


def fail_now(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    print(("ok: " if condition else "MISMATCH: ") + message)
    if not condition:
        failures.append(message)


for path in (args.archive, args.plugin):
    if not os.path.isfile(path):
        fail_now("not found: " + path)

from paraview.simple import *  # noqa: E402,F403
from paraview import servermanager  # noqa: E402
from vtkmodules.util.numpy_support import vtk_to_numpy  # noqa: E402
import numpy as np  # noqa: E402

LoadPlugin(os.path.abspath(args.plugin), remote=False, ns=globals())
import macroscope  # noqa: E402  (embedded in the plugin)
reader = OTF2TraceReader(FileName=os.path.abspath(args.archive))  # noqa: F405
reader.UpdatePipeline()
ports = [OutputPort(reader, i) for i in range(6)]  # noqa: F405
states = servermanager.Fetch(reader, idx=0)
if states.GetNumberOfRows() == 0:
    fail_now("Macroscope read no state from " + args.archive)
hierarchy = servermanager.Fetch(reader, idx=4)

# Leaves "P#<rank>T#<thread>" -> rank.
names = hierarchy.GetVertexData().GetAbstractArray("Name")
leaf_index = hierarchy.GetVertexData().GetArray("LeafIndex")
rank_of_leaf = {}
for vertex in range(hierarchy.GetNumberOfVertices()):
    leaf = int(leaf_index.GetValue(vertex))
    if leaf >= 0:
        match = re.match(r"P#(\d+)T#(\d+)$", names.GetValue(vertex))
        if not match:
            fail_now("location %r is not named P#<rank>T#<thread> as EZTrace names them"
                     % names.GetValue(vertex))
        rank_of_leaf[leaf] = int(match.group(1))
ranks = sorted(set(rank_of_leaf.values()))
if args.slowed not in ranks:
    fail_now("rank %d is not in the trace (ranks %s)" % (args.slowed, ranks))


def ranking(values, what, largest=True):
    """Checks that the slowed rank is the extreme of `values` {rank: v}."""
    order = sorted(values, key=lambda r: values[r], reverse=largest)
    print("%s per rank: %s" % (what, ", ".join("%d: %.6g" % (r, values[r]) for r in ranks)))
    check(order[0] == args.slowed, "%s: the %s is rank %d, the slowed rank is %d" % (
        what, "largest" if largest else "smallest", order[0], args.slowed))
    return order


# 1. Time Slicing, one row per process (depth 1 of the hierarchy).
slicing = TimeSlicing(Input=ports, Slices=args.slices, ResourceLevel=1)  # noqa: F405
model = servermanager.Fetch(slicing, idx=0)
dims = model.GetDimensions()
values = vtk_to_numpy(model.GetPointData().GetArray(0)).reshape(dims[::-1])
fields = model.GetFieldData()
type_names = [fields.GetAbstractArray("TypeName").GetValue(u) for u in range(dims[2])]
row_names = [fields.GetAbstractArray("NodeName").GetValue(s) for s in range(dims[1])]
rank_of_row = {}
for row, name in enumerate(row_names):
    match = re.match(r"P#(\d+)$", name)
    if not match:
        fail_now("model row %d is %r, not a process P#<rank>" % (row, name))
    rank_of_row[row] = int(match.group(1))
if args.compute not in type_names:
    fail_now("no state type %r in the model (types %s)" % (args.compute, type_names))
compute_plane = values[type_names.index(args.compute)]
mpi_planes = [u for u, name in enumerate(type_names) if name.startswith("MPI_")]
if not mpi_planes:
    fail_now("no MPI state type in the model (types %s)" % type_names)
compute = {rank_of_row[row]: float(compute_plane[row].sum()) for row in rank_of_row}
mpi = {rank_of_row[row]: float(values[mpi_planes, row].sum()) for row in rank_of_row}
order = ranking(compute, "Time Slicing: seconds in %s" % args.compute)
check(compute[order[0]] >= args.margin * compute[order[1]],
      "Time Slicing: rank %d computes %.4f s, %.2f times the next rank's %.4f s (margin %.2f)"
      % (order[0], compute[order[0]], compute[order[0]] / max(compute[order[1]], 1e-12),
         compute[order[1]], args.margin))
ranking(mpi, "Time Slicing: seconds in MPI calls", largest=False)

# 2. Spatial Aggregation (Viva) of that model, at its finest partition.
spatial = SpatialAggregation(Input=OutputPort(slicing, 0))  # noqa: F405
spatial.UpdatePipeline()
curves = servermanager.Fetch(spatial, idx=1)
parts = vtk_to_numpy(curves.GetColumnByName("Parts"))
finest = int(np.argmax(parts))
spatial.Parameter = 0.5 * (curves.GetColumnByName("PStart").GetValue(finest) +
                           curves.GetColumnByName("PEnd").GetValue(finest))
partition = servermanager.Fetch(spatial, idx=0)
check(partition.GetNumberOfRows() == len(ranks),
      "Spatial Aggregation: the finest partition has %d parts for %d processes"
      % (partition.GetNumberOfRows(), len(ranks)))
means = partition.GetColumnByName("Mean")
part_names = partition.GetColumnByName("NodeName")
compute_mean = {}
for i in range(partition.GetNumberOfRows()):
    match = re.match(r"P#(\d+)$", part_names.GetValue(i))
    if match:
        compute_mean[int(match.group(1))] = means.GetComponent(i, type_names.index(args.compute))
if len(compute_mean) == len(ranks):
    ranking(compute_mean, "Spatial Aggregation: mean of %s per cell" % args.compute)
else:
    check(False, "Spatial Aggregation: parts %s are not the processes"
          % [part_names.GetValue(i) for i in range(partition.GetNumberOfRows())])

# 3. Logical Time.
logical = LogicalTime(Input=ports)  # noqa: F405
logical.UpdatePipeline()
events = servermanager.Fetch(logical, idx=0)
messages = servermanager.Fetch(reader, idx=1).GetNumberOfRows()
check(events.GetNumberOfRows() > 0, "Logical Time: %d logical events (the trace has %d messages)"
      % (events.GetNumberOfRows(), messages))


def logical_time_checks():
    col = lambda name: vtk_to_numpy(events.GetColumnByName(name))  # noqa: E731
    location, kind, duration = col("Location"), col("Kind"), col("Duration")
    lateness, differential = col("Lateness"), col("DifferentialLateness")
    aggregate_time, communication_time, started = (collections.defaultdict(float)
                                                   for _ in range(3))
    late = collections.defaultdict(float)
    for i in range(events.GetNumberOfRows()):
        rank = rank_of_leaf[int(location[i])]
        if kind[i] == 0:
            aggregate_time[rank] += duration[i]
            started[rank] += differential[i]
            late[rank] = max(late[rank], lateness[i])
        else:
            communication_time[rank] += duration[i]
    kinds = collections.Counter(int(k) for k in kind)
    print("Logical Time: %d events (%s), %d steps" % (
        events.GetNumberOfRows(), ", ".join("kind %d: %d" % kv for kv in sorted(kinds.items())),
        int(col("GlobalStep").max()) + 1))
    check(kinds[0] > 0 and sum(kinds.values()) > kinds[0],
          "Logical Time: aggregates and communication events (MPI calls recognised)")
    ranking(aggregate_time, "Logical Time: seconds in computation aggregates")
    ranking(started, "Logical Time: differential lateness summed over aggregates")
    ranking(communication_time, "Logical Time: seconds in communication events", largest=False)
    print("Logical Time: largest lateness of an aggregate per rank (clock offsets included): %s"
          % ", ".join("%d: %.6f" % (r, late[r]) for r in ranks))


if events.GetNumberOfRows():
    logical_time_checks()


# 4. Pictures: the Timeline, the Logical Timeline, the spatiotemporal overview.
def picture(source, port, kind, name, size=(1200, 700)):
    view = macroscope.chart_view(size)
    display = Show(OutputPort(source, port), view, "MacroscopeTraceRepresentation")  # noqa: F405
    display.SetRepresentationType(kind)
    display.ViewSize = [size[0] - 150, size[1] - 80]
    display.LabelColor = [0.1, 0.1, 0.1]
    display.LabelFontSize = 11
    Render(view)  # noqa: F405
    view.ResetCamera(True)
    Render(view)  # noqa: F405
    path = os.path.join(args.output, name)
    SaveScreenshot(path, view, ImageResolution=list(size))  # noqa: F405
    from vtkmodules.vtkIOImage import vtkPNGReader
    png = vtkPNGReader()
    png.SetFileName(path)
    png.Update()
    image = png.GetOutput()
    pixels = vtk_to_numpy(image.GetPointData().GetScalars())[:, :3]
    coloured = int(np.count_nonzero(pixels.max(axis=1) - pixels.min(axis=1) > 40))
    check(coloured > 0.02 * len(pixels), "%s: %d coloured pixels of %d" % (
        name, coloured, len(pixels)))
    Delete(display)  # noqa: F405
    return path


spatiotemporal = SpatiotemporalAggregation(Input=OutputPort(slicing, 0), Parameter=0.7)  # noqa: F405
picture(reader, 0, "Timeline", "timeline.png")
if events.GetNumberOfRows():
    picture(logical, 0, "Logical Timeline", "logical-timeline.png")
picture(spatiotemporal, 0, "Spatiotemporal Overview", "spatiotemporal-overview.png")

if failures:
    fail_now("%d check(s) do not single out rank %d:\n  %s"
             % (len(failures), args.slowed, "\n  ".join(failures)))
print("ok: rank %d, the slowed one, is singled out" % args.slowed)
