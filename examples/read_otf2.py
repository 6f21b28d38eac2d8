"""Open an OTF2 trace with Macroscope's reader and print what it holds.

    pvpython examples/read_otf2.py path/to/traces.otf2 [--plugin PATH]
             [--window START END] [--location PATH ...]

Run ./scripts/demo.sh first for a sample trace in out/sample-trace/.
"""
import argparse
import os

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("anchor", help="the archive's anchor file, e.g. traces.otf2")
parser.add_argument("--plugin", default=os.path.join(
    here, "..", "build", "lib", "paraview-5.11", "plugins", "Macroscope", "Macroscope.so"))
parser.add_argument("--window", nargs=2, type=float, metavar=("START", "END"),
                    help="read only this window, in seconds since the trace start")
parser.add_argument("--location", action="append",
                    help="read only this location (a hierarchy path); repeatable")
args = parser.parse_args()

from paraview.simple import *

LoadPlugin(os.path.abspath(args.plugin), remote=False, ns=globals())

reader = OTF2TraceReader(FileName=os.path.abspath(args.anchor))
reader.UpdatePipelineInformation()  # definitions only: fast, before reading events
print("span %.6f s, %d event records, %d locations" % (
    reader.GetProperty("TimeBounds")[1], reader.GetProperty("NumberOfEventRecords")[0],
    reader.GetProperty("NumberOfLocations")[0]))
if args.window:
    reader.TimeWindow = args.window
if args.location:
    reader.Locations = args.location

reader.UpdatePipeline()
for port, name in enumerate(["States", "Messages", "Events", "Variables", "Hierarchy", "Types"]):
    info = reader.GetDataInformation(port)
    size = info.GetNumberOfRows() if name != "Hierarchy" else info.GetNumberOfVertices()
    print("%-10s %10d %s" % (name, size, "vertices" if name == "Hierarchy" else "rows"))
print(servermanager.Fetch(reader, idx=0).GetFieldData().GetAbstractArray("ReadReport").GetValue(0))
