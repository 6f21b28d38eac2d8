#include "vtkMacroscopeHierarchyLayout.h"

#include "TreeLayout.h"

#include "vtkCellArray.h"
#include "vtkDataSetAttributes.h"
#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkIntArray.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointData.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkTree.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

vtkStandardNewMacro(vtkMacroscopeHierarchyLayout);

vtkMacroscopeHierarchyLayout::vtkMacroscopeHierarchyLayout() = default;

void vtkMacroscopeHierarchyLayout::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "ColumnSpacing: " << this->ColumnSpacing << "\n";
  os << indent << "LevelSpacing: " << this->LevelSpacing << "\n";
}

int vtkMacroscopeHierarchyLayout::FillInputPortInformation(int, vtkInformation* info)
{
  info->Set(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkTree");
  return 1;
}

int vtkMacroscopeHierarchyLayout::RequestData(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  // An abort stops the run it interrupts; VTK leaves the flag set, which
  // would abort every later run too (docs/progress.md).
  this->SetAbortExecute(0);
  vtkTree* tree = vtkTree::GetData(inputVector[0]);
  vtkPolyData* output = vtkPolyData::GetData(outputVector);
  if (!tree || !output)
  {
    vtkErrorMacro("The input must be a vtkTree (a trace reader's Hierarchy output).");
    return 0;
  }
  if (!(this->ColumnSpacing > 0.0) || !(this->LevelSpacing >= 0.0))
  {
    vtkErrorMacro("ColumnSpacing must be positive and LevelSpacing not negative (got "
      << this->ColumnSpacing << " and " << this->LevelSpacing << ").");
    return 0;
  }

  const vtkIdType count = tree->GetNumberOfVertices();
  std::vector<long long> parents(count);
  for (vtkIdType v = 0; v < count; ++v)
  {
    parents[v] = tree->GetParent(v);
  }

  std::vector<macroscope::TreePosition> positions;
  try
  {
    positions = macroscope::TreeLayout::Compute(parents);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro(<< error.what());
    return 0;
  }

  double columns = 1.0;
  int depth = 0;
  for (const auto& p : positions)
  {
    columns = std::max(columns, p.Column + 1.0);
    depth = std::max(depth, p.Depth);
  }
  const double width = columns * this->ColumnSpacing;
  const double level =
    this->LevelSpacing > 0.0 ? this->LevelSpacing : (depth > 0 ? 0.5 * width / depth : 1.0);

  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(count);
  vtkNew<vtkIntArray> depths;
  depths->SetName("Depth");
  depths->SetNumberOfTuples(count);
  vtkNew<vtkCellArray> verts;
  vtkNew<vtkCellArray> lines;
  for (vtkIdType v = 0; v < count; ++v)
  {
    points->SetPoint(
      v, positions[v].Column * this->ColumnSpacing, -positions[v].Depth * level, 0.0);
    depths->SetValue(v, positions[v].Depth);
    verts->InsertNextCell(1, &v);
    if (parents[v] >= 0)
    {
      const vtkIdType edge[2] = { static_cast<vtkIdType>(parents[v]), v };
      lines->InsertNextCell(2, edge);
    }
  }

  output->SetPoints(points);
  output->SetVerts(verts);
  output->SetLines(lines);
  output->GetPointData()->ShallowCopy(tree->GetVertexData());
  output->GetPointData()->AddArray(depths);
  output->GetFieldData()->ShallowCopy(tree->GetFieldData());
  return 1;
}
