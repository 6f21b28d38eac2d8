"""macroscope.overview(), the Overview action's path (docs/overviews.md):
from a file name or a reader proxy (never updated: its tables are not read),
Streamed Time Slicing at its defaults feeds the aggregation shown as its
overview in a Render View; its Partition equals the one the tables path
gives; the cost estimate follows the measured figures and, for "auto",
turns an expensive spatiotemporal overview into the temporal one, saying
why before it starts; a source that is no trace is refused by name."""
import contextlib
import io
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())
import macroscope

trace_dir = os.path.join(args.output, "trace")
mt.synthesize(args, trace_dir, "--iterations", 40, "--threads-per-rank", 2, "--seed", 5,
              "--perturbation", "slow-node", "--perturb-target", "2")
anchor = os.path.join(trace_dir, "traces.otf2")
for name in os.listdir(trace_dir):
    if name.endswith(".mcache"):
        os.remove(os.path.join(trace_dir, name))

# 1. From a reader as File > Open leaves it: information only.
reader = OTF2TraceReader(FileName=anchor)
reader.UpdatePipelineInformation()
result = macroscope.overview(reader)
mt.check(result.kind == "spatiotemporal", "the default overview is %s" % result.kind)
mt.check(result.model.GetXMLName() == "MacroscopeStreamedTimeSlicing" and
         result.model.FileName == anchor, "the overview's model is not the streamed one of the trace")
mt.check(result.model.Slices == 100 and result.model.UseModelCache == 1,
         "the streamed model is not at its defaults")
mt.check(result.display.Representation == "Spatiotemporal Overview",
         "the Partition is shown as %r" % result.display.Representation)
mt.check(result.view.CameraParallelProjection == 1, "the view is not fitted (parallel projection)")
states = reader.GetClientSideObject().GetOutputDataObject(0)
mt.check(states.GetNumberOfRows() == 0, "the reader's tables were read")
mt.check(set(result.seconds) == {"model", "aggregation", "render"}, "seconds: %s" % result.seconds)
line = macroscope.describe(result)
mt.check(anchor in line and "100 slices" in line and "Spatiotemporal" in line, line)

# Its Partition is the tables path's.
tables = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)])
by_tables = SpatiotemporalAggregation(Input=OutputPort(tables, 0))
streamed_rows = mt.table_rows(servermanager.Fetch(result.aggregation, idx=0))
table_rows = mt.table_rows(servermanager.Fetch(by_tables, idx=0))
mt.check(len(streamed_rows) > 1 and len(streamed_rows) == len(table_rows),
         "%d parts streamed, %d through the tables" % (len(streamed_rows), len(table_rows)))

# 2. The estimate: the measured figures back, and growing as T^2.
cost = macroscope.estimate("spatiotemporal", 200, 389, 10, nodes=778)
mt.check(abs(cost.seconds - 1.15) < 1e-9 and cost.why == "", "estimate at the measured shape: %s" % (cost,))
larger = macroscope.estimate("spatiotemporal", 2000, 389, 10, nodes=778)
mt.check(abs(larger.seconds / cost.seconds - 100) < 1e-6 and "2000 slices" in larger.why,
         "estimate at 10 x the slices: %s" % (larger,))

# 3. From a file name, with a model whose spatiotemporal overview is not
# interactive: "auto" says so before starting and shows the temporal one.
printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    costly = macroscope.overview(anchor, Slices=2000, UseModelCache=0)
mt.check(costly.kind == "temporal" and costly.display.Representation == "Temporal Overview",
         "auto gave %s as %r" % (costly.kind, costly.display.Representation))
mt.check("the temporal overview is shown instead" in printed.getvalue() and
         "2000 slices" in printed.getvalue(), "auto said %r" % printed.getvalue())
mt.check(costly.estimate.why == "", "the temporal fallback is estimated expensive too: %s" % (costly.estimate,))

# 4. No trace: refused by name.
sphere = Sphere()
try:
    macroscope.overview(sphere)
    mt.fail("an overview of a Sphere was built")
except ValueError as error:
    mt.check("is not a trace reader" in str(error), str(error))

print("overview: %d parts from %s (%s), auto fallback at 2000 slices: %s" % (
    len(streamed_rows), anchor, ", ".join("%s %.2f s" % kv for kv in sorted(result.seconds.items())),
    costly.kind))
