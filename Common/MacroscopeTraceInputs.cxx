#include "MacroscopeTraceInputs.h"
#include "vtkAlgorithm.h"
#include "vtkStreamingDemandDrivenPipeline.h"

#include "MacroscopeTraceLookup.h"
#include "TraceSchema.h"
#include "vtkInformationDataObjectMetaDataKey.h"
#include "vtkMacroscopeTraceKeys.h"

#include "vtkCommunicator.h"
#include "vtkDataArray.h"
#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkMultiProcessController.h"
#include "vtkNew.h"
#include "vtkTable.h"
#include "vtkTree.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace
{
namespace schema = macroscope::schema;

bool Has(vtkTable* table, const char* column)
{
  return table->GetColumnByName(column) != nullptr;
}

void Extent(vtkTable* table, const char* column, double& low, double& high)
{
  auto* data = table ? vtkDataArray::SafeDownCast(table->GetColumnByName(column)) : nullptr;
  if (data && data->GetNumberOfTuples() > 0)
  {
    double range[2];
    data->GetRange(range, 0);
    low = std::min(low, range[0]);
    high = std::max(high, range[1]);
  }
}
}

bool MacroscopeTraceInputs::Collect(vtkInformationVector* inputs, std::string& problem)
{
  for (int i = 0; i < inputs->GetNumberOfInformationObjects(); ++i)
  {
    vtkDataObject* data = inputs->GetInformationObject(i)->Get(vtkDataObject::DATA_OBJECT());
    vtkTable* table = vtkTable::SafeDownCast(data);
    vtkTable** slot = nullptr;
    if (auto* tree = vtkTree::SafeDownCast(data))
    {
      if (this->Hierarchy)
      {
        problem = "two Hierarchy inputs were given";
        return false;
      }
      this->Hierarchy = tree;
      continue;
    }
    if (!table)
    {
      problem = std::string("an input is a ") + (data ? data->GetClassName() : "null") +
        ", not a trace table or hierarchy";
      return false;
    }
    if (Has(table, schema::Id) && Has(table, schema::Name) && Has(table, schema::Kind))
    {
      slot = &this->Types;
    }
    else if (Has(table, schema::Start) && Has(table, schema::End))
    {
      slot = &this->States;
    }
    else if (Has(table, schema::Sender) && Has(table, schema::Receiver))
    {
      slot = &this->Messages;
    }
    else if (Has(table, schema::Variable) && Has(table, schema::Value))
    {
      slot = &this->Variables;
    }
    else if (Has(table, schema::Location) && Has(table, schema::Type) && Has(table, schema::Time))
    {
      slot = &this->Events;
    }
    if (!slot)
    {
      problem = "an input table is none of a trace reader's States, Messages, Events, Variables "
                "or Types (see docs/architecture.md)";
      return false;
    }
    if (*slot)
    {
      problem = "the same kind of trace table was given twice";
      return false;
    }
    *slot = table;
  }
  return true;
}

bool MacroscopeTraceInputs::CollectTrace(
  vtkAlgorithm* consumer, vtkInformationVector* inputs, std::string& problem)
{
  if (!this->Collect(inputs, problem))
  {
    return false;
  }
  vtkNew<vtkInformationVector> found;
  if (inputs->GetNumberOfInformationObjects() != 1 || consumer->GetNumberOfInputPorts() < 1 ||
    consumer->GetNumberOfInputConnections(0) != 1 ||
    !MacroscopeFindTrace(consumer->GetInputAlgorithm(0, 0), found))
  {
    return true; // the filter says what it misses
  }
  MacroscopeTraceInputs whole;
  if (!whole.Collect(found, problem))
  {
    return false;
  }
  // The given table stays itself (it may be a filtered copy of the
  // reader's); only what it is not comes from the reader.
  auto fill = [this](auto*& mine, auto* theirs)
  {
    if (!mine && theirs)
    {
      mine = theirs;
      this->Completed = true;
    }
  };
  fill(this->States, whole.States);
  fill(this->Messages, whole.Messages);
  fill(this->Events, whole.Events);
  fill(this->Variables, whole.Variables);
  fill(this->Hierarchy, whole.Hierarchy);
  fill(this->Types, whole.Types);
  return true;
}

void MacroscopeTraceInputs::FindDefinitions(
  vtkAlgorithm* consumer, vtkInformationVector* inputs, vtkTree*& hierarchy, vtkTable*& types)
{
  hierarchy = nullptr;
  types = nullptr;
  for (int i = 0; i < inputs->GetNumberOfInformationObjects(); ++i)
  {
    vtkInformation* info = inputs->GetInformationObject(i);
    if (info->Has(vtkMacroscopeTraceKeys::DEFINITIONS()))
    {
      vtkDataObject* definitions = info->Get(vtkMacroscopeTraceKeys::DEFINITIONS());
      hierarchy = hierarchy ? hierarchy : vtkTree::SafeDownCast(definitions);
      types = types ? types : vtkTable::SafeDownCast(definitions);
    }
  }
  if (inputs->GetNumberOfInformationObjects() == 1 && consumer->GetNumberOfInputPorts() > 0 &&
    consumer->GetNumberOfInputConnections(0) == 1 && (!hierarchy || !types))
  {
    MacroscopeFindDefinitions(consumer->GetInputAlgorithm(0, 0), hierarchy, types);
  }
}

std::string MacroscopeTraceInputs::Describe() const
{
  std::string found;
  auto add = [&found](const void* present, const char* name)
  {
    if (present)
    {
      found += (found.empty() ? "" : ", ") + std::string(name);
    }
  };
  add(this->States, "States");
  add(this->Messages, "Messages");
  add(this->Events, "Events");
  add(this->Variables, "Variables");
  add(this->Hierarchy, "Hierarchy");
  add(this->Types, "Types");
  return (this->Completed ? "given or found beside the input: " : "given: ") +
    (found.empty() ? std::string("nothing usable") : found);
}

bool MacroscopeTraceInputs::ResolveWindow(const double requested[2],
  vtkMultiProcessController* controller, double window[2], std::string& problem) const
{
  double bounds[2];
  this->TimeBounds(bounds, controller);
  window[0] = requested[0];
  window[1] = requested[1] == 0.0 ? bounds[1] : requested[1];
  if (std::isfinite(window[0]) && std::isfinite(window[1]) && window[0] < window[1])
  {
    return true;
  }
  std::ostringstream text;
  text << "TimeWindow (" << requested[0] << ", " << requested[1]
       << ") is empty: its end must come after its start (the trace spans " << bounds[0] << " to "
       << bounds[1] << " s)";
  problem = text.str();
  return false;
}

bool MacroscopeTraceInputs::CollectTraceAndWindow(vtkAlgorithm* view, const char* name,
  vtkInformationVector* inputs, const double requested[2], vtkMultiProcessController* controller,
  double window[2], std::string& problem)
{
  if (!this->CollectTrace(view, inputs, problem))
  {
    problem = std::string(name) + ": " + problem + ".";
    return false;
  }
  if (!this->States || !this->Hierarchy)
  {
    problem = std::string(name) +
      " needs a trace reader's States and Hierarchy outputs (Messages and Types are optional); " +
      this->Describe() + ".";
    return false;
  }
  // Collective: before any rank can stop on its own.
  if (!this->ResolveWindow(requested, controller, window, problem))
  {
    problem += ".";
    return false;
  }
  return true;
}

void MacroscopeTraceInputs::TimeBounds(
  double bounds[2], vtkMultiProcessController* controller) const
{
  double low = std::numeric_limits<double>::infinity();
  double high = -std::numeric_limits<double>::infinity();
  bool stored = false;
  for (vtkTable* table :
    { this->Types, this->States, this->Messages, this->Events, this->Variables })
  {
    auto* recorded = table
      ? vtkDataArray::SafeDownCast(table->GetFieldData()->GetAbstractArray("TimeBounds"))
      : nullptr;
    if (recorded && recorded->GetNumberOfValues() >= 2)
    {
      low = recorded->GetComponent(0, 0);
      high = recorded->GetNumberOfComponents() == 2 ? recorded->GetComponent(0, 1)
                                                    : recorded->GetComponent(1, 0);
      stored = true;
      break;
    }
  }
  if (!stored)
  {
    Extent(this->States, schema::Start, low, high);
    Extent(this->States, schema::End, low, high);
    Extent(this->Events, schema::Time, low, high);
    Extent(this->Variables, schema::Time, low, high);
    Extent(this->Messages, schema::SendTime, low, high);
    Extent(this->Messages, schema::RecvTime, low, high);
    low = std::min(low, 0.0); // times count from the trace start
  }
  if (controller && controller->GetNumberOfProcesses() > 1)
  {
    double mine[2] = { -low, high };
    double all[2];
    controller->AllReduce(mine, all, 2, vtkCommunicator::MAX_OP);
    low = -all[0];
    high = all[1];
  }
  bounds[0] = std::isfinite(low) ? low : 0.0;
  bounds[1] = std::isfinite(high) ? high : 0.0;
}

void MacroscopeTraceInputs::DeclareTracePort(vtkInformation* info)
{
  info->Remove(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE());
  info->Append(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkTable");
  info->Append(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkTree");
  info->Set(vtkAlgorithm::INPUT_IS_REPEATABLE(), 1);
}

void MacroscopeTraceInputs::RequestRankPieces(
  vtkInformationVector* inputs, vtkMultiProcessController* controller)
{
  const int ranks = controller ? controller->GetNumberOfProcesses() : 1;
  const int rank = controller ? controller->GetLocalProcessId() : 0;
  for (int i = 0; i < inputs->GetNumberOfInformationObjects(); ++i)
  {
    vtkInformation* inInfo = inputs->GetInformationObject(i);
    inInfo->Set(vtkStreamingDemandDrivenPipeline::UPDATE_PIECE_NUMBER(), rank);
    inInfo->Set(vtkStreamingDemandDrivenPipeline::UPDATE_NUMBER_OF_PIECES(), ranks);
  }
}

bool MacroscopeTraceInputs::SplitOverRanks(
  vtkInformationVector* inputs, vtkMultiProcessController* controller)
{
  if (!controller || controller->GetNumberOfProcesses() < 2 ||
    inputs->GetNumberOfInformationObjects() < 1)
  {
    return false;
  }
  vtkInformation* first = inputs->GetInformationObject(0);
  const int pieces = first->Has(vtkStreamingDemandDrivenPipeline::UPDATE_NUMBER_OF_PIECES())
    ? first->Get(vtkStreamingDemandDrivenPipeline::UPDATE_NUMBER_OF_PIECES())
    : 1;
  return pieces == controller->GetNumberOfProcesses();
}

int MacroscopeTraceInputs::AgreeOnStatus(
  int status, vtkMultiProcessController* controller, bool parallel)
{
  if (!parallel)
  {
    return status;
  }
  int worst = status;
  controller->AllReduce(&status, &worst, 1, vtkCommunicator::MIN_OP);
  return worst;
}
