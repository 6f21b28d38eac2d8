/**
 * @class vtkMacroscopeHierarchicalAggregation
 * @brief Triva's aggregation model: the microscopic model of a time window
 * summed up the resource hierarchy.
 *
 * Input: the Model output of vtkMacroscopeTimeSlicing. For a time window,
 * each resource's value per type is integrated over the slices (weighted by
 * their overlap with the window; summed for durations and counts, averaged
 * for rates and means), then every node of the hierarchy gets the sum
 * (default), minimum, maximum or mean of the resources below it (Schnorr
 * 2009 (Triva) §4.3).
 *
 * Output: a vtkTree of the hierarchy (root first) with vertex arrays Name,
 * Kind, "Values" (one component per type, named after it), "Total" and
 * "Resources" (the number of resources below), so that any level can be
 * inspected or drawn. It reads the whole model whatever the piece, and
 * piece 0 holds the tree.
 */
#ifndef vtkMacroscopeHierarchicalAggregation_h
#define vtkMacroscopeHierarchicalAggregation_h

#include "MacroscopeFiltersModule.h" // for export macro
#include "vtkTreeAlgorithm.h"

#include <vector> // for std::vector

class vtkDataArray;
class vtkFieldData;
namespace macroscope
{
struct ResourceHierarchy;
}

class MACROSCOPEFILTERS_EXPORT vtkMacroscopeHierarchicalAggregation : public vtkTreeAlgorithm
{
public:
  static vtkMacroscopeHierarchicalAggregation* New();
  vtkTypeMacro(vtkMacroscopeHierarchicalAggregation, vtkTreeAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum FunctionType
  {
    SUM = 0,
    MIN = 1,
    MAX = 2,
    MEAN = 3
  };

  ///@{
  /// How a node's value comes from its resources' values (default SUM).
  vtkSetMacro(Function, int);
  vtkGetMacro(Function, int);
  ///@}

  ///@{
  /// Start and end of the window, in seconds since the trace start; an end
  /// of 0 means the end of the model's window (the default takes it all).
  vtkSetVector2Macro(TimeWindow, double);
  vtkGetVector2Macro(TimeWindow, double);
  ///@}

protected:
  vtkMacroscopeHierarchicalAggregation();
  ~vtkMacroscopeHierarchicalAggregation() override = default;

  int FillInputPortInformation(int port, vtkInformation* info) override;
  int RequestUpdateExtent(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

private:
  vtkMacroscopeHierarchicalAggregation(const vtkMacroscopeHierarchicalAggregation&) = delete;
  void operator=(const vtkMacroscopeHierarchicalAggregation&) = delete;

  // Empties the output and reports the abort when AbortExecute is set.
  bool Aborted(vtkTree* output);
  // The model's values as doubles; false when aborted.
  bool CopyModel(vtkDataArray* values, std::vector<double>& copy, vtkTree* output);
  // The output tree of the nodes' values, root first, with the model's
  // names and kinds (`fields`): 1 done, 0 not a tree, -1 aborted.
  int BuildTree(vtkTree* output, const macroscope::ResourceHierarchy& hierarchy,
    const std::vector<double>& nodeValues, vtkFieldData* fields);

  int Function = SUM;
  double TimeWindow[2] = { 0.0, 0.0 };
};

#endif
