"""The Topology-Time Scene filter (Triva's 3D scene, Schnorr 2009 (Triva) chapter 3 and
section 5.4) on synthesized traces, against brute force from the reader's
own tables: the boxes (geometry, clipping to the window, the States rows of a
depth, the innermost states of Depth -1 never overlapping and adding up to
each location's covered time), the message lines (ends above their
processes at their times, clipped ones on the original segment), the three
bases (traffic edges summed per pair, a DOT network topology with and
without positions, the hierarchy treemap sized by state time) and clear
errors that leave the pipeline working once fixed.

Run serially (pvpython) and on 2 MPI ranks (pvbatch --symmetric): there the
ranks' boxes and lines are gathered and checked against the gathered
reader tables, and the base drawn by rank 0 must hold the communication
graph of ALL messages although each rank reads only its receivers'."""
import collections
import json
import math
import os

import numpy as np

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager
from vtkmodules.util.numpy_support import vtk_to_numpy

controller = servermanager.vtkProcessModule.GetProcessModule().GetGlobalController()
rank, ranks = controller.GetLocalProcessId(), controller.GetNumberOfProcesses()
MPI = ranks > 1
mt.load_plugin(args, globals())

STATES, MESSAGES, BASE, GUIDES, LABELS = range(5)
AXIS_CORNER = -0.06  # where the filter stands its time axis (x = y)
EPS = 1e-9


# --- data access -----------------------------------------------------------

def local(proxy, port):
    """This rank's own output `port` of `proxy` (a copy)."""
    proxy.UpdatePipeline()
    data = proxy.GetClientSideObject().GetOutputDataObject(port)
    copy = data.NewInstance()
    copy.DeepCopy(data)
    return copy


def scene(proxy, port):
    """The output `port` of every rank (appended on rank 0 under MPI)."""
    return mt.gather_points(proxy, port) if MPI else local(proxy, port)


def table(proxy, port):
    return mt.gather_table(proxy, port) if MPI else servermanager.Fetch(proxy, idx=port)


def columns(t, *names):
    return [np.array(mt.column(t, n)) for n in names]


def cell_points(ds):
    """The points of every cell of `ds` (poly data or unstructured grid), as
    a list of (k, 3) arrays in cell order."""
    if ds.GetNumberOfCells() == 0:
        return []
    if ds.IsA("vtkPolyData"):
        cells = ds.GetPolys() if ds.GetPolys().GetNumberOfCells() else ds.GetLines()
        mt.check(cells.GetNumberOfCells() == ds.GetNumberOfCells(),
                 "poly data mixes cell kinds: %d of %d cells" % (cells.GetNumberOfCells(),
                                                                 ds.GetNumberOfCells()))
    else:
        cells = ds.GetCells()
    offsets = vtk_to_numpy(cells.GetOffsetsArray())
    connectivity = vtk_to_numpy(cells.GetConnectivityArray())
    points = vtk_to_numpy(ds.GetPoints().GetData())
    return [points[connectivity[offsets[i]:offsets[i + 1]]] for i in range(len(offsets) - 1)]


def cell_array(ds, name):
    array = ds.GetCellData().GetAbstractArray(name)
    mt.check(array is not None, "no cell array %r (have %s)" % (
        name, [ds.GetCellData().GetArrayName(i) for i in range(ds.GetCellData().GetNumberOfArrays())]))
    if array.IsA("vtkStringArray"):
        return [array.GetValue(i) for i in range(array.GetNumberOfValues())]
    return vtk_to_numpy(array).copy()


# --- the trace, by brute force ---------------------------------------------

class Trace:
    """The reader's tables (gathered over the ranks under MPI), the
    hierarchy's paths and the labels the filter gives the processes."""

    def __init__(self, reader):
        states = table(reader, 0)
        messages = table(reader, 1)
        self.local_messages = reader.GetDataInformation(1).GetNumberOfRows()
        tree = local(reader, 4)
        if rank != 0:
            return
        (self.location, self.type, self.depth, self.start, self.end) = columns(
            states, "Location", "Type", "Depth", "Start", "End")
        (self.sender, self.receiver, self.send, self.recv, self.bytes) = columns(
            messages, "Sender", "Receiver", "SendTime", "RecvTime", "Bytes")
        names = tree.GetVertexData().GetAbstractArray("Name")
        leaf = tree.GetVertexData().GetArray("LeafIndex")
        self.paths = {}
        for v in range(tree.GetNumberOfVertices()):
            if leaf.GetValue(v) < 0:
                continue
            path, u = [], v
            while u >= 0:
                path.append(names.GetValue(u))
                u = tree.GetParent(u) if u != tree.GetRoot() else -1
            self.paths[leaf.GetValue(v)] = path[::-1]
        self.count = len(self.paths)
        uses = collections.Counter(p[-1] for p in self.paths.values())
        self.labels = {}
        for p, path in self.paths.items():
            label = path[-1] if uses[path[-1]] == 1 else path[-2] + " / " + path[-1]
            mt.check(label not in self.labels, "two processes labelled %r" % label)
            self.labels[label] = p
        self.end_time = float(max(self.end.max(), self.recv.max(initial=0), self.send.max(initial=0)))

    def covered(self, location, t0, t1):
        """The time of [t0, t1) that states of `location` cover (the union)."""
        mask = self.location == location
        spans = sorted((max(s, t0), min(e, t1)) for s, e in zip(self.start[mask], self.end[mask])
                       if s < t1 and e > t0)
        total, reach = 0.0, -math.inf
        for s, e in spans:
            if e > reach:
                total += e - max(s, reach)
                reach = e
        return total

    def innermost(self, location, t):
        """The rows of `location`'s deepest states covering time t."""
        mask = (self.location == location) & (self.start <= t) & (self.end > t)
        rows = np.nonzero(mask)[0]
        if len(rows) == 0:
            return []
        deepest = self.depth[rows].max()
        return list(rows[self.depth[rows] == deepest])

    def flying(self, t0, t1):
        """The message rows whose flight overlaps [t0, t1)."""
        lo, hi = np.minimum(self.send, self.recv), np.maximum(self.send, self.recv)
        ok = (lo < t1) & (hi >= t0) & (self.sender < self.count) & (self.receiver < self.count)
        return list(np.nonzero(ok)[0])

    def traffic(self, t0, t1):
        pairs = collections.defaultdict(lambda: [0.0, 0])
        for m in self.flying(t0, t1):
            a, b = int(self.sender[m]), int(self.receiver[m])
            if a != b:
                pairs[(min(a, b), max(a, b))][0] += self.bytes[m]
                pairs[(min(a, b), max(a, b))][1] += 1
        return dict(pairs)


# --- outputs ---------------------------------------------------------------

def base_cells(base):
    """The base's cells by kind: (kind, name, corner points, row)."""
    kinds, names = cell_array(base, "Kind"), cell_array(base, "Name")
    return [(k, n, pts, i) for i, (k, n, pts) in enumerate(zip(kinds, names, cell_points(base)))]


def process_positions(trace, base, what):
    """Each location's (x, y): the centre of its footprint on the base."""
    positions = {}
    for kind, name, pts, _ in base_cells(base):
        if kind == "process":
            mt.check(name in trace.labels, "%s: a footprint of unknown process %r" % (what, name))
            positions[trace.labels[name]] = pts[:, :2].mean(axis=0)
    mt.check(sorted(positions) == list(range(trace.count)),
             "%s: footprints for %d of %d processes" % (what, len(positions), trace.count))
    return positions


def boxes(states, what):
    """The boxes of the States output: 6 quads on 8 corners each, their cell
    arrays constant over the six. Returns dicts with bounds and arrays."""
    faces = cell_points(states)
    mt.check(len(faces) % 6 == 0, "%s: %d faces, not 6 per box" % (what, len(faces)))
    arrays = {n: cell_array(states, n) for n in
              ("Start", "End", "Duration", "Location", "Type", "vtkOriginalCellIds")}
    result = []
    for b in range(len(faces) // 6):
        group = faces[6 * b:6 * b + 6]
        corners = np.unique(np.round(np.concatenate(group), 12), axis=0)
        mt.check(len(corners) == 8 and all(len(f) == 4 for f in group),
                 "%s: box %d has %d corners" % (what, b, len(corners)))
        lo, hi = corners.min(axis=0), corners.max(axis=0)
        planes = set()
        for f in group:
            axis = [k for k in range(3) if np.ptp(f[:, k]) < 1e-12]
            mt.check(len(axis) == 1, "%s: a face of box %d is not axis-aligned" % (what, b))
            k = axis[0]
            side = 0 if abs(f[0, k] - lo[k]) < 1e-12 else 1
            mt.check(abs(f[0, k] - (lo, hi)[side][k]) < 1e-12,
                     "%s: a face of box %d is inside it" % (what, b))
            planes.add((k, side))
        mt.check(len(planes) == 6, "%s: box %d does not close" % (what, b))
        box = {"lo": lo, "hi": hi}
        for n, values in arrays.items():
            mt.check(all(values[6 * b + k] == values[6 * b] for k in range(6)),
                     "%s: box %d's faces disagree on %s" % (what, b, n))
            box[n] = values[6 * b]
        result.append(box)
    return result


def check_boxes(trace, scene_boxes, positions, t0, t1, scale, offset, box_size, what):
    """Geometry common to every depth: footprint and heights."""
    for i, b in enumerate(scene_boxes):
        s, e = b["Start"], b["End"]
        mt.check(t0 - EPS <= s < e <= t1 + EPS, "%s: box %d spans [%g, %g] outside the window [%g, %g]"
                 % (what, i, s, e, t0, t1))
        mt.check(abs(b["Duration"] - (e - s)) < EPS, "%s: box %d's Duration" % (what, i))
        mt.check(abs(b["lo"][2] - (offset + scale * (s - t0))) < 1e-9 and
                 abs((b["hi"][2] - b["lo"][2]) - scale * (e - s)) < 1e-9,
                 "%s: box %d rises from %.9g to %.9g, expected from %.9g, height %.9g"
                 % (what, i, b["lo"][2], b["hi"][2], offset + scale * (s - t0), scale * (e - s)))
        centre = (b["lo"][:2] + b["hi"][:2]) / 2
        size = b["hi"][:2] - b["lo"][:2]
        mt.check(np.allclose(size, box_size, atol=1e-9),
                 "%s: box %d's footprint is %s, expected %g" % (what, i, size, box_size))
        p = positions[int(b["Location"])]
        mt.check(np.allclose(centre, p, atol=1e-9), "%s: box %d of location %d stands at %s, "
                 "its process at %s" % (what, i, b["Location"], centre, p))


def check_depth(trace, scene_boxes, depth, t0, t1, what):
    """Depth d: the boxes are the States rows of depth d in the window,
    clipped to it."""
    expected = collections.Counter()
    for r in np.nonzero((trace.depth == depth) & (trace.start < t1) & (trace.end > t0))[0]:
        s, e = max(trace.start[r], t0), min(trace.end[r], t1)
        if e > s:
            expected[(int(trace.location[r]), int(trace.type[r]), round(s, 12), round(e, 12))] += 1
    got = collections.Counter((int(b["Location"]), int(b["Type"]), round(b["Start"], 12),
                               round(b["End"], 12)) for b in scene_boxes)
    mt.check(got == expected, "%s: %d boxes, brute force %d; %d differ" % (
        what, sum(got.values()), sum(expected.values()), sum(((got - expected) + (expected - got)).values())))
    if not MPI:  # rows are the local tables' rows: the whole table serially
        rows = sorted(int(b["vtkOriginalCellIds"]) for b in scene_boxes)
        brute = sorted(r for r in np.nonzero((trace.depth == depth) & (trace.start < t1) & (trace.end > t0))[0]
                       if min(trace.end[r], t1) > max(trace.start[r], t0))
        mt.check(rows == brute, "%s: the boxes' rows are not the States rows of depth %d" % (what, depth))
        for b in scene_boxes:
            r = int(b["vtkOriginalCellIds"])
            mt.check(abs(b["Start"] - max(trace.start[r], t0)) < EPS and
                     abs(b["End"] - min(trace.end[r], t1)) < EPS,
                     "%s: the box of row %d is not clipped to the window" % (what, r))
    clipped_start = sum(1 for b in scene_boxes if abs(b["Start"] - t0) < EPS)
    clipped_end = sum(1 for b in scene_boxes if abs(b["End"] - t1) < EPS)
    mt.check(clipped_start > 0 and clipped_end > 0,
             "%s: the window clips no box (%d at its start, %d at its end): a useless test"
             % (what, clipped_start, clipped_end))
    return len(scene_boxes)


def check_innermost(trace, scene_boxes, t0, t1, what):
    """Depth -1: per location the boxes never overlap, add up to the time
    states cover in the window, and each shows the innermost state."""
    per_location = collections.defaultdict(list)
    for b in scene_boxes:
        per_location[int(b["Location"])].append(b)
    for location in range(trace.count):
        mine = sorted(per_location[location], key=lambda b: b["lo"][2])
        for a, b in zip(mine, mine[1:]):
            mt.check(b["lo"][2] >= a["hi"][2] - 1e-12, "%s: boxes of location %d overlap in z "
                     "([%.9g, %.9g] and [%.9g, %.9g])" % (what, location, a["lo"][2], a["hi"][2],
                                                          b["lo"][2], b["hi"][2]))
        total = sum(b["End"] - b["Start"] for b in mine)
        covered = trace.covered(location, t0, t1)
        mt.check(abs(total - covered) < 1e-9, "%s: location %d's boxes last %.9g s, its states "
                 "cover %.9g s of the window" % (what, location, total, covered))
        for b in mine:
            rows = trace.innermost(location, (b["Start"] + b["End"]) / 2)
            mt.check(rows and int(b["Type"]) in [int(trace.type[r]) for r in rows],
                     "%s: a box of location %d at %.9g has type %d, not the innermost state's"
                     % (what, location, (b["Start"] + b["End"]) / 2, b["Type"]))
            if not MPI:
                mt.check(int(b["vtkOriginalCellIds"]) in rows, "%s: a box of location %d shows "
                         "row %d, not the innermost state" % (what, location, b["vtkOriginalCellIds"]))
    return sum(len(v) for v in per_location.values())


def check_messages(trace, lines, positions, t0, t1, scale, offset, what):
    z = lambda t: offset + scale * (t - t0)
    segments = cell_points(lines)
    arrays = {n: cell_array(lines, n) for n in
              ("Sender", "Receiver", "SendTime", "RecvTime", "Clipped", "vtkOriginalCellIds")}
    flying = trace.flying(t0, t1)
    expected = collections.Counter((int(trace.sender[m]), int(trace.receiver[m]),
                                    round(trace.send[m], 12), round(trace.recv[m], 12)) for m in flying)
    got = collections.Counter((int(s), int(r), round(a, 12), round(b, 12)) for s, r, a, b in zip(
        arrays["Sender"], arrays["Receiver"], arrays["SendTime"], arrays["RecvTime"]))
    mt.check(got == expected, "%s: %d message lines, %d messages fly in the window"
             % (what, sum(got.values()), len(flying)))
    if not MPI:
        mt.check(sorted(arrays["vtkOriginalCellIds"]) == sorted(flying),
                 "%s: the lines' rows are not the messages flying in the window" % what)
    clipped = 0
    for i, seg in enumerate(segments):
        s, r = arrays["SendTime"][i], arrays["RecvTime"][i]
        a = np.append(positions[int(arrays["Sender"][i])], z(s))
        b = np.append(positions[int(arrays["Receiver"][i])], z(r))
        at = lambda t: a if s == r else a + (t - s) / (r - s) * (b - a)
        clamp = lambda t: min(max(t, t0), t1)
        cut = not (t0 <= s <= t1 and t0 <= r <= t1)
        clipped += cut
        mt.check(int(arrays["Clipped"][i]) == int(cut), "%s: message %g -> %g has Clipped %d"
                 % (what, s, r, arrays["Clipped"][i]))
        mt.check(len(seg) == 2 and np.allclose(seg[0], at(clamp(s)), atol=1e-9) and
                 np.allclose(seg[1], at(clamp(r)), atol=1e-9),
                 "%s: the line of message %g -> %g runs %s -> %s, expected %s -> %s"
                 % (what, s, r, seg[0], seg[-1], at(clamp(s)), at(clamp(r))))
    return len(segments), clipped


def check_traffic(trace, base, positions, t0, t1, max_width, what):
    """The traffic edges: one per pair that exchanged messages in the window,
    their sums and widths."""
    expected = trace.traffic(t0, t1)
    widest = max((v[0] for v in expected.values()), default=0.0)
    traffic, counts = cell_array(base, "Traffic"), cell_array(base, "MessageCount")
    located = {tuple(np.round(p, 9)): l for l, p in positions.items()}
    got = {}
    for kind, name, pts, i in base_cells(base):
        if kind != "traffic":
            continue
        ends = [(pts[0, :2] + pts[3, :2]) / 2, (pts[1, :2] + pts[2, :2]) / 2]
        ids = []
        for e in ends:
            near = [l for l, p in positions.items() if np.allclose(p, e, atol=1e-9)]
            mt.check(len(near) == 1, "%s: traffic edge %r ends at %s, on no process" % (what, name, e))
            ids.append(near[0])
        pair = (min(ids), max(ids))
        mt.check(pair not in got, "%s: two traffic edges for processes %s" % (what, pair))
        got[pair] = (traffic[i], int(counts[i]))
        width = np.linalg.norm(pts[0, :2] - pts[3, :2])
        expect_width = 0.002 + max_width * traffic[i] / widest
        mt.check(abs(width - expect_width) < 1e-9, "%s: edge %s is %.9g wide, expected %.9g"
                 % (what, pair, width, expect_width))
    mt.check(sorted(got) == sorted(expected), "%s: traffic edges %s, brute force %s"
             % (what, sorted(got), sorted(expected)))
    for pair, (t, c) in expected.items():
        mt.check(abs(got[pair][0] - t) < 1e-6 and got[pair][1] == c,
                 "%s: pair %s carries %g bytes in %d messages, brute force %g in %d"
                 % (what, pair, got[pair][0], got[pair][1], t, c))
    return len(got)


def guide_top(guides):
    return max(p[:, 2].max() for p in cell_points(guides))


# What each scene drew (counts and process positions): the serial run saves
# it, the 2-rank run must draw the same.
results = {}
SERIAL_RESULTS = os.path.join(args.output, "..", "topology-scene-serial.json")



def check_overlay(labels, states, base, what):
    """The legend the representation draws over the view: every type drawn,
    the longest first (LegendTypes, LegendColors); the process names of a
    communication-pattern base kept apart (no heap)."""
    fields = labels.GetFieldData()
    legend = fields.GetAbstractArray("LegendTypes")
    colors = fields.GetArray("LegendColors")
    mt.check(legend is not None and colors is not None and
             colors.GetNumberOfTuples() == legend.GetNumberOfValues(), "%s: no type legend" % what)
    names = states.GetFieldData().GetAbstractArray("TypeNames")
    types, durations = cell_array(states, "Type"), cell_array(states, "Duration")
    time_of = {}
    for t, d in zip(types, durations):
        time_of[names.GetValue(int(t))] = time_of.get(names.GetValue(int(t)), 0.0) + d / 6.0
    listed = [legend.GetValue(i) for i in range(legend.GetNumberOfValues())]
    mt.check(set(listed) == set(time_of), "%s: the legend lists %s, the boxes are of %s"
             % (what, listed, sorted(time_of)))
    mt.check(all(time_of[a] >= time_of[b] - 1e-12 for a, b in zip(listed, listed[1:])),
             "%s: the legend is not ordered by time: %s" % (what, [(n, time_of[n]) for n in listed]))
    if base != 0:
        return
    kinds = labels.GetPointData().GetArray("LabelKind")
    points = [labels.GetPoint(i) for i in range(labels.GetNumberOfPoints()) if kinds.GetValue(i) == 5]
    mt.check(len(points) >= 1, "%s: no process named on the base" % what)
    for i in range(len(points)):
        for j in range(i + 1, len(points)):
            mt.check(abs(points[i][0] - points[j][0]) >= 0.3 - 1e-9 or
                     abs(points[i][1] - points[j][1]) >= 0.15 - 1e-9,
                     "%s: process names %d and %d pile up at %s and %s" % (what, i, j, points[i], points[j]))

def make_scene(reader, **properties):
    return TopologyTimeScene(Input=[OutputPort(reader, i) for i in (0, 1, 4, 5)], **properties)


def run(trace, reader, what, t0, t1, scale=0.0, offset=0.05, box_size=0.0, depth=-1,
        max_width=0.03, base=0, **more):
    """A scene checked for boxes, messages and traffic; returns the proxy,
    the positions and the base output (rank 0)."""
    filt = make_scene(reader, TimeWindow=[t0, t1], Scale=scale, Offset=offset, BoxSize=box_size,
                      Depth=depth, MaxEdgeWidth=max_width, BaseConfiguration=base, **more)
    filt.UpdatePipeline()
    states, lines, guides = scene(filt, STATES), scene(filt, MESSAGES), local(filt, GUIDES)
    base_output = local(filt, BASE)
    if MPI:
        mine = local(filt, STATES).GetNumberOfCells()
        if rank != 0:
            mt.check(mine > 0, "%s: rank %d draws no box" % (what, rank))
            mt.check(base_output.GetNumberOfCells() == 0 and guides.GetNumberOfCells() == 0,
                     "%s: rank %d draws a base or guides (rank 0 draws them)" % (what, rank))
            return filt, None, None
        mt.check(0 < mine < states.GetNumberOfCells(),
                 "%s: rank 0 draws %d of the %d box faces: the ranks do not share the work"
                 % (what, mine, states.GetNumberOfCells()))
    fit = scale if scale > 0 else 1.5 / (t1 - t0)
    top = guide_top(guides)
    mt.check(abs(top - (offset + fit * (t1 - t0))) < 1e-9,
             "%s: the guides reach z = %.9g, the window's end is at %.9g"
             % (what, top, offset + fit * (t1 - t0)))
    positions = process_positions(trace, base_output, what)
    check_overlay(local(filt, LABELS), states, base, what)
    if box_size == 0.0:
        xy = np.array([positions[l] for l in range(trace.count)])
        gaps = [np.linalg.norm(a - b) for i, a in enumerate(xy) for b in xy[i + 1:]]
        box_size = min(0.08, 0.6 * min(g for g in gaps if g > 0))
    found = boxes(states, what)
    mt.check(found, "%s: no box" % what)
    check_boxes(trace, found, positions, t0, t1, fit, offset, box_size, what)
    if depth >= 0:
        n = check_depth(trace, found, depth, t0, t1, what)
    else:
        n = check_innermost(trace, found, t0, t1, what)
    m, clipped = check_messages(trace, lines, positions, t0, t1, fit, offset, what)
    mt.check(m > 0 and clipped > 0, "%s: %d lines, %d clipped: the window cuts no message"
             % (what, m, clipped))
    e = check_traffic(trace, base_output, positions, t0, t1, max_width, what)
    print("%s: %d boxes, %d lines (%d clipped), %d traffic edges, as brute force"
          % (what, n, m, clipped, e))
    results[what] = dict(boxes=n, lines=m, clipped=clipped, edges=e,
                         positions=[list(map(float, positions[l])) for l in range(trace.count)])
    return filt, positions, base_output


def synthesize(name, *options):
    directory = os.path.join(args.output, name)
    if rank == 0:
        mt.synthesize(args, directory, "--clusters", 2, "--nodes-per-cluster", 2, "--ranks-per-node", 2,
                      "--iterations", 12, "--perturbation", "slow-node", "--perturb-target", 1,
                      *options)
    controller.Barrier()
    reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
    reader.UpdatePipeline()
    return reader, Trace(reader)


def window(trace, a, b):
    """A window of the trace from fraction a to b of its length, the same
    on every rank."""
    from vtkmodules.vtkCommonCore import vtkDoubleArray
    value = vtkDoubleArray()
    value.SetNumberOfTuples(1)
    value.SetValue(0, trace.end_time if rank == 0 else 0.0)
    controller.Broadcast(value, 0)
    end = value.GetValue(0)
    return a * end, b * end


# --- scenes on the communication-pattern base --------------------------------

for threads, pattern in ((1, "stencil3d"), (2, "ring")):
    name = "%s-%dthread" % (pattern, threads)
    reader, trace = synthesize(name, "--threads-per-rank", threads, "--pattern", pattern)
    if MPI:
        total = trace.local_messages
        everyone = [0] * ranks
        from vtkmodules.vtkCommonCore import vtkIdTypeArray
        mine, all_ = vtkIdTypeArray(), vtkIdTypeArray()
        mine.InsertNextValue(total)
        controller.AllGather(mine, all_)
        if rank == 0:
            mt.check(all(all_.GetValue(r) < len(trace.sender) for r in range(ranks)),
                     "%s: a rank holds every message (%s of %d): nothing to merge"
                     % (name, [all_.GetValue(r) for r in range(ranks)], len(trace.sender)))
    t0, t1 = window(trace, 0.3, 0.55)
    run(trace, reader, name + " depth -1", t0, t1)
    run(trace, reader, name + " depth 1 scaled", t0, t1, scale=40.0, offset=0.1, box_size=0.02,
        depth=1, max_width=0.05)
    run(trace, reader, name + " depth 2", t0, t1, depth=2, box_size=0.01)
    # The whole trace: Scale 0 fits it into 1.5.
    whole = make_scene(reader)
    whole.UpdatePipeline()
    if rank == 0:
        top = guide_top(local(whole, GUIDES))
        mt.check(abs(top - (0.05 + 1.5)) < 1e-9, "%s: the whole trace reaches z = %.9g, not 1.55"
                 % (name, top))
        # Top tick below the window's end.
        for ticks in cell_points(local(whole, GUIDES)):
            mt.check(ticks[:, 2].min() >= -1e-12, "%s: a guide below the base" % name)
    Delete(whole)


# --- the network topology base ------------------------------------------------

def hosts_of(trace):
    """The node names (hosts) the processes ran on, by cluster."""
    clusters = collections.defaultdict(set)
    for path in trace.paths.values():
        clusters[path[1]].add(path[2])
    return {c: sorted(h) for c, h in sorted(clusters.items())}


def write_dot(trace, path, positions=False, bandwidth=None, extra=""):
    """A fat tree: a core switch, a switch per cluster, its nodes below.
    Returns {frozenset(link ends): (bandwidth, latency)} and the pos."""
    if rank != 0:
        controller.Barrier()
        return None, None
    lines, links, pos = ["graph network {"], {}, {}
    clusters = hosts_of(trace)
    pos["core"] = (10.0, 40.0)
    for c, (cluster, hosts) in enumerate(clusters.items()):
        switch = "sw-%d" % c
        pos[switch] = (c * 30.0, 20.0)
        links[frozenset(("core", switch))] = (1e10 * (c + 1), 2.5e-7)
        for h, host in enumerate(hosts):
            pos[host] = (c * 30.0 + h * 12.0, 0.0)
            links[frozenset((switch, host))] = (1.25e9 * (h + 1), 1e-6 * (c + 1))
    for node in pos:
        attributes = ['kind="switch"'] if node.startswith("sw") or node == "core" else (
            ['kind="compute"'] if positions else [])
        if positions:
            attributes.append('pos="%g,%g"' % pos[node])
        lines.append('  "%s" [%s];' % (node, ", ".join(attributes)))
    for (a, b), (bw, lat) in zip([tuple(sorted(l)) for l in links], links.values()):
        lines.append('  "%s" -- "%s" [bandwidth="%s", latency="%s"];'
                     % (a, b, bandwidth if bandwidth is not None else repr(bw), repr(lat)))
    lines.append(extra + "}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    controller.Barrier()
    return links, pos


def normalised(pos):
    xs = np.array([p[0] for p in pos.values()])
    ys = np.array([p[1] for p in pos.values()])
    w, h = np.ptp(xs), np.ptp(ys)
    extent = max(w, h)
    return {n: ((x - xs.min() + (extent - w) / 2) / extent, (y - ys.min() + (extent - h) / 2) / extent)
            for n, (x, y) in pos.items()}


def check_network(trace, base, positions, links, pos, host_kind, what):
    squares, found = {}, {}
    for kind, name, pts, i in base_cells(base):
        if kind == "link":
            a, b = name.split(" -- ")
            found[frozenset((a, b))] = i
        elif kind in (host_kind, "switch"):
            squares[name] = (kind, pts[:, :2].min(axis=0), pts[:, :2].max(axis=0))
    mt.check(sorted(squares) == sorted(pos), "%s: squares for %s, nodes %s" % (what, sorted(squares), sorted(pos)))
    bandwidth, latency = cell_array(base, "Bandwidth"), cell_array(base, "Latency")
    mt.check(sorted(map(sorted, found)) == sorted(map(sorted, links)),
             "%s: links %s, the file has %s" % (what, sorted(map(sorted, found)), sorted(map(sorted, links))))
    for link, (bw, lat) in links.items():
        i = found[link]
        mt.check(abs(bandwidth[i] - bw) <= 1e-9 * bw and abs(latency[i] - lat) <= 1e-15,
                 "%s: link %s has bandwidth %g and latency %g, the file %g and %g"
                 % (what, sorted(link), bandwidth[i], latency[i], bw, lat))
    for location, path in trace.paths.items():
        kind, lo, hi = squares[path[2]]
        mt.check(kind == host_kind, "%s: host %s drawn as %r, expected %r" % (what, path[2], kind, host_kind))
        p = positions[location]
        mt.check(np.all(p > lo) and np.all(p < hi), "%s: location %d (%s) stands at %s, outside its "
                 "host's square %s-%s" % (what, location, "/".join(path), p, lo, hi))
    for node, (kind, lo, hi) in squares.items():
        for other, (_, lo2, hi2) in squares.items():
            if other < node:
                overlap = np.all(np.minimum(hi, hi2) > np.maximum(lo, lo2))
                mt.check(not overlap, "%s: the squares of %s and %s overlap" % (what, node, other))
    return squares


reader, trace = synthesize("network", "--threads-per-rank", 2, "--pattern", "ring")
t0, t1 = window(trace, 0.2, 0.7)
dot = os.path.join(args.output, "network.dot")
links, pos = write_dot(trace, dot)
net, positions, base = run(trace, reader, "network topology", t0, t1, base=1, TopologyFile=dot)
if rank == 0:
    check_network(trace, base, positions, links, pos, "host", "network topology")
    print("network topology: every process inside its host, links as in the file")
placed = os.path.join(args.output, "network-pos.dot")
links, pos = write_dot(trace, placed, positions=True)
net.TopologyFile = placed
net.UpdatePipeline()
if rank == 0:
    base = local(net, BASE)
    positions = process_positions(trace, base, "network pos")
    squares = check_network(trace, base, positions, links, pos, "compute", "network pos")
    for node, (x, y) in normalised(pos).items():
        kind, lo, hi = squares[node]
        mt.check(np.allclose((lo + hi) / 2, (x, y), atol=1e-9), "network pos: %s centred at %s, "
                 "its pos normalised is %s" % (node, (lo + hi) / 2, (x, y)))
    print("network topology with pos: the nodes where the file puts them")
net.ShowCommunicationGraph = 0
net.UpdatePipeline()
if rank == 0:
    kinds = collections.Counter(k for k, _, _, _ in base_cells(local(net, BASE)))
    mt.check(kinds["traffic"] == 0 and kinds["link"] == len(links),
             "ShowCommunicationGraph off: %s" % dict(kinds))


# --- the hierarchy treemap base -----------------------------------------------

def check_treemap(trace, base, positions, sizes, what):
    rects = {}
    for kind, name, pts, _ in base_cells(base):
        if kind == "treemap":
            mt.check(name not in rects, "%s: two rectangles named %r" % (what, name))
            rects[name] = (pts[:, :2].min(axis=0), pts[:, :2].max(axis=0))
    for location, path in trace.paths.items():
        machine = path[2]
        mt.check(machine in rects, "%s: no rectangle for machine %s" % (what, machine))
        for name in path[:-1]:
            if name in rects:
                lo, hi = rects[name]
                p = positions[location]
                mt.check(np.all(p > lo) and np.all(p < hi), "%s: location %d at %s is outside %s's "
                         "rectangle %s-%s" % (what, location, p, name, lo, hi))
    # Area per machine and per cluster: siblings share their parent's inner
    # rectangle in proportion to their size.
    area = {n: np.prod(hi - lo) for n, (lo, hi) in rects.items()}
    size = collections.defaultdict(float)
    for location, path in trace.paths.items():
        size[path[1]] += sizes[location]
        size[path[2]] += sizes[location]
    for level in (1, 2):
        groups = collections.defaultdict(set)
        for path in trace.paths.values():
            groups[path[level - 1]].add(path[level])
        for parent, children in groups.items():
            children = sorted(children)
            ref = children[0]
            for c in children[1:]:
                mt.check(abs(area[c] / area[ref] - size[c] / size[ref]) < 1e-6 * size[c] / size[ref],
                         "%s: %s / %s areas %.9g, sizes %.9g" % (what, c, ref, area[c] / area[ref],
                                                                 size[c] / size[ref]))
    machines = sorted({p[2] for p in trace.paths.values()})
    a = np.array([area[m] for m in machines])
    s = np.array([size[m] for m in machines])
    mt.check(np.allclose(a / a.sum(), s / s.sum(), atol=0.02),
             "%s: machine areas %s, sizes %s" % (what, a / a.sum(), s / s.sum()))
    return machines, s


reader, trace = synthesize("treemap", "--threads-per-rank", 2, "--pattern", "stencil3d")
t0, t1 = window(trace, 0.0, 0.25)  # processes start apart: their state times differ
tm, positions, base = run(trace, reader, "treemap", t0, t1, base=2)
if rank == 0:
    check_treemap(trace, base, positions, [1.0] * trace.count, "treemap by count")
tm.TreemapSize = 1
tm.UpdatePipeline()
if rank == 0:
    base = local(tm, BASE)
    positions = process_positions(trace, base, "treemap by time")
    covered = [trace.covered(l, t0, t1) for l in range(trace.count)]
    machines, s = check_treemap(trace, base, positions, covered, "treemap by time")
    mt.check(s.max() > 1.001 * s.min(), "treemap by time: the machines' times %s are equal: a "
             "useless test" % s)
    print("treemap: each process inside its machine, areas by state time %s" % np.round(s / s.sum(), 4))


# --- errors: clear, naming the problem, and the pipeline recovers ---------------

def expect_error(proxy, *fragments):
    capture = mt.ErrorCapture()
    try:
        proxy.UpdatePipeline()
    finally:
        capture.close()
    text = capture.text()
    for fragment in fragments:
        mt.check(fragment in text, "expected an error mentioning %r, got:\n%s" % (fragment, text))
    line = next(l for l in text.splitlines() if fragments[0] in l)
    print("clear error for %s: %s" % (fragments[0], line.strip()[:220]))


def expect_working(proxy, what):
    capture = mt.ErrorCapture()
    try:
        proxy.UpdatePipeline()
    finally:
        capture.close()
    mt.check("ERROR" not in capture.text(), "%s: still failing once fixed:\n%s" % (what, capture.text()))
    states = local(proxy, STATES).GetNumberOfCells()
    base = local(proxy, BASE).GetNumberOfCells()
    mt.check(states > 0 and base > 0, "%s: after the fix %d box faces and %d base cells"
             % (what, states, base))


if not MPI:
    good = os.path.join(args.output, "network.dot")
    filt = make_scene(reader, BaseConfiguration=1, TopologyFile="")
    expect_error(filt, "TopologyFile")
    filt.TopologyFile = good
    expect_working(filt, "empty TopologyFile")
    missing = os.path.join(args.output, "no-such-network.dot")
    filt.TopologyFile = missing
    expect_error(filt, missing)
    filt.TopologyFile = good
    expect_working(filt, "missing TopologyFile")

    def broken(name, text):
        path = os.path.join(args.output, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    hosts = sorted({p[2] for p in trace.paths.values()})
    cases = [
        ("empty.dot", "", []),
        ("syntax.dot", 'graph network { "%s" -- ; }\n' % hosts[0], []),
        ("unbalanced.dot", 'graph network { "%s" -- "%s" [bandwidth="1e9"\n' % (hosts[0], hosts[1]), []),
        ("strangers.dot", 'graph network { "alpha" -- "beta"; }\n', ["no host", "Master thread", "MPI Rank 0"]),
        ("bandwidth.dot", 'graph network { %s }\n' % " ".join(
            '"%s" -- "core" [bandwidth="%s"];' % (h, "fast" if i == 1 else "1e9")
            for i, h in enumerate(hosts)), ["bandwidth", "fast"]),
        ("latency.dot", 'graph network { %s }\n' % " ".join(
            '"%s" -- "core" [latency="%s"];' % (h, "1e-6 s" if i == 0 else "1e-6")
            for i, h in enumerate(hosts)), ["latency"]),
        ("pos.dot", 'graph network { %s }\n' % " ".join(
            '"%s" [pos="%s"];' % (h, "1,2" if i else "1;2") for i, h in enumerate(hosts)), ["pos"]),
    ]
    for name, text, fragments in cases:
        path = broken(name, text)
        filt.TopologyFile = path
        expect_error(filt, path, *fragments)
        filt.TopologyFile = good
        expect_working(filt, name)

    bad = [("BaseConfiguration", 5, ["BaseConfiguration", "5"]),
           ("BaseConfiguration", -1, ["BaseConfiguration", "-1"]),
           ("TreemapSize", 3, ["TreemapSize", "3"]),
           ("Scale", -1.0, ["Scale", "-1"]),
           ("Scale", float("inf"), ["Scale", "inf"]),
           ("BoxSize", -1.0, ["BoxSize", "-1"]),
           ("Offset", float("nan"), ["Offset", "nan"]),
           ("MaxEdgeWidth", float("nan"), ["MaxEdgeWidth", "nan"]),
           ("MaxEdgeWidth", -0.5, ["MaxEdgeWidth", "-0.5"]),
           ("Depth", -2, ["Depth", "-2"]),
           ("Ticks", 0, ["Ticks", "0"]),
           ("TimeWindow", [0.004, 0.001], ["TimeWindow", "0.004", "0.001"]),
           ("TimeWindow", [-1.0, -2.0], ["TimeWindow"])]
    filt.BaseConfiguration = 2
    expect_working(filt, "treemap")
    for key, value, fragments in bad:
        # The numbers, not the enumerations' texts: setting a text back after
        # an out-of-range number does not reach the filter in ParaView 5.11.
        prop = filt.SMProxy.GetProperty(key)
        fixed = [prop.GetElement(i) for i in range(prop.GetNumberOfElements())]
        fixed = fixed if len(fixed) > 1 else fixed[0]
        setattr(filt, key, value)
        expect_error(filt, *fragments)
        setattr(filt, key, fixed)
        expect_working(filt, key)

    # Inputs without States or Hierarchy.
    lacking = TopologyTimeScene(Input=[OutputPort(reader, 1), OutputPort(reader, 5)])
    expect_error(lacking, "States", "Hierarchy")
    lacking.Input = [OutputPort(reader, i) for i in (0, 4)]
    expect_working(lacking, "States and Hierarchy given")
    print("errors: clear, and the pipeline works again once fixed")
if not MPI:
    with open(SERIAL_RESULTS, "w") as f:
        json.dump(results, f)
elif rank == 0:
    mt.check(os.path.isfile(SERIAL_RESULTS), "no serial results %s: run Python.TopologyScene first"
             % SERIAL_RESULTS)
    with open(SERIAL_RESULTS) as f:
        serial = json.load(f)
    mt.check(sorted(serial) == sorted(results), "scenes %s, serially %s" % (sorted(results), sorted(serial)))
    for what, got in results.items():
        for key in ("boxes", "lines", "clipped", "edges"):
            mt.check(got[key] == serial[what][key], "%s: %d %s on 2 ranks, %d serially"
                     % (what, got[key], key, serial[what][key]))
        mt.check(np.allclose(got["positions"], serial[what]["positions"], atol=1e-9),
                 "%s: the 2 ranks place the processes elsewhere than the serial run" % what)
    print("2 ranks draw what the serial run draws (%d scenes)" % len(results))
print("rank %d: ok" % rank)
