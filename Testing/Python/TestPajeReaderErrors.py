"""Malformed Pajé files (Testing/Data/paje/*.paje, plus binary garbage made
here) give a ParaView error naming the file and the line of the problem;
no crash, no hang; the same reader then reads a good file again. A
nonsensical TimeWindow is an error too."""
import os
import shutil

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *

mt.load_plugin(args, globals())

data = os.path.join(args.source, "Testing", "Data", "paje")
good = os.path.join(data, "nested.paje")


def last_line(path):
    with open(path, "rb") as f:
        return len(f.read().split(b"\n")) - (1 if open(path, "rb").read().endswith(b"\n") else 0)


def expect_error(reader, path, fragments):
    capture = mt.ErrorCapture()
    try:
        reader.FileName = path
        reader.UpdatePipeline()
    finally:
        capture.close()
    text = capture.text()
    for fragment in fragments:
        mt.check(fragment in text, "reading %s: expected an error mentioning %r, got:\n%s"
                 % (path, fragment, text))
    mt.check(reader.GetDataInformation(0).GetNumberOfRows() == 0,
             "%s: a failed read still outputs states" % path)
    line = next(l for l in text.splitlines() if fragments[0] in l)
    print("clear error: %s" % line.strip()[:200])


reader = PajeTraceReader(FileName=good)
reader.UpdatePipeline()
mt.check(reader.GetDataInformation(0).GetNumberOfRows() == 6, "the good trace reads 6 states")

# Every malformed file has its problem on its last line (by construction:
# the header and definitions of nested.paje, then the bad line).
problems = {
    "unknown-event-id.paje": "99",
    "undefined-container.paje": "r7",
    "pop-empty-stack.paje": "empty",
    "unterminated-quote.paje": "quote",
    "truncated.paje": "",
}
for name, word in problems.items():
    path = os.path.join(data, name)
    mt.check(os.path.isfile(path), "missing test file " + path)
    fragments = ["%s:%d:" % (path, last_line(path))] + ([word] if word else [])
    expect_error(reader, path, fragments)
    # ... and the reader recovers on the good file.
    reader.FileName = good
    reader.UpdatePipeline()
    mt.check(reader.GetDataInformation(0).GetNumberOfRows() == 6,
             "after %s the good trace does not read again" % name)

# Binary garbage after a valid header: the first non-text line is reported.
garbage = os.path.join(args.output, "garbage.paje")
with open(os.path.join(data, "unknown-event-id.paje"), "rb") as f:
    text = f.read()
header = text[:text.rindex(b"99 1 ST")]
with open(garbage, "wb") as f:
    f.write(header + bytes(range(0, 256)) * 4 + b"\n")
expect_error(reader, garbage, ["%s:%d:" % (garbage, header.count(b"\n") + 1)])
# Pure garbage: still an error naming the file and a line.
noise = os.path.join(args.output, "noise.trace")
with open(noise, "wb") as f:
    f.write(bytes((i * 97 + 13) % 256 for i in range(5000)))
expect_error(reader, noise, [noise + ":"])

# A missing file and an empty file name.
missing = os.path.join(args.output, "missing.paje")
expect_error(reader, missing, [missing])

# A nonsensical window.
reader.FileName = good
capture = mt.ErrorCapture()
reader.TimeWindow = [5.0, 1.0]
reader.UpdatePipeline()
capture.close()
mt.check("TimeWindow" in capture.text() and good in capture.text(),
         "a window ending before it starts gives no clear error:\n" + capture.text())
reader.TimeWindow = [0.0, 0.0]
reader.UpdatePipeline()
mt.check(reader.GetDataInformation(0).GetNumberOfRows() == 6, "the reader does not recover")
print("Pajé reader errors: %d malformed files reported with their line" % len(problems))
