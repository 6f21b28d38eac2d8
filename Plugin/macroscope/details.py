"""Details on demand for scripts: what the mark under a pixel of a
Macroscope chart stands for, and ParaView's selection of its rows
(docs/details-on-demand.md).

The answer comes from where the chart was laid out (every rank of the data
server looks at its own marks, the one in front wins), through the
``MacroscopeMarkQuery`` proxy; its text is the GUI tooltip's.
"""
from collections import namedtuple

from paraview import servermanager

#: found, text, kind ("state", "aggregate", "message", "part",
#: "aggregate-part", "layer", "cell"), row_table ("States", "Messages",
#: "Input"), rows [(rank, row)...], rows_cut, chart (x, y in chart pixels)
Details = namedtuple("Details", "found text kind row_table rows rows_cut chart")


def _display_of(view, display):
    if display is not None:
        return display
    for rep in view.Representations:
        if rep.GetXMLName() == "MacroscopeTraceRepresentation" and rep.Visibility:
            return rep
    raise ValueError("details_at: the view shows no Macroscope chart")


def display_to_chart(view, x, y):
    """A pixel of `view` (origin at the bottom left, as VTK's display
    coordinates and SelectSurfaceCells' rectangles) to chart pixels: where
    the line of sight meets the chart's plane z = 0."""
    renderer = view.GetRenderer()
    ends = []
    for depth in (0.0, 1.0):
        renderer.SetDisplayPoint(x, y, depth)
        renderer.DisplayToWorld()
        point = renderer.GetWorldPoint()
        ends.append([point[i] / point[3] for i in range(3)])
    dz = ends[1][2] - ends[0][2]
    t = -ends[0][2] / dz if abs(dz) > 1e-12 else 0.0
    return (ends[0][0] + t * (ends[1][0] - ends[0][0]), ends[0][1] + t * (ends[1][1] - ends[0][1]))


def chart_to_display(view, x, y, z=0.0):
    """Chart pixels to the view's pixel (origin at the bottom left)."""
    renderer = view.GetRenderer()
    renderer.SetWorldPoint(x, y, z, 1.0)
    renderer.WorldToDisplay()
    point = renderer.GetDisplayPoint()
    return (point[0], point[1])


def details_at_chart(display, x, y):
    """The mark of `display` (a MacroscopeTraceRepresentation) under the
    chart point (x, y)."""
    query = servermanager.CreateProxy("misc", "MacroscopeMarkQuery")
    if query is None:
        raise RuntimeError("details_at: the Macroscope plugin is not loaded on the client")
    query.GetProperty("Point").SetElements2(float(x), float(y))
    query.GetProperty("RepresentationId").SetElement(0, display.SMProxy.GetGlobalID())
    query.UpdateVTKObjects()
    query.InvokeCommand("Query")
    query.UpdatePropertyInformation()

    def text(name):
        return query.GetProperty(name).GetElement(0)
    values = [int(v) for v in text("Rows").split()]
    rows = list(zip(values[0::2], values[1::2]))
    return Details(bool(query.GetProperty("Found").GetElement(0)), text("Text"), text("Kind"),
                   text("RowTable"), rows, bool(query.GetProperty("RowsCut").GetElement(0)),
                   (x, y))


def details_at(view, x, y, display=None):
    """What the mark under pixel (x, y) of `view` is (origin at the bottom
    left; render the view first). `display`: the chart asked (default: the
    first visible Macroscope chart of the view). Returns a Details."""
    chart = display_to_chart(view, x, y)
    return details_at_chart(_display_of(view, display), chart[0], chart[1])


def select_rows(display, details):
    """Selects, with ParaView's selection, the rows `details` stands for:
    the state or message rows of the trace reader, or the rows of the
    display's input; the spreadsheet then shows them. Returns the source
    proxy and port selected, or None when the mark has no row."""
    if not details.found or not details.rows:
        return None
    source = display.Input
    port = display.Input.Port if hasattr(display.Input, "Port") else 0
    if details.row_table == "Messages":
        port = 1
    elif details.row_table == "States":
        port = 0
    ids = []
    for rank, row in details.rows:
        ids += [rank, row]
    # As ParaView's own selections: an ID selection inside an
    # AppendSelections (what the GUI's selection manager and Find Data
    # panel expect; a bare ID selection crashed 5.11's Find Data panel).
    from paraview.modules.vtkRemotingViews import vtkSMSelectionHelper
    pxm = servermanager.ProxyManager()  # NewProxy hands Python its reference (VTK_NEWINSTANCE)
    selection = pxm.NewProxy("sources", "IDSelectionSource")
    selection.GetProperty("FieldType").SetElement(0, 6)  # vtkSelectionNode::ROW
    selection.GetProperty("IDs").SetNumberOfElements(len(ids))
    for i, value in enumerate(ids):
        selection.GetProperty("IDs").SetElement(i, value)
    selection.UpdateVTKObjects()
    append = vtkSMSelectionHelper.NewAppendSelectionsFromSelectionSource(selection)
    source.SMProxy.SetSelectionInput(port, append, 0)
    append.UnRegister(None)
    return source, port


def pick(view, x, y, display=None):
    """details_at, then select_rows: the picked mark's rows become ParaView's
    selection. Returns the Details."""
    display = _display_of(view, display)
    details = details_at(view, x, y, display)
    select_rows(display, details)
    return details
