"""The Pajé reader in pvpython on a hand-written trace (Testing/Data/paje/
nested.paje): every output column against values worked out by hand from
the file, the window, clipping and selections against brute-force filtering
of the unfiltered outputs, with what each leaves out counted (the window's
drops as the OTF2 reader names them, and warned about; the selections'),
the parse cache (a new window does not parse
again, a changed file does), File > Open for *.paje and *.trace. Writes the
serial tables' digests and one case's counters for the 2-rank test
(TestPajeReaderMPI.py)."""
import json
import os
import shutil
import time

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

source = os.path.join(args.source, "Testing", "Data", "paje", "nested.paje")
mt.check(os.path.isfile(source), "missing test trace " + source)
trace = os.path.join(args.output, "nested.paje")
shutil.copyfile(source, trace)
PORTS = ["States", "Messages", "Events", "Variables", "Hierarchy", "Types"]


def fetch_all(reader):
    reader.UpdatePipeline()
    return [servermanager.Fetch(reader, idx=p) for p in range(6)]


def rows(table, names):
    return sorted(zip(*[mt.column(table, n) for n in names]))


# Before Apply: the information pass parses the file.
reader = PajeTraceReader(FileName=trace)
reader.UpdatePipelineInformation()
with open(trace) as f:
    lines = [l.strip() for l in f]
event_lines = [l for l in lines if l and not l.startswith("#") and not l.startswith("%")]
mt.check(reader.GetProperty("NumberOfEventRecords")[0] == len(event_lines),
         "NumberOfEventRecords %s, the file has %d event lines"
         % (reader.GetProperty("NumberOfEventRecords")[0], len(event_lines)))
mt.check(list(reader.GetProperty("TimeBounds")) == [0.0, 9.0],
         "TimeBounds %s, the file's timestamps go from 0 to 9" % list(reader.GetProperty("TimeBounds")))
mt.check(reader.GetProperty("NumberOfLocations")[0] == 3, "3 ranks are the leaves")
mt.check(sorted(reader.GetProperty("LocationInfo")[0::2]) == ["c0/h0/r0", "c0/h0/r1", "c0/h1/r2"],
         "leaf paths %s" % list(reader.GetProperty("LocationInfo")))
mt.check(sorted(reader.GetProperty("RegionInfo")[0::2]) == ["MPI_Recv", "MPI_Send", "compute"],
         "state values %s" % list(reader.GetProperty("RegionInfo")))

states, messages, events, variables, tree, types = fetch_all(reader)

# Types: every row's kind, Pajé type and the colour of the file ("r g b" in [0, 1]).
names = mt.column(types, "Name")
row_of = {n: i for i, n in enumerate(names)}
mt.check(mt.column(types, "Id") == list(range(len(names))), "Types: Id is not the row")
expected_types = {  # name: (kind, Pajé type, colour)
    "compute": ("state", "MPI_STATE", (255, 0, 0)),
    "MPI_Send": ("state", "MPI_STATE", (0, 0, 255)),
    "MPI_Recv": ("state", "MPI_STATE", (0, 255, 0)),
    "sync": ("event", "Marker", (255, 255, 0)),
    "load": ("variable", None, (128, 128, 128)),  # 0.5 * 255 = 127.5, rounded up
    "MPI_LINK": ("link", None, None),
}
mt.check(sorted(names) == sorted(expected_types), "Types names %s" % names)
color = types.GetColumnByName("TraceColor")
palette = types.GetColumnByName("Color")
import macroscope
for name, (kind, paradigm, rgb) in expected_types.items():
    r = row_of[name]
    mt.check(mt.column(types, "Kind")[r] == kind, "%s: kind %s" % (name, mt.column(types, "Kind")[r]))
    if paradigm:
        mt.check(mt.column(types, "Paradigm")[r] == paradigm, "%s: Paradigm %r" % (name, mt.column(types, "Paradigm")[r]))
    if rgb:
        got = tuple(int(color.GetComponent(r, k)) for k in range(3))
        mt.check(got == rgb, "%s: TraceColor %s, the file gives %s" % (name, got, rgb))
    # The views draw the palette's colour (docs/colours.md): by name here.
    got = tuple(int(palette.GetComponent(r, k)) for k in range(3))
    want = macroscope.palette_color(name, mt.column(types, "Paradigm")[r], mt.column(types, "Role")[r])
    mt.check("#%02x%02x%02x" % got == want, "%s: Color %s, the palette gives %s" % (name, got, want))

# States: (Location, Type, Depth, Start, End), by hand from the file.
C, S, R = row_of["compute"], row_of["MPI_Send"], row_of["MPI_Recv"]
expected_states = sorted([
    (2, C, 0, 0.5, 9.0),   # r2: PushState compute 0.5, PopState 9
    (0, C, 0, 1.0, 6.0),   # r0: PushState compute 1 ... PopState 6
    (0, S, 1, 2.0, 3.0),   # r0: nested PushState MPI_Send 2, PopState 3
    (1, R, 0, 1.5, 4.0),   # r1: SetState MPI_Recv 1.5, replaced at 4
    (1, C, 0, 4.0, 7.0),   # r1: SetState compute 4, replaced at 7
    (1, S, 0, 7.0, 8.0),   # r1: SetState MPI_Send 7, PopState 8
])
got = rows(states, ["Location", "Type", "Depth", "Start", "End"])
mt.check(got == expected_states, "States:\n%s\nexpected\n%s" % (got, expected_states))
field = states.GetFieldData()
mt.check(field.GetAbstractArray("ReadReport") is not None, "no ReadReport in the States field data")
for counter in ("StatesLeftOpen", "UnmatchedStartLinks", "UnmatchedEndLinks", "EndsBeforeStarts",
                "ImplicitValues", "SelfLeaves", "MessagesWithUnreadEnd"):
    mt.check(field.GetArray(counter) is not None and field.GetArray(counter).GetValue(0) == 0,
             "%s reported on a clean trace" % counter)
mt.check(field.GetArray("EventRecordsRead").GetValue(0) == len(event_lines), "EventRecordsRead wrong")

# Messages: the link k1 from r0 at 2 to r1 at 3.5, Size 4096.
L = row_of["MPI_LINK"]
got = rows(messages, ["Sender", "Receiver", "SendTime", "RecvTime", "Bytes", "RecvBytes", "Tag",
                      "Communicator", "RecvBeforeSend"])
mt.check(got == [(0, 1, 2.0, 3.5, 4096, 4096, 0, L, 0)], "Messages %s" % got)
# Events: sync on r1 at 2.5; no collective fields.
got = rows(events, ["Location", "Type", "Time", "Communicator", "Root", "Operation"])
mt.check(got == [(1, row_of["sync"], 2.5, -1, -1, -1)], "Events %s" % got)
# Variables: load on r2: set 10, add 5, sub 2.5.
V = row_of["load"]
got = rows(variables, ["Location", "Variable", "Time", "Value"])
mt.check(got == [(2, V, 1.0, 10.0), (2, V, 2.0, 15.0), (2, V, 3.0, 12.5)], "Variables %s" % got)

# Hierarchy: root, c0, h0, r0, r1, h1, r2 depth first; leaves numbered in order.
vd = tree.GetVertexData()
vertices = [(vd.GetAbstractArray("Name").GetValue(v), vd.GetAbstractArray("Kind").GetValue(v),
             vd.GetArray("LeafIndex").GetValue(v),
             vd.GetAbstractArray("Name").GetValue(tree.GetParent(v)) if v != tree.GetRoot() else None)
            for v in range(tree.GetNumberOfVertices())]
mt.check(sorted(vertices, key=str) == sorted([
    ("root", "root", -1, None), ("c0", "Cluster", -1, "root"), ("h0", "Host", -1, "c0"),
    ("h1", "Host", -1, "c0"), ("r0", "Rank", 0, "h0"), ("r1", "Rank", 1, "h0"),
    ("r2", "Rank", 2, "h1")], key=str), "Hierarchy %s" % vertices)

# Brute force: the window, clipping and selections against Python filtering
# of the unfiltered tables.
full = {"states": rows(states, ["Location", "Type", "Depth", "Start", "End"]),
        "messages": rows(messages, ["Sender", "Receiver", "SendTime", "RecvTime"]),
        "events": rows(events, ["Location", "Type", "Time"]),
        "variables": rows(variables, ["Location", "Variable", "Time", "Value"])}
paths = ["c0/h0/r0", "c0/h0/r1", "c0/h1/r2"]
WINDOW_COUNTERS = ["StatesOutsideWindow", "MessagesOutsideWindow", "EventsOutsideWindow",
                   "SamplesOutsideWindow"]
COUNTERS = WINDOW_COUNTERS + ["RowsOfUnreadLocations", "StatesOfUnreadRegions",
                              "MessagesWithUnreadEnd"]


def counters(table):
    fields = table.GetFieldData()
    for name in COUNTERS:
        mt.check(fields.GetArray(name) is not None, "the States field data has no %s" % name)
    return {name: fields.GetArray(name).GetValue(0) for name in COUNTERS}


def brute(window=(0.0, 0.0), clip=False, leaves=None, values=None):
    a = window[0] if window[0] != 0.0 else float("-inf")
    b = window[1] if window[1] != 0.0 else float("inf")
    keep = set(range(3)) if leaves is None else {paths.index(p) for p in leaves}
    kept_types = None if values is None else {row_of[v] for v in values}
    out = {"states": [], "messages": [], "events": [], "variables": []}
    # What is left out, under its first reason: leaf, state value, window.
    counts = dict.fromkeys(COUNTERS, 0)
    for loc, t, d, s, e in full["states"]:
        if loc not in keep:
            counts["RowsOfUnreadLocations"] += 1
        elif kept_types is not None and t not in kept_types:
            counts["StatesOfUnreadRegions"] += 1
        elif e < a or s > b:
            counts["StatesOutsideWindow"] += 1
        else:
            out["states"].append((loc, t, d, max(s, a), min(e, b)) if clip else (loc, t, d, s, e))
    for snd, rcv, ts, tr in full["messages"]:
        if snd not in keep or rcv not in keep:
            counts["MessagesWithUnreadEnd"] += 1
        elif max(ts, tr) < a or min(ts, tr) > b:
            counts["MessagesOutsideWindow"] += 1
        else:
            out["messages"].append((snd, rcv, ts, tr))
    for kind, counter in (("events", "EventsOutsideWindow"), ("variables", "SamplesOutsideWindow")):
        for r in full[kind]:
            if r[0] not in keep:
                counts["RowsOfUnreadLocations"] += 1
            elif not a <= r[2] <= b:
                counts[counter] += 1
            else:
                out[kind].append(r)
    return {k: sorted(v) for k, v in out.items()}, counts


cases = [dict(window=(2.2, 4.5)), dict(window=(2.2, 4.5), clip=True), dict(window=(3.6, 0.0)),
         dict(window=(0.0, 1.2), clip=True), dict(leaves=["c0/h0/r1"]),
         dict(leaves=["c0/h0/r0", "c0/h0/r1"]), dict(values=["compute"]),
         dict(values=["MPI_Send"], window=(2.5, 7.5), leaves=["c0/h0/r0", "c0/h1/r2"])]
nonempty = 0
seen = dict.fromkeys(COUNTERS, 0)
for case in cases:
    properties = {"TimeWindow": list(case.get("window", (0.0, 0.0))),
                  "ClipStatesToWindow": int(case.get("clip", False))}
    if "leaves" in case:
        properties["Locations"] = case["leaves"]
    if "values" in case:
        properties["Regions"] = case["values"]
    picked = PajeTraceReader(FileName=trace, **properties)
    capture = mt.ErrorCapture()
    try:
        s, m, e, v = fetch_all(picked)[:4]
    finally:
        capture.close()
    warnings = capture.text()
    got = {"states": rows(s, ["Location", "Type", "Depth", "Start", "End"]),
           "messages": rows(m, ["Sender", "Receiver", "SendTime", "RecvTime"]),
           "events": rows(e, ["Location", "Type", "Time"]),
           "variables": rows(v, ["Location", "Variable", "Time", "Value"])}
    expected, expected_counts = brute(**case)
    mt.check(got == expected, "%s:\n%s\nexpected\n%s" % (case, got, expected))
    # Nothing left out silently: each row dropped is counted once, and the
    # window's drops are warned about with their numbers.
    got_counts = counters(s)
    mt.check(got_counts == expected_counts,
             "%s: counters %s, expected %s" % (case, got_counts, expected_counts))
    for name in COUNTERS:
        seen[name] += got_counts[name]
    dropped = [expected_counts[n] for n in WINDOW_COUNTERS]
    said = "left out %d states, %d links, %d events and %d variable changes outside it" % tuple(dropped)
    mt.check((said in warnings) == (sum(dropped) > 0),
             "%s: the warning should say \"%s\" exactly when the window leaves rows out; got:\n%s"
             % (case, said, warnings))
    report = s.GetFieldData().GetAbstractArray("ReadReport").GetValue(0)
    if expected_counts["StatesOutsideWindow"]:
        mt.check("%d states outside the time window" % expected_counts["StatesOutsideWindow"]
                 in report, "%s: ReadReport does not count the states outside:\n%s" % (case, report))
    if expected_counts["StatesOfUnreadRegions"]:
        mt.check("%d states of values not selected in Regions" % expected_counts["StatesOfUnreadRegions"]
                 in report, "%s: ReadReport does not count the deselected values:\n%s" % (case, report))
    mt.check(got["states"] != full["states"], "%s did not narrow the states" % case)
    nonempty += bool(got["states"])
    Delete(picked)
mt.check(nonempty == len(cases), "some selections gave no states at all")
mt.check(all(seen.values()), "some counter is never exercised by the cases: %s" % seen)

# Leaving r1 out drops the link that ends there, and counts it.
picked = PajeTraceReader(FileName=trace, Locations=["c0/h0/r0", "c0/h1/r2"])
s = fetch_all(picked)[0]
mt.check(s.GetFieldData().GetArray("MessagesWithUnreadEnd").GetValue(0) == 1,
         "the link to the unselected r1 is not counted")
Delete(picked)

# The cache: a new window or selection does not parse again; a changed file does.
vtk_reader = reader.GetClientSideObject()


def parses():
    reader.UpdatePropertyInformation()
    return reader.GetProperty("NumberOfParses")[0]


mt.check(parses() == 1, "the first read parsed %d times" % parses())
for window in ([1.0, 2.0], [3.0, 8.0], [0.0, 0.0]):
    reader.TimeWindow = window
    reader.UpdatePipeline()
reader.Regions = ["compute"]
reader.UpdatePipeline()
mt.check(reader.GetDataInformation(0).GetNumberOfRows() == 3, "Regions=compute on the cached trace")
mt.check(parses() == 1, "changing TimeWindow and Regions parsed the file again (%d parses)" % parses())
reader.Regions = ["compute", "MPI_Send", "MPI_Recv"]
with open(trace, "a") as f:  # a changed file (size and time) is parsed again
    f.write("# appended\n")
os.utime(trace, (time.time() + 5, time.time() + 5))
reader.FileName = trace
vtk_reader.Modified()
reader.UpdatePipeline()
mt.check(parses() == 2, "a changed file was not parsed again (%d parses)" % parses())
mt.check(reader.GetDataInformation(0).GetNumberOfRows() == 6, "the re-parsed file reads 6 states")

# File > Open picks this reader for *.paje and *.trace.
copy = os.path.join(args.output, "copy.trace")
shutil.copyfile(source, copy)
for path in (trace, copy):
    opened = OpenDataFile(path)
    mt.check(opened is not None and opened.GetXMLName() == "MacroscopePajeReader",
             "OpenDataFile(%s) chose %s" % (os.path.basename(path), opened and opened.GetXMLName()))
    opened.UpdatePipeline()
    mt.check(opened.GetDataInformation(0).GetNumberOfRows() == 6, "%s: 6 states" % path)

# The last case, for the 2-rank test: its pieces' counters must add up to these.
digests = {"trace": trace, "rows": {}, "case": cases[-1], "counters": brute(**cases[-1])[1]}
for port, table in zip(PORTS, (states, messages, events, variables, tree, types)):
    if port != "Hierarchy":
        digests[port] = mt.table_digest(table)
        digests["rows"][port] = table.GetNumberOfRows()
with open(os.path.join(args.output, "..", "paje-serial-digests.json"), "w") as f:
    json.dump(digests, f, indent=1)
print("Pajé reader: every column, %d selections, the cache and File > Open checked" % len(cases))
