# Runs inside the ParaView GUI (paraview --script=...), like SmokeGUI.py:
# Ocelotl's parameter panel (docs/parameter-panel.md) for Spatiotemporal
# Aggregation's Parameter.
#   1. The Properties panel shows the plugin's widget for Parameter, with the
#      "Compute quality curves" button and no plot while no sweep is known.
#   2. The button shows the Quality Plot in a Line Chart View; the curves
#      appear in the panel, as many partitions as the Quality Curves rows.
#   3. A click just right of a breakpoint tick sets p to the middle of the
#      interval under the pointer; Apply puts it in the property and the
#      Partition is that interval's; Undo and Redo move it back and forth.
#      A click away from the ticks sets the
#      clicked p (within a pixel); the Left key steps to the previous
#      partition's middle.
#   4. A screenshot of the widget holds pixels of both curve colours. With
#      the Properties dock floated and 420 px wide, the plot follows and a
#      click left of the same tick picks the previous interval's middle.
#   5. A state file saved, the pipeline deleted and the state loaded: the
#      Parameter and the new panel's widget keep p.
# The Qt objects are reached through ctypes on Qt's exported functions (see
# SmokeGUI.py for why); mouse and key events are built and sent the way
# QTest does (QCoreApplication::notify), in logical pixels: GUI.ParameterPanelHiDPI
# runs it again with QT_SCALE_FACTOR=2. The verdict goes to the process's
# stdout/stderr and the exit code.
import ctypes
import os
import shutil
import sys
import time
import traceback


def say(text, fd=1):
    os.write(fd, (text + "\n").encode())


def check(condition, message):
    if not condition:
        raise RuntimeError(message)


class QRect(ctypes.Structure):
    # QRect keeps its corners (x1, y1, x2, y2), both inclusive.
    _fields_ = [("x1", ctypes.c_int), ("y1", ctypes.c_int), ("x2", ctypes.c_int), ("y2", ctypes.c_int)]


class Qt(object):
    """The exported Qt functions this test needs (x86-64 Itanium ABI: a class
    returned by value that is not trivially copyable goes to a hidden first
    argument; QRect, trivially copyable, comes back in registers)."""

    P = ctypes.c_void_p
    MOUSE_PRESS, MOUSE_RELEASE, MOUSE_MOVE, KEY_PRESS = 2, 3, 5, 6
    LEFT_BUTTON = 1
    KEY_LEFT = 0x01000012

    def __init__(self, plugin):
        self.lib = ctypes.PyDLL(None)
        self.plugin = ctypes.PyDLL(plugin)  # the loaded plugin: its classes' meta-objects
        P = self.P
        self.all_widgets = self.function("_ZN12QApplication10allWidgetsEv", P, P)
        self.cast = self.function("_ZNK11QMetaObject4castEP7QObject", P, P, P)
        self.find_children = self.function(
            "_Z23qt_qFindChildren_helperPK7QObjectRK7QStringRK11QMetaObjectP5QListIPvE6QFlagsIN2Qt15FindChildOptionEE",
            None, P, P, P, P, ctypes.c_int)
        self.object_name = self.function("_ZNK7QObject10objectNameEv", P, P, P)
        self.get_property = self.function("_ZNK7QObject8propertyEPKc", P, P, P, ctypes.c_char_p)
        self.to_double = self.function("_ZNK8QVariant8toDoubleEPb", ctypes.c_double, P, P)
        self.to_int = self.function("_ZNK8QVariant5toIntEPb", ctypes.c_int, P, P)
        self.to_bool = self.function("_ZNK8QVariant6toBoolEv", ctypes.c_bool, P)
        self.to_rect = self.function("_ZNK8QVariant6toRectEv", QRect, P)
        self.variant_free = self.function("_ZN8QVariantD1Ev", None, P)
        self.variant_string = self.function("_ZNK8QVariant8toStringEv", P, P, P)
        self.click = self.function("_ZN15QAbstractButton5clickEv", None, P)
        self.apply = self.function("_ZN17pqPropertiesPanel5applyEv", None, P)
        self.resize = self.function("_ZN7QWidget6resizeERK5QSize", None, P, P)
        self.undo = self.function("_ZN11pqUndoStack4undoEv", None, P)
        self.redo = self.function("_ZN11pqUndoStack4redoEv", None, P)
        self.core = self.function("_ZN17pqApplicationCore8instanceEv", P)
        self.undo_label_of = self.function("_ZN11pqUndoStack9undoLabelEv", P, P, P)
        self.set_floating = self.function("_ZN11QDockWidget11setFloatingEb", None, P, ctypes.c_bool)
        self.mouse_event = self.function(
            "_ZN11QMouseEventC1EN6QEvent4TypeERK7QPointFN2Qt11MouseButtonE6QFlagsIS6_ES7_INS5_16KeyboardModifierEE",
            None, P, ctypes.c_int, P, ctypes.c_int, ctypes.c_int, ctypes.c_int)
        self.mouse_event_free = self.function("_ZN11QMouseEventD1Ev", None, P)
        self.key_event = self.function(
            "_ZN9QKeyEventC1EN6QEvent4TypeEi6QFlagsIN2Qt16KeyboardModifierEERK7QStringbt",
            None, P, ctypes.c_int, ctypes.c_int, ctypes.c_int, P, ctypes.c_bool, ctypes.c_ushort)
        self.key_event_free = self.function("_ZN9QKeyEventD1Ev", None, P)
        self.notify = self.function("_ZN16QCoreApplication15notifyInternal2EP7QObjectP6QEvent",
                                    ctypes.c_bool, P, P)
        self.grab = self.function("_ZN7QWidget4grabERK5QRect", P, P, P, P)
        self.save_pixmap = self.function("_ZNK7QPixmap4saveERK7QStringPKci", ctypes.c_bool,
                                         P, P, ctypes.c_char_p, ctypes.c_int)
        self.ascii = self.function("_ZN7QString16fromAscii_helperEPKci", P, ctypes.c_char_p, ctypes.c_int)
        self.process_events = self.function(
            "_ZN16QCoreApplication13processEventsE6QFlagsIN10QEventLoop17ProcessEventsFlagEE",
            None, ctypes.c_int)
        self.null_string = self.address(self.lib, "_ZN10QArrayData11shared_nullE")
        self.empty_list = self.address(self.lib, "_ZN9QListData11shared_nullE")

    def function(self, symbol, restype, *argtypes):
        f = getattr(self.lib, symbol)
        f.restype = restype
        f.argtypes = list(argtypes)
        return f

    @staticmethod
    def address(lib, symbol):
        return ctypes.addressof(ctypes.c_char.in_dll(lib, symbol))

    def meta(self, class_name):
        symbol = "_ZN%d%s16staticMetaObjectE" % (len(class_name), class_name)
        try:
            return self.address(self.lib, symbol)
        except ValueError:
            return self.address(self.plugin, symbol)

    @staticmethod
    def pointers(qlist):
        d = ctypes.c_void_p.from_address(qlist).value
        begin = ctypes.c_int.from_address(d + 8).value
        end = ctypes.c_int.from_address(d + 12).value
        return [ctypes.c_void_p.from_address(d + 16 + 8 * i).value for i in range(begin, end)]

    @staticmethod
    def text(qstring):
        d = ctypes.c_void_p.from_address(qstring).value
        size = ctypes.c_int.from_address(d + 4).value
        offset = ctypes.c_int64.from_address(d + 16).value
        return ctypes.string_at(d + offset, 2 * size).decode("utf-16-le")

    def name(self, obj):
        result = (self.P * 1)()
        self.object_name(result, obj)
        return self.text(ctypes.addressof(result))

    def widgets(self, class_name):
        result = (self.P * 1)()
        self.all_widgets(result)
        meta = self.meta(class_name)
        return [w for w in self.pointers(ctypes.addressof(result)) if self.cast(meta, w)]

    def children(self, parent, class_name, name=None):
        string = (self.P * 1)(self.null_string)
        result = (self.P * 1)(self.empty_list)
        self.find_children(parent, string, self.meta(class_name), result, 1)  # recursively
        found = self.pointers(ctypes.addressof(result))
        return [c for c in found if name is None or self.name(c) == name]

    def prop(self, obj, name, kind):
        variant = (ctypes.c_char * 64)()  # a QVariant is 16 bytes
        self.get_property(variant, obj, name.encode())
        try:
            if kind is float:
                return self.to_double(variant, None)
            if kind is int:
                return self.to_int(variant, None)
            if kind is bool:
                return self.to_bool(variant)
            rect = self.to_rect(variant)
            return rect.x1, rect.y1, rect.x2, rect.y2
        finally:
            self.variant_free(variant)

    def string_property(self, obj, name):
        variant = (ctypes.c_char * 64)()
        self.get_property(variant, obj, name.encode())
        try:
            result = (self.P * 1)()
            self.variant_string(result, variant)
            return self.text(ctypes.addressof(result))
        finally:
            self.variant_free(variant)

    def undo_label(self, stack):
        result = (self.P * 1)()
        self.undo_label_of(result, stack)
        return self.text(ctypes.addressof(result))

    def send_click(self, widget, x, y):
        point = (ctypes.c_double * 2)(x, y)
        for kind, buttons in ((self.MOUSE_PRESS, self.LEFT_BUTTON), (self.MOUSE_RELEASE, 0)):
            event = (ctypes.c_char * 512)()  # larger than a QMouseEvent
            self.mouse_event(event, kind, point, self.LEFT_BUTTON, buttons, 0)
            self.notify(widget, event)
            self.mouse_event_free(event)

    def send_move(self, widget, x, y):
        point = (ctypes.c_double * 2)(x, y)
        event = (ctypes.c_char * 512)()
        self.mouse_event(event, self.MOUSE_MOVE, point, 0, 0, 0)
        self.notify(widget, event)
        self.mouse_event_free(event)

    def send_key(self, widget, key):
        event = (ctypes.c_char * 512)()
        empty = (self.P * 1)(self.null_string)
        self.key_event(event, self.KEY_PRESS, key, 0, empty, False, 1)
        self.notify(widget, event)
        self.key_event_free(event)

    def save_grab(self, widget, path):
        whole = QRect(0, 0, -2, -2)  # QRect(0, 0, -1, -1): the whole widget
        pixmap = (ctypes.c_char * 256)()
        self.grab(pixmap, widget, ctypes.addressof(whole))
        name = (self.P * 1)(self.ascii(path.encode(), len(path.encode())))
        return self.save_pixmap(pixmap, name, b"PNG", -1)

    def wait(self, condition, seconds=30):
        deadline = time.time() + seconds
        while not condition() and time.time() < deadline:
            self.process_events(0)
            time.sleep(0.05)
        return condition()


def image_pixels(path):
    from vtkmodules.vtkIOImage import vtkPNGReader
    from vtkmodules.util.numpy_support import vtk_to_numpy
    png = vtkPNGReader()
    png.SetFileName(path)
    png.Update()
    image = png.GetOutput()
    width, height, _ = image.GetDimensions()
    pixels = vtk_to_numpy(image.GetPointData().GetScalars()).reshape(height, width, -1)
    return pixels[::-1, :, :3].astype(int)  # rows from the top, as on screen


def colour_count(pixels, colour, tolerance=30):
    import numpy
    return int((numpy.abs(pixels - numpy.array(colour)).max(axis=2) <= tolerance).sum())


status = 1
try:
    from paraview.simple import *
    from paraview import servermanager
    plugin = os.environ["MACROSCOPE_PLUGIN"]
    output = os.environ["MACROSCOPE_OUTPUT"]
    synth = os.environ["MACROSCOPE_SYNTH"]
    shutil.rmtree(output, ignore_errors=True)
    os.makedirs(output)
    LoadPlugin(plugin, remote=False, ns=globals())
    qt = Qt(plugin)
    # A window of a usual size (the Properties panel keeps its default
    # width, about 280 px: narrower than most, so a stricter check).
    qt.resize(qt.widgets("QMainWindow")[0], ctypes.addressof((ctypes.c_int * 2)(1400, 1000)))

    import subprocess
    trace_dir = os.path.join(output, "trace")
    subprocess.run([synth, "--output", trace_dir, "--force", "--quiet", "--clusters", "2",
                    "--nodes-per-cluster", "2", "--ranks-per-node", "2", "--iterations", "40",
                    "--perturbation", "slow-node", "--perturb-target", "1",
                    "--perturb-window", "0.01", "0.02", "--perturb-factor", "3"], check=True)
    reader = OTF2TraceReader(registrationName="Trace", FileName=os.path.join(trace_dir, "traces.otf2"))
    model = TimeSlicing(registrationName="Model", Input=[OutputPort(reader, i) for i in range(6)],
                        Slices=24)
    aggregation = SpatiotemporalAggregation(registrationName="Overview", Input=OutputPort(model, 0),
                                            Parameter=0.5)
    # The Partition alone, as an overview that does not show the curves asks
    # for it (a Show would update every output port, hence sweep, until the
    # filters' Apply path asks for port 0 only).
    check(servermanager.Fetch(aggregation, idx=0).GetNumberOfRows() > 0, "no partition")
    SetActiveSource(aggregation)

    # 1. The widget, in the Properties panel, with the button and no plot.
    panels = qt.widgets("pqPropertiesPanel")
    check(len(panels) == 1, "%d Properties panels in the GUI" % len(panels))
    panel = panels[0]

    def parameter_widgets():
        return qt.children(panel, "pqMacroscopeParameterWidget")

    check(qt.wait(lambda: len(parameter_widgets()) == 1),
          "the Properties panel holds %d Macroscope parameter widgets, expected 1"
          % len(parameter_widgets()))
    widget = parameter_widgets()[0]
    plot = qt.children(widget, "pqMacroscopeQualityPlot")[0]
    button = qt.children(widget, "QPushButton", "ComputeQualityCurves")[0]
    check(qt.wait(lambda: qt.prop(button, "visible", bool)), "no Compute quality curves button")
    check(not qt.prop(plot, "visible", bool), "the plot shows before any sweep")
    check(qt.prop(widget, "parameter", float) == 0.5,
          "the widget shows p = %g, the property 0.5" % qt.prop(widget, "parameter", float))
    aggregation.UpdatePropertyInformation()
    check(len(aggregation.GetProperty("QualityCurveStarts")) == 0, "curves known before the button")

    note = qt.children(widget, "QLabel", "ComputeNote")[0]
    check("every optimal partition" in qt.string_property(note, "text"),
          "the note under the button says %r" % qt.string_property(note, "text"))
    qt.save_grab(widget, os.path.join(output, "parameter-panel-before.png"))

    # 2. The button: a Line Chart View shows the Quality Plot, the curves appear.
    qt.click(button)
    check(qt.wait(lambda: qt.prop(plot, "visible", bool) and qt.prop(plot, "partitionCount", int) > 0, 120),
          "no curves in the panel after Compute quality curves")
    curves = servermanager.Fetch(aggregation, idx=1)
    starts = [curves.GetColumnByName("PStart").GetValue(i) for i in range(curves.GetNumberOfRows())]
    gains = [curves.GetColumnByName("Gain").GetValue(i) for i in range(curves.GetNumberOfRows())]
    check(qt.prop(plot, "partitionCount", int) == len(starts) > 2,
          "the plot has %d partitions, the Quality Curves %d rows"
          % (qt.prop(plot, "partitionCount", int), len(starts)))
    charts = [v for v in GetViews() if v.GetXMLName() == "XYChartView"]
    check(len(charts) == 1, "%d Line Chart Views after the button" % len(charts))
    chart_display = GetDisplayProperties(OutputPort(aggregation, 2), charts[0])
    check(chart_display.Visibility == 1 and chart_display.XArrayName == "p",
          "the Quality Plot is not shown against p in the chart")
    series = list(chart_display.SeriesColor)
    check(series[series.index("Gain") + 1:series.index("Gain") + 4] == ["0", "0.447", "0.698"],
          "the chart's Gain is not the panel's blue: %s" % series)
    ends = starts[1:] + [1.0]

    # 3. A click 2 px right of a breakpoint tick: the middle of that interval.
    left, top, right, bottom = qt.prop(plot, "plotRect", QRect)
    span = right - left  # pixels from p = 0 to p = 1

    def x_of(p):
        return left + p * span

    wide = [k for k in range(1, len(starts)) if (ends[k] - starts[k]) * span > 12
            and not starts[k] <= 0.5 < ends[k]]
    check(wide, "no interval wider than 12 px besides the current one: %s" % starts)
    k = max(wide, key=lambda i: ends[i] - starts[i])
    middle = (starts[k] + ends[k]) / 2
    qt.send_click(plot, x_of(starts[k]) + 2, (top + bottom) / 2)
    qt.process_events(0)
    picked = qt.prop(widget, "parameter", float)
    check(abs(picked - middle) < 1e-12,
          "a click next to the tick at %g set p = %r, not the middle %r of [%g, %g)"
          % (starts[k], picked, middle, starts[k], ends[k]))
    qt.apply(panel)
    qt.process_events(0)
    check(abs(aggregation.Parameter - middle) < 1e-12,
          "after Apply the Parameter is %r, not %r" % (aggregation.Parameter, middle))
    # Undo takes p back to 0.5, in the property and the widget; Redo again.
    # (Right after Apply: what paraview.simple does below, a Fetch, records
    # undo sets of its own.)
    stacks = qt.children(qt.core(), "pqUndoStack") + qt.children(qt.widgets("QMainWindow")[0], "pqUndoStack")
    check(stacks, "no pqUndoStack in the GUI")
    check(qt.undo_label(stacks[0]) == "Apply", "the last undo set is %r, not the Apply" % qt.undo_label(stacks[0]))
    qt.undo(stacks[0])
    qt.process_events(0)
    check(aggregation.Parameter == 0.5 and qt.prop(widget, "parameter", float) == 0.5,
          "after Undo the Parameter is %r and the widget shows %r, not 0.5"
          % (aggregation.Parameter, qt.prop(widget, "parameter", float)))
    qt.redo(stacks[0])
    qt.process_events(0)
    check(abs(aggregation.Parameter - middle) < 1e-12 and abs(qt.prop(widget, "parameter", float) - middle) < 1e-12,
          "after Redo the Parameter is %r, not %r" % (aggregation.Parameter, middle))
    partition = servermanager.Fetch(aggregation, idx=0)
    quality = partition.GetFieldData().GetArray("PartitionQuality")
    check(abs(quality.GetComponent(0, 0) - gains[k]) < 1e-12,
          "the partition at p = %g has gain %r, the interval's %r" % (middle, quality.GetComponent(0, 0), gains[k]))

    # A click in the middle third of the widest interval, away from the ticks:
    # the clicked p, within a pixel.
    k2 = max(range(len(starts)), key=lambda i: ends[i] - starts[i])
    target_x = round(x_of(starts[k2] + 0.4 * (ends[k2] - starts[k2])))
    qt.send_click(plot, target_x, (top + bottom) / 2)
    qt.process_events(0)
    clicked = qt.prop(widget, "parameter", float)
    check(abs(clicked - (target_x - left) / span) <= 1.0 / span and starts[k2] < clicked < ends[k2],
          "a click at x = %d (p = %g) set p = %g" % (target_x, (target_x - left) / span, clicked))
    # Hovering reads p, gain, loss and parts under the pointer.
    parts = [int(curves.GetColumnByName("Parts").GetValue(i)) for i in range(curves.GetNumberOfRows())]
    losses = [curves.GetColumnByName("Loss").GetValue(i) for i in range(curves.GetNumberOfRows())]
    hover_x = round(x_of(starts[k] + 0.5 * (ends[k] - starts[k])))
    qt.send_move(plot, hover_x, (top + bottom) / 2)
    hovered = qt.string_property(plot, "readoutText")
    wanted = "p %.3f: gain %s, loss %s, %d part%s" % (
        (hover_x - left) / span, "%.3g" % gains[k], "%.3g" % losses[k], parts[k], "" if parts[k] == 1 else "s")
    check(hovered == wanted, "hovering at x = %d reads %r, not %r" % (hover_x, hovered, wanted))
    # The Left key: the middle of the previous interval.
    if k2 > 0:
        qt.send_key(plot, Qt.KEY_LEFT)
        qt.process_events(0)
        stepped = qt.prop(widget, "parameter", float)
        wanted = (starts[k2 - 1] + ends[k2 - 1]) / 2
        check(abs(stepped - wanted) < 1e-12, "Left set p = %r, not %r" % (stepped, wanted))
    # Back to the tick's interval, applied, for the state file.
    qt.send_click(plot, x_of(starts[k]) + 2, (top + bottom) / 2)
    qt.apply(panel)
    qt.process_events(0)
    check(abs(aggregation.Parameter - middle) < 1e-12, "the second Apply did not set p")

    # 4. The screenshot: both curves' colours in the widget.
    qt.wait(lambda: False, 0.5)  # let the panel repaint
    shot = os.path.join(output, "parameter-panel.png")
    check(qt.save_grab(widget, shot), "could not grab the parameter widget into %s" % shot)
    pixels = image_pixels(shot)
    gain_pixels = colour_count(pixels, (0, 114, 178))
    loss_pixels = colour_count(pixels, (213, 94, 0))
    check(gain_pixels >= span and loss_pixels >= span,
          "the widget's picture has %d gain and %d loss pixels, fewer than the plot's %d px width"
          % (gain_pixels, loss_pixels, span))

    # The whole window too, for whoever looks at the panel in its place.
    qt.save_grab(qt.widgets("QMainWindow")[0], os.path.join(output, "window.png"))

    # Resized: the Properties dock floated and made 420 px wide (a usual
    # panel width); the plot follows, and a click by the same tick still
    # picks that interval's middle.
    docks = [d for d in qt.widgets("QDockWidget") if panel in qt.children(d, "pqPropertiesPanel")]
    check(len(docks) == 1, "%d docks hold the Properties panel" % len(docks))
    qt.set_floating(docks[0], True)
    qt.resize(docks[0], ctypes.addressof((ctypes.c_int * 2)(420, 900)))
    check(qt.wait(lambda: qt.prop(plot, "plotRect", QRect)[2] - qt.prop(plot, "plotRect", QRect)[0] > span + 60, 10),
          "the plot is %s wide in a 420 px panel, it was %d" % (qt.prop(plot, "plotRect", QRect), span))
    left, top, right, bottom = qt.prop(plot, "plotRect", QRect)
    span = right - left
    qt.send_click(plot, x_of(starts[k]) - 2, (top + bottom) / 2)  # left of the tick this time
    before = (starts[k - 1] + ends[k - 1]) / 2
    check(abs(qt.prop(widget, "parameter", float) - before) < 1e-12,
          "in the wider panel a click left of the tick at %g set p = %r, not %r"
          % (starts[k], qt.prop(widget, "parameter", float), before))
    qt.wait(lambda: False, 0.5)
    qt.save_grab(widget, os.path.join(output, "parameter-panel-wide.png"))
    # Back to the applied p (the state file below holds the applied value).
    qt.send_click(plot, x_of(starts[k]) + 2, (top + bottom) / 2)
    check(abs(qt.prop(widget, "parameter", float) - middle) < 1e-12, "could not click back to p = %r" % middle)
    qt.set_floating(docks[0], False)

    # 5. The state file keeps p.
    state = os.path.join(output, "panel.pvsm")
    SaveState(state)
    with open(state) as f:
        check(repr(middle)[:10] in f.read(), "the state file does not hold p = %r" % middle)
    for name in ("Overview", "Model", "Trace"):
        Delete(FindSource(name))
    qt.process_events(0)
    LoadState(state)
    loaded = FindSource("Overview")
    check(loaded is not None, "the state has no Overview")
    check(abs(loaded.Parameter - middle) < 1e-12,
          "the loaded Parameter is %r, not %r" % (loaded.Parameter, middle))
    SetActiveSource(loaded)
    check(qt.wait(lambda: len(parameter_widgets()) == 1 and
                  abs(qt.prop(parameter_widgets()[0], "parameter", float) - middle) < 1e-12),
          "the panel of the loaded state does not show p = %r" % middle)

    say("GUI parameter panel: %d partitions drawn after Compute; a click by the tick at %g set "
        "p = %g (middle of [%g, %g)); a free click %g; %d gain and %d loss pixels; the state kept p"
        % (len(starts), starts[k], middle, starts[k], ends[k], clicked, gain_pixels, loss_pixels))
    status = 0
except Exception:
    say(traceback.format_exc(), 2)
    try:  # what the window showed, for whoever reads the failure
        window = qt.widgets("QMainWindow")[0]
        qt.save_grab(window, os.path.join(output, "failure.png"))
        say("the window at the failure: %s" % os.path.join(output, "failure.png"), 2)
    except Exception:
        pass
sys.stdout.flush()
sys.stderr.flush()
os._exit(status)
