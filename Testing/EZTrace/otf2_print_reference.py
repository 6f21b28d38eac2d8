"""The reference side of the EZTrace cross-check: what OTF2's own
`otf2-print` lists in an archive, parsed from its text output (events) and
from `otf2-print -G` (definitions), turned into the rows Macroscope's tables
should hold. Plain Python (no ParaView), so that it runs under pvpython and
under the system interpreter alike.

Rows are keyed by names and nanosecond ticks, never by Macroscope's row
numbers, so that the comparison does not depend on row order or type ids:

* states: (location name, region name, depth, start tick, end tick);
* messages: (sender name, receiver name, communicator id, tag, send length,
  receive length, send tick, receive tick);
* events: (location name, record kind, tick, communicator id, root name,
  operation name), the last three None for records other than collectives.

Enter/Leave pairing: a Leave closes the innermost open Enter of its region
and, when other regions were opened inside that one and are still open,
closes them at the same time ("close what must be closed"; each
such Leave counts in `mismatched_leaves`, each state it closes early in
`states_closed_early`, and that state's own Leave, when it comes, in
`late_leaves_of_closed_states`). Any other Leave of a region that is not
open counts in `leaves_without_enter`. Regions still open when a location's
records end close at that location's last record (`states_left_open`).
Depth is the number of regions open around the Enter.

Messages pair as MPI does (non-overtaking): on one channel (sender,
receiver, communicator, tag) the k-th send with the k-th receive. Sends are
MPI_SEND and MPI_ISEND, receives MPI_RECV and MPI_IRECV (an
MPI_IRECV_REQUEST carries no peer: it is no receive). A peer otf2-print
cannot resolve (`INVALID`, which EZTrace writes for MPI_PROC_NULL) counts in
`null_peers`; sends and receives left without a partner in
`unmatched_sends` / `unmatched_receives`.
"""
import collections
import re
import subprocess

EVENT_LINE = re.compile(r"^([A-Z][A-Z_]+)\s+(\d+)\s+(\d+)\s*(.*)$")
QUOTED_ID = r'"((?:[^"\\]|\\.)*)" <(\d+)>'
REGION = re.compile(r'Region: ' + QUOTED_ID)
PEER = re.compile(r'(Receiver|Sender): (\d+) (?:\(' + QUOTED_ID + r'\)|\((INVALID|UNDEFINED)\))')
COMMUNICATOR = re.compile(r'Communicator: ' + QUOTED_ID)
TAG = re.compile(r'Tag: (\d+)')
LENGTH = re.compile(r'Length: (\d+)')
OPERATION = re.compile(r'Operation: ([A-Z_]+)')
ROOT = re.compile(r'Root: (?:NONE|(\d+) \(' + QUOTED_ID + r'\))')
LOCATION_DEF = re.compile(r'^LOCATION\s+(\d+)\s+Name: ' + QUOTED_ID)
CLOCK_DEF = re.compile(r'^CLOCK_PROPERTIES\s+Ticks per Seconds: (\d+), Global Offset: (\d+), '
                       r'Length: (\d+)')

SENDS = ("MPI_SEND", "MPI_ISEND")
RECEIVES = ("MPI_RECV", "MPI_IRECV")
# Records that complete or announce a request: no row of their own.
REQUEST_RECORDS = ("MPI_ISEND_COMPLETE", "MPI_IRECV_REQUEST", "MPI_REQUEST_CANCELLED",
                   "MPI_REQUEST_TEST")
STATE_RECORDS = ("ENTER", "LEAVE")
# otf2-print's operation names -> Macroscope's CollectiveOperationName.
OPERATIONS = {"BARRIER": "Barrier", "BCAST": "Bcast", "GATHER": "Gather", "GATHERV": "Gatherv",
              "SCATTER": "Scatter", "SCATTERV": "Scatterv", "ALLGATHER": "Allgather",
              "ALLGATHERV": "Allgatherv", "ALLTOALL": "Alltoall", "ALLTOALLV": "Alltoallv",
              "ALLTOALLW": "Alltoallw", "ALLREDUCE": "Allreduce", "REDUCE": "Reduce",
              "REDUCE_SCATTER": "ReduceScatter", "SCAN": "Scan", "EXSCAN": "Exscan",
              "REDUCE_SCATTER_BLOCK": "ReduceScatterBlock"}


class ReferenceError(Exception):
    pass


def record_kind(name):
    """otf2-print's "MPI_COLLECTIVE_END" is Macroscope's "MpiCollectiveEnd"."""
    return "".join(part.capitalize() for part in name.split("_"))


def run_otf2_print(otf2_print, anchor, *options):
    result = subprocess.run([otf2_print] + list(options) + [anchor], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True)
    if result.returncode != 0:
        raise ReferenceError("otf2-print %s%s failed (%d): %s" % (
            " ".join(options) + " " if options else "", anchor, result.returncode,
            result.stderr[-2000:]))
    return result.stdout, result.stderr


def read(otf2_print, anchor):
    """Runs otf2-print on `anchor` and parses what it prints."""
    definitions, _ = run_otf2_print(otf2_print, anchor, "-G")
    events, _ = run_otf2_print(otf2_print, anchor)
    return Reference(anchor, definitions, events)


class Reference:
    """Everything otf2-print says about one archive, as comparable rows."""

    def __init__(self, anchor, definitions, events):
        """`definitions`, `events`: the text of `otf2-print -G` and `otf2-print`."""
        self.anchor = anchor
        self._read_definitions(definitions)
        self.record_counts = collections.Counter()
        self.records = 0
        self.states = []
        self.messages = []
        self.events = []
        self.anomalies = collections.Counter()
        self.first_tick = self.last_tick = None
        self._open_collectives = {}  # location -> its Begin rows awaiting their End
        self._read_events(events)

    def _read_definitions(self, text):
        self.location_names = {}
        self.resolution, self.offset, self.clock_length = None, 0, None
        for line in text.splitlines():
            match = LOCATION_DEF.match(line)
            if match:
                self.location_names[int(match.group(1))] = match.group(2)
            match = CLOCK_DEF.match(line)
            if match:
                self.resolution = int(match.group(1))
                self.offset = int(match.group(2))
                self.clock_length = int(match.group(3))
        if not self.location_names:
            raise ReferenceError("otf2-print -G %s lists no Location" % self.anchor)
        if self.resolution is None:
            raise ReferenceError("otf2-print -G %s lists no ClockProperties" % self.anchor)

    def seconds(self, tick):
        return (tick - self.offset) / self.resolution

    def _read_events(self, text):
        per_location = collections.defaultdict(list)
        for line in text.splitlines():
            match = EVENT_LINE.match(line)
            if not match:
                continue
            kind, location, tick, rest = match.group(1), int(match.group(2)), \
                int(match.group(3)), match.group(4)
            if location not in self.location_names:
                raise ReferenceError("%s: a record on undefined location %d: %s"
                                     % (self.anchor, location, line[:200]))
            self.records += 1
            self.record_counts[kind] += 1
            self.first_tick = tick if self.first_tick is None else min(self.first_tick, tick)
            self.last_tick = tick if self.last_tick is None else max(self.last_tick, tick)
            per_location[location].append((kind, tick, rest, line))
        if not self.records:
            raise ReferenceError("otf2-print lists no event record in %s" % self.anchor)
        sends, receives = collections.defaultdict(list), collections.defaultdict(list)
        for location, records in per_location.items():
            name = self.location_names[location]
            self._pair_states(name, records)
            for kind, tick, rest, line in records:
                if kind in SENDS or kind in RECEIVES:
                    self._message_end(name, kind, tick, rest, line, sends, receives)
                elif kind not in STATE_RECORDS and kind not in REQUEST_RECORDS:
                    self._event(name, kind, tick, rest, line)
        self._match(sends, receives)

    def _pair_states(self, location, records):
        stack = []  # [region, start tick, depth]
        closed_early = []  # regions closed at an enclosing region's Leave
        for kind, tick, rest, line in records:
            if kind not in STATE_RECORDS:
                continue
            match = REGION.search(rest)
            if not match:
                raise ReferenceError("%s: no region in %r" % (self.anchor, line[:200]))
            region = match.group(1)
            if kind == "ENTER":
                stack.append((region, tick, len(stack)))
                continue
            open_regions = [entry[0] for entry in stack]
            if region not in open_regions:
                if region in closed_early:
                    closed_early.remove(region)
                    self.anomalies["late_leaves_of_closed_states"] += 1
                else:
                    self.anomalies["leaves_without_enter"] += 1
                continue
            innermost = len(open_regions) - 1 - open_regions[::-1].index(region)
            if innermost != len(stack) - 1:
                self.anomalies["mismatched_leaves"] += 1
            while len(stack) > innermost:
                name, start, depth = stack.pop()
                if len(stack) > innermost:
                    self.anomalies["states_closed_early"] += 1
                    closed_early.append(name)
                self.states.append((location, name, depth, start, tick))
        last = records[-1][1]
        for name, start, depth in reversed(stack):
            self.anomalies["states_left_open"] += 1
            self.states.append((location, name, depth, start, last))

    def _message_end(self, location, kind, tick, rest, line, sends, receives):
        peer, communicator = PEER.search(rest), COMMUNICATOR.search(rest)
        tag, length = TAG.search(rest), LENGTH.search(rest)
        if not (peer and communicator and tag and length):
            raise ReferenceError("%s: cannot parse %r" % (self.anchor, line[:200]))
        if peer.group(5):
            self.anomalies["null_peers"] += 1
            return
        other, comm = peer.group(3), int(communicator.group(2))
        if kind in SENDS:
            sends[(location, other, comm, int(tag.group(1)))].append((tick, int(length.group(1))))
        else:
            receives[(other, location, comm, int(tag.group(1)))].append(
                (tick, int(length.group(1))))

    def _match(self, sends, receives):
        for channel in set(sends) | set(receives):
            out, into = sends.get(channel, []), receives.get(channel, [])
            for (send_tick, send_length), (recv_tick, recv_length) in zip(out, into):
                sender, receiver, comm, tag = channel
                self.messages.append((sender, receiver, comm, tag, send_length, recv_length,
                                      send_tick, recv_tick))
            self.anomalies["unmatched_sends"] += max(0, len(out) - len(into))
            self.anomalies["unmatched_receives"] += max(0, len(into) - len(out))

    def _event(self, location, kind, tick, rest, line):
        if kind == "MPI_COLLECTIVE_BEGIN":
            # Its communicator, root and operation are its End's (below).
            self.events.append([location, record_kind(kind), tick, None, None, None])
            self._open_collectives.setdefault(location, []).append(self.events[-1])
            return
        if kind == "MPI_COLLECTIVE_END":
            operation, communicator, root = OPERATION.search(rest), COMMUNICATOR.search(rest), \
                ROOT.search(rest)
            if not (operation and communicator and root):
                raise ReferenceError("%s: cannot parse %r" % (self.anchor, line[:200]))
            fields = (int(communicator.group(2)), root.group(2),
                      OPERATIONS.get(operation.group(1), operation.group(1)))
            self.events.append([location, record_kind(kind), tick] + list(fields))
            begins = self._open_collectives.get(location)
            if begins:
                begins.pop()[3:] = fields
            return
        self.events.append([location, record_kind(kind), tick, None, None, None])

    def event_rows(self):
        return sorted(tuple(e) for e in self.events)

    def collectives(self):
        return [e for e in self.events if e[1] == "MpiCollectiveEnd"]

    def summary(self):
        return ("%d records (%s); %d states, %d messages, %d events of which %d collectives; "
                "anomalies %s" % (
                    self.records, ", ".join("%s %d" % kv for kv in sorted(self.record_counts.items())),
                    len(self.states), len(self.messages), len(self.events),
                    len(self.collectives()), dict(sorted(self.anomalies.items())) or "none"))
