"""Layout tabs for the views a script makes (docs/state-files.md).

A view that no layout holds is saved in a state file, but the GUI shows only
the views of its layout tabs: loading the state with ``paraview --state``
would leave such a view unreachable. Every script or helper that makes views
for a user therefore puts each of them in a named tab, one tab per topic.
"""
from paraview import simple


def _size(view):
    size = list(view.ViewSize) if view.ListProperties().count("ViewSize") else [0, 0]
    return [max(1, int(size[0])), max(1, int(size[1]))]


def _place(layout, cell, views, vertical):
    """Fills `cell` of `layout` with `views`, halving it (by the views'
    widths, or heights when `vertical`) until each has a cell of its own."""
    if len(views) == 1:
        simple.AssignViewToLayout(view=views[0], layout=layout, hint=cell)
        return
    half = len(views) // 2
    axis = 1 if vertical else 0
    first = sum(_size(v)[axis] for v in views[:half])
    total = sum(_size(v)[axis] for v in views)
    if vertical:
        layout.SplitVertical(cell, float(first) / total)
    else:
        layout.SplitHorizontal(cell, float(first) / total)
    # vtkSMViewLayoutProxy numbers the children of cell c 2c+1 and 2c+2.
    _place(layout, 2 * cell + 1, views[:half], vertical)
    _place(layout, 2 * cell + 2, views[half:], vertical)


def layout_tab(name, views, vertical=False):
    """A new layout tab called `name` holding `views` in order: side by side,
    or one above the other when `vertical`, each cell in proportion to the
    view's ViewSize, so that the tab's size is the views' (no view is
    resized). A view already held by another layout is moved here.
    Returns the layout proxy."""
    views = list(views)
    if not views:
        raise ValueError("layout_tab(%r): no views" % name)
    for view in views:
        holder = simple.GetLayout(view)
        if holder is not None:
            holder.RemoveView(view)
    layout = simple.CreateLayout(name)
    _place(layout, 0, views, vertical)
    return layout


def views_outside_layouts():
    """The views no layout tab holds: what a state file would restore where
    the GUI cannot reach it. Scripts check it is empty before SaveState."""
    return [view for view in simple.GetViews() if simple.GetLayout(view) is None]
