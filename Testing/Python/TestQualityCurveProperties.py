"""The quality curves as information-only properties (the GUI's
parameter panel, docs/parameter-panel.md): QualityCurveStarts, -Gains,
-Losses and -Parts of Temporal, Spatial and Spatiotemporal Aggregation hold
the rows of the Quality Curves output (PStart, Gain, Loss, Parts) of the
current normalisation, are empty before a sweep is known, follow a change of
Parameter (same sweep) and of NormalizeQualities (empty until that
normalisation is swept, then its rows), and empty again for a new model.
PartitionSeconds is positive once a partition was computed.

Run in the builtin session; with --port (RunClientServer.py) the same checks
run again on a pvserver of 2 MPI ranks, where the properties are pulled from
the server with UpdatePropertyInformation."""
import argparse
import os

import macroscope_testing as mt

args = mt.parse_args()
port = argparse.ArgumentParser()
port.add_argument("--port", type=int, default=0)
port = port.parse_known_args()[0].port

from paraview.simple import *
from paraview import servermanager

CURVES = (("QualityCurveStarts", "PStart"), ("QualityCurveGains", "Gain"),
          ("QualityCurveLosses", "Loss"), ("QualityCurveParts", "Parts"))


def information(proxy):
    """The four curves as the client sees them, pulled from the server."""
    proxy.UpdatePropertyInformation()
    return {name: list(proxy.GetProperty(name)) for name, _ in CURVES}


def table_columns(table):
    return {name: [float(v) for v in mt.column(table, column)] for name, column in CURVES}


def check_equal(got, table, what):
    wanted = table_columns(table)
    mt.check(len(wanted["QualityCurveStarts"]) > 1, "%s: the Quality Curves have %d rows"
             % (what, len(wanted["QualityCurveStarts"])))
    for name in wanted:
        # Sent as doubles: equal to the table's values, not approximately.
        mt.check(got[name] == wanted[name], "%s: %s is %s, the Quality Curves say %s"
                 % (what, name, got[name][:6], wanted[name][:6]))


def check_empty(got, what):
    for name, values in got.items():
        mt.check(values == [], "%s: %s holds %d values though no sweep is known"
                 % (what, name, len(values)))


def run(label, directory):
    reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
    model = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=12)
    checked = []
    for make in (TemporalAggregation, SpatialAggregation, SpatiotemporalAggregation):
        what = "%s %s" % (label, make.__name__)
        aggregation = make(Input=OutputPort(model, 0), Parameter=0.6)
        check_empty(information(aggregation), what + " before any update")
        # The Partition alone: no sweep, so still nothing.
        servermanager.Fetch(aggregation, idx=0)
        check_empty(information(aggregation), what + " after the Partition only")
        aggregation.UpdatePropertyInformation()
        seconds = aggregation.GetProperty("PartitionSeconds")[0]
        mt.check(seconds > 0.0, "%s: PartitionSeconds is %g after a partition" % (what, seconds))
        # The curves asked for: the properties are their rows.
        normalised = servermanager.Fetch(aggregation, idx=1)
        check_equal(information(aggregation), normalised, what + " after the sweep")
        # Another p reuses the sweep: same rows.
        aggregation.Parameter = 0.25
        servermanager.Fetch(aggregation, idx=0)
        check_equal(information(aggregation), normalised, what + " at p = 0.25")
        # Raw qualities: nothing known until that normalisation is swept.
        aggregation.NormalizeQualities = 0
        servermanager.Fetch(aggregation, idx=0)
        check_empty(information(aggregation), what + " raw, before its sweep")
        raw = servermanager.Fetch(aggregation, idx=1)
        raw_info = information(aggregation)
        check_equal(raw_info, raw, what + " raw")
        mt.check(raw_info["QualityCurveGains"] != table_columns(normalised)["QualityCurveGains"],
                 "%s: raw and normalised gains are equal" % what)
        # Back to normalised: the cached sweep, without a Fetch of the curves.
        aggregation.NormalizeQualities = 1
        servermanager.Fetch(aggregation, idx=0)
        check_equal(information(aggregation), normalised, what + " normalised again")
        checked.append((make.__name__, normalised.GetNumberOfRows()))
        Delete(aggregation)
    # A new model: the former sweep is forgotten.
    aggregation = TemporalAggregation(Input=OutputPort(model, 0), Parameter=0.6)
    servermanager.Fetch(aggregation, idx=1)
    mt.check(information(aggregation)["QualityCurveStarts"], label + ": no curves after the sweep")
    model.Slices = 10
    servermanager.Fetch(aggregation, idx=0)
    check_empty(information(aggregation), label + " after the model changed")
    curves = servermanager.Fetch(aggregation, idx=1)
    check_equal(information(aggregation), curves, label + " on the new model")
    return checked


directory = os.path.join(args.output, "trace")
mt.synthesize(args, directory, "--clusters", 2, "--nodes-per-cluster", 2, "--ranks-per-node", 2,
              "--iterations", 30, "--perturbation", "slow-node", "--perturb-target", 1,
              "--perturb-window", 0.01, 0.02, "--perturb-factor", 3)
mt.load_plugin(args, globals())
report = ["builtin: %s" % run("builtin", directory)]
if port:
    Disconnect()
    connection = Connect("localhost", port)
    mt.check(connection is not None and servermanager.ActiveConnection.IsRemote(),
             "could not connect to the pvserver on port %d" % port)
    mt.load_plugin(args, globals())
    partitions = servermanager.ActiveConnection.GetNumberOfDataPartitions()
    mt.check(partitions == 2, "the server has %d ranks, not 2" % partitions)
    report.append("client/server on %d ranks: %s" % (partitions, run("client/server", directory)))
    Disconnect()
print("quality curve properties: " + "; ".join(report))
