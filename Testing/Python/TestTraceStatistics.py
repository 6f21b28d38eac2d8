"""Trace Statistics in pvpython on a synthesized trace: the Producers, Types
and Event Density tables against a brute-force recount (numpy) of the
reader's own tables, for the whole trace, a window and a hierarchy level;
the totals against the reader's row counts; clear errors on bad input."""
import os

import numpy as np

import macroscope_testing as mt
import statistics_brute_force as bf

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

# A tree pattern: rank 0 gathers and scatters, so producers differ.
directory = os.path.join(args.output, "trace")
summary = mt.synthesize(args, directory, "--iterations", 12, "--pattern", "tree",
                        "--clusters", 2, "--nodes-per-cluster", 2, "--ranks-per-node", 2,
                        "--threads-per-rank", 3)
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
ports = [OutputPort(reader, i) for i in range(6)]
reader.UpdatePipeline()
tables = [servermanager.Fetch(reader, idx=i) for i in range(6)]
trace = bf.Trace(*tables)
states, messages, events, variables = tables[:4]
span = reader.GetProperty("TimeBounds")[1]
mt.check(states.GetNumberOfRows() and messages.GetNumberOfRows() and events.GetNumberOfRows()
         and variables.GetNumberOfRows(), "the synthesized trace lacks a kind of record")
mt.check(trace.leaves == summary["locations"], "hierarchy has %d leaves" % trace.leaves)


def outputs(proxy):
    proxy.UpdatePipeline()
    return [servermanager.Fetch(proxy, idx=i) for i in range(3)]


# The whole trace: every record counts once, at the ends as well.
statistics = TraceStatistics(Input=ports)
producers, types, density = outputs(statistics)
want = bf.expected(trace, 0.0, span, True, 200, -1)
bf.check_tables(producers, types, density, want, "whole trace")
mt.check(bf.field(producers, "TotalStates") == states.GetNumberOfRows()
         and bf.field(producers, "TotalEvents") == events.GetNumberOfRows() + variables.GetNumberOfRows()
         and bf.field(producers, "TotalMessagesSent") == messages.GetNumberOfRows()
         and bf.field(producers, "TotalMessagesReceived") == messages.GetNumberOfRows(),
         "the totals are not the reader's row counts")
mt.check(bf.field(producers, "TotalRecords") == states.GetNumberOfRows() + events.GetNumberOfRows()
         + variables.GetNumberOfRows() + 2 * messages.GetNumberOfRows(), "TotalRecords")
mt.check(density.GetNumberOfRows() == 200, "default Bins is not 200")
# The outermost states of a location tile its traced time: their sum is the producers' StateTime.
outer = trace.s_depth == 0
mt.check(abs(bf.field(producers, "TotalStateTime") - (trace.s_end - trace.s_start)[outer].sum()) < 1e-9,
         "TotalStateTime is not the outermost states' time")
k = bf.field(producers, "ProducersFor80Percent")
n = producers.GetNumberOfRows()
mt.check(0 < k < n, "ProducersFor80Percent %d of %d: the test trace should need fewer than all" % (k, n))
print("whole trace: %d producers, %d records, %d make 80%% (%.0f%%)"
      % (n, bf.field(producers, "TotalRecords"), k, 100.0 * k / n))

# A window: fewer records, exactly as the brute force clips them.
window = [0.3 * span, 0.55 * span]
statistics.TimeWindow = window
statistics.Bins = 37
producers, types, density = outputs(statistics)
want_window = bf.expected(trace, window[0], window[1], False, 37, -1)
bf.check_tables(producers, types, density, want_window, "window")
mt.check(0 < bf.field(producers, "TotalRecords") < want["producers"]["Records"].sum(),
         "the window does not change the counts")
mt.check(tuple(bf.field(producers, "TimeWindow")) == tuple(window), "TimeWindow field")
mt.check(abs(bf.col(density, "BinStart")[0] - window[0]) < 1e-15
         and abs(bf.col(density, "BinEnd")[-1] - window[1]) < 1e-15, "the bins do not span the window")

# A window ending at the trace end (end 0) is closed there.
statistics.TimeWindow = [0.5 * span, 0.0]
statistics.Bins = 10
producers, types, density = outputs(statistics)
bf.check_tables(producers, types, density, bf.expected(trace, 0.5 * span, span, True, 10, -1),
                "second half")

# Producers at the process level (3): each the sum of its threads.
statistics.TimeWindow = [0.0, 0.0]
statistics.Level = 3
producers, types, density = outputs(statistics)
bf.check_tables(producers, types, density, bf.expected(trace, 0.0, span, True, 10, 3), "processes")
mt.check(producers.GetNumberOfRows() == summary["ranks"], "level 3 gives %d producers, %d ranks"
         % (producers.GetNumberOfRows(), summary["ranks"]))
mt.check(all(name.startswith("MPI Rank") for name in bf.string_column(producers, "Name")),
         "level 3 producers are not the MPI ranks")

# Counting only some tables: the others count nothing.
only_events = TraceStatistics(Input=[ports[2], ports[4], ports[5]])
producers, types, density = outputs(only_events)
mt.check(bf.field(producers, "TotalRecords") == events.GetNumberOfRows()
         and bf.string_column(types, "Kind").count("link") == 0, "Events alone are not counted alone")


# Bad input: clear errors, nothing computed from garbage.
def expect_error(proxy, fragment):
    capture = mt.ErrorCapture()
    try:
        proxy.UpdatePipeline()
    finally:
        capture.close()
    text = capture.text()
    mt.check(fragment in text, "expected an error about %r, got:\n%s" % (fragment, text))
    mt.check(proxy.GetDataInformation(0).GetNumberOfRows() == 0, "output despite the error %r" % fragment)
    print("clear error for %s: %s" % (fragment, next(l for l in text.splitlines() if fragment in l).strip()[:160]))


recovering = TraceStatistics(Input=ports, Bins=0)
expect_error(recovering, "Bins")
recovering.Bins = 7  # fixed: the pipeline recovers
producers, types, density = outputs(recovering)
mt.check(density.GetNumberOfRows() == 7 and bf.field(producers, "TotalStates") == states.GetNumberOfRows(),
         "the filter did not recover once Bins was fixed")
expect_error(TraceStatistics(Input=ports, Level=-2), "Level")
expect_error(TraceStatistics(Input=ports, Level=12), "deeper than the Hierarchy")
expect_error(TraceStatistics(Input=ports, TimeWindow=[0.5 * span, 0.1 * span]), "TimeWindow")
expect_error(TraceStatistics(Input=ports, TimeWindow=[2 * span, 3 * span]), "after the trace ends")
expect_error(TraceStatistics(Input=[ports[0], ports[5]]), "Hierarchy")
expect_error(TraceStatistics(Input=[ports[4], ports[5]]), "at least one of States")
no_depth = PassArrays(Input=ports[0], RowDataArrays=["Location", "Type", "Start", "End"])
expect_error(TraceStatistics(Input=[no_depth, ports[4], ports[5]]), "misses a column")
print("trace statistics: whole trace, windows, levels and errors checked")
