"""The record both processes of the fresh-process state test make of a
loaded ParaView session, so that they can be compared exactly:

- every property value of every pipeline object and Macroscope display
  (information properties included: they are what the data told the proxy);
- the connections: which producer and output port feed each input, and
  which object each view's display shows;
- a digest of every output port of every pipeline object: the SHA-256 of
  the data object written in VTK's binary legacy format (every array,
  field data and structure, bit for bit; no rounding);
- a digest of the pixels of a screenshot of every Render View.
"""
import hashlib
import json
import os

import macroscope_testing as mt

# Where the two processes meet: beside both tests' output directories.
def shared_dir(args):
    return os.path.join(os.path.dirname(os.path.abspath(args.output)), "StateFresh")


def capture_errors():
    """mt.ErrorCapture, which in pvpython/pvbatch also swallows Python's
    output (ParaView routes it through the VTK output window): when the
    process exits with the capture still on (a failed check), its text,
    the failure message included, goes to the real stderr."""
    import atexit
    import sys
    errors = mt.ErrorCapture()
    state = {"open": True}
    close = errors.close

    def closing():
        state["open"] = False
        close()

    def dump():
        if state["open"]:
            text = errors.text()
            closing()
            sys.stderr.write(text)
            sys.stderr.flush()

    errors.close = closing
    atexit.register(dump)
    return errors


def _jsonable(value):
    from paraview import servermanager
    if isinstance(value, servermanager.Proxy):
        return "proxy:" + value.GetXMLName()
    if isinstance(value, (list, tuple)) or hasattr(value, "__iter__") and not isinstance(value, str):
        return [_jsonable(v) for v in value]
    if isinstance(value, (int, float, str)) or value is None:
        return value
    return repr(value)


def data_digest(data):
    """(class name, size, SHA-256 of the binary legacy VTK file)."""
    from vtkmodules.vtkIOLegacy import vtkGenericDataObjectWriter
    writer = vtkGenericDataObjectWriter()
    writer.SetInputData(data)
    writer.SetFileTypeToBinary()
    writer.WriteToOutputStringOn()
    mt.check(writer.Write() == 1, "cannot write a %s to digest it" % data.GetClassName())
    text = writer.GetOutputStdString()
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogateescape")
    size = data.GetNumberOfElements(data.ROW) if data.IsA("vtkTable") else (
        data.GetNumberOfElements(data.VERTEX) if data.IsA("vtkGraph") else (
            data.GetNumberOfPoints() if hasattr(data, "GetNumberOfPoints") else -1))
    return data.GetClassName(), size, hashlib.sha256(text).hexdigest()


def image_digest(path):
    """SHA-256 of the decoded pixels of a PNG, with its dimensions."""
    from vtkmodules.vtkIOImage import vtkPNGReader
    from vtkmodules.util.numpy_support import vtk_to_numpy
    mt.check(os.path.isfile(path), "no screenshot written: " + path)
    reader = vtkPNGReader()
    reader.SetFileName(path)
    reader.Update()
    image = reader.GetOutput()
    pixels = vtk_to_numpy(image.GetPointData().GetScalars())
    return list(image.GetDimensions()), hashlib.sha256(pixels.tobytes()).hexdigest()


# Information properties that tell the session's history, not the data: a
# reloaded Streamed Time Slicing rebuilds its model from the cache the first
# process wrote, so it reads the trace 0 times (its output is the same); an
# aggregation's PartitionSeconds is a measured time.
HISTORY = {"NumberOfTraceReads", "LocationsRead", "ModelOrigin", "PartitionSeconds"}


def record(args, views, screenshot_dir):
    """The record of the current session. `views` names the Render Views to
    screenshot (registration names)."""
    from paraview import servermanager, simple
    pxm = servermanager.ProxyManager()
    out = {"properties": {}, "connections": {}, "outputs": {}, "images": {}}
    sources = simple.GetSources()
    for (name, _), proxy in sorted(sources.items()):
        proxy.UpdatePipeline()
        # Information properties are refreshed by UpdatePipelineInformation
        # (the GUI's Apply does it), not by UpdatePipeline: without it a
        # reader's LocationInfo still shows the statuses from before its
        # Locations were set.
        proxy.UpdatePipelineInformation()
        values = {}
        for prop_name in proxy.ListProperties():
            if prop_name in HISTORY:
                continue
            prop = proxy.SMProxy.GetProperty(prop_name)
            if prop.IsA("vtkSMInputProperty"):
                out["connections"]["%s.%s" % (name, prop_name)] = sorted(
                    [pxm.GetProxyName("sources", prop.GetProxy(i)), prop.GetOutputPortForConnection(i)]
                    for i in range(prop.GetNumberOfProxies()))
            else:
                values[prop_name] = _jsonable(proxy.GetPropertyValue(prop_name))
        out["properties"][name] = values
        algorithm = proxy.GetClientSideObject()
        for port in range(proxy.GetNumberOfOutputPorts()):
            data = algorithm.GetOutputDataObject(port)
            mt.check(data is not None, "%s has no output on port %d" % (name, port))
            out["outputs"]["%s:%d" % (name, port)] = data_digest(data)
    for view_name in views:
        view = simple.FindView(view_name)
        mt.check(view is not None, "view %s is missing" % view_name)
        for rep in view.Representations:
            if rep.GetXMLName() != "MacroscopeTraceRepresentation":
                continue
            producer = pxm.GetProxyName("sources", rep.Input.SMProxy)
            key = "%s/%s:%d" % (view_name, producer, rep.Input.Port)
            out["properties"][key] = {p: _jsonable(rep.GetPropertyValue(p))
                                      for p in rep.ListProperties() if p != "Input"}
            out["connections"][key] = [producer, rep.Input.Port]
        path = os.path.join(screenshot_dir, view_name + ".png")
        simple.SaveScreenshot(path, view, ImageResolution=[480, 300], TransparentBackground=0)
        out["images"][view_name] = image_digest(path)
    return out


def compare(before, after):
    """Every difference between two records, as readable lines."""
    problems = []
    before, after = (json.loads(json.dumps(r, sort_keys=True)) for r in (before, after))
    for section in ("properties", "connections", "outputs", "images"):
        a, b = before[section], after[section]
        for key in sorted(set(a) | set(b)):
            if key not in b:
                problems.append("%s: %s is missing after the reload" % (section, key))
            elif key not in a:
                problems.append("%s: %s appears after the reload only" % (section, key))
            elif section == "properties":
                for prop in sorted(set(a[key]) | set(b[key])):
                    if a[key].get(prop) != b[key].get(prop):
                        problems.append("property %s.%s: %r saved, %r reloaded"
                                        % (key, prop, a[key].get(prop), b[key].get(prop)))
            elif a[key] != b[key]:
                problems.append("%s: %s was %r, is %r after the reload" % (section, key, a[key], b[key]))
    return problems


def save_json(path, data):
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)


def load_json(path):
    with open(path) as f:
        return json.load(f)
