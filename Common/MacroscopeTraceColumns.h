// Trace tables and trees as the plain arrays of Core: the columns
// of the data contract (docs/architecture.md) as contiguous C arrays, and
// the Hierarchy tree as parent and leaf-index vectors.
#ifndef MacroscopeTraceColumns_h
#define MacroscopeTraceColumns_h

#include "MacroscopeCommonModule.h" // for export macro
#include "vtkDataArray.h"
#include "vtkFieldData.h"
#include "vtkNew.h"
#include "vtkTable.h"
#include "vtkTypeTraits.h"

#include <cstdint>
#include <string>
#include <vector>

class vtkTree;

/// A new named column of `components` components, added to `table`.
template <typename Array>
Array* MacroscopeNewColumn(vtkTable* table, const char* name, int components = 1)
{
  vtkNew<Array> column;
  column->SetName(name);
  column->SetNumberOfComponents(components);
  table->AddColumn(column);
  return column;
}

/// A field array of one value, `name`d, added to `fields` (a table's
/// metric name, a count, a flag).
template <typename Array, typename Value>
void MacroscopeAddFieldValue(vtkFieldData* fields, const char* name, const Value& value)
{
  vtkNew<Array> array;
  array->SetName(name);
  array->InsertNextValue(value);
  fields->AddArray(array);
}

/// A column as a contiguous array of T: the column's own memory when it
/// already is one (no copy), else a converted copy kept alive in `storage`.
/// Null when the column is missing or not numeric, and only then: an empty
/// column (a trace without messages, a window that holds no event) is a
/// valid pointer to no rows, since callers take null for "missing".
template <typename T>
const T* MacroscopeContiguous(vtkAbstractArray* column, std::vector<T>& storage)
{
  auto* data = vtkDataArray::SafeDownCast(column);
  if (!data)
  {
    return nullptr;
  }
  if (data->GetNumberOfTuples() == 0)
  {
    // An empty array's memory and an empty vector's data() may both be null.
    static const T noRows{};
    return &noRows;
  }
  if (data->GetDataType() == vtkTypeTraits<T>::VTK_TYPE_ID && data->GetNumberOfComponents() == 1 &&
    data->HasStandardMemoryLayout())
  {
    return static_cast<const T*>(data->GetVoidPointer(0));
  }
  storage.resize(static_cast<std::size_t>(data->GetNumberOfTuples()));
  for (vtkIdType i = 0; i < data->GetNumberOfTuples(); ++i)
  {
    storage[static_cast<std::size_t>(i)] = static_cast<T>(data->GetComponent(i, 0));
  }
  return storage.data();
}

/// The values of a one-component column (the first component of a
/// multi-component one) as a vector of T: a parent column, sizes, a model's
/// cells. A plain copy when the column already holds T, else converted.
/// Empty when the column is missing.
template <typename T>
std::vector<T> MacroscopeColumnValues(vtkAbstractArray* column)
{
  std::vector<T> values;
  const T* data = MacroscopeContiguous(column, values);
  if (data && data != values.data())
  {
    values.assign(data, data + column->GetNumberOfTuples());
  }
  return values;
}

/// Keeps the converted copies of the columns it hands out alive.
struct MacroscopeColumnStore
{
  std::vector<std::vector<uint32_t>> Ids;
  std::vector<std::vector<double>> Reals;

  const uint32_t* Ids32(vtkTable* table, const char* name)
  {
    this->Ids.emplace_back();
    return MacroscopeContiguous<uint32_t>(table->GetColumnByName(name), this->Ids.back());
  }
  const double* Real(vtkTable* table, const char* name)
  {
    this->Reals.emplace_back();
    return MacroscopeContiguous<double>(table->GetColumnByName(name), this->Reals.back());
  }
};

/// The parent of every vertex of a trace Hierarchy (-1 for the root) and its
/// LeafIndex (-1 for inner vertices). False, with `problem` set, when the
/// tree has no LeafIndex vertex array.
MACROSCOPECOMMON_EXPORT bool MacroscopeHierarchyArrays(vtkTree* tree, std::vector<int64_t>& parent,
  std::vector<int64_t>& leafIndex, std::string& problem);

#endif
