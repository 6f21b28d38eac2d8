"""Details on demand in client/server (docs/details-on-demand.md): against a
pvserver of 2 MPI ranks (RunClientServer.py), the marks that Python.Details
picked in a builtin session are asked again at the same chart points, on the
same trace and charts: every answer must be the same text and kind, with as
many rows, the rows given as (rank, row) of the rank that laid the mark out."""
import argparse
import json
import os

import macroscope_testing as mt

args = mt.parse_args()
server = argparse.ArgumentParser()
server.add_argument("--port", type=int, default=0)
server = server.parse_known_args()[0].port
from paraview.simple import *
from paraview import servermanager

mt.check(server > 0, "this test runs against a pvserver (--port)")
Connect("localhost", server)
mt.load_plugin(args, globals())
import macroscope

ranks = servermanager.ActiveConnection.GetNumberOfDataPartitions()
mt.check(ranks == 2, "the server has %d ranks, not 2" % ranks)
serial = os.path.join(os.path.dirname(os.path.abspath(args.output)), "Python.Details")
with open(os.path.join(serial, "picks.json")) as source:
    picks = json.load(source)
mt.check(len(picks) >= 4, "Python.Details recorded %d picks" % len(picks))

reader = OTF2TraceReader(FileName=os.path.join(serial, "trace", "traces.otf2"))
view = CreateView("RenderView")
view.ViewSize = [1100, 600]
timeline = Show(OutputPort(reader, 0), view, "MacroscopeTraceRepresentation")
timeline.SetRepresentationType("Timeline")
timeline.ViewSize = [1000, 500]  # text included: a plot of about 700 x 440
timeline.MinMarkWidth = 6  # as Python.Details
Render(view)
slicing = TimeSlicing(Input=[OutputPort(reader, p) for p in range(6)], Slices=20)
partition = SpatiotemporalAggregation(Input=OutputPort(slicing, 0), Parameter=0.3)
displays = {"Timeline": timeline}

rank_seen = set()
for pick in picks:
    if pick["chart"] == "Spatiotemporal Overview" and pick["chart"] not in displays:
        Hide(OutputPort(reader, 0), view)
        overview = Show(OutputPort(partition, 0), view, "MacroscopeTraceRepresentation")
        overview.SetRepresentationType("Spatiotemporal Overview")
        overview.ViewSize = [600, 360]
        Render(view)
        displays[pick["chart"]] = overview
    if pick["chart"] == "Timeline" and timeline.ShowMessages != pick.get("messages", 1):
        timeline.ShowMessages = pick.get("messages", 1)  # hidden for the aggregate
        Render(view)
    if pick["chart"] == "Spatiotemporal Overview" and pick["kind"] == "aggregate-part":
        displays[pick["chart"]].MinRowHeight = 100
        Render(view)
    if pick["chart"] == "Temporal Overview" and pick["chart"] not in displays:
        Hide(OutputPort(partition, 0), view)
        temporal = TemporalAggregation(Input=OutputPort(slicing, 0), Parameter=0.3)
        stacks = Show(OutputPort(temporal, 0), view, "MacroscopeTraceRepresentation")
        stacks.SetRepresentationType("Temporal Overview")
        stacks.ViewSize = [600, 360]
        Render(view)
        displays[pick["chart"]] = stacks
    details = macroscope.details_at_chart(displays[pick["chart"]], *pick["point"])
    where = "%s %s at %s" % (pick["chart"], pick["kind"], pick["point"])
    mt.check(details.kind == pick["kind"], "%s: the server says %r" % (where, details.kind))
    mt.check(details.text == pick["text"], "%s: the server says\n%s\nnot\n%s" % (where, details.text, pick["text"]))
    mt.check(len(details.rows) == pick["rows"], "%s: %d rows, not %d" % (where, len(details.rows), pick["rows"]))
    mt.check(all(0 <= rank < ranks for rank, _ in details.rows), "%s: rows of ranks %s" % (where, details.rows))
    rank_seen.update(rank for rank, _ in details.rows)
    print("%s: same text, %d rows on ranks %s" % (where, len(details.rows), sorted({r for r, _ in details.rows})))
print("client/server details: %d picks answered as in the builtin session (ranks %s)" % (len(picks), sorted(rank_seen)))
