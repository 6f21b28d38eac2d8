#include "vtkMacroscopeLogicalTime.h"

#include "MacroscopeColumnRanges.h"

#include "ClockOffsets.h"
#include "LogicalClustering.h"
#include "LogicalPhaseClusters.h"
#include "LogicalTime.h"
#include "MacroscopeCoreRun.h"
#include "MacroscopeTraceColumns.h"
#include "MacroscopeTraceInputs.h"
#include "MpiRegions.h"
#include "TraceSchema.h"
#include "TypePalette.h"

#include "vtkCommunicator.h"
#include "vtkDataSetAttributes.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkIdTypeArray.h"
#include "vtkInformation.h"
#include "vtkInformationDataObjectMetaDataKey.h"
#include "vtkInformationVector.h"
#include "vtkIntArray.h"
#include "vtkMacroscopeTraceKeys.h"
#include "vtkMultiProcessController.h"
#include "vtkMutableDirectedGraph.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkSmartPointer.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkTree.h"
#include "vtkTypeInt64Array.h"
#include "vtkUnsignedCharArray.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

vtkStandardNewMacro(vtkMacroscopeLogicalTime);

vtkCxxSetObjectMacro(vtkMacroscopeLogicalTime, Controller, vtkMultiProcessController);

namespace
{
namespace schema = macroscope::schema;
namespace logical = macroscope::logical;

// The OTF2 reader's event type of a collective's end, one per participant.
constexpr const char* CollectiveEndType = "MpiCollectiveEnd";

// The variables of the Logical Variables output, in type-id order.
// Ids 0 and 1 are the global metrics (Isaacs et al. 2014 (Ravel)), 2 and 3
// the same measured within each phase; the order keeps old pipelines' ids.
constexpr const char* LogicalVariableNames[] = { "Lateness", "Differential Lateness",
  "Phase Lateness", "Phase Differential Lateness" };
constexpr int LogicalVariableCount =
  static_cast<int>(sizeof(LogicalVariableNames) / sizeof(LogicalVariableNames[0]));

// The value of logical variable `variable` (LogicalVariableNames) at event `row`.
double LogicalVariableOf(const logical::LogicalEvents& events, std::size_t row, int variable)
{
  switch (variable)
  {
    case 1:
      return events.DifferentialLateness[row];
    case 2:
      return events.PhaseLateness[row];
    case 3:
      return events.PhaseDifferentialLateness[row];
    default:
      return events.Lateness[row];
  }
}

// Copies `values` of every rank to rank 0, appended in rank order; the
// other ranks' vectors are left as they were. Every rank must call it.
template <typename T>
void GatherOnRoot(vtkMultiProcessController* controller, std::vector<T>& values)
{
  const int ranks = controller->GetNumberOfProcesses();
  const int me = controller->GetLocalProcessId();
  vtkIdType mine = static_cast<vtkIdType>(values.size());
  std::vector<vtkIdType> lengths(static_cast<std::size_t>(ranks), 0);
  controller->Gather(&mine, lengths.data(), 1, 0);
  std::vector<vtkIdType> offsets(static_cast<std::size_t>(ranks), 0);
  std::vector<T> all;
  if (me == 0)
  {
    for (int r = 1; r < ranks; ++r)
    {
      offsets[r] = offsets[r - 1] + lengths[r - 1];
    }
    all.resize(static_cast<std::size_t>(offsets.back() + lengths.back()));
  }
  controller->GatherV(values.data(), all.data(), mine, lengths.data(), offsets.data(), 0);
  if (me == 0)
  {
    values.swap(all);
  }
}

/// The share of the progress bar for copying the input columns.
constexpr double ReadShare = 0.05;

// Copies a numeric column into `out`, converting; false when it is missing.
template <typename T>
bool ReadColumn(vtkTable* table, const char* name, std::vector<T>& out)
{
  std::vector<T> storage;
  const vtkIdType rows = table->GetNumberOfRows();
  const T* data = MacroscopeContiguous<T>(table->GetColumnByName(name), storage);
  if (!data)
  {
    return false;
  }
  out.assign(data, data + rows);
  return true;
}

double MetricOf(const logical::LogicalEvents& events, std::size_t row, int metric)
{
  switch (metric)
  {
    case vtkMacroscopeLogicalTime::DIFFERENTIAL_LATENESS:
      return events.DifferentialLateness[row];
    case vtkMacroscopeLogicalTime::EXIT_TIME:
      return events.Exit[row];
    case vtkMacroscopeLogicalTime::ENTER_TIME:
      return events.Enter[row];
    case vtkMacroscopeLogicalTime::DURATION:
      return events.Exit[row] - events.Enter[row];
    case vtkMacroscopeLogicalTime::PHASE_LATENESS:
      return events.PhaseLateness[row];
    case vtkMacroscopeLogicalTime::PHASE_DIFFERENTIAL_LATENESS:
      return events.PhaseDifferentialLateness[row];
    default:
      return events.Lateness[row];
  }
}

// The Types of the Logical Variables output: one variable per metric.
vtkSmartPointer<vtkTable> NewLogicalTypes()
{
  auto table = vtkSmartPointer<vtkTable>::New();
  auto* id = MacroscopeNewColumn<vtkIntArray>(table, schema::Id);
  auto* name = MacroscopeNewColumn<vtkStringArray>(table, schema::Name);
  auto* kind = MacroscopeNewColumn<vtkStringArray>(table, schema::Kind);
  auto* color = MacroscopeNewColumn<vtkUnsignedCharArray>(table, schema::Color, 3);
  int row = 0;
  for (const char* variableName : LogicalVariableNames)
  {
    id->InsertNextValue(row++);
    name->InsertNextValue(variableName);
    kind->InsertNextValue(schema::VariableKind);
    const macroscope::RGB rgb = macroscope::TypePalette::ColorOf(variableName);
    color->InsertNextTypedTuple(rgb.data());
  }
  return table;
}

// The label of every leaf: its process's name for a process's first
// location (an MPI rank's master thread), else "process / location".
std::vector<std::string> LeafLabels(vtkTree* tree, uint32_t leaves)
{
  std::vector<std::string> labels(leaves);
  auto* names = vtkStringArray::SafeDownCast(tree->GetVertexData()->GetAbstractArray(schema::Name));
  auto* kinds = vtkStringArray::SafeDownCast(tree->GetVertexData()->GetAbstractArray(schema::Kind));
  auto* leafIndex =
    vtkDataArray::SafeDownCast(tree->GetVertexData()->GetAbstractArray(schema::LeafIndex));
  if (!names || !leafIndex)
  {
    for (uint32_t i = 0; i < leaves; ++i)
    {
      labels[i] = std::to_string(i);
    }
    return labels;
  }
  for (vtkIdType v = 0; v < tree->GetNumberOfVertices(); ++v)
  {
    const auto leaf = static_cast<int64_t>(leafIndex->GetComponent(v, 0));
    if (leaf < 0 || leaf >= static_cast<int64_t>(leaves))
    {
      continue;
    }
    std::string label = names->GetValue(v);
    const vtkIdType parent = tree->GetParent(v);
    if (parent >= 0 && kinds && kinds->GetValue(parent) == "process")
    {
      label = tree->GetChild(parent, 0) == v ? names->GetValue(parent)
                                             : names->GetValue(parent) + " / " + label;
    }
    labels[static_cast<std::size_t>(leaf)] = label;
  }
  return labels;
}

// The trace file the inputs come from: the TRACE_FILE key of the nearest
// producer upstream that has one (ParaView puts a post-filter between a
// reader and its consumers, whose information does not carry it).
std::string TraceFileUpstream(vtkAlgorithm* consumer)
{
  for (int i = 0; i < consumer->GetNumberOfInputConnections(0); ++i)
  {
    int port = 0;
    vtkAlgorithm* producer = consumer->GetInputAlgorithm(0, i, port);
    for (int hops = 0; producer && hops < 16; ++hops)
    {
      vtkInformation* info = producer->GetOutputInformation(port);
      if (info && info->Has(vtkMacroscopeTraceKeys::TRACE_FILE()))
      {
        return std::string("'") + info->Get(vtkMacroscopeTraceKeys::TRACE_FILE()) + "'";
      }
      producer =
        producer->GetNumberOfInputPorts() > 0 && producer->GetNumberOfInputConnections(0) > 0
        ? producer->GetInputAlgorithm(0, 0, port)
        : nullptr;
    }
  }
  return "the trace";
}

// Unsynchronised clocks (CorrectClocks): per location the offset
// subtracted, messages received before sent (before, after), the text.
struct ClockOutcome
{
  std::vector<double> ClockOffset;
  uint64_t ClockViolations[2] = { 0, 0 };
  std::string ClockReport;
};
}

struct vtkMacroscopeLogicalTime::Internals
{
  std::vector<double> PhaseBoundaries;
  // Rebuilding the logical trace is the expensive part: it depends on the
  // inputs and on the phase options only, so a metric or clustering change
  // reuses it.
  vtkTimeStamp StructureModified;
  vtkTimeStamp Built;
  bool HaveTrace = false;
  logical::LogicalTrace Trace;
  std::vector<std::string> LeafNames;
  std::vector<int32_t> MessageSender, MessageReceiver;
  std::vector<double> MessageSendTime, MessageRecvTime;
  vtkTimeStamp OutputsBuilt;
  vtkSmartPointer<vtkDataObject> Outputs[NUMBER_OF_OUTPUTS];
  // The properties the logical trace was built with (StructureKey).
  std::string BuiltStructure;
  ClockOutcome Clocks;
  // The trace file (TraceFileUpstream), for messages.
  std::string TraceName = "the trace";
};

vtkMacroscopeLogicalTime::vtkMacroscopeLogicalTime()
  : Internal(new Internals)
{
  this->SetNumberOfInputPorts(1);
  this->SetNumberOfOutputPorts(NUMBER_OF_OUTPUTS);
  this->SetController(vtkMultiProcessController::GetGlobalController());
  this->Internal->StructureModified.Modified();
}

vtkMacroscopeLogicalTime::~vtkMacroscopeLogicalTime()
{
  this->SetController(nullptr);
}

const char* vtkMacroscopeLogicalTime::GetMetricName(int metric)
{
  switch (metric)
  {
    case LATENESS:
      return "Lateness";
    case DIFFERENTIAL_LATENESS:
      return "Differential Lateness";
    case EXIT_TIME:
      return "Exit Time";
    case ENTER_TIME:
      return "Enter Time";
    case DURATION:
      return "Duration";
    case PHASE_LATENESS:
      return "Phase Lateness";
    case PHASE_DIFFERENTIAL_LATENESS:
      return "Phase Differential Lateness";
    default:
      return "unknown";
  }
}

void vtkMacroscopeLogicalTime::SetNumberOfPhaseBoundaries(int count)
{
  const std::size_t size = static_cast<std::size_t>(std::max(0, count));
  if (size != this->Internal->PhaseBoundaries.size())
  {
    this->Internal->PhaseBoundaries.resize(size, 0.0);
    this->Internal->StructureModified.Modified();
    this->Modified();
  }
}

void vtkMacroscopeLogicalTime::SetPhaseBoundary(int index, double time)
{
  auto& boundaries = this->Internal->PhaseBoundaries;
  if (index < 0)
  {
    return;
  }
  if (static_cast<std::size_t>(index) >= boundaries.size())
  {
    boundaries.resize(static_cast<std::size_t>(index) + 1, 0.0);
  }
  else if (boundaries[static_cast<std::size_t>(index)] == time)
  {
    return;
  }
  boundaries[static_cast<std::size_t>(index)] = time;
  this->Internal->StructureModified.Modified();
  this->Modified();
}

void vtkMacroscopeLogicalTime::RemoveAllPhaseBoundaries()
{
  this->SetNumberOfPhaseBoundaries(0);
}

int vtkMacroscopeLogicalTime::GetNumberOfPhaseBoundaries() const
{
  return static_cast<int>(this->Internal->PhaseBoundaries.size());
}

double vtkMacroscopeLogicalTime::GetPhaseBoundary(int index) const
{
  const auto& boundaries = this->Internal->PhaseBoundaries;
  return index >= 0 && static_cast<std::size_t>(index) < boundaries.size()
    ? boundaries[static_cast<std::size_t>(index)]
    : 0.0;
}

// It changes the logical trace itself, not only its outputs: a plain
// Modified() would reuse the trace built with the old value (the other
// properties that do are in StructureKey).
void vtkMacroscopeLogicalTime::SetCoalesceIsends(bool coalesce)
{
  if (coalesce != this->CoalesceIsends)
  {
    this->CoalesceIsends = coalesce;
    this->Internal->StructureModified.Modified();
    this->Modified();
  }
}

void vtkMacroscopeLogicalTime::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "PhaseBoundaries:";
  for (double b : this->Internal->PhaseBoundaries)
  {
    os << " " << b;
  }
  os << "\n";
  os << indent << "MergeByEnclosingCall: " << this->MergeByEnclosingCall << "\n";
  os << indent << "Metric: " << GetMetricName(this->Metric) << "\n";
  os << indent << "Clustering: " << this->Clustering << "\n";
  os << indent << "ClaraClusters: " << this->ClaraClusters << "\n";
  os << indent << "ClaraSamples: " << this->ClaraSamples << "\n";
  os << indent << "RandomSeed: " << this->RandomSeed << "\n";
  os << indent << "Clusters: " << this->Clusters << "\n";
  os << indent << "StepWindow: " << this->StepWindow[0] << " " << this->StepWindow[1] << "\n";
  os << indent << "TimeWindow: " << this->TimeWindow[0] << " " << this->TimeWindow[1] << "\n";
  os << indent << "TimeWindowOfSteps: " << this->TimeWindowOfSteps[0] << " "
     << this->TimeWindowOfSteps[1] << "\n";
  os << indent << "StepsOfTimeWindow: " << this->StepsOfTimeWindow[0] << " "
     << this->StepsOfTimeWindow[1] << "\n";
  os << indent << "Controller: " << this->Controller << "\n";
  os << indent << "CoalesceIsends: " << this->CoalesceIsends << "\n";
  os << indent << "MergeDepth: " << this->MergeDepth << "\n";
  os << indent << "CollectiveBoundaries: " << this->CollectiveBoundaries << "\n";
  os << indent << "BoundaryCollective: " << this->BoundaryCollective << "\n";
  os << indent << "ClockCorrection: " << this->ClockCorrection << "\n";
}

std::string vtkMacroscopeLogicalTime::StructureKey() const
{
  // Phase boundaries have their own time stamp (StructureModified).
  return std::to_string(this->MergeByEnclosingCall) + " " + std::to_string(this->MergeDepth) + " " +
    std::to_string(this->CollectiveBoundaries) + " " + this->BoundaryCollective + " " +
    std::to_string(this->ClockCorrection) + " " + std::to_string(this->CoalesceIsends);
}

int vtkMacroscopeLogicalTime::FillInputPortInformation(int, vtkInformation* info)
{
  MacroscopeTraceInputs::DeclareTracePort(info);
  return 1;
}

int vtkMacroscopeLogicalTime::FillOutputPortInformation(int port, vtkInformation* info)
{
  const bool tree = port == DENDROGRAM || port == HIERARCHY;
  info->Set(vtkDataObject::DATA_TYPE_NAME(), tree ? "vtkTree" : "vtkTable");
  return 1;
}

int vtkMacroscopeLogicalTime::RequestDataObject(
  vtkInformation*, vtkInformationVector**, vtkInformationVector* outputVector)
{
  for (int port = 0; port < NUMBER_OF_OUTPUTS; ++port)
  {
    vtkInformation* info = outputVector->GetInformationObject(port);
    vtkDataObject* current = info->Get(vtkDataObject::DATA_OBJECT());
    const bool tree = port == DENDROGRAM || port == HIERARCHY;
    if (!current || (tree ? !vtkTree::SafeDownCast(current) : !vtkTable::SafeDownCast(current)))
    {
      vtkSmartPointer<vtkDataObject> made;
      if (tree)
      {
        made = vtkSmartPointer<vtkTree>::New();
      }
      else
      {
        made = vtkSmartPointer<vtkTable>::New();
      }
      info->Set(vtkDataObject::DATA_OBJECT(), made);
    }
  }
  return 1;
}

int vtkMacroscopeLogicalTime::RequestInformation(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  // Outputs 6-8 are a trace in the data contract: like a reader, announce
  // its Hierarchy (the input's) and Types (the logical variables) as
  // definitions, so Time Slicing knows its model's extent before any data.
  // No other port carries definitions, lest the reader's Types be taken
  // for the logical ones.
  vtkTree* hierarchy = nullptr;
  vtkTable* readerTypes = nullptr;
  MacroscopeTraceInputs::FindDefinitions(this, inputVector[0], hierarchy, readerTypes);
  for (int port = 0; port < NUMBER_OF_OUTPUTS; ++port)
  {
    outputVector->GetInformationObject(port)->Remove(vtkMacroscopeTraceKeys::DEFINITIONS());
  }
  if (hierarchy)
  {
    outputVector->GetInformationObject(HIERARCHY)->Set(
      vtkMacroscopeTraceKeys::DEFINITIONS(), hierarchy);
  }
  outputVector->GetInformationObject(TYPES)->Set(
    vtkMacroscopeTraceKeys::DEFINITIONS(), NewLogicalTypes().GetPointer());
  return 1;
}

int vtkMacroscopeLogicalTime::RequestUpdateExtent(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector*)
{
  MacroscopeTraceInputs::RequestRankPieces(inputVector[0], this->Controller);
  return 1;
}

int vtkMacroscopeLogicalTime::RequestData(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  // An abort stops the run it interrupts; VTK leaves the flag set, which
  // would abort every later run too (docs/progress.md).
  this->SetAbortExecute(0);
  // Checks first: they depend on the properties and on the Hierarchy and
  // Types, which every piece holds whole, so every rank fails alike before
  // any collective call.
  MacroscopeTraceInputs trace;
  std::string problem;
  if (!trace.CollectTrace(this, inputVector[0], problem))
  {
    vtkErrorMacro(<< problem << ".");
    return 0;
  }
  if (!trace.Hierarchy || !trace.Types || !trace.States || !trace.Messages)
  {
    vtkErrorMacro("Logical Time needs the trace reader's States, Messages, Hierarchy and Types "
                  "outputs (and Events, for collectives) as inputs ("
      << trace.Describe() << ").");
    return 0;
  }
  const auto& boundaries = this->Internal->PhaseBoundaries;
  for (std::size_t i = 0; i < boundaries.size(); ++i)
  {
    if (!std::isfinite(boundaries[i]) || (i > 0 && !(boundaries[i] > boundaries[i - 1])))
    {
      vtkErrorMacro("PhaseBoundaries must be finite times in increasing order (boundary "
        << i << " is " << boundaries[i] << ").");
      return 0;
    }
  }
  if (this->ClaraClusters < 1 || this->ClaraClusters > 1000)
  {
    vtkErrorMacro("ClaraClusters must be between 1 and 1000 (got " << this->ClaraClusters << ").");
    return 0;
  }
  if (this->ClaraSamples < 1 || this->ClaraSamples > 1000)
  {
    vtkErrorMacro("ClaraSamples must be between 1 and 1000 (got " << this->ClaraSamples << ").");
    return 0;
  }
  if (this->Clusters < 1)
  {
    vtkErrorMacro("Clusters must be at least 1 (got " << this->Clusters << ").");
    return 0;
  }

  Internals& internal = *this->Internal;
  internal.TraceName = TraceFileUpstream(this);
  bool fresh = internal.HaveTrace && internal.StructureModified < internal.Built &&
    internal.BuiltStructure == this->StructureKey();
  for (int i = 0; fresh && i < inputVector[0]->GetNumberOfInformationObjects(); ++i)
  {
    vtkDataObject* input =
      inputVector[0]->GetInformationObject(i)->Get(vtkDataObject::DATA_OBJECT());
    fresh = input && input->GetMTime() < internal.Built.GetMTime();
  }
  if (!fresh)
  {
    internal.HaveTrace = false;
    const int status = this->BuildTrace(trace);
    if (status != 1)
    {
      return status == 0 ? 0 : 1;
    }
    internal.HaveTrace = true;
    internal.BuiltStructure = this->StructureKey();
    internal.Built.Modified();
  }
  if (!fresh || !(this->GetMTime() < internal.OutputsBuilt.GetMTime()) ||
    !(internal.Built < internal.OutputsBuilt))
  {
    if (!this->BuildOutputs(trace))
    {
      return 0;
    }
    internal.OutputsBuilt.Modified();
  }
  for (int port = 0; port < NUMBER_OF_OUTPUTS; ++port)
  {
    vtkDataObject* output = vtkDataObject::GetData(outputVector, port);
    if (port == DENDROGRAM || port == HIERARCHY)
    {
      vtkTree::SafeDownCast(output)->ShallowCopy(internal.Outputs[port]);
    }
    else
    {
      vtkTable::SafeDownCast(output)->ShallowCopy(internal.Outputs[port]);
    }
  }
  this->UpdateProgress(1.0);
  return 1;
}

namespace
{
// The clock of every leaf: its process (the parent vertex of kind
// "process": threads share their process's clock), else the leaf itself.
std::vector<int32_t> ClockOfLeaves(vtkTree* tree, const std::vector<int64_t>& parent,
  const std::vector<int64_t>& leafIndex, uint32_t leaves)
{
  auto* kinds = vtkStringArray::SafeDownCast(tree->GetVertexData()->GetAbstractArray(schema::Kind));
  std::vector<int64_t> owner(leaves, -1);
  for (std::size_t v = 0; v < leafIndex.size(); ++v)
  {
    const int64_t leaf = leafIndex[v];
    if (leaf >= 0 && leaf < static_cast<int64_t>(leaves))
    {
      const int64_t up = parent[v];
      const bool process = up >= 0 && kinds && kinds->GetValue(up) == "process";
      owner[static_cast<std::size_t>(leaf)] = process ? up : static_cast<int64_t>(v);
    }
  }
  std::vector<int32_t> clock(leaves, 0);
  std::unordered_map<int64_t, int32_t> number; // owners in order of first leaf
  for (uint32_t l = 0; l < leaves; ++l)
  {
    clock[l] = number.emplace(owner[l], static_cast<int32_t>(number.size())).first->second;
  }
  return clock;
}

// "a -> b: n of m messages, by up to t s" for the worst pairs of clocks.
std::string DescribePairs(const macroscope::logical::ClockReport& report,
  const std::vector<std::string>& clockNames, std::size_t most)
{
  std::string text;
  for (std::size_t i = 0; i < report.Pairs.size() && i < most; ++i)
  {
    const auto& pair = report.Pairs[i];
    text += (i ? "; " : "") + clockNames[static_cast<std::size_t>(pair.Sender)] + " -> " +
      clockNames[static_cast<std::size_t>(pair.Receiver)] + ": " + std::to_string(pair.Violations) +
      " of " + std::to_string(pair.Messages) + " messages, by up to " +
      std::to_string(pair.Largest) + " s";
  }
  if (report.Pairs.size() > most)
  {
    text += "; and " + std::to_string(report.Pairs.size() - most) + " more pairs";
  }
  return text;
}

// Detects unsynchronised clocks (a warning naming the trace) and, with
// `correction`, removes the estimated offsets from the input; the outcome
// goes to `clocks` (the Logical Events' field data).
void CorrectClocks(vtkObject* self, const std::string& name, logical::TraceInput& input,
  const std::vector<int32_t>& clockOf, const std::vector<std::string>& leafNames, int correction,
  ClockOutcome& outcome)
{
  outcome.ClockOffset.assign(input.Locations, 0.0);
  outcome.ClockViolations[0] = outcome.ClockViolations[1] = 0;
  outcome.ClockReport.clear();
  std::vector<std::string> clockNames;
  for (uint32_t l = 0; l < input.Locations; ++l)
  {
    if (static_cast<std::size_t>(clockOf[l]) == clockNames.size())
    {
      clockNames.push_back(leafNames[l]);
    }
  }
  const logical::ClockReport before = logical::CheckClocks(input, clockOf);
  outcome.ClockViolations[0] = outcome.ClockViolations[1] = before.Violations;
  if (before.Violations > 0)
  {
    outcome.ClockReport = "In " + name + ", " + std::to_string(before.Violations) + " of " +
      std::to_string(before.Messages) + " messages were received before they were sent, by up to " +
      std::to_string(before.Largest) + " s (" + DescribePairs(before, clockNames, 5) +
      "): the processes' clocks disagree, and lateness then measures their offsets.";
  }
  if (correction != vtkMacroscopeLogicalTime::NO_CLOCK_CORRECTION)
  {
    const auto source = correction == vtkMacroscopeLogicalTime::CLOCKS_FROM_MESSAGES
      ? logical::ClockSource::Messages
      : logical::ClockSource::Collectives;
    const logical::ClockEstimate estimate = logical::EstimateClockOffsets(input, source, clockOf);
    logical::ApplyClockOffsets(input, estimate.Offset, clockOf);
    for (uint32_t l = 0; l < input.Locations; ++l)
    {
      outcome.ClockOffset[l] = estimate.Offset[static_cast<std::size_t>(clockOf[l])];
    }
    const logical::ClockReport after = logical::CheckClocks(input, clockOf);
    outcome.ClockViolations[1] = after.Violations;
    const std::string evidence = source == logical::ClockSource::Messages
      ? " pairs of communicating processes"
      : " pairs of processes meeting in collectives";
    // Without evidence, only the causal adjustment of the messages moved them.
    const std::string estimated = estimate.Pairs > 0
      ? "ClockCorrection estimated " + std::to_string(clockNames.size()) + " clock offsets from " +
        std::to_string(estimate.Pairs) + evidence + " (" + std::to_string(estimate.Unconstrained) +
        " left unconstrained); "
      : "ClockCorrection found no" + evidence +
        ": the offsets only keep every message after its send; ";
    outcome.ClockReport += (outcome.ClockReport.empty() ? "" : " ") + estimated +
      std::to_string(after.Violations) + " messages remain received before sent.";
  }
  else if (before.Violations > 0)
  {
    outcome.ClockReport += " Set ClockCorrection to estimate and remove the offsets.";
  }
  if (before.Violations > 0)
  {
    vtkWarningWithObjectMacro(self, << outcome.ClockReport);
  }
}

// Which types are MPI calls (communication states), which of them are
// non-blocking sends, and the row of the collectives' end events (-1 when
// the trace has none). False when the Types table misses a column.
bool ReadCommunicationTypes(vtkTable* types, logical::TraceInput& input, int& collectiveEnd)
{
  auto* typeNames = vtkStringArray::SafeDownCast(types->GetColumnByName(schema::Name));
  auto* typeKinds = vtkStringArray::SafeDownCast(types->GetColumnByName(schema::Kind));
  auto* paradigms = vtkStringArray::SafeDownCast(types->GetColumnByName("Paradigm"));
  if (!typeNames || !typeKinds)
  {
    return false;
  }
  const auto count = static_cast<std::size_t>(types->GetNumberOfRows());
  input.CommunicationType.assign(count, false);
  input.IsendType.assign(count, false);
  collectiveEnd = -1;
  for (std::size_t t = 0; t < count; ++t)
  {
    const std::string& name = typeNames->GetValue(static_cast<vtkIdType>(t));
    const std::string& kind = typeKinds->GetValue(static_cast<vtkIdType>(t));
    if (kind == schema::StateKind)
    {
      // By paradigm, or by name when the paradigm does not say (EZTrace's
      // "user", formats without paradigms).
      input.CommunicationType[t] = macroscope::IsMpiCall(
        name, paradigms ? paradigms->GetValue(static_cast<vtkIdType>(t)) : std::string());
      input.IsendType[t] = input.CommunicationType[t] && macroscope::IsNonblockingSend(name);
    }
    else if (kind == schema::EventKind && name == CollectiveEndType)
    {
      collectiveEnd = static_cast<int>(t);
    }
  }
  return true;
}

// This rank's States and Messages rows; a progress value per column (the
// first ReadShare of the bar: copying millions of rows takes a while).
// False when a column is missing.
bool ReadStatesAndMessages(
  vtkAlgorithm* self, vtkTable* states, vtkTable* messages, logical::TraceInput& input)
{
  int columnsRead = 0;
  auto read = [self, &columnsRead](bool ok)
  {
    self->UpdateProgress(ReadShare * ++columnsRead / 9.0);
    return ok;
  };
  return read(ReadColumn(states, schema::Location, input.StateLocation)) &&
    read(ReadColumn(states, schema::Type, input.StateType)) &&
    read(ReadColumn(states, schema::Depth, input.StateDepth)) &&
    read(ReadColumn(states, schema::Start, input.StateStart)) &&
    read(ReadColumn(states, schema::End, input.StateEnd)) &&
    read(ReadColumn(messages, schema::Sender, input.Sender)) &&
    read(ReadColumn(messages, schema::Receiver, input.Receiver)) &&
    read(ReadColumn(messages, schema::SendTime, input.SendTime)) &&
    read(ReadColumn(messages, schema::RecvTime, input.RecvTime));
}

// This rank's collective end events (type `collectiveEnd`), when the
// Events table has the columns; none otherwise.
void ReadCollectiveEnds(vtkTable* events, int collectiveEnd, logical::TraceInput& input)
{
  std::vector<int32_t> location, type;
  std::vector<double> time;
  std::vector<int64_t> communicator;
  if (!events || collectiveEnd < 0 || !ReadColumn(events, schema::Location, location) ||
    !ReadColumn(events, schema::Type, type) || !ReadColumn(events, schema::Time, time) ||
    !ReadColumn(events, schema::Communicator, communicator))
  {
    return;
  }
  for (std::size_t i = 0; i < type.size(); ++i)
  {
    if (type[i] == collectiveEnd)
    {
      input.CollectiveLocation.push_back(location[i]);
      input.CollectiveTime.push_back(time[i]);
      input.CollectiveCommunicator.push_back(communicator[i]);
    }
  }
}

// Every rank's rows, appended in rank order on rank 0.
void GatherInputOnRoot(vtkMultiProcessController* controller, logical::TraceInput& input)
{
  GatherOnRoot(controller, input.StateLocation);
  GatherOnRoot(controller, input.StateType);
  GatherOnRoot(controller, input.StateDepth);
  GatherOnRoot(controller, input.StateStart);
  GatherOnRoot(controller, input.StateEnd);
  GatherOnRoot(controller, input.Sender);
  GatherOnRoot(controller, input.Receiver);
  GatherOnRoot(controller, input.SendTime);
  GatherOnRoot(controller, input.RecvTime);
  GatherOnRoot(controller, input.CollectiveLocation);
  GatherOnRoot(controller, input.CollectiveTime);
  GatherOnRoot(controller, input.CollectiveCommunicator);
}

// The Clusters output: a row per member of a phase.
vtkSmartPointer<vtkTable> NewClusterTable(const logical::PhaseClusters& clusters)
{
  auto table = vtkSmartPointer<vtkTable>::New();
  auto* phase = MacroscopeNewColumn<vtkIntArray>(table, "Phase");
  auto* location = MacroscopeNewColumn<vtkIntArray>(table, "Location");
  auto* clara = MacroscopeNewColumn<vtkIntArray>(table, "ClaraCluster");
  auto* cut = MacroscopeNewColumn<vtkIntArray>(table, "Cluster");
  auto* medoid = MacroscopeNewColumn<vtkIntArray>(table, "Medoid");
  for (std::size_t r = 0; r < clusters.Phase.size(); ++r)
  {
    phase->InsertNextValue(clusters.Phase[r]);
    location->InsertNextValue(clusters.Location[r]);
    clara->InsertNextValue(clusters.ClaraCluster[r]);
    cut->InsertNextValue(clusters.Cluster[r]);
    medoid->InsertNextValue(clusters.Medoid[r] ? 1 : 0);
  }
  return table;
}

// The Dendrogram output: the clustering's vertices as a tree; null when
// they are not one.
vtkSmartPointer<vtkTree> NewDendrogram(const logical::PhaseClusters& clusters)
{
  vtkNew<vtkMutableDirectedGraph> graph;
  vtkNew<vtkStringArray> name;
  name->SetName(schema::Name);
  vtkNew<vtkIntArray> phase;
  phase->SetName("Phase");
  vtkNew<vtkIntArray> node;
  node->SetName("Node");
  vtkNew<vtkDoubleArray> height;
  height->SetName("Height");
  vtkNew<vtkIntArray> size;
  size->SetName("Size");
  vtkNew<vtkIntArray> clara;
  clara->SetName("ClaraCluster");
  for (const logical::DendrogramVertex& vertex : clusters.Dendrogram)
  {
    // Parents come first, so vertex ids follow the list.
    if (vertex.Parent < 0)
    {
      graph->AddVertex();
    }
    else
    {
      graph->AddChild(vertex.Parent);
    }
    name->InsertNextValue(vertex.Name);
    phase->InsertNextValue(vertex.Phase);
    node->InsertNextValue(vertex.Node);
    height->InsertNextValue(vertex.Height);
    size->InsertNextValue(vertex.Size);
    clara->InsertNextValue(vertex.Clara);
  }
  for (vtkAbstractArray* array :
    std::initializer_list<vtkAbstractArray*>{ name, phase, node, height, size, clara })
  {
    graph->GetVertexData()->AddArray(array);
  }
  auto tree = vtkSmartPointer<vtkTree>::New();
  return tree->CheckedShallowCopy(graph) ? tree : nullptr;
}

// The Logical Events' field data beside the rows: the metric's name, the
// locations' names, the clocks (the offset subtracted per location,
// messages received before sent before and after the correction, the
// report), and the names of the Type column's values (rows of the
// reader's Types), so that the logical views resolve the linked views'
// type selection.
void AddEventFields(vtkTable* table, const char* metricName,
  const std::vector<std::string>& leafNames, const ClockOutcome& clocks, vtkTable* types)
{
  MacroscopeAddFieldValue<vtkStringArray>(table->GetFieldData(), "MetricName", metricName);
  vtkNew<vtkStringArray> locationNames;
  locationNames->SetName("LocationNames");
  for (const std::string& name : leafNames)
  {
    locationNames->InsertNextValue(name);
  }
  table->GetFieldData()->AddArray(locationNames);
  vtkNew<vtkDoubleArray> clockOffset;
  clockOffset->SetName("ClockOffset");
  for (double offset : clocks.ClockOffset)
  {
    clockOffset->InsertNextValue(offset);
  }
  table->GetFieldData()->AddArray(clockOffset);
  vtkNew<vtkIdTypeArray> clockViolations;
  clockViolations->SetName("ClockViolations");
  clockViolations->InsertNextValue(static_cast<vtkIdType>(clocks.ClockViolations[0]));
  clockViolations->InsertNextValue(static_cast<vtkIdType>(clocks.ClockViolations[1]));
  table->GetFieldData()->AddArray(clockViolations);
  MacroscopeAddFieldValue<vtkStringArray>(table->GetFieldData(), "ClockReport", clocks.ClockReport);
  auto* typeNames =
    types ? vtkStringArray::SafeDownCast(types->GetColumnByName(schema::Name)) : nullptr;
  if (typeNames)
  {
    vtkNew<vtkStringArray> names;
    names->DeepCopy(typeNames);
    names->SetName("TypeNames");
    table->GetFieldData()->AddArray(names);
  }
}

// The Phases output.
vtkSmartPointer<vtkTable> NewPhaseTable(
  const logical::LogicalTrace& lt, const logical::PhaseClusters& clusters)
{
  auto table = vtkSmartPointer<vtkTable>::New();
  auto* phase = MacroscopeNewColumn<vtkIntArray>(table, "Phase");
  auto* first = MacroscopeNewColumn<vtkTypeInt64Array>(table, "FirstGlobalStep");
  auto* last = MacroscopeNewColumn<vtkTypeInt64Array>(table, "LastGlobalStep");
  auto* start = MacroscopeNewColumn<vtkDoubleArray>(table, "Start");
  auto* end = MacroscopeNewColumn<vtkDoubleArray>(table, "End");
  auto* locations = MacroscopeNewColumn<vtkIntArray>(table, "Locations");
  auto* phaseEvents = MacroscopeNewColumn<vtkTypeInt64Array>(table, "Events");
  auto* pattern = MacroscopeNewColumn<vtkIntArray>(table, "Pattern");
  auto* patternName = MacroscopeNewColumn<vtkStringArray>(table, "PatternName");
  auto* shown = MacroscopeNewColumn<vtkIntArray>(table, "Clusters");
  auto* maxReceives = MacroscopeNewColumn<vtkIntArray>(table, "MaxReceives");
  for (std::size_t p = 0; p < lt.Phases.size(); ++p)
  {
    const logical::PhaseInfo& info = lt.Phases[p];
    phase->InsertNextValue(static_cast<int>(p));
    first->InsertNextValue(info.FirstGlobalStep);
    last->InsertNextValue(info.LastGlobalStep);
    start->InsertNextValue(info.Start);
    end->InsertNextValue(info.End);
    locations->InsertNextValue(static_cast<int>(info.Locations));
    phaseEvents->InsertNextValue(static_cast<int64_t>(info.Events));
    pattern->InsertNextValue(static_cast<int>(info.Pattern));
    patternName->InsertNextValue(logical::ExchangePatternName(info.Pattern));
    shown->InsertNextValue(clusters.PhaseClusterCount[p]);
    maxReceives->InsertNextValue(clusters.PhaseMaxReceives[p]);
  }
  return table;
}

// The Types of outputs 6-8, with the logical axis: global steps
// [0, steps), taken as seconds.
vtkSmartPointer<vtkTable> NewStepAxisTypes(const logical::LogicalTrace& lt)
{
  vtkSmartPointer<vtkTable> table = NewLogicalTypes();
  vtkNew<vtkDoubleArray> bounds;
  bounds->SetName("TimeBounds");
  bounds->SetNumberOfComponents(2);
  const std::size_t steps = std::max<std::size_t>(1, lt.Spans.Start.size());
  bounds->InsertNextTuple2(0.0, static_cast<double>(steps));
  table->GetFieldData()->AddArray(bounds);
  return table;
}
}

int vtkMacroscopeLogicalTime::BuildTrace(const MacroscopeTraceInputs& trace)
{
  Internals& internal = *this->Internal;
  vtkMultiProcessController* controller = this->Controller;
  const bool parallel = controller && controller->GetNumberOfProcesses() > 1;
  const bool root = !parallel || controller->GetLocalProcessId() == 0;

  // The leaves, their labels and the communication types come from the
  // Hierarchy and Types, whole on every rank.
  std::vector<int64_t> parent;
  std::vector<int64_t> leafIndex;
  std::string problem;
  if (!MacroscopeHierarchyArrays(trace.Hierarchy, parent, leafIndex, problem))
  {
    vtkErrorMacro(<< problem << ".");
    return 0;
  }
  logical::TraceInput input;
  input.Locations = static_cast<uint32_t>(
    std::count_if(leafIndex.begin(), leafIndex.end(), [](int64_t leaf) { return leaf >= 0; }));
  internal.LeafNames = LeafLabels(trace.Hierarchy, input.Locations);
  int collectiveEnd = -1;
  if (!ReadCommunicationTypes(trace.Types, input, collectiveEnd))
  {
    vtkErrorMacro("The Types table has no Name or Kind column.");
    return 0;
  }

  // This rank's rows, then every rank's on rank 0.
  int status = 1;
  if (!ReadStatesAndMessages(this, trace.States, trace.Messages, input))
  {
    vtkErrorMacro("An input table misses a column of the data contract (see "
                  "docs/architecture.md): States need Location, Type, Depth, Start and End; "
                  "Messages Sender, Receiver, SendTime and RecvTime.");
    status = 0;
  }
  else
  {
    ReadCollectiveEnds(trace.Events, collectiveEnd, input);
  }
  status = MacroscopeTraceInputs::AgreeOnStatus(status, controller, parallel);
  if (status != 1)
  {
    return status;
  }
  if (parallel)
  {
    GatherInputOnRoot(controller, input);
  }

  internal.Trace = logical::LogicalTrace();
  if (root)
  {
    const logical::Options options = this->TraceOptions(trace.Types);
    CorrectClocks(this, internal.TraceName, input,
      ClockOfLeaves(trace.Hierarchy, parent, leafIndex, input.Locations), internal.LeafNames,
      this->ClockCorrection, internal.Clocks);
    status = this->RunLogicalTime(input, options);
  }
  return MacroscopeTraceInputs::AgreeOnStatus(status, controller, parallel);
}

logical::Options vtkMacroscopeLogicalTime::TraceOptions(vtkTable* types)
{
  logical::Options options;
  options.PhaseBoundaries = this->Internal->PhaseBoundaries;
  options.MergeByEnclosingCall = this->MergeByEnclosingCall == ENCLOSING_CALL_EXCEPT_OUTERMOST;
  // Ravel's phase options (docs/logical-time-filter.md).
  options.MergeByCaller = this->MergeByEnclosingCall == ENCLOSING_CALL_INCLUDING_OUTERMOST;
  options.MergeDepth = this->MergeDepth;
  options.CollectiveBoundaries = this->CollectiveBoundaries != NO_COLLECTIVE_BOUNDARIES;
  options.CoalesceIsends = this->CoalesceIsends;
  if (this->CollectiveBoundaries != NAMED_COLLECTIVE)
  {
    return options;
  }
  auto* typeNames = vtkStringArray::SafeDownCast(types->GetColumnByName(schema::Name));
  const vtkIdType count = types->GetNumberOfRows();
  options.BoundaryTypes.assign(static_cast<std::size_t>(count), false);
  bool found = false;
  for (vtkIdType t = 0; t < count; ++t)
  {
    const bool named = typeNames->GetValue(t) == this->BoundaryCollective;
    found = found || named;
    options.BoundaryTypes[static_cast<std::size_t>(t)] = named;
  }
  if (!found)
  {
    // Without a boundary every process would be one phase: ignore it.
    options.CollectiveBoundaries = false;
    vtkWarningMacro("CollectiveBoundaries: the trace has no region named '"
      << this->BoundaryCollective << "'; phases are not bounded by collectives.");
  }
  return options;
}

int vtkMacroscopeLogicalTime::RunLogicalTime(
  logical::TraceInput& input, const logical::Options& options)
{
  Internals& internal = *this->Internal;
  const int status = MacroscopeRunCore<logical::LogicalTimeAborted>(this, "Logical time failed",
    "Logical time aborted.",
    [&]
    {
      internal.Trace = logical::BuildLogicalTrace(input, options,
        [this](double fraction)
        {
          this->UpdateProgress(ReadShare + (0.8 - ReadShare) * fraction);
          return !this->GetAbortExecute();
        });
    });
  const logical::Diagnostics& report = internal.Trace.Report;
  if (status == 1 && (report.DroppedMessages || report.IncompleteCollectives))
  {
    vtkWarningMacro("Logical time: " << report.DroppedMessages
                                     << " message(s) contradicted the order of events (clock "
                                        "skew?) and were left out of the happened-before graph; "
                                     << report.IncompleteCollectives
                                     << " collective operation(s) missed participants.");
  }
  internal.MessageSender.swap(input.Sender);
  internal.MessageReceiver.swap(input.Receiver);
  internal.MessageSendTime.swap(input.SendTime);
  internal.MessageRecvTime.swap(input.RecvTime);
  return status;
}

int vtkMacroscopeLogicalTime::BuildOutputs(const MacroscopeTraceInputs& trace)
{
  Internals& internal = *this->Internal;
  const logical::LogicalTrace& lt = internal.Trace;
  std::vector<double> metric(lt.Events.size());
  for (std::size_t i = 0; i < metric.size(); ++i)
  {
    metric[i] = MetricOf(lt.Events, i, this->Metric);
  }

  // Clustering, phase by phase (Isaacs et al. 2014 (Ravel) §3.3).
  logical::PhaseClusterOptions options;
  options.Cluster = this->Clustering;
  options.Clara.Clusters = static_cast<uint32_t>(this->ClaraClusters);
  options.Clara.Samples = static_cast<uint32_t>(this->ClaraSamples);
  options.Clara.Seed = static_cast<uint64_t>(this->RandomSeed);
  options.Shown = static_cast<uint32_t>(this->Clusters);
  logical::PhaseClusters clusters;
  const int status = MacroscopeRunCore<logical::LogicalTimeAborted>(this, nullptr,
    "Logical time aborted while clustering.",
    [&]
    {
      clusters = logical::ClusterPhases(lt, metric, options,
        [this](double fraction)
        {
          // Interpolated so that the end is 0.86 exactly, where the events
          // table starts: progress never goes back.
          this->UpdateProgress(0.8 * (1.0 - fraction) + 0.86 * fraction);
          return !this->GetAbortExecute();
        });
    });
  if (status != 1)
  {
    return 0;
  }
  vtkSmartPointer<vtkTree> dendrogram = NewDendrogram(clusters);
  if (!dendrogram)
  {
    vtkErrorMacro("The dendrogram is not a tree.");
    return 0;
  }
  vtkSmartPointer<vtkTable> events = this->NewEventTable(metric, clusters.EventCluster, trace);
  if (!events)
  {
    return 0;
  }
  internal.Outputs[EVENTS] = events;
  internal.Outputs[MESSAGES] = this->NewMessageTable();
  internal.Outputs[CLUSTERS] = NewClusterTable(clusters);
  internal.Outputs[DENDROGRAM] = dendrogram;
  internal.Outputs[STEPS] = this->NewStepTable(metric);
  internal.Outputs[PHASES] = NewPhaseTable(lt, clusters);
  internal.Outputs[VARIABLES] = this->NewVariableTable();
  internal.Outputs[TYPES] = NewStepAxisTypes(lt);
  for (int port = 0; port < NUMBER_OF_OUTPUTS; ++port)
  {
    this->UpdateProgress(0.97 + 0.03 * port / NUMBER_OF_OUTPUTS);
    if (port != HIERARCHY)
    {
      // ParaView's data information asks for them (docs/progress.md).
      MacroscopeCacheRanges(internal.Outputs[port]);
    }
  }
  vtkNew<vtkTree> hierarchy;
  hierarchy->ShallowCopy(trace.Hierarchy);
  internal.Outputs[HIERARCHY] = hierarchy;
  return 1;
}

vtkSmartPointer<vtkTable> vtkMacroscopeLogicalTime::NewEventTable(const std::vector<double>& metric,
  const std::vector<int32_t>& eventCluster, const MacroscopeTraceInputs& trace)
{
  const logical::LogicalEvents& events = this->Internal->Trace.Events;
  const std::size_t count = events.size();
  auto table = vtkSmartPointer<vtkTable>::New();
  auto* location = MacroscopeNewColumn<vtkIntArray>(table, schema::Location);
  auto* step = MacroscopeNewColumn<vtkTypeInt64Array>(table, "Step");
  auto* globalStep = MacroscopeNewColumn<vtkTypeInt64Array>(table, "GlobalStep");
  auto* phase = MacroscopeNewColumn<vtkIntArray>(table, "Phase");
  auto* kind = MacroscopeNewColumn<vtkIntArray>(table, schema::Kind);
  auto* enter = MacroscopeNewColumn<vtkDoubleArray>(table, "Enter");
  auto* exit = MacroscopeNewColumn<vtkDoubleArray>(table, "Exit");
  auto* duration = MacroscopeNewColumn<vtkDoubleArray>(table, "Duration");
  auto* state = MacroscopeNewColumn<vtkTypeInt64Array>(table, "State");
  auto* type = MacroscopeNewColumn<vtkIntArray>(table, schema::Type);
  auto* sends = MacroscopeNewColumn<vtkIntArray>(table, "Sends");
  auto* receives = MacroscopeNewColumn<vtkIntArray>(table, "Receives");
  auto* partner = MacroscopeNewColumn<vtkIntArray>(table, "Partner");
  auto* collective = MacroscopeNewColumn<vtkTypeInt64Array>(table, "Collective");
  auto* lateness = MacroscopeNewColumn<vtkDoubleArray>(table, "Lateness");
  auto* differential = MacroscopeNewColumn<vtkDoubleArray>(table, "DifferentialLateness");
  auto* metricColumn = MacroscopeNewColumn<vtkDoubleArray>(table, "Metric");
  auto* cluster = MacroscopeNewColumn<vtkIntArray>(table, "Cluster");
  auto* phaseLateness = MacroscopeNewColumn<vtkDoubleArray>(table, "PhaseLateness");
  auto* phaseDifferential = MacroscopeNewColumn<vtkDoubleArray>(table, "PhaseDifferentialLateness");
  for (vtkIdType c = 0; c < table->GetNumberOfColumns(); ++c)
  {
    table->GetColumn(c)->SetNumberOfTuples(static_cast<vtkIdType>(count));
  }
  // Filling 20 columns of millions of rows takes a while: it reports in
  // [0.86, 0.92] and hears an abort between blocks of rows.
  const std::size_t block = count / 40 + 1;
  for (std::size_t i = 0; i < count; ++i)
  {
    if (i % block == 0)
    {
      this->UpdateProgress(0.86 + 0.06 * static_cast<double>(i) / static_cast<double>(count));
      if (this->GetAbortExecute())
      {
        vtkWarningMacro("Logical time aborted while writing its events.");
        return nullptr;
      }
    }
    const vtkIdType r = static_cast<vtkIdType>(i);
    location->SetValue(r, events.Location[i]);
    step->SetValue(r, events.Step[i]);
    globalStep->SetValue(r, events.GlobalStep[i]);
    phase->SetValue(r, events.Phase[i]);
    kind->SetValue(r, static_cast<int>(events.Kind[i]));
    enter->SetValue(r, events.Enter[i]);
    exit->SetValue(r, events.Exit[i]);
    duration->SetValue(r, events.Exit[i] - events.Enter[i]);
    state->SetValue(r, events.State[i]);
    type->SetValue(r, events.Type[i]);
    sends->SetValue(r, events.Sends[i]);
    receives->SetValue(r, events.Receives[i]);
    partner->SetValue(r, events.Partner[i]);
    collective->SetValue(r, events.Collective[i]);
    lateness->SetValue(r, events.Lateness[i]);
    differential->SetValue(r, events.DifferentialLateness[i]);
    metricColumn->SetValue(r, metric[i]);
    cluster->SetValue(r, eventCluster[i]);
    phaseLateness->SetValue(r, events.PhaseLateness[i]);
    phaseDifferential->SetValue(r, events.PhaseDifferentialLateness[i]);
  }
  AddEventFields(table, GetMetricName(this->Metric), this->Internal->LeafNames,
    this->Internal->Clocks, trace.Types);
  return table;
}

vtkSmartPointer<vtkTable> vtkMacroscopeLogicalTime::NewMessageTable()
{
  const Internals& internal = *this->Internal;
  const logical::LogicalEvents& events = internal.Trace.Events;
  const logical::LogicalMessages& m = internal.Trace.Messages;
  auto table = vtkSmartPointer<vtkTable>::New();
  auto* message = MacroscopeNewColumn<vtkTypeInt64Array>(table, "Message");
  auto* sendEvent = MacroscopeNewColumn<vtkTypeInt64Array>(table, "SendEvent");
  auto* recvEvent = MacroscopeNewColumn<vtkTypeInt64Array>(table, "RecvEvent");
  auto* sender = MacroscopeNewColumn<vtkIntArray>(table, schema::Sender);
  auto* receiver = MacroscopeNewColumn<vtkIntArray>(table, schema::Receiver);
  auto* sendStep = MacroscopeNewColumn<vtkTypeInt64Array>(table, "SendGlobalStep");
  auto* recvStep = MacroscopeNewColumn<vtkTypeInt64Array>(table, "RecvGlobalStep");
  auto* sendTime = MacroscopeNewColumn<vtkDoubleArray>(table, schema::SendTime);
  auto* recvTime = MacroscopeNewColumn<vtkDoubleArray>(table, schema::RecvTime);
  auto* dropped = MacroscopeNewColumn<vtkIntArray>(table, "Dropped");
  const std::size_t block = m.size() / 10 + 1;
  for (std::size_t i = 0; i < m.size(); ++i)
  {
    if (i % block == 0)
    {
      this->UpdateProgress(0.92 + 0.01 * static_cast<double>(i) / static_cast<double>(m.size()));
    }
    const auto row = static_cast<std::size_t>(m.Message[i]);
    const auto s = static_cast<std::size_t>(m.SendEvent[i]);
    const auto r = static_cast<std::size_t>(m.RecvEvent[i]);
    message->InsertNextValue(m.Message[i]);
    sendEvent->InsertNextValue(m.SendEvent[i]);
    recvEvent->InsertNextValue(m.RecvEvent[i]);
    sender->InsertNextValue(events.Location[s]);
    receiver->InsertNextValue(events.Location[r]);
    sendStep->InsertNextValue(events.GlobalStep[s]);
    recvStep->InsertNextValue(events.GlobalStep[r]);
    sendTime->InsertNextValue(internal.MessageSendTime[row]);
    recvTime->InsertNextValue(internal.MessageRecvTime[row]);
    dropped->InsertNextValue(m.Dropped[i]);
  }
  return table;
}

vtkSmartPointer<vtkTable> vtkMacroscopeLogicalTime::NewStepTable(const std::vector<double>& metric)
{
  // The steps, their physical spans and the metric summed over their
  // events (Isaacs et al. 2014 (Ravel) §4).
  const logical::LogicalTrace& lt = this->Internal->Trace;
  this->UpdateProgress(0.93);
  std::vector<double> sum;
  std::vector<int64_t> counted;
  logical::SumMetricPerStep(lt, metric, sum, counted);
  auto table = vtkSmartPointer<vtkTable>::New();
  auto* globalStep = MacroscopeNewColumn<vtkTypeInt64Array>(table, "GlobalStep");
  auto* step = MacroscopeNewColumn<vtkTypeInt64Array>(table, "Step");
  auto* start = MacroscopeNewColumn<vtkDoubleArray>(table, "Start");
  auto* end = MacroscopeNewColumn<vtkDoubleArray>(table, "End");
  auto* metricSum = MacroscopeNewColumn<vtkDoubleArray>(table, "MetricSum");
  auto* stepEvents = MacroscopeNewColumn<vtkTypeInt64Array>(table, "Events");
  const std::size_t steps = sum.size();
  for (std::size_t g = 0; g < steps; ++g)
  {
    globalStep->InsertNextValue(static_cast<int64_t>(g));
    step->InsertNextValue(static_cast<int64_t>(g / 2));
    start->InsertNextValue(lt.Spans.Start[g]);
    end->InsertNextValue(lt.Spans.End[g]);
    metricSum->InsertNextValue(sum[g]);
    stepEvents->InsertNextValue(counted[g]);
  }
  MacroscopeAddFieldValue<vtkStringArray>(
    table->GetFieldData(), "MetricName", GetMetricName(this->Metric));

  // The two directions of the physical <-> logical map, for the windows
  // the user asked.
  this->TimeWindowOfSteps[0] = this->TimeWindowOfSteps[1] = 0.0;
  this->StepsOfTimeWindow[0] = 0;
  this->StepsOfTimeWindow[1] = -1;
  if (this->StepWindow[1] >= this->StepWindow[0] && steps > 0)
  {
    const auto span = lt.Spans.TimeOfSteps(this->StepWindow[0], this->StepWindow[1]);
    this->TimeWindowOfSteps[0] = span.first;
    this->TimeWindowOfSteps[1] = span.second;
  }
  if (this->TimeWindow[1] > this->TimeWindow[0] && steps > 0)
  {
    const auto range = lt.Spans.StepsOfTime(this->TimeWindow[0], this->TimeWindow[1]);
    this->StepsOfTimeWindow[0] = range.first;
    this->StepsOfTimeWindow[1] = range.second;
  }
  vtkNew<vtkDoubleArray> timeOfSteps;
  timeOfSteps->SetName("TimeWindowOfSteps");
  timeOfSteps->SetNumberOfComponents(2);
  timeOfSteps->InsertNextTuple(this->TimeWindowOfSteps);
  table->GetFieldData()->AddArray(timeOfSteps);
  vtkNew<vtkIdTypeArray> stepsOfTime;
  stepsOfTime->SetName("StepsOfTimeWindow");
  stepsOfTime->SetNumberOfComponents(2);
  stepsOfTime->InsertNextTypedTuple(this->StepsOfTimeWindow);
  table->GetFieldData()->AddArray(stepsOfTime);
  return table;
}

vtkSmartPointer<vtkTable> vtkMacroscopeLogicalTime::NewVariableTable()
{
  // The metrics sampled on the logical step axis (a sample holds until the
  // location's next one), for Time Slicing.
  const logical::LogicalEvents& events = this->Internal->Trace.Events;
  const std::size_t count = events.size();
  auto table = vtkSmartPointer<vtkTable>::New();
  auto* location = MacroscopeNewColumn<vtkIntArray>(table, schema::Location);
  auto* variable = MacroscopeNewColumn<vtkIntArray>(table, schema::Variable);
  auto* time = MacroscopeNewColumn<vtkDoubleArray>(table, schema::Time);
  auto* value = MacroscopeNewColumn<vtkDoubleArray>(table, schema::Value);
  const std::size_t block = count / 10 + 1;
  for (std::size_t i = 0; i < count; ++i)
  {
    if (i % block == 0)
    {
      this->UpdateProgress(0.94 + 0.03 * static_cast<double>(i) / static_cast<double>(count));
    }
    for (int v = 0; v < LogicalVariableCount; ++v)
    {
      location->InsertNextValue(events.Location[i]);
      variable->InsertNextValue(v);
      time->InsertNextValue(static_cast<double>(events.GlobalStep[i]));
      value->InsertNextValue(LogicalVariableOf(events, i, v));
    }
  }
  return table;
}
