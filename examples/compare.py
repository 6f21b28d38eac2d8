"""Macroscope's run comparison on the built-in sample: the demo's trace
(node 5 three times slower between 20 and 60 ms) against the same run
without the perturbation, side by side with coupled zoom, and the
difference model's overview. Writes comparison.png, comparison-zoom.png,
comparison.pvsm and comparison.txt into --output; exits 1 when the summary
does not find the injected perturbation.

    pvbatch examples/compare.py --plugin build/.../Macroscope.so --output out
"""
import argparse
import json
import os

parser = argparse.ArgumentParser()
parser.add_argument("--plugin", required=True)
parser.add_argument("--output", default="out")
args = parser.parse_args()
output = os.path.abspath(args.output)
os.makedirs(output, exist_ok=True)

from paraview.simple import *  # noqa: E402,F403
from paraview import servermanager  # noqa: E402

LoadPlugin(os.path.abspath(args.plugin), remote=False, ns=globals())
import macroscope  # noqa: E402

# The demo's sample, written twice: as is, and without its perturbation.
sample = dict(Clusters=2, NodesPerCluster=4, RanksPerNode=4, ThreadsPerRank=2,
              Iterations=100, Pattern="3D stencil", Imbalance=0.2, ComputeTime=0.001, Seed=42)
runs = {
    "normal": dict(Perturbation="None"),
    "perturbed": dict(Perturbation="Slow node", PerturbationTarget=5,
                      PerturbationWindow=[0.02, 0.06], PerturbationFactor=3.0),
}
for label, perturbation in runs.items():
    trace = SyntheticTrace(registrationName="%s run" % label, Overwrite=1,
                           OutputDirectory=os.path.join(output, "compare-" + label),
                           **dict(sample, **perturbation))
    trace.UpdatePipeline()
truth = json.load(open(os.path.join(output, "compare-perturbed", "ground_truth.json")))

comparison = macroscope.compare_runs(os.path.join(output, "compare-normal", "traces.otf2"),
                                     os.path.join(output, "compare-perturbed", "traces.otf2"),
                                     labels=("normal", "perturbed"), slices=60, parameter=0.3,
                                     size=(1600, 1000))
SaveScreenshot(os.path.join(output, "comparison.png"), comparison.layout, ImageResolution=[1600, 1000])
summary = servermanager.Fetch(comparison.summary)
fields = summary.GetFieldData()
most = fields.GetAbstractArray("Summary").GetValue(0)
onset = fields.GetAbstractArray("Onset").GetValue(0)
onset_resources = fields.GetAbstractArray("OnsetResources").GetValue(0).split(";")
onset_window = [fields.GetArray("OnsetWindow").GetValue(i) for i in range(2)]

# Coupled zoom: one window set on the normal run's Timeline reaches the
# other run's Timeline and both models (the difference is re-computed on it).
zoom = [0.015, 0.035]
comparison.displays[0].TimeWindow = zoom
zoomed = [list(member.TimeWindow) for member in comparison.displays + comparison.models]
for view in comparison.views + [comparison.difference_view]:
    Render(view)
SaveScreenshot(os.path.join(output, "comparison-zoom.png"), comparison.layout,
               ImageResolution=[1600, 1000])
SaveState(os.path.join(output, "comparison.pvsm"))

slow_node = truth["target"]["name"]
begin = truth["window"]["begin_seconds"]
slice_width = comparison.window[1] / 60
found = (all("/%s/" % slow_node in "/%s/" % name for name in onset_resources)
         and abs(onset_window[0] - begin) <= 1.5 * slice_width)
coupled = all(abs(w[0] - zoom[0]) < 1e-12 and abs(w[1] - zoom[1]) < 1e-12 for w in zoomed)
lines = [
    "Run comparison (examples/compare.py): the sample with and without its perturbation",
    "  injected: %s %s x%g from %g s to %g s" % (truth["perturbation"], slow_node,
                                                truth["factor"] if "factor" in truth else 3.0,
                                                begin, truth["window"]["end_seconds"]),
    "  common window [%g, %g] s, 60 slices; difference aggregated at p = 0.3" % tuple(comparison.window),
    "  " + most,
    "  " + onset,
    "  onset on the slow node at the injected start: %s" % ("yes" if found else "NO"),
    "  coupled zoom to [%g, %g] s reached both Timelines and both models: %s"
    % (zoom[0], zoom[1], "yes" if coupled else "NO"),
    "  pictures: comparison.png (whole runs), comparison-zoom.png (zoomed); state: comparison.pvsm",
]
with open(os.path.join(output, "comparison.txt"), "w") as text:
    text.write("\n".join(lines) + "\n")
print("\n".join(lines))
if not (found and coupled):
    raise SystemExit("compare: the comparison did not find the injected perturbation "
                     "or the zoom was not coupled (see comparison.txt)")
