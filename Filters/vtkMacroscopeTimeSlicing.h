/**
 * @class vtkMacroscopeTimeSlicing
 * @brief Builds the microscopic model M(s, t, u) of a trace: resources ×
 * regular time slices × types (Ocelotl's model filled with Triva's
 * Time-Slice algorithm).
 *
 * Input: the outputs of a Macroscope trace reader, on one repeatable input
 * port; the filter recognises each by its columns (States, Events,
 * Variables, Messages, Types) or type (the Hierarchy vtkTree). It needs the
 * Hierarchy, the Types (except for message metrics) and the table its
 * metric reads.
 *
 * Output 0, "Model": a vtkImageData with x = time slice (origin = window
 * start, spacing = slice width), y = resource, z = type, and point array
 * "Value". Field data name the resources and types and carry the resource
 * hierarchy as a parent array, resources first and root last ("NodeName",
 * "NodeKind", "NodeParent"; "TypeName", "TypeId", "TypeColor"; "Metric",
 * "SliceWidth", "TimeWindow"). A z-slice is a heat map of one type.
 *
 * Output 1, "Mode": a vtkImageData of one z-plane with, per resource and
 * slice, "DominantType" (the plane of the largest value, -1 when all are
 * 0), "DominantShare" (its share of the cell's total) and "Total".
 *
 * The Resources property restricts the model to the locations below some
 * hierarchy vertices (a re-run on a part of the system, Ocelotl's spatial
 * zoom); "ResourceSelection" in the field data lists them (empty: all).
 *
 * See docs/time-slicing.md and docs/zoom-and-filter.md. Under MPI, every rank slices the locations
 * of its reader piece, the ranks' models are summed, and each output holds the extent its consumer
 * asks for (the whole model by default).
 */
#ifndef vtkMacroscopeTimeSlicing_h
#define vtkMacroscopeTimeSlicing_h

#include "MacroscopeFiltersModule.h" // for export macro
#include "vtkAlgorithm.h"

#include <memory> // for std::unique_ptr
#include <string> // for std::string
#include <vector> // for std::vector

class vtkFieldData;
class vtkMultiProcessController;
class vtkTable;
class vtkTree;
struct MacroscopeModelPlan;
struct MacroscopeTraceInputs;
namespace macroscope
{
struct MicroscopicModel;
struct TimeSlicingOptions;
}

class MACROSCOPEFILTERS_EXPORT vtkMacroscopeTimeSlicing : public vtkAlgorithm
{
public:
  static vtkMacroscopeTimeSlicing* New();
  vtkTypeMacro(vtkMacroscopeTimeSlicing, vtkAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum MetricType
  {
    STATE_DURATION = 0,
    EVENT_COUNT = 1,
    VARIABLE_MEAN = 2,
    BYTES_SENT_RATE = 3,
    BYTES_RECEIVED_RATE = 4,
    MESSAGES_SENT = 5,
    MESSAGES_RECEIVED = 6
  };

  ///@{
  /// Number of regular time slices (default 100).
  vtkSetMacro(Slices, int);
  vtkGetMacro(Slices, int);
  ///@}

  ///@{
  /// Start and end of the sliced window, in seconds since the trace start.
  /// An end of 0 means the end of the trace: the default (0, 0) slices the
  /// whole trace.
  vtkSetVector2Macro(TimeWindow, double);
  vtkGetVector2Macro(TimeWindow, double);
  ///@}

  ///@{
  /// What a cell measures (see MetricType); default state duration.
  vtkSetMacro(Metric, int);
  vtkGetMacro(Metric, int);
  ///@}

  ///@{
  /// State duration only: divide by the slice width (fractions of time).
  vtkSetMacro(Normalize, bool);
  vtkGetMacro(Normalize, bool);
  vtkBooleanMacro(Normalize, bool);
  ///@}

  ///@{
  /// State duration only: -1 (default) counts the innermost state at each
  /// moment; d >= 0 counts the states of call depth d.
  vtkSetMacro(Depth, int);
  vtkGetMacro(Depth, int);
  ///@}

  ///@{
  /// The hierarchy level whose vertices are the model's resources: -1
  /// (default) for the locations, 0 for the root, 1 for its children...
  vtkSetMacro(ResourceLevel, int);
  vtkGetMacro(ResourceLevel, int);
  ///@}

  ///@{
  /// The resource subset: names of hierarchy vertices whose locations the
  /// model keeps (a named location keeps itself). A name designates every
  /// vertex of that name ("Master thread": every master thread); a path
  /// from the root joined with "/" ("machine/cluster-1/node-5"), or from
  /// just below the root, one vertex. The hierarchy is pruned to the
  /// vertices that keep a location. None (the default): every location. A
  /// name that designates no vertex is an error.
  void AddResource(const char* name);
  void RemoveAllResources();
  int GetNumberOfResources() const;
  const char* GetResource(int index) const;
  ///@}

  ///@{
  /// The type subset: names of types whose planes the model keeps, in the
  /// Types table's order (types of another kind than the metric's are
  /// passed over). None (the default): every type. A name that is no type
  /// of the trace is an error naming it.
  void AddType(const char* name);
  void RemoveAllTypes();
  int GetNumberOfTypes() const;
  const char* GetType(int index) const;
  ///@}

  ///@{
  /// The controller that sums the pieces' models; the global one by default.
  void SetController(vtkMultiProcessController* controller);
  vtkGetObjectMacro(Controller, vtkMultiProcessController);
  ///@}

protected:
  vtkMacroscopeTimeSlicing();
  ~vtkMacroscopeTimeSlicing() override;

  // The model's extent comes from the trace's definitions, which readers
  // pass downstream as meta-data (vtkMacroscopeTraceKeys).
  vtkTypeBool ProcessRequest(
    vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
  int FillInputPortInformation(int port, vtkInformation* info) override;
  int FillOutputPortInformation(int port, vtkInformation* info) override;
  int RequestInformation(vtkInformation*, vtkInformationVector**, vtkInformationVector*);
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*);
  // Cuts the requested extents of both outputs from the kept model.
  // Progress goes from progressFrom to 1 while the outputs are written (they
  // are most of the work on a model of millions of cells).
  int WriteOutputs(vtkInformationVector* outputVector, double progressFrom = 0.0);
  // After an abort: both outputs empty but of the extents asked, so that the
  // pipeline does not run the aborted filter again for its other port.
  int AbortOutputs(vtkInformationVector* outputVector, const std::string& message);

  // The steps Streamed Time Slicing shares, which reads the trace itself.
  // RequestInformation's work once the Hierarchy and Types are known.
  int DescribeModel(vtkTree* tree, vtkTable* types, vtkInformationVector* outputVector);
  // Whether the kept model is newer than every property.
  bool IsModelCurrent() const;
  // The sliced window from TimeWindow and the trace's time bounds (kept for
  // the model's TraceSpan field data); false (error reported) when it is
  // not a window of the trace.
  bool ResolveWindow(const double bounds[2], double& begin, double& end);
  // Whether every model of `models` fits in the memory available now, each
  // held twice (the kept model and the output image; docs/time-slicing.md).
  // False, with an error naming the cells and bytes, when one does not. Not
  // collective: under MPI, callers agree on the outcome. Warns (before any
  // read) when the first model has LargeModelCells cells or more.
  bool CheckModelMemory(const std::vector<const macroscope::TimeSlicingOptions*>& models);
  // Keeps `model` (moved from) as the model the outputs are cut from, with
  // the field data naming its resources, planes, metric and window.
  void KeepModel(macroscope::MicroscopicModel& model, const MacroscopeModelPlan& plan,
    vtkTree* tree, vtkTable* types, double begin, double end);
  // The warning for a trace whose table of the metric holds no row (on
  // every rank): which table, the window and the trace's span.
  void WarnEmptyInput(const double bounds[2], double begin, double end);
  // Keeps the planes of `selected` (a copy of `plan` after KeepTypes) in
  // `model`, a model of every plane of `plan`: the Types selection applied
  // after slicing, so that a kept plane equals the whole model's.
  static void KeepPlanes(macroscope::MicroscopicModel& model, const MacroscopeModelPlan& plan,
    const MacroscopeModelPlan& selected);
  // The kept model's field data, to add to after KeepModel.
  vtkFieldData* GetModelFields();

private:
  vtkMacroscopeTimeSlicing(const vtkMacroscopeTimeSlicing&) = delete;
  void operator=(const vtkMacroscopeTimeSlicing&) = delete;

  // The table the Metric slices, with the trace's other inputs in `trace`;
  // null (error reported) when an input it needs is missing.
  vtkTable* CollectRows(vtkInformationVector* inputs, MacroscopeTraceInputs& trace);
  struct SliceRows;

  int Slices = 100;
  double TimeWindow[2] = { 0.0, 0.0 };
  double TraceSpan[2] = { 0.0, 0.0 }; // the bounds ResolveWindow was given
  int Metric = STATE_DURATION;
  bool Normalize = false;
  int Depth = -1;
  int ResourceLevel = -1;
  std::vector<std::string> Resources;
  std::vector<std::string> Types;
  vtkMultiProcessController* Controller = nullptr;

  struct KeptModel;
  std::unique_ptr<KeptModel> Kept;
};

#endif
