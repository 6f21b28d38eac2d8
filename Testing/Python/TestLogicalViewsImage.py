"""Image test: the Logical Timeline, Clustered Logical Timeline and Metric
Overview displays of a Logical Events table, against baselines.

The table is made here (16 locations, 12 exchange rounds in 3 phases): a
delay injected at location 10 in round 4 spreads to its neighbours round
after round, as lateness does in Ravel's Fig. 3. Shown alone, the table is
drawn from the events only: no message lines, the step sums and the
clusters computed from the events. Before each image, the display's layout
is checked to have drawn something of the right kind. Run serially and on
two MPI ranks (the table on the first rank only, as Logical Time outputs
it) with the same baselines."""
import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())

SCRIPT = """
from vtkmodules.vtkCommonCore import vtkIntArray, vtkDoubleArray, vtkTypeInt64Array, vtkStringArray
out = self.GetTableOutput()
def column(kind, name):
    a = kind(); a.SetName(name); out.AddColumn(a); return a
cols = [column(vtkIntArray, "Location"), column(vtkTypeInt64Array, "GlobalStep"),
        column(vtkIntArray, "Kind"), column(vtkDoubleArray, "Metric"), column(vtkIntArray, "Phase"),
        column(vtkIntArray, "Cluster"), column(vtkIntArray, "Sends"), column(vtkIntArray, "Receives")]
P, ROUNDS = 16, 12
def lateness(l, r):
    # From location 10 in round 4, one neighbour further each round.
    near = l - 10 if l >= 10 else 10 - l
    late = 3.0 - 0.5 * near if 0 <= r - 4 and near <= r - 4 and r < 10 else 0.0
    return late if late > 0.0 else 0.0
# Like Logical Time, the table lives on the first rank; the others' is empty.
from vtkmodules.vtkParallelCore import vtkMultiProcessController
controller = vtkMultiProcessController.GetGlobalController()
first_rank = controller is None or controller.GetLocalProcessId() == 0
for l in range(P if first_rank else 0):
    for r in range(ROUNDS):
        phase = r // 4
        late = lateness(l, r)
        # A location's cluster holds for its phase: late in any of its rounds.
        cluster = 1 if [q for q in range(4 * phase, 4 * phase + 4) if lateness(l, q) > 0.0] else 0
        rows = [(l, 4 * r, 0, 0.2 * late, phase, cluster, 0, 0)]
        # Even locations send then receive; odd ones receive then send.
        first, second = (1, 2) if l % 2 == 0 else (2, 1)
        rows.append((l, 4 * r + 1, first, late, phase, cluster, first == 1, 1 + (l + r) % 3 if first == 2 else 0))
        rows.append((l, 4 * r + 2, 0, 0.1 * late, phase, cluster, 0, 0))
        rows.append((l, 4 * r + 3, second, 0.5 * late, phase, cluster, second == 1, 1 + (l + r) % 3 if second == 2 else 0))
        for row in rows:
            for a, v in zip(cols, row):
                a.InsertNextValue(v)
name = vtkStringArray(); name.SetName("MetricName"); name.InsertNextValue("Lateness")
out.GetFieldData().AddArray(name)
names = vtkStringArray(); names.SetName("LocationNames")
for l in range(P):
    names.InsertNextValue("MPI Rank %d" % l)
out.GetFieldData().AddArray(names)
"""
rank = servermanager.vtkProcessModule.GetProcessModule().GetGlobalController().GetLocalProcessId()
events = ProgrammableSource(OutputDataSetType="vtkTable", Script=SCRIPT)

view = CreateView("RenderView")
view.OrientationAxesVisibility = 0
view.UseColorPaletteForBackground = 0
view.Background = [1, 1, 1]
view.CameraParallelProjection = 1
view.InteractionMode = "2D"
view.ViewSize = [800, 500]
display = Show(events, view, "MacroscopeTraceRepresentation")
display.ViewSize = [560, 380]
display.LabelColor = [0.1, 0.1, 0.1]
display.LabelFontSize = 10


def show(representation, name, marks_wanted):
    display.Representation = representation
    Render(view)
    view.ResetCamera(True)
    Render(view)
    info = display.GetRepresentedDataInformation()
    cells = info.GetNumberOfCells()
    mt.check(rank > 0 or cells >= marks_wanted, "%s: %d marks drawn, expected at least %d"
             % (representation, cells, marks_wanted))
    mt.compare_image(view, name, args, size=(800, 500))


show("Logical Timeline", "LogicalTimeline", 16 * 48)
display.StepWindow = [16, 39]
display.ShowAggregates = 0
show("Logical Timeline", "LogicalTimelineWindow", 16 * 12)
display.StepWindow = [0, -1]
display.ShowAggregates = 1
show("Clustered Logical Timeline", "ClusteredLogicalTimeline", 48)
display.StepWindow = [16, 39]
show("Metric Overview", "MetricOverview", 20)
