"""Self-test of otf2_print_reference.py on hand-written otf2-print output:
the cross-check is only as good as its reference, so the nesting rules, the
FIFO matching per channel, MPI_PROC_NULL, collectives and the clock are
checked against hand-computed rows."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import otf2_print_reference as reference  # noqa: E402

DEFINITIONS = """
LOCATION                               0  Name: "P#0T#0" <2>, Type: CPU_THREAD, # Events: 2, Group: "P#0" <0>
LOCATION                       536870911  Name: "P#1T#0" <4>, Type: CPU_THREAD, # Events: 2, Group: "P#1" <1>
CLOCK_PROPERTIES                          Ticks per Seconds: 1000000000, Global Offset: 100, Length: 50, Date: UNDEFINED
"""
EVENTS = """
=== Events =====================================================================
Event                                   Location            Timestamp  Attributes
--------------------------------------------------------------------------------
THREAD_BEGIN                                   0                  110  Thread Contingent: UNDEFINED, Sequence Count: 0
ENTER                                          0                  120  Region: "Working" <1>
ENTER                                          0                  130  Region: "MPI_Send" <2>
MPI_SEND                                       0                  131  Receiver: 1 ("P#1T#0" <536870911>), Communicator: "MPI_COMM_WORLD" <0>, Tag: 4, Length: 8
LEAVE                                          0                  140  Region: "MPI_Send" <2>
ENTER                                          0                  141  Region: "MPI_Send" <2>
MPI_SEND                                       0                  142  Receiver: 1 ("P#1T#0" <536870911>), Communicator: "MPI_COMM_WORLD" <0>, Tag: 4, Length: 16
MPI_SEND                                       0                  143  Receiver: 4294967294 (INVALID), Communicator: "MPI_COMM_WORLD" <0>, Tag: 4, Length: 16
LEAVE                                          0                  144  Region: "MPI_Send" <2>
ENTER                                          0                  150  Region: "MPI_Bcast" <3>
MPI_COLLECTIVE_BEGIN                           0                  151
MPI_COLLECTIVE_END                             0                  152  Operation: BCAST, Communicator: "MPI_COMM_7" <7>, Root: 1 ("P#1T#0" <536870911>), Sent: 8, Received: 8
LEAVE                                          0                  153  Region: "MPI_Bcast" <3>
ENTER                                          0                  160  Region: "EZTrace finalize" <0>
LEAVE                                          0                  161  Region: "Working" <1>
LEAVE                                          0                  162  Region: "EZTrace finalize" <0>
LEAVE                                          0                  163  Region: "Nowhere" <9>
ENTER                                  536870911                  200  Region: "Working" <5>
MPI_RECV                               536870911                  210  Sender: 0 ("P#0T#0" <0>), Communicator: "MPI_COMM_WORLD" <0>, Tag: 4, Length: 8
MPI_IRECV_REQUEST                      536870911                  211  Request: 77
MPI_RECV                               536870911                  220  Sender: 0 ("P#0T#0" <0>), Communicator: "MPI_COMM_WORLD" <0>, Tag: 5, Length: 8
ENTER                                  536870911                  230  Region: "Compute" <6>
"""

failures = []


def expect(actual, wanted, what):
    if actual != wanted:
        failures.append("%s: got %r, expected %r" % (what, actual, wanted))


ref = reference.Reference("hand-written", DEFINITIONS, EVENTS)
expect(ref.records, 22, "records")
expect((ref.resolution, ref.offset, ref.clock_length), (10 ** 9, 100, 50), "clock")
expect((ref.first_tick, ref.last_tick), (110, 230), "span")
expect(ref.seconds(110), 10e-9, "seconds")
expect(sorted(ref.states), sorted([
    ("P#0T#0", "MPI_Send", 1, 130, 140),
    ("P#0T#0", "MPI_Send", 1, 141, 144),
    ("P#0T#0", "MPI_Bcast", 1, 150, 153),
    # "Working" left while "EZTrace finalize" is open: both end there.
    ("P#0T#0", "EZTrace finalize", 1, 160, 161),
    ("P#0T#0", "Working", 0, 120, 161),
    # Left open: closed at the location's last record.
    ("P#1T#0", "Compute", 1, 230, 230),
    ("P#1T#0", "Working", 0, 200, 230)]), "states")
# Tag 4: the first send with the first receive; the second send has none;
# the tag-5 receive has no send.
expect(ref.messages, [("P#0T#0", "P#1T#0", 0, 4, 8, 8, 131, 210)], "messages")
expect(dict(ref.anomalies), {"null_peers": 1, "unmatched_sends": 1, "unmatched_receives": 1,
                             "mismatched_leaves": 1, "states_closed_early": 1,
                             "late_leaves_of_closed_states": 1, "leaves_without_enter": 1,
                             "states_left_open": 2}, "anomalies")
expect(ref.event_rows(), sorted([
    ("P#0T#0", "ThreadBegin", 110, None, None, None),
    ("P#0T#0", "MpiCollectiveBegin", 151, 7, "P#1T#0", "Bcast"),
    ("P#0T#0", "MpiCollectiveEnd", 152, 7, "P#1T#0", "Bcast")]), "events")

try:
    reference.Reference("no-locations", "", EVENTS)
    failures.append("definitions without a Location were accepted")
except reference.ReferenceError:
    pass

if failures:
    print("FAIL:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("ok: the otf2-print reference pairs, nests and matches as documented")
