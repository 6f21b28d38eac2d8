"""Shared helpers for Macroscope's pvpython/pvbatch tests.

Every test script is started by CTest as
    pvpython|pvbatch SCRIPT --plugin PATH --baselines DIR --output DIR
                            --synth PATH --source DIR
and loads the freshly built plugin explicitly. A test that cannot reach what it
tests (no plugin, no baseline, no X server) fails; it never passes silently.
"""
import argparse
import os
import sys


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.stderr.flush()
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--baselines", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--synth", default="")
    parser.add_argument("--source", default="")
    args, _ = parser.parse_known_args()
    os.makedirs(args.output, exist_ok=True)
    return args


def load_plugin(args, namespace):
    """Loads the plugin into paraview.simple's namespace of the caller."""
    from paraview import simple
    check(os.path.isfile(args.plugin), "plugin not built: " + args.plugin)
    simple.LoadPlugin(args.plugin, remote=False, ns=namespace)
    if simple.servermanager.ActiveConnection.IsRemote():
        simple.LoadPlugin(args.plugin, remote=True, ns=namespace)


class ErrorCapture:
    """Collects VTK error and warning messages instead of printing them."""

    def __init__(self):
        from paraview import vtk
        from vtkmodules.vtkCommonCore import vtkOutputWindow, vtkStringOutputWindow
        self._previous = vtkOutputWindow.GetInstance()
        self._window = vtkStringOutputWindow()
        vtkOutputWindow.SetInstance(self._window)

    def text(self):
        return self._window.GetOutput()

    def close(self):
        from vtkmodules.vtkCommonCore import vtkOutputWindow
        vtkOutputWindow.SetInstance(self._previous)


_written_baselines = []


def _fail_after_writing_baselines():
    print("FAIL: baselines written (%s): review and commit them, then rerun"
          % ", ".join(_written_baselines), file=sys.stderr)
    sys.stderr.flush()
    sys.stdout.flush()
    os._exit(1)  # exceptions raised at exit do not change the exit status


def compare_image(view, name, args, threshold=10.0, size=(800, 500)):
    """Renders `view`, saves OUTPUT/name.png and compares it with
    BASELINES/name.png. vtkImageDifference's thresholded error (the summed
    per-pixel error above its noise threshold, the measure and default limit
    of VTK's own regression tests) must not exceed `threshold`. With MACROSCOPE_UPDATE_BASELINES=1 the baseline is
    (re)written instead, and the test still fails so that nobody forgets to
    review and commit it."""
    from paraview import simple
    from vtkmodules.vtkIOImage import vtkPNGReader
    from vtkmodules.vtkImagingCore import vtkImageDifference

    produced = os.path.join(args.output, name + ".png")
    baseline = os.path.join(args.baselines, name + ".png")
    simple.SaveScreenshot(produced, view, ImageResolution=list(size),
                          TransparentBackground=0)
    check(os.path.isfile(produced), "no screenshot written: " + produced)

    if os.environ.get("MACROSCOPE_UPDATE_BASELINES") == "1":
        # Every image of the test is written in one run; the test then fails
        # at exit.
        import atexit
        import shutil
        shutil.copyfile(produced, baseline)
        print("baseline written to %s: review and commit it, then rerun" % baseline)
        if not _written_baselines:
            atexit.register(_fail_after_writing_baselines)
        _written_baselines.append(name)
        return
    check(os.path.isfile(baseline),
          "missing baseline %s (produced image: %s; rerun with "
          "MACROSCOPE_UPDATE_BASELINES=1 to create it)" % (baseline, produced))

    readers = []
    for path in (produced, baseline):
        reader = vtkPNGReader()
        reader.SetFileName(path)
        reader.Update()
        readers.append(reader)
    dims = [r.GetOutput().GetDimensions() for r in readers]
    check(dims[0] == dims[1], "image %s is %s, baseline is %s" % (name, dims[0], dims[1]))

    diff = vtkImageDifference()
    diff.SetInputConnection(readers[0].GetOutputPort())
    diff.SetImageConnection(readers[1].GetOutputPort())
    diff.Update()
    error = diff.GetThresholdedError()
    print("image %s: thresholded error %.3f (limit %.3f)" % (name, error, threshold))
    check(error <= threshold, "image %s differs from its baseline: %.3f > %.3f (see %s)"
          % (name, error, threshold, produced))


def synthesize(args, directory, *options):
    """Runs macroscope-synth into `directory` and returns its summary.json."""
    import json
    import subprocess
    check(os.path.isfile(args.synth), "macroscope-synth not built: " + args.synth)
    command = [args.synth, "--output", directory, "--force", "--quiet"] + [str(o) for o in options]
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(result.returncode == 0, "%s failed:\n%s" % (" ".join(command), result.stdout))
    with open(os.path.join(directory, "summary.json")) as f:
        return json.load(f)


def table_rows(table):
    """The rows of a vtkTable as tuples (doubles rounded to 1 ns), columns in
    name order and rows sorted, so that tables holding the same data in
    another row or column order compare equal."""
    columns = []
    for name in sorted(table.GetColumnName(c) for c in range(table.GetNumberOfColumns())):
        array = table.GetColumnByName(name)
        if array.IsA("vtkStringArray"):
            columns.append([array.GetValue(i) for i in range(array.GetNumberOfValues())])
        else:
            n = array.GetNumberOfComponents()
            columns.append([tuple(round(array.GetComponent(i, k), 9) for k in range(n))
                            for i in range(array.GetNumberOfTuples())])
    return sorted(zip(*columns)) if columns else []


def table_digest(table):
    import hashlib
    names = sorted(table.GetColumnName(c) for c in range(table.GetNumberOfColumns()))
    text = repr(names) + repr(table_rows(table))
    return hashlib.sha256(text.encode()).hexdigest()


def column(table, name):
    array = table.GetColumnByName(name)
    check(array is not None, "table has no column %r (columns: %s)" % (
        name, [table.GetColumnName(c) for c in range(table.GetNumberOfColumns())]))
    if array.IsA("vtkStringArray"):
        return [array.GetValue(i) for i in range(array.GetNumberOfValues())]
    return [array.GetValue(i) for i in range(array.GetNumberOfValues())]


def gather_table(proxy, port):
    """The vtkTable of `proxy`'s output `port`, with the pieces of every rank
    appended (vtkPVMergeTables) on the root: servermanager.Fetch returns the
    root's piece alone for tables (and for image data)."""
    return _gather(proxy, port, "vtkPVMergeTables")


def gather_points(proxy, port):
    """The pieces of a data set output of every rank appended on the root as
    one vtkUnstructuredGrid (points keep their coordinates and arrays)."""
    return _gather(proxy, port, "vtkAppendFilter")


def gather_model(source, slices=None, port=0):
    """The whole model [type, resource, slice] of a Time Slicing output from
    the pieces of every rank, with its window start and slice width, on the
    root (None, None, None elsewhere). Image pieces share their boundary
    points: a point given twice must carry the same value, and every cell
    must be given; `slices`, when given, is the slice count expected."""
    import numpy as np
    from paraview import servermanager
    from vtkmodules.util.numpy_support import vtk_to_numpy
    grid = gather_points(source, port)
    if servermanager.vtkProcessModule.GetProcessModule().GetPartitionId() != 0:
        return None, None, None
    fields = grid.GetFieldData()
    origin = fields.GetArray("TimeWindow").GetTuple2(0)[0]
    width = fields.GetArray("SliceWidth").GetValue(0)
    if grid.IsA("vtkImageData"):
        xyz = np.array([grid.GetPoint(i) for i in range(grid.GetNumberOfPoints())])
    else:
        xyz = vtk_to_numpy(grid.GetPoints().GetData())
    values = vtk_to_numpy(grid.GetPointData().GetArray("Value"))
    index = (np.rint(xyz[:, 2]).astype(int), np.rint(xyz[:, 1]).astype(int),
             np.rint((xyz[:, 0] - origin) / width).astype(int))
    shape = tuple(int(i.max()) + 1 for i in index)
    if slices is not None:
        check(shape[2] == slices, "the model has %d slices, not %d" % (shape[2], slices))
    model = np.full(shape, np.nan)
    model[index] = values
    check(not np.isnan(model).any(), "the pieces do not cover the %s model" % (shape,))
    check(np.array_equal(model[index], values), "the pieces give different values for a shared point")
    return model, origin, width


def _gather(proxy, port, helper):
    from paraview import servermanager
    reducer = servermanager.filters.ReductionFilter(Input=servermanager.OutputPort(proxy, port))
    reducer.PostGatherHelperName = helper
    reducer.UpdatePipeline()
    fetcher = servermanager.filters.ClientServerMoveData(Input=reducer)
    fetcher.OutputDataType = reducer.GetDataInformation(0).GetDataSetType()
    fetcher.UpdatePipeline()
    output = fetcher.GetClientSideObject().GetOutputDataObject(0)
    table = output.NewInstance()
    table.ShallowCopy(output)
    return table


def otf2_print_counts(anchor):
    """Event records per kind as OTF2's own otf2-print lists them, e.g.
    {"ENTER": 1300, "MPI_ISEND": 280, ...}: an independent count to check a
    reader against."""
    import collections
    import shutil
    import subprocess
    tool = shutil.which("otf2-print")
    check(tool is not None, "otf2-print is not installed (Debian package otf2-tools)")
    result = subprocess.run([tool, anchor], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(result.returncode == 0, "otf2-print failed on %s:\n%s" % (anchor, result.stderr))
    counts = collections.Counter()
    for line in result.stdout.splitlines():
        word = line.split(" ", 1)[0]
        if word.isupper() and word.replace("_", "").isalpha():
            counts[word] += 1
    return counts


def selected_ids(source):
    """The ids a pick in a render view selected on `source`'s first output:
    its selection input is an AppendSelections of ID selections holding
    (process, id) pairs."""
    from paraview import servermanager
    selection = source.SMProxy.GetSelectionInput(0)
    check(selection is not None, "the pick selected nothing")
    selection = servermanager._getPyProxy(selection)
    parts = selection.Input if selection.GetXMLName() == "AppendSelections" else [selection]
    ids = set()
    for part in parts:
        check(part.GetXMLName() == "IDSelectionSource",
              "the pick gave a %s, not an ID selection" % part.GetXMLName())
        ids.update(list(part.IDs)[1::2])
    return sorted(ids)


def plot_size(layout, labels_port):
    """The width and height of a chart layout's plot: what its labels,
    axis and legend leave of its ViewSize (field data PlotSize of its
    Labels output, docs/labels.md)."""
    from paraview import servermanager
    labels = servermanager.Fetch(layout, idx=labels_port)
    size = labels.GetFieldData().GetArray("PlotSize")
    check(size is not None and size.GetNumberOfComponents() == 2,
          "the Labels output has no PlotSize field data")
    return size.GetComponent(0, 0), size.GetComponent(0, 1)
