# Runs inside the ParaView GUI (paraview --script=...), like TestGUISnapshot.py:
# the Macroscope toolbar's "Overview" action (Plugin/Qt,
# Plugin/macroscope/overview.py, docs/overviews.md) is the fast path for a
# large trace. After File > Open of an OTF2 archive (the reader created, not
# applied), triggering Overview must
#   - build a Streamed Time Slicing of that file at its defaults and a
#     Spatiotemporal Aggregation of it, shown as a Spatiotemporal Overview
#     in a Render View of its own that is the active view, fitted to it;
#   - leave the reader's tables unread (its States output stays empty);
#   - report what it built in the Output Messages;
# the overview's picture must hold the parts' colours; with no active
# source, the action must say what to open instead of failing. The verdict
# goes to the process's stdout/stderr and the exit code; the picture stays
# in MACROSCOPE_OUTPUT.
import os
import shutil
import subprocess
import sys
import traceback

from macroscope_gui_toolbar import Messages, Qt  # Testing/Python, on PYTHONPATH


def say(text, fd=1):
    os.write(fd, (text + "\n").encode())


def check(condition, message):
    if not condition:
        raise RuntimeError(message)


status = 1
try:
    from paraview.simple import *
    from paraview import servermanager
    plugin = os.environ["MACROSCOPE_PLUGIN"]
    output = os.environ["MACROSCOPE_OUTPUT"]
    shutil.rmtree(output, ignore_errors=True)
    os.makedirs(output)
    LoadPlugin(plugin, remote=False, ns=globals())
    qt = Qt()
    check(qt.wait(lambda: len(qt.toolbars("Macroscope")) == 1), "no Macroscope toolbar in the GUI")
    actions = qt.actions(qt.toolbars("Macroscope")[0])
    check("Overview" in actions, "the Macroscope toolbar holds %s, no Overview" % sorted(actions))

    # A trace of 2M events on 32 locations, opened as File > Open does.
    trace = os.path.join(output, "trace")
    subprocess.check_call([os.environ["MACROSCOPE_SYNTH"], "--output", trace, "--events", "2e6",
                           "--perturbation", "slow-node", "--perturb-target", "3",
                           "--perturb-window", "1", "3", "--quiet"])
    anchor = os.path.join(trace, "traces.otf2")
    reader = OpenDataFile(anchor)
    check(reader is not None and reader.GetXMLName() == "MacroscopeOTF2Reader",
          "File > Open of %s gave %s" % (anchor, reader and reader.GetXMLName()))
    SetActiveSource(reader)
    views_before = len(GetViews())

    with Messages() as messages:
        qt.activate(actions["Overview"], 0)
        qt.process_events(0)
    check("Macroscope overview of %s" % anchor in messages.text,
          "Overview reported %r" % messages.text)

    pxm = servermanager.ProxyManager()
    models = [p for p in pxm.GetProxiesInGroup("sources").values()
              if p.GetXMLName() == "MacroscopeStreamedTimeSlicing"]
    check(len(models) == 1, "%d Streamed Time Slicing sources after Overview" % len(models))
    model = models[0]
    check(model.FileName == anchor, "the streamed model reads %r" % model.FileName)
    check(model.Slices == 100, "the streamed model has %d slices, not the default 100" % model.Slices)
    aggregations = [p for p in pxm.GetProxiesInGroup("sources").values()
                    if p.GetXMLName() == "MacroscopeSpatiotemporalAggregation"]
    check(len(aggregations) == 1, "%d Spatiotemporal Aggregations after Overview" % len(aggregations))
    aggregation = aggregations[0]
    check(aggregation.Input.SMProxy == model.SMProxy, "the aggregation is not fed by the streamed model")

    view = GetActiveView()
    check(len(GetViews()) == views_before + 1 and view.GetXMLName() == "RenderView",
          "Overview did not make a Render View of its own the active view")
    display = GetDisplayProperties(OutputPort(aggregation, 0), view)
    check(display.Visibility == 1 and display.Representation == "Spatiotemporal Overview",
          "the aggregation is shown as %r" % display.Representation)
    check(GetActiveSource().SMProxy == aggregation.SMProxy,
          "the aggregation is not the active source (its Parameter in the Properties panel)")

    # The reader's tables were not read: its States output is empty.
    states = reader.GetClientSideObject().GetOutputDataObject(0)
    check(states.GetNumberOfRows() == 0, "the reader's tables were read (%d states)"
          % states.GetNumberOfRows())
    model_info = model.GetDataInformation(0).GetExtent()
    check(model_info[1] + 1 == 100 and model_info[3] + 1 == 32,
          "the model is %s, not 100 slices x 32 locations" % (model_info,))

    # The picture: the parts' colours fill the view, fitted to it.
    picture = os.path.join(output, "overview.png")
    SaveScreenshot(picture, view, ImageResolution=[1200, 700])
    from vtkmodules.vtkIOImage import vtkPNGReader
    png = vtkPNGReader()
    png.SetFileName(picture)
    png.Update()
    image = png.GetOutput()
    pixels = image.GetPointData().GetScalars()
    width, height = image.GetDimensions()[0:2]
    colours = set()
    coloured = 0
    for i in range(0, width * height, 7):
        rgb = tuple(int(pixels.GetComponent(i, c)) for c in range(3))
        colours.add(rgb)
        if max(rgb) - min(rgb) > 40:
            coloured += 1
    share = coloured / float(len(range(0, width * height, 7)))
    check(len(colours) >= 4 and share > 0.3,
          "the overview picture has %d colours, %.0f%% coloured pixels" % (len(colours), 100 * share))

    # No active source: the action says what to do.
    SetActiveSource(None)
    with Messages() as messages:
        qt.activate(actions["Overview"], 0)
    check("no active source" in messages.text and "File > Open" in messages.text,
          "Overview without a source reported %r" % messages.text)

    say("GUI overview test: the streamed overview of %s, %d parts, picture %s (%d colours, "
        "%.0f%% coloured)" % (anchor, servermanager.Fetch(aggregation, idx=0).GetNumberOfRows(),
                              picture, len(colours), 100 * share))
    status = 0
except Exception:
    say(traceback.format_exc(), 2)
sys.stdout.flush()
sys.stderr.flush()
os._exit(status)
