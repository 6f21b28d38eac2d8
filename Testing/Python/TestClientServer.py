"""Client/server: pvpython runs Macroscope's pipeline on a pvserver of 2 MPI
ranks (started by RunClientServer.py, which appends --port) and fetches the
results.

The pipeline: a synthesized OTF2 trace with a slow node (ground truth in
ground_truth.json) -> OTF2 Trace Reader -> Time Slicing -> Temporal and
Spatiotemporal Aggregation, the temporal Partition shown as a Temporal
Overview in a Render View. It runs first in the builtin session (serial),
then on the server, and the test asserts that:

(a) the model, both Partitions and Quality Curves fetched from the server
    equal the serial ones, and the server-rendered overview (saved on the
    client) matches the serial picture;
(b) an optimal temporal partition isolates the injected window (the
    criterion of TestAggregationGroundTruth.py), on the server as serially;
(c) the two server ranks read disjoint location sets whose union is every
    leaf of the hierarchy, each location's rows all on one rank and as many
    as serially: a ProgrammableFilter runs on every rank over the reader's
    outputs and reports the rank and the locations of its piece;
(d) the aggregations ran once: a ProgrammableFilter over their Partitions
    reports, per rank, the rows and whether the filter computed (its
    QualityComputations field): rank 0 holds every row, rank 1 none and
    computed nothing; the Temporal Overview Layout of the Partition has all
    its points on rank 0, as many as serially."""
import argparse
import builtins
import json
import os

import numpy as np

import macroscope_testing as mt

args = mt.parse_args()
port = argparse.ArgumentParser()
port.add_argument("--port", type=int, required=True)
port = port.parse_known_args()[0].port

from paraview.simple import *
from paraview import servermanager
from vtkmodules.util.numpy_support import vtk_to_numpy
# In the builtin session a ProgrammableFilter runs its script in the
# client's __main__ after importing numpy's and VTK's any, all, abs, max,
# min, sum there (np.any of a generator is always true): the builtins are
# named explicitly below, and the scripts keep their names in a function.

RANKS = 2
SLICES = 100
WINDOW = (0.1, 0.2)

# Each rank's piece of the trace: one row per (rank, location) with the
# rows of each output that belong to the location (a message to its
# receiver), and the piece the pipeline asked the rank for.
PIECES_SCRIPT = """
def _report_pieces(self):
    import collections
    from vtkmodules.vtkCommonCore import vtkIntArray
    from vtkmodules.vtkCommonExecutionModel import vtkStreamingDemandDrivenPipeline as SDDP
    from vtkmodules.vtkParallelCore import vtkMultiProcessController
    from vtkmodules.util.numpy_support import vtk_to_numpy
    controller = vtkMultiProcessController.GetGlobalController()
    rank = controller.GetLocalProcessId() if controller else 0
    info = self.GetOutputInformation(0)
    piece = info.Get(SDDP.UPDATE_PIECE_NUMBER()) if info.Has(SDDP.UPDATE_PIECE_NUMBER()) else 0
    kinds = (("States", "Location"), ("Messages", "Receiver"), ("Events", "Location"),
             ("Variables", "Location"))
    rows = collections.defaultdict(lambda: [0] * len(kinds))
    for k, (kind, name) in enumerate(kinds):
        table = self.GetInputDataObject(0, k)
        for location in vtk_to_numpy(table.GetColumnByName(name)).tolist():
            rows[location][k] += 1
    columns = ["Rank", "Piece", "Location"] + [kind for kind, _ in kinds]
    arrays = []
    for name in columns:
        array = vtkIntArray()
        array.SetName(name)
        arrays.append(array)
        self.GetOutput().AddColumn(array)
    for location in sorted(rows):
        for array, value in zip(arrays, [rank, piece, location] + rows[location]):
            array.InsertNextValue(value)
_report_pieces(self)
"""

# Each rank's share of some outputs: per input, the rows (a table) or points
# (a data set) it holds and its QualityComputations (-1 when absent: an
# aggregation that did not compute there).
AGGREGATION_SCRIPT = """
def _report_aggregations(self):
    from vtkmodules.vtkCommonCore import vtkIntArray
    from vtkmodules.vtkParallelCore import vtkMultiProcessController
    controller = vtkMultiProcessController.GetGlobalController()
    rank = controller.GetLocalProcessId() if controller else 0
    arrays = []
    for name in ("Rank", "Input", "Rows", "QualityComputations"):
        array = vtkIntArray()
        array.SetName(name)
        arrays.append(array)
        self.GetOutput().AddColumn(array)
    for i in range(self.GetNumberOfInputConnections(0)):
        data = self.GetInputDataObject(0, i)
        computed = data.GetFieldData().GetArray("QualityComputations")
        items = data.GetNumberOfRows() if data.IsA("vtkTable") else data.GetNumberOfPoints()
        values = (rank, i, items, computed.GetValue(0) if computed else -1)
        for array, value in zip(arrays, values):
            array.InsertNextValue(value)
_report_aggregations(self)
"""


def table_columns(table):
    return {table.GetColumnName(c): mt.column(table, table.GetColumnName(c))
            for c in range(table.GetNumberOfColumns())}


def model_of(slicing):
    """The whole model as an array [type, resource, slice] on the client,
    with its window start and slice width (Fetch gives rank 0's piece of an
    image only)."""
    return mt.gather_model(slicing, SLICES)


def isolating_partitions(aggregation, curves, model_cells, begin, end, tol, interior):
    """(PStart, PEnd, parts) of every distinct optimal temporal partition (an
    overview: at most a tenth of the model's cells as parts) made of
    consecutive parts whose union starts and ends within tol of the window
    and one of which spans the window's interior."""
    found = []
    for a, b, parts in zip(curves["PStart"], curves["PEnd"], curves["Parts"]):
        if parts > model_cells // 10:
            continue
        aggregation.Parameter = 0.5 * (a + b)
        partition = table_columns(servermanager.Fetch(aggregation, idx=0))
        order = sorted(range(len(partition["Start"])), key=lambda i: partition["Start"][i])
        starts = [partition["Start"][i] for i in order]
        ends = [partition["End"][i] for i in order]
        spans = [(partition["FirstSlice"][i], partition["LastSlice"][i]) for i in order]
        if builtins.any(builtins.any(f <= interior[0] and l >= interior[-1] for f, l in spans[i:j + 1])
               for i, s in enumerate(starts) if builtins.abs(s - begin) <= tol
               for j, e in enumerate(ends) if j >= i and builtins.abs(e - end) <= tol):
            found.append((a, b, parts))
    aggregation.Parameter = 0.5
    return found


def run_pipeline(label, anchor, tol=None):
    """Builds the pipeline in the active session and returns its results."""
    remote = servermanager.ActiveConnection.IsRemote()
    partitions = servermanager.ActiveConnection.GetNumberOfDataPartitions()
    print("%s session: remote %s, %d data partition(s)" % (label, remote, partitions))
    reader = OTF2TraceReader(FileName=anchor)
    slicing = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=SLICES)
    temporal = TemporalAggregation(Input=OutputPort(slicing, 0), Parameter=0.5)
    spatiotemporal = SpatiotemporalAggregation(Input=OutputPort(slicing, 0), Parameter=0.5)
    results = {"partitions": partitions}

    pieces = ProgrammableFilter(Input=[OutputPort(reader, i) for i in range(4)])
    pieces.OutputDataSetType = "vtkTable"
    pieces.Script = PIECES_SCRIPT
    results["pieces"] = table_columns(mt.gather_table(pieces, 0))
    tree = servermanager.Fetch(reader, idx=4)
    leaves = vtk_to_numpy(tree.GetVertexData().GetArray("LeafIndex"))
    results["leaves"] = sorted(int(v) for v in leaves if v >= 0)
    if tol is None:
        # The tolerance of the ground-truth criterion: a slice plus the
        # longest iteration, from the serial read (every location).
        states = table_columns(servermanager.Fetch(reader, idx=0))
        iteration = mt.column(servermanager.Fetch(reader, idx=5), "Name").index("iteration")
        longest = builtins.max(e - s for t, s, e in zip(states["Type"], states["Start"], states["End"])
                      if t == iteration)
    results["model"], origin, width = model_of(slicing)
    # The same model streamed from the file on the server's ranks, each
    # reading its share of the locations (no cache: both sessions read).
    streamed = StreamedTimeSlicing(FileName=anchor, Slices=SLICES, UseModelCache=0)
    results["streamed model"], _, _ = model_of(streamed)
    results["tol"] = tol if tol is not None else width + longest
    mt.check(results["model"].shape[1] == len(results["leaves"]),
             "%s: the model has %d resources for %d leaves" % (
                 label, results["model"].shape[1], len(results["leaves"])))

    for name, proxy in (("temporal", temporal), ("spatiotemporal", spatiotemporal)):
        results[name] = mt.table_rows(servermanager.Fetch(proxy, idx=0))
        results[name + " curves"] = mt.table_rows(servermanager.Fetch(proxy, idx=1))
    aggregations = ProgrammableFilter(Input=[OutputPort(temporal, 0), OutputPort(spatiotemporal, 0)])
    aggregations.OutputDataSetType = "vtkTable"
    aggregations.Script = AGGREGATION_SCRIPT
    results["aggregation ranks"] = table_columns(mt.gather_table(aggregations, 0))
    # The Temporal Overview's layout filter, all five outputs, per rank.
    layout = TemporalOverviewLayout(Input=OutputPort(temporal, 0))
    layouts = ProgrammableFilter(Input=[OutputPort(layout, i) for i in range(5)])
    layouts.OutputDataSetType = "vtkTable"
    layouts.Script = AGGREGATION_SCRIPT
    results["layout ranks"] = table_columns(mt.gather_table(layouts, 0))
    # The merged Partitions of every rank: duplicates would show here.
    results["gathered temporal rows"] = mt.gather_table(temporal, 0).GetNumberOfRows()

    curves = table_columns(servermanager.Fetch(temporal, idx=1))
    interior = [t for t in range(SLICES) if origin + t * width >= WINDOW[0] + results["tol"]
                and origin + (t + 1) * width <= WINDOW[1] - results["tol"]]
    mt.check(len(interior) >= 2, "the window's interior holds %d slices" % len(interior))
    results["isolating"] = isolating_partitions(
        temporal, curves, results["model"].shape[1] * results["model"].shape[2],
        WINDOW[0], WINDOW[1], results["tol"], interior)

    view = CreateView("RenderView")
    view.OrientationAxesVisibility = 0
    view.UseColorPaletteForBackground = 0
    view.Background = [1, 1, 1]
    view.CameraParallelProjection = 1
    view.InteractionMode = "2D"
    view.ViewSize = [800, 500]
    if remote:
        view.RemoteRenderThreshold = 0.0  # render on the server whatever the data size
    display = Show(OutputPort(temporal, 0), view, "MacroscopeTraceRepresentation")
    mt.check(display.Representation == "Temporal Overview",
             "the Partition is shown as %r" % display.Representation)
    display.ViewSize = [600, 360]
    display.LabelColor = [0.1, 0.1, 0.1]
    Render(view)
    view.ResetCamera(True)
    Render(view)
    results["rendered remotely"] = bool(
        view.GetClientSideObject().GetUseDistributedRenderingForRender())
    shot = os.path.join(args.output, label + ".png")
    SaveScreenshot(shot, view, ImageResolution=[800, 500], TransparentBackground=0)
    mt.check(os.path.isfile(shot), "no screenshot written on the client: " + shot)
    results["screenshot"] = shot
    return results


def image_error(produced, reference):
    from vtkmodules.vtkIOImage import vtkPNGReader
    from vtkmodules.vtkImagingCore import vtkImageDifference
    readers = []
    for path in (produced, reference):
        reader = vtkPNGReader()
        reader.SetFileName(path)
        reader.Update()
        readers.append(reader)
    image = readers[0].GetOutput()
    mt.check(image.GetDimensions() == readers[1].GetOutput().GetDimensions(),
             "the screenshots differ in size")
    colours = vtk_to_numpy(image.GetPointData().GetScalars())
    mt.check(len(np.unique(colours[:, :3], axis=0)) > 4,
             "the client/server screenshot is blank: " + produced)
    diff = vtkImageDifference()
    diff.SetInputConnection(readers[0].GetOutputPort())
    diff.SetImageConnection(readers[1].GetOutputPort())
    diff.Update()
    return diff.GetThresholdedError()


# --- the trace ---------------------------------------------------------------

directory = os.path.join(args.output, "trace")
summary = mt.synthesize(args, directory, "--iterations", 300, "--perturbation", "slow-node",
                        "--perturb-target", 1, "--perturb-factor", 3,
                        "--perturb-window", *WINDOW)
with open(os.path.join(directory, "ground_truth.json")) as f:
    truth = json.load(f)
mt.check(truth["perturbation"] == "slow-node" and
         (truth["window"]["begin_seconds"], truth["window"]["end_seconds"]) == WINDOW,
         "unexpected ground truth: %s" % truth)
anchor = os.path.join(directory, "traces.otf2")

# --- serial: the builtin session ----------------------------------------------

mt.load_plugin(args, globals())
serial = run_pipeline("serial", anchor)
mt.check(serial["partitions"] == 1, "the builtin session has %d partitions" % serial["partitions"])
mt.check(set(serial["pieces"]["Rank"]) == {0}, "serially, rows came from ranks %s"
         % sorted(set(serial["pieces"]["Rank"])))
mt.check(sorted(serial["pieces"]["Location"]) == serial["leaves"],
         "the serial read does not hold rows for every leaf of the hierarchy: the location "
         "check below would not prove a cover")
mt.check(serial["isolating"], "serially, no temporal partition isolates the slow node's window %s"
         % (WINDOW,))
# The criterion discriminates: the whole trace as one part does not isolate
# the window.
mt.check(builtins.min(parts for _, _, parts in serial["isolating"]) > 1,
         "the single-part partition passes the isolation criterion: it proves nothing")

# --- client/server ----------------------------------------------------------

Disconnect()
connection = Connect("localhost", port)
mt.check(connection is not None and servermanager.ActiveConnection.IsRemote(),
         "could not connect to the pvserver on localhost:%d" % port)
mt.load_plugin(args, globals())
remote = run_pipeline("clientserver", anchor, tol=serial["tol"])
mt.check(remote["partitions"] == RANKS, "the server has %d data partitions, expected %d"
         % (remote["partitions"], RANKS))

# (c) disjoint location sets whose union is every leaf, rows as serially.
pieces = remote["pieces"]
by_rank = {r: sorted(l for l, rr in zip(pieces["Location"], pieces["Rank"]) if rr == r)
           for r in range(RANKS)}
for r in range(RANKS):
    mt.check(by_rank[r], "server rank %d read no location" % r)
    asked = {p for p, rr in zip(pieces["Piece"], pieces["Rank"]) if rr == r}
    mt.check(asked == {r}, "server rank %d was asked for pieces %s" % (r, sorted(asked)))
mt.check(not set(by_rank[0]) & set(by_rank[1]),
         "server ranks 0 and 1 both hold locations %s" % sorted(set(by_rank[0]) & set(by_rank[1])))
mt.check(sorted(by_rank[0] + by_rank[1]) == serial["leaves"],
         "the server ranks' locations do not cover the hierarchy's %d leaves"
         % len(serial["leaves"]))
KINDS = ("States", "Messages", "Events", "Variables")
rows = lambda p: {loc: tuple(p[k][i] for k in KINDS) for i, loc in enumerate(p["Location"])}
mt.check(rows(pieces) == rows(serial["pieces"]),
         "some location has other rows on the server than serially")
print("(c) rank 0 read locations %d-%d, rank 1 %d-%d: disjoint, together the %d leaves, "
      "%d state rows as serially" % (by_rank[0][0], by_rank[0][-1], by_rank[1][0], by_rank[1][-1],
                                     len(serial["leaves"]), builtins.sum(pieces["States"])))

# (d) the aggregations ran once, on rank 0.
ranks = remote["aggregation ranks"]
for i, name in enumerate(("temporal", "spatiotemporal")):
    mine = {r: (n, q) for r, inp, n, q in zip(ranks["Rank"], ranks["Input"], ranks["Rows"],
                                              ranks["QualityComputations"]) if inp == i}
    mt.check(sorted(mine) == list(range(RANKS)), "%s: ranks reporting %s" % (name, sorted(mine)))
    mt.check(mine[0] == (len(serial[name]), 1),
             "%s: rank 0 holds %d rows after %d quality computations, expected %d after 1"
             % (name, mine[0][0], mine[0][1], len(serial[name])))
    mt.check(mine[1] == (0, -1), "%s: rank 1 holds %d rows and computed %s: the aggregation "
             "did not run once" % (name, mine[1][0], mine[1][1]))
mt.check(remote["gathered temporal rows"] == len(serial["temporal"]),
         "the ranks' temporal Partitions hold %d rows together, the serial one %d"
         % (remote["gathered temporal rows"], len(serial["temporal"])))
# ... and so did the layout of their Partition.
layout_serial = dict(zip(serial["layout ranks"]["Input"], serial["layout ranks"]["Rows"]))
mt.check(layout_serial[0] > 0, "the serial Temporal Overview Layout drew no marks")
layout_remote = remote["layout ranks"]
layout_remote = {(r, i): n for r, i, n in zip(layout_remote["Rank"], layout_remote["Input"],
                                              layout_remote["Rows"])}
for i in range(5):
    mt.check(layout_remote.get((0, i)) == layout_serial[i] and layout_remote.get((1, i)) == 0,
             "Temporal Overview Layout output %d: %s points on ranks 0 and 1, %d serially"
             % (i, (layout_remote.get((0, i)), layout_remote.get((1, i))), layout_serial[i]))
print("(d) Partitions: %d temporal and %d spatiotemporal rows, all on rank 0, computed once; "
      "the Temporal Overview Layout's %d points all on rank 0"
      % (len(serial["temporal"]), len(serial["spatiotemporal"]),
         builtins.sum(layout_serial.values())))

# (a) results identical to serial.
mt.check(remote["model"].shape == serial["model"].shape, "model shape %s, serially %s"
         % (remote["model"].shape, serial["model"].shape))
for session in (serial, remote):
    gap = np.abs(session["streamed model"] - session["model"]).max()
    mt.check(gap <= 1e-12 * np.abs(session["model"]).max(),
             "Streamed Time Slicing differs from Time Slicing by %g" % gap)
mt.check(np.array_equal(remote["model"], serial["model"]),
         "the server's model differs from the serial one by up to %g"
         % np.abs(remote["model"] - serial["model"]).max())
for name in ("temporal", "spatiotemporal", "temporal curves", "spatiotemporal curves"):
    mt.check(remote[name] == serial[name], "%s: the server's table differs from the serial one "
             "(%d rows, serially %d)" % (name, len(remote[name]), len(serial[name])))
mt.check(remote["rendered remotely"], "the overview was not rendered on the server")
error = image_error(remote["screenshot"], serial["screenshot"])
print("(a) model %s, Partitions and Quality Curves equal the serial ones; the server-rendered "
      "overview differs from the serial one by %.3f (limit 10)" % (remote["model"].shape, error))
mt.check(error <= 10.0, "the server-rendered overview differs from the serial one: %.3f (%s)"
         % (error, remote["screenshot"]))

# (b) the perturbation is found.
mt.check(remote["isolating"] == serial["isolating"],
         "the server's isolating partitions %s differ from the serial %s"
         % (remote["isolating"], serial["isolating"]))
print("(b) %d optimal temporal partitions isolate the slow node's window %s: p in [%.4f, %.4f], "
      "%d to %d parts" % (len(remote["isolating"]), WINDOW, remote["isolating"][0][0],
                          remote["isolating"][-1][1], remote["isolating"][-1][2],
                          remote["isolating"][0][2]))
Disconnect()
print("ok")
