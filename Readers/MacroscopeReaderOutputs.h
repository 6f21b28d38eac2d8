// Private helpers shared by Macroscope's trace readers (OTF2, Pajé): they
// turn the decoders' plain columns (OTF2TraceTables.h) into the VTK outputs
// of the data contract (docs/architecture.md). Not part of the module's
// public interface.
#ifndef MacroscopeReaderOutputs_h
#define MacroscopeReaderOutputs_h

#include "HierarchyFile.h"
#include "MacroscopeColumnRanges.h"
#include "OTF2TraceTables.h"

#include "vtkDoubleArray.h"
#include "vtkNew.h"
#include "vtkSmartPointer.h"
#include "vtkTable.h"
#include "vtkTypeInt32Array.h"
#include "vtkTypeInt64Array.h"
#include "vtkTypeUInt32Array.h"
#include "vtkTypeUInt64Array.h"
#include "vtkUnsignedCharArray.h"

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

class vtkDataArraySelection;
class vtkFieldData;
class vtkInformationVector;
class vtkTree;

namespace macroscope::readers
{

/// The VTK array class for a column element type of the decoders.
template <typename T>
struct ArrayFor;
template <>
struct ArrayFor<uint8_t>
{
  using type = vtkUnsignedCharArray;
};
template <>
struct ArrayFor<int32_t>
{
  using type = vtkTypeInt32Array;
};
template <>
struct ArrayFor<uint32_t>
{
  using type = vtkTypeUInt32Array;
};
template <>
struct ArrayFor<int64_t>
{
  using type = vtkTypeInt64Array;
};
template <>
struct ArrayFor<uint64_t>
{
  using type = vtkTypeUInt64Array;
};
template <>
struct ArrayFor<double>
{
  using type = vtkDoubleArray;
};

/// Hands the column's buffer to a new array of `table`, without a copy: the
/// array frees it with free(), as it was allocated with malloc(). The column
/// is left empty. The array's ranges are cached (MacroscopeColumnRanges.h).
template <typename T>
void MoveColumn(vtkTable* table, const char* name, otf2::Column<T>& column)
{
  using Array = typename ArrayFor<T>::type;
  using Value = typename Array::ValueType;
  // vtkTypeInt64 may be long long where int64_t is long: same values, same bytes.
  static_assert(sizeof(Value) == sizeof(T) &&
      std::is_integral<Value>::value == std::is_integral<T>::value &&
      std::is_signed<Value>::value == std::is_signed<T>::value,
    "the array must hold the column's values as they are");
  vtkNew<Array> array;
  array->SetName(name);
  const auto size = static_cast<vtkIdType>(column.size());
  double range[2];
  double finite[2];
  const bool ranged = MacroscopeColumnRanges(column.data(), column.size(), range, finite);
  if (size > 0)
  {
    array->SetArray(reinterpret_cast<Value*>(column.Release()), size, /*save=*/0,
      vtkAbstractArray::VTK_DATA_ARRAY_FREE);
  }
  table->AddColumn(array);
  if (ranged)
  {
    MacroscopeSeedRanges(array, range, finite);
  }
}

/// Moves a string column into a new vtkStringArray of `table`.
void MoveStrings(vtkTable* table, const char* name, std::vector<std::string>& column);

///@{
/// Moves the decoded columns into the States, Messages, Events and
/// Variables outputs, named by the data contract (TraceSchema.h); the
/// columns are left empty.
void MoveStates(vtkTable* table, otf2::StateColumns& states);
void MoveMessages(vtkTable* table, otf2::MessageColumns& messages);
void MoveEvents(vtkTable* table, otf2::EventColumns& events);
void MoveVariables(vtkTable* table, otf2::VariableColumns& variables);
///@}

/// Adds a one-value counter array (a ReadReport anomaly count) to `fields`.
void AddCounter(vtkFieldData* fields, const char* name, uint64_t value);

/// Leaf paths below the root, in leaf order: the names of the Locations
/// selection ("cluster-0/node-1/MPI Rank 4"; a trace whose only vertex is a
/// leaf: its name). `Trace` has a Hierarchy and Leaves whose items give a
/// Vertex (otf2::TraceInfo, paje::TraceData). Only the leaves' paths are
/// built, shortened beyond MaxPathBytes (HierarchyFile.h), so that a deep
/// hierarchy costs memory linear in its size.
template <typename Trace>
std::vector<std::string> LeafPaths(const Trace& trace)
{
  std::vector<std::size_t> vertices;
  vertices.reserve(trace.Leaves.size());
  for (const auto& leaf : trace.Leaves)
  {
    vertices.push_back(leaf.Vertex);
  }
  return ShortPaths(trace.Hierarchy.Parent, trace.Hierarchy.Name, vertices);
}

/// Replaces the names of `selection` by `names`, keeping the status of the
/// names it already had (e.g. set from a state file before the first read).
void ResetSelection(vtkDataArraySelection* selection, const std::vector<std::string>& names);

/// The Hierarchy output from the decoder's columns; a forest hangs below a
/// vertex named after `file`.
void FillHierarchy(const otf2::HierarchyColumns& hierarchy, vtkTree* tree, const std::string& file);

/// The Types output (Id, Name, Kind, Paradigm, Role, Color); takes the
/// columns by value since it moves them.
void FillTypes(otf2::TypeColumns types, vtkTable* table);

/// The names of the state types (OTF2 regions, Pajé state values), sorted
/// and unique: the Regions selection.
std::vector<std::string> StateTypeNames(const otf2::TypeColumns& types);

/// The Types output (FillTypes) with the trace's span as its "TimeBounds"
/// field array, which filters take for their default windows.
vtkSmartPointer<vtkTable> TypesOutput(otf2::TypeColumns types, const double timeBounds[2]);

/// Passes the Hierarchy and Types outputs downstream as meta-data, before
/// any event is read (vtkMacroscopeTraceKeys::DEFINITIONS).
void PublishDefinitions(vtkInformationVector* outputVector, vtkTree* hierarchy, vtkTable* types);

/// Fills the six outputs of a read: the decoded tables moved in (the columns
/// are left empty), Hierarchy and Types as published, and the report text as
/// the "ReadReport" field array of States. Returns the States field data, for
/// the reader's own counters.
vtkFieldData* FillTraceOutputs(vtkInformationVector* outputVector, otf2::StateColumns& states,
  otf2::MessageColumns& messages, otf2::EventColumns& events, otf2::VariableColumns& variables,
  vtkTree* hierarchy, vtkTable* types, const std::string& report);

/// Checks a TimeWindow property (seconds, an end of 0 meaning the trace end);
/// returns an empty string when it is a window, else why not. The start may
/// not precede `earliest` (0 for OTF2; a Pajé trace's first time when negative).
std::string CheckTimeWindow(const double window[2], double earliest = 0.0);

} // namespace macroscope::readers

#endif
