// The cell arrays of the Spatiotemporal Overview Layout's Marks output, a
// value per mark (docs/overviews.md), filled as the marks are drawn.
//
// Private to the Representations module.
#ifndef MacroscopeOverviewMarkArrays_h
#define MacroscopeOverviewMarkArrays_h

#include "vtkDoubleArray.h"
#include "vtkIntArray.h"
#include "vtkNew.h"
#include "vtkStringArray.h"
#include "vtkTypeInt64Array.h"
#include "vtkUnsignedCharArray.h"

#include <string>

class vtkCellData;
namespace macroscope
{
struct OverviewMark;
}

struct MacroscopeOverviewMarkArrays
{
  vtkNew<vtkIntArray> PartIds, Modes, PartCounts, FirstLeaves, LastLeaves, FirstSlices, LastSlices;
  vtkNew<vtkTypeInt64Array> NodeIds;
  vtkNew<vtkStringArray> Names, ModeNames;
  vtkNew<vtkDoubleArray> Values, SignedValues, Proportions, Starts, Ends;
  vtkNew<vtkUnsignedCharArray> Kinds;

  /// Named, with room for `count` marks.
  explicit MacroscopeOverviewMarkArrays(vtkIdType count);
  /// The values of mark `m`, drawn for node `node` with mode type `mode`.
  void Add(const macroscope::OverviewMark& m, const std::string& node, const std::string& mode);
  /// Adds the arrays to `cells`; SignedValue only on a comparison's marks.
  void Into(vtkCellData* cells, bool signedScale);
};

#endif
