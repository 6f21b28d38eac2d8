/**
 * @class vtkMacroscopeModelDifference
 * @brief The difference of two runs' microscopic models, A − B per
 * resource, slice and type on a common slice grid, laid out as a model.
 *
 * Input port 0 ("Input"): run A's model, the Model output of Time Slicing
 * or Streamed Time Slicing; port 1 ("Other"): run B's. Types are matched
 * by name; resources by rank (row i with row i) or by name (their path
 * below the root). Both models are rebinned onto a common grid over the
 * union of their windows (Core/ModelDifference.h).
 *
 * Output: a vtkImageData in Time Slicing's model layout (x = slice, y =
 * resource, z = type) and field data (NodeName, NodeKind, NodeParent,
 * TypeName, TypeId, TypeColor, Metric, Extensive, SliceWidth, TimeWindow,
 * ResourceSelection), so that the aggregation filters and the overviews take
 * it unchanged. Point arrays: "Value" = |A − B| (the scalars, what the pIC
 * aggregation measures), "Difference" = A − B, "A" and "B". Field data add
 * "UnmatchedResources" (rows of A, of B, without a counterpart) and
 * "ResourceMatching" ("by rank" or "by name"), and "RunNames" (SetRunNames).
 *
 * Both inputs are read whole on every rank (Time Slicing holds its whole
 * model on every rank), so the filter makes no collective call; like Time
 * Slicing it cuts the extent its consumer asks for. See docs/comparison.md.
 */
#ifndef vtkMacroscopeModelDifference_h
#define vtkMacroscopeModelDifference_h

#include "MacroscopeFiltersModule.h" // for export macro
#include "vtkAlgorithm.h"

#include <memory> // for std::unique_ptr
#include <string> // for std::string

class MACROSCOPEFILTERS_EXPORT vtkMacroscopeModelDifference : public vtkAlgorithm
{
public:
  static vtkMacroscopeModelDifference* New();
  vtkTypeMacro(vtkMacroscopeModelDifference, vtkAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum MatchingType
  {
    BY_RANK = 0,
    BY_NAME = 1
  };

  ///@{
  /// How rows of the two models are matched (see MatchingType; default by rank).
  vtkSetMacro(ResourceMatching, int);
  vtkGetMacro(ResourceMatching, int);
  ///@}

  ///@{
  /// Slices of the common grid; 0 (default) takes the larger slice count of
  /// the two models.
  vtkSetMacro(Slices, int);
  vtkGetMacro(Slices, int);
  ///@}

  /**
   * The names of the two runs ("A" and "B" by default), written in the
   * output's RunNames field data, which the overviews and the summary use
   * to say which run had more ("normal", "perturbed").
   */
  void SetRunNames(const char* a, const char* b);
  const char* GetRunName(int run) const { return this->RunNames[run != 0].c_str(); }

protected:
  vtkMacroscopeModelDifference();
  ~vtkMacroscopeModelDifference() override;

  vtkTypeBool ProcessRequest(
    vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
  int FillInputPortInformation(int port, vtkInformation* info) override;
  int FillOutputPortInformation(int port, vtkInformation* info) override;
  int RequestInformation(vtkInformation*, vtkInformationVector**, vtkInformationVector*);
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*);

private:
  vtkMacroscopeModelDifference(const vtkMacroscopeModelDifference&) = delete;
  void operator=(const vtkMacroscopeModelDifference&) = delete;

  // Cuts the requested extent from the kept difference.
  int WriteOutput(vtkInformationVector* outputVector);

  int ResourceMatching = BY_RANK;
  int Slices = 0;
  std::string RunNames[2] = { "A", "B" };

  struct Kept;
  std::unique_ptr<Kept> Internal;
};

#endif
