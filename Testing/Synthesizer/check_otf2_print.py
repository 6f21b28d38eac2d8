#!/usr/bin/env python3
"""Cross-check macroscope-synth archives with OTF2's own otf2-print.

For every pattern, both perturbations and multi-threaded ranks, this writes an
archive, validates it with `otf2-print --silent`, and checks that the records
otf2-print lists (per kind and per location) are exactly those summary.json
says were written.
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys

CASES = {
    "ring-slow-node": ["--pattern", "ring", "--threads-per-rank", "3",
                       "--perturbation", "slow-node", "--perturb-target", "2",
                       "--perturb-window", "0.01", "0.03"],
    "stencil3d-congested": ["--pattern", "stencil3d", "--threads-per-rank", "2",
                            "--perturbation", "congested-cluster", "--perturb-target", "1",
                            "--perturb-factor", "10"],
    "tree-congested": ["--pattern", "tree", "--threads-per-rank", "4",
                       "--perturbation", "congested-cluster", "--perturb-target", "0",
                       "--perturb-window", "0.005", "0.02"],
    "allreduce-slow-node": ["--pattern", "allreduce", "--threads-per-rank", "2",
                            "--perturbation", "slow-node", "--perturb-target", "3"],
    "tree-single-thread": ["--pattern", "tree", "--threads-per-rank", "1",
                           "--clusters", "3", "--nodes-per-cluster", "1"],
    # Two locations with enough events to make OTF2 flush chunks mid-run,
    # so BufferFlush records appear too.
    "ring-buffer-flush": ["--pattern", "ring", "--clusters", "1", "--nodes-per-cluster", "1",
                          "--ranks-per-node", "2", "--threads-per-rank", "1",
                          "--events", "1200000"],
}

EVENT_LINE = re.compile(r"^([A-Z][A-Z_]+)\s+(\d+)\s+(\d+)\b")


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def record_name(kind):
    """summary.json's "MpiIsendComplete" is otf2-print's "MPI_ISEND_COMPLETE"."""
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", kind).upper()


def run(command):
    return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)


def check_case(name, options, synth, otf2_print, work):
    directory = os.path.join(work, name)
    result = run([synth, "--output", directory, "--force", "--quiet"] + options)
    if result.returncode != 0:
        fail("%s: macroscope-synth failed (%d): %s" % (name, result.returncode, result.stderr))
    anchor = os.path.join(directory, "traces.otf2")
    with open(os.path.join(directory, "summary.json")) as stream:
        summary = json.load(stream)

    validation = run([otf2_print, "--silent", anchor])
    if validation.returncode != 0 or "error" in validation.stderr.lower():
        fail("%s: otf2-print --silent rejects the archive: %s" % (name, validation.stderr))

    listing = run([otf2_print, anchor])
    if listing.returncode != 0:
        fail("%s: otf2-print failed: %s" % (name, listing.stderr))
    per_kind = collections.Counter()
    per_location = collections.Counter()
    for line in listing.stdout.splitlines():
        match = EVENT_LINE.match(line)
        if match:
            per_kind[match.group(1)] += 1
            per_location[int(match.group(2))] += 1

    expected_kinds = {record_name(kind): count
                      for kind, count in summary["events"].items() if count > 0}
    if dict(per_kind) != expected_kinds:
        fail("%s: otf2-print lists %s but summary.json says %s"
             % (name, dict(sorted(per_kind.items())), dict(sorted(expected_kinds.items()))))
    if sum(per_kind.values()) != summary["total_events"]:
        fail("%s: total events differ" % name)
    expected_locations = {entry["id"]: entry["events"] for entry in summary["location_events"]}
    if dict(per_location) != expected_locations:
        fail("%s: events per location differ between otf2-print and summary.json" % name)
    for kind in ("Enter", "Leave", "Metric", "ProgramBegin", "MpiCollectiveBegin"):
        if summary["events"][kind] == 0:
            fail("%s: no %s records were written" % (name, kind))
    print("ok %s: %d events, %s" % (name, summary["total_events"],
                                     ", ".join("%s=%d" % item for item in sorted(per_kind.items()))))
    shutil.rmtree(directory)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--synth", required=True, help="path of macroscope-synth")
    parser.add_argument("--otf2-print", required=True, help="path of otf2-print")
    parser.add_argument("--work", required=True, help="scratch directory")
    arguments = parser.parse_args()
    if not (os.path.isfile(arguments.otf2_print) and os.access(arguments.otf2_print, os.X_OK)):
        fail("otf2-print not found ('%s'); install the OTF2 tools (Debian: otf2-tools)"
             % arguments.otf2_print)
    os.makedirs(arguments.work, exist_ok=True)
    for name, options in CASES.items():
        check_case(name, options, arguments.synth, arguments.otf2_print, arguments.work)


if __name__ == "__main__":
    main()
