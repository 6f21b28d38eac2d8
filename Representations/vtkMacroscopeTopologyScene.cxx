#include "vtkMacroscopeTopologyScene.h"

#include "MacroscopeChart.h"
#include "MacroscopeModelPlan.h"
#include "MacroscopeNameList.h"
#include "MacroscopeTraceColumns.h"
#include "MacroscopeTraceInputs.h"
#include "ProgressSpan.h"
#include "TimeAxis.h"
#include "TopologyBase.h"
#include "TopologyScene.h"
#include "TraceSchema.h"

#include "vtkCellData.h"
#include "vtkCommunicator.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkIdTypeArray.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkMultiProcessController.h"
#include "vtkObjectFactory.h"
#include "vtkNew.h"
#include "vtkPolyData.h"
#include "vtkSignedCharArray.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkTree.h"
#include "vtkUnsignedCharArray.h"

#include <algorithm>
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
void AddLegend(vtkPolyData* labels, const std::map<int, double>& timeOfType,
  const MacroscopeChart::TypeLook& look)
{
  std::vector<std::pair<double, int>> order;
  for (const auto& [type, time] : timeOfType)
  {
    order.emplace_back(-time, type);
  }
  std::sort(order.begin(), order.end());
  vtkNew<vtkStringArray> names;
  names->SetName("LegendTypes");
  vtkNew<vtkUnsignedCharArray> colors;
  colors->SetName("LegendColors");
  colors->SetNumberOfComponents(3);
  for (const auto& entry : order)
  {
    const auto type = static_cast<uint32_t>(entry.second);
    names->InsertNextValue(type < look.Names.size() ? look.Names[type] : "type " + std::to_string(type));
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

constexpr double FitHeight = 1.5;   // the window's height when Scale is 0
constexpr double MaxAutoBox = 0.08; // largest automatic box side
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
  const int64_t leaves = std::count_if(leafIndex.begin(), leafIndex.end(), [](int64_t i) { return i >= 0; });
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
void Ribbon(Geometry& base, double ax, double ay, double bx, double by, double width, double z,
  RGB color)
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

// The distance between the two closest distinct points, or +inf.
double ClosestPair(const std::vector<double>& x, const std::vector<double>& y)
{
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < x.size(); ++i)
  {
    for (std::size_t j = i + 1; j < x.size(); ++j)
    {
      const double d = std::hypot(x[i] - x[j], y[i] - y[j]);
      if (d > 0.0)
      {
        best = std::min(best, d);
      }
    }
  }
  return best;
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
    for (vtkAbstractArray* array : { static_cast<vtkAbstractArray*>(this->Kind), static_cast<vtkAbstractArray*>(this->Name),
           static_cast<vtkAbstractArray*>(this->Traffic), static_cast<vtkAbstractArray*>(this->Count),
           static_cast<vtkAbstractArray*>(this->Bandwidth), static_cast<vtkAbstractArray*>(this->Latency) })
    {
      output->GetCellData()->AddArray(array);
    }
  }
};
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
  os << indent << "BaseConfiguration: "
     << (known ? PlaneNames[this->BaseConfiguration] : "(invalid)") << "\n";
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
  os << indent << "TreemapSize: " << (this->TreemapSize == STATE_TIME ? "state time" : "process count")
     << "\n";
  os << indent << "TypeColors: " << this->TypeColors.size() / 2 << " pairs\n";
  MacroscopeNameList::Print(os, indent, "Resources", this->Resources);
  MacroscopeNameList::Print(os, indent, "Types", this->Types);
  os << indent << "Controller: " << this->Controller << "\n";
}

void vtkMacroscopeTopologyScene::AddResource(const char* name)
{
  MacroscopeNameList::Add(this->Resources, name);
  this->Modified();
}

void vtkMacroscopeTopologyScene::RemoveAllResources()
{
  if (MacroscopeNameList::Clear(this->Resources))
  {
    this->Modified();
  }
}

void vtkMacroscopeTopologyScene::AddType(const char* name)
{
  MacroscopeNameList::Add(this->Types, name);
  this->Modified();
}

void vtkMacroscopeTopologyScene::RemoveAllTypes()
{
  if (MacroscopeNameList::Clear(this->Types))
  {
    this->Modified();
  }
}

void vtkMacroscopeTopologyScene::GetSceneBounds(double bounds[6]) const
{
  std::copy(this->SceneBounds, this->SceneBounds + 6, bounds);
}

int vtkMacroscopeTopologyScene::FillInputPortInformation(int, vtkInformation* info)
{
  MacroscopeTraceInputs::DeclareTracePort(info);
  return 1;
}

int vtkMacroscopeTopologyScene::RequestData(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  // An abort stops the run it interrupts; VTK leaves the flag set, which
  // would abort every later run too (docs/progress.md).
  this->SetAbortExecute(0);
  vtkPolyData* outputs[NUMBER_OF_OUTPUTS];
  for (int port = 0; port < NUMBER_OF_OUTPUTS; ++port)
  {
    outputs[port] = vtkPolyData::GetData(outputVector, port);
    outputs[port]->Initialize();
  }

  // Properties first: the same on every rank, so an early return is too.
  if (this->BaseConfiguration < COMMUNICATION_PATTERN ||
    this->BaseConfiguration > HIERARCHY_TREEMAP)
  {
    vtkErrorMacro("BaseConfiguration must be 0 (communication pattern), 1 (network topology) or "
                  "2 (hierarchy treemap), not "
      << this->BaseConfiguration << ".");
    return 0;
  }
  if (this->TreemapSize != PROCESS_COUNT && this->TreemapSize != STATE_TIME)
  {
    vtkErrorMacro("TreemapSize must be 0 (process count) or 1 (state time), not "
      << this->TreemapSize << ".");
    return 0;
  }
  // One message per property, so that the error names the one to fix.
  const std::pair<const char*, double> lengths[] = { { "Scale", this->Scale },
    { "BoxSize", this->BoxSize }, { "MaxEdgeWidth", this->MaxEdgeWidth } };
  for (const auto& size : lengths)
  {
    if (!std::isfinite(size.second) || size.second < 0.0)
    {
      vtkErrorMacro(<< size.first << " must be finite and >= 0, not " << size.second << ".");
      return 0;
    }
  }
  if (!std::isfinite(this->Offset))
  {
    vtkErrorMacro("Offset must be finite, not " << this->Offset << ".");
    return 0;
  }
  if (this->Depth < -1)
  {
    vtkErrorMacro("Depth must be -1 (the innermost states) or a call depth >= 0, not "
      << this->Depth << ".");
    return 0;
  }
  if (this->Ticks < 1)
  {
    vtkErrorMacro("Ticks must be >= 1, not " << this->Ticks << ".");
    return 0;
  }
  macroscope::TypeColorOverrides typeColors;
  {
    std::string problem;
    if (!MacroscopeChart::ParseTypeColors(this->TypeColors, typeColors, problem))
    {
      vtkErrorMacro("TypeColors: " << problem << ".");
      return 0;
    }
  }
  const bool network = this->BaseConfiguration == NETWORK_TOPOLOGY;
  if (network && this->TopologyFile.empty())
  {
    vtkErrorMacro("The network topology base needs a TopologyFile: a GraphViz DOT graph of the "
                  "hosts and switches the processes ran on.");
    return 0;
  }

  MacroscopeTraceInputs trace;
  std::string problem;
  if (!trace.CollectTrace(this, inputVector[0], problem))
  {
    vtkErrorMacro("Topology-Time Scene: " << problem << ".");
    return 0;
  }
  if (!trace.States || !trace.Hierarchy)
  {
    vtkErrorMacro("Topology-Time Scene needs a trace reader's States and Hierarchy outputs "
                  "(Messages and Types are optional); "
      << trace.Describe() << ".");
    return 0;
  }
  // The window: the trace's span where the property leaves it open
  // (collective: before any rank can stop on its own).
  double window[2];
  if (!trace.ResolveWindow(this->TimeWindow, this->Controller, window, problem))
  {
    vtkErrorMacro(<< problem << ".");
    return 0;
  }
  const double t0 = window[0], t1 = window[1];
  Processes processes;
  if (!ReadProcesses(trace.Hierarchy, processes, problem))
  {
    vtkErrorMacro("Topology-Time Scene: " << problem << ".");
    return 0;
  }
  const std::size_t count = processes.Count();
  // The selection (linked views), resolved as every view resolves it. The
  // Hierarchy and Types are whole on every rank: all ranks fail alike,
  // before the collectives below.
  std::vector<bool> keepLeaf;
  std::vector<bool> keepType;
  {
    std::vector<int64_t> parent, leafIndex;
    if (!MacroscopeHierarchyArrays(trace.Hierarchy, parent, leafIndex, problem) ||
      !MacroscopeModelPlan::SelectLeaves(
        trace.Hierarchy, parent, leafIndex, this->Resources, keepLeaf, problem) ||
      !MacroscopeModelPlan::SelectTypes(trace.Types, this->Types, keepType, problem))
    {
      vtkErrorMacro("Topology-Time Scene: " << problem << ".");
      return 0;
    }
  }
  auto selectedProcess = [&keepLeaf](std::size_t p) { return keepLeaf.empty() || keepLeaf[p]; };

  // Every stage reports (docs/progress.md), and hears an abort between two
  // reports. (GetAbortExecute, not CheckAbort: CheckAbort marks the outputs
  // aborted, and the pipeline then runs the filter again for each port.)
  const std::function<bool(double)> report = [this](double fraction) {
    this->UpdateProgress(fraction);
    return !this->GetAbortExecute();
  };
  auto within = [&report](double lo, double hi) {
    return std::function<bool(double)>(
      [&report, lo, hi](double fraction) { return report(lo + (hi - lo) * fraction); });
  };

  // This rank's states and messages, as the core takes them.
  MacroscopeColumnStore store;
  vtkTable* statesTable = trace.States;
  const uint32_t* location = store.Ids32(statesTable, schema::Location);
  const uint32_t* type = store.Ids32(statesTable, schema::Type);
  const uint32_t* depth = store.Ids32(statesTable, schema::Depth);
  const double* start = store.Real(statesTable, schema::Start);
  const double* end = store.Real(statesTable, schema::End);
  if (!location || !type || !depth || !start || !end)
  {
    vtkErrorMacro("Topology-Time Scene: the States table misses one of the columns Location, "
                  "Type, Depth, Start, End (see docs/architecture.md).");
    return 0;
  }
  std::vector<macroscope::TracedState> traced;
  macroscope::ProgressSpan stateSpan(report, 0.0, 0.08, statesTable->GetNumberOfRows());
  for (vtkIdType row = 0; row < statesTable->GetNumberOfRows(); ++row)
  {
    if (!stateSpan.At(static_cast<std::size_t>(row)))
    {
      break; // heard below, after the collective calls every rank makes
    }
    if (start[row] < t1 && end[row] > t0 && location[row] < count)
    {
      traced.push_back({ row, location[row], static_cast<int>(type[row]),
        static_cast<int>(depth[row]), start[row], end[row] });
    }
  }
  std::vector<macroscope::TopologyMessage> messages;
  std::vector<vtkIdType> messageRows;
  if (vtkTable* table = trace.Messages)
  {
    const uint32_t* sender = store.Ids32(table, schema::Sender);
    const uint32_t* receiver = store.Ids32(table, schema::Receiver);
    const double* sendTime = store.Real(table, schema::SendTime);
    const double* recvTime = store.Real(table, schema::RecvTime);
    const double* bytes = store.Real(table, schema::Bytes);
    if (!sender || !receiver || !sendTime || !recvTime)
    {
      vtkErrorMacro("Topology-Time Scene: the Messages table misses one of the columns Sender, "
                    "Receiver, SendTime, RecvTime (see docs/architecture.md).");
      return 0;
    }
    macroscope::ProgressSpan messageSpan(report, 0.08, 0.12, table->GetNumberOfRows());
    for (vtkIdType row = 0; row < table->GetNumberOfRows(); ++row)
    {
      if (!messageSpan.At(static_cast<std::size_t>(row)))
      {
        break;
      }
      if (sender[row] < count && receiver[row] < count)
      {
        messages.push_back({ sender[row], receiver[row], bytes ? bytes[row] : 0.0, sendTime[row],
          recvTime[row] });
        messageRows.push_back(row);
      }
    }
  }
  this->UpdateProgress(0.12);

  // The ranks' communication patterns and (treemap) sizes, merged on all.
  std::vector<macroscope::SceneState> drawn;
  std::vector<int64_t> drawnRows;
  macroscope::CommunicationGraph graph;
  std::vector<double> sizes(count, 1.0);
  try
  {
    drawn = macroscope::DrawnStates(std::move(traced), this->Depth, drawnRows, within(0.12, 0.22));
    const macroscope::CommunicationGraph mine =
      macroscope::CommunicationEdges(count, messages, t0, t1);
    const std::vector<int64_t> source = AllGathered(this->Controller, mine.Source);
    const std::vector<int64_t> target = AllGathered(this->Controller, mine.Target);
    const std::vector<double> traffic = AllGathered(this->Controller, mine.Traffic);
    const std::vector<int64_t> counts = AllGathered(this->Controller, mine.Messages);
    macroscope::CommunicationGraph all;
    all.Source = source;
    all.Target = target;
    all.Traffic = traffic;
    all.Messages = counts;
    graph = macroscope::LayoutCommunicationGraph(
      count, { all }, this->BaseConfiguration == COMMUNICATION_PATTERN);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("Topology-Time Scene: " << error.what());
    return 0;
  }
  if (this->BaseConfiguration == HIERARCHY_TREEMAP && this->TreemapSize == STATE_TIME)
  {
    std::vector<double> mine(count, 0.0);
    for (const auto& state : drawn)
    {
      // A caller's pieces outside its callees can lie wholly outside the
      // window: they add nothing (not a negative time).
      mine[state.Process] += std::max(0.0, std::min(state.End, t1) - std::max(state.Start, t0));
    }
    if (this->Controller && this->Controller->GetNumberOfProcesses() > 1)
    {
      this->Controller->AllReduce(mine.data(), sizes.data(), static_cast<vtkIdType>(count),
        vtkCommunicator::SUM_OP);
    }
    else
    {
      sizes = mine;
    }
  }
  // The base is laid out above from every process and message of the
  // window; the selection keeps the boxes and flights drawn over it.
  if (!keepLeaf.empty() || !keepType.empty())
  {
    std::vector<macroscope::SceneState> kept;
    std::vector<int64_t> keptRows;
    for (std::size_t i = 0; i < drawn.size(); ++i)
    {
      const auto& state = drawn[i];
      const bool typed = keepType.empty() ||
        (state.Type >= 0 && static_cast<std::size_t>(state.Type) < keepType.size() &&
          keepType[static_cast<std::size_t>(state.Type)]);
      if (typed && selectedProcess(static_cast<std::size_t>(state.Process)))
      {
        kept.push_back(state);
        keptRows.push_back(drawnRows[i]);
      }
    }
    drawn.swap(kept);
    drawnRows.swap(keptRows);
  }
  if (this->GetAbortExecute())
  {
    vtkWarningMacro("Topology-Time Scene aborted.");
    return 1;
  }
  this->UpdateProgress(0.24);

  // The base: where every process stands.
  std::vector<double> x, y;
  macroscope::NetworkTopology topology;
  std::vector<int64_t> host;
  macroscope::TreemapBase treemap;
  double hostSide = 0.0;
  try
  {
    if (this->BaseConfiguration == COMMUNICATION_PATTERN)
    {
      x = graph.X;
      y = graph.Y;
    }
    else if (network)
    {
      std::ifstream file(this->TopologyFile);
      std::stringstream text;
      text << file.rdbuf();
      if (!file)
      {
        vtkErrorMacro("Cannot read the TopologyFile '" << this->TopologyFile << "'.");
        return 0;
      }
      try
      {
        topology = macroscope::ParseNetworkTopology(text.str());
        host = macroscope::PlaceProcesses(processes.Paths, topology);
      }
      catch (const std::exception& error)
      {
        vtkErrorMacro("TopologyFile '" << this->TopologyFile << "': " << error.what());
        return 0;
      }
      // Processes sharing a host on a grid that fills under half the gap
      // to the nearest other node.
      std::map<int64_t, int> perHost;
      int most = 1;
      for (int64_t h : host)
      {
        most = std::max(most, ++perHost[h]);
      }
      const double gap = std::min(ClosestPair(topology.X, topology.Y), 0.25);
      const auto columns = std::ceil(std::sqrt(static_cast<double>(most)));
      const double spacing = 0.45 * gap / columns;
      hostSide = std::max(columns * spacing, 0.6 * spacing);
      const std::vector<double> offsets = macroscope::ProcessOffsets(host, spacing);
      for (std::size_t p = 0; p < count; ++p)
      {
        x.push_back(topology.X[host[p]] + offsets[2 * p]);
        y.push_back(topology.Y[host[p]] + offsets[2 * p + 1]);
      }
    }
    else
    {
      treemap = macroscope::LayoutTreemapBase(processes.Parent, processes.Node, sizes, 0.01);
      x = treemap.X;
      y = treemap.Y;
    }
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("Topology-Time Scene: the " << PlaneNames[this->BaseConfiguration]
                                              << " base cannot be laid out: " << error.what());
    return 0;
  }

  double boxSize = this->BoxSize;
  if (boxSize == 0.0)
  {
    boxSize = std::min(MaxAutoBox, 0.6 * ClosestPair(x, y));
  }
  // Edges no wider than half a box, so that they stay apart between close
  // processes.
  const double maxEdgeWidth = this->MaxEdgeWidth > 0.0 ? this->MaxEdgeWidth : 0.5 * boxSize;
  macroscope::SceneOptions options;
  options.WindowStart = t0;
  options.WindowEnd = t1;
  options.Offset = this->Offset;
  options.Scale = this->Scale > 0.0 ? this->Scale : FitHeight / (t1 - t0);
  options.BoxSize = boxSize;
  options.Ticks = this->Ticks;
  std::vector<macroscope::SceneMessage> flights;
  std::vector<std::size_t> flown; // the messages[] index of every flight
  if (this->ShowMessages)
  {
    for (std::size_t i = 0; i < messages.size(); ++i)
    {
      const auto& m = messages[i];
      if (selectedProcess(m.Sender) && selectedProcess(m.Receiver))
      {
        flights.push_back({ m.Sender, m.Receiver, m.SendTime, m.RecvTime });
        flown.push_back(i);
      }
    }
  }
  macroscope::TopologySceneGeometry scene;
  try
  {
    scene = macroscope::BuildTopologyScene(x, y, drawn, flights, options, within(0.24, 0.36));
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("Topology-Time Scene: " << error.what());
    return 0;
  }
  const double top = options.Offset + options.Scale * (t1 - t0);
  const double sceneBounds[6] = { std::min(AxisCorner, 0.0) - 0.02, 1.02,
    std::min(AxisCorner, 0.0) - 0.02, 1.02, std::min(0.0, options.Offset) - 0.01,
    std::max(top, options.Offset) };
  std::copy(sceneBounds, sceneBounds + 6, this->SceneBounds);
  // The boxes and segments are most of the work on a large window (two
  // thirds of it on 4M events, the stages above a ninth each).
  auto aborted = [this, &outputs]() {
    for (vtkPolyData* output : outputs)
    {
      output->Initialize(); // nothing half drawn
    }
    vtkWarningMacro("Topology-Time Scene aborted.");
    return 1;
  };
  if (this->GetAbortExecute())
  {
    return aborted();
  }
  this->UpdateProgress(0.36);

  // Output 0: a box per drawn state, 6 faces on 8 corners.
  MacroscopeChart::TypeLook look;
  look.Fill(trace.Types, typeColors);
  std::map<int, double> timeOfType; // for the legend: the types drawn, by time
  {
    Geometry boxes;
    auto typeIds = NamedArray<vtkIntArray>(schema::Type);
    auto locations = NamedArray<vtkIdTypeArray>(schema::Location);
    auto starts = NamedArray<vtkDoubleArray>(schema::Start);
    auto ends = NamedArray<vtkDoubleArray>(schema::End);
    auto durations = NamedArray<vtkDoubleArray>("Duration");
    auto rows = NamedArray<vtkIdTypeArray>("vtkOriginalCellIds");
    static constexpr int Faces[6][4] = { { 0, 3, 2, 1 }, { 4, 5, 6, 7 }, { 0, 1, 5, 4 },
      { 1, 2, 6, 5 }, { 2, 3, 7, 6 }, { 3, 0, 4, 7 } };
    macroscope::ProgressSpan span(report, 0.36, 0.9, scene.Boxes.size());
    for (std::size_t i = 0; i < scene.Boxes.size(); ++i)
    {
      if (!span.At(i))
      {
        return aborted();
      }
      const auto& box = scene.Boxes[i];
      const auto& b = box.Bounds;
      vtkIdType corner[8];
      for (int k = 0; k < 8; ++k)
      {
        corner[k] = boxes.Point(
          b[(k == 1 || k == 2 || k == 5 || k == 6) ? 1 : 0], b[(k % 4) >= 2 ? 3 : 2], b[k >= 4 ? 5 : 4]);
      }
      const auto& state = drawn[box.State];
      const RGB color = look.Color(static_cast<uint32_t>(box.Type));
      for (const auto& face : Faces)
      {
        const vtkIdType ids[4] = { corner[face[0]], corner[face[1]], corner[face[2]],
          corner[face[3]] };
        boxes.Polys->InsertNextCell(4, ids);
        boxes.Color(color);
        typeIds->InsertNextValue(box.Type);
        locations->InsertNextValue(box.Process);
        starts->InsertNextValue(std::max(state.Start, t0));
        ends->InsertNextValue(std::min(state.End, t1));
        durations->InsertNextValue(std::min(state.End, t1) - std::max(state.Start, t0));
        rows->InsertNextValue(drawnRows[box.State]);
      }
      timeOfType[box.Type] += std::min(state.End, t1) - std::max(state.Start, t0);
    }
    boxes.Into(outputs[STATES]);
    for (vtkAbstractArray* array : std::initializer_list<vtkAbstractArray*>{ typeIds, locations,
           starts, ends, durations, rows })
    {
      outputs[STATES]->GetCellData()->AddArray(array);
    }
    // A name per type id in the field data rather than per cell: a box has
    // six faces and a scene can hold millions.
    auto names = NamedArray<vtkStringArray>("TypeNames");
    for (const std::string& name : look.Names)
    {
      names->InsertNextValue(name);
    }
    outputs[STATES]->GetFieldData()->AddArray(names);
  }

  // Output 1: the messages' segments.
  {
    Geometry lines;
    auto senders = NamedArray<vtkIdTypeArray>(schema::Sender);
    auto receivers = NamedArray<vtkIdTypeArray>(schema::Receiver);
    auto sendTimes = NamedArray<vtkDoubleArray>(schema::SendTime);
    auto recvTimes = NamedArray<vtkDoubleArray>(schema::RecvTime);
    auto bytes = NamedArray<vtkDoubleArray>(schema::Bytes);
    auto clipped = NamedArray<vtkSignedCharArray>("Clipped");
    auto rows = NamedArray<vtkIdTypeArray>("vtkOriginalCellIds");
    macroscope::ProgressSpan span(report, 0.9, 0.98, scene.Segments.size(), 10);
    for (std::size_t i = 0; i < scene.Segments.size(); ++i)
    {
      if (!span.At(i))
      {
        return aborted();
      }
      const auto& segment = scene.Segments[i];
      const auto& m = messages[flown[segment.Message]];
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
      rows->InsertNextValue(messageRows[flown[segment.Message]]);
    }
    lines.Into(outputs[MESSAGES]);
    for (vtkAbstractArray* array : std::initializer_list<vtkAbstractArray*>{ senders, receivers,
           sendTimes, recvTimes, bytes, clipped, rows })
    {
      outputs[MESSAGES]->GetCellData()->AddArray(array);
    }
  }

  // The legend orders the types by their time in the whole scene, whose
  // boxes the ranks share: the times are summed over the ranks.
  std::vector<double> typeTime(look.Names.size(), 0.0);
  for (const auto& [type, time] : timeOfType)
  {
    if (type >= 0 && static_cast<std::size_t>(type) < typeTime.size())
    {
      typeTime[static_cast<std::size_t>(type)] += time;
    }
  }
  if (this->Controller && this->Controller->GetNumberOfProcesses() > 1 && !typeTime.empty())
  {
    std::vector<double> summed(typeTime.size(), 0.0);
    this->Controller->AllReduce(typeTime.data(), summed.data(),
      static_cast<vtkIdType>(typeTime.size()), vtkCommunicator::SUM_OP);
    typeTime.swap(summed);
  }
  timeOfType.clear();
  for (std::size_t type = 0; type < typeTime.size(); ++type)
  {
    if (typeTime[type] > 0.0)
    {
      timeOfType[static_cast<int>(type)] = typeTime[type];
    }
  }

  // Base, guides and labels are the same on every rank: rank 0 draws them.
  if (this->Controller && this->Controller->GetLocalProcessId() > 0)
  {
    return 1;
  }
  BaseCells base;
  MacroscopeChart::Labels labels;
  Geometry& cells = base.Cells;
  cells.Quad(AxisCorner, AxisCorner, 1.0 - AxisCorner, 1.0 - AxisCorner, -0.004, GroundColor);
  base.Tag("ground", "");
  if (network)
  {
    for (std::size_t l = 0; l < topology.Links(); ++l)
    {
      const double bandwidth = topology.Bandwidth[l];
      double widest = 0.0;
      for (double b : topology.Bandwidth)
      {
        widest = std::isfinite(b) ? std::max(widest, b) : widest;
      }
      const double width = 0.004 +
        (std::isfinite(bandwidth) && widest > 0.0 ? 0.5 * maxEdgeWidth * bandwidth / widest : 0.0);
      const auto a = topology.Source[l], b = topology.Target[l];
      Ribbon(cells, topology.X[a], topology.Y[a], topology.X[b], topology.Y[b], width, -0.003,
        LinkColor);
      base.Tag("link", topology.Names[a] + " -- " + topology.Names[b], NAN, 0, bandwidth,
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
      cells.Quad(topology.X[n] - half, topology.Y[n] - half, topology.X[n] + half,
        topology.Y[n] + half, -0.002, isHost[n] ? HostColor : SwitchColor);
      base.Tag(topology.Kinds[n].empty() ? (isHost[n] ? "host" : "node") : topology.Kinds[n],
        topology.Names[n]);
      labels.AddAt(topology.X[n] - half, topology.Y[n] - half, 0.0, topology.Names[n],
        MacroscopeChart::NODE_LABEL);
    }
  }
  else if (this->BaseConfiguration == HIERARCHY_TREEMAP)
  {
    // Processes are not named on a treemap; their parents neither when
    // they are processes holding threads: the names are the machines'.
    std::vector<char> isProcess(processes.Parent.size(), 0), holdsProcess(processes.Parent.size(), 0);
    for (int64_t node : processes.Node)
    {
      isProcess[node] = 1;
      if (processes.Parent[node] >= 0)
      {
        holdsProcess[processes.Parent[node]] = 1;
      }
    }
    for (std::size_t n = 0; n < processes.Parent.size(); ++n)
    {
      const auto& r = treemap.Layout.Rects[n];
      if (isProcess[n] || !(r.Area() > 0.0))
      {
        continue;
      }
      const int d = treemap.Layout.Depth[n];
      const auto shade = static_cast<unsigned char>(std::max(110, 215 - 25 * d));
      cells.Quad(r.X0, r.Y0, r.X1, r.Y1, -0.0035 + 0.0002 * std::min(d, 10),
        RGB{ { shade, shade, static_cast<unsigned char>(std::min(255, shade + 8)) } });
      base.Tag("treemap", processes.NodeNames[n], treemap.Layout.Size[n]);
      if (d > 0 && !holdsProcess[n])
      {
        labels.AddAt(r.X0, r.Y1, 0.0, processes.NodeNames[n], MacroscopeChart::NODE_LABEL);
      }
    }
  }
  if (this->BaseConfiguration == COMMUNICATION_PATTERN || this->ShowCommunicationGraph)
  {
    for (std::size_t e = 0; e < graph.Edges(); ++e)
    {
      const auto a = graph.Source[e], b = graph.Target[e];
      if (!selectedProcess(static_cast<std::size_t>(a)) || !selectedProcess(static_cast<std::size_t>(b)))
      {
        continue;
      }
      Ribbon(cells, x[a], y[a], x[b], y[b], 0.002 + maxEdgeWidth * graph.Width[e], -0.001,
        TrafficColor);
      base.Tag("traffic", processes.Paths[a].back() + " -- " + processes.Paths[b].back(),
        graph.Traffic[e], graph.Messages[e]);
    }
  }
  std::map<std::string, int> uses;
  for (const auto& path : processes.Paths)
  {
    ++uses[path.back()];
  }
  const double footprint = std::max(boxSize, 0.004) * 0.65;
  for (std::size_t p = 0; p < count; ++p)
  {
    if (!selectedProcess(p))
    {
      continue;
    }
    cells.Quad(x[p] - footprint, y[p] - footprint, x[p] + footprint, y[p] + footprint, -0.0005,
      ProcessColor);
    base.Tag("process", processes.Label(p, uses));
  }
  if (this->BaseConfiguration == COMMUNICATION_PATTERN)
  {
    // Process names where they do not pile up: the busiest processes first,
    // a label kept only clear of those kept. The base is seen tilted and in
    // perspective, so the box kept clear is generous: about twice a label's
    // width and height at the default camera.
    std::vector<double> lx, ly, traffic;
    std::vector<std::size_t> process;
    for (std::size_t p = 0; p < count; ++p)
    {
      if (selectedProcess(p))
      {
        process.push_back(p);
        lx.push_back(x[p]);
        ly.push_back(y[p]);
        traffic.push_back(0.0);
      }
    }
    std::vector<double> trafficOf(count, 0.0);
    for (std::size_t e = 0; e < graph.Edges(); ++e)
    {
      trafficOf[static_cast<std::size_t>(graph.Source[e])] += graph.Traffic[e];
      trafficOf[static_cast<std::size_t>(graph.Target[e])] += graph.Traffic[e];
    }
    for (std::size_t i = 0; i < process.size(); ++i)
    {
      traffic[i] = trafficOf[process[i]];
    }
    // Most traffic first: the representation places the names on screen
    // in this order of priority.
    std::vector<std::size_t> kept = macroscope::SpreadLabels(lx, ly, traffic, 0.3, 0.15);
    std::stable_sort(kept.begin(), kept.end(),
      [&traffic](std::size_t a, std::size_t b) { return traffic[a] > traffic[b]; });
    for (std::size_t i : kept)
    {
      const std::size_t p = process[i];
      labels.AddAt(x[p] + footprint, y[p] - footprint, 0.0, processes.Label(p, uses),
        MacroscopeChart::NODE_LABEL);
    }
  }
  base.Into(outputs[BASE]);

  // The time axis at the base's corner, its ticks and the window's planes.
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
  const std::string title = "Time (" + macroscope::SecondsUnit(std::max(std::abs(t0), std::abs(t1))) + ")";
  labels.AddAt(AxisCorner, AxisCorner, zEnd + 0.06 * (zEnd - zStart + 0.1), title,
    MacroscopeChart::AXIS_TITLE);
  guides.Into(outputs[GUIDES]);
  labels.Into(outputs[LABELS]);
  AddLegend(outputs[LABELS], timeOfType, look);
  this->UpdateProgress(1.0);
  return 1;
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
