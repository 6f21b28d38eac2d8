#!/usr/bin/env python3
"""The Pajé constructs real traces use, against pajeng's pj_dump.

Each hand-written trace of Testing/Data/paje/constructs/ is dumped by
pj_dump and by macroscope-paje-dump. Where pj_dump accepts the trace, both
must give the same states (with their depths), links, variable intervals and
events (paje_crosscheck.compare), plus what pj_dump does not print (colours,
the read report). Where pj_dump refuses it, Macroscope must refuse it too,
with the same line. pj_dump runs with `-s -1e9` since by default it leaves
out what ends before time 0 (docs/paje-reader.md, "Against pj_dump").

  test_paje_constructs.py --pj-dump PJ_DUMP --macroscope-dump DUMP --data DIR

A missing pj_dump is a failure, not a skip.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Python"))
import paje_crosscheck as pc  # noqa: E402


def run(command):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True)
    return result.returncode, result.stdout, result.stderr


def colours(tables):
    types = tables["Types"]
    return {(paradigm, name): tuple(int(c) for c in colour.split(","))
            for name, paradigm, colour in zip(types["Name"], types["Paradigm"], types["TraceColor"])}


# What each accepted construct must show beyond the comparison with pj_dump:
# the number of states (so that a construct cannot vanish from both sides),
# and a check on Macroscope's own output.
def check_set_on_stack(tables, report, ours):
    # pajeng: the SetState at 4 on p0 ends A, B and C (depths 0, 1, 2).
    ended = sorted((s[3], s[2]) for s in ours.states if s[0] == "p0" and s[5] == 4.0)
    return [] if ended == [(0, "A"), (1, "B"), (2, "C")] else [
        "the SetState at 4 on p0 ended %s, not A, B, C at depths 0, 1, 2" % ended]


def check_root_alias_zero(tables, report, ours):
    names = [n for n, leaf in zip(tables["Hierarchy"]["Name"], tables["Hierarchy"]["LeafIndex"])
             if leaf >= 0]
    return [] if "0" in names else ["no leaf named \"0\" among %s" % names]


def check_destroy_root(tables, report, ours):
    return [] if "3 states closed by the destruction" in report else [
        "the report does not count 3 states closed by the destruction of the root: " + report]


def check_colours_255(tables, report, ours):
    want = {("State", "A"): (255, 102, 255), ("State", "B"): (255, 102, 255),
            ("State", "C"): (0, 128, 255), ("", "Load"): (255, 255, 255)}
    got = colours(tables)
    return ["colour of %s: %s, expected %s" % (key, got.get(key), rgb)
            for key, rgb in want.items() if got.get(key) != rgb]


def check_trace_file(tables, report, ours):
    wanted = '2 PajeTraceFile events skipped (parts of the trace in other files, not read: ' \
             '"part-1.paje", "part-2.paje")'
    return [] if wanted in report else ["the report lacks %r: %s" % (wanted, report)]


def check_negative_times(tables, report, ours):
    starts = sorted(s[4] for s in ours.states)
    return [] if starts and starts[0] == -4.0 else ["the state at -4 s is missing: %s" % starts]


ACCEPTED = {
    "set-on-stack.paje": (12, check_set_on_stack),
    "root-alias-zero.paje": (3, check_root_alias_zero),
    "destroy-root.paje": (4, check_destroy_root),
    "colours-255.paje": (3, check_colours_255),
    "trace-file.paje": (2, check_trace_file),
    "negative-times.paje": (2, check_negative_times),
}
# Refused by both: (line, what pj_dump says, what Macroscope says).
REFUSED = {
    "backwards.paje": (73, "not time-ordered", "time goes backwards"),
}


def check_accepted(args, path, states, extra):
    code, out, err = run([args.pj_dump, "-l", "9", "-s", "-1e9", path])
    if code != 0 or "Exception" in out + err:
        return ["pj_dump refuses it (%d): %s" % (code, (out + err).strip()[:300])]
    theirs = pc.records_from_pj_dump(out.splitlines())
    code, out, report = run([args.macroscope_dump, path])
    if code != 0:
        return ["macroscope-paje-dump refuses it: " + report.strip()[:300]]
    tables, end_time = pc.read_macroscope_dump(out.splitlines())
    ours = pc.records_from_tables(tables, end_time)
    problems = pc.compare(ours, theirs)
    if len(theirs.states) != states:
        problems.append("pj_dump gives %d states, the file has %d" % (len(theirs.states), states))
    print("  pj_dump: %d states, %d variable intervals; Macroscope: %d states, %d variable "
          "intervals" % (len(theirs.states), len(theirs.variables), len(ours.states),
                         len(ours.variables)))
    return problems + extra(tables, report, ours)


def check_refused(args, path, line, theirs_says, ours_says):
    problems = []
    code, out, err = run([args.pj_dump, "-l", "9", path])
    said = out + err
    if theirs_says not in said or "Line: %d," % line not in said:
        problems.append("pj_dump does not refuse line %d with %r: %s"
                        % (line, theirs_says, said.strip()[:300]))
    code, out, err = run([args.macroscope_dump, path])
    if code == 0 or "%s:%d: %s" % (path, line, ours_says) not in err:
        problems.append("macroscope-paje-dump does not refuse line %d with %r (exit %d): %s"
                        % (line, ours_says, code, err.strip()[:300]))
    print("  pj_dump: %s" % said.strip().splitlines()[0][:160] if said.strip() else "")
    print("  Macroscope: %s" % err.strip()[:160])
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pj-dump", required=True)
    parser.add_argument("--macroscope-dump", required=True)
    parser.add_argument("--data", required=True, help="Testing/Data/paje/constructs")
    args = parser.parse_args()
    if not args.pj_dump or not os.access(args.pj_dump, os.X_OK):
        print("FAIL: pj_dump (pajeng) is missing: %r; install pajeng (scripts/deps.sh)"
              % args.pj_dump, file=sys.stderr)
        return 1
    files = sorted(f for f in os.listdir(args.data) if f.endswith(".paje"))
    unknown = set(files) - set(ACCEPTED) - set(REFUSED)
    failures = ["%s: no expectation in this script" % f for f in sorted(unknown)]
    for name in sorted(set(ACCEPTED) | set(REFUSED)):
        path = os.path.join(args.data, name)
        print(name)
        if not os.path.isfile(path):
            failures.append("%s: missing" % path)
            continue
        if name in ACCEPTED:
            problems = check_accepted(args, path, *ACCEPTED[name])
        else:
            problems = check_refused(args, path, *REFUSED[name])
        failures += ["%s: %s" % (name, p) for p in problems]
    for failure in failures:
        print("FAIL: " + failure, file=sys.stderr)
    if failures:
        return 1
    print("%d constructs: as pj_dump" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
