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
    print("GUI smoke test: plugin loaded, %d points shown" % points)
    status = 0
except Exception:
    traceback.print_exc()
sys.stdout.flush()
sys.stderr.flush()
os._exit(status)
