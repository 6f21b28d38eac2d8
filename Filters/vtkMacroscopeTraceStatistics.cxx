#include "vtkMacroscopeTraceStatistics.h"

#include "ResourceHierarchy.h"
#include "TraceSchema.h"
#include "TraceStatistics.h"
#include "MacroscopeTraceColumns.h"
#include "MacroscopeTraceInputs.h"

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

template <typename Array, typename Value>
void AddField(vtkTable* table, const char* name, Value value)
{
  vtkNew<Array> array;
  array->SetName(name);
  array->InsertNextValue(value);
  table->GetFieldData()->AddArray(array);
}

// Sums (or takes the extreme of) a vector over the ranks, in place.
template <typename T>
void Reduce(vtkMultiProcessController* controller, std::vector<T>& values, int operation)
{
  std::vector<T> result(values.size());
  controller->AllReduce(values.data(), result.data(), static_cast<vtkIdType>(values.size()),
    operation);
  values.swap(result);
}
}

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
  std::string problem;
  if (!trace.CollectTrace(this, inputs, problem))
  {
    vtkErrorMacro(<< problem << ".");
    return 0;
  }
  if (!trace.Hierarchy || !trace.Types ||
    !(trace.States || trace.Events || trace.Variables || trace.Messages))
  {
    vtkErrorMacro("Trace Statistics needs the trace reader's Hierarchy and Types outputs and at "
                  "least one of States, Events, Variables and Messages as inputs ("
      << trace.Describe() << ").");
    return 0;
  }
  if (this->Bins < 1 || this->Bins > MaxBins)
  {
    vtkErrorMacro("Bins must be between 1 and " << MaxBins << " (got " << this->Bins << ").");
    return 0;
  }
  if (this->Level < -1)
  {
    vtkErrorMacro("Level must be -1 (the locations) or a hierarchy depth >= 0 (got "
      << this->Level << ").");
    return 0;
  }
  std::vector<int64_t> parent;
  std::vector<int64_t> leafIndex;
  if (!MacroscopeHierarchyArrays(trace.Hierarchy, parent, leafIndex, problem))
  {
    vtkErrorMacro(<< problem << ".");
    return 0;
  }
  int deepest = 0;
  std::vector<int> depth(parent.size(), 0);
  for (std::size_t v = 1; v < parent.size(); ++v)
  {
    depth[v] = parent[v] >= 0 && parent[v] < static_cast<int64_t>(v) ? depth[parent[v]] + 1 : 0;
    deepest = std::max(deepest, depth[v]);
  }
  if (this->Level > deepest)
  {
    vtkErrorMacro("Level " << this->Level << " is deeper than the Hierarchy, whose deepest level is "
                           << deepest << ".");
    return 0;
  }
  macroscope::ResourceHierarchy producers;
  try
  {
    producers = macroscope::BuildResourceHierarchy(parent, leafIndex, this->Level);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("The Hierarchy cannot be used: " << error.what());
    return 0;
  }
  auto* typeNames = vtkStringArray::SafeDownCast(trace.Types->GetColumnByName(schema::Name));
  auto* typeKinds = vtkStringArray::SafeDownCast(trace.Types->GetColumnByName(schema::Kind));
  if (!typeNames || !typeKinds)
  {
    vtkErrorMacro("The Types table has no Name or Kind column.");
    return 0;
  }

  // The window: the whole trace by default, closed at the trace end so that
  // the last records count.
  double bounds[2];
  trace.TimeBounds(bounds, this->Controller);
  const double begin = this->TimeWindow[0];
  const double end = this->TimeWindow[1] == 0.0 ? bounds[1] : this->TimeWindow[1];
  if (!(end > begin) || !std::isfinite(begin) || !std::isfinite(end) || begin < 0.0)
  {
    vtkErrorMacro("TimeWindow (" << this->TimeWindow[0] << ", " << this->TimeWindow[1]
                                 << ") is not a window of the trace [" << bounds[0] << ", "
                                 << bounds[1] << "] s: it needs 0 <= start < end (an end of 0 "
                                                 "means the trace end).");
    return 0;
  }
  if (begin >= bounds[1] && bounds[1] > bounds[0])
  {
    vtkErrorMacro("TimeWindow starts at " << begin << " s, after the trace ends (" << bounds[1]
                                          << " s).");
    return 0;
  }

  macroscope::TraceStatisticsOptions options;
  options.Begin = begin;
  options.End = end;
  options.ClosedEnd = end >= bounds[1];
  options.Bins = this->Bins;
  options.Leaves = static_cast<uint32_t>(producers.ResourceOfLeaf.size());
  options.ProducerOfLeaf = producers.ResourceOfLeaf;
  options.Producers = producers.Resources;
  options.Types = static_cast<uint32_t>(trace.Types->GetNumberOfRows());
  options.Progress = [this](double fraction) {
    this->UpdateProgress(0.9 * fraction);
    return !this->GetAbortExecute();
  };

  MacroscopeColumnStore store;
  macroscope::StateRows states;
  macroscope::PointRows events;
  macroscope::PointRows variables;
  macroscope::MessageRows messages;
  bool complete = true;
  if (vtkTable* t = trace.States)
  {
    states = { store.Ids32(t, schema::Location), store.Ids32(t, schema::Type),
      store.Ids32(t, schema::Depth), store.Real(t, schema::Start), store.Real(t, schema::End),
      static_cast<std::size_t>(t->GetNumberOfRows()) };
    complete = complete && states.Location && states.Type && states.Depth && states.Start &&
      states.End;
  }
  if (vtkTable* t = trace.Events)
  {
    events = { store.Ids32(t, schema::Location), store.Ids32(t, schema::Type),
      store.Real(t, schema::Time), nullptr, static_cast<std::size_t>(t->GetNumberOfRows()) };
    complete = complete && events.Location && events.Type && events.Time;
  }
  if (vtkTable* t = trace.Variables)
  {
    variables = { store.Ids32(t, schema::Location), store.Ids32(t, schema::Variable),
      store.Real(t, schema::Time), nullptr, static_cast<std::size_t>(t->GetNumberOfRows()) };
    complete = complete && variables.Location && variables.Type && variables.Time;
  }
  if (vtkTable* t = trace.Messages)
  {
    messages = { store.Ids32(t, schema::Sender), store.Ids32(t, schema::Receiver),
      store.Real(t, schema::SendTime), store.Real(t, schema::RecvTime), nullptr,
      static_cast<std::size_t>(t->GetNumberOfRows()) };
    complete = complete && messages.Sender && messages.Receiver && messages.SendTime &&
      messages.RecvTime;
  }

  // From here on a rank may fail alone (a bad row in its piece, an abort):
  // the ranks agree on the outcome before they exchange counts.
  int status = 1;
  macroscope::TraceTally tally;
  if (!complete)
  {
    vtkErrorMacro("An input table misses a column of the data contract (see "
                  "docs/architecture.md): States need Location, Type, Depth, Start and End; "
                  "Events Location, Type and Time; Variables Location, Variable and Time; "
                  "Messages Sender, Receiver, SendTime and RecvTime.");
    status = 0;
  }
  else
  {
    try
    {
      tally = macroscope::TallyTrace(options, states, events, variables, messages);
    }
    catch (const macroscope::TraceStatisticsAborted&)
    {
      vtkWarningMacro("Trace statistics aborted.");
      status = -1;
    }
    catch (const std::exception& error)
    {
      vtkErrorMacro("Trace statistics failed: " << error.what());
      status = 0;
    }
  }
  vtkMultiProcessController* controller = this->Controller;
  if (controller && controller->GetNumberOfProcesses() > 1)
  {
    int worst = status;
    controller->AllReduce(&status, &worst, 1, vtkCommunicator::MIN_OP);
    status = worst;
    if (status == 1)
    {
      // Every count is a sum over rows, and every rank holds its own rows.
      Reduce(controller, tally.ProducerRecords, vtkCommunicator::SUM_OP);
      Reduce(controller, tally.ProducerStateTime, vtkCommunicator::SUM_OP);
      Reduce(controller, tally.TypeCount, vtkCommunicator::SUM_OP);
      Reduce(controller, tally.TypeDuration, vtkCommunicator::SUM_OP);
      Reduce(controller, tally.TypeMinDuration, vtkCommunicator::MIN_OP);
      Reduce(controller, tally.TypeMaxDuration, vtkCommunicator::MAX_OP);
      Reduce(controller, tally.Density, vtkCommunicator::SUM_OP);
    }
  }
  if (status != 1)
  {
    return status;
  }

  // Output 0: the producers, busiest first.
  const macroscope::ProducerSummary summary = macroscope::SummarizeProducers(tally);
  vtkTree* tree = trace.Hierarchy;
  auto* vertexNames =
    vtkStringArray::SafeDownCast(tree->GetVertexData()->GetAbstractArray(schema::Name));
  auto nameOf = [vertexNames](vtkIdType vertex) {
    return vertexNames ? vertexNames->GetValue(vertex) : std::to_string(vertex);
  };
  vtkNew<vtkTable> producerTable;
  auto* rank = MacroscopeNewColumn<vtkIntArray>(producerTable, "Rank");
  auto* name = MacroscopeNewColumn<vtkStringArray>(producerTable, "Name");
  auto* path = MacroscopeNewColumn<vtkStringArray>(producerTable, "Path");
  auto* stateCount = MacroscopeNewColumn<vtkTypeInt64Array>(producerTable, "States");
  auto* eventCount = MacroscopeNewColumn<vtkTypeInt64Array>(producerTable, "Events");
  auto* sentCount = MacroscopeNewColumn<vtkTypeInt64Array>(producerTable, "MessagesSent");
  auto* receivedCount = MacroscopeNewColumn<vtkTypeInt64Array>(producerTable, "MessagesReceived");
  auto* records = MacroscopeNewColumn<vtkTypeInt64Array>(producerTable, "Records");
  auto* stateTime = MacroscopeNewColumn<vtkDoubleArray>(producerTable, "StateTime");
  auto* recordShare = MacroscopeNewColumn<vtkDoubleArray>(producerTable, "RecordShare");
  auto* cumulative = MacroscopeNewColumn<vtkDoubleArray>(producerTable, "CumulativeShare");
  auto* producerShare = MacroscopeNewColumn<vtkDoubleArray>(producerTable, "ProducerShare");
  auto* producerIndex = MacroscopeNewColumn<vtkIntArray>(producerTable, "Producer");
  int position = 0;
  std::vector<vtkIdType> chain; // a producer's vertex and its ancestors
  for (const macroscope::ProducerStatistics& row : summary.Rows)
  {
    const vtkIdType vertex = static_cast<vtkIdType>(producers.Vertex[row.Producer]);
    // Root first, each name copied once: prepending name by name would
    // copy the path once per level (the square of a deep hierarchy's depth).
    chain.assign(1, vertex);
    for (vtkIdType v = tree->GetParent(vertex); v >= 0; v = tree->GetParent(v))
    {
      chain.push_back(v);
    }
    std::string where;
    for (auto v = chain.rbegin(); v != chain.rend(); ++v)
    {
      where += (v == chain.rbegin() ? "" : "/") + nameOf(*v);
    }
    rank->InsertNextValue(++position);
    name->InsertNextValue(nameOf(vertex));
    path->InsertNextValue(where);
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
  AddField<vtkIntArray>(producerTable, "ProducersFor80Percent",
    static_cast<int>(summary.ProducersFor80Percent));
  AddField<vtkDoubleArray>(producerTable, "ProducerShareFor80Percent",
    summary.ProducerShareFor80Percent);
  AddField<vtkTypeInt64Array>(
    producerTable, "TotalStates", summary.Totals[macroscope::StateRecord]);
  AddField<vtkTypeInt64Array>(
    producerTable, "TotalEvents", summary.Totals[macroscope::EventRecord]);
  AddField<vtkTypeInt64Array>(
    producerTable, "TotalMessagesSent", summary.Totals[macroscope::SendRecord]);
  AddField<vtkTypeInt64Array>(
    producerTable, "TotalMessagesReceived", summary.Totals[macroscope::ReceiveRecord]);
  AddField<vtkTypeInt64Array>(producerTable, "TotalRecords", summary.TotalRecords);
  AddField<vtkDoubleArray>(producerTable, "TotalStateTime", summary.TotalStateTime);
  AddField<vtkIntArray>(producerTable, "Producers", static_cast<int>(producers.Resources));
  AddField<vtkIntArray>(producerTable, "Level", this->Level);
  vtkNew<vtkDoubleArray> window;
  window->SetName("TimeWindow");
  window->SetNumberOfComponents(2);
  window->InsertNextTuple2(begin, end);
  producerTable->GetFieldData()->AddArray(window);

  // Output 1: the types of the counted kinds, and the messages, which have
  // no type column: their line takes the name of the trace's link type
  // when there is exactly one.
  std::vector<uint32_t> listed;
  std::vector<bool> isState(options.Types, false);
  vtkIdType linkType = -1;
  int linkTypes = 0;
  for (vtkIdType t = 0; t < trace.Types->GetNumberOfRows(); ++t)
  {
    const std::string& kind = typeKinds->GetValue(t);
    isState[t] = kind == schema::StateKind;
    if (kind == schema::StateKind || kind == schema::EventKind || kind == schema::VariableKind)
    {
      listed.push_back(static_cast<uint32_t>(t));
    }
    else if (kind == schema::LinkKind)
    {
      linkType = t;
      ++linkTypes;
    }
  }
  const bool withMessages = trace.Messages != nullptr;
  const std::vector<macroscope::TypeStatistics> typeRows =
    macroscope::SummarizeTypes(tally, listed, isState, withMessages);
  vtkNew<vtkTable> typeTable;
  auto* typeName = MacroscopeNewColumn<vtkStringArray>(typeTable, "Name");
  auto* typeKind = MacroscopeNewColumn<vtkStringArray>(typeTable, "Kind");
  auto* typeId = MacroscopeNewColumn<vtkIntArray>(typeTable, "Id");
  auto* count = MacroscopeNewColumn<vtkTypeInt64Array>(typeTable, "Count");
  auto* total = MacroscopeNewColumn<vtkDoubleArray>(typeTable, "TotalDuration");
  auto* mean = MacroscopeNewColumn<vtkDoubleArray>(typeTable, "MeanDuration");
  auto* shortest = MacroscopeNewColumn<vtkDoubleArray>(typeTable, "MinDuration");
  auto* longest = MacroscopeNewColumn<vtkDoubleArray>(typeTable, "MaxDuration");
  auto* share = MacroscopeNewColumn<vtkDoubleArray>(typeTable, "Share");
  for (const macroscope::TypeStatistics& row : typeRows)
  {
    if (row.Type == macroscope::TypeStatistics::MessageType)
    {
      const bool named = linkTypes == 1;
      typeName->InsertNextValue(named ? typeNames->GetValue(linkType) : "Messages");
      typeKind->InsertNextValue(schema::LinkKind);
      typeId->InsertNextValue(named ? static_cast<int>(linkType) : -1);
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

  // Output 2: the records per time bin.
  vtkNew<vtkTable> density;
  auto* binStart = MacroscopeNewColumn<vtkDoubleArray>(density, "BinStart");
  auto* binCenter = MacroscopeNewColumn<vtkDoubleArray>(density, "BinCenter");
  auto* binEnd = MacroscopeNewColumn<vtkDoubleArray>(density, "BinEnd");
  auto* binRecords = MacroscopeNewColumn<vtkTypeInt64Array>(density, "Records");
  vtkTypeInt64Array* byKind[macroscope::RecordKinds] = {
    MacroscopeNewColumn<vtkTypeInt64Array>(density, "States"),
    MacroscopeNewColumn<vtkTypeInt64Array>(density, "Events"),
    MacroscopeNewColumn<vtkTypeInt64Array>(density, "MessagesSent"),
    MacroscopeNewColumn<vtkTypeInt64Array>(density, "MessagesReceived") };
  const double width = (end - begin) / this->Bins;
  for (int b = 0; b < this->Bins; ++b)
  {
    const double from = begin + b * width;
    const double to = b + 1 == this->Bins ? end : begin + (b + 1) * width;
    binStart->InsertNextValue(from);
    binCenter->InsertNextValue(0.5 * (from + to));
    binEnd->InsertNextValue(to);
    int64_t all = 0;
    for (int k = 0; k < macroscope::RecordKinds; ++k)
    {
      const int64_t n = tally.Density[static_cast<std::size_t>(b) * macroscope::RecordKinds + k];
      byKind[k]->InsertNextValue(n);
      all += n;
    }
    binRecords->InsertNextValue(all);
  }
  AddField<vtkDoubleArray>(density, "BinWidth", width);
  vtkNew<vtkDoubleArray> densityWindow;
  densityWindow->DeepCopy(window);
  density->GetFieldData()->AddArray(densityWindow);

  this->Cache->Tables[0] = producerTable;
  this->Cache->Tables[1] = typeTable;
  this->Cache->Tables[2] = density;
  return 1;
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
