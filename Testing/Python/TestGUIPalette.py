# Runs inside the ParaView GUI (paraview --script=...), like
# TestGUIOverview.py: the Macroscope toolbar's "Colour-Blind Palette" action
# (Plugin/Qt/pqMacroscopePaletteReaction, macroscope.use_palette,
# docs/colours.md) must switch every type of the opened trace to its
# colour-blind-safe colour, keep a colour the user chose, report it in the
# Output Messages, and switch back on a second click. The verdict goes to
# the process's stdout/stderr and the exit code.
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
    import macroscope
    qt = Qt()
    check(qt.wait(lambda: len(qt.toolbars("Macroscope")) == 1), "no Macroscope toolbar in the GUI")
    actions = qt.actions(qt.toolbars("Macroscope")[0])
    check("Colour-Blind Palette" in actions, "the Macroscope toolbar holds %s" % sorted(actions))

    trace = os.path.join(output, "trace")
    subprocess.check_call([os.environ["MACROSCOPE_SYNTH"], "--output", trace, "--iterations", "5",
                           "--quiet"])
    reader = OpenDataFile(os.path.join(trace, "traces.otf2"))
    view = CreateView("RenderView")
    AssignViewToLayout(view)
    view.OrientationAxesVisibility = 0
    view.UseColorPaletteForBackground = 0
    view.Background = [1, 1, 1]
    display = Show(OutputPort(reader, 0), view, "MacroscopeTraceRepresentation")
    display.SetRepresentationType("Timeline")
    Render(view)
    view.ResetCamera(True)
    types = servermanager.Fetch(reader, idx=5)
    names = [types.GetColumnByName("Name").GetValue(i) for i in range(types.GetNumberOfRows())]
    paradigms = [types.GetColumnByName("Paradigm").GetValue(i) for i in range(len(names))]
    roles = [types.GetColumnByName("Role").GetValue(i) for i in range(len(names))]
    blind = {n: macroscope.palette_color(n, p, r, "colour-blind") for n, p, r in zip(names, paradigms, roles)}
    check("MPI_Waitall" in blind and "compute" in blind, "the trace lacks MPI_Waitall or compute: %s" % names)
    macroscope.set_type_color("compute", "#ff00ff")  # the user's own choice

    with Messages() as messages:
        qt.activate(actions["Colour-Blind Palette"], 0)
        qt.process_events(0)
    check("the colour-blind palette" in messages.text, "the action reported %r" % messages.text)
    chosen = dict(zip(display.TypeColors[0::2], display.TypeColors[1::2]))
    check(chosen.get("MPI_Waitall") == blind["MPI_Waitall"],
          "after the action MPI_Waitall is %r, its colour-blind-safe colour is %s"
          % (chosen.get("MPI_Waitall"), blind["MPI_Waitall"]))
    check(chosen.get("compute") == "#ff00ff", "the action replaced the user's colour: %r" % chosen.get("compute"))
    check(macroscope.colors.palette_in_use() == "colour-blind", "palette_in_use() is %r"
          % macroscope.colors.palette_in_use())
    Render(view)
    # For a look (not compared): the Timeline in the colour-blind-safe palette.
    SaveScreenshot(os.path.join(output, "colour-blind.png"), view, ImageResolution=[1000, 600])

    with Messages() as messages:
        qt.activate(actions["Colour-Blind Palette"], 0)
        qt.process_events(0)
    check("the default palette" in messages.text, "the second click reported %r" % messages.text)
    check(macroscope.type_colors() == {"compute": "#ff00ff"}, "back to the default palette, "
          "TypeColors holds %r" % macroscope.type_colors())
    say("the toolbar's Colour-Blind Palette switched %d type colours and back, keeping the user's"
        % (len(chosen) - 1))
    status = 0
except Exception:
    say("FAIL: " + traceback.format_exc(), 2)
finally:
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
