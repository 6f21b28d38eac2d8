"""The OTF2 reader's progress on an archive EZTrace wrote of a long real run
(docs/progress.md): EZTrace announces 2 events per location, so a progress
counted in announced events would jump a location at a time; counted in
bytes of the event files it must move evenly.

    pvpython eztrace_progress.py ARCHIVE --plugin Macroscope.so
"""
import argparse
import time

parser = argparse.ArgumentParser()
parser.add_argument("archive")
parser.add_argument("--plugin", required=True)
options = parser.parse_args()

from paraview.simple import *  # noqa: E402,F401,F403

LoadPlugin(options.plugin, remote=False, ns=globals())


def check(condition, message):
    if not condition:
        raise SystemExit("FAIL: " + message)


reader = OTF2TraceReader(FileName=options.archive)
reader.UpdatePipelineInformation()
announced, locations = int(reader.NumberOfEventRecords), int(reader.NumberOfLocations)
check(announced <= 2 * locations, "the archive announces %d events for %d locations, not EZTrace's 2 "
      "a location" % (announced, locations))
values = []
algorithm = reader.GetClientSideObject()
algorithm.AddObserver("ProgressEvent", lambda caller, event: values.append((time.perf_counter(),
                                                                            caller.GetProgress())))
start = time.perf_counter()
reader.UpdatePipeline()
end = time.perf_counter()
states = reader.GetDataInformation(0).GetNumberOfRows()
check(states > 500000, "only %d states read: the run is too short to measure progress" % states)
fractions = [v for _, v in values]
inner = sorted({v for v in fractions if 0.0 < v < 1.0})
check(all(a <= b for a, b in zip(fractions, fractions[1:])), "progress went backwards")
check(len(inner) >= 20, "%d distinct progress values in (0, 1), at least 20 expected" % len(inner))
points = [0.0] + inner + [1.0]
step = max(b - a for a, b in zip(points, points[1:]))
check(step <= 0.15, "progress jumps by %.2f at once (at most 0.15: a location is 0.25)" % step)
times = [start] + [t for t, _ in values] + [end]
silence = max(b - a for a, b in zip(times, times[1:]))
check(silence <= max(0.25, 0.25 * (end - start)),
      "%.2f s without progress in a %.2f s read" % (silence, end - start))
print("EZTrace archive: %d states read in %.2f s, %d progress values, largest step %.3f, longest "
      "silence %.2f s" % (states, end - start, len(inner), step, silence))
