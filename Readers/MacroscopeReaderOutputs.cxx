#include "MacroscopeReaderOutputs.h"

#include "TraceSchema.h"

#include "vtkDataArraySelection.h"
#include "vtkDataSetAttributes.h"
#include "vtkFieldData.h"
#include "vtkIdTypeArray.h"
#include "vtkInformation.h"
#include "vtkInformationDataObjectMetaDataKey.h"
#include "vtkInformationVector.h"
#include "vtkMacroscopeTraceKeys.h"
#include "vtkMutableDirectedGraph.h"
#include "vtkStringArray.h"
#include "vtkTree.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <utility>

namespace schema = macroscope::schema;

namespace macroscope::readers
{

void MoveStrings(vtkTable* table, const char* name, std::vector<std::string>& column)
{
  vtkNew<vtkStringArray> array;
  array->SetName(name);
  array->SetNumberOfValues(static_cast<vtkIdType>(column.size()));
  for (std::size_t i = 0; i < column.size(); ++i)
  {
    array->SetValue(static_cast<vtkIdType>(i), column[i]);
  }
  std::vector<std::string>().swap(column);
  table->AddColumn(array);
}

void MoveStates(vtkTable* table, otf2::StateColumns& states)
{
  MoveColumn(table, schema::Location, states.Location);
  MoveColumn(table, schema::Type, states.Type);
  MoveColumn(table, schema::Depth, states.Depth);
  MoveColumn(table, schema::Start, states.Start);
  MoveColumn(table, schema::End, states.End);
}

void MoveMessages(vtkTable* table, otf2::MessageColumns& messages)
{
  MoveColumn(table, schema::Sender, messages.Sender);
  MoveColumn(table, schema::Receiver, messages.Receiver);
  MoveColumn(table, schema::SendTime, messages.SendTime);
  MoveColumn(table, schema::RecvTime, messages.RecvTime);
  MoveColumn(table, schema::Bytes, messages.Bytes);
  MoveColumn(table, "RecvBytes", messages.RecvBytes);
  MoveColumn(table, schema::Tag, messages.Tag);
  MoveColumn(table, schema::Communicator, messages.Communicator);
  MoveColumn(table, "RecvBeforeSend", messages.RecvBeforeSend);
}

void MoveEvents(vtkTable* table, otf2::EventColumns& events)
{
  MoveColumn(table, schema::Location, events.Location);
  MoveColumn(table, schema::Type, events.Type);
  MoveColumn(table, schema::Time, events.Time);
  MoveColumn(table, schema::Communicator, events.Communicator);
  MoveColumn(table, "Root", events.Root);
  MoveColumn(table, "Operation", events.Operation);
}

void MoveVariables(vtkTable* table, otf2::VariableColumns& variables)
{
  MoveColumn(table, schema::Location, variables.Location);
  MoveColumn(table, schema::Variable, variables.Variable);
  MoveColumn(table, schema::Time, variables.Time);
  MoveColumn(table, schema::Value, variables.Value);
}

void AddCounter(vtkFieldData* fields, const char* name, uint64_t value)
{
  vtkNew<vtkIdTypeArray> array;
  array->SetName(name);
  array->InsertNextValue(static_cast<vtkIdType>(value));
  fields->AddArray(array);
}

void ResetSelection(vtkDataArraySelection* selection, const std::vector<std::string>& names)
{
  std::map<std::string, int> previous;
  for (int i = 0; i < selection->GetNumberOfArrays(); ++i)
  {
    previous[selection->GetArrayName(i)] = selection->GetArraySetting(i);
  }
  selection->RemoveAllArrays();
  for (const std::string& name : names)
  {
    const auto known = previous.find(name);
    selection->AddArray(name.c_str(), known == previous.end() ? true : known->second != 0);
  }
}

void FillHierarchy(const otf2::HierarchyColumns& h, vtkTree* tree, const std::string& file)
{
  vtkNew<vtkMutableDirectedGraph> graph;
  vtkNew<vtkStringArray> names;
  names->SetName(schema::Name);
  vtkNew<vtkStringArray> kinds;
  kinds->SetName(schema::Kind);
  vtkNew<vtkIdTypeArray> leaves;
  leaves->SetName(schema::LeafIndex);

  // A vtkTree has one root: a forest hangs below a vertex for the trace.
  const auto roots = std::count(h.Parent.begin(), h.Parent.end(), int64_t(-1));
  vtkIdType offset = 0;
  if (roots != 1)
  {
    graph->AddVertex();
    names->InsertNextValue(file);
    kinds->InsertNextValue("trace");
    leaves->InsertNextValue(-1);
    offset = 1;
  }
  for (std::size_t v = 0; v < h.size(); ++v)
  {
    const int64_t parent = h.Parent[v];
    if (parent < 0)
    {
      offset == 0 ? graph->AddVertex() : graph->AddChild(0);
    }
    else
    {
      graph->AddChild(static_cast<vtkIdType>(parent) + offset);
    }
    names->InsertNextValue(h.Name[v]);
    kinds->InsertNextValue(h.Kind[v]);
    leaves->InsertNextValue(static_cast<vtkIdType>(h.LeafIndex[v]));
  }
  graph->GetVertexData()->AddArray(names);
  graph->GetVertexData()->AddArray(kinds);
  graph->GetVertexData()->AddArray(leaves);
  tree->CheckedShallowCopy(graph);
}

void FillTypes(otf2::TypeColumns types, vtkTable* table)
{
  // Color: the palette's (what views draw); TraceColor: the file's own
  // (Pajé) and ColorBlindColor: the colour-blind-safe palette's, for
  // macroscope.use_palette (docs/colours.md).
  vtkNew<vtkUnsignedCharArray> colors;
  vtkNew<vtkUnsignedCharArray> traceColors;
  vtkNew<vtkUnsignedCharArray> blindColors;
  colors->SetName(schema::Color);
  traceColors->SetName("TraceColor");
  blindColors->SetName("ColorBlindColor");
  for (vtkUnsignedCharArray* array : { colors.Get(), traceColors.Get(), blindColors.Get() })
  {
    array->SetNumberOfComponents(3);
    array->SetNumberOfTuples(static_cast<vtkIdType>(types.size()));
  }
  for (std::size_t i = 0; i < types.size(); ++i)
  {
    colors->SetTypedTuple(static_cast<vtkIdType>(i), types.Color[i].data());
    traceColors->SetTypedTuple(static_cast<vtkIdType>(i), types.TraceColor[i].data());
    blindColors->SetTypedTuple(static_cast<vtkIdType>(i), types.ColorBlindColor[i].data());
  }
  MoveColumn(table, schema::Id, types.Id);
  MoveStrings(table, schema::Name, types.Name);
  MoveStrings(table, schema::Kind, types.Kind);
  MoveStrings(table, "Paradigm", types.Paradigm);
  MoveStrings(table, "Role", types.Role);
  table->AddColumn(colors);
  table->AddColumn(traceColors);
  table->AddColumn(blindColors);
}

std::string CheckTimeWindow(const double window[2], double earliest)
{
  const double begin = window[0];
  const double end = window[1];
  if (!std::isfinite(begin) || !std::isfinite(end) || begin < earliest ||
    (end != 0.0 && end < begin))
  {
    std::ostringstream why;
    why << "TimeWindow (" << begin << ", " << end << ") is not a window: it needs " << earliest
        << " <= start <= end, in seconds (an end of 0 means the trace end).";
    return why.str();
  }
  return std::string();
}

std::vector<std::string> StateTypeNames(const otf2::TypeColumns& types)
{
  std::vector<std::string> names;
  for (std::size_t row = 0; row < types.size(); ++row)
  {
    if (types.Kind[row] == schema::StateKind)
    {
      names.push_back(types.Name[row]);
    }
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

vtkSmartPointer<vtkTable> TypesOutput(otf2::TypeColumns types, const double timeBounds[2])
{
  auto table = vtkSmartPointer<vtkTable>::New();
  FillTypes(std::move(types), table);
  vtkNew<vtkDoubleArray> bounds;
  bounds->SetName("TimeBounds");
  bounds->SetNumberOfComponents(2);
  bounds->InsertNextTuple(timeBounds);
  table->GetFieldData()->AddArray(bounds);
  return table;
}

void PublishDefinitions(vtkInformationVector* outputVector, vtkTree* hierarchy, vtkTable* types)
{
  using Port = schema::TraceOutput;
  outputVector->GetInformationObject(static_cast<int>(Port::Hierarchy))
    ->Set(vtkMacroscopeTraceKeys::DEFINITIONS(), hierarchy);
  outputVector->GetInformationObject(static_cast<int>(Port::Types))
    ->Set(vtkMacroscopeTraceKeys::DEFINITIONS(), types);
}

vtkFieldData* FillTraceOutputs(vtkInformationVector* outputVector, otf2::StateColumns& states,
  otf2::MessageColumns& messages, otf2::EventColumns& events, otf2::VariableColumns& variables,
  vtkTree* hierarchy, vtkTable* types, const std::string& report)
{
  using Port = schema::TraceOutput;
  auto table = [outputVector](Port port)
  { return vtkTable::GetData(outputVector, static_cast<int>(port)); };
  vtkTable* statesTable = table(Port::States);
  MoveStates(statesTable, states);
  MoveMessages(table(Port::Messages), messages);
  MoveEvents(table(Port::Events), events);
  MoveVariables(table(Port::Variables), variables);
  vtkTree::GetData(outputVector, static_cast<int>(Port::Hierarchy))->ShallowCopy(hierarchy);
  table(Port::Types)->ShallowCopy(types);

  vtkFieldData* fields = statesTable->GetFieldData();
  vtkNew<vtkStringArray> text;
  text->SetName("ReadReport");
  text->InsertNextValue(report);
  fields->AddArray(text);
  return fields;
}

} // namespace macroscope::readers
