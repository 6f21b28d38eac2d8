"""Times the Pajé reader proxy (parse, then the six outputs) on one trace:
   pvpython bench_paje_reader.py PLUGIN TRACE
Prints "reader_seconds=S states=N messages=M variables=V": the reader's
creation (its information pass parses the file) and its update, not
pvpython's start-up."""
import sys
import time

from paraview.simple import LoadPlugin

LoadPlugin(sys.argv[1], remote=False, ns=globals())
# Setting FileName runs the information pass, which parses the file.
start = time.perf_counter()
reader = PajeTraceReader(FileName=sys.argv[2])
reader.UpdatePipeline()
seconds = time.perf_counter() - start
rows = [reader.GetDataInformation(port).GetNumberOfRows() for port in (0, 1, 3)]
if rows[0] == 0:
    raise SystemExit("bench_paje_reader: the reader output no states for " + sys.argv[2])
print("reader_seconds=%.3f states=%d messages=%d variables=%d" % (seconds, rows[0], rows[1], rows[2]))
