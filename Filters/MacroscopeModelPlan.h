// The shape of a microscopic model — its resources (with the hierarchy
// above them) and its type planes — from a trace's Hierarchy and Types.
// Shared by Time Slicing, which gets them from its inputs, and Streamed Time
// Slicing, which gets them from the reader it owns.
#ifndef MacroscopeModelPlan_h
#define MacroscopeModelPlan_h

#include "MacroscopeFiltersModule.h" // for export macro
#include "ResourceHierarchy.h"

#include "vtkType.h"

#include <cstdint>
#include <string>
#include <vector>

class vtkTable;
class vtkTree;

struct MACROSCOPEFILTERS_EXPORT MacroscopeModelPlan
{
  macroscope::ResourceHierarchy Resources;
  std::vector<uint32_t> PlaneOfType; ///< Types row -> plane, UINT32_MAX if none
  std::vector<vtkIdType> TypeOfPlane;

  int Planes() const { return this->TypeOfPlane.empty() ? 1 : static_cast<int>(this->TypeOfPlane.size()); }

  /// The Types kind the planes of a vtkMacroscopeTimeSlicing metric are made
  /// of; nullptr for the message metrics (one plane).
  static const char* PlaneKind(int metric);

  /// Plans the model of `metric` at hierarchy `level` (-1: the locations),
  /// restricted to the locations below the vertices `subset` names (empty:
  /// all). False, with the reason in `problem`, when it cannot be done.
  bool Build(vtkTree* tree, vtkTable* types, int metric, int level,
    const std::vector<std::string>& subset, std::string& problem);
};

#endif
