"""A real MPI program traced by EZTrace, opened in Macroscope next to the
synthetic sample of demo.py (docs/eztrace.md).

    pvbatch examples/eztrace_demo.py --plugin Macroscope.so --output OUT
            --archive OUT/eztrace/ring_trace/eztrace_log.otf2 --slowed 2

Writes OUT/eztrace.png (the Timeline of the archive above Ocelotl's
spatiotemporal overview of it) and OUT/eztrace-summary.txt: the records
otf2-print lists and the rows Macroscope reads, and which rank Time Slicing
and Logical Time single out, next to the rank the program slows.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess

parser = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--plugin", required=True)
parser.add_argument("--output", required=True)
parser.add_argument("--archive", required=True)
parser.add_argument("--slowed", type=int, required=True, help="the rank the program slows")
parser.add_argument("--compute", default="Working", help="the region its compute runs in")
args = parser.parse_args()
os.makedirs(args.output, exist_ok=True)

from paraview.simple import *  # noqa: E402,F403
from paraview import servermanager  # noqa: E402
from vtkmodules.util.numpy_support import vtk_to_numpy  # noqa: E402

LoadPlugin(os.path.abspath(args.plugin), remote=False, ns=globals())
import macroscope  # noqa: E402  (embedded in the plugin)

# The reference: otf2-print's records per kind.
otf2_print = shutil.which("otf2-print")
if otf2_print is None:
    raise SystemExit("otf2-print not found (Debian package otf2-tools, see scripts/deps.sh)")
listing = subprocess.run([otf2_print, args.archive], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, universal_newlines=True, check=True)
record_counts = collections.Counter(
    match.group(1) for match in (re.match(r"^([A-Z][A-Z_]+)\s+\d+\s+\d+", line)
                                 for line in listing.stdout.splitlines()) if match)

reader = OTF2TraceReader(registrationName="eztrace", FileName=os.path.abspath(args.archive))  # noqa: F405
reader.UpdatePipeline()
trace_port = OutputPort(reader, 0)  # noqa: F405  (filters find the other outputs beside it)
states = servermanager.Fetch(reader, idx=0)
messages = servermanager.Fetch(reader, idx=1)
events = servermanager.Fetch(reader, idx=2)
types = servermanager.Fetch(reader, idx=5)
type_names = [types.GetColumnByName("Name").GetValue(i) for i in range(types.GetNumberOfRows())]
collectives = sum(1 for t in vtk_to_numpy(events.GetColumnByName("Type"))
                  if type_names[int(t)] == "MpiCollectiveEnd")

# Time Slicing, one row per process: compute and MPI time per rank.
slicing = TimeSlicing(Input=trace_port, Slices=60, ResourceLevel=1)  # noqa: F405
model = servermanager.Fetch(slicing, idx=0)
dims = model.GetDimensions()
values = vtk_to_numpy(model.GetPointData().GetArray(0)).reshape(dims[::-1])
fields = model.GetFieldData()
planes = [fields.GetAbstractArray("TypeName").GetValue(u) for u in range(dims[2])]
rows = [int(fields.GetAbstractArray("NodeName").GetValue(s).lstrip("P#")) for s in range(dims[1])]
compute = {rank: float(values[planes.index(args.compute), row].sum())
           for row, rank in enumerate(rows)}
mpi_planes = [u for u, name in enumerate(planes) if name.startswith("MPI_")]
mpi = {rank: float(values[mpi_planes, row].sum()) for row, rank in enumerate(rows)}

# Logical Time: where delays start (differential lateness of the
# computation aggregates, summed per rank).
logical = LogicalTime(Input=trace_port)  # noqa: F405
logical.UpdatePipeline()
logical_events = servermanager.Fetch(logical, idx=0)
hierarchy = servermanager.Fetch(reader, idx=4)
names = hierarchy.GetVertexData().GetAbstractArray("Name")
leaves = hierarchy.GetVertexData().GetArray("LeafIndex")
rank_of_leaf = {int(leaves.GetValue(v)): int(re.match(r"P#(\d+)", names.GetValue(v)).group(1))
                for v in range(hierarchy.GetNumberOfVertices()) if leaves.GetValue(v) >= 0}
started = collections.defaultdict(float)
if logical_events.GetNumberOfRows():
    for location, kind, value in zip(*(vtk_to_numpy(logical_events.GetColumnByName(c)) for c in
                                       ("Location", "Kind", "DifferentialLateness"))):
        if kind == 0:
            started[rank_of_leaf[int(location)]] += value


# The picture: the Timeline above the spatiotemporal overview.
def render(source, kind, size, group_level=None):
    view = macroscope.chart_view(size)
    display = Show(OutputPort(source, 0), view, "MacroscopeTraceRepresentation")  # noqa: F405
    display.SetRepresentationType(kind)
    display.ViewSize = [size[0] - 380, size[1] - 80]
    display.LabelColor = [0.1, 0.1, 0.1]
    display.LabelFontSize = 11
    Render(view)  # noqa: F405
    view.ResetCamera(True)
    Render(view)  # noqa: F405
    path = os.path.join(args.output, "eztrace-%s.png" % kind.lower().replace(" ", "-"))
    SaveScreenshot(path, view, ImageResolution=size)  # noqa: F405
    if not os.path.isfile(path):
        raise SystemExit("no picture written: " + path)
    views.append(view)
    return path


views = []


overview = SpatiotemporalAggregation(Input=OutputPort(slicing, 0), Parameter=0.7)  # noqa: F405
pictures = [render(reader, "Timeline", [1400, 600]),
            render(overview, "Spatiotemporal Overview", [1400, 500])]
# The session as a user would find it: both views in one tab.
macroscope.layout_tab("EZTrace", views, vertical=True)
from vtkmodules.vtkIOImage import vtkPNGReader, vtkPNGWriter  # noqa: E402
from vtkmodules.vtkFiltersCore import vtkImageAppend  # noqa: E402
stack = vtkImageAppend()
stack.SetAppendAxis(1)
for path in reversed(pictures):  # image rows go up: the last one is on top
    png = vtkPNGReader()
    png.SetFileName(path)
    png.Update()
    stack.AddInputData(png.GetOutput())
stack.Update()
writer = vtkPNGWriter()
writer.SetFileName(os.path.join(args.output, "eztrace.png"))
writer.SetInputData(stack.GetOutput())
writer.Write()
if not os.path.isfile(os.path.join(args.output, "eztrace.png")):
    raise SystemExit("no picture written: " + os.path.join(args.output, "eztrace.png"))
for path in pictures:
    os.remove(path)

report = states.GetFieldData()
ranks = sorted(compute)
most_compute = max(ranks, key=lambda r: compute[r])
least_mpi = min(ranks, key=lambda r: mpi[r])
lines = ["", "A real MPI program traced by EZTrace (eztrace.png)", "-" * 50,
         "Archive: %s" % args.archive,
         "otf2-print: %d records (%s)" % (sum(record_counts.values()), ", ".join(
             "%s %d" % kv for kv in sorted(record_counts.items()))),
         "Macroscope: %d states, %d messages, %d collectives, %d events; %d unmatched sends, "
         "%d unmatched receives" % (states.GetNumberOfRows(), messages.GetNumberOfRows(),
                                    collectives, events.GetNumberOfRows(),
                                    report.GetArray("UnmatchedSends").GetValue(0),
                                    report.GetArray("UnmatchedReceives").GetValue(0)),
         "Ground truth: the program slows rank %d" % args.slowed,
         "Time Slicing: rank %d computes most (%s: %s)" % (
             most_compute, args.compute, ", ".join("%d: %.3f s" % (r, compute[r]) for r in ranks)),
         "              rank %d waits least in MPI calls (%s)" % (
             least_mpi, ", ".join("%d: %.3f s" % (r, mpi[r]) for r in ranks))]
if started:
    first = max(started, key=lambda r: started[r])
    lines.append("Logical Time: delays start on rank %d (differential lateness of the computations "
                 "summed: %s)" % (first, ", ".join("%d: %.3f s" % (r, started[r]) for r in ranks)))
else:
    lines.append("Logical Time: no logical event")
lines.append("(EZTrace's clocks start at 0 in each process: messages may look received "
             "before they were sent; see docs/eztrace.md)")
with open(os.path.join(args.output, "eztrace-summary.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
print("\n".join(lines))
