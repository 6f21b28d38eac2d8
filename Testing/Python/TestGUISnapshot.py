# Runs inside the ParaView GUI (paraview --script=...), like SmokeGUI.py: the
# plugin's "Macroscope" toolbar (Plugin/Qt, docs/snapshot.md) must appear
# with its four actions, and triggering three of them must do their work
# (Overview has a test of its own, TestGUIOverview.py):
#   Snapshot...        writes the pictures, state and manifest into
#                      MACROSCOPE_SNAPSHOT_DIR (set here: the scripting aid
#                      that replaces the directory dialog);
#   Link Views         calls macroscope.link_views (recorded here), and names
#                      the function in an error when the package lacks it;
#   Select Time Window puts the active Render View in rubber-band mode; a drag
#                      of the mouse (interactor events) calls
#                      macroscope.select_time_range(view, region) with the
#                      dragged region.
# The Qt objects are reached through ctypes on Qt's exported functions (see
# SmokeGUI.py for why). The verdict goes to the process's stdout/stderr and
# the exit code.
import json
import os
import shutil
import sys
import traceback

from macroscope_gui_toolbar import Messages, Qt  # Testing/Python, on PYTHONPATH


def say(text, fd=1):
    os.write(fd, (text + "\n").encode())


def check(condition, message):
    if not condition:
        raise RuntimeError(message)


status = 1
try:
    from paraview.simple import *
    from paraview import servermanager
    from vtkmodules.vtkCommonCore import vtkCommand
    plugin = os.environ["MACROSCOPE_PLUGIN"]
    output = os.environ["MACROSCOPE_OUTPUT"]
    shutil.rmtree(output, ignore_errors=True)
    os.makedirs(output)
    LoadPlugin(plugin, remote=False, ns=globals())
    import macroscope
    qt = Qt()

    # The toolbar appears when the GUI has processed the plugin's interfaces.
    check(qt.wait(lambda: len(qt.toolbars("Macroscope")) == 1),
          "%d toolbars named Macroscope in the GUI, expected 1" % len(qt.toolbars("Macroscope")))
    actions = qt.actions(qt.toolbars("Macroscope")[0])
    wanted = ["Overview", "Snapshot...", "Link Views", "Select Time Window", "Colour-Blind Palette"]
    check(sorted(actions) == sorted(wanted), "the Macroscope toolbar holds %s, not %s"
          % (sorted(actions), wanted))

    # A trace as a Timeline in a Render View of its own layout (the active view).
    SyntheticTrace(OutputDirectory=os.path.join(output, "trace"), Iterations=2)
    reader = OTF2TraceReader(FileName=os.path.join(output, "trace", "traces.otf2"))
    tab = CreateLayout("Snapshot")
    view = CreateView("RenderView")
    AssignViewToLayout(view, tab)
    SetActiveView(view)
    display = Show(OutputPort(reader, 0), view, "MacroscopeTraceRepresentation")
    display.SetRepresentationType("Timeline")
    view.OrientationAxesVisibility = 0
    Render(view)
    view.ResetCamera(True)
    Render(view)

    # 1. Snapshot..., its directory from MACROSCOPE_SNAPSHOT_DIR.
    snapshot_dir = os.path.join(output, "snapshot")
    os.environ["MACROSCOPE_SNAPSHOT_DIR"] = snapshot_dir
    with Messages() as messages:
        qt.activate(actions["Snapshot..."], 0)
    del os.environ["MACROSCOPE_SNAPSHOT_DIR"]
    manifest_path = os.path.join(snapshot_dir, "snapshot.json")
    check(os.path.isfile(manifest_path), "Snapshot... wrote no manifest in %s; it reported: %s"
          % (snapshot_dir, messages.text))
    with open(manifest_path) as f:
        manifest = json.load(f)
    for name in manifest["files"]:
        check(os.path.getsize(os.path.join(snapshot_dir, name)) > 0, "%s is empty or missing" % name)
    check(any(e["type"] == "RenderView" for e in manifest["views"]),
          "the GUI snapshot has no Render View: %s" % manifest["views"])
    check("Macroscope snapshot:" in messages.text and snapshot_dir in messages.text,
          "Snapshot... reported %r" % messages.text)

    # A failing snapshot is reported as an error naming the directory.
    blocker = os.path.join(output, "a-file")
    open(blocker, "w").close()
    os.environ["MACROSCOPE_SNAPSHOT_DIR"] = os.path.join(blocker, "snapshot")
    with Messages() as messages:
        qt.activate(actions["Snapshot..."], 0)
    del os.environ["MACROSCOPE_SNAPSHOT_DIR"]
    check("snapshot failed" in messages.text and blocker in messages.text,
          "an unwritable snapshot directory was reported as %r" % messages.text)

    # 2. Link Views calls macroscope.link_views; without it, names it.
    calls = []
    real_link = getattr(macroscope, "link_views", None)
    macroscope.link_views = lambda *a, **k: calls.append(("link_views", a, k))
    with Messages() as messages:
        qt.activate(actions["Link Views"], 0)
    check(calls == [("link_views", (), {})], "Link Views made the calls %s" % calls)
    check("views linked" in messages.text, "Link Views reported %r" % messages.text)
    del macroscope.link_views
    with Messages() as messages:
        qt.activate(actions["Link Views"], 0)
    check("no function macroscope.link_views" in messages.text,
          "Link Views without the helper reported %r" % messages.text)
    if real_link is not None:
        macroscope.link_views = real_link

    # 3. Select Time Window: rubber-band mode on the active Render View, then
    # a drag from (60, 40) to (220, 150) in display pixels.
    regions = []
    real_select = getattr(macroscope, "select_time_range", None)
    macroscope.select_time_range = lambda v, region: regions.append((v.GetGlobalID(), list(region)))
    window_action = actions["Select Time Window"]
    check(qt.wait(lambda: qt.is_enabled(window_action)),
          "Select Time Window is disabled with a Render View active")
    qt.activate(window_action, 0)
    check(qt.wait(lambda: qt.is_checked(window_action), 5), "Select Time Window did not enter its mode")
    interactor = view.GetInteractor()
    check(interactor is not None, "the active Render View has no interactor")
    with Messages() as messages:
        interactor.SetEventInformation(60, 40, 0, 0)
        interactor.InvokeEvent(vtkCommand.LeftButtonPressEvent)
        interactor.SetEventInformation(220, 150, 0, 0)
        interactor.InvokeEvent(vtkCommand.MouseMoveEvent)
        interactor.InvokeEvent(vtkCommand.LeftButtonReleaseEvent)
        qt.wait(lambda: regions, 5)
    check(regions == [(view.GetGlobalID(), [60, 40, 220, 150])],
          "the drag called select_time_range with %s; it reported %r" % (regions, messages.text))
    check(qt.wait(lambda: not qt.is_checked(window_action), 5),
          "Select Time Window stayed in its mode after the selection")
    # Without the helper, a drag reports an error naming it.
    del macroscope.select_time_range
    qt.activate(window_action, 0)
    check(qt.wait(lambda: qt.is_checked(window_action), 5), "Select Time Window did not re-enter its mode")
    with Messages() as messages:
        interactor.SetEventInformation(30, 30, 0, 0)
        interactor.InvokeEvent(vtkCommand.LeftButtonPressEvent)
        interactor.SetEventInformation(90, 80, 0, 0)
        interactor.InvokeEvent(vtkCommand.MouseMoveEvent)
        interactor.InvokeEvent(vtkCommand.LeftButtonReleaseEvent)
        qt.wait(lambda: not qt.is_checked(window_action), 5)
    check("no function macroscope.select_time_range" in messages.text,
          "a drag without the helper reported %r" % messages.text)
    if real_select is not None:
        macroscope.select_time_range = real_select

    say("GUI snapshot test: toolbar %s; Snapshot... wrote %d files; Link Views and Select Time "
        "Window called their helpers (region %s)" % (sorted(actions), len(manifest["files"]),
                                                     regions[0][1]))
    status = 0
except Exception:
    say(traceback.format_exc(), 2)
sys.stdout.flush()
sys.stderr.flush()
os._exit(status)
