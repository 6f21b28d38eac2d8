#include "vtkMacroscopeTopologyScene.h"

#include "MacroscopeChart.h"
#include "MacroscopeModelPlan.h"
#include "MacroscopeNameList.h"
#include "MacroscopeTraceColumns.h"
#include "MacroscopeTraceInputs.h"
#include "ProgressSpan.h"
#include "TimeAxis.h"
#include "TimelineDrawing.h" // TypesByTime
#include "TopologyBase.h"
#include "TopologyScene.h"
#include "TopologySceneDrawing.h"
#include "TraceSchema.h"

#include "vtkCellData.h"
#include "vtkCommunicator.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkIdTypeArray.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkMultiProcessController.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPolyData.h"
#include "vtkSignedCharArray.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkTree.h"
#include "vtkUnsignedCharArray.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <utility>

vtkStandardNewMacro(vtkMacroscopeTopologyScene);
vtkCxxSetObjectMacro(vtkMacroscopeTopologyScene, Controller, vtkMultiProcessController);

namespace
{
// The legend of a 3D scene, drawn by its representation over the view: the
// types drawn, the longest in the window first, as field data of the
// labels (which reach the process that draws the overlay).
void AddLegend(
  vtkPolyData* labels, const std::vector<double>& timeOfType, const MacroscopeChart::TypeLook& look)
{
  vtkNew<vtkStringArray> names;
  names->SetName("LegendTypes");
  vtkNew<vtkUnsignedCharArray> colors;
  colors->SetName("LegendColors");
  colors->SetNumberOfComponents(3);
  for (uint32_t type : macroscope::TypesByTime(timeOfType))
  {
    names->InsertNextValue(
      type < look.Names.size() ? look.Names[type] : "type " + std::to_string(type));
    const MacroscopeChart::RGB rgb = look.Color(type);
    colors->InsertNextTypedTuple(rgb.data());
  }
  labels->GetFieldData()->AddArray(names);
  labels->GetFieldData()->AddArray(colors);
}

namespace schema = macroscope::schema;
using MacroscopeChart::Geometry;
using MacroscopeChart::NamedArray;
using MacroscopeChart::RGB;

constexpr double FitHeight = 1.5;    // the window's height when Scale is 0
constexpr double AxisCorner = -0.06; // the time axis stands at (-0.06, -0.06)
constexpr RGB GroundColor{ { 96, 98, 112 } };
constexpr RGB HostColor{ { 225, 225, 228 } };
constexpr RGB SwitchColor{ { 140, 140, 150 } };
constexpr RGB LinkColor{ { 165, 165, 175 } };
constexpr RGB TrafficColor{ { 235, 125, 40 } };
constexpr RGB ProcessColor{ { 25, 25, 25 } };
constexpr RGB MessageColor{ { 15, 15, 15 } };
const char* const PlaneNames[] = { "communication pattern", "network topology",
  "hierarchy treemap" };

// Every rank's values, concatenated in rank order, on every rank.
template <typename T>
std::vector<T> AllGathered(vtkMultiProcessController* controller, const std::vector<T>& mine)
{
  if (!controller || controller->GetNumberOfProcesses() < 2)
  {
    return mine;
  }
  const int ranks = controller->GetNumberOfProcesses();
  vtkIdType length = static_cast<vtkIdType>(mine.size());
  std::vector<vtkIdType> lengths(ranks), offsets(ranks, 0);
  controller->AllGather(&length, lengths.data(), 1);
  for (int r = 1; r < ranks; ++r)
  {
    offsets[r] = offsets[r - 1] + lengths[r - 1];
  }
  std::vector<T> all(static_cast<std::size_t>(offsets.back() + lengths.back()));
  controller->AllGatherV(mine.data(), all.data(), length, lengths.data(), offsets.data());
  return all;
}

// The processes (the hierarchy's leaves, by LeafIndex) and the names from
// the root down to each.
struct Processes
{
  std::vector<int64_t> Node;
  std::vector<std::vector<std::string>> Paths;
  std::vector<int64_t> Parent;
  std::vector<std::string> NodeNames;

  std::size_t Count() const { return this->Node.size(); }

  // The name shown for process p: its own, with its parent's where several
  // processes share it (every process has a "Master thread").
  std::string Label(std::size_t p, const std::map<std::string, int>& uses) const
  {
    const auto& path = this->Paths[p];
    if (uses.at(path.back()) > 1 && path.size() > 1)
    {
      return path[path.size() - 2] + " / " + path.back();
    }
    return path.back();
  }
};

bool ReadProcesses(vtkTree* tree, Processes& processes, std::string& problem)
{
  std::vector<int64_t> leafIndex;
  if (!MacroscopeHierarchyArrays(tree, processes.Parent, leafIndex, problem))
  {
    return false;
  }
  auto* names = vtkStringArray::SafeDownCast(tree->GetVertexData()->GetAbstractArray(schema::Name));
  for (vtkIdType v = 0; v < tree->GetNumberOfVertices(); ++v)
  {
    processes.NodeNames.push_back(names ? names->GetValue(v) : "vertex " + std::to_string(v));
  }
  const int64_t leaves =
    std::count_if(leafIndex.begin(), leafIndex.end(), [](int64_t i) { return i >= 0; });
  processes.Node.assign(static_cast<std::size_t>(leaves), -1);
  for (std::size_t v = 0; v < leafIndex.size(); ++v)
  {
    const int64_t leaf = leafIndex[v];
    if (leaf >= leaves || (leaf >= 0 && processes.Node[leaf] != -1))
    {
      problem = "the Hierarchy's LeafIndex values are not 0 to " + std::to_string(leaves - 1);
      return false;
    }
    if (leaf >= 0)
    {
      processes.Node[leaf] = static_cast<int64_t>(v);
    }
  }
  for (int64_t node : processes.Node)
  {
    std::vector<std::string> path;
    for (int64_t v = node, hops = 0; v >= 0 && hops <= static_cast<int64_t>(leafIndex.size());
         v = processes.Parent[v], ++hops)
    {
      path.push_back(processes.NodeNames[v]);
    }
    std::reverse(path.begin(), path.end());
    processes.Paths.push_back(std::move(path));
  }
  return true;
}

// A flat band of `width` along the segment a-b, at height z.
void Ribbon(
  Geometry& base, double ax, double ay, double bx, double by, double width, double z, RGB color)
{
  const double dx = bx - ax, dy = by - ay;
  const double length = std::hypot(dx, dy);
  if (!(length > 0.0))
  {
    return;
  }
  const double nx = -dy / length * width / 2.0, ny = dx / length * width / 2.0;
  const vtkIdType ids[4] = { base.Point(ax + nx, ay + ny, z), base.Point(bx + nx, by + ny, z),
    base.Point(bx - nx, by - ny, z), base.Point(ax - nx, ay - ny, z) };
  base.Polys->InsertNextCell(4, ids);
  base.Color(color);
}

// The cell arrays of the Base output, filled as its cells are drawn.
struct BaseCells
{
  Geometry Cells;
  vtkNew<vtkStringArray> Kind = NamedArray<vtkStringArray>("Kind");
  vtkNew<vtkStringArray> Name = NamedArray<vtkStringArray>("Name");
  vtkNew<vtkDoubleArray> Traffic = NamedArray<vtkDoubleArray>("Traffic");
  vtkNew<vtkIdTypeArray> Count = NamedArray<vtkIdTypeArray>("MessageCount");
  vtkNew<vtkDoubleArray> Bandwidth = NamedArray<vtkDoubleArray>("Bandwidth");
  vtkNew<vtkDoubleArray> Latency = NamedArray<vtkDoubleArray>("Latency");

  // Annotates the cells drawn since the last call.
  void Tag(const std::string& kind, const std::string& name, double traffic = NAN,
    vtkIdType count = 0, double bandwidth = NAN, double latency = NAN)
  {
    while (this->Kind->GetNumberOfValues() < this->Cells.Polys->GetNumberOfCells())
    {
      this->Kind->InsertNextValue(kind);
      this->Name->InsertNextValue(name);
      this->Traffic->InsertNextValue(traffic);
      this->Count->InsertNextValue(count);
      this->Bandwidth->InsertNextValue(bandwidth);
      this->Latency->InsertNextValue(latency);
    }
  }

  void Into(vtkPolyData* output)
  {
    this->Cells.Into(output);
    for (vtkAbstractArray* array :
      { static_cast<vtkAbstractArray*>(this->Kind), static_cast<vtkAbstractArray*>(this->Name),
        static_cast<vtkAbstractArray*>(this->Traffic), static_cast<vtkAbstractArray*>(this->Count),
        static_cast<vtkAbstractArray*>(this->Bandwidth),
        static_cast<vtkAbstractArray*>(this->Latency) })
    {
      output->GetCellData()->AddArray(array);
    }
  }
};

// The six faces of the box `b` (x0, x1, y0, y1, z0, z1) on its 8 corners,
// in `color`; returns the number of faces.
std::size_t AddBox(Geometry& boxes, const std::array<double, 6>& b, RGB color)
{
  static constexpr int Faces[6][4] = { { 0, 3, 2, 1 }, { 4, 5, 6, 7 }, { 0, 1, 5, 4 },
    { 1, 2, 6, 5 }, { 2, 3, 7, 6 }, { 3, 0, 4, 7 } };
  vtkIdType corner[8];
  for (int k = 0; k < 8; ++k)
  {
    corner[k] = boxes.Point(b[(k == 1 || k == 2 || k == 5 || k == 6) ? 1 : 0],
      b[(k % 4) >= 2 ? 3 : 2], b[k >= 4 ? 5 : 4]);
  }
  for (const auto& face : Faces)
  {
    const vtkIdType ids[4] = { corner[face[0]], corner[face[1]], corner[face[2]], corner[face[3]] };
    boxes.Polys->InsertNextCell(4, ids);
    boxes.Color(color);
  }
  return 6;
}

// The network base: its links as wide as their bandwidth, its hosts and
// switches, named.
void DrawNetwork(const macroscope::NetworkTopology& topology, const std::vector<int64_t>& host,
  double hostSide, double maxEdgeWidth, BaseCells& base, MacroscopeChart::Labels& labels)
{
  const std::vector<double> widths = macroscope::LinkWidths(topology, maxEdgeWidth);
  for (std::size_t l = 0; l < topology.Links(); ++l)
  {
    const auto a = topology.Source[l], b = topology.Target[l];
    Ribbon(base.Cells, topology.X[a], topology.Y[a], topology.X[b], topology.Y[b], widths[l],
      -0.003, LinkColor);
    base.Tag("link", topology.Names[a] + " -- " + topology.Names[b], NAN, 0, topology.Bandwidth[l],
      topology.Latency[l]);
  }
  std::vector<char> isHost(topology.Nodes(), 0);
  for (int64_t h : host)
  {
    isHost[h] = 1;
  }
  for (std::size_t n = 0; n < topology.Nodes(); ++n)
  {
    const double half = (isHost[n] ? hostSide : std::max(hostSide, 0.02)) / 2.0 + 0.01;
    base.Cells.Quad(topology.X[n] - half, topology.Y[n] - half, topology.X[n] + half,
      topology.Y[n] + half, -0.002, isHost[n] ? HostColor : SwitchColor);
    base.Tag(topology.Kinds[n].empty() ? (isHost[n] ? "host" : "node") : topology.Kinds[n],
      topology.Names[n]);
    labels.AddAt(topology.X[n] - half, topology.Y[n] - half, 0.0, topology.Names[n],
      MacroscopeChart::NODE_LABEL);
  }
}

// The treemap base: a grey rectangle per machine, darker deeper down.
void DrawTreemap(const Processes& processes, const macroscope::TreemapBase& treemap,
  BaseCells& base, MacroscopeChart::Labels& labels)
{
  for (const macroscope::TreemapBaseCell& cell :
    macroscope::TreemapBaseCells(processes.Parent, processes.Node, treemap.Layout))
  {
    const auto& r = treemap.Layout.Rects[cell.Node];
    const unsigned char shade = cell.Shade;
    base.Cells.Quad(r.X0, r.Y0, r.X1, r.Y1, cell.Z,
      RGB{ { shade, shade, static_cast<unsigned char>(std::min(255, shade + 8)) } });
    base.Tag("treemap", processes.NodeNames[cell.Node], treemap.Layout.Size[cell.Node]);
    if (cell.Named)
    {
      labels.AddAt(r.X0, r.Y1, 0.0, processes.NodeNames[cell.Node], MacroscopeChart::NODE_LABEL);
    }
  }
}

// The time axis at the base's corner, its ticks and the window's planes.
void DrawTimeAxis(const macroscope::TopologySceneGeometry& scene, double t0, double t1,
  vtkPolyData* output, MacroscopeChart::Labels& labels)
{
  Geometry guides;
  auto segment = [&guides](double ax, double ay, double az, double bx, double by, double bz)
  {
    const vtkIdType ids[2] = { guides.Point(ax, ay, az), guides.Point(bx, by, bz) };
    guides.Lines->InsertNextCell(2, ids);
    guides.Color(RGB{ { 255, 255, 255 } });
  };
  const double zStart = scene.Axis.Z(t0), zEnd = scene.Axis.Z(t1);
  segment(AxisCorner, AxisCorner, 0.0, AxisCorner, AxisCorner, zEnd);
  for (const auto& tick : scene.Ticks)
  {
    segment(AxisCorner, AxisCorner, tick.Z, AxisCorner + 0.03, AxisCorner, tick.Z);
    labels.AddAt(AxisCorner - 0.01, AxisCorner, tick.Z, tick.Label, MacroscopeChart::ROW_LABEL);
  }
  for (double z : { zStart, zEnd })
  {
    const double lo = AxisCorner, hi = 1.0 - AxisCorner;
    segment(lo, lo, z, hi, lo, z);
    segment(hi, lo, z, hi, hi, z);
    segment(hi, hi, z, lo, hi, z);
    segment(lo, hi, z, lo, lo, z);
  }
  // The title names the unit of the tick labels (ComputeTimeTicks writes
  // them in the unit of the window's largest time).
  const std::string title =
    "Time (" + macroscope::SecondsUnit(std::max(std::abs(t0), std::abs(t1))) + ")";
  labels.AddAt(AxisCorner, AxisCorner, zEnd + 0.06 * (zEnd - zStart + 0.1), title,
    MacroscopeChart::AXIS_TITLE);
  guides.Into(output);
}
}

vtkMacroscopeTopologyScene::vtkMacroscopeTopologyScene()
{
  this->SetNumberOfOutputPorts(NUMBER_OF_OUTPUTS);
  this->SetController(vtkMultiProcessController::GetGlobalController());
}

vtkMacroscopeTopologyScene::~vtkMacroscopeTopologyScene()
{
  this->SetController(nullptr);
}

void vtkMacroscopeTopologyScene::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  const bool known = this->BaseConfiguration >= 0 && this->BaseConfiguration <= 2;
  os << indent
     << "BaseConfiguration: " << (known ? PlaneNames[this->BaseConfiguration] : "(invalid)")
     << "\n";
  os << indent << "TopologyFile: " << this->TopologyFile << "\n";
  os << indent << "TimeWindow: " << this->TimeWindow[0] << " " << this->TimeWindow[1] << "\n";
  os << indent << "Scale: " << this->Scale << "\n";
  os << indent << "Offset: " << this->Offset << "\n";
  os << indent << "BoxSize: " << this->BoxSize << "\n";
  os << indent << "Depth: " << this->Depth << "\n";
  os << indent << "Ticks: " << this->Ticks << "\n";
  os << indent << "ShowMessages: " << this->ShowMessages << "\n";
  os << indent << "ShowCommunicationGraph: " << this->ShowCommunicationGraph << "\n";
  os << indent << "MaxEdgeWidth: " << this->MaxEdgeWidth << "\n";
  os << indent
     << "TreemapSize: " << (this->TreemapSize == STATE_TIME ? "state time" : "process count")
     << "\n";
  os << indent << "TypeColors: " << this->TypeColors.size() / 2 << " pairs\n";
  MacroscopeNameList::Print(os, indent, "Resources", this->Resources);
  MacroscopeNameList::Print(os, indent, "Types", this->Types);
  os << indent << "Controller: " << this->Controller << "\n";
}

MACROSCOPE_RESOURCES_AND_TYPES(vtkMacroscopeTopologyScene)

void vtkMacroscopeTopologyScene::GetSceneBounds(double bounds[6]) const
{
  std::copy(this->SceneBounds, this->SceneBounds + 6, bounds);
}

int vtkMacroscopeTopologyScene::FillInputPortInformation(int, vtkInformation* info)
{
  MacroscopeTraceInputs::DeclareTracePort(info);
  return 1;
}

// One run of RequestData: what its stages hand on to each other.
struct vtkMacroscopeTopologyScene::Run
{
  vtkPolyData* Outputs[NUMBER_OF_OUTPUTS] = {};
  macroscope::TypeColorOverrides TypeColors;
  MacroscopeTraceInputs Trace;
  double T0 = 0.0, T1 = 1.0;
  Processes Procs;
  std::vector<bool> KeepLeaf;
  std::vector<bool> KeepType;
  // This rank's states and messages, as the core takes them.
  MacroscopeColumnStore Store;
  std::vector<macroscope::TracedState> Traced;
  std::vector<macroscope::TopologyMessage> Messages;
  std::vector<vtkIdType> MessageRows;
  // The states drawn, the communication graph of all ranks, the treemap sizes.
  std::vector<macroscope::SceneState> Drawn;
  std::vector<int64_t> DrawnRows;
  macroscope::CommunicationGraph Graph;
  std::vector<double> Sizes;
  // The base: where every process stands.
  std::vector<double> X, Y;
  macroscope::NetworkTopology Topology;
  std::vector<int64_t> Host;
  macroscope::TreemapBase Treemap;
  double HostSide = 0.0;
  double BoxSize = 0.0;
  double MaxEdgeWidth = 0.0;
  // The scene above it.
  macroscope::SceneOptions Options;
  std::vector<std::size_t> Flown; // the Messages index of every flight
  macroscope::TopologySceneGeometry Scene;
  MacroscopeChart::TypeLook Look;

  std::size_t Count() const { return this->Procs.Count(); }
  bool Selected(std::size_t p) const { return this->KeepLeaf.empty() || this->KeepLeaf[p]; }
};

int vtkMacroscopeTopologyScene::RequestData(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  // An abort stops the run it interrupts; VTK leaves the flag set, which
  // would abort every later run too (docs/progress.md).
  this->SetAbortExecute(0);
  Run run;
  for (int port = 0; port < NUMBER_OF_OUTPUTS; ++port)
  {
    run.Outputs[port] = vtkPolyData::GetData(outputVector, port);
    run.Outputs[port]->Initialize();
  }
  // Properties first: the same on every rank, so an early return is too.
  if (!this->CheckProperties(run) || !this->ReadInputs(inputVector[0], run) ||
    !this->ReadStates(run) || !this->ReadMessages(run))
  {
    return 0;
  }
  this->UpdateProgress(0.12);
  if (!this->MergeRanks(run))
  {
    return 0;
  }
  if (this->GetAbortExecute())
  {
    vtkWarningMacro("Topology-Time Scene aborted.");
    return 1;
  }
  this->UpdateProgress(0.24);
  if (!this->PlaceBase(run) || !this->BuildScene(run))
  {
    return 0;
  }
  // The boxes and segments are most of the work on a large window (two
  // thirds of it on 4M events, the stages above a ninth each).
  if (this->GetAbortExecute())
  {
    return this->Aborted(run);
  }
  this->UpdateProgress(0.36);
  run.Look.Fill(run.Trace.Types, run.TypeColors);
  std::vector<double> typeTime(run.Look.Names.size(), 0.0);
  if (!this->EmitBoxes(run, typeTime) || !this->EmitSegments(run))
  {
    return this->Aborted(run);
  }
  this->ShareTypeTimes(typeTime);
  // Base, guides and labels are the same on every rank: rank 0 draws them.
  if (this->Controller && this->Controller->GetLocalProcessId() > 0)
  {
    return 1;
  }
  MacroscopeChart::Labels labels;
  this->DrawBase(run, labels);
  DrawTimeAxis(run.Scene, run.T0, run.T1, run.Outputs[GUIDES], labels);
  labels.Into(run.Outputs[LABELS]);
  AddLegend(run.Outputs[LABELS], typeTime, run.Look);
  this->UpdateProgress(1.0);
  return 1;
}

std::function<bool(double)> vtkMacroscopeTopologyScene::Progress(double lo, double hi)
{
  // Every stage reports (docs/progress.md), and hears an abort between two
  // reports. (GetAbortExecute, not CheckAbort: CheckAbort marks the outputs
  // aborted, and the pipeline then runs the filter again for each port.)
  return [this, lo, hi](double fraction)
  {
    this->UpdateProgress(lo + (hi - lo) * fraction);
    return !this->GetAbortExecute();
  };
}

int vtkMacroscopeTopologyScene::Aborted(Run& run)
{
  for (vtkPolyData* output : run.Outputs)
  {
    output->Initialize(); // nothing half drawn
  }
  vtkWarningMacro("Topology-Time Scene aborted.");
  return 1;
}

bool vtkMacroscopeTopologyScene::CheckProperties(Run& run)
{
  if (this->BaseConfiguration < COMMUNICATION_PATTERN ||
    this->BaseConfiguration > HIERARCHY_TREEMAP)
  {
    vtkErrorMacro("BaseConfiguration must be 0 (communication pattern), 1 (network topology) or "
                  "2 (hierarchy treemap), not "
      << this->BaseConfiguration << ".");
    return false;
  }
  if (this->TreemapSize != PROCESS_COUNT && this->TreemapSize != STATE_TIME)
  {
    vtkErrorMacro(
      "TreemapSize must be 0 (process count) or 1 (state time), not " << this->TreemapSize << ".");
    return false;
  }
  // One message per property, so that the error names the one to fix.
  const std::pair<const char*, double> lengths[] = { { "Scale", this->Scale },
    { "BoxSize", this->BoxSize }, { "MaxEdgeWidth", this->MaxEdgeWidth } };
  for (const auto& size : lengths)
  {
    if (!std::isfinite(size.second) || size.second < 0.0)
    {
      vtkErrorMacro(<< size.first << " must be finite and >= 0, not " << size.second << ".");
      return false;
    }
  }
  if (!std::isfinite(this->Offset))
  {
    vtkErrorMacro("Offset must be finite, not " << this->Offset << ".");
    return false;
  }
  if (this->Depth < -1)
  {
    vtkErrorMacro(
      "Depth must be -1 (the innermost states) or a call depth >= 0, not " << this->Depth << ".");
    return false;
  }
  if (this->Ticks < 1)
  {
    vtkErrorMacro("Ticks must be >= 1, not " << this->Ticks << ".");
    return false;
  }
  std::string problem;
  if (!MacroscopeChart::ParseTypeColors(this->TypeColors, run.TypeColors, problem))
  {
    vtkErrorMacro("TypeColors: " << problem << ".");
    return false;
  }
  if (this->BaseConfiguration == NETWORK_TOPOLOGY && this->TopologyFile.empty())
  {
    vtkErrorMacro("The network topology base needs a TopologyFile: a GraphViz DOT graph of the "
                  "hosts and switches the processes ran on.");
    return false;
  }
  return true;
}

bool vtkMacroscopeTopologyScene::ReadInputs(vtkInformationVector* input, Run& run)
{
  MacroscopeTraceInputs& trace = run.Trace;
  std::string problem;
  // The window: the trace's span where the property leaves it open.
  double window[2];
  if (!trace.CollectTraceAndWindow(
        this, "Topology-Time Scene", input, this->TimeWindow, this->Controller, window, problem))
  {
    vtkErrorMacro(<< problem);
    return false;
  }
  run.T0 = window[0];
  run.T1 = window[1];
  // The selection (linked views), resolved as every view resolves it. The
  // Hierarchy and Types are whole on every rank: all ranks fail alike,
  // before the collectives below.
  std::vector<int64_t> parent, leafIndex;
  if (!ReadProcesses(trace.Hierarchy, run.Procs, problem) ||
    !MacroscopeHierarchyArrays(trace.Hierarchy, parent, leafIndex, problem) ||
    !MacroscopeModelPlan::SelectLeaves(
      trace.Hierarchy, parent, leafIndex, this->Resources, run.KeepLeaf, problem) ||
    !MacroscopeModelPlan::SelectTypes(trace.Types, this->Types, run.KeepType, problem))
  {
    vtkErrorMacro("Topology-Time Scene: " << problem << ".");
    return false;
  }
  return true;
}

bool vtkMacroscopeTopologyScene::ReadStates(Run& run)
{
  MacroscopeColumnStore& store = run.Store;
  vtkTable* table = run.Trace.States;
  const uint32_t* location = store.Ids32(table, schema::Location);
  const uint32_t* type = store.Ids32(table, schema::Type);
  const uint32_t* depth = store.Ids32(table, schema::Depth);
  const double* start = store.Real(table, schema::Start);
  const double* end = store.Real(table, schema::End);
  if (!location || !type || !depth || !start || !end)
  {
    vtkErrorMacro("Topology-Time Scene: the States table misses one of the columns Location, "
                  "Type, Depth, Start, End (see docs/architecture.md).");
    return false;
  }
  const std::size_t count = run.Count();
  macroscope::ProgressSpan span(this->Progress(0.0, 1.0), 0.0, 0.08, table->GetNumberOfRows());
  for (vtkIdType row = 0; row < table->GetNumberOfRows(); ++row)
  {
    if (!span.At(static_cast<std::size_t>(row)))
    {
      break; // heard later, after the collective calls every rank makes
    }
    if (start[row] < run.T1 && end[row] > run.T0 && location[row] < count)
    {
      run.Traced.push_back({ row, location[row], static_cast<int>(type[row]),
        static_cast<int>(depth[row]), start[row], end[row] });
    }
  }
  return true;
}

bool vtkMacroscopeTopologyScene::ReadMessages(Run& run)
{
  vtkTable* table = run.Trace.Messages;
  if (!table)
  {
    return true;
  }
  MacroscopeColumnStore& store = run.Store;
  const uint32_t* sender = store.Ids32(table, schema::Sender);
  const uint32_t* receiver = store.Ids32(table, schema::Receiver);
  const double* sendTime = store.Real(table, schema::SendTime);
  const double* recvTime = store.Real(table, schema::RecvTime);
  const double* bytes = store.Real(table, schema::Bytes);
  if (!sender || !receiver || !sendTime || !recvTime)
  {
    vtkErrorMacro("Topology-Time Scene: the Messages table misses one of the columns Sender, "
                  "Receiver, SendTime, RecvTime (see docs/architecture.md).");
    return false;
  }
  const std::size_t count = run.Count();
  macroscope::ProgressSpan span(this->Progress(0.0, 1.0), 0.08, 0.12, table->GetNumberOfRows());
  for (vtkIdType row = 0; row < table->GetNumberOfRows(); ++row)
  {
    if (!span.At(static_cast<std::size_t>(row)))
    {
      break;
    }
    if (sender[row] < count && receiver[row] < count)
    {
      run.Messages.push_back(
        { sender[row], receiver[row], bytes ? bytes[row] : 0.0, sendTime[row], recvTime[row] });
      run.MessageRows.push_back(row);
    }
  }
  return true;
}

bool vtkMacroscopeTopologyScene::MergeRanks(Run& run)
{
  // The ranks' communication patterns and (treemap) sizes, merged on all.
  const std::size_t count = run.Count();
  run.Sizes.assign(count, 1.0);
  try
  {
    run.Drawn = macroscope::DrawnStates(
      std::move(run.Traced), this->Depth, run.DrawnRows, this->Progress(0.12, 0.22));
    const macroscope::CommunicationGraph mine =
      macroscope::CommunicationEdges(count, run.Messages, run.T0, run.T1);
    macroscope::CommunicationGraph all;
    all.Source = AllGathered(this->Controller, mine.Source);
    all.Target = AllGathered(this->Controller, mine.Target);
    all.Traffic = AllGathered(this->Controller, mine.Traffic);
    all.Messages = AllGathered(this->Controller, mine.Messages);
    run.Graph = macroscope::LayoutCommunicationGraph(
      count, { all }, this->BaseConfiguration == COMMUNICATION_PATTERN);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("Topology-Time Scene: " << error.what());
    return false;
  }
  if (this->BaseConfiguration == HIERARCHY_TREEMAP && this->TreemapSize == STATE_TIME)
  {
    std::vector<double> mine = macroscope::StateTimeOfProcesses(run.Drawn, count, run.T0, run.T1);
    if (this->Controller && this->Controller->GetNumberOfProcesses() > 1)
    {
      this->Controller->AllReduce(
        mine.data(), run.Sizes.data(), static_cast<vtkIdType>(count), vtkCommunicator::SUM_OP);
    }
    else
    {
      run.Sizes = mine;
    }
  }
  // The base is laid out above from every process and message of the
  // window; the selection keeps the boxes and flights drawn over it.
  macroscope::KeepSelectedStates(run.Drawn, run.DrawnRows, run.KeepLeaf, run.KeepType);
  return true;
}

bool vtkMacroscopeTopologyScene::PlaceOnNetwork(Run& run)
{
  std::ifstream file(this->TopologyFile);
  std::stringstream text;
  text << file.rdbuf();
  if (!file)
  {
    vtkErrorMacro("Cannot read the TopologyFile '" << this->TopologyFile << "'.");
    return false;
  }
  try
  {
    run.Topology = macroscope::ParseNetworkTopology(text.str());
    run.Host = macroscope::PlaceProcesses(run.Procs.Paths, run.Topology);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("TopologyFile '" << this->TopologyFile << "': " << error.what());
    return false;
  }
  macroscope::HostPlacement placement = macroscope::PlaceOnHosts(run.Topology, run.Host);
  run.X = std::move(placement.X);
  run.Y = std::move(placement.Y);
  run.HostSide = placement.HostSide;
  return true;
}

bool vtkMacroscopeTopologyScene::PlaceBase(Run& run)
{
  try
  {
    if (this->BaseConfiguration == COMMUNICATION_PATTERN)
    {
      run.X = run.Graph.X;
      run.Y = run.Graph.Y;
    }
    else if (this->BaseConfiguration == NETWORK_TOPOLOGY)
    {
      if (!this->PlaceOnNetwork(run))
      {
        return false;
      }
    }
    else
    {
      run.Treemap =
        macroscope::LayoutTreemapBase(run.Procs.Parent, run.Procs.Node, run.Sizes, 0.01);
      run.X = run.Treemap.X;
      run.Y = run.Treemap.Y;
    }
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("Topology-Time Scene: the " << PlaneNames[this->BaseConfiguration]
                                              << " base cannot be laid out: " << error.what());
    return false;
  }
  run.BoxSize = this->BoxSize == 0.0 ? macroscope::AutomaticBoxSize(run.X, run.Y) : this->BoxSize;
  // Edges no wider than half a box, so that they stay apart between close
  // processes.
  run.MaxEdgeWidth = this->MaxEdgeWidth > 0.0 ? this->MaxEdgeWidth : 0.5 * run.BoxSize;
  return true;
}

bool vtkMacroscopeTopologyScene::BuildScene(Run& run)
{
  macroscope::SceneOptions& options = run.Options;
  options.WindowStart = run.T0;
  options.WindowEnd = run.T1;
  options.Offset = this->Offset;
  options.Scale = this->Scale > 0.0 ? this->Scale : FitHeight / (run.T1 - run.T0);
  options.BoxSize = run.BoxSize;
  options.Ticks = this->Ticks;
  std::vector<macroscope::SceneMessage> flights;
  if (this->ShowMessages)
  {
    for (std::size_t i = 0; i < run.Messages.size(); ++i)
    {
      const auto& m = run.Messages[i];
      if (run.Selected(m.Sender) && run.Selected(m.Receiver))
      {
        flights.push_back({ m.Sender, m.Receiver, m.SendTime, m.RecvTime });
        run.Flown.push_back(i);
      }
    }
  }
  try
  {
    run.Scene = macroscope::BuildTopologyScene(
      run.X, run.Y, run.Drawn, flights, options, this->Progress(0.24, 0.36));
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("Topology-Time Scene: " << error.what());
    return false;
  }
  const double top = options.Offset + options.Scale * (run.T1 - run.T0);
  const double sceneBounds[6] = { std::min(AxisCorner, 0.0) - 0.02, 1.02,
    std::min(AxisCorner, 0.0) - 0.02, 1.02, std::min(0.0, options.Offset) - 0.01,
    std::max(top, options.Offset) };
  std::copy(sceneBounds, sceneBounds + 6, this->SceneBounds);
  return true;
}

bool vtkMacroscopeTopologyScene::EmitBoxes(Run& run, std::vector<double>& typeTime)
{
  // A box per drawn state, 6 faces on 8 corners.
  const double t0 = run.T0, t1 = run.T1;
  Geometry boxes;
  auto typeIds = NamedArray<vtkIntArray>(schema::Type);
  auto locations = NamedArray<vtkIdTypeArray>(schema::Location);
  auto starts = NamedArray<vtkDoubleArray>(schema::Start);
  auto ends = NamedArray<vtkDoubleArray>(schema::End);
  auto durations = NamedArray<vtkDoubleArray>("Duration");
  auto rows = NamedArray<vtkIdTypeArray>("vtkOriginalCellIds");
  const auto& sceneBoxes = run.Scene.Boxes;
  macroscope::ProgressSpan span(this->Progress(0.0, 1.0), 0.36, 0.9, sceneBoxes.size());
  for (std::size_t i = 0; i < sceneBoxes.size(); ++i)
  {
    if (!span.At(i))
    {
      return false;
    }
    const auto& box = sceneBoxes[i];
    const auto& state = run.Drawn[box.State];
    const std::size_t faces =
      AddBox(boxes, box.Bounds, run.Look.Color(static_cast<uint32_t>(box.Type)));
    for (std::size_t face = 0; face < faces; ++face)
    {
      typeIds->InsertNextValue(box.Type);
      locations->InsertNextValue(box.Process);
      starts->InsertNextValue(std::max(state.Start, t0));
      ends->InsertNextValue(std::min(state.End, t1));
      durations->InsertNextValue(std::min(state.End, t1) - std::max(state.Start, t0));
      rows->InsertNextValue(run.DrawnRows[box.State]);
    }
    if (box.Type >= 0 && static_cast<std::size_t>(box.Type) < typeTime.size())
    {
      typeTime[static_cast<std::size_t>(box.Type)] +=
        std::min(state.End, t1) - std::max(state.Start, t0);
    }
  }
  vtkPolyData* output = run.Outputs[STATES];
  boxes.Into(output);
  for (vtkAbstractArray* array :
    std::initializer_list<vtkAbstractArray*>{ typeIds, locations, starts, ends, durations, rows })
  {
    output->GetCellData()->AddArray(array);
  }
  // A name per type id in the field data rather than per cell: a box has
  // six faces and a scene can hold millions.
  auto names = NamedArray<vtkStringArray>("TypeNames");
  for (const std::string& name : run.Look.Names)
  {
    names->InsertNextValue(name);
  }
  output->GetFieldData()->AddArray(names);
  return true;
}

bool vtkMacroscopeTopologyScene::EmitSegments(Run& run)
{
  Geometry lines;
  auto senders = NamedArray<vtkIdTypeArray>(schema::Sender);
  auto receivers = NamedArray<vtkIdTypeArray>(schema::Receiver);
  auto sendTimes = NamedArray<vtkDoubleArray>(schema::SendTime);
  auto recvTimes = NamedArray<vtkDoubleArray>(schema::RecvTime);
  auto bytes = NamedArray<vtkDoubleArray>(schema::Bytes);
  auto clipped = NamedArray<vtkSignedCharArray>("Clipped");
  auto rows = NamedArray<vtkIdTypeArray>("vtkOriginalCellIds");
  const auto& segments = run.Scene.Segments;
  macroscope::ProgressSpan span(this->Progress(0.0, 1.0), 0.9, 0.98, segments.size(), 10);
  for (std::size_t i = 0; i < segments.size(); ++i)
  {
    if (!span.At(i))
    {
      return false;
    }
    const auto& segment = segments[i];
    const std::size_t message = run.Flown[segment.Message];
    const auto& m = run.Messages[message];
    const vtkIdType ids[2] = { lines.Point(segment.From[0], segment.From[1], segment.From[2]),
      lines.Point(segment.To[0], segment.To[1], segment.To[2]) };
    lines.Lines->InsertNextCell(2, ids);
    lines.Color(MessageColor);
    senders->InsertNextValue(m.Sender);
    receivers->InsertNextValue(m.Receiver);
    sendTimes->InsertNextValue(m.SendTime);
    recvTimes->InsertNextValue(m.RecvTime);
    bytes->InsertNextValue(m.Bytes);
    clipped->InsertNextValue(segment.Clipped ? 1 : 0);
    rows->InsertNextValue(run.MessageRows[message]);
  }
  lines.Into(run.Outputs[MESSAGES]);
  for (vtkAbstractArray* array : std::initializer_list<vtkAbstractArray*>{
         senders, receivers, sendTimes, recvTimes, bytes, clipped, rows })
  {
    run.Outputs[MESSAGES]->GetCellData()->AddArray(array);
  }
  return true;
}

void vtkMacroscopeTopologyScene::ShareTypeTimes(std::vector<double>& typeTime)
{
  // The legend orders the types by their time in the whole scene, whose
  // boxes the ranks share: the times are summed over the ranks.
  if (this->Controller && this->Controller->GetNumberOfProcesses() > 1 && !typeTime.empty())
  {
    std::vector<double> summed(typeTime.size(), 0.0);
    this->Controller->AllReduce(typeTime.data(), summed.data(),
      static_cast<vtkIdType>(typeTime.size()), vtkCommunicator::SUM_OP);
    typeTime.swap(summed);
  }
}

void vtkMacroscopeTopologyScene::DrawBase(Run& run, MacroscopeChart::Labels& labels)
{
  BaseCells base;
  base.Cells.Quad(AxisCorner, AxisCorner, 1.0 - AxisCorner, 1.0 - AxisCorner, -0.004, GroundColor);
  base.Tag("ground", "");
  if (this->BaseConfiguration == NETWORK_TOPOLOGY)
  {
    DrawNetwork(run.Topology, run.Host, run.HostSide, run.MaxEdgeWidth, base, labels);
  }
  else if (this->BaseConfiguration == HIERARCHY_TREEMAP)
  {
    DrawTreemap(run.Procs, run.Treemap, base, labels);
  }
  if (this->BaseConfiguration == COMMUNICATION_PATTERN || this->ShowCommunicationGraph)
  {
    const macroscope::CommunicationGraph& graph = run.Graph;
    for (std::size_t e = 0; e < graph.Edges(); ++e)
    {
      const auto a = graph.Source[e], b = graph.Target[e];
      if (!run.Selected(static_cast<std::size_t>(a)) || !run.Selected(static_cast<std::size_t>(b)))
      {
        continue;
      }
      Ribbon(base.Cells, run.X[a], run.Y[a], run.X[b], run.Y[b],
        0.002 + run.MaxEdgeWidth * graph.Width[e], -0.001, TrafficColor);
      base.Tag("traffic", run.Procs.Paths[a].back() + " -- " + run.Procs.Paths[b].back(),
        graph.Traffic[e], graph.Messages[e]);
    }
  }
  std::map<std::string, int> uses;
  for (const auto& path : run.Procs.Paths)
  {
    ++uses[path.back()];
  }
  const double footprint = std::max(run.BoxSize, 0.004) * 0.65;
  for (std::size_t p = 0; p < run.Count(); ++p)
  {
    if (run.Selected(p))
    {
      base.Cells.Quad(run.X[p] - footprint, run.Y[p] - footprint, run.X[p] + footprint,
        run.Y[p] + footprint, -0.0005, ProcessColor);
      base.Tag("process", run.Procs.Label(p, uses));
    }
  }
  if (this->BaseConfiguration == COMMUNICATION_PATTERN)
  {
    // Process names where they do not pile up, the busiest first: the
    // representation places the names on screen in this order of priority.
    for (std::size_t p : macroscope::NamedProcesses(run.X, run.Y, run.KeepLeaf, run.Graph))
    {
      labels.AddAt(run.X[p] + footprint, run.Y[p] - footprint, 0.0, run.Procs.Label(p, uses),
        MacroscopeChart::NODE_LABEL);
    }
  }
  base.Into(run.Outputs[BASE]);
}

void vtkMacroscopeTopologyScene::ClearTypeColors()
{
  if (!this->TypeColors.empty())
  {
    this->TypeColors.clear();
    this->Modified();
  }
}

void vtkMacroscopeTopologyScene::AddTypeColor(const char* entry)
{
  this->TypeColors.emplace_back(entry ? entry : "");
  this->Modified();
}

void vtkMacroscopeTopologyScene::SetTypeColors(const std::vector<std::string>& entries)
{
  if (entries != this->TypeColors)
  {
    this->TypeColors = entries;
    this->Modified();
  }
}
