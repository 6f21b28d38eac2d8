#include "vtkMacroscopeTraceStatistics.h"

#include "MacroscopeCoreRun.h"
#include "MacroscopeTraceColumns.h"
#include "MacroscopeTraceInputs.h"
#include "ResourceHierarchy.h"
#include "ResourceSelection.h"
#include "TraceSchema.h"
#include "TraceStatistics.h"
#include "TraceStatisticsTables.h"

#include "vtkCommunicator.h"
#include "vtkDataSetAttributes.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkIntArray.h"
#include "vtkMultiProcessController.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkSmartPointer.h"
#include "vtkStreamingDemandDrivenPipeline.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkTree.h"
#include "vtkTypeInt64Array.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

vtkStandardNewMacro(vtkMacroscopeTraceStatistics);

vtkCxxSetObjectMacro(vtkMacroscopeTraceStatistics, Controller, vtkMultiProcessController);

namespace
{
namespace schema = macroscope::schema;

// More bins than this would only draw noise, and a typo should not
// allocate gigabytes.
constexpr int MaxBins = 10000000;

// Sums (or takes the extreme of) a vector over the ranks, in place.
template <typename T>
void Reduce(vtkMultiProcessController* controller, std::vector<T>& values, int operation)
{
  std::vector<T> result(values.size());
  controller->AllReduce(
    values.data(), result.data(), static_cast<vtkIdType>(values.size()), operation);
  values.swap(result);
}

// The trace's counts: every count is a sum over rows, and every rank holds
// its own rows.
void ReduceTally(vtkMultiProcessController* controller, macroscope::TraceTally& tally)
{
  Reduce(controller, tally.ProducerRecords, vtkCommunicator::SUM_OP);
  Reduce(controller, tally.ProducerStateTime, vtkCommunicator::SUM_OP);
  Reduce(controller, tally.TypeCount, vtkCommunicator::SUM_OP);
  Reduce(controller, tally.TypeDuration, vtkCommunicator::SUM_OP);
  Reduce(controller, tally.TypeMinDuration, vtkCommunicator::MIN_OP);
  Reduce(controller, tally.TypeMaxDuration, vtkCommunicator::MAX_OP);
  Reduce(controller, tally.Density, vtkCommunicator::SUM_OP);
}

void AddWindow(vtkTable* table, const double window[2])
{
  vtkNew<vtkDoubleArray> array;
  array->SetName("TimeWindow");
  array->SetNumberOfComponents(2);
  array->InsertNextTuple2(window[0], window[1]);
  table->GetFieldData()->AddArray(array);
}

// Output 0: the producers, busiest first.
vtkSmartPointer<vtkTable> NewProducerTable(const macroscope::TraceTally& tally,
  const macroscope::ResourceHierarchy& producers, const std::vector<int64_t>& parent, vtkTree* tree,
  int level, const double window[2])
{
  const macroscope::ProducerSummary summary = macroscope::SummarizeProducers(tally);
  auto* vertexNames =
    vtkStringArray::SafeDownCast(tree->GetVertexData()->GetAbstractArray(schema::Name));
  std::vector<std::string> names(parent.size());
  for (std::size_t v = 0; v < names.size(); ++v)
  {
    names[v] = vertexNames ? vertexNames->GetValue(static_cast<vtkIdType>(v)) : std::to_string(v);
  }
  auto table = vtkSmartPointer<vtkTable>::New();
  auto* rank = MacroscopeNewColumn<vtkIntArray>(table, "Rank");
  auto* name = MacroscopeNewColumn<vtkStringArray>(table, "Name");
  auto* path = MacroscopeNewColumn<vtkStringArray>(table, "Path");
  auto* stateCount = MacroscopeNewColumn<vtkTypeInt64Array>(table, "States");
  auto* eventCount = MacroscopeNewColumn<vtkTypeInt64Array>(table, "Events");
  auto* sentCount = MacroscopeNewColumn<vtkTypeInt64Array>(table, "MessagesSent");
  auto* receivedCount = MacroscopeNewColumn<vtkTypeInt64Array>(table, "MessagesReceived");
  auto* records = MacroscopeNewColumn<vtkTypeInt64Array>(table, "Records");
  auto* stateTime = MacroscopeNewColumn<vtkDoubleArray>(table, "StateTime");
  auto* recordShare = MacroscopeNewColumn<vtkDoubleArray>(table, "RecordShare");
  auto* cumulative = MacroscopeNewColumn<vtkDoubleArray>(table, "CumulativeShare");
  auto* producerShare = MacroscopeNewColumn<vtkDoubleArray>(table, "ProducerShare");
  auto* producerIndex = MacroscopeNewColumn<vtkIntArray>(table, "Producer");
  int position = 0;
  for (const macroscope::ProducerStatistics& row : summary.Rows)
  {
    const int64_t vertex = producers.Vertex[row.Producer];
    rank->InsertNextValue(++position);
    name->InsertNextValue(names[static_cast<std::size_t>(vertex)]);
    path->InsertNextValue(macroscope::VertexPath(parent, names, static_cast<std::size_t>(vertex)));
    stateCount->InsertNextValue(row.Records[macroscope::StateRecord]);
    eventCount->InsertNextValue(row.Records[macroscope::EventRecord]);
    sentCount->InsertNextValue(row.Records[macroscope::SendRecord]);
    receivedCount->InsertNextValue(row.Records[macroscope::ReceiveRecord]);
    records->InsertNextValue(row.Total);
    stateTime->InsertNextValue(row.StateTime);
    recordShare->InsertNextValue(row.RecordShare);
    cumulative->InsertNextValue(row.CumulativeShare);
    producerShare->InsertNextValue(row.ProducerShare);
    producerIndex->InsertNextValue(static_cast<int>(row.Producer));
  }
  MacroscopeAddFieldValue<vtkIntArray>(table->GetFieldData(), "ProducersFor80Percent",
    static_cast<int>(summary.ProducersFor80Percent));
  MacroscopeAddFieldValue<vtkDoubleArray>(
    table->GetFieldData(), "ProducerShareFor80Percent", summary.ProducerShareFor80Percent);
  MacroscopeAddFieldValue<vtkTypeInt64Array>(
    table->GetFieldData(), "TotalStates", summary.Totals[macroscope::StateRecord]);
  MacroscopeAddFieldValue<vtkTypeInt64Array>(
    table->GetFieldData(), "TotalEvents", summary.Totals[macroscope::EventRecord]);
  MacroscopeAddFieldValue<vtkTypeInt64Array>(
    table->GetFieldData(), "TotalMessagesSent", summary.Totals[macroscope::SendRecord]);
  MacroscopeAddFieldValue<vtkTypeInt64Array>(
    table->GetFieldData(), "TotalMessagesReceived", summary.Totals[macroscope::ReceiveRecord]);
  MacroscopeAddFieldValue<vtkTypeInt64Array>(
    table->GetFieldData(), "TotalRecords", summary.TotalRecords);
  MacroscopeAddFieldValue<vtkDoubleArray>(
    table->GetFieldData(), "TotalStateTime", summary.TotalStateTime);
  MacroscopeAddFieldValue<vtkIntArray>(
    table->GetFieldData(), "Producers", static_cast<int>(producers.Resources));
  MacroscopeAddFieldValue<vtkIntArray>(table->GetFieldData(), "Level", level);
  AddWindow(table, window);
  return table;
}

// Output 1: the types of the counted kinds, and the messages, which have
// no type column: their line takes the name of the trace's link type when
// there is exactly one.
vtkSmartPointer<vtkTable> NewTypeTable(
  const macroscope::TraceTally& tally, vtkTable* types, bool withMessages)
{
  auto* typeNames = vtkStringArray::SafeDownCast(types->GetColumnByName(schema::Name));
  auto* typeKinds = vtkStringArray::SafeDownCast(types->GetColumnByName(schema::Kind));
  std::vector<std::string> kinds(static_cast<std::size_t>(types->GetNumberOfRows()));
  for (std::size_t t = 0; t < kinds.size(); ++t)
  {
    kinds[t] = typeKinds->GetValue(static_cast<vtkIdType>(t));
  }
  const macroscope::TypeListing listing = macroscope::ListTypes(kinds);
  const std::vector<macroscope::TypeStatistics> typeRows =
    macroscope::SummarizeTypes(tally, listing.Listed, listing.IsState, withMessages);
  auto table = vtkSmartPointer<vtkTable>::New();
  auto* typeName = MacroscopeNewColumn<vtkStringArray>(table, "Name");
  auto* typeKind = MacroscopeNewColumn<vtkStringArray>(table, "Kind");
  auto* typeId = MacroscopeNewColumn<vtkIntArray>(table, "Id");
  auto* count = MacroscopeNewColumn<vtkTypeInt64Array>(table, "Count");
  auto* total = MacroscopeNewColumn<vtkDoubleArray>(table, "TotalDuration");
  auto* mean = MacroscopeNewColumn<vtkDoubleArray>(table, "MeanDuration");
  auto* shortest = MacroscopeNewColumn<vtkDoubleArray>(table, "MinDuration");
  auto* longest = MacroscopeNewColumn<vtkDoubleArray>(table, "MaxDuration");
  auto* share = MacroscopeNewColumn<vtkDoubleArray>(table, "Share");
  for (const macroscope::TypeStatistics& row : typeRows)
  {
    if (row.Type == macroscope::TypeStatistics::MessageType)
    {
      const vtkIdType link = static_cast<vtkIdType>(listing.MessageType);
      typeName->InsertNextValue(link >= 0 ? typeNames->GetValue(link) : "Messages");
      typeKind->InsertNextValue(schema::LinkKind);
      typeId->InsertNextValue(static_cast<int>(link));
    }
    else
    {
      typeName->InsertNextValue(typeNames->GetValue(row.Type));
      typeKind->InsertNextValue(typeKinds->GetValue(row.Type));
      typeId->InsertNextValue(static_cast<int>(row.Type));
    }
    count->InsertNextValue(row.Count);
    total->InsertNextValue(row.TotalDuration);
    mean->InsertNextValue(row.MeanDuration);
    shortest->InsertNextValue(row.MinDuration);
    longest->InsertNextValue(row.MaxDuration);
    share->InsertNextValue(row.Share);
  }
  return table;
}

// Output 2: the records per time bin.
vtkSmartPointer<vtkTable> NewDensityTable(
  const macroscope::TraceTally& tally, const double window[2], int bins)
{
  auto table = vtkSmartPointer<vtkTable>::New();
  auto* binStart = MacroscopeNewColumn<vtkDoubleArray>(table, "BinStart");
  auto* binCenter = MacroscopeNewColumn<vtkDoubleArray>(table, "BinCenter");
  auto* binEnd = MacroscopeNewColumn<vtkDoubleArray>(table, "BinEnd");
  auto* binRecords = MacroscopeNewColumn<vtkTypeInt64Array>(table, "Records");
  vtkTypeInt64Array* byKind[macroscope::RecordKinds] = { MacroscopeNewColumn<vtkTypeInt64Array>(
                                                           table, "States"),
    MacroscopeNewColumn<vtkTypeInt64Array>(table, "Events"),
    MacroscopeNewColumn<vtkTypeInt64Array>(table, "MessagesSent"),
    MacroscopeNewColumn<vtkTypeInt64Array>(table, "MessagesReceived") };
  const auto edges = macroscope::TimeBins(window[0], window[1], bins);
  for (std::size_t b = 0; b < edges.size(); ++b)
  {
    binStart->InsertNextValue(edges[b].first);
    binCenter->InsertNextValue(0.5 * (edges[b].first + edges[b].second));
    binEnd->InsertNextValue(edges[b].second);
    int64_t all = 0;
    for (int k = 0; k < macroscope::RecordKinds; ++k)
    {
      const int64_t n = tally.Density[b * macroscope::RecordKinds + k];
      byKind[k]->InsertNextValue(n);
      all += n;
    }
    binRecords->InsertNextValue(all);
  }
  MacroscopeAddFieldValue<vtkDoubleArray>(
    table->GetFieldData(), "BinWidth", (window[1] - window[0]) / bins);
  AddWindow(table, window);
  return table;
}
}

struct vtkMacroscopeTraceStatistics::TraceShape
{
  std::vector<int64_t> Parent;
  macroscope::ResourceHierarchy Producers;
};

// The rows of this rank's piece the counts read.
struct vtkMacroscopeTraceStatistics::TraceRows
{
  MacroscopeColumnStore Store;
  macroscope::StateRows States;
  macroscope::PointRows Events;
  macroscope::PointRows Variables;
  macroscope::MessageRows Messages;

  // False when a table misses a column.
  bool Read(const MacroscopeTraceInputs& trace)
  {
    bool complete = true;
    if (vtkTable* t = trace.States)
    {
      this->States = { this->Store.Ids32(t, schema::Location), this->Store.Ids32(t, schema::Type),
        this->Store.Ids32(t, schema::Depth), this->Store.Real(t, schema::Start),
        this->Store.Real(t, schema::End), static_cast<std::size_t>(t->GetNumberOfRows()) };
      const auto& s = this->States;
      complete = complete && s.Location && s.Type && s.Depth && s.Start && s.End;
    }
    if (vtkTable* t = trace.Events)
    {
      this->Events = { this->Store.Ids32(t, schema::Location), this->Store.Ids32(t, schema::Type),
        this->Store.Real(t, schema::Time), nullptr,
        static_cast<std::size_t>(t->GetNumberOfRows()) };
      complete = complete && this->Events.Location && this->Events.Type && this->Events.Time;
    }
    if (vtkTable* t = trace.Variables)
    {
      this->Variables = { this->Store.Ids32(t, schema::Location),
        this->Store.Ids32(t, schema::Variable), this->Store.Real(t, schema::Time), nullptr,
        static_cast<std::size_t>(t->GetNumberOfRows()) };
      const auto& v = this->Variables;
      complete = complete && v.Location && v.Type && v.Time;
    }
    if (vtkTable* t = trace.Messages)
    {
      this->Messages = { this->Store.Ids32(t, schema::Sender),
        this->Store.Ids32(t, schema::Receiver), this->Store.Real(t, schema::SendTime),
        this->Store.Real(t, schema::RecvTime), nullptr,
        static_cast<std::size_t>(t->GetNumberOfRows()) };
      const auto& m = this->Messages;
      complete = complete && m.Sender && m.Receiver && m.SendTime && m.RecvTime;
    }
    return complete;
  }
};

struct vtkMacroscopeTraceStatistics::TableCache
{
  vtkSmartPointer<vtkTable> Tables[3];
  vtkTimeStamp Built;
};

vtkMacroscopeTraceStatistics::vtkMacroscopeTraceStatistics()
  : Cache(new TableCache)
{
  this->SetNumberOfInputPorts(1);
  this->SetNumberOfOutputPorts(3);
  this->SetController(vtkMultiProcessController::GetGlobalController());
}

vtkMacroscopeTraceStatistics::~vtkMacroscopeTraceStatistics()
{
  this->SetController(nullptr);
}

void vtkMacroscopeTraceStatistics::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "TimeWindow: " << this->TimeWindow[0] << " " << this->TimeWindow[1] << "\n";
  os << indent << "Bins: " << this->Bins << "\n";
  os << indent << "Level: " << this->Level << "\n";
  os << indent << "Controller: " << this->Controller << "\n";
}

int vtkMacroscopeTraceStatistics::FillInputPortInformation(int, vtkInformation* info)
{
  MacroscopeTraceInputs::DeclareTracePort(info);
  return 1;
}

int vtkMacroscopeTraceStatistics::RequestUpdateExtent(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector*)
{
  // Whatever piece is asked downstream, rank i counts the i-th share of the
  // trace: the ranks' counts then add up to the trace's.
  MacroscopeTraceInputs::RequestRankPieces(inputVector[0], this->Controller);
  return 1;
}

int vtkMacroscopeTraceStatistics::RequestData(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  // An abort stops the run it interrupts; VTK leaves the flag set, which
  // would abort every later run too (docs/progress.md).
  this->SetAbortExecute(0);
  // A request for another piece of unchanged statistics is served from the
  // cache: only a real change recounts, on every rank at once, so that the
  // ranks always meet in the collective calls.
  TableCache& cache = *this->Cache;
  bool fresh = cache.Tables[0] && this->GetMTime() < cache.Built.GetMTime();
  for (int i = 0; fresh && i < inputVector[0]->GetNumberOfInformationObjects(); ++i)
  {
    vtkDataObject* input =
      inputVector[0]->GetInformationObject(i)->Get(vtkDataObject::DATA_OBJECT());
    fresh = input && input->GetMTime() < cache.Built.GetMTime();
  }
  if (!fresh)
  {
    for (auto& table : cache.Tables)
    {
      table = nullptr;
    }
    const int status = this->Compute(inputVector[0]);
    if (status != 1)
    {
      return status == 0 ? 0 : 1;
    }
    cache.Built.Modified();
  }
  this->WriteOutputs(outputVector);
  this->UpdateProgress(1.0);
  return 1;
}

int vtkMacroscopeTraceStatistics::Compute(vtkInformationVector* inputs)
{
  // Checks first: they depend on the properties and on the Hierarchy and
  // Types, which every piece holds whole, so every rank fails alike before
  // any collective call.
  MacroscopeTraceInputs trace;
  TraceShape shape;
  if (!this->CheckInputs(inputs, trace, shape))
  {
    return 0;
  }
  double window[2];
  bool closedEnd = false;
  if (!this->ChooseWindow(trace, window, closedEnd))
  {
    return 0;
  }
  macroscope::TraceStatisticsOptions options;
  options.Begin = window[0];
  options.End = window[1];
  options.ClosedEnd = closedEnd;
  options.Bins = this->Bins;
  options.Leaves = static_cast<uint32_t>(shape.Producers.ResourceOfLeaf.size());
  options.ProducerOfLeaf = shape.Producers.ResourceOfLeaf;
  options.Producers = shape.Producers.Resources;
  options.Types = static_cast<uint32_t>(trace.Types->GetNumberOfRows());
  options.Progress = [this](double fraction)
  {
    this->UpdateProgress(0.9 * fraction);
    return !this->GetAbortExecute();
  };
  TraceRows rows;
  int status = 1;
  if (!rows.Read(trace))
  {
    vtkErrorMacro("An input table misses a column of the data contract (see "
                  "docs/architecture.md): States need Location, Type, Depth, Start and End; "
                  "Events Location, Type and Time; Variables Location, Variable and Time; "
                  "Messages Sender, Receiver, SendTime and RecvTime.");
    status = 0;
  }

  // From here on a rank may fail alone (a bad row in its piece, an abort):
  // the ranks agree on the outcome before they exchange counts.
  macroscope::TraceTally tally;
  vtkMultiProcessController* controller = this->Controller;
  const bool parallel = controller && controller->GetNumberOfProcesses() > 1;
  status = MacroscopeRunCoreOnRanks<macroscope::TraceStatisticsAborted>(this,
    "Trace statistics failed", "Trace statistics aborted.", controller, parallel, status,
    [&]
    {
      tally =
        macroscope::TallyTrace(options, rows.States, rows.Events, rows.Variables, rows.Messages);
    });
  if (status != 1)
  {
    return status;
  }
  if (parallel)
  {
    ReduceTally(controller, tally);
  }
  this->Cache->Tables[0] =
    NewProducerTable(tally, shape.Producers, shape.Parent, trace.Hierarchy, this->Level, window);
  this->Cache->Tables[1] = NewTypeTable(tally, trace.Types, trace.Messages != nullptr);
  this->Cache->Tables[2] = NewDensityTable(tally, window, this->Bins);
  return 1;
}

bool vtkMacroscopeTraceStatistics::CheckInputs(
  vtkInformationVector* inputs, MacroscopeTraceInputs& trace, TraceShape& shape)
{
  std::string problem;
  if (!trace.CollectTrace(this, inputs, problem))
  {
    vtkErrorMacro(<< problem << ".");
    return false;
  }
  if (!trace.Hierarchy || !trace.Types ||
    !(trace.States || trace.Events || trace.Variables || trace.Messages))
  {
    vtkErrorMacro("Trace Statistics needs the trace reader's Hierarchy and Types outputs and at "
                  "least one of States, Events, Variables and Messages as inputs ("
      << trace.Describe() << ").");
    return false;
  }
  if (this->Bins < 1 || this->Bins > MaxBins)
  {
    vtkErrorMacro("Bins must be between 1 and " << MaxBins << " (got " << this->Bins << ").");
    return false;
  }
  if (this->Level < -1)
  {
    vtkErrorMacro(
      "Level must be -1 (the locations) or a hierarchy depth >= 0 (got " << this->Level << ").");
    return false;
  }
  std::vector<int64_t> leafIndex;
  if (!MacroscopeHierarchyArrays(trace.Hierarchy, shape.Parent, leafIndex, problem))
  {
    vtkErrorMacro(<< problem << ".");
    return false;
  }
  try
  {
    const int deepest = macroscope::DeepestLevel(shape.Parent);
    if (this->Level > deepest)
    {
      vtkErrorMacro("Level " << this->Level
                             << " is deeper than the Hierarchy, whose deepest level is " << deepest
                             << ".");
      return false;
    }
    shape.Producers = macroscope::BuildResourceHierarchy(shape.Parent, leafIndex, this->Level);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("The Hierarchy cannot be used: " << error.what());
    return false;
  }
  if (!vtkStringArray::SafeDownCast(trace.Types->GetColumnByName(schema::Name)) ||
    !vtkStringArray::SafeDownCast(trace.Types->GetColumnByName(schema::Kind)))
  {
    vtkErrorMacro("The Types table has no Name or Kind column.");
    return false;
  }
  return true;
}

bool vtkMacroscopeTraceStatistics::ChooseWindow(
  const MacroscopeTraceInputs& trace, double window[2], bool& closedEnd)
{
  // The whole trace by default, closed at the trace end so that the last
  // records count.
  double bounds[2];
  trace.TimeBounds(bounds, this->Controller);
  const double begin = this->TimeWindow[0];
  const double end = this->TimeWindow[1] == 0.0 ? bounds[1] : this->TimeWindow[1];
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
  window[0] = begin;
  window[1] = end;
  closedEnd = end >= bounds[1];
  return true;
}

void vtkMacroscopeTraceStatistics::WriteOutputs(vtkInformationVector* outputVector)
{
  // The tables are global: piece 0 holds them, once. Under MPI that is rank
  // 0's output, whichever of its ports the request came from (the other
  // ports carry no piece request then).
  const bool parallel = this->Controller && this->Controller->GetNumberOfProcesses() > 1;
  for (int port = 0; port < 3; ++port)
  {
    vtkInformation* info = outputVector->GetInformationObject(port);
    vtkTable* output = vtkTable::GetData(info);
    output->Initialize();
    const bool later = parallel
      ? this->Controller->GetLocalProcessId() > 0
      : info->Has(vtkStreamingDemandDrivenPipeline::UPDATE_PIECE_NUMBER()) &&
        info->Get(vtkStreamingDemandDrivenPipeline::UPDATE_PIECE_NUMBER()) > 0;
    if (!later)
    {
      output->ShallowCopy(this->Cache->Tables[port]);
    }
  }
}
