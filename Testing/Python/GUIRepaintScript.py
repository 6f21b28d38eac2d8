# Runs inside the ParaView GUI (paraview --script=...), started by
# TestGUIRepaint.py, which takes screenshots of the display meanwhile. Two
# long steps as a user would run them, each between two marker lines of
# MACROSCOPE_MARKERS ("<name> <time.time()>"):
#   read       the OTF2 reader on a large trace (MACROSCOPE_TRACE);
#   aggregate  a Spatiotemporal Aggregation of a MACROSCOPE_SLICES-slice model
#              (Streamed Time Slicing of the same trace).
# Between the steps the script lets the GUI process its events (as the event
# loop would after an Apply), so that the screenshots of the idle window are
# up to date. The markers file also gets the rectangle of the status bar's
# progress widget (pqProgressWidget) on the screen, "progress x y width
# height", read through Qt's exported functions (see SmokeGUI.py for why
# ctypes). The verdict, and any traceback, goes to the process's own stdout
# and stderr; the exit code is 0 when both steps ran and gave outputs.
import ctypes
import os
import time
import traceback


def say(text, fd=1):
    os.write(fd, (text + "\n").encode())


class QRect(ctypes.Structure):
    _fields_ = [("x1", ctypes.c_int), ("y1", ctypes.c_int), ("x2", ctypes.c_int), ("y2", ctypes.c_int)]


class QPoint(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]


class Qt(object):
    """The few exported Qt functions this script needs (x86-64 Itanium ABI;
    a QRect or QPoint returned by value comes back in registers)."""

    P = ctypes.c_void_p

    def __init__(self):
        self.lib = ctypes.PyDLL(None)
        P = self.P
        self.all_widgets = self.function("_ZN12QApplication10allWidgetsEv", P, P)
        self.cast = self.function("_ZNK11QMetaObject4castEP7QObject", P, P, P)
        self.frame_geometry = self.function("_ZNK7QWidget13frameGeometryEv", QRect, P)
        self.map_to_global = self.function("_ZNK7QWidget11mapToGlobalERK6QPoint", QPoint, P,
                                           ctypes.POINTER(QPoint))
        self.is_visible_to = self.function("_ZNK7QWidget11isVisibleToEPKS_", ctypes.c_bool, P, P)
        self.process_events = self.function(
            "_ZN16QCoreApplication13processEventsE6QFlagsIN10QEventLoop17ProcessEventsFlagEE",
            None, ctypes.c_int)

    def function(self, symbol, restype, *argtypes):
        f = getattr(self.lib, symbol)
        f.restype = restype
        f.argtypes = list(argtypes)
        return f

    def widgets(self, class_name):
        result = (self.P * 1)()
        self.all_widgets(result)
        meta = ctypes.addressof(ctypes.c_char.in_dll(
            self.lib, "_ZN%d%s16staticMetaObjectE" % (len(class_name), class_name)))
        d = ctypes.c_void_p.from_address(ctypes.addressof(result)).value
        begin = ctypes.c_int.from_address(d + 8).value
        end = ctypes.c_int.from_address(d + 12).value
        pointers = [ctypes.c_void_p.from_address(d + 16 + 8 * i).value for i in range(begin, end)]
        return [w for w in pointers if self.cast(meta, w)]

    def screen_rectangle(self, widget):
        """(x, y, width, height) of `widget` on the screen."""
        rect = self.frame_geometry(widget)
        origin = self.map_to_global(widget, ctypes.byref(QPoint(0, 0)))
        return origin.x, origin.y, rect.x2 - rect.x1 + 1, rect.y2 - rect.y1 + 1

    def idle(self, seconds):
        """Lets the GUI process its events for `seconds`, as its event loop would."""
        end = time.time() + seconds
        while time.time() < end:
            self.process_events(0)
            time.sleep(0.02)


status = 1
try:
    markers = open(os.environ["MACROSCOPE_MARKERS"], "w")

    def mark(name, *values):
        markers.write(" ".join([name] + [str(v) for v in values]) + "\n")
        markers.flush()

    from paraview.simple import *  # noqa: F401,F403
    LoadPlugin(os.environ["MACROSCOPE_PLUGIN"], remote=False, ns=globals())
    trace = os.environ["MACROSCOPE_TRACE"]
    qt = Qt()
    qt.idle(2.0)  # the window shown and painted
    progress = qt.widgets("pqProgressWidget")
    if len(progress) != 1:
        raise RuntimeError("%d progress widgets (pqProgressWidget) in the GUI, expected 1" % len(progress))
    mark("progress", *qt.screen_rectangle(progress[0]))
    qt.idle(1.0)  # the test takes pictures of the idle widget meanwhile
    mark("idle", "%.3f" % time.time())

    mark("read_begin", "%.3f" % time.time())
    reader = OTF2TraceReader(FileName=trace)
    reader.UpdatePipeline()  # what Apply runs before it shows the outputs
    mark("read_end", "%.3f" % time.time())
    states = reader.GetDataInformation(0).GetNumberOfRows()
    if states <= 0:
        raise RuntimeError("the reader gave no states")
    qt.idle(1.5)

    model = StreamedTimeSlicing(FileName=trace, Slices=int(os.environ["MACROSCOPE_SLICES"]),
                                UseModelCache=0)
    model.UpdatePipeline()
    qt.idle(1.5)

    mark("aggregate_begin", "%.3f" % time.time())
    aggregation = SpatiotemporalAggregation(Input=model, Parameter=0.6)
    aggregation.UpdatePipeline()
    # Apply computes the asked partition only (a fraction of a second); the
    # long step left is the sweep over every p that showing the quality
    # curves asks for, as the parameter panel's "Compute quality curves".
    curves_view = CreateView("XYChartView")
    AssignViewToLayout(curves_view)
    Show(OutputPort(aggregation, 2), curves_view)
    Render(curves_view)
    mark("aggregate_end", "%.3f" % time.time())
    parts = aggregation.GetDataInformation(0).GetNumberOfRows()
    if parts <= 0:
        raise RuntimeError("the aggregation gave no part")
    qt.idle(1.5)
    mark("done", "%.3f" % time.time())
    say("GUI repaint script: %d states read, a partition of %d parts" % (states, parts))
    status = 0
except Exception:
    say(traceback.format_exc(), 2)
finally:
    os._exit(status)
