"""The Pajé reader on what real traces and hostile files hold:
a negative-time trace opens with the window the GUI fills from TimeBounds;
PajeTraceFile events are skipped with a warning and a counter; a 64 MiB line
(made here, not in the repository) is an error within seconds whose message
is short; a hierarchy file with a huge name warns with a short excerpt."""
import os
import time

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

constructs = os.path.join(args.source, "Testing", "Data", "paje", "constructs")
nested = os.path.join(args.source, "Testing", "Data", "paje", "nested.paje")


def read(reader):
    capture = mt.ErrorCapture()
    try:
        reader.UpdatePipeline()
    finally:
        capture.close()
    return capture.text()


def open_and_read(**properties):
    """A new reader (its information pass parses the file) and its read: the
    messages of both."""
    capture = mt.ErrorCapture()
    try:
        reader = PajeTraceReader(**properties)
        reader.UpdatePipeline()
    finally:
        capture.close()
    return reader, capture.text()


def counter(reader, name):
    states = servermanager.Fetch(reader, idx=0)
    array = states.GetFieldData().GetArray(name)
    mt.check(array is not None, "no field data counter " + name)
    return array.GetValue(0)


# Negative times: TimeBounds starts before 0; a window from TimeBounds (what
# the GUI's range domain sets) is accepted and keeps every state.
reader = PajeTraceReader(FileName=os.path.join(constructs, "negative-times.paje"))
reader.UpdatePipelineInformation()
bounds = list(reader.TimeBounds)
mt.check(bounds == [-5.0, 2.0], "TimeBounds %s, expected [-5, 2]" % bounds)
reader.TimeWindow = bounds
text = read(reader)
mt.check("rror" not in text, "the window from TimeBounds is refused:\n" + text)
mt.check(reader.GetDataInformation(0).GetNumberOfRows() == 2,
         "%d states in the trace's own window, expected 2"
         % reader.GetDataInformation(0).GetNumberOfRows())
reader.TimeWindow = [-3.0, 0.5]
read(reader)
mt.check(reader.GetDataInformation(0).GetNumberOfRows() == 1, "(-3, 0.5) holds one state")
reader.TimeWindow = [-6.0, 1.0]
text = read(reader)
mt.check("-5 <= start" in text, "a window before the trace is not refused:\n" + text)
print("negative times: TimeBounds %s, window accepted" % bounds)
Delete(reader)

# PajeTraceFile: a warning naming the files, a counter, the rest read.
reader, text = open_and_read(FileName=os.path.join(constructs, "trace-file.paje"))
mt.check("2 PajeTraceFile events skipped" in text and '"part-1.paje"' in text,
         "no warning about the PajeTraceFile events:\n" + text)
mt.check(counter(reader, "TraceFilesSkipped") == 2, "TraceFilesSkipped is not 2")
mt.check(reader.GetDataInformation(0).GetNumberOfRows() == 2, "the states of trace-file.paje")
print("PajeTraceFile: skipped with a warning")
Delete(reader)

# A 64 MiB state value: an error within seconds, naming the file and the
# line, quoting at most a short excerpt.
huge = os.path.join(args.output, "huge-line.paje")
with open(os.path.join(constructs, "negative-times.paje"), "rb") as f:
    head = f.read()
head = head[:head.index(b"9 -4 S p0 run")]
with open(huge, "wb") as f:
    f.write(head + b"9 -4 S p0 ")
    block = b"v" * (1 << 20)
    for _ in range(64):
        f.write(block)
    f.write(b"\n10 -1 S p0\n")
line = head.count(b"\n") + 1
start = time.time()
reader, text = open_and_read(FileName=huge)
seconds = time.time() - start
mt.check("%s:%d: line longer than 1 MiB" % (huge, line) in text,
         "no line-length error naming %s:%d:\n%s" % (huge, line, text[:2000]))
mt.check(len(text) < 2000, "the error is %d bytes long" % len(text))
mt.check(seconds < 10, "the error took %.1f s" % seconds)
print("64 MiB line: error in %.2f s, %d bytes of messages" % (seconds, len(text)))
Delete(reader)

# A hierarchy file whose leaf has a 1 MiB name: the warning quotes an excerpt.
hierarchy = os.path.join(args.output, "huge-name.json")
with open(hierarchy, "w") as f:
    f.write('{"name": "all", "children": [{"name": "r0"}, {"name": "%s"}]}' % ("x" * (1 << 20)))
reader, text = open_and_read(FileName=nested, HierarchyFile=hierarchy)
mt.check("matching nothing" in text and "bytes)" in text,
         "no short warning about the unmatched leaf:\n" + text[:2000])
mt.check(len(text) < 3000, "the hierarchy-file warning is %d bytes long" % len(text))
print("hierarchy file with a 1 MiB name: %d bytes of warnings" % len(text))
print("OK")
