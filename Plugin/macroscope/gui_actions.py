"""The Python side of the plugin's Macroscope toolbar (Plugin/Qt/): each
toolbar action calls :func:`run_action`, which runs one helper of the
package and turns its outcome into (success, message) for the GUI's Output
Messages, so that no exception escapes into the GUI (docs/snapshot.md)."""
import importlib
import traceback


def _helper(name):
    """The package's function `name`, or None when this build has none (the
    linked-views helpers come from another module)."""
    package = importlib.import_module("macroscope")
    return getattr(package, name, None)


def _view_by_id(global_id):
    from paraview import simple
    for view in simple.GetViews():
        if view.GetGlobalID() == global_id:
            return view
    raise LookupError("no view with global id %d in this session" % global_id)


def _snapshot(directory):
    manifest = _helper("snapshot")(directory)
    return "Macroscope snapshot: %d view picture(s), %d layout picture(s) and the state %s saved " \
           "in %s (manifest %s.json)" % (len(manifest["views"]), len(manifest["layouts"]),
                                         manifest["state"], directory,
                                         manifest["state"].rsplit(".", 1)[0])


def _link_views():
    result = _helper("link_views")()
    # The displays shown since the last link join the type colours' link
    # too, so that a colour changed in one display's panel reaches them.
    link_colours = _helper("link_type_colors")
    if link_colours is not None:
        link_colours()
    return "Macroscope: views linked%s" % ("" if result is None else " (%s)" % (result,))


def _select_time_range(view_id, x0, y0, x1, y1):
    result = _helper("select_time_range")(_view_by_id(int(view_id)), [x0, y0, x1, y1])
    return "Macroscope: time window selected from [%d, %d, %d, %d]%s" % (
        x0, y0, x1, y1, "" if result is None else " (%s)" % (result,))


def _overview():
    package = importlib.import_module("macroscope")
    return package.describe(_helper("overview")())


def _toggle_palette():
    colors = importlib.import_module("macroscope.colors")
    target = "default" if colors.palette_in_use() == "colour-blind" else "colour-blind"
    written = colors.use_palette(target)
    return "Macroscope: the %s palette (%d type colour(s) set; your own colours kept)" % (
        target, written)


_ACTIONS = {
    "toggle_palette": ("use_palette", _toggle_palette),
    "overview": ("overview", _overview),
    "snapshot": ("snapshot", _snapshot),
    "link_views": ("link_views", _link_views),
    "select_time_range": ("select_time_range", _select_time_range),
}


def run_action(action, *args):
    """Runs the toolbar action `action` with `args`; returns (True, message)
    or (False, message naming the action and the error), never raises."""
    try:
        helper_name, run = _ACTIONS[action]
    except KeyError:
        return False, "Macroscope: unknown toolbar action %r" % (action,)
    try:
        if _helper(helper_name) is None:
            return False, ("Macroscope: %s is not available: this build's macroscope package "
                           "has no function macroscope.%s" % (action.replace("_", " "), helper_name))
        return True, run(*args)
    except Exception as error:  # the GUI shows the reason instead of a traceback dialog
        # A SnapshotError names the directory or file and the reason: enough
        # for the user. Anything else is a bug, reported with its traceback.
        expected = type(error).__name__ in ("SnapshotError", "ValueError")
        return False, "Macroscope: %s failed: %s%s" % (
            action.replace("_", " "), error, "" if expected else "\n" + traceback.format_exc())
