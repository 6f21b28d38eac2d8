#include "MacroscopeTraceColumns.h"

#include "TraceSchema.h"

#include "vtkDataSetAttributes.h"
#include "vtkTree.h"

bool MacroscopeHierarchyArrays(vtkTree* tree, std::vector<int64_t>& parent,
  std::vector<int64_t>& leafIndex, std::string& problem)
{
  namespace schema = macroscope::schema;
  const vtkIdType vertices = tree->GetNumberOfVertices();
  vtkDataArray* leafColumn =
    vtkDataArray::SafeDownCast(tree->GetVertexData()->GetAbstractArray(schema::LeafIndex));
  if (!leafColumn)
  {
    problem = std::string("the Hierarchy has no ") + schema::LeafIndex + " vertex array";
    return false;
  }
  parent.assign(static_cast<std::size_t>(vertices), -1);
  leafIndex.assign(static_cast<std::size_t>(vertices), -1);
  for (vtkIdType v = 0; v < vertices; ++v)
  {
    parent[v] = tree->GetParent(v);
    leafIndex[v] = static_cast<int64_t>(leafColumn->GetComponent(v, 0));
  }
  return true;
}
