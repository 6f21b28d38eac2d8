"""Snapshot (docs/snapshot.md): macroscope.snapshot saves the
pictures of the views with the state file that reproduces them.

Process 1 (this pvbatch) shows a synthesized trace as a Timeline and its
Spatiotemporal Overview in two Render Views of one layout, and the trace's
event density in a line chart view, then calls macroscope.snapshot. The
manifest must list every file, each existing, with the picture sizes.
Process 2 (a fresh pvbatch started by this script with --reload) loads the
saved state with the plugin, renders every view at the recorded size and
compares it with the saved picture (vtkImageDifference, the measure of
macroscope_testing.compare_image): they must match. A control checks that
the comparison can fail (a picture of another view differs). Last, an
unwritable directory must raise SnapshotError naming it, and a failed
snapshot leaves no manifest."""
import json
import os
import subprocess
import sys

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())
import macroscope

THRESHOLD = 10.0  # vtkImageDifference's thresholded error, as compare_image


def image_error(first, second):
    """vtkImageDifference's thresholded error between two PNG files, or None
    when their sizes differ."""
    from vtkmodules.vtkIOImage import vtkPNGReader
    from vtkmodules.vtkImagingCore import vtkImageDifference
    readers = []
    for path in (first, second):
        reader = vtkPNGReader()
        reader.SetFileName(path)
        reader.Update()
        readers.append(reader)
    if readers[0].GetOutput().GetDimensions() != readers[1].GetOutput().GetDimensions():
        return None
    diff = vtkImageDifference()
    diff.SetInputConnection(readers[0].GetOutputPort())
    diff.SetImageConnection(readers[1].GetOutputPort())
    diff.Update()
    return diff.GetThresholdedError()


def reload_and_compare(directory):
    """Process 2: loads the snapshot's state in this fresh process and
    compares each view, rendered at its recorded size, with its picture."""
    with open(os.path.join(directory, "snapshot.json")) as f:
        manifest = json.load(f)
    LoadState(os.path.join(directory, manifest["state"]))
    names = {name: view for (name, _), view in
             servermanager.ProxyManager().GetProxiesInGroup("views").items()}
    mt.check(sorted(names) == sorted(e["name"] for e in manifest["views"]),
             "the state has the views %s, the manifest %s"
             % (sorted(names), [e["name"] for e in manifest["views"]]))
    rendered = os.path.join(args.output, "reloaded")
    os.makedirs(rendered, exist_ok=True)
    for entry in manifest["views"]:
        view = names[entry["name"]]
        mt.check(view.GetXMLName() == entry["type"], "view %s is a %s, the manifest says %s"
                 % (entry["name"], view.GetXMLName(), entry["type"]))
        path = os.path.join(rendered, entry["file"])
        SaveScreenshot(path, view, ImageResolution=entry["size"], TransparentBackground=0)
        error = image_error(path, os.path.join(directory, entry["file"]))
        mt.check(error is not None, "view %s reloaded renders at another size than %s"
                 % (entry["name"], entry["size"]))
        print("view %s (%s): thresholded error %.3f after reloading (limit %.1f)"
              % (entry["name"], entry["type"], error, THRESHOLD))
        mt.check(error <= THRESHOLD, "view %s reloaded from the state differs from its snapshot "
                 "picture: %.3f > %.1f (see %s)" % (entry["name"], error, THRESHOLD, path))
    print("fresh process: %d views reproduced from %s" % (len(manifest["views"]), manifest["state"]))


def main():

    # --- Process 1: the pipeline, two Macroscope views and a chart in one layout.
    trace_dir = os.path.join(args.output, "trace")
    mt.synthesize(args, trace_dir, "--clusters", 2, "--nodes-per-cluster", 2, "--ranks-per-node", 2,
                  "--iterations", 30, "--perturbation", "slow-node", "--perturb-target", 1)
    reader = OTF2TraceReader(registrationName="reader", FileName=os.path.join(trace_dir, "traces.otf2"))
    outputs = [OutputPort(reader, i) for i in range(6)]
    slicing = TimeSlicing(registrationName="slicing", Input=outputs, Slices=30)
    partition = SpatiotemporalAggregation(registrationName="partition", Input=slicing, Parameter=0.3)
    statistics = TraceStatistics(registrationName="statistics", Input=outputs, Bins=30)

    layout = CreateLayout("Snapshot")


    def render_view(name, hint):
        view = CreateView("RenderView", registrationName=name)
        view.OrientationAxesVisibility = 0
        view.ViewSize = [480, 320]
        AssignViewToLayout(view, layout, hint)
        return view


    timeline_view = render_view("timeline", 0)
    timeline = Show(outputs[0], timeline_view, "MacroscopeTraceRepresentation")
    timeline.SetRepresentationType("Timeline")
    overview_view = render_view("overview", 2)
    overview = Show(OutputPort(partition, 0), overview_view, "MacroscopeTraceRepresentation")
    overview.SetRepresentationType("Spatiotemporal Overview")
    chart = CreateView("XYChartView", registrationName="density")
    chart.ViewSize = [400, 300]
    line = Show(OutputPort(statistics, 2), chart)
    line.UseIndexForXAxis = 0
    line.XArrayName = "BinCenter"
    for view in (timeline_view, overview_view):
        Render(view)
        view.ResetCamera(True)
    Render(chart)

    snapshot_dir = os.path.join(args.output, "snapshot")
    if os.path.isdir(snapshot_dir):
        import shutil
        shutil.rmtree(snapshot_dir)
    manifest = macroscope.snapshot(snapshot_dir)

    # The manifest and what is on disk agree.
    with open(os.path.join(snapshot_dir, "snapshot.json")) as f:
        mt.check(json.load(f) == manifest, "snapshot.json differs from the returned manifest")
    mt.check(manifest["state"] == "snapshot.pvsm", "state %r" % manifest["state"])
    names = [e["name"] for e in manifest["views"]]
    mt.check(sorted(names) == ["density", "overview", "timeline"], "views in the manifest: %s" % names)
    mt.check(names[:2] == ["timeline", "overview"], "the layout's views first, in order: %s" % names)
    types = {e["name"]: e["type"] for e in manifest["views"]}
    mt.check(types == {"timeline": "RenderView", "overview": "RenderView", "density": "XYChartView"},
             "view types %s" % types)
    mt.check(len(manifest["layouts"]) == 1 and sorted(manifest["layouts"][0]["views"]) == ["overview", "timeline"],
             "layout pictures %s" % manifest["layouts"])
    listed = set(manifest["files"])
    expected = {"snapshot.pvsm"} | {e["file"] for e in manifest["views"]} | {manifest["layouts"][0]["file"]}
    mt.check(listed == expected, "files %s, expected %s" % (sorted(listed), sorted(expected)))
    on_disk = set(os.listdir(snapshot_dir))
    mt.check(on_disk == listed | {"snapshot.json"}, "directory holds %s, manifest lists %s"
             % (sorted(on_disk), sorted(listed)))
    from vtkmodules.vtkIOImage import vtkPNGReader
    from vtkmodules.util.numpy_support import vtk_to_numpy
    for entry in manifest["views"]:
        png = vtkPNGReader()
        png.SetFileName(os.path.join(snapshot_dir, entry["file"]))
        png.Update()
        dims = list(png.GetOutput().GetDimensions()[:2])
        mt.check(dims == entry["size"] == entry["view_size"],
                 "%s is %s, the manifest says %s (view size %s)" % (entry["file"], dims, entry["size"],
                                                                  entry["view_size"]))
        colours = len({tuple(p) for p in vtk_to_numpy(png.GetOutput().GetPointData().GetScalars())[::5]})
        mt.check(colours > 3, "the picture of %s is blank (%d colours)" % (entry["name"], colours))
    layout_size = manifest["layouts"][0]["size"]
    side_by_side = layout_size[0] >= 2 * 480 and layout_size[1] >= 320
    stacked = layout_size[0] >= 480 and layout_size[1] >= 2 * 320
    mt.check(side_by_side or stacked, "the layout picture (%s) cannot hold both 480x320 views"
             % (layout_size,))
    sources = {s["name"]: s for s in manifest["sources"]}
    mt.check(sources.get("reader", {}).get("files", {}).get("FileName") == os.path.join(trace_dir, "traces.otf2"),
             "the manifest's trace files: %s" % manifest["sources"])
    mt.check(manifest["plugin_version"], "no plugin version in the manifest")
    mt.check("5.11" in manifest["paraview_version"], "ParaView version %r" % manifest["paraview_version"])

    # The comparison can fail: the timeline's picture against the overview's,
    # rendered at the timeline's size, differs.
    control = os.path.join(args.output, "control.png")
    SaveScreenshot(control, overview_view, ImageResolution=[480, 320], TransparentBackground=0)
    error = image_error(control, os.path.join(snapshot_dir, manifest["views"][0]["file"]))
    mt.check(error is not None and error > THRESHOLD,
             "the control comparison (another view) does not fail: error %s" % error)

    # --- Process 2: a fresh pvbatch loads the state and must reproduce the pictures.
    import shutil
    pvbatch = shutil.which("pvbatch")
    mt.check(pvbatch is not None, "pvbatch is not on the PATH: the fresh process cannot run")
    command = [pvbatch, os.path.abspath(__file__), "--plugin", args.plugin, "--baselines", args.baselines,
               "--output", os.path.join(args.output, "fresh"), "--reload", snapshot_dir]
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(result.stdout)
    mt.check(result.returncode == 0, "the fresh process did not reproduce the pictures (exit %d)"
             % result.returncode)

    # --- Errors: an unwritable directory is named; nothing is left claimed.
    blocker = os.path.join(args.output, "not-a-directory")
    with open(blocker, "w") as f:
        f.write("a file where the snapshot's parent directory should be")
    bad = os.path.join(blocker, "snapshot")
    try:
        macroscope.snapshot(bad)
        mt.fail("snapshot into %s did not raise" % bad)
    except macroscope.SnapshotError as error:
        mt.check(bad in str(error), "the error does not name the directory: %s" % error)
        print("unwritable directory: %s" % error)
    if os.getuid() != 0:  # root writes anywhere
        readonly = os.path.join(args.output, "readonly")
        os.makedirs(readonly, exist_ok=True)
        os.chmod(readonly, 0o500)
        try:
            macroscope.snapshot(readonly)
            mt.fail("snapshot into the read-only %s did not raise" % readonly)
        except macroscope.SnapshotError as error:
            mt.check(readonly in str(error), "the error does not name the directory: %s" % error)
        finally:
            os.chmod(readonly, 0o700)
        mt.check(not os.listdir(readonly), "a failed snapshot left %s" % os.listdir(readonly))
    # A failure after the pictures were written (the state file's path is taken
    # by a directory) removes them and writes no manifest.
    partial = os.path.join(args.output, "partial")
    os.makedirs(os.path.join(partial, "snapshot.pvsm"), exist_ok=True)
    errors = mt.ErrorCapture()  # SaveState's own error message is expected
    try:
        macroscope.snapshot(partial)
        mt.fail("a snapshot whose state file cannot be written did not raise")
    except macroscope.SnapshotError as error:
        mt.check("snapshot.pvsm" in str(error), "the error does not name the state file: %s" % error)
    finally:
        errors.close()
    mt.check(os.listdir(partial) == ["snapshot.pvsm"], "a failed snapshot left %s" % os.listdir(partial))
    try:
        macroscope.snapshot(os.path.join(args.output, "never"), resolution=[0, 10])
        mt.fail("a resolution of 0 pixels did not raise")
    except macroscope.SnapshotError as error:
        mt.check("resolution" in str(error), "unclear error: %s" % error)
    print("snapshot: %d views, %d files; reproduced by a fresh process" % (len(names), len(listed)))


if "--reload" in sys.argv:
    reload_and_compare(sys.argv[sys.argv.index("--reload") + 1])
else:
    main()
