# Runs inside the ParaView GUI (paraview --script=...), like TestGUIApply.py:
# one click, one filter (docs/time-slicing.md). A user selects the
# OTF2 reader in the Pipeline Browser (its first output, States, is then the
# active port), picks Filters > Macroscope > Time Slicing (the menu's own
# QAction) and clicks Apply. The test asserts that:
#   - the menu action is enabled with the reader alone selected;
#   - exactly one Time Slicing is created, its input the reader's States;
#   - the Pipeline Browser lists "TimeSlicing1" once (its model is walked
#     through pqPipelineModel's own functions);
#   - Apply computes a model identical, value for value, to the six-input
#     form's (which finds nothing by itself), with no error.
# Saves the GUI's picture (xwd) as pipeline.png.
#
# MACROSCOPE_SYNTH names macroscope-synth; MACROSCOPE_OUTPUT the output
# directory. Qt is reached through ctypes (macroscope_gui_toolbar.Qt).
import ctypes
import os
import subprocess
import sys
import traceback

SLICES = 50


def say(text, fd=1):
    os.write(fd, (text + "\n").encode())


def check(condition, message):
    if not condition:
        raise RuntimeError(message)


class QModelIndex(ctypes.Structure):
    _fields_ = [("r", ctypes.c_int), ("c", ctypes.c_int), ("i", ctypes.c_void_p),
                ("m", ctypes.c_void_p)]


class PipelineModel(object):
    """The Pipeline Browser's pqPipelineModel, read through its exported
    functions (QModelIndex and QVariant are returned through a hidden first
    argument, x86-64 Itanium ABI)."""

    def __init__(self, qt):
        self.qt = qt
        P = qt.P
        find_children = qt.function(
            "_Z23qt_qFindChildren_helperPK7QObjectRK7QStringRK11QMetaObjectP5QListIPvE6QFlagsIN2Qt15FindChildOptionEE",
            None, P, P, P, P, ctypes.c_int)
        null_string = ctypes.addressof(ctypes.c_char.in_dll(qt.lib, "_ZN10QArrayData11shared_nullE"))
        empty_list = ctypes.addressof(ctypes.c_char.in_dll(qt.lib, "_ZN9QListData11shared_nullE"))
        self.models = []
        for browser in qt.widgets("pqPipelineBrowserWidget"):
            name = (P * 1)(null_string)
            result = (P * 1)(empty_list)
            find_children(browser, name, qt.meta("pqPipelineModel"), result, 1)
            self.models += qt.pointers(ctypes.addressof(result))
        self.row_count = qt.function("_ZNK15pqPipelineModel8rowCountERK11QModelIndex",
                                     ctypes.c_int, P, P)
        self.index = qt.function("_ZNK15pqPipelineModel5indexEiiRK11QModelIndex", None,
                                 P, P, ctypes.c_int, ctypes.c_int, P)
        self.data = qt.function("_ZNK15pqPipelineModel4dataERK11QModelIndexi", None,
                                P, P, P, ctypes.c_int)
        self.to_string = qt.function("_ZNK8QVariant8toStringEv", P, P, P)

    def texts(self, model, parent=None):
        """The display text of every item under `parent`, depth first."""
        parent = parent or QModelIndex(-1, -1, None, None)
        found = []
        for row in range(self.row_count(model, ctypes.byref(parent))):
            child = QModelIndex()
            self.index(ctypes.byref(child), model, row, 0, ctypes.byref(parent))
            variant = (ctypes.c_char * 32)()  # a QVariant is 16 bytes; leaked
            self.data(variant, model, ctypes.byref(child), 0)
            text = (self.qt.P * 1)()
            self.to_string(text, variant)
            found.append(self.qt.text(ctypes.addressof(text)))
            found += self.texts(model, child)
        return found


status = 1
try:
    from paraview.simple import *
    from paraview import servermanager
    from macroscope_gui_toolbar import Messages, Qt
    from vtkmodules.util.numpy_support import vtk_to_numpy
    output = os.environ["MACROSCOPE_OUTPUT"]
    synth = os.environ["MACROSCOPE_SYNTH"]
    os.makedirs(output, exist_ok=True)
    LoadPlugin(os.environ["MACROSCOPE_PLUGIN"], remote=False, ns=globals())
    qt = Qt()
    trace = os.path.join(output, "trace")
    command = [synth, "--output", trace, "--force", "--quiet", "--clusters", "2",
               "--nodes-per-cluster", "2", "--ranks-per-node", "2", "--threads-per-rank", "2",
               "--iterations", "40"]
    made = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(made.returncode == 0, "%s failed:\n%s" % (" ".join(command), made.stdout))

    # The reader, applied and selected: its first output is the active port.
    reader = OTF2TraceReader(registrationName="traces.otf2", FileName=os.path.join(trace, "traces.otf2"))
    reader.UpdatePipeline()
    SetActiveSource(reader)
    qt.wait(lambda: False, 1)  # the GUI's deferred updates of the active objects
    check(GetActiveSource() is reader, "the reader is not the active source")

    created = lambda: [s for s in GetSources().values() if s.GetXMLName() == "MacroscopeTimeSlicing"]
    actions = lambda: [a for a in qt.menu_actions("Time Slicing") if qt.is_enabled(a)]
    check(qt.wait(lambda: len(actions()) > 0),
          "no enabled Time Slicing menu action with the reader selected (%d actions)"
          % len(qt.menu_actions("Time Slicing")))
    tried = 0
    with Messages() as messages:
        for action in actions():
            qt.activate(action, 0)
            tried += 1
            if qt.wait(lambda: len(created()) > 0, 10):
                break
    check(len(created()) == 1, "%d menu actions created %d Time Slicing filters (sources %s; "
          "messages: %s)" % (tried, len(created()), [s.GetXMLName() for s in GetSources().values()],
                             messages.text[:2000]))
    model = created()[0]
    connections = model.SMProxy.GetProperty("Input")
    inputs = [(connections.GetProxy(i).GetGlobalIDAsString(), connections.GetOutputPortForConnection(i))
              for i in range(connections.GetNumberOfProxies())]
    check(inputs == [(reader.SMProxy.GetGlobalIDAsString(), 0)],
          "Time Slicing's inputs are %s, not the reader's States alone" % inputs)
    model.Slices = SLICES

    applies = [b for b in qt.widgets("QPushButton") if qt.string_of(qt.object_name, b) == "Accept"]
    check(len(applies) == 1, "%d Apply buttons" % len(applies))
    with Messages() as messages:
        qt.click(applies[0])
        qt.wait(lambda: False, 2)
    check("ERROR" not in messages.text, "Apply reported: %s" % messages.text[:2000])

    # The Pipeline Browser lists the filter once.
    browser = PipelineModel(qt)
    check(len(browser.models) == 1, "%d pipeline models found" % len(browser.models))
    texts = browser.texts(browser.models[0])
    name = servermanager.ProxyManager().GetProxyName("sources", model)
    say("Pipeline Browser: %s" % texts)
    check(texts.count(name) == 1, "the Pipeline Browser lists %r %d times: %s"
          % (name, texts.count(name), texts))
    check("traces.otf2" in texts, "the reader is not in the Pipeline Browser: %s" % texts)

    # The model equals the six-input form's.
    six = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=SLICES)
    # The walk sees the six-input form under each of the six ports: the
    # count above could fail.
    qt.wait(lambda: False, 1)
    six_name = servermanager.ProxyManager().GetProxyName("sources", six)
    listed = browser.texts(browser.models[0]).count(six_name)
    check(listed >= 6, "the six-input %r is listed %d times, not under each port" % (six_name, listed))
    mine, theirs = servermanager.Fetch(model), servermanager.Fetch(six)
    a = vtk_to_numpy(mine.GetPointData().GetArray("Value"))
    b = vtk_to_numpy(theirs.GetPointData().GetArray("Value"))
    check(mine.GetDimensions() == theirs.GetDimensions() and mine.GetDimensions()[0] == SLICES,
          "model dimensions %s, six-input %s" % (mine.GetDimensions(), theirs.GetDimensions()))
    check(a.sum() > 0 and (a == b).all(), "the one-click model differs from the six-input one "
          "(sums %g and %g)" % (a.sum(), b.sum()))
    Delete(six)
    qt.wait(lambda: False, 1)
    shot = os.path.join(output, "pipeline")
    subprocess.run(["xwd", "-root", "-silent", "-out", shot + ".xwd"], check=True)
    subprocess.run(["convert", "xwd:" + shot + ".xwd", shot + ".png"], check=True)
    os.remove(shot + ".xwd")
    say("One click: Time Slicing on the reader's States (menu action %d), listed once, model %s "
        "equal to the six-input one (%s.png)" % (tried, mine.GetDimensions(), shot))
    status = 0
except Exception:
    say(traceback.format_exc(), 2)
sys.stdout.flush()
sys.stderr.flush()
os._exit(status)
