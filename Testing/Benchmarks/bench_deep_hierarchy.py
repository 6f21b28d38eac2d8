"""A 40,000-deep Pajé container nesting through the pipeline of the
follow-up: the Pajé reader, Time Slicing restricted by `Resources` to the
deepest container's path, Trace Statistics and Active Producers. Run it
under /usr/bin/time -v to see the peak RSS (docs/zoom-and-filter.md, "Deep
hierarchies"):

  /usr/bin/time -v pvpython Testing/Benchmarks/bench_deep_hierarchy.py \\
      --plugin build/lib/paraview-5.11/plugins/Macroscope/Macroscope.so [--depth 40000]

The trace is the one of MacroscopePajeReaderDeepTests
(Testing/Paje/TestPajeReaderDeepHierarchy.cxx): a chain of containers, each
of its own type, one state on the deepest. Exits 1 if a stage gives other
rows than the single leaf and state."""
import argparse
import os
import tempfile
import time

parser = argparse.ArgumentParser()
parser.add_argument("--plugin", required=True)
parser.add_argument("--depth", type=int, default=40000)
args = parser.parse_args()

from paraview.simple import *  # noqa: E402
from paraview import servermanager  # noqa: E402

LoadPlugin(args.plugin, remote=False, ns=globals())


def write_deep_trace(path, depth):
    with open(path, "w") as out:
        out.write("%EventDef PajeDefineContainerType 0\n% Alias string\n% Type string\n"
                  "% Name string\n%EndEventDef\n%EventDef PajeDefineStateType 1\n"
                  "% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
                  "%EventDef PajeCreateContainer 6\n% Time date\n% Alias string\n"
                  "% Type string\n% Container string\n% Name string\n%EndEventDef\n"
                  "%EventDef PajePushState 9\n% Time date\n% Type string\n"
                  "% Container string\n% Value string\n%EndEventDef\n"
                  "%EventDef PajePopState 10\n% Time date\n% Type string\n"
                  "% Container string\n%EndEventDef\n")
        for d in range(1, depth + 1):
            out.write("0 t%d %s Level%d\n" % (d, "0" if d == 1 else "t%d" % (d - 1), d))
        out.write("1 s t%d S\n" % depth)
        for d in range(1, depth + 1):
            out.write("6 0 c%d t%d %s n%d\n" % (d, d, "0" if d == 1 else "c%d" % (d - 1), d))
        out.write("9 1 s c%d run\n10 2 s c%d \n" % (depth, depth))


def stage(label, proxy):
    start = time.time()
    proxy.UpdatePipeline()
    print("%-40s %6.2f s" % (label, time.time() - start), flush=True)


failures = []
with tempfile.TemporaryDirectory() as directory:
    trace = os.path.join(directory, "deep.paje")
    write_deep_trace(trace, args.depth)
    reader = PajeTraceReader(FileName=trace)
    stage("reader (%d-deep nesting)" % args.depth, reader)
    ports = [OutputPort(reader, i) for i in range(6)]
    # The deepest container, by its path below the root (the Locations form).
    deepest = "/".join("n%d" % d for d in range(1, args.depth + 1))
    slicing = TimeSlicing(Input=ports, Slices=4, Resources=[deepest])
    stage("Time Slicing, Resources = deepest path", slicing)
    model = servermanager.Fetch(slicing)
    statistics = TraceStatistics(Input=ports)
    stage("Trace Statistics", statistics)
    producers = ActiveProducers(Input=ports)
    stage("Active Producers", producers)
    table = servermanager.Fetch(producers)
    names = table.GetFieldData().GetAbstractArray("ResourceNames")
    if names is None or names.GetNumberOfValues() != 1 or \
            not names.GetValue(0).endswith("/" + deepest):
        failures.append("Active Producers does not name the deepest container by its path")
    fed = TimeSlicing(Input=ports, Slices=4, Resources=[names.GetValue(0)] if names else [])
    stage("Time Slicing, Resources = ResourceNames", fed)
    if model.GetNumberOfPoints() == 0:
        failures.append("Time Slicing on the deepest path gives an empty model")

for failure in failures:
    print("FAIL: " + failure)
raise SystemExit(1 if failures else 0)
