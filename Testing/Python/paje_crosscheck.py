#!/usr/bin/env python3
"""Cross-check of Macroscope's Pajé parser against pajeng's pj_dump.

Both sides become the same canonical records, compared as multisets with a
time tolerance (docs/smpi-traces.md):

  state     (container, state type, value, depth, start, end)
  link      (link type, start container, end container, start, end)
  variable  (container, variable type, start, end, value): piecewise-constant
            intervals, built from Macroscope's samples the way pj_dump
            builds them (see variable_intervals)
  event     (container, event type, value, time)

The record builders are separate from the comparison:
  records_from_pj_dump(lines)          pj_dump -l 9 output
  records_from_tables(tables, end)     Macroscope's tables as plain columns:
      the output of macroscope-paje-dump (read_macroscope_dump), or the
      vtkTables of the Pajé reader fetched in pvpython (same column names)
  compare(ours, theirs)                a list of differences, empty if equal

Plain python3 (no ParaView), importable by pvpython tests. Run as a script,
it dumps a trace with both tools, compares and checks expected counts.
"""
import argparse
import collections
import math
import subprocess
import sys

Records = collections.namedtuple("Records", "states links variables events")

KINDS = ("states", "links", "variables", "events")
# Positions of the numbers compared with a tolerance in each kind of record
# ("t" a time, "v" a variable's value); the other fields must be equal.
NUMERIC_FIELDS = {
    "states": {4: "t", 5: "t"},
    "links": {3: "t", 4: "t"},
    "variables": {2: "t", 3: "t", 4: "v"},
    "events": {3: "t"},
}


def records_from_pj_dump(lines):
    """Records of `pj_dump -l 9` output (fields separated by ", ").

    State:    container, type, start, end, duration, imbrication, value
    Link:     container, type, start, end, duration, value, start container,
              end container, key
    Variable: container, type, start, end, duration, value
    Event:    container, type, time, value
    A name holding ", " would break this split; SMPI names never do.
    """
    states, links, variables, events = [], [], [], []
    for number, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        kind = line.split(",", 1)[0]
        if kind == "State":
            f = line.split(", ", 7)
            states.append((f[1], f[2], f[7], int(round(float(f[6]))), float(f[3]), float(f[4])))
        elif kind == "Link":
            f = line.split(", ", 9)
            links.append((f[2], f[7], f[8], float(f[3]), float(f[4])))
        elif kind == "Variable":
            f = line.split(", ", 6)
            variables.append((f[1], f[2], float(f[3]), float(f[4]), float(f[6])))
        elif kind == "Event":
            f = line.split(", ", 4)
            events.append((f[1], f[2], f[4], float(f[3])))
        elif kind in ("Container", ""):
            continue
        else:
            raise ValueError("pj_dump output line %d: unexpected record %r" % (number, line))
    return Records(states, links, variables, events)


def read_macroscope_dump(lines):
    """Parses macroscope-paje-dump output into ({table: {column: [values]}}, end time)."""
    tables, end_time, current = {}, math.nan, None
    for number, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if line.startswith("#table "):
            words = line.split()
            current = (words[2:], {name: [] for name in words[2:]})
            tables[words[1]] = current[1]
        elif line.startswith("#end "):
            end_time = float(line.split()[1])
        elif current is not None:
            names, columns = current
            values = line.split("\t")
            if len(values) != len(names):
                raise ValueError("macroscope-paje-dump line %d: %d fields, expected %d"
                                 % (number, len(values), len(names)))
            for name, value in zip(names, values):
                columns[name].append(value)
        else:
            raise ValueError("macroscope-paje-dump line %d: data before any table" % number)
    numeric = {"Location", "Type", "Depth", "Sender", "Receiver", "Bytes", "Communicator",
               "Variable", "Parent", "LeafIndex"}
    for columns in tables.values():
        for name, values in columns.items():
            if name in numeric:
                columns[name] = [int(v) for v in values]
            elif name in ("Start", "End", "SendTime", "RecvTime", "Time", "Value"):
                columns[name] = [float(v) for v in values]
    return tables, end_time


def variable_intervals(samples, end_time):
    """pj_dump's intervals of one variable from (time, value after the change)
    samples in file order: changes at one time merge (the last value wins),
    an interval lasts until the next change, and the last one until
    end_time (pj_dump: the destruction of the container, or the end of the
    trace), even when it starts at end_time (zero length)."""
    merged = []
    for time, value in sorted(samples, key=lambda sample: sample[0]):  # stable
        if merged and merged[-1][0] == time:
            merged[-1] = (time, value)
        else:
            merged.append((time, value))
    ends = [time for time, _ in merged[1:]] + [end_time]
    return [(start, end, value) for (start, value), end in zip(merged, ends)]


def records_from_tables(tables, end_time, container_end=None):
    """Records of Macroscope's tables given as plain columns (lists):

      Types      Name Kind Paradigm (Paradigm: the Pajé type of a value)
      Hierarchy  Name LeafIndex (leaf names: Name where LeafIndex >= 0)
      States     Location Type Depth Start End
      Messages   Sender Receiver SendTime RecvTime Communicator
      Variables  Location Variable Time Value
      Events     Location Type Time (optional)

    Location, Sender, Receiver are leaf indexes; Type, Variable and
    Communicator rows of Types. end_time closes the last interval of each
    variable; container_end {container name: time} overrides it for
    containers destroyed earlier (the tables do not hold destruction times).
    """
    container_end = container_end or {}
    hierarchy = tables["Hierarchy"]
    leaves = {}
    for name, leaf in zip(hierarchy["Name"], hierarchy["LeafIndex"]):
        if leaf >= 0:
            leaves[leaf] = name
    types = tables["Types"]
    name, paradigm = types["Name"], types["Paradigm"]

    s = tables["States"]
    states = [(leaves[loc], paradigm[t], name[t], depth, start, end)
              for loc, t, depth, start, end
              in zip(s["Location"], s["Type"], s["Depth"], s["Start"], s["End"])]
    m = tables["Messages"]
    links = [(name[c], leaves[a], leaves[b], send, recv)
             for a, b, send, recv, c
             in zip(m["Sender"], m["Receiver"], m["SendTime"], m["RecvTime"], m["Communicator"])]
    v = tables["Variables"]
    samples = collections.OrderedDict()
    for loc, var, time, value in zip(v["Location"], v["Variable"], v["Time"], v["Value"]):
        samples.setdefault((loc, var), []).append((time, value))
    variables = []
    for (loc, var), series in samples.items():
        container = leaves[loc]
        for start, end, value in variable_intervals(series, container_end.get(container, end_time)):
            variables.append((container, name[var], start, end, value))
    e = tables.get("Events", {"Location": [], "Type": [], "Time": []})
    events = [(leaves[loc], paradigm[t], name[t], time)
              for loc, t, time in zip(e["Location"], e["Type"], e["Time"])]
    return Records(states, links, variables, events)


def _close(a, b, tolerance):
    return abs(a - b) <= tolerance * max(1.0, abs(a), abs(b))


def compare(ours, theirs, tolerance=1e-9, value_tolerance=1e-6, limit=10):
    """Differences between two Records as multisets: records of a kind are
    grouped by their other fields, sorted by their numbers within a group and
    paired in order; paired times must agree within tolerance, variable
    values within value_tolerance (both relative to the magnitude when above
    1: pj_dump reads variable values in single precision, 1.2e-7 relative).
    Returns a list of messages, empty if equal."""
    problems = []
    for kind in KINDS:
        timed = NUMERIC_FIELDS[kind]
        tolerances = [tolerance if timed[i] == "t" else value_tolerance for i in sorted(timed)]

        def key(record):
            return tuple(x for i, x in enumerate(record) if i not in timed)

        def times(record):
            return tuple(record[i] for i in sorted(timed))

        groups = collections.defaultdict(lambda: ([], []))
        for record in getattr(ours, kind):
            groups[key(record)][0].append(times(record))
        for record in getattr(theirs, kind):
            groups[key(record)][1].append(times(record))
        for group_key, (mine, other) in sorted(groups.items(), key=lambda item: repr(item[0])):
            mine.sort()
            other.sort()
            if len(mine) != len(other):
                problems.append("%s %s: %d in ours, %d in pj_dump"
                                % (kind, group_key, len(mine), len(other)))
                continue
            for a, b in zip(mine, other):
                if not all(_close(x, y, t) for x, y, t in zip(a, b, tolerances)):
                    problems.append("%s %s: ours %s, pj_dump %s" % (kind, group_key, a, b))
                    break
    if len(problems) > limit:
        problems = problems[:limit] + ["... %d more" % (len(problems) - limit)]
    return problems


def run(command):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True)
    if result.returncode != 0:
        raise SystemExit("FAIL: %s exited with %d: %s"
                         % (" ".join(command), result.returncode, result.stderr.strip()))
    return result.stdout.splitlines()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("trace")
    parser.add_argument("--pj-dump", default="pj_dump")
    parser.add_argument("--macroscope-dump", required=True, help="macroscope-paje-dump")
    parser.add_argument("--tolerance", type=float, default=1e-9, help="on times")
    parser.add_argument("--value-tolerance", type=float, default=1e-6,
                        help="on variable values (pj_dump reads them as floats)")
    parser.add_argument("--expect-links", type=int,
                        help="exact number of links of the --link-type")
    parser.add_argument("--link-type", default="MPI_LINK")
    parser.add_argument("--min-states", type=int, default=1)
    parser.add_argument("--min-variables", type=int, default=0,
                        help="at least this many variable intervals")
    parser.add_argument("--nonzero-variable", action="append", default=[],
                        metavar="CONTAINER:TYPE",
                        help="a variable that must take a non-zero value at some time")
    args = parser.parse_args()

    theirs = records_from_pj_dump(run([args.pj_dump, "-l", "9", args.trace]))
    tables, end_time = read_macroscope_dump(run([args.macroscope_dump, args.trace]))
    ours = records_from_tables(tables, end_time)

    failures = []
    for kind in KINDS:
        print("%-9s ours %7d  pj_dump %7d" % (kind, len(getattr(ours, kind)),
                                             len(getattr(theirs, kind))))
    failures += compare(ours, theirs, args.tolerance, args.value_tolerance)
    if len(theirs.states) < args.min_states:
        failures.append("%d states, expected at least %d" % (len(theirs.states), args.min_states))
    if args.expect_links is not None:
        for side, records in (("ours", ours), ("pj_dump", theirs)):
            count = sum(1 for link in records.links if link[0] == args.link_type)
            if count != args.expect_links:
                failures.append("%s: %d %s links, the program sends %d messages"
                                % (side, count, args.link_type, args.expect_links))
    if len(theirs.variables) < args.min_variables:
        failures.append("%d variable intervals, expected at least %d"
                        % (len(theirs.variables), args.min_variables))
    for wanted in args.nonzero_variable:
        container, variable = wanted.rsplit(":", 1)
        if not any(c == container and t == variable and value != 0
                   for c, t, _, _, value in theirs.variables):
            failures.append("variable %s of %s is never non-zero" % (variable, container))
    for failure in failures:
        print("FAIL: " + failure, file=sys.stderr)
    if failures:
        return 1
    print("same states, links, variables and events within %g s" % args.tolerance)
    return 0


if __name__ == "__main__":
    sys.exit(main())
