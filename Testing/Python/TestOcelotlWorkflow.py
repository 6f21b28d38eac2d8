"""The pvpython workflow of examples/ocelotl_workflow.py: it runs in its own
pvbatch process, steps through every distinct partition (each step gives the
partition the quality curves announce, without recomputing qualities), and
the state file it saves, loaded in this fresh process, gives identical
outputs and displays."""
import json
import os
import subprocess

import macroscope_testing as mt

args = mt.parse_args()
example = os.path.join(args.source, "examples", "ocelotl_workflow.py")
work = os.path.join(args.output, "workflow")
command = ["pvbatch", example, "--plugin", args.plugin, "--output", work, "--slices", "60"]
result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
print(result.stdout[-3000:])
mt.check(result.returncode == 0, "the workflow example failed (%d)" % result.returncode)
with open(os.path.join(work, "workflow.json")) as f:
    record = json.load(f)

# Stepping: one picture and one distinct partition per row of the curves.
steps = record["steps"]
mt.check(len(steps) >= 3, "only %d distinct partitions: the sample should give more" % len(steps))
for k, step in enumerate(steps):
    mt.check(step["parts"] == step["expected_parts"],
             "step %d (p = %g): %d parts, the quality curves say %d"
             % (k, step["p"], step["parts"], step["expected_parts"]))
    mt.check(os.path.isfile(os.path.join(work, "partitions", "temporal-%02d.png" % k)),
             "step %d wrote no picture" % k)
    mt.check(step["quality_computations"] == 1,
             "step %d recomputed the qualities (%d computations)" % (k, step["quality_computations"]))
mt.check(len({step["digest"] for step in steps}) == len(steps), "two steps gave the same partition")
mt.check(all(a["parts"] >= b["parts"] for a, b in zip(steps, steps[1:])),
         "the partitions get finer as p grows")
for picture in ("temporal-overview.png", "spatiotemporal-overview.png", "quality-curves.png", "zoom.png"):
    mt.check(os.path.getsize(os.path.join(work, picture)) > 10000, picture + " is missing or empty")

# A fresh process: load the state and compare.
from paraview.simple import *
from paraview import servermanager
mt.load_plugin(args, globals())
LoadState(os.path.join(work, "ocelotl.pvsm"))


def digest(proxy, port):
    import hashlib
    table = servermanager.Fetch(proxy, idx=port)
    text = []
    for c in range(table.GetNumberOfColumns()):
        array = table.GetColumn(c)
        values = [array.GetVariantValue(i).ToString() for i in range(array.GetNumberOfValues())]
        text.append("%s=%s" % (table.GetColumnName(c), ",".join(values)))
    return hashlib.sha256("\n".join(text).encode()).hexdigest()


for key, expected in record["digests"].items():
    name, port = key.split(":")
    proxy = FindSource(name)
    mt.check(proxy is not None, "the state has no %s" % name)
    proxy.UpdatePipeline()
    mt.check(digest(proxy, int(port)) == expected, "%s differs after reloading the state" % key)
mt.check(abs(FindSource("TemporalAggregation").Parameter - record["chosen_p"]) < 1e-12,
         "the state lost the chosen p")
for name, representation in record["displays"].items():
    shown = [servermanager.GetRepresentation(FindSource(name), v) for v in GetViews()
             if v.GetXMLName() == "RenderView"]
    mt.check(any(d is not None and d.Representation[0] == representation for d in shown),
             "%s is not shown as %s after reloading" % (name, representation))
for name, properties in record["display_properties"].items():
    for v in GetViews():
        display = servermanager.GetRepresentation(FindSource(name), v) if v.GetXMLName() == "RenderView" else None
        if display is None:
            continue
        for key, expected in properties.items():
            value = display.GetPropertyValue(key)
            value = list(value) if isinstance(expected, list) else value
            mt.check(value == expected, "%s display: %s is %s after reloading, not %s"
                     % (name, key, value, expected))
print("workflow: %d partitions stepped, state reloaded identically" % len(steps))
