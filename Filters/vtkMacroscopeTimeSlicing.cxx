#include "vtkMacroscopeTimeSlicing.h"

#include "MacroscopeModelPlan.h"
#include "MacroscopeNameList.h"

#include "MacroscopeCoreRun.h"
#include "MacroscopeTraceColumns.h"
#include "MacroscopeTraceInputs.h"
#include "ProgressSpan.h"
#include "ResourceHierarchy.h"
#include "ResourceSelection.h"
#include "TimeSlicing.h"
#include "TraceSchema.h"

#include "vtkCommunicator.h"
#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkImageData.h"
#include "vtkInformation.h"
#include "vtkInformationDataObjectMetaDataKey.h"
#include "vtkInformationVector.h"
#include "vtkIntArray.h"
#include "vtkMultiProcessController.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointData.h"
#include "vtkSmartPointer.h"
#include "vtkStreamingDemandDrivenPipeline.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkTree.h"
#include "vtkTypeInt64Array.h"
#include "vtkUnsignedCharArray.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

vtkStandardNewMacro(vtkMacroscopeTimeSlicing);

vtkCxxSetObjectMacro(vtkMacroscopeTimeSlicing, Controller, vtkMultiProcessController);

namespace
{
namespace schema = macroscope::schema;
using macroscope::SliceMetric;

const char* MetricNames[] = { "state duration", "event count", "variable mean",
  "bytes sent per second", "bytes received per second", "messages sent", "messages received" };

void SetExtents(vtkInformationVector* outputVector, int slices, const MacroscopeModelPlan& plan)
{
  int extent[6] = { 0, slices - 1, 0, static_cast<int>(plan.Resources.Resources) - 1, 0,
    plan.Planes() - 1 };
  for (int port = 0; port < 2; ++port)
  {
    extent[5] = port == 0 ? plan.Planes() - 1 : 0;
    vtkInformation* info = outputVector->GetInformationObject(port);
    info->Set(vtkStreamingDemandDrivenPipeline::WHOLE_EXTENT(), extent, 6);
    // Any extent can be cut from the model: every rank holds all of it.
    info->Set(vtkAlgorithm::CAN_PRODUCE_SUB_EXTENT(), 1);
  }
}

// Converted columns live here while the slicer reads them.
}

struct vtkMacroscopeTimeSlicing::KeptModel
{
  std::vector<double> Values; // the whole model, slice fastest
  int Slices = 0;
  int Resources = 0;
  int Planes = 0;
  double Origin = 0.0;
  double Width = 1.0;
  MacroscopeModelPlan Plan;
  vtkSmartPointer<vtkFieldData> Fields;
  vtkTimeStamp Built;
};

vtkMacroscopeTimeSlicing::vtkMacroscopeTimeSlicing()
  : Kept(new KeptModel)
{
  this->SetNumberOfInputPorts(1);
  this->SetNumberOfOutputPorts(2);
  this->SetController(vtkMultiProcessController::GetGlobalController());
}

vtkMacroscopeTimeSlicing::~vtkMacroscopeTimeSlicing()
{
  this->SetController(nullptr);
}

void vtkMacroscopeTimeSlicing::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Slices: " << this->Slices << "\n";
  os << indent << "TimeWindow: " << this->TimeWindow[0] << " " << this->TimeWindow[1] << "\n";
  os << indent << "Metric: " << this->Metric << "\n";
  os << indent << "Normalize: " << this->Normalize << "\n";
  os << indent << "Depth: " << this->Depth << "\n";
  os << indent << "ResourceLevel: " << this->ResourceLevel << "\n";
  MacroscopeNameList::Print(os, indent, "Resources", this->Resources);
  MacroscopeNameList::Print(os, indent, "Types", this->Types);
  os << indent << "Controller: " << this->Controller << "\n";
}

MACROSCOPE_RESOURCES_AND_TYPES(vtkMacroscopeTimeSlicing)

int vtkMacroscopeTimeSlicing::GetNumberOfResources() const
{
  return static_cast<int>(this->Resources.size());
}

const char* vtkMacroscopeTimeSlicing::GetResource(int index) const
{
  return index >= 0 && index < this->GetNumberOfResources() ? this->Resources[index].c_str()
                                                            : nullptr;
}

int vtkMacroscopeTimeSlicing::GetNumberOfTypes() const
{
  return static_cast<int>(this->Types.size());
}

const char* vtkMacroscopeTimeSlicing::GetType(int index) const
{
  return index >= 0 && index < this->GetNumberOfTypes() ? this->Types[index].c_str() : nullptr;
}

int vtkMacroscopeTimeSlicing::FillInputPortInformation(int, vtkInformation* info)
{
  MacroscopeTraceInputs::DeclareTracePort(info);
  return 1;
}

int vtkMacroscopeTimeSlicing::FillOutputPortInformation(int, vtkInformation* info)
{
  info->Set(vtkDataObject::DATA_TYPE_NAME(), "vtkImageData");
  return 1;
}

vtkTypeBool vtkMacroscopeTimeSlicing::ProcessRequest(
  vtkInformation* request, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  if (request->Has(vtkDemandDrivenPipeline::REQUEST_DATA()))
  {
    return this->RequestData(request, inputVector, outputVector);
  }
  if (request->Has(vtkDemandDrivenPipeline::REQUEST_INFORMATION()))
  {
    return this->RequestInformation(request, inputVector, outputVector);
  }
  if (request->Has(vtkStreamingDemandDrivenPipeline::REQUEST_UPDATE_EXTENT()))
  {
    // Whatever extent is asked downstream, rank i slices the i-th share of
    // the trace: the ranks' models then add up to the model, and any extent
    // is cut from it.
    MacroscopeTraceInputs::RequestRankPieces(inputVector[0], this->Controller);
    return 1;
  }
  return this->Superclass::ProcessRequest(request, inputVector, outputVector);
}

int vtkMacroscopeTimeSlicing::RequestInformation(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  // The reader's definitions travel as meta-data: the model's extent is
  // known before any event is read.
  vtkTree* tree = nullptr;
  vtkTable* types = nullptr;
  MacroscopeTraceInputs::FindDefinitions(this, inputVector[0], tree, types);
  return this->DescribeModel(tree, types, outputVector);
}

int vtkMacroscopeTimeSlicing::DescribeModel(
  vtkTree* tree, vtkTable* types, vtkInformationVector* outputVector)
{
  const char* kind = MacroscopeModelPlan::PlaneKind(this->Metric);
  if (!tree || (kind && !types) || this->Slices < 1)
  {
    return 1; // RequestData reports what is missing
  }
  MacroscopeModelPlan plan;
  std::string problem;
  if (!plan.Build(tree, types, this->Metric, this->ResourceLevel, this->Resources, problem) ||
    !plan.KeepTypes(types, this->Types, problem))
  {
    vtkErrorMacro(<< problem << ".");
    return 0;
  }
  SetExtents(outputVector, this->Slices, plan);

  // The time axis, when the window is known before the events: a window
  // end, or the trace's TimeBounds that readers put on the Types
  // definitions. Filters that play the slices as time steps need it here.
  double end = this->TimeWindow[1];
  auto* bounds = types
    ? vtkDataArray::SafeDownCast(types->GetFieldData()->GetAbstractArray("TimeBounds"))
    : nullptr;
  if (end == 0.0 && bounds && bounds->GetNumberOfComponents() == 2 &&
    bounds->GetNumberOfTuples() > 0)
  {
    end = bounds->GetComponent(0, 1);
  }
  const double begin = this->TimeWindow[0];
  for (int port = 0; port < 2; ++port)
  {
    vtkInformation* info = outputVector->GetInformationObject(port);
    if (end > begin && std::isfinite(begin) && std::isfinite(end) && begin >= 0.0)
    {
      info->Set(vtkDataObject::ORIGIN(), begin, 0.0, 0.0);
      info->Set(vtkDataObject::SPACING(), (end - begin) / this->Slices, 1.0, 1.0);
    }
    else
    {
      info->Remove(vtkDataObject::ORIGIN());
      info->Remove(vtkDataObject::SPACING());
    }
  }
  return 1;
}

// The rows of the metric's table as the core wants them; the type column
// mapped to the model's planes.
struct vtkMacroscopeTimeSlicing::SliceRows
{
  MacroscopeColumnStore Store;
  std::vector<uint32_t> Planes;
  macroscope::StateRows States;
  macroscope::PointRows Points;
  macroscope::MessageRows Messages;
  std::size_t Count = 0;

  // False when `rows` misses a column `metric` needs.
  bool Read(vtkTable* rows, int metric, const std::vector<uint32_t>& planeOfType)
  {
    MacroscopeColumnStore& store = this->Store;
    auto mapTypes = [&](const char* column) -> const uint32_t*
    {
      const uint32_t* ids = store.Ids32(rows, column);
      if (!ids)
      {
        return nullptr;
      }
      this->Planes.resize(static_cast<std::size_t>(rows->GetNumberOfRows()));
      for (std::size_t i = 0; i < this->Planes.size(); ++i)
      {
        this->Planes[i] = ids[i] < planeOfType.size() ? planeOfType[ids[i]] : UINT32_MAX;
      }
      // No rows: `ids` is valid for none, while an empty vector's data() may be null.
      return this->Planes.empty() ? ids : this->Planes.data();
    };
    const std::size_t count = static_cast<std::size_t>(rows->GetNumberOfRows());
    this->Count = count;
    macroscope::StateRows& states = this->States;
    macroscope::PointRows& points = this->Points;
    macroscope::MessageRows& messages = this->Messages;
    switch (metric)
    {
      case STATE_DURATION:
        states = { store.Ids32(rows, schema::Location), mapTypes(schema::Type),
          store.Ids32(rows, schema::Depth), store.Real(rows, schema::Start),
          store.Real(rows, schema::End), count };
        return states.Location && states.Type && states.Depth && states.Start && states.End;
      case EVENT_COUNT:
        points = { store.Ids32(rows, schema::Location), mapTypes(schema::Type),
          store.Real(rows, schema::Time), nullptr, count };
        return points.Location && points.Type && points.Time;
      case VARIABLE_MEAN:
        points = { store.Ids32(rows, schema::Location), mapTypes(schema::Variable),
          store.Real(rows, schema::Time), store.Real(rows, schema::Value), count };
        return points.Location && points.Type && points.Time && points.Value;
      default:
        messages = { store.Ids32(rows, schema::Sender), store.Ids32(rows, schema::Receiver),
          store.Real(rows, schema::SendTime), store.Real(rows, schema::RecvTime),
          store.Real(rows, schema::Bytes), count };
        return messages.Sender && messages.Receiver && messages.SendTime && messages.RecvTime &&
          messages.Bytes;
    }
  }
};

int vtkMacroscopeTimeSlicing::RequestData(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  // An abort stops the run it interrupts; VTK leaves the flag set, which
  // would abort every later run too (docs/progress.md).
  this->SetAbortExecute(0);
  // A request for another extent of an unchanged model is served from the
  // cache: only a real change recomputes, on every rank at once, so that
  // the ranks always meet in the collective calls below.
  bool fresh = this->IsModelCurrent();
  for (int i = 0; fresh && i < inputVector[0]->GetNumberOfInformationObjects(); ++i)
  {
    vtkDataObject* input =
      inputVector[0]->GetInformationObject(i)->Get(vtkDataObject::DATA_OBJECT());
    fresh = input && input->GetMTime() < this->Kept->Built.GetMTime();
  }
  if (fresh)
  {
    return this->WriteOutputs(outputVector);
  }
  MacroscopeTraceInputs trace;
  vtkTable* rows = this->CollectRows(inputVector[0], trace);
  if (!rows)
  {
    return 0;
  }
  if (this->Slices < 1)
  {
    vtkErrorMacro("Slices must be at least 1 (got " << this->Slices << ").");
    return 0;
  }
  // The trace is sliced with every type, so that the planes kept are those
  // of the whole model (a state's exclusive time does not depend on which
  // types are shown); the Types selection then keeps some planes.
  MacroscopeModelPlan plan;
  MacroscopeModelPlan selected;
  std::string problem;
  if (!plan.Build(trace.Hierarchy, trace.Types, this->Metric, this->ResourceLevel, this->Resources,
        problem) ||
    !(selected = plan).KeepTypes(trace.Types, this->Types, problem))
  {
    vtkErrorMacro(<< problem << ".");
    return 0;
  }
  // The window: the whole trace by default.
  double bounds[2];
  trace.TimeBounds(bounds, this->Controller);
  double begin = 0.0;
  double end = 0.0;
  if (!this->ResolveWindow(bounds, begin, end))
  {
    return 0;
  }
  macroscope::TimeSlicingOptions options;
  options.Grid = { begin, end, this->Slices };
  options.Metric = static_cast<SliceMetric>(this->Metric);
  options.Normalize = this->Normalize;
  options.Depth = this->Depth;
  options.Leaves = static_cast<uint32_t>(plan.Resources.ResourceOfLeaf.size());
  options.ResourceOfLeaf = plan.Resources.ResourceOfLeaf;
  options.Resources = plan.Resources.Resources;
  options.Types = MacroscopeModelPlan::PlaneKind(this->Metric)
    ? static_cast<uint32_t>(plan.TypeOfPlane.size())
    : 1;
  SliceRows sliced;
  if (!sliced.Read(rows, this->Metric, plan.PlaneOfType))
  {
    vtkErrorMacro("The input table misses a column the "
      << MetricNames[this->Metric] << " metric needs (see docs/architecture.md).");
    return 0;
  }
  this->UpdateProgress(0.05);
  // The slicing's share of the progress bar is its share of the work: rows
  // sliced against model cells written (twice: the model, its dominant
  // types), so that progress stays even on a model of millions of cells.
  const double count = static_cast<double>(sliced.Count);
  const double cellsWritten =
    2.0 * double(options.Grid.Slices) * double(options.Resources) * double(options.Types);
  const double slicedShare = std::min(0.9, std::max(0.1, count / (count + cellsWritten)));
  const double slicedUntil = 0.05 + 0.95 * slicedShare;
  options.Progress = [this, slicedUntil](double fraction)
  {
    this->UpdateProgress(0.05 + (slicedUntil - 0.05) * fraction);
    return !this->GetAbortExecute();
  };

  // Pieces: when every rank slices its own share of the locations, the sum
  // of the ranks' models is the model (a rank given the whole trace, as one
  // piece, already has it).
  macroscope::MicroscopicModel model;
  vtkMultiProcessController* controller = this->Controller;
  const bool parallel = MacroscopeTraceInputs::SplitOverRanks(inputVector[0], controller);
  const int status =
    MacroscopeRunCoreOnRanks<macroscope::TimeSlicingAborted>(this, "Time slicing failed", nullptr,
      controller, parallel, this->CheckModelMemory({ &options }) ? 1 : 0,
      [&]
      { model = macroscope::SliceTrace(options, sliced.States, sliced.Points, sliced.Messages); });
  if (status == -1)
  {
    return this->AbortOutputs(outputVector, "Time slicing aborted.");
  }
  if (status != 1)
  {
    return 0;
  }
  double rowsOfTrace = count;
  if (parallel)
  {
    std::vector<double> sum(model.Values.size());
    controller->AllReduce(
      model.Values.data(), sum.data(), static_cast<vtkIdType>(sum.size()), vtkCommunicator::SUM_OP);
    model.Values.swap(sum);
    const double mine = rowsOfTrace;
    controller->AllReduce(&mine, &rowsOfTrace, 1, vtkCommunicator::SUM_OP);
  }
  if (rowsOfTrace == 0.0)
  {
    this->WarnEmptyInput(bounds, begin, end);
  }
  KeepPlanes(model, plan, selected);
  this->KeepModel(model, selected, trace.Hierarchy, trace.Types, begin, end);
  return this->WriteOutputs(outputVector, slicedUntil);
}

vtkTable* vtkMacroscopeTimeSlicing::CollectRows(
  vtkInformationVector* inputs, MacroscopeTraceInputs& trace)
{
  std::string problem;
  if (!trace.CollectTrace(this, inputs, problem))
  {
    vtkErrorMacro(<< problem);
    return nullptr;
  }
  const char* kind = MacroscopeModelPlan::PlaneKind(this->Metric);
  if (this->Metric < STATE_DURATION || this->Metric > MESSAGES_RECEIVED)
  {
    vtkErrorMacro("Unknown Metric " << this->Metric << ".");
    return nullptr;
  }
  vtkTable* const tables[] = { trace.States, trace.Events, trace.Variables, trace.Messages };
  const char* const tableNames[] = { "States", "Events", "Variables", "Messages" };
  const int table = std::min(this->Metric, 3);
  vtkTable* rows = tables[table];
  if (!trace.Hierarchy || (kind && !trace.Types) || !rows)
  {
    vtkErrorMacro("The " << MetricNames[this->Metric]
                         << " metric needs the trace reader's Hierarchy" << (kind ? ", Types" : "")
                         << " and " << tableNames[table] << " outputs as inputs ("
                         << trace.Describe() << ").");
    return nullptr;
  }
  return rows;
}

void vtkMacroscopeTimeSlicing::WarnEmptyInput(const double bounds[2], double begin, double end)
{
  // Empty tables are well formed: the model is all zeros, and the reason
  // is said here rather than left for a puzzled user downstream.
  static const char* const rowNames[] = { "state", "event", "variable sample", "message", "message",
    "message", "message" };
  static const char* const tableNames[] = { "States", "Events", "Variables", "Messages", "Messages",
    "Messages", "Messages" };
  vtkWarningMacro("No " << rowNames[this->Metric] << " in the window: the "
                        << tableNames[this->Metric] << " input holds no row, so the model of "
                        << begin << " s to " << end << " s is all zeros. The trace spans "
                        << bounds[0] << " s to " << bounds[1]
                        << " s: a reader TimeWindow outside it, or a Locations or Regions "
                           "selection, leaves nothing to slice.");
}

void vtkMacroscopeTimeSlicing::KeepPlanes(macroscope::MicroscopicModel& model,
  const MacroscopeModelPlan& plan, const MacroscopeModelPlan& selected)
{
  if (selected.TypeOfPlane.size() == plan.TypeOfPlane.size())
  {
    return;
  }
  const std::size_t block = static_cast<std::size_t>(model.Grid.Slices) * model.Resources;
  std::vector<double> kept;
  kept.reserve(block * selected.TypeOfPlane.size());
  for (vtkIdType type : selected.TypeOfPlane)
  {
    const auto from = model.Values.begin() +
      static_cast<std::ptrdiff_t>(block * plan.PlaneOfType[static_cast<std::size_t>(type)]);
    kept.insert(kept.end(), from, from + static_cast<std::ptrdiff_t>(block));
  }
  model.Values.swap(kept);
  model.Types = static_cast<uint32_t>(selected.TypeOfPlane.size());
}

bool vtkMacroscopeTimeSlicing::IsModelCurrent() const
{
  return this->Kept->Built.GetMTime() > 0 &&
    const_cast<vtkMacroscopeTimeSlicing*>(this)->GetMTime() < this->Kept->Built.GetMTime();
}

namespace
{
// A model from which the aggregations stop being interactive: 10^6 cells are
// e.g. 1000 slices x 50 resources x 20 types, whose spatiotemporal
// qualities alone need 2 GB.
constexpr double LargeModelCells = 1e6;
}

bool vtkMacroscopeTimeSlicing::CheckModelMemory(
  const std::vector<const macroscope::TimeSlicingOptions*>& models)
{
  // The kept model and the output image each hold every cell.
  constexpr int Copies = 2;
  const uint64_t available = macroscope::AvailableMemoryBytes();
  for (const macroscope::TimeSlicingOptions* options : models)
  {
    // options->Types is already 1 for the message metrics' single plane.
    const macroscope::ModelMemory need =
      macroscope::ModelMemoryNeed(options->Grid.Slices, options->Resources, options->Types, Copies);
    const std::string problem = macroscope::ModelMemoryProblem(
      options->Grid.Slices, options->Resources, options->Types, need, available);
    if (!problem.empty())
    {
      vtkErrorMacro("Time slicing cannot build the model: " << problem << ".");
      return false;
    }
  }
  // The model asked for (the first; a cached fine model is not aggregated)
  // feeds the aggregations, whose qualities grow as slices^2 x resources:
  // say so before a model that makes them slow is built.
  const macroscope::TimeSlicingOptions& asked = *models.front();
  const double cells = double(asked.Grid.Slices) * asked.Resources * asked.Types;
  if (cells >= LargeModelCells)
  {
    // Spatiotemporal: 41 B per hierarchy node (about 2 per resource) and
    // interval of slices (docs/performance.md, "scale in slices").
    const double slices = asked.Grid.Slices;
    const double spatiotemporalGB =
      41.0 * 2.0 * asked.Resources * slices * (slices + 1) / 2 / (1 << 30);
    vtkWarningMacro("The model will have "
      << cells << " cells (" << asked.Grid.Slices << " slices x " << asked.Resources
      << " resources x " << asked.Types
      << " types): an aggregation of it may take minutes (Spatiotemporal Aggregation needs about "
      << spatiotemporalGB << " GB for its qualities). Fewer Slices or a coarser ResourceLevel "
      << "keep the overviews interactive.");
  }
  return true;
}

bool vtkMacroscopeTimeSlicing::ResolveWindow(const double bounds[2], double& begin, double& end)
{
  std::copy(bounds, bounds + 2, this->TraceSpan);
  begin = this->TimeWindow[0];
  end = this->TimeWindow[1] == 0.0 ? bounds[1] : this->TimeWindow[1];
  if (!(end > begin) || !std::isfinite(begin) || !std::isfinite(end) || begin < 0.0)
  {
    vtkErrorMacro("TimeWindow (" << this->TimeWindow[0] << ", " << this->TimeWindow[1]
                                 << ") is not a window of the trace [" << bounds[0] << ", "
                                 << bounds[1]
                                 << "] s: it needs 0 <= start < end (an end of 0 "
                                    "means the trace end).");
    return false;
  }
  if (begin >= bounds[1] && bounds[1] > bounds[0])
  {
    vtkErrorMacro(
      "TimeWindow starts at " << begin << " s, after the trace ends (" << bounds[1] << " s).");
    return false;
  }
  return true;
}

void vtkMacroscopeTimeSlicing::KeepModel(macroscope::MicroscopicModel& model,
  const MacroscopeModelPlan& plan, vtkTree* tree, vtkTable* types, double begin, double end)
{
  // Keep the whole model; the outputs are cut from it.
  KeptModel& cache = *this->Kept;
  cache.Values.swap(model.Values);
  cache.Slices = this->Slices;
  cache.Resources = static_cast<int>(model.Resources);
  cache.Planes = static_cast<int>(model.Types);
  cache.Origin = begin;
  cache.Width = model.Grid.Width();
  cache.Fields = vtkSmartPointer<vtkFieldData>::New();
  vtkFieldData* fields = cache.Fields;
  const int planeCount = cache.Planes;
  const macroscope::ResourceHierarchy& resources = plan.Resources;
  const char* kind = MacroscopeModelPlan::PlaneKind(this->Metric);
  vtkStringArray* typeNames =
    kind ? vtkStringArray::SafeDownCast(types->GetColumnByName(schema::Name)) : nullptr;
  vtkStringArray* vertexNames =
    vtkStringArray::SafeDownCast(tree->GetVertexData()->GetAbstractArray(schema::Name));
  vtkStringArray* vertexKinds =
    vtkStringArray::SafeDownCast(tree->GetVertexData()->GetAbstractArray(schema::Kind));
  vtkNew<vtkStringArray> nodeNames;
  nodeNames->SetName("NodeName");
  vtkNew<vtkStringArray> nodeKinds;
  nodeKinds->SetName("NodeKind");
  vtkNew<vtkTypeInt64Array> nodeParents;
  nodeParents->SetName("NodeParent");
  for (std::size_t n = 0; n < resources.Parent.size(); ++n)
  {
    const vtkIdType vertex = static_cast<vtkIdType>(resources.Vertex[n]);
    nodeNames->InsertNextValue(
      vertexNames ? vertexNames->GetValue(vertex) : std::to_string(vertex));
    nodeKinds->InsertNextValue(vertexKinds ? vertexKinds->GetValue(vertex) : "");
    nodeParents->InsertNextValue(resources.Parent[n]);
  }
  fields->AddArray(nodeNames);
  fields->AddArray(nodeKinds);
  fields->AddArray(nodeParents);

  vtkNew<vtkStringArray> planeNames;
  planeNames->SetName("TypeName");
  vtkNew<vtkTypeInt64Array> planeIds;
  planeIds->SetName("TypeId");
  vtkNew<vtkUnsignedCharArray> planeColors;
  planeColors->SetName("TypeColor");
  planeColors->SetNumberOfComponents(3);
  vtkDataArray* typeColors =
    kind ? vtkDataArray::SafeDownCast(types->GetColumnByName(schema::Color)) : nullptr;
  for (int u = 0; u < planeCount; ++u)
  {
    const vtkIdType type = kind ? plan.TypeOfPlane[u] : -1;
    planeNames->InsertNextValue(kind ? typeNames->GetValue(type) : "messages");
    planeIds->InsertNextValue(type);
    unsigned char rgb[3] = { 128, 128, 128 };
    if (typeColors && typeColors->GetNumberOfComponents() == 3)
    {
      for (int c = 0; c < 3; ++c)
      {
        rgb[c] = static_cast<unsigned char>(typeColors->GetComponent(type, c));
      }
    }
    planeColors->InsertNextTypedTuple(rgb);
  }
  fields->AddArray(planeNames);
  fields->AddArray(planeIds);
  fields->AddArray(planeColors);

  vtkNew<vtkStringArray> metric;
  metric->SetName("Metric");
  metric->InsertNextValue(MetricNames[this->Metric]);
  fields->AddArray(metric);
  // Whether values add up over time (durations, counts) or are rates and
  // means, which a longer window averages instead.
  vtkNew<vtkIntArray> extensive;
  extensive->SetName("Extensive");
  extensive->InsertNextValue((this->Metric == STATE_DURATION && !this->Normalize) ||
    this->Metric == EVENT_COUNT || this->Metric == MESSAGES_SENT ||
    this->Metric == MESSAGES_RECEIVED);
  fields->AddArray(extensive);
  vtkNew<vtkDoubleArray> width;
  width->SetName("SliceWidth");
  width->InsertNextValue(model.Grid.Width());
  fields->AddArray(width);
  vtkNew<vtkDoubleArray> window;
  window->SetName("TimeWindow");
  window->SetNumberOfComponents(2);
  window->InsertNextTuple2(begin, end);
  fields->AddArray(window);
  // The trace's span, within which the mouse zooms and pans this window
  // from an overview (docs/views.md).
  vtkNew<vtkDoubleArray> span;
  span->SetName("TraceSpan");
  span->SetNumberOfComponents(2);
  span->InsertNextTuple(this->TraceSpan);
  fields->AddArray(span);
  // What part of the system the model shows: the Resources names, none
  // for all of it.
  vtkNew<vtkStringArray> selection;
  selection->SetName("ResourceSelection");
  for (const std::string& name : this->Resources)
  {
    selection->InsertNextValue(name);
  }
  fields->AddArray(selection);
  // The Types names, none for every type.
  vtkNew<vtkStringArray> typeSelection;
  typeSelection->SetName("TypeSelection");
  for (const std::string& name : this->Types)
  {
    typeSelection->InsertNextValue(name);
  }
  fields->AddArray(typeSelection);

  cache.Plan = plan;
  cache.Built.Modified();
}

vtkFieldData* vtkMacroscopeTimeSlicing::GetModelFields()
{
  return this->Kept->Fields;
}

int vtkMacroscopeTimeSlicing::WriteOutputs(vtkInformationVector* outputVector, double progressFrom)
{
  const KeptModel& cache = *this->Kept;
  SetExtents(outputVector, cache.Slices, cache.Plan);
  const int whole[6] = { 0, cache.Slices - 1, 0, cache.Resources - 1, 0, cache.Planes - 1 };
  const vtkIdType cells = static_cast<vtkIdType>(cache.Slices) * cache.Resources;

  // The extent a port was asked for, within the model (all of it if none).
  auto requested = [&whole, outputVector](int port, int extent[6])
  {
    std::copy(whole, whole + 6, extent);
    if (port == 1)
    {
      extent[4] = extent[5] = 0;
    }
    vtkInformation* info = outputVector->GetInformationObject(port);
    if (info->Has(vtkStreamingDemandDrivenPipeline::UPDATE_EXTENT()))
    {
      int asked[6];
      info->Get(vtkStreamingDemandDrivenPipeline::UPDATE_EXTENT(), asked);
      for (int axis = 0; axis < 3; ++axis)
      {
        extent[2 * axis] = std::max(extent[2 * axis], asked[2 * axis]);
        extent[2 * axis + 1] = std::min(extent[2 * axis + 1], asked[2 * axis + 1]);
      }
    }
  };
  auto prepare = [&cache](vtkImageData* image, const int extent[6])
  {
    image->Initialize();
    image->SetOrigin(cache.Origin, 0.0, 0.0);
    image->SetSpacing(cache.Width, 1.0, 1.0);
    image->SetExtent(const_cast<int*>(extent));
    image->GetFieldData()->ShallowCopy(cache.Fields);
  };

  // Output 0: the model.
  int extent[6];
  requested(0, extent);
  vtkImageData* image = vtkImageData::GetData(outputVector, 0);
  prepare(image, extent);
  vtkNew<vtkDoubleArray> values;
  values->SetName("Value");
  values->SetNumberOfValues(image->GetNumberOfPoints());
  vtkIdType point = 0;
  // Half the writing goes to each output. An abort leaves both outputs
  // empty; the model is kept, so the next run only writes them.
  const std::function<bool(double)> report = [this](double fraction)
  {
    this->UpdateProgress(fraction);
    return !this->GetAbortExecute();
  };
  auto aborted = [this, outputVector]()
  {
    return this->AbortOutputs(outputVector, "Time slicing aborted while its outputs were written.");
  };
  const double middle = 0.5 * (progressFrom + 1.0);
  const std::size_t rows = static_cast<std::size_t>(extent[3] - extent[2] + 1);
  macroscope::ProgressSpan modelSpan(
    report, progressFrom, middle, rows * static_cast<std::size_t>(extent[5] - extent[4] + 1));
  std::size_t row = 0;
  for (int u = extent[4]; u <= extent[5]; ++u)
  {
    for (int r = extent[2]; r <= extent[3]; ++r)
    {
      if (!modelSpan.At(row++))
      {
        return aborted();
      }
      for (int t = extent[0]; t <= extent[1]; ++t)
      {
        values->SetValue(point++,
          cache.Values[static_cast<std::size_t>(
            t + cache.Slices * (r + static_cast<vtkIdType>(cache.Resources) * u))]);
      }
    }
  }
  image->GetPointData()->SetScalars(values);

  // Output 1: the dominant type of every cell, with its share and the total.
  requested(1, extent);
  vtkImageData* mode = vtkImageData::GetData(outputVector, 1);
  prepare(mode, extent);
  const vtkIdType points = mode->GetNumberOfPoints();
  vtkNew<vtkIntArray> dominant;
  dominant->SetName("DominantType");
  dominant->SetNumberOfValues(points);
  vtkNew<vtkDoubleArray> share;
  share->SetName("DominantShare");
  share->SetNumberOfValues(points);
  vtkNew<vtkDoubleArray> total;
  total->SetName("Total");
  total->SetNumberOfValues(points);
  point = 0;
  macroscope::ProgressSpan modeSpan(
    report, middle, 1.0, static_cast<std::size_t>(extent[3] - extent[2] + 1));
  for (int r = extent[2]; r <= extent[3]; ++r)
  {
    if (!modeSpan.At(static_cast<std::size_t>(r - extent[2])))
    {
      return aborted();
    }
    for (int t = extent[0]; t <= extent[1]; ++t)
    {
      const vtkIdType cell = t + static_cast<vtkIdType>(cache.Slices) * r;
      double sum = 0.0;
      double best = 0.0;
      int bestPlane = -1;
      for (int u = 0; u < cache.Planes; ++u)
      {
        const double v = cache.Values[static_cast<std::size_t>(cell + cells * u)];
        sum += v;
        if (v > best)
        {
          best = v;
          bestPlane = u;
        }
      }
      dominant->SetValue(point, bestPlane);
      share->SetValue(point, sum > 0.0 ? best / sum : 0.0);
      total->SetValue(point, sum);
      ++point;
    }
  }
  mode->GetPointData()->SetScalars(dominant);
  mode->GetPointData()->AddArray(share);
  mode->GetPointData()->AddArray(total);
  this->UpdateProgress(1.0);
  return 1;
}

int vtkMacroscopeTimeSlicing::AbortOutputs(
  vtkInformationVector* outputVector, const std::string& message)
{
  for (int port = 0; port < 2; ++port)
  {
    vtkInformation* info = outputVector->GetInformationObject(port);
    vtkImageData* image = vtkImageData::GetData(info);
    image->Initialize();
    if (info->Has(vtkStreamingDemandDrivenPipeline::UPDATE_EXTENT()))
    {
      int extent[6];
      info->Get(vtkStreamingDemandDrivenPipeline::UPDATE_EXTENT(), extent);
      image->SetExtent(extent);
    }
  }
  vtkWarningMacro(<< message);
  return 1;
}
