"""The OTF2 reader in pvpython on an archive shaped like EZTrace 2.0's
(written by macroscope-otf2-write-eztrace-like; its tables are worked out in
Testing/OTF2/TestOTF2EZTraceConstructs.cxx): it opens, keeps every record,
takes TimeBounds from its records, past the clock's too short declared span, counts each
oddity in the States field data, warns, and counts what a window leaves out."""
import os
import shutil
import subprocess

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

tool = os.path.join(os.path.dirname(args.synth), "macroscope-otf2-write-eztrace-like")
mt.check(os.path.isfile(tool), "macroscope-otf2-write-eztrace-like not built: " + tool)
directory = os.path.join(args.output, "eztrace-like")
shutil.rmtree(directory, ignore_errors=True)  # OTF2 does not overwrite an archive
result = subprocess.run([tool, directory], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
mt.check(result.returncode == 0, "%s failed:\n%s" % (tool, result.stdout))
anchor = result.stdout.strip()


def counters(states):
    fields = states.GetFieldData()
    return {fields.GetArrayName(i): fields.GetArray(i).GetValue(0)
            for i in range(fields.GetNumberOfArrays()) if fields.GetArray(i) is not None}


def read(**properties):
    capture = mt.ErrorCapture()
    try:
        reader = OTF2TraceReader(FileName=anchor, **properties)
        reader.UpdatePipelineInformation()
        declared = list(reader.GetProperty("TimeBounds"))
        reader.UpdatePipeline()
        tables = [servermanager.Fetch(reader, idx=p) for p in range(6)]
        reader.UpdatePipelineInformation()
        grown = list(reader.GetProperty("TimeBounds"))
    finally:
        capture.close()
    Delete(reader)
    return tables, declared, grown, capture.text()


tables, declared, grown, log = read()
states, messages, events, variables, tree, types = tables
mt.check("ERR" not in log, "errors reading %s:\n%s" % (anchor, log))

# The declared span is rank 0's 12 ms; the records reach 40 ms. The archive
# is small: the information pass already scans it, so TimeBounds (and the
# Types' "TimeBounds" that filters take for their default windows) hold
# every record before any read, and nothing is dropped.
mt.check(declared == [0.0, 0.040], "TimeBounds before the read %s, the records end at 0.040" % declared)
mt.check(grown == [0.0, 0.040], "TimeBounds after the read %s, the records end at 0.040" % grown)
bounds = types.GetFieldData().GetArray("TimeBounds")
mt.check([bounds.GetValue(0), bounds.GetValue(1)] == [0.0, 0.040],
         "Types' TimeBounds %s" % [bounds.GetValue(0), bounds.GetValue(1)])
mt.check("beyond the clock's declared span" in log, "no warning about the declared span:\n" + log)

mt.check(states.GetNumberOfRows() == 15, "%d states, expected 15" % states.GetNumberOfRows())
mt.check(messages.GetNumberOfRows() == 2, "%d messages, expected 2" % messages.GetNumberOfRows())
names = mt.column(types, "Name")
kinds = mt.column(types, "Kind")
state_names = [n for n, k in zip(names, kinds) if k == "state"]
mt.check(state_names == ["Working", "EZTrace finalize", "MPI_Send", "MPI_Recv", "MPI_Sendrecv",
                         "MPI_Irecv", "MPI_Isend", "MPI_Waitall"],
         "one state type per region name, got %s" % state_names)
ends = sorted(e for e, t in zip(mt.column(states, "End"), mt.column(states, "Type"))
              if names[t] == "EZTrace finalize")
mt.check([round(e, 9) for e in ends] == [0.012, 0.031, 0.039],
         "EZTrace finalize ends %s: at its Leave on rank 0, with Working on ranks 1 and 2" % ends)

expected = {"MisnestedLeaves": 2, "StatesClosedEarly": 2, "LeavesWithoutEnter": 0,
            "EventCountMismatches": 3, "LocationsOutsideClockSpan": 2, "ProcNullPeers": 2,
            "UnknownPeers": 0, "UnmatchedSends": 1, "IsendsNotCompleted": 1,
            "IrecvRequestsNotCompleted": 1, "DuplicateGroupDefinitions": 1,
            "RegionsSharingAName": 16, "StatesOutsideWindow": 0, "MessagesOutsideWindow": 0}
got = counters(states)
for name, value in expected.items():
    mt.check(got.get(name) == value, "counter %s = %s, expected %s" % (name, got.get(name), value))
report = states.GetFieldData().GetAbstractArray("ReadReport").GetValue(0)
for fragment in ("3 locations hold another number of event records",
                 "2 Leave records of a region that was not the innermost open one",
                 "note: 2 message peers given as MPI_PROC_NULL"):
    mt.check(fragment in report, "the read report misses %r:\n%s" % (fragment, report))
mt.check("with anomalies" in log and "truncated" not in log, "the warning:\n" + log)

# A window leaves records out: counted, reported and warned about.
tables, _, _, log = read(TimeWindow=[0.0, 0.012])
states = tables[0]
mt.check(states.GetNumberOfRows() == 13, "%d states in [0, 12 ms], expected 13" % states.GetNumberOfRows())
mt.check(counters(states).get("StatesOutsideWindow") == 2,
         "StatesOutsideWindow %s, expected 2" % counters(states).get("StatesOutsideWindow"))
mt.check("2 states outside the time window (not kept)" in log, "no window warning:\n" + log)
print("EZTrace-like archive: 15 states, 2 messages, 8 state types, every counter as expected")
