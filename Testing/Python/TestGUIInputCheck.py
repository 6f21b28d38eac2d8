# Runs inside the ParaView GUI (paraview --script=...): representation types
# check their input (docs/details-on-demand.md). The reader's
# States are shown as the Timeline; then the representation selector of the
# toolbar (pqDisplayRepresentationWidget's own QComboBox, set through ctypes
# as a user's choice) switches to Temporal Overview, then to Treemap: each
# time the Output Messages get one error naming the representation, what it
# needs and what it got, and the view draws nothing (no cell, and the saved
# picture holds only the background). Back to Timeline, the chart is drawn.
import ctypes
import os
import shutil
import subprocess
import sys
import traceback

from macroscope_gui_toolbar import Messages, Qt


def say(text, fd=1):
    os.write(fd, (text + "\n").encode())


def check(condition, message):
    if not condition:
        raise RuntimeError(message)


status = 1
try:
    from paraview.simple import *
    plugin = os.environ["MACROSCOPE_PLUGIN"]
    output = os.environ["MACROSCOPE_OUTPUT"]
    shutil.rmtree(output, ignore_errors=True)
    os.makedirs(output)
    LoadPlugin(plugin, remote=False, ns=globals())
    qt = Qt()
    P = qt.P
    count = qt.function("_ZNK9QComboBox5countEv", ctypes.c_int, P)
    item_text = qt.function("_ZNK9QComboBox8itemTextEi", P, P, P, ctypes.c_int)
    current_index = qt.function("_ZNK9QComboBox12currentIndexEv", ctypes.c_int, P)
    set_current_index = qt.function("_ZN9QComboBox15setCurrentIndexEi", None, P, ctypes.c_int)

    def selectors():
        """The combo boxes listing the Macroscope representation types."""
        result = (P * 1)()
        qt.all_widgets(result)
        meta = ctypes.addressof(ctypes.c_char.in_dll(qt.lib, "_ZN9QComboBox16staticMetaObjectE"))
        found = []
        for widget in qt.pointers(ctypes.addressof(result)):
            if not qt.cast(meta, widget):
                continue
            items = []
            for i in range(count(widget)):
                text = (P * 1)()
                item_text(text, widget, i)
                items.append(qt.text(ctypes.addressof(text)))
            if "Temporal Overview" in items and "Timeline" in items:
                found.append((widget, items))
        return found

    trace = os.path.join(output, "trace")
    subprocess.check_call([os.environ["MACROSCOPE_SYNTH"], "--output", trace, "--clusters", "1",
                           "--nodes-per-cluster", "2", "--ranks-per-node", "2",
                           "--threads-per-rank", "2", "--iterations", "20", "--quiet"])
    reader = OpenDataFile(os.path.join(trace, "traces.otf2"))
    reader.UpdatePipeline()
    SetActiveSource(reader)
    view = GetActiveViewOrCreate("RenderView")
    view.OrientationAxesVisibility = 0  # the picture must hold the chart alone
    display = Show(OutputPort(reader, 0), view, "MacroscopeTraceRepresentation")
    display.SetRepresentationType("Timeline")
    Render(view)
    view.ResetCamera(True)
    Render(view)

    def cells():
        return display.SMProxy.GetRepresentedDataInformation().GetNumberOfCells()
    check(cells() > 0, "the Timeline draws nothing")
    check(qt.wait(lambda: len(selectors()) > 0, 10), "no representation selector lists the Macroscope types")
    # The toolbar's selector and the Properties panel's both follow the
    # active display; take one that shows it.
    shown = [(w, i) for w, i in selectors() if i[current_index(w)] == "Timeline"]
    check(shown, "no representation selector shows the Timeline: %s" % [
        (i, current_index(w)) for w, i in selectors()])
    object_name = lambda w: qt.string_of(qt.object_name, w)
    say("%d selectors list the Macroscope types, %d show the Timeline" % (len(selectors()), len(shown)))

    def background_only(name):
        picture = os.path.join(output, name)
        SaveScreenshot(picture, view, ImageResolution=[400, 300])
        from vtkmodules.vtkIOImage import vtkPNGReader
        png = vtkPNGReader()
        png.SetFileName(picture)
        png.Update()
        scalars = png.GetOutput().GetPointData().GetScalars()
        colours = set(scalars.GetTuple(i)[:3] for i in range(0, scalars.GetNumberOfTuples(), 3))
        return len(colours), picture

    for kind, needs in (("Temporal Overview", "the Partition output of Temporal Aggregation"),
                        ("Treemap", "the Treemap output of Resource Treemap")):
        with Messages() as messages:
            # The selector that acts at once on the display (the toolbar's;
            # the Properties panel's may wait for Apply).
            for widget, items in shown:
                set_current_index(widget, items.index(kind))
                if qt.wait(lambda: display.Representation == kind, 3):
                    say("switched with the selector %r" % object_name(widget))
                    break
            Render(view)
            qt.wait(lambda: False, 1)
        check(display.Representation == kind, "no selector switched to %s" % kind)
        text = messages.text
        check(("The %s representation cannot show its input" % kind) in text,
              "%s on States: no error naming it: %r" % (kind, text))
        check(("it needs " + needs) in text and "it got the States output of a trace reader" in text,
              "%s on States: the error does not say what is needed and given: %r" % (kind, text))
        check(cells() == 0, "%s on States still draws %d cells" % (kind, cells()))
        colours, picture = background_only("%s.png" % kind.replace(" ", ""))
        check(colours == 1, "%s on States: the picture %s holds %d colours" % (kind, picture, colours))
        say("%s on States: %s" % (kind, text.strip().splitlines()[-1] if text.strip() else ""))

    with Messages() as messages:
        set_current_index(widget, items.index("Timeline"))
        qt.wait(lambda: display.Representation == "Timeline", 10)
        Render(view)
    check(display.Representation == "Timeline", "the selector did not switch back to the Timeline")
    check("cannot show" not in messages.text, "the Timeline reported %r" % messages.text)
    # (The represented-data information is not gathered again when the
    # type goes back to one that did not re-execute: the picture tells.)
    colours, picture = background_only("Timeline.png")
    check(colours > 4, "the Timeline picture %s holds %d colours" % (picture, colours))
    say("GUI input check: Temporal Overview and Treemap on States refused, Timeline drawn")
    status = 0
except Exception:
    say(traceback.format_exc(), 2)
sys.stdout.flush()
sys.stderr.flush()
os._exit(status)
