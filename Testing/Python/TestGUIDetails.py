# Runs inside the ParaView GUI (paraview --script=...), like TestGUIOverview.py:
# details on demand with the mouse (docs/details-on-demand.md). A trace's
# Timeline is shown in the Render View; xdotool moves the pointer onto a
# known plain state and rests there: the tooltip (Qt's own QTipLabel) must
# name the state's type, its resource and its duration, as
# macroscope.details_at says; a click there shows the same text and makes
# the state's row ParaView's selection on the reader's States.
#
# MACROSCOPE_SYNTH names macroscope-synth; Qt is reached through ctypes
# (macroscope_gui_toolbar.Qt, as the other GUI tests).
import ctypes
import os
import shutil
import subprocess
import sys
import time
import traceback

from macroscope_gui_toolbar import Qt


def say(text, fd=1):
    os.write(fd, (text + "\n").encode())


def check(condition, message):
    if not condition:
        raise RuntimeError(message)


def widgets_of(qt, meta_symbol):
    result = (qt.P * 1)()
    qt.all_widgets(result)
    meta = ctypes.addressof(ctypes.c_char.in_dll(qt.lib, meta_symbol))
    return [w for w in qt.pointers(ctypes.addressof(result)) if qt.cast(meta, w)]


status = 1
try:
    from paraview.simple import *
    from paraview import servermanager
    plugin = os.environ["MACROSCOPE_PLUGIN"]
    output = os.environ["MACROSCOPE_OUTPUT"]
    shutil.rmtree(output, ignore_errors=True)
    os.makedirs(output)
    LoadPlugin(plugin, remote=False, ns=globals())
    # ClientServer.GUIDetails: the same against a pvserver of 2 ranks.
    port = int(os.environ.get("MACROSCOPE_SERVER_PORT", "0"))
    if port:
        Connect("localhost", port)
        LoadPlugin(plugin, remote=False, ns=globals())
        LoadPlugin(plugin, remote=True, ns=globals())
        check(servermanager.ActiveConnection.GetNumberOfDataPartitions() == 2,
              "the server does not have 2 ranks")
    import macroscope
    import macroscope_testing as mt
    qt = Qt()
    map_to_global = qt.function("_ZNK7QWidget11mapToGlobalERK6QPoint", ctypes.c_uint64, qt.P, qt.P)
    label_text = qt.function("_ZNK6QLabel4textEv", qt.P, qt.P, qt.P)
    # isVisibleTo(nullptr) is isVisible(), which is inline (not exported).
    visible_to = qt.function("_ZNK7QWidget11isVisibleToEPKS_", ctypes.c_bool, qt.P, qt.P)

    trace = os.path.join(output, "trace")
    subprocess.check_call([os.environ["MACROSCOPE_SYNTH"], "--output", trace, "--clusters", "1",
                           "--nodes-per-cluster", "2", "--ranks-per-node", "2",
                           "--threads-per-rank", "2", "--iterations", "40", "--quiet"])
    reader = OpenDataFile(os.path.join(trace, "traces.otf2"))
    reader.UpdatePipeline()
    # The chart view (docs/views.md): the Timeline laid out for its pixels.
    # It replaces the GUI's first Render View, so that its widget is the only one.
    first = GetActiveView()
    layout = GetLayout(first) if first else None
    if first:
        Delete(first)
    view = CreateView("MacroscopeChartView")
    AssignViewToLayout(view, layout, 0) if layout else AssignViewToLayout(view)
    timeline = Show(OutputPort(reader, 0), view, "MacroscopeTraceRepresentation")
    timeline.SetRepresentationType("Timeline")
    Render(view)
    view.ResetCamera(True)
    Render(view)
    qt.wait(lambda: False, 1)

    layout = TimelineLayout(Input=[OutputPort(reader, p) for p in range(6)],
                            ViewSize=list(timeline.ViewPixelSize), MinMarkWidth=timeline.MinMarkWidth)
    marks = mt.gather_points(layout, 0)
    flags = marks.GetCellData().GetArray("Aggregate")
    best = None
    for cell in range(marks.GetNumberOfCells()):
        if flags.GetValue(cell) != 0:
            continue
        b = marks.GetCell(cell).GetBounds()
        x0, y0 = macroscope.chart_to_display(view, b[0], b[2])
        x1, y1 = macroscope.chart_to_display(view, b[1], b[3])
        if best is None or (x1 - x0) > best[1]:
            best = (cell, x1 - x0, 0.5 * (x0 + x1), 0.5 * (y0 + y1))
    check(best is not None and best[1] >= 6, "no plain state wide enough to point at")
    cell, _, dx, dy = best
    expected = macroscope.details_at(view, round(dx), round(dy), timeline)
    check(expected.kind == "state", "the script's own pick found %r" % (expected.kind,))

    views = widgets_of(qt, "_ZN22QVTKOpenGLNativeWidget16staticMetaObjectE")
    check(views, "no render view widget")
    height = view.ViewSize[1]
    point = (ctypes.c_int * 2)(int(round(dx)), int(height - 1 - round(dy)))
    packed = map_to_global(views[0], ctypes.addressof(point))
    gx, gy = ctypes.c_int32(packed & 0xffffffff).value, ctypes.c_int32(packed >> 32).value
    subprocess.check_call(["xdotool", "mousemove", str(gx - 3), str(gy)])
    qt.wait(lambda: False, 0.3)
    subprocess.check_call(["xdotool", "mousemove", str(gx), str(gy)])

    def tooltip():
        for w in widgets_of(qt, "_ZN6QLabel16staticMetaObjectE"):
            if qt.string_of(qt.object_name, w) == "qtooltip_label" and visible_to(w, None):
                text = qt.string_of(label_text, w)
                if text:
                    return text
        return None
    check(qt.wait(lambda: tooltip() is not None, 10), "no tooltip over the state")
    text = tooltip()
    say("tooltip:\n" + text)
    # (Its picture cannot be taken: under Xvfb without a window manager, Qt
    # tooltips, ParaView's own included, never reach the screen's pixels;
    # Qt's label, its text and its visibility are what is checked.)
    check(text == expected.text, "the tooltip says %r, the pick %r" % (text, expected.text))
    check(text.startswith("State: ") and "\nResource: " in text and "\nDuration: " in text,
          "the tooltip does not describe a state: %r" % text)

    # A click shows the same details (after the tooltip is hidden).
    corner = (ctypes.c_int * 2)(5, 5)  # the view's corner: no mark there
    packed = map_to_global(views[0], ctypes.addressof(corner))
    cx, cy = ctypes.c_int32(packed & 0xffffffff).value, ctypes.c_int32(packed >> 32).value
    subprocess.check_call(["xdotool", "mousemove", str(cx), str(cy)])
    check(qt.wait(lambda: tooltip() is None, 10), "the tooltip stays away from the state")
    subprocess.check_call(["xdotool", "mousemove", str(gx), str(gy), "click", "1"])
    check(qt.wait(lambda: tooltip() == text, 10), "the click shows %r" % (tooltip(),))
    # ... and makes the state's row ParaView's selection on the States.
    check(qt.wait(lambda: reader.SMProxy.GetSelectionInput(0) is not None, 10),
          "the click selected nothing")
    ids = mt.selected_ids(reader)
    check(set(ids) == {expected.rows[0][1]} and len(expected.rows) == 1,
          "the click selected %s, not row %d" % (ids, expected.rows[0][1]))
    say("GUI details test%s: tooltip and selection of States row %d of rank %d"
        % (" (client/server)" if port else "", expected.rows[0][1], expected.rows[0][0]))
    status = 0
except Exception:
    say(traceback.format_exc(), 2)
sys.stdout.flush()
sys.stderr.flush()
os._exit(status)
