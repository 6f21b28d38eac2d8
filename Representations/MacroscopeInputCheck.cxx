#include "MacroscopeInputCheck.h"

#include "MacroscopeTraceLookup.h"
#include "vtkMacroscopeChartRepresentation.h"
#include "vtkMacroscopeLogicalLayout.h"
#include "vtkMacroscopeLogicalRepresentation.h"
#include "vtkMacroscopeOverviewRepresentation.h"
#include "vtkMacroscopeTimelineRepresentation.h"
#include "vtkMacroscopeTopologyRepresentation.h"
#include "vtkMacroscopeTreemapRepresentation.h"

#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkNew.h"
#include "vtkStringArray.h"
#include "vtkTable.h"

#include <initializer_list>

namespace
{
/// The Constraint field data of a Partition ("temporal", "spatial"...).
std::string Constraint(vtkTable* table)
{
  auto* constraint =
    vtkStringArray::SafeDownCast(table->GetFieldData()->GetAbstractArray("Constraint"));
  return constraint && constraint->GetNumberOfValues() > 0 ? constraint->GetValue(0)
                                                           : std::string();
}

bool HasColumns(vtkTable* table, std::initializer_list<const char*> names)
{
  for (const char* name : names)
  {
    if (!table->GetColumnByName(name))
    {
      return false;
    }
  }
  return true;
}

/// Which Macroscope table `table` is, from its columns; empty if none.
std::string TableKind(vtkTable* table)
{
  if (HasColumns(table, { "Node", "FirstSlice", "LastSlice", "Mean" }))
  {
    const std::string constraint = Constraint(table);
    return constraint.empty()
      ? std::string("the Partition output of an aggregation filter")
      : "the Partition output of an aggregation filter (a " + constraint + " partition)";
  }
  if (HasColumns(table, { "Parent", "Size", "Cut", "Values" }))
  {
    return "the Treemap output of Resource Treemap";
  }
  if (HasColumns(table, { "Location", "Depth", "Start", "End" }))
  {
    return "the States output of a trace reader";
  }
  if (HasColumns(table, { "Sender", "Receiver", "SendTime", "RecvTime" }))
  {
    return "the Messages output of a trace reader";
  }
  if (HasColumns(table, { "Variable", "Value" }))
  {
    return "the Variables output of a trace reader";
  }
  if (HasColumns(table, { "Location", "Time", "Type" }))
  {
    return "the Events output of a trace reader";
  }
  if (HasColumns(table, { "Name", "Kind" }))
  {
    return "the Types output of a trace reader";
  }
  vtkNew<vtkInformation> info;
  info->Set(vtkDataObject::DATA_OBJECT(), table);
  vtkNew<vtkInformationVector> one;
  one->Append(info);
  vtkMacroscopeLogicalLayout::Tables logical;
  std::string problem;
  if (vtkMacroscopeLogicalLayout::FindTables(one, logical, problem))
  {
    if (logical.Events)
    {
      return "the Logical Events output of Logical Time";
    }
    if (logical.Messages || logical.Clusters || logical.Steps || logical.Phases)
    {
      return "an output of Logical Time";
    }
  }
  return std::string();
}

bool IsLogical(vtkTable* table)
{
  const std::string kind = TableKind(table);
  return kind.find("Logical Time") != std::string::npos;
}

std::string Problem(const char* name, const char* needs, vtkDataObject* input)
{
  return std::string("The ") + name + " representation cannot show its input: it needs " + needs +
    "; it got " + MacroscopeDescribeInput(input) + ". Nothing is drawn.";
}
} // namespace

std::string MacroscopeDescribeInput(vtkDataObject* input)
{
  auto* table = vtkTable::SafeDownCast(input);
  if (!table)
  {
    return input ? std::string("a ") + input->GetClassName() : std::string("no data");
  }
  std::string kind = TableKind(table);
  std::string text = kind.empty() ? std::string("a table") : kind;
  text += " (" + std::to_string(table->GetNumberOfRows()) + " rows; columns ";
  const vtkIdType columns = table->GetNumberOfColumns();
  for (vtkIdType c = 0; c < columns && c < 8; ++c)
  {
    const char* name = table->GetColumnName(c);
    text += (c ? ", " : "") + std::string(name ? name : "?");
  }
  if (columns > 8)
  {
    text += " and " + std::to_string(columns - 8) + " more";
  }
  return text + (columns == 0 ? "none)" : ")");
}

std::string MacroscopeInputProblem(
  vtkMacroscopeChartRepresentation* representation, vtkDataObject* input)
{
  auto* table = vtkTable::SafeDownCast(input);
  if (table && table->GetNumberOfColumns() == 0)
  {
    return std::string(); // an empty piece: nothing to draw, nothing wrong
  }
  vtkAlgorithm* producer = representation->GetInputAlgorithm(0, 0);
  auto isTrace = [&]()
  {
    vtkNew<vtkInformationVector> trace;
    return producer && MacroscopeFindTrace(producer, trace);
  };
  if (vtkMacroscopeTimelineRepresentation::SafeDownCast(representation))
  {
    return isTrace() ? std::string()
                     : Problem("Timeline",
                         "an output of a Macroscope trace reader (States, usually), whose other "
                         "outputs hold the Hierarchy",
                         input);
  }
  if (vtkMacroscopeTopologyRepresentation::SafeDownCast(representation))
  {
    return isTrace() ? std::string()
                     : Problem("Topology-Time 3D",
                         "an output of a Macroscope trace reader (States, usually), whose other "
                         "outputs hold the Hierarchy",
                         input);
  }
  if (auto* overview = vtkMacroscopeOverviewRepresentation::SafeDownCast(representation))
  {
    if (overview->GetOverview() == vtkMacroscopeOverviewRepresentation::TEMPORAL)
    {
      if (table && HasColumns(table, { "Start", "End", "Amplitude" }) &&
        Constraint(table) != "temporal" && !Constraint(table).empty())
      {
        return Problem("Temporal Overview",
                 "a temporal partition (the Partition output of Temporal Aggregation)", input) +
          " Choose the Spatiotemporal Overview for it.";
      }
      return table && HasColumns(table, { "Start", "End", "Amplitude" })
        ? std::string()
        : Problem("Temporal Overview",
            "the Partition output of Temporal Aggregation (columns Start, End, Amplitude)", input);
    }
    return table && HasColumns(table, { "Node", "FirstSlice", "LastSlice", "Mean" })
      ? std::string()
      : Problem("Spatiotemporal Overview",
          "the Partition output of a Temporal, Spatial or Spatiotemporal Aggregation (columns "
          "Node, FirstSlice, LastSlice, Mean)",
          input);
  }
  if (vtkMacroscopeTreemapRepresentation::SafeDownCast(representation))
  {
    return table && HasColumns(table, { "Parent", "Size", "Cut", "Values" })
      ? std::string()
      : Problem("Treemap",
          "the Treemap output of Resource Treemap (columns Parent, Size, Cut, "
          "Values, Name, Depth)",
          input);
  }
  if (auto* logical = vtkMacroscopeLogicalRepresentation::SafeDownCast(representation))
  {
    const char* names[] = { "Logical Timeline", "Clustered Logical Timeline", "Metric Overview" };
    const int view = logical->GetView();
    return table && IsLogical(table)
      ? std::string()
      : Problem(view >= 0 && view < 3 ? names[view] : "logical",
          "an output of Logical Time (Logical Events, usually)", input);
  }
  return std::string();
}
