/**
 * @class vtkMacroscopeResourceTreemap
 * @brief What a treemap of the resource hierarchy draws for a time window:
 * Triva's time-slice treemap with level aggregation, or Viva's pIC spatial
 * aggregation (the optimal cut of the hierarchy for p).
 *
 * Input 0: the Model output of Time Slicing (read whole whatever the piece).
 * Input 1, "Sizes" (optional): another model of the same trace, with the
 * same resources, whose total over the window gives the areas (e.g. bytes
 * sent per second).
 *
 * The model is integrated over the window (MacroscopeCore's
 * IntegrateWindow); the cut is either every node at depth Level (and the
 * leaves above it), or the optimal cut of macroscope::SpatialAggregation on
 * the integrated model for Parameter.
 *
 * Output 0, "Treemap": one row per node from the root down to the cut,
 * parents before children (depth first, children in leaf order): Node, Name,
 * Path, Kind, Parent (row), Depth, Cut (1 for the cut's nodes, drawn
 * subdivided by type; 0 for their ancestors, drawn as frames), Resources,
 * FirstLeaf, LastLeaf, Size (the area value, an inner row's being the sum
 * of its children's), Values (per type, named after it), Total, Mode,
 * ModeName, ModeProportion, Gain and Loss (the cut rows' qualities as parts).
 * Field data: TypeName, TypeId, TypeColor, Metric, Extensive,
 * ResourceSelection (from the model), TimeWindow (the window used),
 * Parameter, PartitionQuality, Constraint ("level" or "spatial"), Level,
 * SizeBy (what the sizes measure) and QualityComputations.
 * Outputs 1 and 2, "Quality Curves" and "Quality Plot": those of the
 * Spatial Aggregation filter for the integrated model.
 *
 * With AnimateSlices, the model's slices are time steps: a request for time
 * t shows the WindowSlices slices from the one holding t (Triva's animated
 * time slice). Piece 0 holds the tables.
 */
#ifndef vtkMacroscopeResourceTreemap_h
#define vtkMacroscopeResourceTreemap_h

#include "MacroscopeFiltersModule.h" // for export macro
#include "vtkTableAlgorithm.h"

#include <memory> // for std::unique_ptr
#include <string> // for std::string
#include <vector> // for std::vector

class MACROSCOPEFILTERS_EXPORT vtkMacroscopeResourceTreemap : public vtkTableAlgorithm
{
public:
  static vtkMacroscopeResourceTreemap* New();
  vtkTypeMacro(vtkMacroscopeResourceTreemap, vtkTableAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum CutType
  {
    LEVEL = 0,  ///< Triva: every node at one depth
    OPTIMAL = 1 ///< Viva: the cut of highest pIC for Parameter
  };

  enum SizeByType
  {
    SIZE_TOTAL = 0,     ///< the model's total over its types
    SIZE_RESOURCES = 1, ///< the number of resources below a node
    SIZE_TYPE = 2,      ///< the value of type SizeType
    SIZE_INPUT = 3      ///< the total of the Sizes input's model
  };

  ///@{
  /// Which cut of the hierarchy is drawn (default LEVEL).
  vtkSetMacro(Cut, int);
  vtkGetMacro(Cut, int);
  ///@}

  ///@{
  /// The depth of the level cut: 0 the root, 1 its children...; -1 (the
  /// default) the model's resources. A leaf above the level is its own part.
  vtkSetMacro(Level, int);
  vtkGetMacro(Level, int);
  ///@}

  ///@{
  /// The optimal cut's trade-off p in [0, 1] (default 0.5).
  vtkSetMacro(Parameter, double);
  vtkGetMacro(Parameter, double);
  ///@}

  ///@{
  /// Divide gains and losses by those of the whole hierarchy as one part
  /// (default on), as the aggregation filters do.
  vtkSetMacro(NormalizeQualities, bool);
  vtkGetMacro(NormalizeQualities, bool);
  vtkBooleanMacro(NormalizeQualities, bool);
  ///@}

  ///@{
  /// What the areas measure (see SizeByType; default SIZE_TOTAL).
  vtkSetMacro(SizeBy, int);
  vtkGetMacro(SizeBy, int);
  ///@}

  ///@{
  /// The type whose value gives the areas when SizeBy is SIZE_TYPE.
  vtkSetStdStringFromCharMacro(SizeType);
  vtkGetCharFromStdStringMacro(SizeType);
  ///@}

  ///@{
  /// The window in seconds since the trace start when AnimateSlices is off;
  /// an end of 0 means the model's end (the default takes it all).
  vtkSetVector2Macro(TimeWindow, double);
  vtkGetVector2Macro(TimeWindow, double);
  ///@}

  ///@{
  /// Expose the model's slices as time steps, the window being the
  /// WindowSlices slices from the requested one (default off).
  vtkSetMacro(AnimateSlices, bool);
  vtkGetMacro(AnimateSlices, bool);
  vtkBooleanMacro(AnimateSlices, bool);
  ///@}

  ///@{
  /// How many slices an animated window spans (default 1).
  vtkSetMacro(WindowSlices, int);
  vtkGetMacro(WindowSlices, int);
  ///@}

protected:
  vtkMacroscopeResourceTreemap();
  ~vtkMacroscopeResourceTreemap() override;

  int FillInputPortInformation(int port, vtkInformation* info) override;
  int RequestInformation(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
  int RequestUpdateExtent(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

private:
  vtkMacroscopeResourceTreemap(const vtkMacroscopeResourceTreemap&) = delete;
  void operator=(const vtkMacroscopeResourceTreemap&) = delete;

  int Cut = LEVEL;
  int Level = -1;
  double Parameter = 0.5;
  bool NormalizeQualities = true;
  int SizeBy = SIZE_TOTAL;
  std::string SizeType;
  double TimeWindow[2] = { 0.0, 0.0 };
  bool AnimateSlices = false;
  int WindowSlices = 1;

  struct Internals;
  std::unique_ptr<Internals> Internal;
  // The arrays of a model input, and where the areas come from.
  struct ModelArrays;
  struct Areas;

  // RequestData's steps; each reports its own error and returns false (or,
  // for the integration, 0 error, -1 aborted, 1 done).
  bool CheckProperties();
  bool ChooseWindow(const ModelArrays& model, bool timed, double requested, double window[2]);
  bool ChooseAreas(const ModelArrays& model, const ModelArrays& sizes, Areas& areas);
  bool KeepModel(const ModelArrays& model);
  int KeepWindowIntegral(const ModelArrays& model, const double window[2]);
  bool ChooseCut(std::vector<int64_t>& cut, double& bestGain, double& bestLoss);
  bool SizeResources(const ModelArrays& sizes, const Areas& areas, const double window[2],
    std::vector<double>& resourceSizes);
  bool WriteTable(vtkTable* table, const ModelArrays& model, const std::vector<int64_t>& cut,
    const std::vector<double>& resourceSizes, const double window[2], const Areas& areas,
    const double bestQuality[2]);
};

#endif
