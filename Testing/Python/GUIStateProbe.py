# Runs inside the ParaView GUI started as `paraview --script=GUIStateProbe.py`
# by TestGUIStateLoad.py (docs/state-files.md). ParaView 5.11
# refuses --state with --script, so the probe loads the state as --state
# does: pqLoadStateReaction::loadState(file, true), the very call of
# pqCommandLineOptionsBehavior::processState (reached through ctypes, as the
# other GUI tests reach Qt). It then compares what the GUI then holds with what the state file says, takes
# a screenshot of every layout tab (xwd of the whole screen) and writes its
# record to MACROSCOPE_PROBE_RECORD; the exit code is the verdict.
#
# Compared with the file's XML (what the saving process had):
#   - layout tabs: their names and the views each holds; the GUI's tab bar
#     lists every one of them, in the file's order;
#   - views: type and camera (position, focal point, view up, parallel scale);
#   - the displays of each view: type, visibility, representation type, the
#     array coloured by, the Macroscope display's
#     TypeColors, a chart's series shown and its x array;
#   - the number of property links (macroscope.link_views, camera links).
import ctypes
import json
import os
import subprocess
import sys
import time
import traceback
import xml.etree.ElementTree as ET

LUT = ("RGBPoints", "IndexedColors", "Annotations", "InterpretValuesAsCategories")
CAMERA = ("CameraPosition", "CameraFocalPoint", "CameraViewUp", "CameraParallelScale")
DISPLAY = ("Visibility", "Representation", "ColorArrayName", "TypeColors", "SeriesVisibility",
           "XArrayName")


def say(text, fd=1):
    os.write(fd, (text + "\n").encode())


def element(value):
    """A property element as text, numbers in one spelling."""
    try:
        return "%.9g" % float(value)
    except (TypeError, ValueError):
        return str(value)


def xml_values(proxy, name):
    for prop in proxy.findall("Property"):
        if prop.get("name") == name:
            return [element(e.get("value")) for e in prop.findall("Element")], \
                [p.get("value") for p in prop.findall("Proxy")]
    return None, None


def saved(path):
    """What the state file holds: layouts, views, displays and links."""
    root = ET.parse(path).getroot().find("ServerManagerState")
    proxies = {p.get("id"): p for p in root.findall("Proxy")}
    names = {}
    for collection in root.findall("ProxyCollection"):
        for item in collection.findall("Item"):
            names.setdefault(collection.get("name"), {})[item.get("id")] = item.get("name")
    links = root.find("Links")
    record = {"layouts": {}, "views": {}, "links": 0 if links is None else len(list(links)),
              "colour maps": {}}
    for lid, lname in names.get("lookup_tables", {}).items():
        record["colour maps"][lname] = {n: xml_values(proxies[lid], n)[0] for n in LUT}
    view_names = names.get("views", {})
    for lid, lname in names.get("layouts", {}).items():
        cells = proxies[lid].find("Layout").findall("Item")
        record["layouts"][lname] = sorted(view_names[c.get("view")] for c in cells
                                          if c.get("view") not in (None, "0"))
    for vid, vname in view_names.items():
        view = proxies[vid]
        displays = []
        for rid in xml_values(view, "Representations")[1] or []:
            rep = proxies[rid]
            entry = {"group": rep.get("group"), "type": rep.get("type")}
            for name in DISPLAY:
                found = xml_values(rep, name)[0]
                if found is not None:
                    entry[name] = found
            displays.append(entry)
        record["views"][vname] = {"type": view.get("type"),
                                  "camera": {n: xml_values(view, n)[0] for n in CAMERA},
                                  "displays": sorted(displays, key=json.dumps)}
    return record


def vtk_collection(pxm, group):
    """name -> proxy of a group of the session's proxy manager."""
    from paraview.modules.vtkRemotingServerManager import vtkSMProxyIterator
    found = {}
    iterator = vtkSMProxyIterator()
    iterator.SetSessionProxyManager(pxm.SMProxyManager)
    iterator.SetModeToOneGroup()
    iterator.Begin(group)
    while not iterator.IsAtEnd():
        found[iterator.GetKey()] = iterator.GetProxy()
        iterator.Next()
    return found


def loaded(simple, servermanager):
    """The same record, from the proxies the GUI holds after the load."""
    pxm = servermanager.ProxyManager()
    links = pxm.SMProxyManager.GetNumberOfLinks()
    record = {"layouts": {}, "views": {}, "links": links, "colour maps": {}}
    views = list(simple.GetViews())
    name_of = {v.SMProxy.GetGlobalIDAsString(): pxm.GetProxyName("views", v.SMProxy) for v in views}
    for (lname, _), layout in simple.GetLayouts().items():
        record["layouts"][lname] = sorted(
            name_of[v.SMProxy.GetGlobalIDAsString()] for v in views
            if simple.GetLayout(v) is not None and simple.GetLayout(v).SMProxy is layout.SMProxy)

    def elements(proxy, name):
        prop = proxy.GetProperty(name)
        if prop is None:
            return None
        return [element(prop.GetElement(i)) for i in range(prop.GetNumberOfElements())]

    luts = vtk_collection(pxm, "lookup_tables")
    for name, lut in luts.items():
        record["colour maps"][name] = {n: elements(lut, n) for n in LUT}
    for view in views:
        displays = []
        for rep in view.Representations:
            entry = {"group": rep.SMProxy.GetXMLGroup(), "type": rep.SMProxy.GetXMLName()}
            for name in DISPLAY:
                if rep.SMProxy.GetProperty(name) is not None:
                    entry[name] = elements(rep.SMProxy, name)
            displays.append(entry)
        record["views"][name_of[view.SMProxy.GetGlobalIDAsString()]] = {
            "type": view.SMProxy.GetXMLName(),
            "camera": {n: elements(view.SMProxy, n) for n in CAMERA},
            "displays": sorted(displays, key=json.dumps)}
    return record


def differences(want, got, where=""):
    """Every difference between two records, as text."""
    if isinstance(want, dict) and isinstance(got, dict):
        found = []
        for key in sorted(set(want) | set(got)):
            if key not in got:
                found.append("%s/%s: saved, missing after the load" % (where, key))
            elif key not in want:
                found.append("%s/%s: after the load, not in the state file" % (where, key))
            else:
                found += differences(want[key], got[key], "%s/%s" % (where, key))
        return found
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        found = []
        for i, (w, g) in enumerate(zip(want, got)):
            found += differences(w, g, "%s[%d]" % (where, i))
        return found
    return [] if want == got else ["%s: saved %r, loaded %r" % (where, want, got)]


class Tabs(object):
    """The GUI's layout tabs: the QTabWidget of pqTabbedMultiViewWidget."""

    def __init__(self, qt):
        self.qt = qt
        self.count = qt.function("_ZNK10QTabWidget5countEv", ctypes.c_int, qt.P)
        self.tab_text = qt.function("_ZNK10QTabWidget7tabTextEi", qt.P, qt.P, qt.P, ctypes.c_int)
        self.set_current = qt.function("_ZN10QTabWidget15setCurrentIndexEi", None, qt.P, ctypes.c_int)
        widgets = qt.widgets("QTabWidget")
        # The multi-view widget's tab bar ends with its "+" tab.
        self.widget = None
        for widget in widgets:
            texts = self.texts(widget)
            if texts and texts[-1] == "+":
                self.widget = widget

    def texts(self, widget=None):
        widget = widget or self.widget
        return [self.qt.string_of(lambda out, w, i=i: self.tab_text(out, w, i), widget)
                for i in range(self.count(widget))]


def load_state(qt, path):
    """pqLoadStateReaction::loadState(QString::fromStdString(path), true),
    as `paraview --state=path` (the server: the active one)."""
    from_utf8 = qt.function("_ZN7QString15fromUtf8_helperEPKci", qt.P, qt.P, ctypes.c_char_p, ctypes.c_int)
    load = qt.function("_ZN19pqLoadStateReaction9loadStateERK7QStringbP8pqServer", None,
                       qt.P, ctypes.c_bool, qt.P)
    text = (qt.P * 1)()
    encoded = path.encode()
    from_utf8(text, encoded, len(encoded))
    load(ctypes.addressof(text), True, None)


status = 1
try:
    from paraview import simple, servermanager
    from macroscope_gui_toolbar import Qt
    state = os.environ["MACROSCOPE_PROBE_STATE"]
    record_path = os.environ["MACROSCOPE_PROBE_RECORD"]
    shots = os.environ["MACROSCOPE_PROBE_SHOTS"]
    qt = Qt()
    qt.wait(lambda: False, 1)  # the GUI up, its default layout and view made
    # The window as large as the screen (a user's maximised window): the
    # pictures then show the tabs at the size the demo drew them for.
    for window in qt.widgets("QMainWindow"):
        qt.resize(window, int(os.environ.get("MACROSCOPE_PROBE_WIDTH", "1600")),
                  int(os.environ.get("MACROSCOPE_PROBE_HEIGHT", "1000")))
    load_state(qt, state)
    qt.wait(lambda: False, 2)  # the GUI's deferred updates after the load
    want, got = saved(state), loaded(simple, servermanager)
    # A Macroscope Chart View fits its camera to its own size at every render
    # (docs/views.md): in the GUI's views, one chart unit per pixel, not the
    # saving process's camera. That is checked instead of equality.
    problems = []
    for view in simple.GetViews():
        name = servermanager.ProxyManager().GetProxyName("views", view.SMProxy)
        if view.SMProxy.GetXMLName() != "MacroscopeChartView" or name not in want["views"]:
            continue
        height = list(view.ViewSize)[1]
        scale = float(got["views"][name]["camera"]["CameraParallelScale"][0])
        if abs(2 * scale - height) > 3:
            problems.append("%s: a chart view %d pixels high has a camera scale of %g, not one "
                            "unit per pixel" % (name, height, scale))
        for record in (want, got):
            record["views"][name]["camera"] = "fitted to the view"
    problems += differences(want, got)
    tabs = Tabs(qt)
    titles = tabs.texts() if tabs.widget else []
    if not tabs.widget:
        problems.append("no layout tab bar found in the GUI")
    elif titles[:-1] != list(want["layouts"]):
        # In the file's order: the plugin saves the layouts in the order
        # they were made (vtkMacroscopeSavedState), and the GUI's tabs follow.
        problems.append("the GUI's tabs are %s, the state file's layouts %s in that order"
                        % (titles[:-1], list(want["layouts"])))
    pictures = []
    for index, title in enumerate(titles[:-1]):
        tabs.set_current(tabs.widget, index)
        qt.wait(lambda: False, 1.5)
        for view in simple.GetViews():
            simple.Render(view)
        qt.wait(lambda: False, 0.5)
        base = os.path.join(shots, "%02d-%s" % (index, title.replace(" ", "-").replace("/", "-")))
        subprocess.run(["xwd", "-root", "-silent", "-out", base + ".xwd"], check=True)
        subprocess.run(["convert", "xwd:" + base + ".xwd", base + ".png"], check=True)
        os.remove(base + ".xwd")
        pictures.append(base + ".png")
    with open(record_path, "w") as f:
        json.dump({"saved": want, "loaded": got, "tabs": titles, "pictures": pictures,
                   "problems": problems}, f, indent=1, sort_keys=True)
    say("%s: %d layout tabs, %d views, %d displays, %d links; %d differences"
        % (os.path.basename(state), len(got["layouts"]), len(got["views"]),
           sum(len(v["displays"]) for v in got["views"].values()), got["links"], len(problems)))
    for problem in problems:
        say("  " + problem, 2)
    status = 0 if not problems else 1
except Exception:
    say(traceback.format_exc(), 2)
sys.stdout.flush()
sys.stderr.flush()
os._exit(status)
