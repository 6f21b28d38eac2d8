"""Snapshot: the pictures of the current views together with the state file
that reproduces them, and a manifest that says what was saved
(docs/snapshot.md).

    import macroscope
    manifest = macroscope.snapshot("/tmp/run-42")

writes into the directory ``snapshot-<view>.png`` per view, one
``snapshot-layout-<n>.png`` per layout of several views, ``snapshot.pvsm``
(ParaView's state) and ``snapshot.json`` (the manifest, returned as a dict).
The manifest is written last, and only after every file it lists is on disk:
a snapshot that fails raises :class:`SnapshotError`, removes what it had
written and leaves no manifest claiming it.
"""
import datetime
import json
import os
import re

MANIFEST_FORMAT = 1


class SnapshotError(RuntimeError):
    """A snapshot could not be written; the message names the directory or
    the file and the reason."""


def _simple():
    from paraview import simple
    return simple


def _views_in_layouts():
    """[(layout name or None, view name, view)]: the views of each layout in
    the order of their cells, then any view not in a layout (pvbatch and
    pvpython create views detached from layouts)."""
    simple = _simple()
    from paraview import servermanager
    pxm = servermanager.ProxyManager()
    names = {v.GetGlobalID(): name for (name, _), v in pxm.GetProxiesInGroup("views").items()}
    placed, seen = [], set()
    for (layout_name, _), layout in sorted(simple.GetLayouts().items()):
        located = [(layout.GetViewLocation(v), v) for v in simple.GetViews()]
        for _, view in sorted((loc, v) for loc, v in located if loc != -1):
            placed.append((layout_name, names.get(view.GetGlobalID(), "view"), view))
            seen.add(view.GetGlobalID())
    for view in simple.GetViews():
        if view.GetGlobalID() not in seen:
            placed.append((None, names.get(view.GetGlobalID(), "view"), view))
    return placed


def _file_stem(text):
    """A file-name-safe form of a registration name ('Render View 1' ->
    'Render-View-1')."""
    return re.sub(r"[^A-Za-z0-9_.]+", "-", text).strip("-") or "view"


def _prepare_directory(directory):
    """Creates `directory` if needed and proves it writable by writing a
    probe file; raises SnapshotError naming it otherwise."""
    try:
        os.makedirs(directory, exist_ok=True)
        probe = os.path.join(directory, ".macroscope-snapshot-probe")
        with open(probe, "w") as f:
            f.write("probe")
        os.remove(probe)
    except OSError as error:
        raise SnapshotError("cannot write a snapshot into %s: %s"
                            % (directory, error.strerror or error)) from error


def _plugin_version():
    """The Macroscope plugin's version as the plugin manager reports it, or
    None when the plugin is not loaded in this process."""
    from paraview import servermanager
    info = servermanager.vtkSMProxyManager.GetProxyManager().GetPluginManager().GetLocalInformation()
    for i in range(info.GetNumberOfPlugins()):
        if info.GetPluginName(i) == "Macroscope" and info.GetPluginLoaded(i):
            return info.GetPluginVersion(i)
    return None


def _trace_files():
    """Every pipeline object's file-name properties (those with a file-list
    domain: the readers' FileName and HierarchyFile, the Synthetic Trace's
    OutputDirectory, ...), set ones only."""
    simple = _simple()
    from paraview import servermanager
    pxm = servermanager.ProxyManager()
    sources = []
    for (name, _), proxy in sorted(pxm.GetProxiesInGroup("sources").items()):
        files = {}
        for prop_name in proxy.ListProperties():
            prop = proxy.GetProperty(prop_name)
            smprop = getattr(prop, "SMProperty", None)
            if smprop is None or not smprop.FindDomain("vtkSMFileListDomain"):
                continue
            value = prop.GetData()
            values = [value] if isinstance(value, str) else list(value or [])
            values = [v for v in values if isinstance(v, str) and v]
            if values:
                files[prop_name] = values[0] if len(values) == 1 else values
        if files:
            sources.append({"name": name, "type": proxy.GetXMLName(), "files": files})
    return sources


def _image_size(path):
    from vtkmodules.vtkIOImage import vtkPNGReader
    reader = vtkPNGReader()
    reader.SetFileName(path)
    reader.Update()
    dims = reader.GetOutput().GetDimensions()
    return [dims[0], dims[1]]


def _save_picture(path, proxy, resolution, written):
    """SaveScreenshot of a view or layout into `path`; the file must exist
    afterwards (SaveScreenshot returns False or writes nothing on failure)."""
    simple = _simple()
    options = {"TransparentBackground": 0}
    if resolution is not None:
        options["ImageResolution"] = [int(resolution[0]), int(resolution[1])]
    ok = simple.SaveScreenshot(path, proxy, **options)
    if os.path.isfile(path):
        written.append(path)
    if not ok or not os.path.isfile(path):
        raise SnapshotError("could not save the picture %s" % path)
    return _image_size(path)


def _write_manifest(path, manifest, written):
    """Writes the manifest through a temporary file renamed into place, so a
    reader never finds a partial one."""
    temporary = path + ".part"
    try:
        with open(temporary, "w") as f:
            json.dump(manifest, f, indent=2, sort_keys=True)
            f.write("\n")
        os.replace(temporary, path)
        written.append(path)
    except OSError as error:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise SnapshotError("could not write the manifest %s: %s" % (path, error)) from error


def _resolution_of(resolution):
    if resolution is None:
        return None
    if len(resolution) != 2 or int(resolution[0]) < 1 or int(resolution[1]) < 1:
        raise SnapshotError("resolution must be [width, height] in pixels, got %r" % (resolution,))
    return [int(resolution[0]), int(resolution[1])]


def snapshot(directory, views=None, resolution=None, name="snapshot"):
    """Saves one PNG per view, a PNG of each layout holding several views,
    the state file (.pvsm) and a JSON manifest into `directory` (created if
    needed), and returns the manifest as a dict.

    views: the view proxies to picture (default: every view, those of the
    layouts first). resolution: [width, height] of every picture (default:
    each view's own size). name: the stem of every file written.

    Raises SnapshotError naming the directory when it cannot be written, or
    the file that failed; the files of a failed snapshot are removed and no
    manifest is written."""
    simple = _simple()
    from paraview import servermanager
    directory = os.path.abspath(directory)
    resolution = _resolution_of(resolution)
    if not name or os.sep in name:
        raise SnapshotError("name must be a plain file stem, got %r" % (name,))
    _prepare_directory(directory)

    placed = _views_in_layouts()
    if views is not None:
        wanted = {v.GetGlobalID() for v in views}
        placed = [p for p in placed if p[2].GetGlobalID() in wanted]
        if len(placed) != len(wanted):
            raise SnapshotError("some of the views given to snapshot are not views of this session")
    if not placed:
        raise SnapshotError("no view to snapshot into %s: create and show a view first" % directory)

    written = []
    try:
        entries, stems = [], set()
        for layout_name, view_name, view in placed:
            stem = _file_stem(view_name)
            while stem in stems:
                stem += "_"
            stems.add(stem)
            file_name = "%s-%s.png" % (name, stem)
            view_size = list(view.ViewSize)
            size = _save_picture(os.path.join(directory, file_name), view, resolution, written)
            entries.append({"name": view_name, "type": view.GetXMLName(), "layout": layout_name,
                            "view_size": view_size, "size": size, "file": file_name})

        layouts = []
        for index, ((layout_name, _), layout) in enumerate(sorted(simple.GetLayouts().items())):
            inside = [e for e in entries if e["layout"] == layout_name]
            if len(inside) < 2:
                continue
            file_name = "%s-layout-%d.png" % (name, index)
            size = _save_picture(os.path.join(directory, file_name), layout, None, written)
            layouts.append({"name": layout_name, "views": [e["name"] for e in inside],
                            "size": size, "file": file_name})

        state_file = name + ".pvsm"
        state_path = os.path.join(directory, state_file)
        simple.SaveState(state_path)
        if os.path.isfile(state_path):
            written.append(state_path)
        else:
            raise SnapshotError("could not save the state file %s" % state_path)

        manifest = {
            "format": MANIFEST_FORMAT,
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "paraview_version": servermanager.vtkSMProxyManager.GetParaViewSourceVersion(),
            "plugin_version": _plugin_version(),
            "state": state_file,
            "views": entries,
            "layouts": layouts,
            "sources": _trace_files(),
        }
        manifest["files"] = [state_file] + [e["file"] for e in entries] + [l["file"] for l in layouts]
        _write_manifest(os.path.join(directory, name + ".json"), manifest, written)
        return manifest
    except BaseException:
        for path in written:
            if os.path.exists(path):
                os.remove(path)
        raise
