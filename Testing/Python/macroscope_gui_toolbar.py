"""The Macroscope toolbar seen from a script inside the ParaView GUI
(paraview --script=...), for the GUI tests (TestGUISnapshot.py,
TestGUIOverview.py): Qt's exported functions called through ctypes (this
ParaView has no PyQt; see SmokeGUI.py for why), and the Output Messages
captured while an action runs."""
import ctypes
import time


class QPoint(ctypes.Structure):
    """A QPoint or a QSize: two ints."""
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]


class Qt(object):
    """The few exported Qt functions this test needs (x86-64 Itanium ABI: a
    QString or QList returned by value goes to a hidden first argument)."""

    P = ctypes.c_void_p

    def __init__(self):
        # PyDLL keeps the GIL held during the calls, as the GUI's main thread
        # does when a user clicks (the actions run Python).
        self.lib = ctypes.PyDLL(None)
        P = self.P
        self.all_widgets = self.function("_ZN12QApplication10allWidgetsEv", P, P)
        self.cast = self.function("_ZNK11QMetaObject4castEP7QObject", P, P, P)
        self.object_name = self.function("_ZNK7QObject10objectNameEv", P, P, P)
        self.widget_actions = self.function("_ZNK7QWidget7actionsEv", P, P, P)
        self.action_text = self.function("_ZNK7QAction4textEv", P, P, P)
        self.activate = self.function("_ZN7QAction8activateENS_11ActionEventE", None, P, ctypes.c_int)
        self.is_checked = self.function("_ZNK7QAction9isCheckedEv", ctypes.c_bool, P)
        self.is_enabled = self.function("_ZNK7QAction9isEnabledEv", ctypes.c_bool, P)
        self.click = self.function("_ZN15QAbstractButton5clickEv", None, P)
        self.process_events = self.function(
            "_ZN16QCoreApplication13processEventsE6QFlagsIN10QEventLoop17ProcessEventsFlagEE",
            None, ctypes.c_int)
        self.resize_widget = self.function("_ZN7QWidget6resizeERK5QSize", None, P,
                                           ctypes.POINTER(QPoint))
        # A QPoint returned by value, two ints, comes back in a register.
        self.map_to_global = self.function("_ZNK7QWidget11mapToGlobalERK6QPoint", ctypes.c_uint64,
                                           P, ctypes.POINTER(QPoint))

    def function(self, symbol, restype, *argtypes):
        f = getattr(self.lib, symbol)
        f.restype = restype
        f.argtypes = list(argtypes)
        return f

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

    def toolbars(self, name):
        result = (self.P * 1)()
        self.all_widgets(result)
        meta = ctypes.addressof(ctypes.c_char.in_dll(self.lib, "_ZN8QToolBar16staticMetaObjectE"))
        return [w for w in self.pointers(ctypes.addressof(result))
                if self.cast(meta, w) and self.string_of(self.object_name, w) == name]

    def meta(self, class_name):
        symbol = "_ZN%d%s16staticMetaObjectE" % (len(class_name), class_name)
        return ctypes.addressof(ctypes.c_char.in_dll(self.lib, symbol))

    def widgets(self, class_name):
        """Every widget of the application that is a `class_name`."""
        result = (self.P * 1)()
        self.all_widgets(result)
        meta = self.meta(class_name)
        return [w for w in self.pointers(ctypes.addressof(result)) if self.cast(meta, w)]

    def resize(self, widget, width, height):
        self.resize_widget(widget, ctypes.byref(QPoint(width, height)))

    def global_position(self, widget):
        """The screen position of the widget's top-left corner."""
        packed = self.map_to_global(widget, ctypes.byref(QPoint(0, 0)))
        return ctypes.c_int32(packed & 0xFFFFFFFF).value, ctypes.c_int32(packed >> 32).value

    def actions(self, widget):
        result = (self.P * 1)()
        self.widget_actions(result, widget)
        return {self.string_of(self.action_text, a): a for a in self.pointers(ctypes.addressof(result))}

    def menu_actions(self, text):
        """Every QAction of a menu whose text (without its & mnemonic) is
        `text`: a filter has one in each Filters submenu it is listed in."""
        found = []
        for menu in self.widgets("QMenu"):
            for action in self.pointers_of(self.widget_actions, menu):
                if self.string_of(self.action_text, action).replace("&", "") == text:
                    found.append(action)
        return found

    def pointers_of(self, getter, obj):
        result = (self.P * 1)()
        getter(result, obj)
        return self.pointers(ctypes.addressof(result))

    def wait(self, condition, seconds=30):
        deadline = time.time() + seconds
        while not condition() and time.time() < deadline:
            self.process_events(0)
            time.sleep(0.05)
        return condition()


class Messages(object):
    """What the actions print to the Output Messages, captured by a
    vtkStringOutputWindow while a block runs."""

    def __enter__(self):
        from vtkmodules.vtkCommonCore import vtkOutputWindow, vtkStringOutputWindow
        self.previous = vtkOutputWindow.GetInstance()
        self.window = vtkStringOutputWindow()
        vtkOutputWindow.SetInstance(self.window)
        return self

    def __exit__(self, *exc):
        from vtkmodules.vtkCommonCore import vtkOutputWindow
        self.text = self.window.GetOutput()
        vtkOutputWindow.SetInstance(self.previous)
        return False
