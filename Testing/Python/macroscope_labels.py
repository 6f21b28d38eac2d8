"""The boxes of a chart's text labels, measured again here with VTK's text
renderer (docs/labels.md), for the tests that check that no two labels
overlap and that all lie inside the view: TestChartLabels.py (pvbatch) and
TestGUIChartView.py (the ParaView GUI)."""
from vtkmodules.vtkRenderingCore import vtkTextProperty, vtkTextRenderer
import vtkmodules.vtkRenderingFreeType  # noqa: F401 (the text renderer's engine)

# The label kinds of the Labels output (MacroscopeChart.h).
TICK, ROW, GROUP, TITLE, LEGEND, NODE = range(6)


def measure(text, kind, size):
    """Width and height in pixels of `text` drawn as a label of `kind` at
    `size` points, 72 DPI (as the layouts measure)."""
    renderer = vtkTextRenderer.GetInstance()
    if renderer is None:
        raise RuntimeError("no text renderer")
    prop = vtkTextProperty()
    prop.SetFontSize(size)
    prop.SetBold(kind == GROUP)
    prop.SetItalic(kind == TITLE)
    box = [0, 0, 0, 0]
    if not renderer.GetBoundingBox(prop, text, box, 72):
        raise RuntimeError("cannot measure %r" % text)
    return box[1] - box[0] + 1, box[3] - box[2] + 1


def text_box(x, y, text, kind, size):
    """The box the representation draws `text` in: its justification per kind
    (vtkMacroscopeChartRepresentation)."""
    w, h = measure(text, kind, size)
    x0 = x - w if kind == ROW else x - 0.5 * w if kind in (TICK, TITLE) else x
    y0 = y - 0.5 * h if kind in (ROW, LEGEND) else y - h
    return (x0, y0, x0 + w, y0 + h)


def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def labels_of(active):
    """The Labels output a chart representation drew (the rendered data
    object with a Label point array), None if it drew none."""
    for port in range(8):
        data = active.GetRenderedDataObject(port)
        if (data is not None and data.IsA("vtkPolyData")
                and data.GetPointData().GetAbstractArray("Label") is not None):
            return data
    return None


def boxes(labels, size=None):
    """[(box, text, kind)] of every label; `size` defaults to the font the
    layout measured with (the LabelFont field data)."""
    if size is None:
        size = int(labels.GetFieldData().GetArray("LabelFont").GetComponent(0, 0))
    text = labels.GetPointData().GetAbstractArray("Label")
    kinds = labels.GetPointData().GetArray("LabelKind")
    found = []
    for i in range(labels.GetNumberOfPoints()):
        x, y, _ = labels.GetPoint(i)
        t, k = text.GetValue(i), int(kinds.GetValue(i))
        found.append((text_box(x, y, t, k, size), t, k))
    return found


def problems(found, bounds, tolerance=0.0):
    """What is wrong with the boxes `found` in the region `bounds` (x0, x1,
    y0, y1): a label leaving it, two labels overlapping."""
    wrong = []
    for box, t, k in found:
        if not (box[0] >= bounds[0] - tolerance and box[2] <= bounds[1] + tolerance and
                box[1] >= bounds[2] - tolerance and box[3] <= bounds[3] + tolerance):
            wrong.append("label %r (kind %d) at %r leaves the region %r" % (t, k, box, bounds[:4]))
    for i in range(len(found)):
        for j in range(i + 1, len(found)):
            if overlap(found[i][0], found[j][0]):
                wrong.append("labels %r and %r overlap (%r, %r)"
                             % (found[i][1], found[j][1], found[i][0], found[j][0]))
    return wrong
