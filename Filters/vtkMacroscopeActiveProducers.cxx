#include "vtkMacroscopeActiveProducers.h"

#include "MacroscopeTraceColumns.h"
#include "MacroscopeTraceInputs.h"
#include "ProducerActivity.h"
#include "ResourceHierarchy.h"
#include "ResourceSelection.h"
#include "TraceSchema.h"

#include "vtkCommunicator.h"
#include "vtkDataSetAttributes.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkIdTypeArray.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkMultiProcessController.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkStreamingDemandDrivenPipeline.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkTree.h"
#include "vtkTypeInt64Array.h"

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

vtkStandardNewMacro(vtkMacroscopeActiveProducers);

vtkCxxSetObjectMacro(vtkMacroscopeActiveProducers, Controller, vtkMultiProcessController);

namespace
{
namespace schema = macroscope::schema;

}

vtkMacroscopeActiveProducers::vtkMacroscopeActiveProducers()
{
  this->SetController(vtkMultiProcessController::GetGlobalController());
}

vtkMacroscopeActiveProducers::~vtkMacroscopeActiveProducers()
{
  this->SetController(nullptr);
}

void vtkMacroscopeActiveProducers::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "TimeWindow: " << this->TimeWindow[0] << " " << this->TimeWindow[1] << "\n";
  os << indent << "Activity: " << (this->Activity == IDLE ? "idle" : "active") << "\n";
  os << indent << "Level: " << this->Level << "\n";
  os << indent << "MinimumRecords: " << this->MinimumRecords << "\n";
  os << indent << "Controller: " << this->Controller << "\n";
}

int vtkMacroscopeActiveProducers::FillInputPortInformation(int, vtkInformation* info)
{
  MacroscopeTraceInputs::DeclareTracePort(info);
  return 1;
}

int vtkMacroscopeActiveProducers::RequestUpdateExtent(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector*)
{
  // Rank i counts the i-th share of the locations, whatever piece is asked
  // downstream: the ranks' counts then add up to the trace's.
  MacroscopeTraceInputs::RequestRankPieces(inputVector[0], this->Controller);
  return 1;
}

int vtkMacroscopeActiveProducers::RequestData(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  // An abort stops the run it interrupts; VTK leaves the flag set, which
  // would abort every later run too (docs/progress.md).
  this->SetAbortExecute(0);
  // Properties first: every rank rejects the same values, before any
  // collective call.
  const double start = this->TimeWindow[0];
  const bool toTheEnd = this->TimeWindow[1] == 0.0;
  const double end = toTheEnd ? std::numeric_limits<double>::infinity() : this->TimeWindow[1];
  if (!std::isfinite(start) || !std::isfinite(this->TimeWindow[1]) || !(start < end))
  {
    vtkErrorMacro("TimeWindow (" << this->TimeWindow[0] << ", " << this->TimeWindow[1]
                                 << ") is not a window: it needs start < end, both finite (an "
                                    "end of 0 means the trace end).");
    return 0;
  }
  if (this->Activity != ACTIVE && this->Activity != IDLE)
  {
    vtkErrorMacro("Activity must be 0 (active) or 1 (idle), not " << this->Activity << ".");
    return 0;
  }
  if (this->Level < -1)
  {
    vtkErrorMacro("Level must be -1 (locations) or a hierarchy depth >= 0, not " << this->Level
                                                                                  << ".");
    return 0;
  }
  if (this->MinimumRecords < 1)
  {
    vtkErrorMacro("MinimumRecords must be at least 1 (got " << this->MinimumRecords
                                                            << "): with 0 every producer is "
                                                               "active.");
    return 0;
  }

  MacroscopeTraceInputs trace;
  std::string problem;
  if (!trace.CollectTrace(this, inputVector[0], problem))
  {
    vtkErrorMacro(<< problem << ".");
    return 0;
  }
  if (!trace.Hierarchy || !(trace.States || trace.Events || trace.Variables || trace.Messages))
  {
    vtkErrorMacro("Active Producers needs the trace reader's Hierarchy and at least one of its "
                  "States, Events, Variables or Messages outputs as inputs ("
      << trace.Describe() << ").");
    return 0;
  }

  // The producers; paths are built for the rows only (every vertex's path
  // would cost the square of the depth).
  vtkTree* tree = trace.Hierarchy;
  std::vector<int64_t> parent;
  std::vector<int64_t> leafIndex;
  auto* vertexNames =
    vtkStringArray::SafeDownCast(tree->GetVertexData()->GetAbstractArray(schema::Name));
  if (!MacroscopeHierarchyArrays(tree, parent, leafIndex, problem) || !vertexNames)
  {
    vtkErrorMacro("The Hierarchy cannot be used: "
      << (vertexNames ? problem : std::string("it has no Name vertex array")) << ".");
    return 0;
  }
  std::vector<std::string> names(parent.size());
  for (std::size_t v = 0; v < names.size(); ++v)
  {
    names[v] = vertexNames->GetValue(static_cast<vtkIdType>(v));
  }
  macroscope::ResourceHierarchy producers;
  try
  {
    producers = macroscope::BuildResourceHierarchy(parent, leafIndex, this->Level);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("The Hierarchy cannot be used: " << error.what() << ".");
    return 0;
  }
  const uint32_t leaves = static_cast<uint32_t>(producers.ResourceOfLeaf.size());

  // The rows as the core wants them (only the location columns and times);
  // an empty table has nothing to count (and its columns no memory).
  for (vtkTable** table : { &trace.States, &trace.Events, &trace.Variables, &trace.Messages })
  {
    if (*table && (*table)->GetNumberOfRows() == 0)
    {
      *table = nullptr;
    }
  }
  MacroscopeColumnStore store;
  macroscope::StateRows states;
  macroscope::PointRows events;
  macroscope::PointRows variables;
  macroscope::MessageRows messages;
  bool complete = true;
  if (trace.States)
  {
    states.Location = store.Ids32(trace.States, schema::Location);
    states.Start = store.Real(trace.States, schema::Start);
    states.End = store.Real(trace.States, schema::End);
    states.Count = static_cast<std::size_t>(trace.States->GetNumberOfRows());
    complete = complete && states.Location && states.Start && states.End;
  }
  for (auto [table, rows] : { std::make_pair(trace.Events, &events),
         std::make_pair(trace.Variables, &variables) })
  {
    if (table)
    {
      rows->Location = store.Ids32(table, schema::Location);
      rows->Time = store.Real(table, schema::Time);
      rows->Count = static_cast<std::size_t>(table->GetNumberOfRows());
      complete = complete && rows->Location && rows->Time;
    }
  }
  if (trace.Messages)
  {
    messages.Sender = store.Ids32(trace.Messages, schema::Sender);
    messages.Receiver = store.Ids32(trace.Messages, schema::Receiver);
    messages.SendTime = store.Real(trace.Messages, schema::SendTime);
    messages.RecvTime = store.Real(trace.Messages, schema::RecvTime);
    messages.Count = static_cast<std::size_t>(trace.Messages->GetNumberOfRows());
    complete = complete && messages.Sender && messages.Receiver && messages.SendTime &&
      messages.RecvTime;
  }
  if (!complete)
  {
    vtkErrorMacro("An input table misses a location or time column of the data contract (see "
                  "docs/architecture.md).");
    return 0;
  }

  macroscope::ActivityCounts counts(leaves);
  int status = 1;
  try
  {
    counts = macroscope::CountLeafActivity(leaves, { start, end }, states, events, variables,
      messages, [this](double fraction) {
        this->UpdateProgress(0.9 * fraction);
        return !this->GetAbortExecute();
      });
  }
  catch (const macroscope::ActivityAborted&)
  {
    vtkWarningMacro("Active Producers aborted.");
    status = -1;
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("Counting the records failed: " << error.what());
    status = 0;
  }

  // Pieces: every rank counted its share of the locations; the sums are
  // the trace's counts (a rank given the whole trace already has them).
  vtkMultiProcessController* controller = this->Controller;
  const bool parallel = MacroscopeTraceInputs::SplitOverRanks(inputVector[0], controller);
  status = MacroscopeTraceInputs::AgreeOnStatus(status, controller, parallel);
  if (status != 1)
  {
    return status == 0 ? 0 : 1;
  }
  if (parallel)
  {
    std::vector<unsigned long long> mine;
    mine.reserve(4 * std::size_t(leaves));
    for (const auto* kind : { &counts.States, &counts.Events, &counts.Variables, &counts.Messages })
    {
      mine.insert(mine.end(), kind->begin(), kind->end());
    }
    std::vector<unsigned long long> sum(mine.size());
    controller->AllReduce(mine.data(), sum.data(), static_cast<vtkIdType>(sum.size()),
      vtkCommunicator::SUM_OP);
    std::size_t next = 0;
    for (auto* kind : { &counts.States, &counts.Events, &counts.Variables, &counts.Messages })
    {
      for (auto& value : *kind)
      {
        value = sum[next++];
      }
    }
  }
  const macroscope::ActivityCounts perProducer =
    macroscope::SumByProducer(counts, producers.ResourceOfLeaf, producers.Resources);
  const std::vector<uint32_t> chosen = macroscope::ProducersWithActivity(perProducer,
    this->Activity == ACTIVE, static_cast<uint64_t>(this->MinimumRecords));

  // The table: on rank 0 only when the ranks shared the trace.
  vtkTable* output = vtkTable::GetData(outputVector);
  output->Initialize();
  auto* nameColumn = MacroscopeNewColumn<vtkStringArray>(output, "Name");
  auto* pathColumn = MacroscopeNewColumn<vtkStringArray>(output, "Path");
  auto* vertexColumn = MacroscopeNewColumn<vtkIdTypeArray>(output, "Vertex");
  vtkTypeInt64Array* kindColumns[5];
  const char* kindNames[5] = { "States", "Events", "Variables", "Messages", "Total" };
  for (int k = 0; k < 5; ++k)
  {
    kindColumns[k] = MacroscopeNewColumn<vtkTypeInt64Array>(output, kindNames[k]);
  }
  vtkNew<vtkStringArray> resourceNames;
  resourceNames->SetName("ResourceNames");
  const bool writesRows = !parallel || controller->GetLocalProcessId() == 0;
  for (uint32_t p : chosen)
  {
    const std::size_t vertex = static_cast<std::size_t>(producers.Vertex[p]);
    const std::string path = macroscope::VertexPath(parent, names, vertex);
    resourceNames->InsertNextValue(path);
    if (!writesRows)
    {
      continue;
    }
    nameColumn->InsertNextValue(names[vertex]);
    pathColumn->InsertNextValue(path);
    vertexColumn->InsertNextValue(static_cast<vtkIdType>(vertex));
    const uint64_t values[5] = { perProducer.States[p], perProducer.Events[p],
      perProducer.Variables[p], perProducer.Messages[p], perProducer.Total(p) };
    for (int k = 0; k < 5; ++k)
    {
      kindColumns[k]->InsertNextValue(static_cast<vtkTypeInt64>(values[k]));
    }
  }
  vtkFieldData* fields = output->GetFieldData();
  fields->AddArray(resourceNames);
  vtkNew<vtkTypeInt64Array> selected;
  selected->SetName("Selected");
  selected->InsertNextValue(static_cast<vtkTypeInt64>(chosen.size()));
  fields->AddArray(selected);
  vtkNew<vtkTypeInt64Array> total;
  total->SetName("Total");
  total->InsertNextValue(static_cast<vtkTypeInt64>(producers.Resources));
  fields->AddArray(total);
  vtkNew<vtkDoubleArray> window;
  window->SetName("TimeWindow");
  window->SetNumberOfComponents(2);
  window->InsertNextTuple2(start, end);
  fields->AddArray(window);
  vtkNew<vtkStringArray> activity;
  activity->SetName("Activity");
  activity->InsertNextValue(this->Activity == ACTIVE ? "active" : "idle");
  fields->AddArray(activity);
  this->UpdateProgress(1.0);
  return 1;
}
