/**
 * @class vtkMacroscopeLogicalTime
 * @brief Ravel's logical time: a trace's communication events on integer
 * logical steps, with lateness and a per-phase clustering of the processes.
 *
 * Takes a trace reader's outputs (States, Messages, Events, Types and
 * Hierarchy) on one repeatable input port and runs the VTK-free
 * macroscope::logical core (docs/logical-time.md, docs/logical-clustering.md;
 * Isaacs et al. 2014 (Ravel) §3–4). Outputs:
 *
 * 0. Logical Events: one row per logical event (communication calls and the
 *    aggregated computation before each), with its step, phase, kind, times,
 *    metrics (Lateness, DifferentialLateness, and Metric, the chosen one) and
 *    its location's Cluster in its phase;
 * 1. Logical Messages: the messages between logical events (Dropped: 1 for
 *    those left out of the steps to break a clock-skew cycle);
 * 2. Clusters: every phase's members with their CLARA cluster and cluster at
 *    the cut;
 * 3. Dendrogram: a vtkTree, root -> one vertex per phase -> the phase's
 *    single-linkage dendrogram over its CLARA clusters;
 * 4. Steps: per global step, its physical time span and the metric's sum
 *    (the metric overview);
 * 5. Phases: per phase its step range, time span and exchange pattern;
 * 6. Logical Variables, 7. Logical Types, 8. Hierarchy: the metrics as
 *    variables sampled on the logical step axis, their types and the input
 *    hierarchy, so that Time Slicing and the pIC aggregations summarise
 *    lateness over steps x hierarchy.
 *
 * Under MPI every rank reads its piece of the trace; the pieces are gathered
 * on rank 0, which computes and holds every output (the other ranks' are
 * empty, the Hierarchy excepted).
 */
#ifndef vtkMacroscopeLogicalTime_h
#define vtkMacroscopeLogicalTime_h

#include "MacroscopeFiltersModule.h" // for export macro
#include "vtkDataObjectAlgorithm.h"

#include <memory> // for std::unique_ptr
#include <string> // for std::string
#include <vector> // for std::vector

#include "vtkSmartPointer.h" // for vtkSmartPointer

class vtkMultiProcessController;
class vtkTable;
struct MacroscopeTraceInputs;
namespace macroscope
{
namespace logical
{
struct Options;
struct TraceInput;
}
}

class MACROSCOPEFILTERS_EXPORT vtkMacroscopeLogicalTime : public vtkDataObjectAlgorithm
{
public:
  static vtkMacroscopeLogicalTime* New();
  vtkTypeMacro(vtkMacroscopeLogicalTime, vtkDataObjectAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum OutputPorts
  {
    EVENTS = 0,
    MESSAGES = 1,
    CLUSTERS = 2,
    DENDROGRAM = 3,
    STEPS = 4,
    PHASES = 5,
    VARIABLES = 6,
    TYPES = 7,
    HIERARCHY = 8,
    NUMBER_OF_OUTPUTS = 9
  };

  /// The metrics an event can be coloured and clustered by (Isaacs et al.
  /// 2014 (Ravel) §3.2).
  enum Metrics
  {
    LATENESS = 0,
    DIFFERENTIAL_LATENESS = 1,
    EXIT_TIME = 2,
    ENTER_TIME = 3,
    DURATION = 4,
    // Ravel's default "Lateness", per phase: appended, so that
    // state files keep the meaning of 0-4 (LATENESS is the global one).
    PHASE_LATENESS = 5,
    PHASE_DIFFERENTIAL_LATENESS = 6
  };

  /// MergeByEnclosingCall's values (0 and 1 are the former boolean's).
  enum CallerMerges
  {
    NO_CALLER_MERGE = 0,
    ENCLOSING_CALL_EXCEPT_OUTERMOST = 1,
    ENCLOSING_CALL_INCLUDING_OUTERMOST = 2
  };

  /// CollectiveBoundaries' values.
  enum CollectiveBoundaryModes
  {
    NO_COLLECTIVE_BOUNDARIES = 0,
    EVERY_COLLECTIVE = 1,
    NAMED_COLLECTIVE = 2
  };

  /// ClockCorrection's values.
  enum ClockCorrections
  {
    NO_CLOCK_CORRECTION = 0,
    CLOCKS_FROM_MESSAGES = 1,
    CLOCKS_FROM_COLLECTIVES = 2
  };
  static const char* GetMetricName(int metric);

  ///@{
  /**
   * Times (seconds since the trace start, increasing) that cut the trace
   * into phases. Empty (the default): phases are the connected components
   * of the happened-before graph.
   */
  void SetNumberOfPhaseBoundaries(int count);
  void SetPhaseBoundary(int index, double time);
  void RemoveAllPhaseBoundaries();
  int GetNumberOfPhaseBoundaries() const;
  double GetPhaseBoundary(int index) const;
  ///@}

  ///@{
  /**
   * Merge communication calls into phases by their callers: 0 none; 1
   * (default) the calls sharing their nearest enclosing call below main;
   * 2 Ravel's caller merge, main included (consecutive calls sharing their
   * least caller with several communications). 0 and 1 were the former
   * boolean's values.
   */
  vtkSetClampMacro(MergeByEnclosingCall, int, NO_CALLER_MERGE, ENCLOSING_CALL_INCLUDING_OUTERMOST);
  vtkGetMacro(MergeByEnclosingCall, int);
  vtkBooleanMacro(MergeByEnclosingCall, int);
  ///@}

  ///@{
  /// The metric of the Metric column, the clustering and the Steps sums.
  vtkSetClampMacro(Metric, int, LATENESS, PHASE_DIFFERENTIAL_LATENESS);
  vtkGetMacro(Metric, int);
  ///@}

  ///@{
  /// Whether to cluster the processes of every phase (default on).
  vtkSetMacro(Clustering, bool);
  vtkGetMacro(Clustering, bool);
  vtkBooleanMacro(Clustering, bool);
  ///@}

  ///@{
  /// CLARA's number of clusters k per phase (default 8, at most the members).
  vtkSetMacro(ClaraClusters, int);
  vtkGetMacro(ClaraClusters, int);
  ///@}

  ///@{
  /// CLARA's number of samples (default 5).
  vtkSetMacro(ClaraSamples, int);
  vtkGetMacro(ClaraSamples, int);
  ///@}

  ///@{
  /// The seed of CLARA's sampling (default 1): equal seeds, equal clusters.
  vtkSetMacro(RandomSeed, int);
  vtkGetMacro(RandomSeed, int);
  ///@}

  ///@{
  /**
   * Where the dendrogram is cut: the number of clusters each phase shows
   * (default 2, at most its CLARA clusters).
   */
  vtkSetMacro(Clusters, int);
  vtkGetMacro(Clusters, int);
  ///@}

  ///@{
  /**
   * Physical <-> logical (Isaacs et al. 2014 (Ravel) §4.3). StepWindow (first, last
   * global step; last < first, the default, for none) gives
   * TimeWindowOfSteps, the largest physical span of those steps, to set a
   * Timeline's TimeWindow; TimeWindow (seconds; end <= start, the default,
   * for none) gives StepsOfTimeWindow, the global steps whose spans overlap
   * it. Both results are also in the Steps output's field data. The results
   * are valid after an update (they are empty ranges before).
   */
  vtkSetVector2Macro(StepWindow, vtkIdType);
  vtkGetVector2Macro(StepWindow, vtkIdType);
  vtkSetVector2Macro(TimeWindow, double);
  vtkGetVector2Macro(TimeWindow, double);
  vtkGetVector2Macro(TimeWindowOfSteps, double);
  vtkGetVector2Macro(StepsOfTimeWindow, vtkIdType);
  ///@}

  ///@{
  /**
   * Merge the calls of a process under one call at this call depth (0 =
   * the outermost function) into one phase; -1 (the default) for none.
   */
  vtkSetClampMacro(MergeDepth, int, -1, VTK_INT_MAX);
  vtkGetMacro(MergeDepth, int);
  ///@}

  ///@{
  /**
   * Phase boundaries at collectives (Ravel's partition by function): 0
   * none (the default), 1 every collective, 2 the collectives named
   * BoundaryCollective. A boundary starts a phase that holds each
   * process's calls up to its next boundary.
   */
  vtkSetClampMacro(CollectiveBoundaries, int, NO_COLLECTIVE_BOUNDARIES, NAMED_COLLECTIVE);
  vtkGetMacro(CollectiveBoundaries, int);
  vtkSetStdStringFromCharMacro(BoundaryCollective);
  vtkGetCharFromStdStringMacro(BoundaryCollective);
  ///@}

  ///@{
  /**
   * Unsynchronised clocks: 0 (the default) uses the times as they are; 1
   * estimates one offset per process from the messages, 2 from the exits
   * of collective operations, and subtracts it before logical time. Either
   * way, messages received before they were sent are reported in a warning.
   */
  vtkSetClampMacro(ClockCorrection, int, NO_CLOCK_CORRECTION, CLOCKS_FROM_COLLECTIVES);
  vtkGetMacro(ClockCorrection, int);
  ///@}

  ///@{
  /// The controller whose ranks hold the trace's pieces (default global).
  virtual void SetController(vtkMultiProcessController*);
  vtkGetObjectMacro(Controller, vtkMultiProcessController);
  ///@}

  ///@{
  /**
   * Ravel's Isend coalescing (default on): a run of consecutive
   * non-blocking sends of a process (MPI_Isend, Ibsend, Issend, Irsend),
   * with no other call between them, is one logical send event at one step,
   * so a halo exchange's k Isends take one step instead of k. Changing it
   * rebuilds the logical trace.
   */
  virtual void SetCoalesceIsends(bool coalesce);
  vtkGetMacro(CoalesceIsends, bool);
  vtkBooleanMacro(CoalesceIsends, bool);
  ///@}

protected:
  vtkMacroscopeLogicalTime();
  ~vtkMacroscopeLogicalTime() override;

  int FillInputPortInformation(int port, vtkInformation* info) override;
  int FillOutputPortInformation(int port, vtkInformation* info) override;
  int RequestDataObject(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
  int RequestInformation(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
  int RequestUpdateExtent(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

  int MergeByEnclosingCall = ENCLOSING_CALL_EXCEPT_OUTERMOST;
  int Metric = LATENESS;
  bool Clustering = true;
  int ClaraClusters = 8;
  int ClaraSamples = 5;
  int RandomSeed = 1;
  int Clusters = 2;
  vtkIdType StepWindow[2] = { 0, -1 };
  double TimeWindow[2] = { 0.0, 0.0 };
  double TimeWindowOfSteps[2] = { 0.0, 0.0 };
  vtkIdType StepsOfTimeWindow[2] = { 0, -1 };
  vtkMultiProcessController* Controller = nullptr;
  bool CoalesceIsends = true;
  int MergeDepth = -1;
  int CollectiveBoundaries = NO_COLLECTIVE_BOUNDARIES;
  std::string BoundaryCollective = "MPI_Allreduce";
  int ClockCorrection = NO_CLOCK_CORRECTION;

private:
  vtkMacroscopeLogicalTime(const vtkMacroscopeLogicalTime&) = delete;
  void operator=(const vtkMacroscopeLogicalTime&) = delete;

  /// Reads the trace, gathers it on rank 0 and builds the logical trace
  /// there: 1 done, 0 error, -1 aborted, the same on every rank.
  int BuildTrace(const MacroscopeTraceInputs& trace);
  /// The options of the logical trace from the properties; `types` is the
  /// reader's Types, where a named boundary collective is looked up.
  macroscope::logical::Options TraceOptions(vtkTable* types);
  /// Builds the logical trace of `input` (rank 0): 1 done, 0 error, -1
  /// aborted. Keeps the messages' ends and times for the Messages output.
  int RunLogicalTime(
    macroscope::logical::TraceInput& input, const macroscope::logical::Options& options);
  /// Fills the outputs from the logical trace (rank 0) and the clustering.
  int BuildOutputs(const MacroscopeTraceInputs& trace);
  /// The outputs BuildOutputs writes from the logical trace, `metric`
  /// being the value of the Metric property per event; null for the
  /// events when aborted.
  vtkSmartPointer<vtkTable> NewEventTable(const std::vector<double>& metric,
    const std::vector<int32_t>& eventCluster, const MacroscopeTraceInputs& trace);
  vtkSmartPointer<vtkTable> NewMessageTable();
  vtkSmartPointer<vtkTable> NewStepTable(const std::vector<double>& metric);
  vtkSmartPointer<vtkTable> NewVariableTable();
  /// The properties the logical trace depends on, as text: a change rebuilds it.
  std::string StructureKey() const;

  struct Internals;
  std::unique_ptr<Internals> Internal;
};

#endif
