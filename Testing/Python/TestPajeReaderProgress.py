"""The Pajé reader reports progress while it parses (in the information
pass, which parses the whole file) and honours abort: an aborted parse
outputs nothing and says so, and the next read is whole."""
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *

mt.load_plugin(args, globals())

# A large generated trace: 64 ranks, 12000 push/pop pairs each (1.5M event lines).
RANKS, PAIRS = 64, 12000
header_source = os.path.join(args.source, "Testing", "Data", "paje", "nested.paje")
with open(header_source) as f:
    text = f.read()
header = text[text.index("%EventDef"):text.index("0 CL 0 Cluster")]
big = os.path.join(args.output, "big.paje")
with open(big, "w") as f:
    f.write(header)
    f.write("0 R 0 Rank\n1 ST R STATE\n")
    f.write("".join("6 0 r%d R 0 r%d\n" % (r, r) for r in range(RANKS)))
    for k in range(PAIRS):
        t = 2.0 * k
        f.write("".join("9 %.1f ST r%d work\n10 %.1f ST r%d\n" % (t, r, t + 1.0, r)
                        for r in range(RANKS)))

small = os.path.join(args.source, "Testing", "Data", "paje", "nested.paje")
reader = PajeTraceReader(FileName=small)
reader.UpdatePipeline()
algorithm = reader.GetClientSideObject()  # the VTK reader (builtin session)

progress = []
abort_at = [None]


def on_progress(caller, event):
    value = caller.GetProgress()
    progress.append(value)
    if abort_at[0] is not None and value >= abort_at[0]:
        caller.SetAbortExecute(1)


algorithm.AddObserver("ProgressEvent", on_progress)

# The information pass parses: progress arrives then, before any data pass.
# (The proxy set TimeWindow to the first file's TimeBounds: open it again.)
reader.FileName = big
reader.TimeWindow = [0.0, 0.0]
reader.UpdatePipelineInformation()
parse = [p for p in progress if 0.0 < p < 1.0]
mt.check(len(parse) >= 5, "only %d progress reports while parsing 1.5M lines" % len(parse))
mt.check(all(a <= b for a, b in zip(progress, progress[1:])), "parse progress went backwards")
mt.check(progress[-1] == 1.0, "parse progress did not reach 1")
reader.UpdatePipeline()
whole = reader.GetDataInformation(0).GetNumberOfRows()
mt.check(whole == RANKS * PAIRS, "the full read has %d states, the file %d" % (whole, RANKS * PAIRS))

# Abort once a fifth of the file is parsed: a new file, so the cache does not serve.
progress.clear()
abort_at[0] = 0.2
with open(big, "a") as f:
    f.write("# changed\n")
capture = mt.ErrorCapture()
algorithm.Modified()
reader.SMProxy.MarkModified(reader.SMProxy)  # the proxy re-executes only when marked
reader.UpdatePipeline()
capture.close()
mt.check("aborted" in capture.text(), "no message says the read was aborted:\n" + capture.text())
rows = reader.GetDataInformation(0).GetNumberOfRows()
mt.check(rows == 0, "an aborted read output %d states" % rows)
reached = max(p for p in progress if p < 1.0)
mt.check(reached < 0.5, "the parse went on to %.2f after the abort at 0.2" % reached)

# The next read, not aborted, is whole again.
abort_at[0] = None
algorithm.SetAbortExecute(0)
algorithm.Modified()
reader.SMProxy.MarkModified(reader.SMProxy)
reader.UpdatePipeline()
mt.check(reader.GetDataInformation(0).GetNumberOfRows() == whole, "the read after an abort is not whole")
print("progress: %d reports while parsing; abort honoured" % len(parse))
