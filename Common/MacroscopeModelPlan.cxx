#include "MacroscopeModelPlan.h"

#include "MacroscopeTraceColumns.h"
#include "ResourceSelection.h"
#include "TimeSlicing.h"
#include "TraceSchema.h"

#include "vtkDataSetAttributes.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkTree.h"

#include <set>
#include <stdexcept>

namespace schema = macroscope::schema;

const char* MacroscopeModelPlan::PlaneKind(int metric)
{
  // The Time Slicing filters' Metric values are the core's SliceMetric.
  switch (static_cast<macroscope::SliceMetric>(metric))
  {
    case macroscope::SliceMetric::StateDuration:
      return schema::StateKind;
    case macroscope::SliceMetric::EventCount:
      return schema::EventKind;
    case macroscope::SliceMetric::VariableMean:
      return schema::VariableKind;
    default:
      return nullptr; // message metrics: one plane
  }
}

bool MacroscopeModelPlan::Build(vtkTree* tree, vtkTable* types, int metric, int level,
  const std::vector<std::string>& subset, std::string& problem)
{
  MacroscopeModelPlan& plan = *this;
  plan = MacroscopeModelPlan();
  const char* kind = PlaneKind(metric);
  std::vector<int64_t> parent;
  std::vector<int64_t> leafIndex;
  if (!MacroscopeHierarchyArrays(tree, parent, leafIndex, problem))
  {
    return false;
  }
  std::vector<bool> keepLeaf;
  if (!SelectLeaves(tree, parent, leafIndex, subset, keepLeaf, problem))
  {
    return false;
  }
  try
  {
    // A level the hierarchy does not reach is a mistake, not the leaves.
    const int deepest = macroscope::DeepestLevel(parent);
    if (level > deepest)
    {
      problem = "ResourceLevel " + std::to_string(level) +
        " is deeper than the Hierarchy, whose deepest level is " + std::to_string(deepest) +
        " (0 is the root; -1 takes the leaves)";
      return false;
    }
    plan.Resources = macroscope::BuildResourceHierarchy(parent, leafIndex, level, keepLeaf);
  }
  catch (const std::exception& error)
  {
    problem = std::string("the Hierarchy cannot be used: ") + error.what();
    return false;
  }
  if (plan.Resources.Resources == 0)
  {
    problem = "the Hierarchy has no locations";
    return false;
  }
  if (!kind)
  {
    return true;
  }
  auto* typeKinds = vtkStringArray::SafeDownCast(types->GetColumnByName(schema::Kind));
  if (!typeKinds || !vtkStringArray::SafeDownCast(types->GetColumnByName(schema::Name)))
  {
    problem = "the Types table has no Name or Kind column";
    return false;
  }
  plan.PlaneOfType.assign(static_cast<std::size_t>(types->GetNumberOfRows()), UINT32_MAX);
  for (vtkIdType t = 0; t < types->GetNumberOfRows(); ++t)
  {
    if (typeKinds->GetValue(t) == kind)
    {
      plan.PlaneOfType[t] = static_cast<uint32_t>(plan.TypeOfPlane.size());
      plan.TypeOfPlane.push_back(t);
    }
  }
  if (plan.TypeOfPlane.empty())
  {
    problem = std::string("the Types table has no type of kind '") + kind + "'";
    return false;
  }
  return true;
}

bool MacroscopeModelPlan::KeepTypes(
  vtkTable* types, const std::vector<std::string>& names, std::string& problem)
{
  if (names.empty() || this->TypeOfPlane.empty())
  {
    return true; // every type; the message metrics have one plane and no type
  }
  std::vector<bool> keepType;
  if (!SelectTypes(types, names, keepType, problem))
  {
    return false;
  }
  std::vector<vtkIdType> kept;
  for (vtkIdType type : this->TypeOfPlane)
  {
    if (keepType[static_cast<std::size_t>(type)])
    {
      kept.push_back(type);
    }
  }
  if (kept.empty())
  {
    problem = "Types: none of the types named is of the kind the metric counts";
    return false;
  }
  this->PlaneOfType.assign(this->PlaneOfType.size(), UINT32_MAX);
  for (std::size_t plane = 0; plane < kept.size(); ++plane)
  {
    this->PlaneOfType[static_cast<std::size_t>(kept[plane])] = static_cast<uint32_t>(plane);
  }
  this->TypeOfPlane = kept;
  return true;
}

bool MacroscopeModelPlan::SelectLeaves(vtkTree* tree, const std::vector<int64_t>& parent,
  const std::vector<int64_t>& leafIndex, const std::vector<std::string>& subset,
  std::vector<bool>& keepLeaf, std::string& problem)
{
  keepLeaf.clear();
  if (subset.empty())
  {
    return true;
  }
  auto* vertexNames =
    vtkStringArray::SafeDownCast(tree->GetVertexData()->GetAbstractArray(schema::Name));
  if (!vertexNames)
  {
    problem = "Resources names hierarchy vertices, but the Hierarchy has no Name vertex array";
    return false;
  }
  std::vector<std::string> names(parent.size());
  for (std::size_t v = 0; v < names.size(); ++v)
  {
    names[v] = vertexNames->GetValue(static_cast<vtkIdType>(v));
  }
  try
  {
    keepLeaf = macroscope::SelectLeaves(parent, leafIndex, names, subset);
  }
  catch (const std::exception& error)
  {
    problem = std::string("Resources: ") + error.what();
    return false;
  }
  return true;
}

bool MacroscopeModelPlan::SelectTypes(vtkTable* types, const std::vector<std::string>& names,
  std::vector<bool>& keepType, std::string& problem)
{
  keepType.clear();
  if (names.empty())
  {
    return true;
  }
  auto* typeNames =
    types ? vtkStringArray::SafeDownCast(types->GetColumnByName(schema::Name)) : nullptr;
  if (!typeNames)
  {
    problem = "Types names types, but there is no Types table with a Name column";
    return false;
  }
  const std::set<std::string> wanted(names.begin(), names.end());
  std::set<std::string> known;
  keepType.assign(static_cast<std::size_t>(typeNames->GetNumberOfValues()), false);
  for (vtkIdType t = 0; t < typeNames->GetNumberOfValues(); ++t)
  {
    known.insert(typeNames->GetValue(t));
    keepType[static_cast<std::size_t>(t)] = wanted.count(typeNames->GetValue(t)) > 0;
  }
  std::string unknown;
  for (const std::string& name : names)
  {
    if (!known.count(name))
    {
      unknown += (unknown.empty() ? "\"" : ", \"") + name + "\"";
    }
  }
  if (!unknown.empty())
  {
    problem = "Types: no type is named " + unknown;
    return false;
  }
  return true;
}
