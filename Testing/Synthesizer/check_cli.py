#!/usr/bin/env python3
"""Check macroscope-synth's command line.

* --help documents exactly the options the parser accepts (the option table
  in the source), each with its default, and every documented option works;
* bad command lines exit with code 2 and a clear message;
* an existing archive is refused without --force;
* --dot writes topology.dot and network.dot (named in the summary), and a
  --force run without --dot removes them.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

# A valid value for every option that takes arguments.
SAMPLES = {
    "--output": None,  # supplied by the harness
    "--clusters": ["3"], "--nodes-per-cluster": ["1"], "--ranks-per-node": ["2"],
    "--threads-per-rank": ["3"], "--iterations": ["4"], "--events": ["2000"],
    "--pattern": ["tree"], "--imbalance": ["0.3"], "--compute-time": ["0.002"],
    "--message-bytes": ["1024"], "--latency": ["1e-6"], "--bandwidth": ["5e9"],
    "--perturbation": ["slow-node"], "--perturb-target": ["1"],
    "--perturb-window": ["0.001", "0.004"], "--perturb-factor": ["2.5"],
    "--seed": ["9"], "--timer-resolution": ["1e6"], "--memory-budget": ["1"],
    "--clock-offsets": ["0,0.5"],
    "--paje": None,  # a file in the work directory, set in main()
}
NEEDS_PERTURBATION = {"--perturb-target", "--perturb-window", "--perturb-factor"}

BAD_COMMAND_LINES = [
    (["--ranks-per-node", "0"], "--ranks-per-node must be at least 1"),
    (["--clusters", "-1"], "not a non-negative integer"),
    (["--clusters"], "--clusters expects N"),
    (["--pattern", "mesh"], "unknown pattern 'mesh'"),
    (["--bogus"], "unknown option '--bogus'"),
    (["--clock-offsets", "0,x"], "is not a number"),
    (["--clock-offsets", "-1"], "must be numbers of seconds in [0, 3600]"),
    (["--imbalance", "lots"], "is not a number"),
    (["--events", "100", "--iterations", "5"], "exclude each other"),
    (["--perturb-factor", "2"], "needs --perturbation"),
    (["--perturbation", "slow-node", "--perturb-window", "0.5", "0.1"],
     "end must be greater than the start"),
    (["--perturbation", "slow-node", "--perturb-target", "99"], "node 99 does not exist"),
    (["--perturbation", "congested-cluster", "--perturb-target", "5"], "cluster 5 does not exist"),
    (["--perturbation", "congested-cluster", "--pattern", "allreduce"], "--pattern allreduce"),
    (["--seed", "1", "--seed", "2"], "more than once"),
    (["--memory-budget", "0"], "--memory-budget must be between 1 and 2^30 MB"),
]


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def run(command):
    return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)


def documented_options(help_text):
    """Options and their argument names, from the help's '  --name ARGS' lines."""
    options = {}
    lines = help_text.splitlines()
    for index, line in enumerate(lines):
        match = re.match(r"^  (--[a-z][a-z0-9-]*)((?: [A-Z0-9_]+)*)\s*$", line)
        if match:
            description = []
            for following in lines[index + 1:]:
                if not following.startswith("      "):
                    break
                description.append(following.strip())
            options[match.group(1)] = (match.group(2).split(), " ".join(description))
    return options


def parser_options(source):
    """Options of the parser's table: entries starting with { "--name"."""
    with open(source) as stream:
        return set(re.findall(r'\{\s*"(--[a-z][a-z0-9-]*)"', stream.read()))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--synth", required=True)
    parser.add_argument("--source", required=True, help="macroscope-synth.cxx")
    parser.add_argument("--work", required=True)
    arguments = parser.parse_args()
    synth = arguments.synth
    os.makedirs(arguments.work, exist_ok=True)
    output = os.path.join(arguments.work, "run")
    paje = os.path.join(arguments.work, "sample.paje")
    SAMPLES["--paje"] = [paje]

    shown = run([synth, "--help"])
    if shown.returncode != 0 or "Usage: macroscope-synth" not in shown.stdout:
        fail("--help failed: %s" % shown.stderr)
    documented = documented_options(shown.stdout)
    accepted = parser_options(arguments.source)
    if not accepted:
        fail("found no option table in %s" % arguments.source)
    if set(documented) != accepted:
        fail("--help documents %s but the parser accepts %s"
             % (sorted(documented), sorted(accepted)))
    for name, (_, description) in documented.items():
        if name not in ("--help", "--version") and "(default: " not in description:
            fail("--help gives no default for %s" % name)
    # --version: the project's version (docs/installing.md), and nothing written.
    shutil.rmtree(output, ignore_errors=True)
    version = run([synth, "--version", "--output", output])
    if version.returncode != 0 or not re.fullmatch(r"macroscope-synth \(Macroscope\) \d+\.\d+\.\d+\n",
                                                    version.stdout):
        fail("--version printed %r (exit %d)" % (version.stdout, version.returncode))
    if os.path.exists(output):
        fail("--version wrote %s" % output)

    # Every documented option is accepted with the documented arity.
    for name, (metavariables, _) in documented.items():
        if name in ("--help", "--version", "--output"):
            continue
        values = SAMPLES.get(name, [])
        if len(values) != len(metavariables):
            fail("%s: help shows %s, the test has sample %s" % (name, metavariables, values))
        command = [synth, "--output", output]
        command += [flag for flag in ("--force", "--quiet") if flag != name]
        if name == "--paje" and os.path.exists(paje):
            os.remove(paje)
        if name in NEEDS_PERTURBATION:
            command += ["--perturbation", "slow-node"]
        if name not in ("--events", "--iterations"):
            command += ["--iterations", "3"]
        result = run(command + [name] + values)
        if result.returncode != 0:
            fail("%s %s was rejected (%d): %s"
                 % (name, " ".join(values), result.returncode, result.stderr))

    # Bad command lines: exit code 2 and a message naming the problem.
    for options, fragment in BAD_COMMAND_LINES:
        result = run([synth, "--output", output, "--force"] + options)
        if result.returncode != 2:
            fail("%s: exit code %d, expected 2" % (" ".join(options), result.returncode))
        if "error:" not in result.stderr or fragment not in result.stderr:
            fail("%s: message %r lacks %r" % (" ".join(options), result.stderr, fragment))
    missing = run([synth, "--iterations", "3"])
    if missing.returncode != 2 or "--output" not in missing.stderr:
        fail("a missing --output must exit with 2 and name --output: %r" % missing.stderr)

    # An existing archive is kept unless --force is given.
    shutil.rmtree(output, ignore_errors=True)
    first = run([synth, "--output", output, "--iterations", "3"])
    if first.returncode != 0 or "Wrote " not in first.stdout:
        fail("a plain run failed or printed no summary: %s" % first.stderr)
    again = run([synth, "--output", output, "--iterations", "3", "--quiet"])
    if again.returncode != 1 or "--force" not in again.stderr:
        fail("overwriting without --force must fail with a hint: %r" % again.stderr)
    quiet = run([synth, "--output", output, "--iterations", "3", "--quiet", "--force"])
    if quiet.returncode != 0 or quiet.stdout:
        fail("--quiet --force must succeed silently: %r" % quiet.stdout)

    # --dot: both GraphViz side files, named in the summary; a replacement
    # without --dot drops them with the rest of the old run.
    dot = run([synth, "--output", output, "--iterations", "3", "--force", "--dot"])
    side_files = ("topology.dot", "network.dot")
    for name in side_files:
        if dot.returncode != 0 or name not in dot.stdout:
            fail("--dot must succeed and name %s in its summary: %r" % (name, dot.stdout))
        if not os.path.isfile(os.path.join(output, name)):
            fail("--dot did not write %s" % name)
    with open(os.path.join(output, "network.dot")) as network:
        text = network.read()
    if not text.startswith("graph network {") or text.count('kind="host"') != 4:
        fail("network.dot is not an undirected graph of the 4 default nodes: %r" % text[:200])
    plain = run([synth, "--output", output, "--iterations", "3", "--force", "--quiet"])
    left = [name for name in side_files if os.path.exists(os.path.join(output, name))]
    if plain.returncode != 0 or left:
        fail("a --force run without --dot left %s behind" % left)
    # --paje: the file is written and named; an existing one needs --force.
    named = run([synth, "--output", output, "--iterations", "3", "--force", "--paje", paje])
    if named.returncode != 0 or paje not in named.stdout or not os.path.isfile(paje):
        fail("--paje must write %s and name it in the summary: %r" % (paje, named.stdout))
    kept = run([synth, "--output", output + "-2", "--iterations", "3", "--paje", paje])
    if kept.returncode != 1 or "--force" not in kept.stderr:
        fail("an existing --paje file must be kept without --force: %r" % kept.stderr)
    shutil.rmtree(arguments.work, ignore_errors=True)
    print("ok: %d options documented and accepted, %d bad command lines rejected"
          % (len(documented), len(BAD_COMMAND_LINES) + 1))


if __name__ == "__main__":
    main()
