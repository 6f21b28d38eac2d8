#include "vtkMacroscopeLogicalLayout.h"

#include "LogicalSelection.h"
#include "LogicalTimeWindow.h"
#include "MacroscopeModelPlan.h"
#include "MacroscopeNameList.h"
#include "MacroscopeTraceColumns.h"
#include "TraceSchema.h"

#include "vtkAlgorithm.h"
#include "vtkCellData.h"
#include "vtkDataObject.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkIdList.h"
#include "vtkIdTypeArray.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkNew.h"
#include "vtkPolyData.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkTree.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

vtkMacroscopeLogicalLayout::vtkMacroscopeLogicalLayout()
{
  this->SetNumberOfInputPorts(1);
  this->SetNumberOfOutputPorts(NUMBER_OF_OUTPUTS);
}

vtkMacroscopeLogicalLayout::~vtkMacroscopeLogicalLayout() = default;

void vtkMacroscopeLogicalLayout::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "ViewSize: " << this->ViewSize[0] << " " << this->ViewSize[1] << "\n";
  os << indent << "StepWindow: " << this->StepWindow[0] << " " << this->StepWindow[1] << "\n";
  os << indent << "TimeWindow: " << this->TimeWindow[0] << " " << this->TimeWindow[1] << "\n";
  os << indent << "ShowAggregates: " << this->ShowAggregates << "\n";
  os << indent << "MaxMessages: " << this->MaxMessages << "\n";
  MacroscopeNameList::Print(os, indent, "Resources", this->Resources);
  MacroscopeNameList::Print(os, indent, "Types", this->Types);
}

MACROSCOPE_RESOURCES_AND_TYPES(vtkMacroscopeLogicalLayout)

vtkIdType vtkMacroscopeLogicalLayout::EventRow(vtkIdType row) const
{
  return this->EventRows.empty() ? row : this->EventRows[static_cast<std::size_t>(row)];
}

vtkIdType vtkMacroscopeLogicalLayout::MessageRow(vtkIdType row) const
{
  return row < 0 || this->MessageRows.empty() ? row
                                              : this->MessageRows[static_cast<std::size_t>(row)];
}

int vtkMacroscopeLogicalLayout::FillInputPortInformation(int, vtkInformation* info)
{
  info->Set(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkTable");
  info->Append(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkTree"); // the Hierarchy
  info->Set(vtkAlgorithm::INPUT_IS_REPEATABLE(), 1);
  return 1;
}

bool vtkMacroscopeLogicalLayout::FindTables(
  vtkInformationVector* inputs, Tables& tables, std::string& problem)
{
  for (int i = 0; i < inputs->GetNumberOfInformationObjects(); ++i)
  {
    vtkDataObject* data = inputs->GetInformationObject(i)->Get(vtkDataObject::DATA_OBJECT());
    auto* table = vtkTable::SafeDownCast(data);
    auto* tree = vtkTree::SafeDownCast(data);
    if (tree && tree->GetVertexData()->GetAbstractArray(macroscope::schema::LeafIndex))
    {
      if (tables.Hierarchy)
      {
        problem = "two inputs are Hierarchy trees";
        return false;
      }
      tables.Hierarchy = tree;
      continue;
    }
    if (!table)
    {
      continue; // e.g. the Dendrogram tree beside the tables
    }
    auto has = [table](const char* name) { return table->GetColumnByName(name) != nullptr; };
    vtkTable** slot = nullptr;
    const char* what = "";
    if (has("GlobalStep") && has("Kind") && has("Metric") && has("Location"))
    {
      slot = &tables.Events, what = "Logical Events";
    }
    else if (has("SendEvent") && has("RecvGlobalStep"))
    {
      slot = &tables.Messages, what = "Logical Messages";
    }
    else if (has("ClaraCluster"))
    {
      slot = &tables.Clusters, what = "Clusters";
    }
    else if (has("MetricSum"))
    {
      slot = &tables.Steps, what = "Steps";
    }
    else if (has("Pattern") && has("FirstGlobalStep"))
    {
      slot = &tables.Phases, what = "Phases";
    }
    else if (table->GetNumberOfColumns() == 0)
    {
      continue; // an empty piece (under MPI, the tables may live on one rank)
    }
    else if ((has(macroscope::schema::Variable) && has(macroscope::schema::Value)) ||
      (has(macroscope::schema::Id) && has(macroscope::schema::Name) &&
        has(macroscope::schema::Kind)))
    {
      // Logical Variables and Logical Types, for Time Slicing: not drawn, but
      // among the outputs users select all of and apply, as the displays skip them.
      continue;
    }
    else
    {
      problem = "an input table is none of the outputs of Logical Time (Logical Events, "
                "Logical Messages, Clusters, Steps, Phases): its first column is '" +
        std::string(table->GetColumnName(0)) + "'";
      return false;
    }
    if (*slot)
    {
      problem = std::string("two inputs are ") + what + " tables";
      return false;
    }
    *slot = table;
  }
  return true;
}

int vtkMacroscopeLogicalLayout::RequestData(
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
  this->EventRows.clear();
  this->MessageRows.clear();
  this->UpdateProgress(0.0);
  if (this->ViewSize[0] < 1 || this->ViewSize[1] < 1)
  {
    vtkErrorMacro("ViewSize must be at least 1 x 1 pixels, not " << this->ViewSize[0] << " x "
                                                                 << this->ViewSize[1] << ".");
    return 0;
  }
  if (this->MaxMessages < 0)
  {
    vtkErrorMacro(
      "MaxMessages must be >= 0 (0 draws no message), not " << this->MaxMessages << ".");
    return 0;
  }
  if (this->StepWindow[1] >= this->StepWindow[0] && this->StepWindow[0] < 0)
  {
    vtkErrorMacro("StepWindow starts at a negative global step ("
      << this->StepWindow[0] << "); use (0, -1) for every step.");
    return 0;
  }
  Tables tables;
  std::string problem;
  if (!FindTables(inputVector[0], tables, problem))
  {
    vtkErrorMacro(<< this->GetClassName() << ": " << problem << ".");
    return 0;
  }
  if (!tables.Events)
  {
    if (inputVector[0]->GetNumberOfInformationObjects() > 0 && !tables.Messages &&
      !tables.Clusters && !tables.Steps && !tables.Phases)
    {
      this->UpdateProgress(1.0);
      return 1; // empty pieces only: nothing to draw on this rank
    }
    vtkErrorMacro(<< this->GetClassName()
                  << " needs the Logical Events output of Logical Time among its inputs.");
    return 0;
  }
  if (tables.Events->GetNumberOfRows() == 0)
  {
    // Logical Time fills its tables on the first rank only: the other ranks
    // draw nothing (not even axes, which would be composited twice).
    this->UpdateProgress(1.0);
    return 1;
  }
  // A time window replaces the step window for this drawing only, so that
  // the StepWindow property keeps its value for when the window is reset.
  const vtkIdType asked[2] = { this->StepWindow[0], this->StepWindow[1] };
  const bool timed = this->TimeWindow[0] != 0.0 || this->TimeWindow[1] != 0.0;
  if (timed && !this->StepsOfTime(tables.Events, this->StepWindow))
  {
    return 0;
  }
  this->FindTraceSteps(tables.Events);
  // The selection after the window: the steps of a time window are those
  // of every event, so that the columns do not move with the selection.
  Tables selected = tables;
  std::vector<vtkSmartPointer<vtkTable>> held;
  if ((!this->Resources.empty() || !this->Types.empty()) && !this->Select(tables, selected, held))
  {
    this->StepWindow[0] = asked[0];
    this->StepWindow[1] = asked[1];
    return 0;
  }
  const int status = this->Draw(selected, outputs);
  const vtkIdType used[2] = { this->StepWindow[0], this->StepWindow[1] };
  this->StepWindow[0] = asked[0];
  this->StepWindow[1] = asked[1];
  if (timed)
  {
    vtkNew<vtkIdTypeArray> steps;
    steps->SetName("StepsOfTimeWindow");
    steps->SetNumberOfComponents(2);
    const bool none = used[0] == std::numeric_limits<vtkIdType>::max();
    const vtkIdType tuple[2] = { none ? 0 : used[0], none ? -1 : used[1] };
    steps->InsertNextTypedTuple(tuple);
    outputs[MARKS]->GetFieldData()->AddArray(steps);
  }
  vtkNew<vtkDoubleArray> window;
  window->SetName("TimeWindow");
  window->SetNumberOfComponents(2);
  window->InsertNextTuple2(this->TimeWindow[0], this->TimeWindow[1]);
  outputs[MARKS]->GetFieldData()->AddArray(window);
  this->UpdateProgress(1.0);
  return status;
}

void vtkMacroscopeLogicalLayout::FindTraceSteps(vtkTable* events)
{
  // By hand rather than GetRange, which would cache the range in the input
  // column's information: the input must stay as its filter wrote it.
  this->TraceSteps[0] = 0.0;
  this->TraceSteps[1] = -1.0;
  auto* steps = vtkArrayDownCast<vtkDataArray>(events->GetColumnByName("GlobalStep"));
  for (vtkIdType row = 0; steps && row < steps->GetNumberOfTuples(); ++row)
  {
    const double step = steps->GetComponent(row, 0);
    const bool first = row == 0;
    this->TraceSteps[0] = first ? step : std::min(this->TraceSteps[0], step);
    this->TraceSteps[1] = first ? step : std::max(this->TraceSteps[1], step);
  }
}

void vtkMacroscopeLogicalLayout::AddStepNavigation(vtkPolyData* outputs[NUMBER_OF_OUTPUTS],
  int64_t firstStep, int64_t lastStep, int stride, double columnWidth) const
{
  vtkNew<vtkDoubleArray> navigation;
  navigation->SetName("StepNavigation");
  navigation->SetNumberOfComponents(7);
  const double columns = static_cast<double>((lastStep - firstStep) / std::max(stride, 1) + 1);
  const double tuple[7] = { 0.0, columns * columnWidth, static_cast<double>(firstStep),
    static_cast<double>(lastStep), static_cast<double>(stride), this->TraceSteps[0],
    this->TraceSteps[1] };
  navigation->InsertNextTuple(tuple);
  for (int i = 0; i < NUMBER_OF_OUTPUTS; ++i)
  {
    outputs[i]->GetFieldData()->AddArray(navigation);
  }
}

bool vtkMacroscopeLogicalLayout::StepsOfTime(vtkTable* events, vtkIdType steps[2])
{
  const double begin = this->TimeWindow[0];
  const double end =
    this->TimeWindow[1] == 0.0 ? std::numeric_limits<double>::infinity() : this->TimeWindow[1];
  if (!std::isfinite(begin) || std::isnan(end) || !(end > begin))
  {
    vtkErrorMacro(<< this->GetClassName() << ": TimeWindow (" << this->TimeWindow[0] << ", "
                  << this->TimeWindow[1]
                  << ") is empty; give a start before the end (an end of 0 is the trace end, "
                     "(0, 0) the whole trace).");
    return false;
  }
  vtkDataArray* stepColumn = vtkArrayDownCast<vtkDataArray>(events->GetColumnByName("GlobalStep"));
  vtkDataArray* enterColumn = vtkArrayDownCast<vtkDataArray>(events->GetColumnByName("Enter"));
  vtkDataArray* exitColumn = vtkArrayDownCast<vtkDataArray>(events->GetColumnByName("Exit"));
  if (!stepColumn || !enterColumn || !exitColumn)
  {
    vtkErrorMacro(<< this->GetClassName()
                  << ": a TimeWindow needs the Logical Events' numeric columns GlobalStep, Enter "
                     "and Exit (the step <-> time map); this table lacks "
                  << (!stepColumn       ? "GlobalStep"
                         : !enterColumn ? "Enter"
                                        : "Exit")
                  << ".");
    return false;
  }
  const vtkIdType n = events->GetNumberOfRows();
  std::vector<int64_t> step(n);
  std::vector<double> enter(n), exit(n);
  for (vtkIdType e = 0; e < n; ++e)
  {
    step[e] = static_cast<int64_t>(stepColumn->GetComponent(e, 0));
    enter[e] = enterColumn->GetComponent(e, 0);
    exit[e] = exitColumn->GetComponent(e, 0);
  }
  std::pair<int64_t, int64_t> found;
  try
  {
    found = macroscope::StepsOfTimeWindow(step, enter, exit, begin, end);
  }
  catch (const std::invalid_argument& error)
  {
    vtkErrorMacro(<< this->GetClassName() << ": " << error.what() << ".");
    return false;
  }
  if (found.second < found.first)
  {
    // No event in the window: a window past every step draws no column.
    steps[0] = steps[1] = std::numeric_limits<vtkIdType>::max();
    return true;
  }
  steps[0] = static_cast<vtkIdType>(found.first);
  steps[1] = static_cast<vtkIdType>(found.second);
  return true;
}

void vtkMacroscopeLogicalLayout::SelectNoRow(vtkPolyData* marks)
{
  vtkNew<vtkIdTypeArray> ids;
  ids->SetName("vtkOriginalCellIds");
  ids->SetNumberOfTuples(marks->GetNumberOfCells());
  ids->FillValue(-1);
  marks->GetCellData()->AddArray(ids);
}

namespace
{
// The rows `keep` marks of `table`, columns and field data alike; `rows`
// gets the original row of every row kept.
vtkSmartPointer<vtkTable> KeepRows(
  vtkTable* table, const std::vector<bool>& keep, std::vector<vtkIdType>& rows)
{
  vtkNew<vtkIdList> ids;
  rows.clear();
  for (std::size_t r = 0; r < keep.size(); ++r)
  {
    if (keep[r])
    {
      ids->InsertNextId(static_cast<vtkIdType>(r));
      rows.push_back(static_cast<vtkIdType>(r));
    }
  }
  auto kept = vtkSmartPointer<vtkTable>::New();
  kept->GetFieldData()->ShallowCopy(table->GetFieldData());
  for (vtkIdType c = 0; c < table->GetNumberOfColumns(); ++c)
  {
    vtkAbstractArray* column = table->GetColumn(c);
    vtkSmartPointer<vtkAbstractArray> copy = vtk::TakeSmartPointer(column->NewInstance());
    copy->SetName(column->GetName());
    copy->SetNumberOfComponents(column->GetNumberOfComponents());
    copy->SetNumberOfTuples(ids->GetNumberOfIds());
    for (vtkIdType r = 0; r < ids->GetNumberOfIds(); ++r)
    {
      copy->SetTuple(r, ids->GetId(r), column);
    }
    kept->AddColumn(copy);
  }
  return kept;
}

template <typename T>
bool ReadIntegers(vtkTable* table, const char* name, std::vector<T>& values)
{
  auto* column = table ? vtkArrayDownCast<vtkDataArray>(table->GetColumnByName(name)) : nullptr;
  if (!column)
  {
    return false;
  }
  values.resize(static_cast<std::size_t>(column->GetNumberOfTuples()));
  for (vtkIdType r = 0; r < column->GetNumberOfTuples(); ++r)
  {
    values[static_cast<std::size_t>(r)] = static_cast<T>(column->GetComponent(r, 0));
  }
  return true;
}
}

bool vtkMacroscopeLogicalLayout::Select(
  const Tables& tables, Tables& selected, std::vector<vtkSmartPointer<vtkTable>>& held)
{
  // The masks, by the name resolution every Macroscope view uses.
  std::string problem;
  std::vector<bool> keepLeaf;
  if (!this->Resources.empty())
  {
    std::vector<int64_t> parent, leafIndex;
    if (!tables.Hierarchy)
    {
      vtkErrorMacro(<< this->GetClassName()
                    << ": Resources names hierarchy vertices, but no Hierarchy is among the "
                       "inputs (give Logical Time's Hierarchy output beside the Logical Events).");
      return false;
    }
    if (!MacroscopeHierarchyArrays(tables.Hierarchy, parent, leafIndex, problem) ||
      !MacroscopeModelPlan::SelectLeaves(
        tables.Hierarchy, parent, leafIndex, this->Resources, keepLeaf, problem))
    {
      vtkErrorMacro(<< this->GetClassName() << ": " << problem << ".");
      return false;
    }
  }
  std::vector<bool> keepType;
  if (!this->Types.empty())
  {
    auto* names =
      vtkStringArray::SafeDownCast(tables.Events->GetFieldData()->GetAbstractArray("TypeNames"));
    if (!names)
    {
      vtkErrorMacro(<< this->GetClassName()
                    << ": Types names types, but the Logical Events carry no TypeNames field "
                       "data (Logical Time writes it from the reader's Types).");
      return false;
    }
    // SelectTypes reads the names as a Types table's Name column.
    vtkNew<vtkStringArray> column;
    column->DeepCopy(names);
    column->SetName(macroscope::schema::Name);
    vtkNew<vtkTable> types;
    types->AddColumn(column);
    if (!MacroscopeModelPlan::SelectTypes(types, this->Types, keepType, problem))
    {
      vtkErrorMacro(<< this->GetClassName() << ": " << problem << ".");
      return false;
    }
  }

  std::vector<int32_t> location, type;
  std::vector<int64_t> step;
  if (!ReadIntegers(tables.Events, macroscope::schema::Location, location) ||
    !ReadIntegers(tables.Events, "GlobalStep", step) ||
    !(ReadIntegers(tables.Events, macroscope::schema::Type, type) || this->Types.empty()))
  {
    vtkErrorMacro(<< this->GetClassName()
                  << ": a selection needs the Logical Events' numeric Location, GlobalStep and "
                     "(for Types) Type columns.");
    return false;
  }
  if (type.empty())
  {
    type.assign(location.size(), -1); // Resources only: types do not matter
  }
  std::vector<bool> keepEvent;
  std::vector<bool> keepMessage;
  try
  {
    keepEvent = macroscope::SelectLogicalEvents(location, step, type, keepLeaf, keepType);
    std::vector<int64_t> sendEvent, recvEvent;
    if (tables.Messages &&
      !(ReadIntegers(tables.Messages, "SendEvent", sendEvent) &&
        ReadIntegers(tables.Messages, "RecvEvent", recvEvent)))
    {
      vtkErrorMacro(<< this->GetClassName()
                    << ": a selection needs the Logical Messages' SendEvent and RecvEvent.");
      return false;
    }
    keepMessage = macroscope::SelectLogicalMessages(sendEvent, recvEvent, keepEvent);
  }
  catch (const std::invalid_argument& error)
  {
    vtkErrorMacro(<< this->GetClassName() << ": " << error.what() << ".");
    return false;
  }
  held.push_back(KeepRows(tables.Events, keepEvent, this->EventRows));
  selected.Events = held.back();
  if (tables.Messages)
  {
    held.push_back(KeepRows(tables.Messages, keepMessage, this->MessageRows));
    selected.Messages = held.back();
  }
  if (tables.Clusters && !keepLeaf.empty())
  {
    // A phase's members: the selected locations only.
    std::vector<int32_t> member;
    ReadIntegers(tables.Clusters, macroscope::schema::Location, member);
    std::vector<bool> keepMember(member.size());
    for (std::size_t m = 0; m < member.size(); ++m)
    {
      keepMember[m] = member[m] >= 0 && static_cast<std::size_t>(member[m]) < keepLeaf.size() &&
        keepLeaf[member[m]];
    }
    std::vector<vtkIdType> unused;
    held.push_back(KeepRows(tables.Clusters, keepMember, unused));
    selected.Clusters = held.back();
  }
  // The Steps' sums are over every event: the Metric Overview sums the
  // selected events instead.
  selected.Steps = nullptr;
  return true;
}
