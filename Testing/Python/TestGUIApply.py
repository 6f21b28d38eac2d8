# Runs inside the ParaView GUI (paraview --script=...), like SmokeGUI.py:
# Apply of a Spatiotemporal Aggregation computes the asked partition only
# (docs/aggregation.md "What Apply computes").
#
# On the demo's sample (64 locations) sliced into 200 slices, where one
# partition takes a fraction of a second and the sweep over every p minutes,
# the test does what a user does: selects Time Slicing, picks Filters >
# Macroscope > Spatiotemporal Aggregation (the menu's own QAction) and
# clicks the Properties panel's Apply button (the real QPushButton, so that
# pqPropertiesPanel::apply and pqApplyBehavior run as for a click). It asserts
# that the click returns within APPLY_LIMIT seconds, that the filter swept
# nothing (SweepComputations 0, qualities and partition computed once), that
# no view was opened for the curves (no Line Chart View, no spreadsheet) and
# that the overview is drawn in the Render View. It saves the view's picture
# and prints the time of the click.
#
# MACROSCOPE_SYNTH names macroscope-synth. The Qt objects are reached through
# ctypes on Qt's exported functions (see SmokeGUI.py for why); the verdict goes
# to the process's stdout/stderr and the exit code.
import ctypes
import os
import subprocess
import sys
import time
import traceback

SLICES = 200
APPLY_LIMIT = 10.0  # seconds; the sweep alone takes minutes at 200 slices


def say(text, fd=1):
    os.write(fd, (text + "\n").encode())


def check(condition, message):
    if not condition:
        raise RuntimeError(message)


class Qt(object):
    """The exported Qt functions this test needs (x86-64 Itanium ABI: a
    QString or QList returned by value goes to a hidden first argument)."""

    P = ctypes.c_void_p

    def __init__(self):
        # PyDLL keeps the GIL held during the calls, as the GUI's main thread
        # holds it when a user clicks.
        self.lib = ctypes.PyDLL(None)
        P = self.P
        self.all_widgets = self.function("_ZN12QApplication10allWidgetsEv", P, P)
        self.cast = self.function("_ZNK11QMetaObject4castEP7QObject", P, P, P)
        self.object_name = self.function("_ZNK7QObject10objectNameEv", P, P, P)
        self.widget_actions = self.function("_ZNK7QWidget7actionsEv", P, P, P)
        self.action_text = self.function("_ZNK7QAction4textEv", P, P, P)
        self.activate = self.function("_ZN7QAction8activateENS_11ActionEventE", None, P, ctypes.c_int)
        self.action_enabled = self.function("_ZNK7QAction9isEnabledEv", ctypes.c_bool, P)
        self.click = self.function("_ZN15QAbstractButton5clickEv", None, P)
        self.button_text = self.function("_ZNK15QAbstractButton4textEv", P, P, P)
        self.process_events = self.function(
            "_ZN16QCoreApplication13processEventsE6QFlagsIN10QEventLoop17ProcessEventsFlagEE",
            None, ctypes.c_int)

    def function(self, symbol, restype, *argtypes):
        f = getattr(self.lib, symbol)
        f.restype = restype
        f.argtypes = list(argtypes)
        return f

    def meta(self, class_name):
        symbol = "_ZN%d%s16staticMetaObjectE" % (len(class_name), class_name)
        return ctypes.addressof(ctypes.c_char.in_dll(self.lib, symbol))

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

    def string_of(self, getter, obj):
        result = (self.P * 1)()
        getter(result, obj)
        return self.text(ctypes.addressof(result))

    def widgets(self, class_name):
        result = (self.P * 1)()
        self.all_widgets(result)
        meta = self.meta(class_name)
        return [w for w in self.pointers(ctypes.addressof(result)) if self.cast(meta, w)]

    def menu_actions(self, text):
        """Every QAction of a menu whose text (without its & mnemonic) is `text`."""
        found = []
        for menu in self.widgets("QMenu"):
            result = (self.P * 1)()
            self.widget_actions(result, menu)
            for action in self.pointers(ctypes.addressof(result)):
                if self.string_of(self.action_text, action).replace("&", "") == text:
                    found.append(action)
        return found

    def wait(self, condition, seconds=30):
        deadline = time.time() + seconds
        while not condition() and time.time() < deadline:
            self.process_events(0)
            time.sleep(0.05)
        return condition()


status = 1
try:
    from paraview.simple import *
    from paraview import servermanager
    plugin = os.environ["MACROSCOPE_PLUGIN"]
    output = os.environ["MACROSCOPE_OUTPUT"]
    synth = os.environ["MACROSCOPE_SYNTH"]
    os.makedirs(output, exist_ok=True)
    LoadPlugin(plugin, remote=False, ns=globals())
    qt = Qt()

    # The demo's sample (examples/demo.py, Testing/Benchmarks/bench_readme_snippet.sh).
    trace = os.path.join(output, "trace")
    command = [synth, "--output", trace, "--force", "--quiet", "--clusters", "2",
               "--nodes-per-cluster", "4", "--ranks-per-node", "4", "--threads-per-rank", "2",
               "--iterations", "100", "--pattern", "stencil3d", "--perturbation", "slow-node",
               "--perturb-target", "5", "--perturb-window", "0.02", "0.06", "--perturb-factor", "3"]
    made = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(made.returncode == 0, "%s failed:\n%s" % (" ".join(command), made.stdout))
    reader = OTF2TraceReader(FileName=os.path.join(trace, "traces.otf2"))
    model = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=SLICES)
    model.UpdatePipeline()
    # The view a user has the trace's Timeline in: a Macroscope Chart View,
    # the Partition's preferred view (docs/views.md), so Apply shows the
    # overview there without opening another.
    view = CreateView("MacroscopeChartView")
    AssignViewToLayout(view=view, layout=GetLayout(GetActiveView()), hint=0)
    SetActiveView(view)
    SetActiveSource(model)
    views_before = sorted(v.GetXMLName() for v in GetViews())

    # Filters > Macroscope > Spatiotemporal Aggregation, Time Slicing selected.
    # (Each filter has an action in the Filters menu's Alphabetical and
    # Macroscope submenus, and in the same submenus of the Pipeline Browser's
    # Add Filter context menu: all create the filter.)
    check(qt.wait(lambda: any(qt.action_enabled(a) for a in qt.menu_actions("Spatiotemporal Aggregation"))),
          "no enabled menu action Spatiotemporal Aggregation (%d found)"
          % len(qt.menu_actions("Spatiotemporal Aggregation")))
    qt.wait(lambda: False, 1)  # the GUI's deferred updates of the active objects
    created = lambda: [s for s in GetSources().values() if s.GetXMLName() == "MacroscopeSpatiotemporalAggregation"]
    # Now and then (1 run in 6 to 10), the first action created nothing (the
    # active port not yet known to it?): the next one is tried then.
    tried = 0
    for menu_action in [a for a in qt.menu_actions("Spatiotemporal Aggregation") if qt.action_enabled(a)]:
        qt.activate(menu_action, 0)
        tried += 1
        if qt.wait(lambda: len(created()) > 0, 10):
            break
    check(len(created()) == 1,
          "%d menu actions created %d aggregations (active source: %s)"
          % (tried, len(created()), GetActiveSource().GetXMLName() if GetActiveSource() else None))
    aggregation = created()[0]
    algorithm = aggregation.GetClientSideObject()
    check(algorithm.GetOutputDataObject(0).GetNumberOfRows() == 0,
          "the aggregation ran before Apply")

    # The Properties panel's Apply button (pqPropertiesPanel's "Accept").
    applies = [b for b in qt.widgets("QPushButton") if qt.string_of(qt.object_name, b) == "Accept"]
    check(len(applies) == 1, "%d Apply buttons in the GUI, expected 1" % len(applies))
    check(qt.string_of(qt.button_text, applies[0]).replace("&", "") == "Apply",
          "the Accept button reads %r" % qt.string_of(qt.button_text, applies[0]))
    qt.process_events(0)
    started = time.perf_counter()
    qt.click(applies[0])
    applied = time.perf_counter() - started
    qt.wait(lambda: False, 1)  # let the GUI repaint

    fields = algorithm.GetOutputDataObject(0).GetFieldData()
    counters = {name: fields.GetArray(name).GetValue(0) if fields.GetArray(name) else None
                for name in ("QualityComputations", "PartitionComputations", "SweepComputations")}
    parts = algorithm.GetOutputDataObject(0).GetNumberOfRows()
    views_after = sorted(v.GetXMLName() for v in GetViews())
    say("GUI Apply of Spatiotemporal Aggregation at %d slices (menu action %d): %.2f s, %d parts, "
        "counters %s, views %s -> %s" % (SLICES, tried, applied, parts, counters, views_before, views_after))
    check(parts > 1, "Apply output %d parts" % parts)
    check(counters == {"QualityComputations": 1, "PartitionComputations": 1, "SweepComputations": 0},
          "Apply computed %s, not the qualities and one partition only" % counters)
    check(views_after == views_before, "Apply opened views: %s -> %s" % (views_before, views_after))
    check(applied <= APPLY_LIMIT, "Apply took %.1f s (limit %.0f s)" % (applied, APPLY_LIMIT))

    # The overview is drawn in the Render View.
    display = GetDisplayProperties(OutputPort(aggregation, 0), view)
    check(display.GetXMLName() == "MacroscopeTraceRepresentation" and
          display.Representation == "Spatiotemporal Overview" and display.Visibility == 1,
          "the Partition is shown as %s %r (visibility %d)"
          % (display.GetXMLName(), display.Representation, display.Visibility))
    Render(view)
    marks = display.SMProxy.GetRepresentedDataInformation().GetNumberOfCells()
    check(marks >= parts, "the overview draws %d marks for %d parts" % (marks, parts))
    SaveScreenshot(os.path.join(output, "apply.png"), view, ImageResolution=[1000, 600])
    Render(view)  # the window again, after the screenshot's own resolution
    # MACROSCOPE_HOLD_SECONDS keeps the window up, e.g. for a screenshot of
    # the whole GUI taken from outside (xwd -root).
    qt.wait(lambda: False, float(os.environ.get("MACROSCOPE_HOLD_SECONDS", "0")))
    status = 0
except Exception:
    say(traceback.format_exc(), 2)
sys.stdout.flush()
sys.stderr.flush()
os._exit(status)
