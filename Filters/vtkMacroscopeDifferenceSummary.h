/**
 * @class vtkMacroscopeDifferenceSummary
 * @brief Where two runs differ most: the parts of an aggregation of a Model
 * Difference ranked by their mean |A − B|.
 *
 * Input: the Partition output of an aggregation filter (temporal, spatial
 * or spatiotemporal) run on a Model Difference. Output: a vtkTable of the
 * Count parts of largest mean |A − B| per resource per slice (summed over
 * the types), descending: Rank (1 = most different), NodeName, Resources
 * (the part's resource names from the hierarchy in the partition's field
 * data, ";"-joined), Start, End (seconds), MeanDifference and ModeName
 * (the type that differs most in the part). Field data "Summary": one
 * sentence naming the resources and window that differ most. Piece 0 holds
 * the table, as for the aggregation filters. See docs/comparison.md.
 */
#ifndef vtkMacroscopeDifferenceSummary_h
#define vtkMacroscopeDifferenceSummary_h

#include "MacroscopeFiltersModule.h" // for export macro
#include "vtkTableAlgorithm.h"

class MACROSCOPEFILTERS_EXPORT vtkMacroscopeDifferenceSummary : public vtkTableAlgorithm
{
public:
  static vtkMacroscopeDifferenceSummary* New();
  vtkTypeMacro(vtkMacroscopeDifferenceSummary, vtkTableAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /// How many parts the table keeps, most different first (default 5).
  vtkSetMacro(Count, int);
  vtkGetMacro(Count, int);

  /// The onset (field data "Onset"): the earliest part whose mean |A − B|
  /// is at least this fraction of the largest one, in (0, 1]; default 0.02
  /// (a noise floor: the runs of one program never differ exactly 0).
  vtkSetMacro(OnsetFraction, double);
  vtkGetMacro(OnsetFraction, double);
  ///@}

protected:
  vtkMacroscopeDifferenceSummary() = default;
  ~vtkMacroscopeDifferenceSummary() override = default;

  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

private:
  vtkMacroscopeDifferenceSummary(const vtkMacroscopeDifferenceSummary&) = delete;
  void operator=(const vtkMacroscopeDifferenceSummary&) = delete;

  int Count = 5;
  double OnsetFraction = 0.02;
};

#endif
