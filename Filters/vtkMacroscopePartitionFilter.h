/**
 * @class vtkMacroscopePartitionFilter
 * @brief Base of the pIC aggregation filters (Ocelotl, Viva): the optimal
 * partition of a microscopic model for a parameter p, and the quality curves.
 *
 * Input: the Model output of Time Slicing (the whole model is read whatever
 * the piece). Output 0, "Partition": one row per part — Part, Node,
 * NodeName, FirstLeaf, LastLeaf (resource rows), FirstSlice, LastSlice,
 * Start, End (seconds), Gain, Loss, "Amplitude" (per type: the sum over the
 * part's resources and slices divided by its slice count, 000 eq. 4),
 * "Mean" (per type: that sum divided by slices × resources), Mode (the type
 * plane of the largest mean), ModeName and ModeProportion (000 eq. 5).
 * Output 1, "Quality Curves": one row per distinct optimal partition over
 * p ∈ [0, 1] — PStart, PEnd, Gain, Loss, Parts — found exactly (see
 * docs/aggregation.md); plot Gain and Loss against PStart in a Line Chart
 * View. Output 2, "Quality Plot": the same curves ready for a Line Chart
 * View with "p" as x array — columns p, Gain, Loss (two rows per
 * partition, so the curves are drawn as the step functions they are) and
 * "Current p" (a vertical line at Parameter), NaN where a series has no
 * point. Piece 0 holds the tables.
 *
 * The Partition table's field data carry what drawing it needs without the
 * model: Parameter, PartitionQuality, Constraint ("temporal", "spatial" or
 * "spatiotemporal"), ModelShape (slices, resources, types), the model's
 * NodeName, NodeKind, NodeParent, TypeName, TypeId, TypeColor, Metric,
 * Extensive, SliceWidth, TimeWindow and ResourceSelection (from Time Slicing),
 * QualityComputations (how many
 * times this filter computed qualities: it stays put when only p changes)
 * and SweepComputations (how many times it swept every p).
 *
 * The asked partition first: the qualities are computed once per model;
 * changing Parameter only re-runs the optimisation. The sweep over every p
 * (outputs 1 and 2) runs only when one of those outputs has a consumer (a
 * representation, a Fetch, a downstream filter; ParaView's post filters
 * do not count, so that UpdatePipeline of every output, as the GUI's Apply
 * does, computes the Partition only) or is updated by a program itself:
 * otherwise they are left empty and not generated, and dated so that their
 * next request, through any post filter, runs the filter again, which then
 * sweeps if a consumer is there (docs/aggregation.md). The sweep is cached per
 * normalisation. Progress is reported through the qualities, the partition
 * and the sweep, and AbortExecute stops each within a fraction of a second
 * (an error, empty outputs; the next request runs again).
 */
#ifndef vtkMacroscopePartitionFilter_h
#define vtkMacroscopePartitionFilter_h

#include "MacroscopeFiltersModule.h" // for export macro
#include "vtkTableAlgorithm.h"

#include <functional> // for std::function
#include <memory>     // for std::unique_ptr
#include <vector>     // for std::vector

class vtkDataArray;
class vtkDoubleArray;
class vtkImageData;
class vtkStringArray;
class vtkTable;

namespace macroscope
{
class Aggregation;
class AggregationHierarchy;
struct ModelView;
}

/// The progress callback given to the core (macroscope::AggregationProgress).
using AggregationProgressHook = std::function<bool(double)>;

class MACROSCOPEFILTERS_EXPORT vtkMacroscopePartitionFilter : public vtkTableAlgorithm
{
public:
  vtkTypeMacro(vtkMacroscopePartitionFilter, vtkTableAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /// The trade-off p in [0, 1] between information gain and loss: 0 keeps
  /// the microscopic detail, 1 aggregates everything (default 0.5).
  vtkSetMacro(Parameter, double);
  vtkGetMacro(Parameter, double);
  ///@}

  ///@{
  /// Divide gain and loss by their values for the fully aggregated model,
  /// as Ocelotl does (default on); off gives raw qualities in bits.
  vtkSetMacro(NormalizeQualities, bool);
  vtkGetMacro(NormalizeQualities, bool);
  vtkBooleanMacro(NormalizeQualities, bool);
  ///@}

  ///@{
  /// The quality curves of the sweep known for the current normalisation,
  /// one value per distinct optimal partition as in the Quality Curves
  /// output (PStart, Gain, Loss, Parts), for the GUI's parameter panel:
  /// information-only properties (si_class vtkSIDataArrayProperty, which
  /// sends a returned array whatever its length) bring them to the client
  /// without a Fetch of the tables. Empty while no sweep is known for this
  /// model and normalisation; reading them never runs a sweep.
  vtkDoubleArray* GetQualityCurveStarts();
  vtkDoubleArray* GetQualityCurveGains();
  vtkDoubleArray* GetQualityCurveLosses();
  vtkDoubleArray* GetQualityCurveParts();
  ///@}

  /// Seconds the last optimal partition (one DP, for Parameter) took, 0
  /// before any: the panel's estimate of a sweep's cost, which runs about
  /// two of them per distinct partition.
  double GetPartitionSeconds();

protected:
  vtkMacroscopePartitionFilter();
  ~vtkMacroscopePartitionFilter() override;

  /// The aggregation of the subclass's constraint over `model`, reporting
  /// the progress of its qualities to `progress`.
  virtual std::unique_ptr<macroscope::Aggregation> CreateAggregation(
    const macroscope::ModelView& model, const macroscope::AggregationHierarchy& hierarchy,
    AggregationProgressHook progress) = 0;

  /// "temporal", "spatial" or "spatiotemporal": written to the Partition
  /// table so that a representation knows what it draws.
  virtual const char* GetConstraintName() const = 0;

  /// The cost of one partition relative to the qualities', for the shares
  /// of the progress bar (docs/progress.md): the temporal and
  /// spatiotemporal partitions are dynamic programs about as long as their
  /// qualities; a spatial one is a walk over the hierarchy.
  virtual double GetPartitionCost() const { return 1.0; }

  /// Answers REQUEST_DATA_NOT_GENERATED: asked for the Partition only, the
  /// quality curves (outputs 1 and 2) are not generated unless known.
  vtkTypeBool ProcessRequest(
    vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
  /// Dates outputs 1 and 2 by CurvesTime, so that a consumer holding an
  /// older copy (ParaView's post filter) asks this filter again.
  int ComputePipelineMTime(vtkInformation* request, vtkInformationVector** inputVector,
    vtkInformationVector* outputVector, int port, vtkMTimeType* mtime) override;
  int FillInputPortInformation(int port, vtkInformation* info) override;
  int RequestUpdateExtent(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

private:
  vtkMacroscopePartitionFilter(const vtkMacroscopePartitionFilter&) = delete;
  void operator=(const vtkMacroscopePartitionFilter&) = delete;

  /// Whether this execution outputs the quality curves (and sweeps if they
  /// are not known yet).
  bool CurvesWanted(vtkInformation* request, vtkInformationVector** inputVector,
    vtkInformationVector* outputVector) const;
  /// Whether output 1 or 2 has a consumer beyond ParaView's post filters.
  static bool CurvesConsumed(vtkInformationVector* outputVector);
  /// When output `port` (1 or 2) last changed for its consumers: "now"
  /// while the curves are not generated, else when they were.
  vtkMTimeType CurvesTime(vtkInformationVector* outputVector, int port);
  /// A progress callback mapping [0, 1] to [from, to] of this execution and
  /// stopping when AbortExecute is set.
  AggregationProgressHook ProgressBetween(double from, double to);
  void ComputeQualities(vtkImageData* model, vtkDataArray* values, vtkDataArray* parents,
    const int dims[3], AggregationProgressHook progress);
  /// The qualities, the best partition and the sweep this execution needs,
  /// those already known kept: 1 done, 0 failed, -1 aborted (reported,
  /// and remembered until the filter or its model changes).
  int Aggregate(vtkImageData* model, vtkDataArray* values, vtkDataArray* parents, const int dims[3],
    bool curves);
  /// The best partition for Parameter, from those known or optimised.
  void FindBest(AggregationProgressHook progress);
  /// Output 0: the parts of the best partition and what they summarise.
  void WriteParts(
    vtkTable* partition, vtkImageData* model, vtkStringArray* typeNames, vtkStringArray* nodeNames);
  /// Outputs 1 and 2: the quality curves of the sweep.
  void WriteCurves(vtkTable* curveTable, vtkTable* plotTable, vtkImageData* model);
  void EmptyOutputs(vtkInformationVector* outputVector);

  double Parameter = 0.5;
  bool NormalizeQualities = true;

  struct Internals;
  std::unique_ptr<Internals> Internal;
};

#endif
