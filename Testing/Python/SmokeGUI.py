# Runs inside the ParaView GUI (paraview --script=...). The GUI does not exit
# by itself after a --script, so this script ends the process with an exit
# code: 0 when the plugin loaded and a pipeline ran, 1 otherwise.
import os
import sys
import traceback

status = 1
try:
    from paraview.simple import *
    plugin = os.environ["MACROSCOPE_PLUGIN"]
    output = os.environ["MACROSCOPE_OUTPUT"]
    LoadPlugin(plugin, remote=False, ns=globals())
    trace = SyntheticTrace(OutputDirectory=os.path.join(output, "trace"), Iterations=2)
    layout = HierarchyLayout(Input=trace)
    Show(layout)
    Render()
    points = layout.GetDataInformation().GetNumberOfPoints()
    if points <= 0:
        raise RuntimeError("the layout shown in the GUI is empty")
    # File > Open of the archive the source wrote picks the OTF2 reader.
    reader = OpenDataFile(os.path.join(output, "trace", "traces.otf2"))
    if reader is None or reader.GetXMLName() != "MacroscopeOTF2Reader":
        raise RuntimeError("opening traces.otf2 did not choose the Macroscope OTF2 reader")
    sheet = CreateView("SpreadSheetView")
    Show(OutputPort(reader, 0), sheet)
    Render(sheet)
    states = reader.GetDataInformation(0).GetNumberOfRows()
    if states <= 0:
        raise RuntimeError("the reader opened in the GUI shows no states")
    print("GUI smoke test: plugin loaded, %d points shown, %d states read" % (points, states))
    status = 0
except Exception:
    traceback.print_exc()
sys.stdout.flush()
sys.stderr.flush()
os._exit(status)
