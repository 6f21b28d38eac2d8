"""Representation types check their input
(docs/details-on-demand.md): every Macroscope chart type given data it
cannot show reports one error naming the representation, what it needs and
what it got, and draws nothing; given its own data it draws, without error.
The representation is switched on one display as the GUI's selector does."""
import os

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *

mt.load_plugin(args, globals())

directory = os.path.join(args.output, "trace")
mt.synthesize(args, directory, "--clusters", 1, "--nodes-per-cluster", 2, "--ranks-per-node", 2,
              "--threads-per-rank", 2, "--iterations", 20)
reader = OTF2TraceReader(FileName=os.path.join(directory, "traces.otf2"))
slicing = TimeSlicing(Input=[OutputPort(reader, p) for p in range(6)], Slices=20)
temporal = TemporalAggregation(Input=OutputPort(slicing, 0), Parameter=0.3)
spatiotemporal = SpatiotemporalAggregation(Input=OutputPort(slicing, 0), Parameter=0.3)
view = CreateView("RenderView")


def drawn(display):
    return display.SMProxy.GetRepresentedDataInformation().GetNumberOfCells()


def show_as(port, kind):
    """Shows `port` as `kind` after another type drew it, as a user switching
    types in the selector; returns (errors, cells drawn)."""
    display = Show(port, view, "MacroscopeTraceRepresentation")
    display.SetRepresentationType("Timeline" if kind != "Timeline" else "Treemap")
    capture = mt.ErrorCapture()
    try:
        Render(view)
    finally:
        capture.close()
    capture = mt.ErrorCapture()
    try:
        display.SetRepresentationType(kind)
        Render(view)
    finally:
        capture.close()
    cells = drawn(display)
    Hide(port.Proxy if hasattr(port, "Proxy") else port, view)
    Delete(display)
    return capture.text(), cells


states = OutputPort(reader, 0)
messages = OutputPort(reader, 1)
mismatches = [
    (states, "Temporal Overview", "the Partition output of Temporal Aggregation", "the States output"),
    (states, "Spatiotemporal Overview", "the Partition output of a Temporal, Spatial or Spatiotemporal",
     "the States output"),
    (states, "Treemap", "the Treemap output of Resource Treemap", "the States output"),
    (states, "Logical Timeline", "an output of Logical Time", "the States output"),
    (states, "Clustered Logical Timeline", "an output of Logical Time", "the States output"),
    (states, "Metric Overview", "an output of Logical Time", "the States output"),
    (messages, "Treemap", "the Treemap output", "the Messages output"),
    (OutputPort(temporal, 0), "Timeline", "an output of a Macroscope trace reader",
     "the Partition output of an aggregation filter (a temporal partition)"),
    (OutputPort(spatiotemporal, 0), "Temporal Overview", "a temporal partition",
     "(a spatiotemporal partition)"),
    (OutputPort(temporal, 0), "Topology-Time 3D", "an output of a Macroscope trace reader",
     "the Partition output"),
]
for port, kind, needs, got in mismatches:
    errors, cells = show_as(port, kind)
    where = "%s on %s" % (kind, got)
    mt.check(("The %s representation cannot show its input" % kind) in errors,
             "%s: no error naming the representation: %r" % (where, errors))
    mt.check(("it needs " + needs) in errors, "%s: the error does not say what it needs: %r" % (where, errors))
    mt.check(got in errors, "%s: the error does not say what it got: %r" % (where, errors))
    mt.check(errors.count("cannot show its input") == 1, "%s: the error is repeated: %r" % (where, errors))
    mt.check("returned failure" not in errors, "%s: the pipeline failed noisily: %r" % (where, errors))
    mt.check(cells == 0, "%s: %d cells are drawn" % (where, cells))

matches = [(states, "Timeline"), (messages, "Timeline"), (states, "Topology-Time 3D"),
           (OutputPort(temporal, 0), "Temporal Overview"),
           (OutputPort(temporal, 0), "Spatiotemporal Overview"),
           (OutputPort(spatiotemporal, 0), "Spatiotemporal Overview")]
for port, kind in matches:
    errors, cells = show_as(port, kind)
    mt.check("ERROR" not in errors.upper(),
             "%s on its own data reported %r" % (kind, errors))
    mt.check(cells > 0, "%s on its own data draws nothing" % kind)
print("input checks: %d mismatches refused, %d matches drawn" % (len(mismatches), len(matches)))
