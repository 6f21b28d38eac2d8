// The cell arrays of the Clustered Timeline Layout's Marks output, a value
// per mark (docs/logical-views.md), filled as the marks are drawn.
//
// Private to the Representations module.
#ifndef MacroscopeClusterMarkArrays_h
#define MacroscopeClusterMarkArrays_h

#include "vtkDoubleArray.h"
#include "vtkIdTypeArray.h"
#include "vtkIntArray.h"
#include "vtkNew.h"
#include "vtkStringArray.h"

#include <string>

class vtkCellData;

struct MacroscopeClusterMarkArrays
{
  vtkNew<vtkIntArray> Kinds, Phases, Clusters, Locations;
  vtkNew<vtkIdTypeArray> Steps;
  vtkNew<vtkDoubleArray> Metrics, Fractions;
  /// Details on demand: a band's members by name (empty for other marks).
  vtkNew<vtkStringArray> Members;

  MacroscopeClusterMarkArrays();
  /// The values of the mark just drawn (`mark`: a Marks value of
  /// vtkMacroscopeClusteredTimelineLayout).
  void Add(int mark, int phase, int cluster, vtkIdType step, double metric, double fraction,
    int location = -1, const std::string& members = std::string());
  void Into(vtkCellData* cells);
};

#endif
