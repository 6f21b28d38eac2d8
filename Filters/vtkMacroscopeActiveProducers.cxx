#include "vtkMacroscopeActiveProducers.h"

#include "MacroscopeCoreRun.h"
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

// The trace's counts from every rank's counts of its share.
void SumOverRanks(vtkMultiProcessController* controller, macroscope::ActivityCounts& counts)
{
  std::vector<unsigned long long> mine;
  mine.reserve(4 * counts.States.size());
  for (const auto* kind : { &counts.States, &counts.Events, &counts.Variables, &counts.Messages })
  {
    mine.insert(mine.end(), kind->begin(), kind->end());
  }
  std::vector<unsigned long long> sum(mine.size());
  controller->AllReduce(
    mine.data(), sum.data(), static_cast<vtkIdType>(sum.size()), vtkCommunicator::SUM_OP);
  std::size_t next = 0;
  for (auto* kind : { &counts.States, &counts.Events, &counts.Variables, &counts.Messages })
  {
    for (auto& value : *kind)
    {
      value = sum[next++];
    }
  }
}
}

// The Hierarchy's parents and names, and the producers Level folds its
// leaves into.
struct vtkMacroscopeActiveProducers::Producers
{
  std::vector<int64_t> Parent;
  std::vector<std::string> Names;
  macroscope::ResourceHierarchy Folded;
};

// The rows as the core wants them: only the location columns and times.
struct vtkMacroscopeActiveProducers::ActivityRows
{
  MacroscopeColumnStore Store;
  macroscope::StateRows States;
  macroscope::PointRows Events;
  macroscope::PointRows Variables;
  macroscope::MessageRows Messages;

  // False when a table misses a column. An empty table has nothing to
  // count (and its columns no memory).
  bool Read(MacroscopeTraceInputs& trace)
  {
    for (vtkTable** table : { &trace.States, &trace.Events, &trace.Variables, &trace.Messages })
    {
      if (*table && (*table)->GetNumberOfRows() == 0)
      {
        *table = nullptr;
      }
    }
    bool complete = true;
    if (vtkTable* t = trace.States)
    {
      this->States.Location = this->Store.Ids32(t, schema::Location);
      this->States.Start = this->Store.Real(t, schema::Start);
      this->States.End = this->Store.Real(t, schema::End);
      this->States.Count = static_cast<std::size_t>(t->GetNumberOfRows());
      complete = complete && this->States.Location && this->States.Start && this->States.End;
    }
    for (auto [table, rows] : { std::make_pair(trace.Events, &this->Events),
           std::make_pair(trace.Variables, &this->Variables) })
    {
      if (table)
      {
        rows->Location = this->Store.Ids32(table, schema::Location);
        rows->Time = this->Store.Real(table, schema::Time);
        rows->Count = static_cast<std::size_t>(table->GetNumberOfRows());
        complete = complete && rows->Location && rows->Time;
      }
    }
    if (vtkTable* t = trace.Messages)
    {
      macroscope::MessageRows& m = this->Messages;
      m.Sender = this->Store.Ids32(t, schema::Sender);
      m.Receiver = this->Store.Ids32(t, schema::Receiver);
      m.SendTime = this->Store.Real(t, schema::SendTime);
      m.RecvTime = this->Store.Real(t, schema::RecvTime);
      m.Count = static_cast<std::size_t>(t->GetNumberOfRows());
      complete = complete && m.Sender && m.Receiver && m.SendTime && m.RecvTime;
    }
    return complete;
  }
};

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
  double window[2];
  if (!this->CheckProperties(window))
  {
    return 0;
  }
  MacroscopeTraceInputs trace;
  Producers producers;
  if (!this->ReadProducers(inputVector[0], trace, producers))
  {
    return 0;
  }
  const uint32_t leaves = static_cast<uint32_t>(producers.Folded.ResourceOfLeaf.size());
  ActivityRows rows;
  if (!rows.Read(trace))
  {
    vtkErrorMacro("An input table misses a location or time column of the data contract (see "
                  "docs/architecture.md).");
    return 0;
  }

  // Pieces: every rank counts its share of the locations; the sums are the
  // trace's counts (a rank given the whole trace already has them).
  macroscope::ActivityCounts counts(leaves);
  vtkMultiProcessController* controller = this->Controller;
  const bool parallel = MacroscopeTraceInputs::SplitOverRanks(inputVector[0], controller);
  const int status = MacroscopeRunCoreOnRanks<macroscope::ActivityAborted>(this,
    "Counting the records failed", "Active Producers aborted.", controller, parallel, 1,
    [&]
    {
      counts = macroscope::CountLeafActivity(leaves, { window[0], window[1] }, rows.States,
        rows.Events, rows.Variables, rows.Messages,
        [this](double fraction)
        {
          this->UpdateProgress(0.9 * fraction);
          return !this->GetAbortExecute();
        });
    });
  if (status != 1)
  {
    return status == 0 ? 0 : 1;
  }
  if (parallel)
  {
    SumOverRanks(controller, counts);
  }
  const macroscope::ActivityCounts perProducer =
    macroscope::SumByProducer(counts, producers.Folded.ResourceOfLeaf, producers.Folded.Resources);
  const std::vector<uint32_t> chosen = macroscope::ProducersWithActivity(
    perProducer, this->Activity == ACTIVE, static_cast<uint64_t>(this->MinimumRecords));
  // The table: on rank 0 only when the ranks shared the trace.
  const bool writesRows = !parallel || controller->GetLocalProcessId() == 0;
  this->WriteTable(
    vtkTable::GetData(outputVector), producers, perProducer, chosen, window, writesRows);
  this->UpdateProgress(1.0);
  return 1;
}

bool vtkMacroscopeActiveProducers::CheckProperties(double window[2])
{
  const double start = this->TimeWindow[0];
  const bool toTheEnd = this->TimeWindow[1] == 0.0;
  const double end = toTheEnd ? std::numeric_limits<double>::infinity() : this->TimeWindow[1];
  if (!std::isfinite(start) || !std::isfinite(this->TimeWindow[1]) || !(start < end))
  {
    vtkErrorMacro("TimeWindow (" << this->TimeWindow[0] << ", " << this->TimeWindow[1]
                                 << ") is not a window: it needs start < end, both finite (an "
                                    "end of 0 means the trace end).");
    return false;
  }
  if (this->Activity != ACTIVE && this->Activity != IDLE)
  {
    vtkErrorMacro("Activity must be 0 (active) or 1 (idle), not " << this->Activity << ".");
    return false;
  }
  if (this->Level < -1)
  {
    vtkErrorMacro(
      "Level must be -1 (locations) or a hierarchy depth >= 0, not " << this->Level << ".");
    return false;
  }
  if (this->MinimumRecords < 1)
  {
    vtkErrorMacro("MinimumRecords must be at least 1 (got " << this->MinimumRecords
                                                            << "): with 0 every producer is "
                                                               "active.");
    return false;
  }
  window[0] = start;
  window[1] = end;
  return true;
}

bool vtkMacroscopeActiveProducers::ReadProducers(
  vtkInformationVector* inputs, MacroscopeTraceInputs& trace, Producers& producers)
{
  std::string problem;
  if (!trace.CollectTrace(this, inputs, problem))
  {
    vtkErrorMacro(<< problem << ".");
    return false;
  }
  if (!trace.Hierarchy || !(trace.States || trace.Events || trace.Variables || trace.Messages))
  {
    vtkErrorMacro("Active Producers needs the trace reader's Hierarchy and at least one of its "
                  "States, Events, Variables or Messages outputs as inputs ("
      << trace.Describe() << ").");
    return false;
  }
  // The producers; paths are built for the rows only (every vertex's path
  // would cost the square of the depth).
  vtkTree* tree = trace.Hierarchy;
  std::vector<int64_t> leafIndex;
  auto* vertexNames =
    vtkStringArray::SafeDownCast(tree->GetVertexData()->GetAbstractArray(schema::Name));
  if (!MacroscopeHierarchyArrays(tree, producers.Parent, leafIndex, problem) || !vertexNames)
  {
    vtkErrorMacro("The Hierarchy cannot be used: "
      << (vertexNames ? problem : std::string("it has no Name vertex array")) << ".");
    return false;
  }
  producers.Names.resize(producers.Parent.size());
  for (std::size_t v = 0; v < producers.Names.size(); ++v)
  {
    producers.Names[v] = vertexNames->GetValue(static_cast<vtkIdType>(v));
  }
  try
  {
    producers.Folded = macroscope::BuildResourceHierarchy(producers.Parent, leafIndex, this->Level);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("The Hierarchy cannot be used: " << error.what() << ".");
    return false;
  }
  return true;
}

void vtkMacroscopeActiveProducers::WriteTable(vtkTable* output, const Producers& producers,
  const macroscope::ActivityCounts& perProducer, const std::vector<uint32_t>& chosen,
  const double window[2], bool writesRows)
{
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
  for (uint32_t p : chosen)
  {
    const std::size_t vertex = static_cast<std::size_t>(producers.Folded.Vertex[p]);
    const std::string path = macroscope::VertexPath(producers.Parent, producers.Names, vertex);
    resourceNames->InsertNextValue(path);
    if (!writesRows)
    {
      continue;
    }
    nameColumn->InsertNextValue(producers.Names[vertex]);
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
  total->InsertNextValue(static_cast<vtkTypeInt64>(producers.Folded.Resources));
  fields->AddArray(total);
  vtkNew<vtkDoubleArray> windowArray;
  windowArray->SetName("TimeWindow");
  windowArray->SetNumberOfComponents(2);
  windowArray->InsertNextTuple2(window[0], window[1]);
  fields->AddArray(windowArray);
  vtkNew<vtkStringArray> activity;
  activity->SetName("Activity");
  activity->InsertNextValue(this->Activity == ACTIVE ? "active" : "idle");
  fields->AddArray(activity);
}
