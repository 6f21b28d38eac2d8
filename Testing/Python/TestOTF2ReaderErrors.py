"""Bad input to the OTF2 reader gives a clear ParaView error naming the file
and the problem; no crash, no hang; the reader recovers on a good file."""
import os
import shutil

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *

mt.load_plugin(args, globals())

good = os.path.join(args.output, "good")
mt.synthesize(args, good, "--iterations", 4)
anchor = os.path.join(good, "traces.otf2")


def expect_error(filename, fragments, **properties):
    capture = mt.ErrorCapture()
    try:
        reader = OTF2TraceReader(FileName=filename, **properties)
        reader.UpdatePipeline()
    finally:
        capture.close()
    text = capture.text()
    for fragment in fragments:
        mt.check(fragment in text, "reading %s: expected an error mentioning %r, got:\n%s"
                 % (filename, fragment, text))
    line = next(l for l in text.splitlines() if fragments[0] in l)
    print("clear error for %s: %s" % (os.path.basename(filename), line.strip()[:220]))
    Delete(reader)


missing = os.path.join(args.output, "missing", "traces.otf2")
expect_error(missing, [missing])
expect_error(args.output, [args.output])

garbage = os.path.join(args.output, "garbage.otf2")
with open(garbage, "w") as f:
    f.write("this is not an OTF2 anchor file\n" * 10)
expect_error(garbage, [garbage])

empty = os.path.join(args.output, "empty.otf2")
open(empty, "w").close()
expect_error(empty, [empty])

# A truncated event file: the archive is fine but one location's events end early.
truncated = os.path.join(args.output, "truncated")
shutil.rmtree(truncated, ignore_errors=True)
shutil.copytree(good, truncated)
events = sorted(os.path.join(truncated, "traces", f) for f in os.listdir(os.path.join(truncated, "traces"))
                if f.endswith(".evt"))
mt.check(events, "no event files in the synthesized archive")
with open(events[0], "r+b") as f:
    size = os.path.getsize(events[0])
    f.truncate(size // 2)
expect_error(os.path.join(truncated, "traces.otf2"), [os.path.join(truncated, "traces.otf2")])

# A nonsensical window.
expect_error(anchor, ["TimeWindow"], TimeWindow=[0.5, 0.1])

# The reader still reads the good archive.
reader = OTF2TraceReader(FileName=anchor)
reader.UpdatePipeline()
mt.check(reader.GetDataInformation(0).GetNumberOfRows() > 0, "the good archive reads no states")
