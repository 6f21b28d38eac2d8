"""Treemap Layout and the Treemap display on hand-made Treemap tables.

Geometry, recomputed here from the table: the root fills the view; every
node lies inside its parent's rectangle minus the margins and header; the
children of a node share that inner rectangle in proportion to their sizes
(1e-9); a node of the cut is tiled by its types in proportion to its
values; zero sizes draw nothing; a node with a size but no value is one grey
quad; aggregates (several resources) get a diagonal; names appear only
where they fit. Slice-and-dice gives worse aspect ratios than squarified on
a random table. Picking: every mark carries its row in vtkOriginalCellIds,
and a surface selection at the centre of a node in a rendered Treemap
display selects that node's row. Bad properties and tables are clear
errors."""
import random

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())
# Programmable Source scripts run in this interpreter and import numpy's min,
# max and sum over the built-ins: keep the built-ins under other names.
from builtins import max as bmax, min as bmin, sum as bsum

MARKS, MARKING, GUIDES, LABELS, LEGEND = range(5)
WIDTH, HEIGHT = 800, 500
MARGIN, HEADER = 4.0, 18.0

# A hand-made treemap: name, parent row, depth, cut, resources, values per
# type (two types); inner nodes' sizes and values are their children's sums.
HAND = [
    ("machine", -1, 0, 0, 14, None),
    ("cluster-0", 0, 1, 0, 6, None),
    ("node-0", 1, 2, 1, 4, (3.0, 1.0)),
    ("node-1", 1, 2, 1, 1, (1.0, 1.0)),
    ("node-idle", 1, 2, 1, 1, (0.0, 0.0)),   # size by resources: 1, no value
    ("node-zero", 1, 2, 1, 0, (0.0, 0.0)),   # size 0: not drawn
    ("cluster-1", 0, 1, 1, 8, (0.5, 5.5)),
    ("n", 0, 1, 1, 1, (0.004, 0.0)),         # too small for its name
]
# Sizes: the values' total, except node-idle (sized by its resource).
HAND_SIZES = [None, None, 4.0, 2.0, 1.0, 0.0, 6.0, 0.004]


TABLE_SCRIPT = """
def _build(out, rows, sizes):
    from vtkmodules.vtkCommonCore import vtkDoubleArray, vtkIntArray, vtkStringArray, vtkUnsignedCharArray
    def column(kind, name, comps=1):
        a = kind(); a.SetName(name); a.SetNumberOfComponents(comps); out.AddColumn(a); return a
    def path_of(k):
        names = []
        for _ in range(len(rows)):  # bounded: a test table may hold a cycle
            if rows[k][1] < 0:
                break
            names.append(rows[k][0]); k = rows[k][1]
        return "/".join(reversed(names))
    name = column(vtkStringArray, "Name"); path = column(vtkStringArray, "Path")
    parent = column(vtkIntArray, "Parent"); depth = column(vtkIntArray, "Depth")
    cut = column(vtkIntArray, "Cut"); res = column(vtkIntArray, "Resources")
    size = column(vtkDoubleArray, "Size"); values = column(vtkDoubleArray, "Values", 2)
    values.SetComponentName(0, "Compute"); values.SetComponentName(1, "MPI_Wait")
    # Inner rows sum their children: parents come first, so accumulate backwards.
    total = [list(r[5]) if r[5] else [0.0, 0.0] for r in rows]
    s = [x if x is not None else 0.0 for x in sizes]
    for k in range(len(rows) - 1, -1, -1):
        p = rows[k][1]
        if 0 <= p < k:
            total[p] = [total[p][0] + total[k][0], total[p][1] + total[k][1]]
            s[p] += s[k]
    for k, r in enumerate(rows):
        name.InsertNextValue(r[0]); path.InsertNextValue(path_of(k))
        parent.InsertNextValue(r[1]); depth.InsertNextValue(r[2]); cut.InsertNextValue(r[3])
        res.InsertNextValue(r[4]); size.InsertNextValue(s[k]); values.InsertNextTuple2(*total[k])
    names = vtkStringArray(); names.SetName("TypeName")
    names.InsertNextValue("Compute"); names.InsertNextValue("MPI_Wait")
    out.GetFieldData().AddArray(names)
    colors = vtkUnsignedCharArray(); colors.SetName("TypeColor"); colors.SetNumberOfComponents(3)
    colors.InsertNextTuple3(40, 160, 60); colors.InsertNextTuple3(200, 40, 40)
    out.GetFieldData().AddArray(colors)
    by = vtkStringArray(); by.SetName("SizeBy"); by.InsertNextValue("State duration")
    out.GetFieldData().AddArray(by)
_build(self.GetTableOutput(), %r, %r)
"""


def table_script(rows, sizes):
    """A Programmable Source script that builds a Treemap table."""
    return TABLE_SCRIPT % (rows, sizes)


def make_source(rows, sizes):
    return ProgrammableSource(OutputDataSetType="vtkTable", Script=table_script(rows, sizes))


def rects_of(marks, rows):
    """Per row: its bounding rectangle in the Marks (frames for inner rows,
    the union of the type cells for the cut), the type cells' areas, and
    the cell count; checks vtkOriginalCellIds == Row."""
    data = marks.GetCellData()
    row_ids = data.GetArray("Row")
    pick_ids = data.GetArray("vtkOriginalCellIds")
    types = data.GetArray("Type")
    mt.check(row_ids is not None and pick_ids is not None and types is not None,
             "Marks misses Row, vtkOriginalCellIds or Type")
    color = data.GetArray("Color")
    mt.check(color is not None and color.GetNumberOfComponents() == 4, "Marks has no RGBA Color")
    boxes, areas = {}, {}
    for i in range(marks.GetNumberOfCells()):
        row = row_ids.GetValue(i)
        mt.check(pick_ids.GetValue(i) == row,
                 "cell %d: vtkOriginalCellIds %d is not its row %d" % (i, pick_ids.GetValue(i), row))
        x0, x1, y0, y1, _, _ = marks.GetCell(i).GetBounds()
        b = boxes.get(row)
        boxes[row] = (x0, y0, x1, y1) if b is None else (
            bmin(b[0], x0), bmin(b[1], y0), bmax(b[2], x1), bmax(b[3], y1))
        areas.setdefault(row, {})[types.GetValue(i)] = (x1 - x0) * (y1 - y0)
    return boxes, areas


def inner_box(box):
    """A parent's rectangle minus margins and header (each limited to a
    quarter of the side, as documented)."""
    x0, y0, x1, y1 = box
    m = bmin(MARGIN, 0.25 * (x1 - x0), 0.25 * (y1 - y0))
    h = bmin(HEADER, 0.25 * (y1 - y0 - 2 * m))
    return (x0 + m, y0 + m, x1 - m, y1 - m - h)


def box_area(box):
    return (box[2] - box[0]) * (box[3] - box[1])


def check_geometry(table, marks, where, layout):
    # The plot: what the title and legend leave of the view (docs/labels.md).
    PW, PH = mt.plot_size(layout, LABELS)
    rows = table.GetNumberOfRows()
    parent = mt.column(table, "Parent")
    size = mt.column(table, "Size")
    cut = mt.column(table, "Cut")
    values = table.GetColumnByName("Values")
    boxes, areas = rects_of(marks, rows)
    tol = 1e-9 * PW * PH
    mt.check(PW >= 0.5 * WIDTH and PH >= 0.5 * HEIGHT, "%s: a %gx%g plot in a %dx%d view"
             % (where, PW, PH, WIDTH, HEIGHT))
    mt.check(abs(box_area(boxes[0]) - PW * PH) <= tol and boxes[0][:2] == (0.0, 0.0),
             "%s: the root %r does not fill the %gx%g plot" % (where, boxes[0], PW, PH))
    for r in range(rows):
        if size[r] <= 0:
            mt.check(r not in boxes, "%s: row %d has size 0 but is drawn" % (where, r))
            continue
        mt.check(r in boxes, "%s: row %d (size %g) is not drawn" % (where, r, size[r]))
        if parent[r] >= 0:
            room = inner_box(boxes[parent[r]])
            b = boxes[r]
            mt.check(b[0] >= room[0] - 1e-9 and b[1] >= room[1] - 1e-9 and b[2] <= room[2] + 1e-9
                     and b[3] <= room[3] + 1e-9,
                     "%s: row %d %r is not inside its parent's inner rectangle %r"
                     % (where, r, b, room))
            siblings = bsum(size[k] for k in range(rows) if parent[k] == parent[r])
            expected = box_area(room) * size[r] / siblings
            mt.check(abs(box_area(b) - expected) <= 1e-9 * box_area(room),
                     "%s: row %d has area %r, expected %r (size %g of %g)"
                     % (where, r, box_area(b), expected, size[r], siblings))
        if cut[r]:
            total = bsum(values.GetComponent(r, u) for u in range(2))
            if total > 0:
                for u in range(2):
                    share = values.GetComponent(r, u) / total
                    got = areas[r].get(u, 0.0)
                    mt.check(abs(got - share * box_area(boxes[r])) <= 1e-9 * box_area(boxes[r]),
                             "%s: row %d type %d covers %r, expected %r"
                             % (where, r, u, got, share * box_area(boxes[r])))
            else:
                mt.check(list(areas[r]) == [-1], "%s: row %d has no value: one grey quad "
                         "expected, got types %r" % (where, r, list(areas[r])))
    return boxes


def labels_of(layout):
    labels = servermanager.Fetch(layout, idx=LABELS)
    text = labels.GetPointData().GetAbstractArray("Label")
    return [text.GetValue(i) for i in range(labels.GetNumberOfPoints())]


# 1. The hand-made table.
hand = make_source(HAND, HAND_SIZES)
layout = TreemapLayout(Input=hand, ViewSize=[WIDTH, HEIGHT], Margin=MARGIN, Header=HEADER)
layout.UpdatePipeline()
table = servermanager.Fetch(hand)
boxes = check_geometry(table, servermanager.Fetch(layout, idx=MARKS), "hand-made", layout)
marking = servermanager.Fetch(layout, idx=MARKING)
# Diagonals: node-0 (4 resources), cluster-1 (8), and the legend's swatch.
mt.check(marking.GetNumberOfCells() == 3,
         "expected 3 aggregate diagonals (node-0, cluster-1, legend), got %d"
         % marking.GetNumberOfCells())
names = labels_of(layout)
for shown in ("machine", "cluster-0", "node-0", "node-1", "cluster-1"):
    mt.check(shown in names, "the name %r fits its rectangle but is not drawn: %r" % (shown, names))
mt.check("n" not in names and "node-zero" not in names,
         "a name is drawn where it cannot fit: %r" % names)
mt.check(any(n.startswith("Area: State duration") for n in names), "no title in %r" % names)

# No margins nor header: the cut tiles the view, every area is the view's
# share of its size.
layout.Margin = 0
layout.Header = 0
layout.UpdatePipeline()
_, areas = rects_of(servermanager.Fetch(layout, idx=MARKS), table.GetNumberOfRows())
size = mt.column(table, "Size")
cut = mt.column(table, "Cut")
total = size[0]
PW, PH = mt.plot_size(layout, LABELS)
for r in range(table.GetNumberOfRows()):
    if cut[r] and size[r] > 0:
        got = bsum(areas[r].values())
        mt.check(abs(got - PW * PH * size[r] / total) <= 1e-9 * PW * PH,
                 "no margins: row %d covers %r, expected %r"
                 % (r, got, PW * PH * size[r] / total))
layout.Margin = MARGIN
layout.Header = HEADER

# 2. A random table: squarified against slice-and-dice.
random.seed(8)
RANDOM = [("root", -1, 0, 0, 0, None)]
RANDOM_SIZES = [None]
for c in range(6):
    RANDOM.append(("c%d" % c, 0, 1, 0, 0, None))
    RANDOM_SIZES.append(None)
    cluster = len(RANDOM) - 1
    for n in range(random.randint(3, 30)):
        v = (random.uniform(0, 5), random.uniform(0, 5))
        RANDOM.append(("c%dn%d" % (c, n), cluster, 2, 1, 1, v))
        RANDOM_SIZES.append(v[0] + v[1])
mixed = make_source(RANDOM, RANDOM_SIZES)
ratios = {}
for algorithm in ("Squarified", "Slice and Dice"):
    trial = TreemapLayout(Input=mixed, ViewSize=[WIDTH, HEIGHT], Margin=MARGIN, Header=HEADER,
                           Algorithm=algorithm)
    trial.UpdatePipeline()
    boxes = check_geometry(servermanager.Fetch(mixed), servermanager.Fetch(trial, idx=MARKS),
                           algorithm, trial)
    cut = mt.column(servermanager.Fetch(mixed), "Cut")
    aspects = [bmax(b[2] - b[0], b[3] - b[1]) / bmin(b[2] - b[0], b[3] - b[1])
               for r, b in boxes.items() if cut[r]]
    ratios[algorithm] = bsum(aspects) / len(aspects)
print("mean aspect ratio of the cut: %r" % ratios)
mt.check(ratios["Squarified"] < ratios["Slice and Dice"],
         "squarified is not squarer than slice-and-dice: %r" % ratios)

# 3. Bad properties and tables: clear errors, nothing drawn, then recovery.
def expect_error(proxy, fragment):
    """Updates `proxy` and checks that an error mentioning `fragment` came
    (VTK's messages and Python's output are captured meanwhile)."""
    capture = mt.ErrorCapture()
    try:
        proxy.UpdatePipeline()
    finally:
        capture.close()
    mt.check(fragment in capture.text(), "expected an error mentioning %r, got: %r"
             % (fragment, capture.text()))


for prop, value, restore, expected in (("Margin", -1.0, MARGIN, "Margin and Header"),
                                       ("Header", float("nan"), HEADER, "Margin and Header"),
                                       ("Algorithm", 7, "Squarified", "Algorithm must be"),
                                       ("LabelFontSize", 0, 12, "LabelFontSize")):
    layout.SetPropertyWithName(prop, value)
    expect_error(layout, expected)
    setattr(layout, prop, restore)
cyclic = ProgrammableSource(OutputDataSetType="vtkTable", Script=table_script(
    [("a", 1, 0, 0, 1, None), ("b", 0, 1, 1, 1, (1.0, 0.0))], [None, 1.0]))
expect_error(TreemapLayout(Input=cyclic), "cannot lay this table out")
plain = ProgrammableSource(OutputDataSetType="vtkTable", Script=(
    "from vtkmodules.vtkCommonCore import vtkDoubleArray\n"
    "x = vtkDoubleArray(); x.SetName('x'); x.InsertNextValue(1)\n"
    "self.GetTableOutput().AddColumn(x)\n"))
expect_error(TreemapLayout(Input=plain), "needs the Treemap output of Resource Treemap")
layout.UpdatePipeline()
check_geometry(table, servermanager.Fetch(layout, idx=MARKS), "after errors", layout)

# 4. The Treemap display, and picking a node in it.

view = CreateView("RenderView")
view.ViewSize = [WIDTH, HEIGHT]
view.OrientationAxesVisibility = 0
display = Show(hand, view, "MacroscopeTraceRepresentation")
display.SetRepresentationType("Treemap")
display.ViewSize = [WIDTH, HEIGHT]
display.Margin = MARGIN
display.Header = HEADER
view.CameraParallelProjection = 1
view.InteractionMode = "2D"
Render(view)
view.ResetCamera(True)
Render(view)
renderer = view.GetRenderer()
marks = servermanager.Fetch(layout, idx=MARKS)
boxes, _ = rects_of(marks, table.GetNumberOfRows())
names = [table.GetColumnByName("Name").GetValue(r) for r in range(table.GetNumberOfRows())]
for target in ("node-1", "cluster-1", "node-idle"):
    row = names.index(target)
    x0, y0, x1, y1 = boxes[row]
    renderer.SetWorldPoint(0.5 * (x0 + x1), 0.5 * (y0 + y1), 0.0, 1.0)
    renderer.WorldToDisplay()
    px, py, _ = renderer.GetDisplayPoint()
    ClearSelection(hand)
    SelectSurfaceCells(Rectangle=[int(px) - 1, int(py) - 1, int(px) + 1, int(py) + 1], View=view)
    picked = mt.selected_ids(hand)
    mt.check(picked == [row], "picking the centre of %s (row %d) selected rows %r"
             % (target, row, picked))
    print("picked %s: row %d" % (target, row))
