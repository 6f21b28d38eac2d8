// The shape of a microscopic model — its resources (with the hierarchy
// above them) and its type planes — from a trace's Hierarchy and Types.
// Shared by Time Slicing, which gets them from its inputs, and Streamed Time
// Slicing, which gets them from the reader it owns.
#ifndef MacroscopeModelPlan_h
#define MacroscopeModelPlan_h

#include "MacroscopeCommonModule.h" // for export macro
#include "ResourceHierarchy.h"

#include "vtkType.h"

#include <cstdint>
#include <string>
#include <vector>

class vtkTable;
class vtkTree;

struct MACROSCOPECOMMON_EXPORT MacroscopeModelPlan
{
  macroscope::ResourceHierarchy Resources;
  std::vector<uint32_t> PlaneOfType; ///< Types row -> plane, UINT32_MAX if none
  std::vector<vtkIdType> TypeOfPlane;

  int Planes() const
  {
    return this->TypeOfPlane.empty() ? 1 : static_cast<int>(this->TypeOfPlane.size());
  }

  /// The Types kind the planes of a vtkMacroscopeTimeSlicing metric are made
  /// of; nullptr for the message metrics (one plane).
  static const char* PlaneKind(int metric);

  /// Plans the model of `metric` at hierarchy `level` (-1: the locations),
  /// restricted to the locations below the vertices `subset` names (empty:
  /// all). False, with the reason in `problem`, when it cannot be done.
  bool Build(vtkTree* tree, vtkTable* types, int metric, int level,
    const std::vector<std::string>& subset, std::string& problem);

  /// Keeps the planes of the types named in `names` only (empty: all), in
  /// the Types table's order, after Build. A name that is no type of the
  /// table is an error naming every such name; a known type of another
  /// kind than the planes' (an event type for the state metric) has no
  /// plane and is passed over, so one linked selection can name states and
  /// events; none left is an error. False, with `problem`, then.
  bool KeepTypes(vtkTable* types, const std::vector<std::string>& names, std::string& problem);

  /// The leaves below the vertices `subset` names (Time Slicing's Resources
  /// rules, ResourceSelection.h) as a mask by leaf index; empty for an empty
  /// subset (every leaf). False, with `problem`, for unknown names.
  static bool SelectLeaves(vtkTree* tree, const std::vector<int64_t>& parent,
    const std::vector<int64_t>& leafIndex, const std::vector<std::string>& subset,
    std::vector<bool>& keepLeaf, std::string& problem);

  /// The types named, as a mask by Types row; empty for no names (every
  /// type). False, with `problem` naming them, when a name is no type.
  static bool SelectTypes(vtkTable* types, const std::vector<std::string>& names,
    std::vector<bool>& keepType, std::string& problem);
};

#endif
