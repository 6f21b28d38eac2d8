"""One click, one filter (docs/time-slicing.md): every filter that
reads a trace takes the reader's first output (States) alone and finds the
trace's other outputs (Hierarchy, Types, Messages, Events, Variables) beside
it, from the reader that produced it.

For Time Slicing (every metric), Logical Time, Trace Statistics, Active
Producers, Timeline Layout and the Topology-Time Scene, on an OTF2 trace and
on its Pajé twin, the one-input form must give outputs identical, bit for bit
(SHA-256 of every output port), to the six-input form, which keeps working;
Time Slicing must know its model's extent from the definitions before any
data (RequestInformation), as with six inputs. A table whose producer holds
no trace still fails with the filter's own message naming what it lacks.
Runs in pvpython, and under MPI (MPI.OneInput, 2 ranks, pieces summed)."""
import os

import macroscope_testing as mt
import state_fresh

args = mt.parse_args()
from paraview import servermanager  # noqa: E402
from paraview.simple import *  # noqa: E402,F403
from vtkmodules.vtkCommonExecutionModel import vtkStreamingDemandDrivenPipeline  # noqa: E402

mt.load_plugin(args, globals())
controller = servermanager.vtkProcessModule.GetProcessModule().GetGlobalController()
rank = controller.GetLocalProcessId() if controller else 0
anchor = os.path.join(args.output, "trace", "traces.otf2")
paje = os.path.join(args.output, "trace.paje")
if rank == 0 and not os.path.isfile(anchor):
    mt.synthesize(args, os.path.join(args.output, "trace"), "--clusters", "2", "--nodes-per-cluster",
                  "2", "--ranks-per-node", "2", "--threads-per-rank", "2", "--iterations", "30",
                  "--dot", "--paje", paje)
if controller and controller.GetNumberOfProcesses() > 1:
    controller.Barrier()

FILTERS = [("TimeSlicing", dict(Slices=25, Metric=metric)) for metric in (
    "State duration", "Event count", "Variable mean", "Bytes sent per second", "Messages received")]
FILTERS += [("LogicalTime", dict(Clusters=2)), ("TraceStatistics", {}), ("ActiveProducers", {}),
            ("TimelineLayout", dict(ViewSize=[800, 500])),
            ("TopologyTimeScene", dict(BaseConfiguration="Network Topology",
                                       TopologyFile=os.path.join(args.output, "trace", "network.dot")))]


def digests(proxy):
    return [state_fresh.data_digest(servermanager.Fetch(proxy, idx=port))
            for port in range(proxy.GetNumberOfOutputPorts())]


def whole_extent(proxy):
    proxy.UpdatePipelineInformation()
    info = proxy.GetClientSideObject().GetOutputInformation(0)
    key = vtkStreamingDemandDrivenPipeline.WHOLE_EXTENT()
    return list(info.Get(key)) if info.Has(key) else None


compared = 0
for make_reader, path in ((OTF2TraceReader, anchor), (PajeTraceReader, paje)):
    reader = make_reader(FileName=path)
    for name, settings in FILTERS:
        what = "%s %s on %s" % (name, settings.get("Metric", ""), os.path.basename(path))
        one = globals()[name](Input=OutputPort(reader, 0), **settings)
        six = globals()[name](Input=[OutputPort(reader, i) for i in range(6)], **settings)
        if name == "TimeSlicing":
            extent = whole_extent(one)
            mt.check(extent is not None and extent == whole_extent(six) and extent[1] == 24,
                     "%s: the model's extent before the data is %s with one input, %s with six"
                     % (what, extent, whole_extent(six)))
        errors = mt.ErrorCapture()
        first, second = digests(one), digests(six)
        text = errors.text()
        errors.close()
        mt.check("ERROR" not in text, "%s reports an error:\n%s" % (what, text[:2000]))
        mt.check(first == second, "%s: one input gives %s, six give %s" % (what, first, second))
        # Fetch gathers to rank 0: the other ranks hold empty copies.
        mt.check(rank > 0 or any(size > 0 for _, size, _ in first), "%s: every output is empty" % what)
        compared += len(first)
        Delete(one)
        Delete(six)
    Delete(reader)

# A table that no trace reader produced: the filter says what it lacks.
table = ProgrammableSource(OutputDataSetType="vtkTable", Script=(
    "from vtkmodules.vtkCommonCore import vtkDoubleArray\n"
    "for name in ('Start', 'End'):\n"
    "    a = vtkDoubleArray(); a.SetName(name); self.GetOutput().AddColumn(a)\n"))
lonely = TimeSlicing(Input=table)
errors = mt.ErrorCapture()
lonely.UpdatePipeline()
text = errors.text()
errors.close()
mt.check("needs the trace reader's Hierarchy" in text and "given: States" in text,
         "Time Slicing on a lone States-like table says: %r" % text[:1000])
print("one input and six inputs agree on %d outputs of %d filters on 2 formats (rank %d)"
      % (compared, len(FILTERS), rank))
