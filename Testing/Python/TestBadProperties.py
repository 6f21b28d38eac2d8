"""Nonsensical property values give a clear error naming the problem, never a
crash, and the pipeline recovers once the value is fixed."""
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *

mt.load_plugin(args, globals())


def expect_error(proxy, fragment):
    capture = mt.ErrorCapture()
    try:
        proxy.UpdatePipeline()
    finally:
        capture.close()
    text = capture.text()
    mt.check(fragment in text, "expected an error mentioning %r, got:\n%s" % (fragment, text))
    line = next(l for l in text.splitlines() if fragment in l)
    print("clear error for %s: %s" % (fragment, line.strip()[:200]))


out = os.path.join(args.output, "trace")
trace = SyntheticTrace(OutputDirectory=out, Iterations=2)

trace.Clusters = 0
expect_error(trace, "clusters")
trace.Clusters = 1

trace.PerturbationWindow = [0.5, 0.1]
trace.Perturbation = "Slow node"
expect_error(trace, "window")
trace.PerturbationWindow = [0.0, 1.0]

trace.PerturbationTarget = 1000
expect_error(trace, "target")
trace.PerturbationTarget = 0

trace.OutputDirectory = ""
expect_error(trace, "OutputDirectory")
trace.OutputDirectory = out

layout = HierarchyLayout(Input=trace, ColumnSpacing=-1.0)
expect_error(layout, "ColumnSpacing")
layout.ColumnSpacing = 1.0
layout.UpdatePipeline()
mt.check(layout.GetDataInformation().GetNumberOfPoints() > 0,
         "the pipeline did not recover after the properties were fixed")
