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
        import shutil
        shutil.copyfile(produced, baseline)
        fail("baseline written to %s: review and commit it, then rerun" % baseline)
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
