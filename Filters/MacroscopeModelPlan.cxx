#include "MacroscopeModelPlan.h"

#include "MacroscopeTraceColumns.h"
#include "ResourceSelection.h"
#include "TraceSchema.h"

#include "vtkDataSetAttributes.h"
#include "vtkMacroscopeTimeSlicing.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkTree.h"

#include <stdexcept>

namespace schema = macroscope::schema;

const char* MacroscopeModelPlan::PlaneKind(int metric)
{
  switch (metric)
  {
    case vtkMacroscopeTimeSlicing::STATE_DURATION:
      return schema::StateKind;
    case vtkMacroscopeTimeSlicing::EVENT_COUNT:
      return schema::EventKind;
    case vtkMacroscopeTimeSlicing::VARIABLE_MEAN:
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
  if (!subset.empty())
  {
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
  }
  try
  {
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

