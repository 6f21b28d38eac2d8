# Runs inside the ParaView GUI (paraview --script=...). The GUI does not exit
# by itself after a --script, so this script ends the process with an exit
# code: 0 when the plugin loaded, a pipeline ran and an OTF2 trace opened as a
# Timeline offered by the representation selector (and a Treemap and Logical
# Time's Logical Timeline were shown and selected the same way), 1 otherwise.
#
# The GUI captures sys.stdout and sys.stderr into its Output Messages window,
# which ctest never sees: the verdict and any traceback are written to the
# process's own stdout and stderr (file descriptors 1 and 2) instead.
import ctypes
import os
import sys
import time
import traceback


def say(text, fd=1):
    os.write(fd, (text + "\n").encode())


class Qt(object):
    """The GUI's own Qt widgets, read through ctypes.

    ParaView 5.11 has no Python binding of its Qt widgets (no PythonQt in this
    build, no PyQt), but the paraview process has Qt 5 and ParaView's Qt
    libraries loaded: their exported C++ functions are called directly
    (Itanium C++ ABI, x86-64: a QString or QList returned by value is written
    to a buffer passed as a hidden first argument, before `this`). Only
    exported, non-inline, non-virtual functions are used; QMetaObject::cast
    does the dynamic type checks. A missing symbol fails the test."""

    P = ctypes.c_void_p

    def __init__(self):
        self.lib = ctypes.CDLL(None)  # the paraview executable and the libraries it loaded
        P = self.P
        self.all_widgets = self.function("_ZN12QApplication10allWidgetsEv", P, P)
        self.cast = self.function("_ZNK11QMetaObject4castEP7QObject", P, P, P)
        self.find_children = self.function(
            "_Z23qt_qFindChildren_helperPK7QObjectRK7QStringRK11QMetaObjectP5QListIPvE6QFlagsIN2Qt15FindChildOptionEE",
            None, P, P, P, P, ctypes.c_int)
        self.count = self.function("_ZNK9QComboBox5countEv", ctypes.c_int, P)
        self.item_text = self.function("_ZNK9QComboBox8itemTextEi", P, P, P, ctypes.c_int)
        self.current_text = self.function("_ZNK9QComboBox11currentTextEv", P, P, P)
        self.process_events = self.function(
            "_ZN16QCoreApplication13processEventsE6QFlagsIN10QEventLoop17ProcessEventsFlagEE",
            None, ctypes.c_int)
        self.null_string = self.address("_ZN10QArrayData11shared_nullE")  # QString()'s data
        self.empty_list = self.address("_ZN9QListData11shared_nullE")  # QList()'s data

    def function(self, symbol, restype, *argtypes):
        f = getattr(self.lib, symbol)
        f.restype = restype
        f.argtypes = list(argtypes)
        return f

    def address(self, symbol):
        return ctypes.addressof(ctypes.c_char.in_dll(self.lib, symbol))

    def meta(self, class_name):
        return self.address("_ZN%d%s16staticMetaObjectE" % (len(class_name), class_name))

    @staticmethod
    def pointers(qlist):
        # QListData::Data: int ref, alloc, begin, end; void* array[].
        d = ctypes.c_void_p.from_address(qlist).value
        begin = ctypes.c_int.from_address(d + 8).value
        end = ctypes.c_int.from_address(d + 12).value
        return [ctypes.c_void_p.from_address(d + 16 + 8 * i).value for i in range(begin, end)]

    @staticmethod
    def text(qstring):
        # QArrayData: int ref, size; uint alloc; qptrdiff offset to the UTF-16 text.
        d = ctypes.c_void_p.from_address(qstring).value
        size = ctypes.c_int.from_address(d + 4).value
        offset = ctypes.c_int64.from_address(d + 16).value
        return ctypes.string_at(d + offset, 2 * size).decode("utf-16-le")

    def widgets(self, class_name):
        result = (self.P * 1)()
        self.all_widgets(result)
        meta = self.meta(class_name)
        return [w for w in self.pointers(ctypes.addressof(result)) if self.cast(meta, w)]

    def children(self, parent, class_name):
        name = (self.P * 1)(self.null_string)
        result = (self.P * 1)(self.empty_list)
        self.find_children(parent, name, self.meta(class_name), result, 1)  # recursively
        return self.pointers(ctypes.addressof(result))

    def combo_items(self, combo):
        items = []
        for i in range(self.count(combo)):
            result = (self.P * 1)()
            self.item_text(result, combo, i)
            items.append(self.text(ctypes.addressof(result)))
        return items

    def combo_current(self, combo):
        result = (self.P * 1)()
        self.current_text(result, combo)
        return self.text(ctypes.addressof(result))

    def representation_selector(self):
        """Items and current text of the Representation toolbar's combo box
        (pqRepresentationToolbar > pqDisplayRepresentationWidget > QComboBox)."""
        toolbars = self.widgets("pqRepresentationToolbar")
        if len(toolbars) != 1:
            raise RuntimeError("%d Representation toolbars in the GUI, expected 1" % len(toolbars))
        selectors = self.children(toolbars[0], "pqDisplayRepresentationWidget")
        combos = [c for s in selectors for c in self.children(s, "QComboBox")]
        if len(combos) != 1:
            raise RuntimeError("%d combo boxes in the Representation toolbar, expected 1" % len(combos))
        return self.combo_items(combos[0]), self.combo_current(combos[0])


def changed_pixels(first, second):
    from vtkmodules.vtkIOImage import vtkPNGReader
    from vtkmodules.util.numpy_support import vtk_to_numpy
    images = []
    for path in (first, second):
        png = vtkPNGReader()
        png.SetFileName(path)
        png.Update()
        image = png.GetOutput()
        width, height, _ = image.GetDimensions()
        images.append(vtk_to_numpy(image.GetPointData().GetScalars()).reshape(height, width, -1))
    if images[0].shape != images[1].shape:
        raise RuntimeError("screenshots of different sizes: %s, %s" % (images[0].shape, images[1].shape))
    return int((images[0] != images[1]).any(axis=2).sum()), images[0].shape[0] * images[0].shape[1]


status = 1
try:
    from paraview.simple import *
    from paraview import servermanager
    plugin = os.environ["MACROSCOPE_PLUGIN"]
    output = os.environ["MACROSCOPE_OUTPUT"]
    LoadPlugin(plugin, remote=False, ns=globals())
    trace = SyntheticTrace(OutputDirectory=os.path.join(output, "trace"), Iterations=2)
    layout = HierarchyLayout(Input=trace)
    Show(layout)
    Render()
    points = layout.GetDataInformation().GetNumberOfPoints()
    if points <= 0:
        raise RuntimeError("the layout shown in the GUI is empty")
    # File > Open of the archive the source wrote picks the OTF2 reader.
    reader = OpenDataFile(os.path.join(output, "trace", "traces.otf2"))
    if reader is None or reader.GetXMLName() != "MacroscopeOTF2Reader":
        raise RuntimeError("opening traces.otf2 did not choose the Macroscope OTF2 reader")

    # Apply, as the GUI does it (pqApplyBehavior::showData): every output port
    # goes to its preferred view through the rendering pipeline controller,
    # which honours the reader's Hints, given the active view; views it creates
    # join the active layout. The active view is a new Macroscope Chart View
    # (the charts' preferred view, docs/views.md) in a tab of
    # its own, so that the Timeline is all it draws.
    tab = CreateLayout("Timeline")
    timeline_view = CreateView("MacroscopeChartView")
    AssignViewToLayout(timeline_view, tab)
    SetActiveView(timeline_view)
    SetActiveSource(reader)
    controller = servermanager.ParaViewPipelineController()
    states_view = None
    for port in range(reader.GetNumberOfOutputPorts()):
        shown_in = controller.ShowInPreferredView(reader.SMProxy, port, timeline_view.SMProxy)
        if shown_in is not None:
            controller.AssignViewToLayout(shown_in, tab.SMProxy, 0)
        if port == 0:
            states_view = shown_in
    timeline_view.ResetCamera(False)  # pqApplyBehavior resets a view showing one dataset
    # The user then clicks the Timeline's view (the Apply made the last
    # spreadsheet it opened the active view) with the reader selected.
    SetActiveView(timeline_view)
    SetActiveSource(reader)

    # 1. The States are in the Render View as a Macroscope trace, drawn as a Timeline.
    if states_view is None or states_view.GetGlobalID() != timeline_view.SMProxy.GetGlobalID():
        raise RuntimeError("Apply showed the States in %s, not in the active Macroscope Chart View"
                           % (states_view.GetXMLName() if states_view else "no view"))
    display = GetDisplayProperties(OutputPort(reader, 0), timeline_view)
    if display.GetXMLName() != "MacroscopeTraceRepresentation":
        raise RuntimeError("the States are shown as %s, not MacroscopeTraceRepresentation"
                           % display.GetXMLName())
    if display.Representation != "Timeline" or display.Visibility != 1:
        raise RuntimeError("the States' representation is %r (visibility %d), not a visible Timeline"
                           % (display.Representation, display.Visibility))

    # 2. The representation selector offers the Timeline, and shows it as the
    # current type. Its items come from the display's Representation domain
    # (pqComboBoxDomain); they are read from the toolbar's combo box itself,
    # once the GUI has processed the change of active objects.
    domain = list(display.GetProperty("Representation").Available)
    if "Timeline" not in domain:
        raise RuntimeError("the Representation domain offers %s, not Timeline" % domain)
    qt = Qt()
    deadline = time.time() + 30
    while True:
        qt.process_events(0)
        items, current = qt.representation_selector()
        if (items, current) == (domain, "Timeline") or time.time() > deadline:
            break
        time.sleep(0.1)
    if "Timeline" not in items or current != "Timeline":
        raise RuntimeError("the representation selector offers %s with %r current, not Timeline"
                           % (items, current))
    if items != domain:
        raise RuntimeError("the representation selector offers %s, its domain %s" % (items, domain))
    # (With a single type the combo box is greyed out: pqComboBoxDomain
    # enables it only when there is a choice to make.)

    # 3. Drawing the Timeline puts geometry in the view: marks in the data it
    # renders, and many pixels that differ from the same view without it.
    Render(timeline_view)
    marks = display.SMProxy.GetRepresentedDataInformation().GetNumberOfCells()
    if marks <= 0:
        raise RuntimeError("the Timeline renders no marks")
    shown_png = os.path.join(output, "Timeline.png")
    hidden_png = os.path.join(output, "TimelineHidden.png")
    if not SaveScreenshot(shown_png, timeline_view, ImageResolution=[800, 500]):
        raise RuntimeError("could not save a screenshot of the Timeline")
    Hide(OutputPort(reader, 0), timeline_view)
    saved = SaveScreenshot(hidden_png, timeline_view, ImageResolution=[800, 500])
    Show(OutputPort(reader, 0), timeline_view)
    Render(timeline_view)
    if not saved:
        raise RuntimeError("could not save a screenshot of the view without the Timeline")
    changed, pixels = changed_pixels(shown_png, hidden_png)
    if changed < 0.05 * pixels:
        raise RuntimeError("the Timeline changes only %d of %d pixels of its view" % (changed, pixels))

    # 4. Resource Treemap, applied the same way: its Treemap goes to the
    # active Render View as the Treemap display, which the selector shows,
    # and draws marks.
    model = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=4, ResourceLevel=3)
    treemap = ResourceTreemap(Input=OutputPort(model, 0), Cut="Level", Level=2)
    treemap_tab = CreateLayout("Treemap")
    treemap_view = CreateView("MacroscopeChartView")
    AssignViewToLayout(treemap_view, treemap_tab)
    SetActiveView(treemap_view)
    SetActiveSource(treemap)
    shown_in = controller.ShowInPreferredView(treemap.SMProxy, 0, treemap_view.SMProxy)
    if shown_in is None or shown_in.GetGlobalID() != treemap_view.SMProxy.GetGlobalID():
        raise RuntimeError("Apply on Resource Treemap showed its Treemap in %s, not the active "
                           "Macroscope Chart View" % (shown_in.GetXMLName() if shown_in else "no view"))
    treemap_display = GetDisplayProperties(OutputPort(treemap, 0), treemap_view)
    if treemap_display.Representation != "Treemap":
        raise RuntimeError("the Treemap is shown as %r" % treemap_display.Representation)
    Render(treemap_view)
    treemap_marks = treemap_display.SMProxy.GetRepresentedDataInformation().GetNumberOfCells()
    if treemap_marks <= 0:
        raise RuntimeError("the Treemap display renders no marks")
    deadline = time.time() + 30
    while True:
        qt.process_events(0)
        treemap_items, treemap_current = qt.representation_selector()
        if treemap_current == "Treemap" or time.time() > deadline:
            break
        time.sleep(0.1)
    if treemap_current != "Treemap" or "Treemap" not in treemap_items:
        raise RuntimeError("the representation selector offers %s with %r current for the treemap"
                           % (treemap_items, treemap_current))

    # 5. Logical Time, applied the same way on every output port: its Logical
    # Events go to the active Render View as the Logical Timeline (the
    # filter's hints), which the selector shows, and draws marks.
    logical = LogicalTime(Input=[OutputPort(reader, i) for i in range(6)])
    logical_tab = CreateLayout("Logical Timeline")
    logical_view = CreateView("MacroscopeChartView")
    AssignViewToLayout(logical_view, logical_tab)
    SetActiveView(logical_view)
    SetActiveSource(logical)
    events_view = None
    for port in range(logical.GetNumberOfOutputPorts()):
        shown_in = controller.ShowInPreferredView(logical.SMProxy, port, logical_view.SMProxy)
        if shown_in is not None:
            controller.AssignViewToLayout(shown_in, logical_tab.SMProxy, 0)
        if port == 0:
            events_view = shown_in
    SetActiveView(logical_view)
    SetActiveSource(logical)
    if events_view is None or events_view.GetGlobalID() != logical_view.SMProxy.GetGlobalID():
        raise RuntimeError("Apply on Logical Time showed its Logical Events in %s, not the active "
                           "Macroscope Chart View" % (events_view.GetXMLName() if events_view else "no view"))
    logical_display = GetDisplayProperties(OutputPort(logical, 0), logical_view)
    if logical_display.GetXMLName() != "MacroscopeTraceRepresentation" or \
            logical_display.Representation != "Logical Timeline":
        raise RuntimeError("the Logical Events are shown as %s %r, not a Logical Timeline"
                           % (logical_display.GetXMLName(), logical_display.Representation))
    Render(logical_view)
    logical_marks = logical_display.SMProxy.GetRepresentedDataInformation().GetNumberOfCells()
    logical_events = logical.GetDataInformation(0).GetNumberOfRows()
    if logical_events <= 0 or logical_marks != logical_events:
        raise RuntimeError("the Logical Timeline draws %d boxes for %d logical events"
                           % (logical_marks, logical_events))
    deadline = time.time() + 30
    while True:
        qt.process_events(0)
        logical_items, logical_current = qt.representation_selector()
        if logical_current == "Logical Timeline" or time.time() > deadline:
            break
        time.sleep(0.1)
    wanted = ["Logical Timeline", "Clustered Logical Timeline", "Metric Overview"]
    if logical_current != "Logical Timeline" or [w for w in wanted if w not in logical_items]:
        raise RuntimeError("the representation selector offers %s with %r current for the logical "
                           "events" % (logical_items, logical_current))

    # 6. The States switched to Topology-Time 3D in their Render View: the
    # selector offers it and the 3D scene draws a box (6 faces) per state.
    SetActiveView(timeline_view)
    SetActiveSource(reader)
    scene_display = GetDisplayProperties(OutputPort(reader, 0), timeline_view)
    scene_display.SetRepresentationType("Topology-Time 3D")
    Render(timeline_view)
    scene_faces = scene_display.SMProxy.GetRepresentedDataInformation().GetNumberOfCells()
    if scene_faces <= 0 or scene_faces % 6:
        raise RuntimeError("the Topology-Time 3D display draws %d faces, not boxes" % scene_faces)
    deadline = time.time() + 30
    while True:
        qt.process_events(0)
        scene_items, scene_current = qt.representation_selector()
        if scene_current == "Topology-Time 3D" or time.time() > deadline:
            break
        time.sleep(0.1)
    if scene_current != "Topology-Time 3D":
        raise RuntimeError("the representation selector offers %s with %r current for the 3D "
                           "scene" % (scene_items, scene_current))

    sheet = CreateView("SpreadSheetView")
    Show(OutputPort(reader, 0), sheet)
    Render(sheet)
    states = reader.GetDataInformation(0).GetNumberOfRows()
    if states <= 0:
        raise RuntimeError("the reader opened in the GUI shows no states")
    say("GUI smoke test: plugin loaded, %d points shown, %d states read, shown as a %s offered "
        "by the selector %s, %d marks drawn, %d of %d pixels; a Treemap of %d marks; a Logical "
        "Timeline of %d boxes; a Topology-Time 3D scene of %d boxes" % (
            points, states, current, items, marks, changed, pixels, treemap_marks, logical_marks,
            scene_faces // 6))
    status = 0
except Exception:
    say(traceback.format_exc(), 2)
sys.stdout.flush()
sys.stderr.flush()
os._exit(status)
