"""What the type-colour tests (TestTypeColors.py, TestTypeColorsLoad.py)
read from the views: the colours every Macroscope display drew, per type
name, from the layers its representation computed (marks, legend swatches
and their labels)."""
import math
import os

import macroscope_testing as mt

# Layers (layout output ports) of each representation type: marks, labels
# and legend (None: the view has no legend).
LAYERS = {
    "Timeline": (0, 4, 5),
    "Temporal Overview": (0, 3, 4),
    "Spatiotemporal Overview": (0, 3, 4),
    "Treemap": (0, 3, 4),
    "Topology-Time 3D": (0, 3, None),
    "Logical Timeline": (0, 4, 5),
}
LEGEND_LABEL = 4  # MacroscopeChart::LEGEND_LABEL
# What a mark that stands for no single type is called (merged layers,
# treemap frames and empty nodes).
NOT_A_TYPE = {"", "visually aggregated", "no value"}


def shared_dir(args):
    """Where the saving test leaves its state for the loading one."""
    return os.path.join(os.path.dirname(os.path.abspath(args.output)), "TypeColorsShared")


def rtype(display):
    """The representation type a display shows ("Timeline"...)."""
    value = display.GetPropertyValue("Representation")
    return value if isinstance(value, str) else value[0]


def layer(display, port):
    """The layout output `port` the display's active representation drew."""
    composite = display.GetClientSideObject()
    active = composite.GetActiveRepresentation()
    mt.check(active is not None, "the display has no active representation")
    data = active.GetRenderedDataObject(port)
    mt.check(data is not None, "the %s display has no layer %d" % (rtype(display), port))
    return data


def rgb(colors, i):
    return tuple(int(colors.GetComponent(i, c)) for c in range(3))


def mark_names(marks, type_names):
    """The type name of every cell of a marks layer (None for a cell that
    is not one type's): the cells' TypeName, else their Type looked up in
    the layer's TypeNames field data or in `type_names` (a reader's Types)."""
    cells = marks.GetCellData()
    named = cells.GetAbstractArray("TypeName")
    if named is not None:
        return [None if named.GetValue(i) in NOT_A_TYPE else named.GetValue(i)
                for i in range(marks.GetNumberOfCells())]
    ids = cells.GetArray("Type")
    mt.check(ids is not None, "the marks carry neither TypeName nor Type")
    field = marks.GetFieldData().GetAbstractArray("TypeNames")
    names = [field.GetValue(k) for k in range(field.GetNumberOfValues())] if field else type_names
    return [names[ids.GetValue(i)] if 0 <= ids.GetValue(i) < len(names) else None
            for i in range(marks.GetNumberOfCells())]


def blend(color, share):
    """`color` at opacity `share` over white, as the Spatiotemporal Overview
    draws a mark whose mode type covers that share of it (1: `color`)."""
    return tuple(int(math.floor(255.0 - share * (255.0 - c) + 0.5)) for c in color)


def mark_colors(display, type_names):
    """[(type name or None, colour)] per cell of the display's marks: the
    colour is (r, g, b), or ("blend", (r, g, b), share) for a Spatiotemporal
    Overview mark, drawn as its mode type's colour at the opacity of the
    mode's share (compare with same_colour)."""
    marks = layer(display, LAYERS[rtype(display)][0])
    colors = marks.GetCellData().GetArray("Color")
    mt.check(colors is not None and marks.GetNumberOfCells() > 0,
             "the %s display drew no coloured marks" % rtype(display))
    if rtype(display) == "Logical Timeline":  # coloured by a metric, not by type
        names = [None] * marks.GetNumberOfCells()
    else:
        names = mark_names(marks, type_names)
    shares = marks.GetCellData().GetArray("ModeProportion")
    # The Timeline in its default Mode style shades an aggregate's mode colour
    # towards grey by the share of the mark the mode does not fill.
    flags = marks.GetCellData().GetArray("Aggregate") \
        if rtype(display) == "Timeline" and display.AggregateStyle == "Mode" else None
    out = []
    for i in range(marks.GetNumberOfCells()):
        drawn = rgb(colors, i)
        if shares is not None and names[i] is not None:
            drawn = ("blend", drawn, shares.GetValue(i))
        elif flags is not None and flags.GetValue(i) != 0 and names[i] is not None:
            drawn = ("shade", drawn)
        out.append((names[i], drawn))
    return out


# The Timeline's Mode shading (vtkMacroscopeTimelineLayout.cxx, ModeShade):
# weight w in [0.35, 1] of the colour, the rest this grey.
MODE_GREY = (232, 232, 232)
MODE_MIN_WEIGHT = 0.35


def shaded_from(drawn, color):
    """Whether `drawn` is `color` shaded towards MODE_GREY by one weight."""
    channels = [c for c in range(3) if color[c] != MODE_GREY[c]]
    if not channels:
        return tuple(drawn) == tuple(color)
    # Least squares: a channel where colour and grey are close says little.
    w = sum((drawn[c] - MODE_GREY[c]) * (color[c] - MODE_GREY[c]) for c in channels) / \
        sum((color[c] - MODE_GREY[c]) ** 2 for c in channels)
    if not MODE_MIN_WEIGHT - 0.02 <= w <= 1.0 + 0.02:
        return False
    return all(abs(drawn[c] - (w * color[c] + (1 - w) * MODE_GREY[c])) <= 1.5 for c in range(3))


def same_colour(drawn, color):
    """Whether a mark_colors colour is `color` (blended or not)."""
    if isinstance(drawn, tuple) and len(drawn) == 3 and drawn and drawn[0] == "blend":
        return drawn[1] == blend(color, drawn[2])
    if isinstance(drawn, tuple) and len(drawn) == 2 and drawn[0] == "shade":
        return shaded_from(drawn[1], color)
    return drawn == color


def legend_colors(display):
    """{legend text: (r, g, b)}: each legend swatch with the legend label
    beside it (same height)."""
    _, labels_port, legend_port = LAYERS[rtype(display)]
    legend = layer(display, legend_port)
    labels = layer(display, labels_port)
    text = labels.GetPointData().GetAbstractArray("Label")
    kinds = labels.GetPointData().GetArray("LabelKind")
    rows = {}
    for i in range(labels.GetNumberOfPoints()):
        if kinds.GetValue(i) == LEGEND_LABEL:
            rows[round(labels.GetPoint(i)[1], 3)] = text.GetValue(i)
    colors = legend.GetCellData().GetArray("Color")
    out = {}
    for i in range(legend.GetNumberOfCells()):
        bounds = legend.GetCell(i).GetBounds()
        name = rows.get(round(0.5 * (bounds[2] + bounds[3]), 3))
        if name is not None:
            out[name] = rgb(colors, i)
    mt.check(out, "the %s legend pairs no swatch with a label" % rtype(display))
    return out


def hex_rgb(text):
    return tuple(int(text[k:k + 2], 16) for k in (1, 3, 5))


def check_type_drawn(display, type_names, name, color, where):
    """Every mark and legend swatch of type `name` in `display` has `color`."""
    cells = [c for n, c in mark_colors(display, type_names) if n == name]
    mt.check(cells, "%s: the %s view draws no %s mark" % (where, rtype(display), name))
    wrong = [c for c in cells if not same_colour(c, color)]
    mt.check(not wrong, "%s: %d of the %d %s marks of the %s view are not %s (e.g. %s)"
             % (where, len(wrong), len(cells), name, rtype(display), color, wrong[:1]))
    if LAYERS[rtype(display)][2] is not None and \
            rtype(display) != "Logical Timeline":
        legend = legend_colors(display)
        mt.check(legend.get(name) == color, "%s: the %s legend shows %s in %s, not %s"
                 % (where, rtype(display), name, legend.get(name), color))
