#include "vtkMacroscopeHierarchicalAggregation.h"

#include "MacroscopeModelInput.h"
#include "ResourceHierarchy.h"
#include "WindowIntegration.h"

#include "vtkDataSetAttributes.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkIdTypeArray.h"
#include "vtkImageData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkMutableDirectedGraph.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointData.h"
#include "vtkStreamingDemandDrivenPipeline.h"
#include "vtkStringArray.h"
#include "vtkTree.h"

#include <algorithm>
#include <cmath>
#include <vector>

vtkStandardNewMacro(vtkMacroscopeHierarchicalAggregation);

namespace
{
// The resources below every node of `hierarchy` (1 for a resource).
std::vector<vtkIdType> ResourcesBelow(const macroscope::ResourceHierarchy& hierarchy)
{
  std::vector<vtkIdType> below(hierarchy.Parent.size(), 0);
  for (std::size_t n = 0; n < below.size(); ++n)
  {
    below[n] += n < hierarchy.Resources ? 1 : 0;
    if (hierarchy.Parent[n] >= 0)
    {
      below[static_cast<std::size_t>(hierarchy.Parent[n])] += below[n];
    }
  }
  return below;
}
}

vtkMacroscopeHierarchicalAggregation::vtkMacroscopeHierarchicalAggregation()
{
  this->SetNumberOfInputPorts(1);
}

void vtkMacroscopeHierarchicalAggregation::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Function: " << this->Function << "\n";
  os << indent << "TimeWindow: " << this->TimeWindow[0] << " " << this->TimeWindow[1] << "\n";
}

int vtkMacroscopeHierarchicalAggregation::FillInputPortInformation(int, vtkInformation* info)
{
  info->Set(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkImageData");
  return 1;
}

int vtkMacroscopeHierarchicalAggregation::RequestUpdateExtent(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector*)
{
  MacroscopeModelInput::RequestWholeModel(inputVector);
  return 1;
}

int vtkMacroscopeHierarchicalAggregation::RequestData(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  vtkImageData* model = vtkImageData::GetData(inputVector[0]);
  vtkTree* output = vtkTree::GetData(outputVector);
  vtkInformation* outInfo = outputVector->GetInformationObject(0);
  if (MacroscopeModelInput::IsLaterPiece(outInfo))
  {
    return 1; // piece 0 holds the tree
  }
  if (!model || model->GetNumberOfPoints() == 0)
  {
    return 1; // an empty model: nothing to aggregate
  }
  vtkFieldData* fields = model->GetFieldData();
  auto* values = vtkDataArray::SafeDownCast(model->GetPointData()->GetAbstractArray("Value"));
  auto* parents = vtkDataArray::SafeDownCast(fields->GetAbstractArray("NodeParent"));
  auto* names = vtkStringArray::SafeDownCast(fields->GetAbstractArray("NodeName"));
  auto* kinds = vtkStringArray::SafeDownCast(fields->GetAbstractArray("NodeKind"));
  auto* typeNames = vtkStringArray::SafeDownCast(fields->GetAbstractArray("TypeName"));
  auto* extensiveFlag = vtkDataArray::SafeDownCast(fields->GetAbstractArray("Extensive"));
  if (!values || !parents || !names || !kinds || !typeNames || !extensiveFlag)
  {
    vtkErrorMacro(
      "The input is not a microscopic model: give it the Model output of Time Slicing.");
    return 0;
  }
  if (this->Function < SUM || this->Function > MEAN)
  {
    vtkErrorMacro("Unknown Function " << this->Function << ".");
    return 0;
  }

  int dims[3];
  model->GetDimensions(dims);
  const int slices = dims[0];
  const int resources = dims[1];
  const int types = dims[2];
  const double origin = model->GetOrigin()[0];
  const double width = model->GetSpacing()[0];
  const double modelEnd = origin + slices * width;
  const double begin = this->TimeWindow[0];
  const double end = this->TimeWindow[1] == 0.0 ? modelEnd : this->TimeWindow[1];

  // Per resource and type: the window's share of every slice.
  const bool extensive = extensiveFlag->GetComponent(0, 0) != 0.0;
  // Progress: the copy of the model (most of the time on a large model) in
  // 40 steps up to 0.5, the core's two passes, then the tree in 20 steps;
  // AbortExecute is honoured at each step.
  this->SetAbortExecute(0); // ParaView 5.11 leaves an aborted run's flag set
  std::vector<double> modelValues;
  if (!this->CopyModel(values, modelValues, output))
  {
    return 1;
  }
  const macroscope::ModelView view{ modelValues.data(), slices, static_cast<uint32_t>(resources),
    static_cast<uint32_t>(types) };
  std::vector<double> resourceValues;
  try
  {
    resourceValues =
      macroscope::IntegrateWindow(view, { origin, width }, begin, end, extensive).Values;
  }
  catch (const std::exception&)
  {
    vtkErrorMacro("TimeWindow (" << this->TimeWindow[0] << ", " << this->TimeWindow[1]
                                 << ") does not overlap the model's window [" << origin << ", "
                                 << modelEnd << "] s.");
    return 0;
  }

  this->UpdateProgress(0.6);
  if (this->Aborted(output))
  {
    return 1;
  }
  macroscope::ResourceHierarchy hierarchy;
  hierarchy.Resources = static_cast<uint32_t>(resources);
  for (vtkIdType n = 0; n < parents->GetNumberOfTuples(); ++n)
  {
    hierarchy.Parent.push_back(static_cast<int64_t>(parents->GetComponent(n, 0)));
  }
  std::vector<double> nodeValues;
  try
  {
    nodeValues = macroscope::AggregateHierarchy(hierarchy, resourceValues, types,
      static_cast<macroscope::AggregationFunction>(this->Function));
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("The model's hierarchy is malformed: " << error.what());
    return 0;
  }
  const int built = this->BuildTree(output, hierarchy, nodeValues, fields);
  if (built == 1)
  {
    output->GetFieldData()->PassData(fields);
  }
  return built == 0 ? 0 : 1;
}

bool vtkMacroscopeHierarchicalAggregation::Aborted(vtkTree* output)
{
  if (!this->GetAbortExecute())
  {
    return false;
  }
  // Empty, not marked aborted: the executive would run the filter again at
  // the next request, undoing the abort (docs/progress.md).
  output->Initialize();
  vtkErrorMacro("Hierarchical aggregation aborted: no tree was output.");
  return true;
}

bool vtkMacroscopeHierarchicalAggregation::CopyModel(
  vtkDataArray* values, std::vector<double>& copy, vtkTree* output)
{
  const vtkIdType count = values->GetNumberOfTuples();
  const vtkIdType copyStep = std::max<vtkIdType>(1, count / 40);
  copy.resize(static_cast<std::size_t>(count));
  for (vtkIdType i = 0; i < count; ++i)
  {
    if (i % copyStep == 0)
    {
      this->UpdateProgress(0.5 * double(i) / count);
      if (this->Aborted(output))
      {
        return false;
      }
    }
    copy[i] = values->GetComponent(i, 0);
  }
  return true;
}

int vtkMacroscopeHierarchicalAggregation::BuildTree(vtkTree* output,
  const macroscope::ResourceHierarchy& hierarchy, const std::vector<double>& nodeValues,
  vtkFieldData* fields)
{
  auto* names = vtkStringArray::SafeDownCast(fields->GetAbstractArray("NodeName"));
  auto* kinds = vtkStringArray::SafeDownCast(fields->GetAbstractArray("NodeKind"));
  auto* typeNames = vtkStringArray::SafeDownCast(fields->GetAbstractArray("TypeName"));
  const auto nodes = static_cast<vtkIdType>(hierarchy.Parent.size());
  const int types = nodes > 0 ? static_cast<int>(nodeValues.size() / nodes) : 0;
  // The tree, root first: node n becomes vertex nodes - 1 - n.
  vtkNew<vtkMutableDirectedGraph> graph;
  vtkNew<vtkStringArray> vertexNames;
  vertexNames->SetName("Name");
  vtkNew<vtkStringArray> vertexKinds;
  vertexKinds->SetName("Kind");
  vtkNew<vtkDoubleArray> vertexValues;
  vertexValues->SetName("Values");
  vertexValues->SetNumberOfComponents(types);
  for (int u = 0; u < types; ++u)
  {
    vertexValues->SetComponentName(u, typeNames->GetValue(u).c_str());
  }
  vtkNew<vtkDoubleArray> totals;
  totals->SetName("Total");
  vtkNew<vtkIdTypeArray> below;
  below->SetName("Resources");
  const std::vector<vtkIdType> resourcesBelow = ResourcesBelow(hierarchy);
  this->UpdateProgress(0.7);
  const vtkIdType treeStep = std::max<vtkIdType>(1, nodes / 20);
  for (vtkIdType v = 0; v < nodes; ++v)
  {
    if (v % treeStep == 0)
    {
      this->UpdateProgress(0.7 + 0.3 * double(v) / nodes);
      if (this->Aborted(output))
      {
        return -1;
      }
    }
    const vtkIdType n = nodes - 1 - v;
    const int64_t p = hierarchy.Parent[n];
    if (p < 0)
    {
      graph->AddVertex();
    }
    else
    {
      graph->AddChild(nodes - 1 - static_cast<vtkIdType>(p));
    }
    vertexNames->InsertNextValue(names->GetValue(n));
    vertexKinds->InsertNextValue(kinds->GetValue(n));
    const double* row = &nodeValues[static_cast<std::size_t>(n) * types];
    vertexValues->InsertNextTuple(row);
    double total = 0.0;
    for (int u = 0; u < types; ++u)
    {
      total += row[u];
    }
    totals->InsertNextValue(total);
    below->InsertNextValue(resourcesBelow[n]);
  }
  vtkDataSetAttributes* data = graph->GetVertexData();
  data->AddArray(vertexNames);
  data->AddArray(vertexKinds);
  data->AddArray(vertexValues);
  data->AddArray(totals);
  data->AddArray(below);
  if (!output->CheckedShallowCopy(graph))
  {
    vtkErrorMacro("The model's hierarchy is not a tree.");
    return 0;
  }
  return 1;
}
