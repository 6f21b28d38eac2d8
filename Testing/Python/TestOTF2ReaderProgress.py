"""The OTF2 reader reports progress during a long read and honours abort:
an aborted read outputs nothing and says so, and the next read is whole."""
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *

mt.load_plugin(args, globals())

directory = os.path.join(args.output, "trace")
summary = mt.synthesize(args, directory, "--events", 2000000)
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
algorithm = reader.GetClientSideObject()  # the VTK reader (builtin session)

progress = []
abort_at = [None]


def on_progress(caller, event):
    value = caller.GetProgress()
    progress.append(value)
    if abort_at[0] is not None and value >= abort_at[0]:
        caller.SetAbortExecute(1)


algorithm.AddObserver("ProgressEvent", on_progress)

reader.UpdatePipeline()
whole = reader.GetDataInformation(0).GetNumberOfRows()
mt.check(whole == summary["events"]["Enter"], "the full read has %d states" % whole)
reports = [p for p in progress if 0.0 < p < 1.0]
mt.check(len(reports) >= 5, "only %d progress reports during a 2M-event read" % len(reports))
mt.check(all(a <= b for a, b in zip(progress, progress[1:])), "progress went backwards")
mt.check(progress[-1] == 1.0, "progress did not reach 1")

# Abort once a fifth of the events are read.
progress.clear()
abort_at[0] = 0.2
capture = mt.ErrorCapture()
algorithm.Modified()
reader.SMProxy.MarkModified(reader.SMProxy)  # the proxy re-executes only when marked
reader.UpdatePipeline()
capture.close()
mt.check("aborted" in capture.text(), "no message says the read was aborted:\n" + capture.text())
rows = reader.GetDataInformation(0).GetNumberOfRows()
mt.check(rows == 0, "an aborted read output %d states" % rows)
# (The pipeline always ends an execution with a progress of 1.)
reached = max(p for p in progress if p < 1.0)
mt.check(reached < 0.5, "the read went on to %.2f after the abort at 0.2" % reached)

# The next read, not aborted, is whole again.
abort_at[0] = None
algorithm.SetAbortExecute(0)
algorithm.Modified()
reader.SMProxy.MarkModified(reader.SMProxy)  # the proxy re-executes only when marked
reader.UpdatePipeline()
mt.check(reader.GetDataInformation(0).GetNumberOfRows() == whole, "the read after an abort is not whole")
print("progress: %d reports; abort honoured" % len(reports))

# The columns' ranges are cached by the reader (SeedRanges, so that
# ParaView's data information does not freeze the GUI after a long read):
# they must be the ranges VTK computes itself, on a copy that has no cache.
checked = 0
for port in range(4):
    table = algorithm.GetOutputDataObject(port)
    for i in range(table.GetNumberOfColumns()):
        array = table.GetColumn(i)
        if not array.IsA("vtkDataArray") or array.GetNumberOfTuples() == 0:
            continue
        information = array.GetInformation()
        mt.check(information.Has(array.PER_COMPONENT()) and information.Has(array.PER_FINITE_COMPONENT()),
                 "port %d column %s: the reader left no range in VTK's cache" % (port, array.GetName()))
        fresh = array.NewInstance()
        fresh.DeepCopy(array)
        for name in ("GetRange", "GetFiniteRange"):
            cached, computed = getattr(array, name)(0), getattr(fresh, name)(0)
            mt.check(cached == computed, "port %d column %s: %s is %s from the reader's cache, %s "
                     "computed by VTK" % (port, array.GetName(), name, cached, computed))
        checked += 1
mt.check(checked >= 10, "only %d columns had their ranges checked" % checked)
print("ranges: %d columns cached as VTK computes them" % checked)
