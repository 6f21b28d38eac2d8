"""Synthetic Trace never rewrites what is already there: running
again with the same parameters reuses the archive without touching a file,
and gives the same output; other parameters are refused until Overwrite is
on; an archive the synthesizer did not write is never replaced; a state
loaded in a fresh session writes nothing."""
import json
import os
import shutil
import subprocess

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *

mt.load_plugin(args, globals())


def snapshot(directory):
    """Every file under `directory` with its size and modification time (ns)."""
    files = {}
    for root, _, names in os.walk(directory):
        for name in names:
            path = os.path.join(root, name)
            status = os.stat(path)
            files[os.path.relpath(path, directory)] = (status.st_size, status.st_mtime_ns)
    return files


def digest(source):
    tree = servermanager.Fetch(source)
    events = tree.GetVertexData().GetArray("Events")
    fields = tree.GetFieldData()
    return (tree.GetNumberOfVertices(),
            sum(events.GetValue(i) for i in range(events.GetNumberOfTuples())),
            tuple(fields.GetArray("RecordCount").GetValue(i)
                  for i in range(fields.GetArray("RecordCount").GetNumberOfTuples())),
            fields.GetArray("TraceLength").GetValue(0),
            tuple(fields.GetArray("PerturbationWindow").GetTuple2(0)))


def update_with_errors(source):
    capture = mt.ErrorCapture()
    try:
        source.UpdatePipeline()
    finally:
        capture.close()
    return capture.text()


work = os.path.join(args.output, "work")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
directory = os.path.join(work, "trace")
parameters = dict(OutputDirectory=directory, Iterations=3, Perturbation="Slow node",
                  PerturbationWindow=[0.0, 0.001])

# 1. A first run writes the archive.
first = SyntheticTrace(**parameters)
first.UpdatePipeline()
written = snapshot(directory)
mt.check("traces.otf2" in written and "summary.json" in written,
         "the first run wrote no archive: %s" % sorted(written))
expected = digest(first)
mt.check(expected[1] > 0, "the first run's platform counts no event")
Delete(first)

# 2. Another source with the same parameters: nothing written, same output.
second = SyntheticTrace(**parameters)
second.UpdatePipeline()
mt.check(snapshot(directory) == written, "running again with the same parameters touched files")
mt.check(digest(second) == expected, "the reused archive gives another output: %s vs %s"
         % (digest(second), expected))
print("same parameters: %d files untouched, output %s" % (len(written), expected[:2]))

# 3. Other parameters, Overwrite off (the default): refused, files untouched.
second.Iterations = 4
text = update_with_errors(second)
mt.check("iterations: 3 there, 4 here" in text and "Overwrite" in text,
         "other parameters were not refused by name:\n%s" % text)
mt.check(snapshot(directory) == written, "a refused run touched files")
print("other parameters refused: %s" % text.strip().splitlines()[-1][:160])

# 4. Overwrite on: the archive is replaced, its summary records 4 iterations.
second.Overwrite = 1
second.UpdatePipeline()
with open(os.path.join(directory, "summary.json")) as f:
    recorded = json.load(f)["iterations"]
mt.check(recorded == 4, "Overwrite did not rewrite the archive (summary says %s)" % recorded)
rewritten = snapshot(directory)
mt.check(rewritten != written, "Overwrite on left the files as they were")

# 5. An archive the synthesizer did not write is never replaced.
foreign = os.path.join(work, "foreign")
os.makedirs(foreign)
with open(os.path.join(foreign, "traces.otf2"), "w") as f:
    f.write("somebody's archive\n")
before = snapshot(foreign)
third = SyntheticTrace(OutputDirectory=foreign, Iterations=3, Overwrite=1)
text = update_with_errors(third)
mt.check("did not write" in text and foreign in text,
         "a foreign archive was not refused by name:\n%s" % text)
mt.check(snapshot(foreign) == before, "the foreign archive was touched")
Delete(third)

# 6. A state saved here and loaded by a fresh pvpython writes nothing.
state = os.path.join(work, "synthetic.pvsm")
SaveState(state)
loader = os.path.join(work, "load.py")
with open(loader, "w") as f:
    f.write("import sys\nfrom paraview.simple import *\n"
            "LoadPlugin(sys.argv[1], remote=False, ns=globals())\n"
            "LoadState(sys.argv[2])\n"
            "for source in GetSources().values():\n"
            "    source.UpdatePipeline()\n"
            "print('sources', len(GetSources()))\n")
before = snapshot(directory)
pvpython = shutil.which("pvpython")
mt.check(pvpython is not None, "pvpython is not on PATH")
result = subprocess.run([pvpython, loader, args.plugin, state],
                        capture_output=True, text=True, timeout=300)
mt.check(result.returncode == 0 and "sources 1" in result.stdout,
         "the fresh pvpython could not load the state:\n%s%s" % (result.stdout, result.stderr))
mt.check(snapshot(directory) == before, "loading the state touched the archive's files")
print("state loaded in a fresh pvpython: %d files untouched" % len(before))
