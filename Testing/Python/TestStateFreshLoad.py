"""Process 2 of the fresh-process state test (Python.StateFreshLoad): a new
pvbatch loads the state Python.StateFreshSave wrote, updates everything,
makes the same record (state_fresh.py) and requires it identical: every
property value, connection, output digest and screenshot."""
import os

import macroscope_testing as mt
import state_fresh

args = mt.parse_args()
from paraview.simple import *

shared = state_fresh.shared_dir(args)
state = os.path.join(shared, "pipeline.pvsm")
saved = os.path.join(shared, "record.json")
mt.check(os.path.isfile(state) and os.path.isfile(saved),
         "Python.StateFreshSave left no state or record in %s: run it first (ctest -R StateFresh)" % shared)
before = state_fresh.load_json(saved)
mt.check(len(before["outputs"]) >= 40 and len(before["images"]) == 8,
         "the saved record holds %d outputs and %d images: process 1 produced too little"
         % (len(before["outputs"]), len(before["images"])))

mt.load_plugin(args, globals())
errors = state_fresh.capture_errors()
LoadState(state)
views = sorted(before["images"])
after = state_fresh.record(args, views, args.output)
reported = errors.text()
errors.close()  # the capture also swallows Python's output
mt.check("ERROR" not in reported, "the reloaded pipeline reported errors:\n" + reported)
problems = state_fresh.compare(before, after)
mt.check(not problems, "%d differences after loading the state in a fresh process:\n  %s"
         % (len(problems), "\n  ".join(problems)))
print("fresh process: %d pipeline objects, %d outputs, %d properties and %d screenshots identical"
      % (len(GetSources()), len(after["outputs"]),
         sum(len(v) for v in after["properties"].values()), len(after["images"])))
