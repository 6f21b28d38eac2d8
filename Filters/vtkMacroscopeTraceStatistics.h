/**
 * @class vtkMacroscopeTraceStatistics
 * @brief Counts a trace's records per producer, per type and per time bin:
 * FrameSoC's statistics and event-density charts, and which share of the
 * producers makes 80% of the records.
 *
 * Input: the outputs of a Macroscope trace reader, on one repeatable input
 * port, recognised by their columns; the Hierarchy and Types are required,
 * and any of States, Events, Variables and Messages are counted.
 *
 * Output 0, "Producers": one row per producer (a vertex of hierarchy level
 * Level, the locations by default), by decreasing record count: Rank (1..N),
 * Name, Path, States, Events (instant events and variable samples),
 * MessagesSent, MessagesReceived, Records, StateTime (seconds in outermost
 * states), RecordShare, CumulativeShare, ProducerShare (Rank / N) and
 * Producer (the producer's index in hierarchy order). Field data:
 * ProducersFor80Percent, ProducerShareFor80Percent, the totals (TotalStates,
 * TotalEvents, TotalMessagesSent, TotalMessagesReceived, TotalRecords,
 * TotalStateTime), Producers, Level and TimeWindow.
 *
 * Output 1, "Types": one row per state, event and variable type, and one for
 * the messages: Name, Kind, Id (Types row, -1 for messages without a link
 * type), Count, TotalDuration, MeanDuration, MinDuration, MaxDuration
 * (states; 0 and NaN for the other kinds) and Share of the counts, by
 * decreasing count.
 *
 * Output 2, "Event Density": one row per time bin: BinStart, BinCenter,
 * BinEnd, Records and one column per kind (States, Events, MessagesSent,
 * MessagesReceived).
 *
 * Records count when they fall in TimeWindow (see docs/statistics.md).
 * Under MPI every rank counts the rows of its reader piece, the counts are
 * summed over the ranks, and piece 0 holds the tables (the others are
 * empty).
 */
#ifndef vtkMacroscopeTraceStatistics_h
#define vtkMacroscopeTraceStatistics_h

#include "MacroscopeFiltersModule.h" // for export macro
#include "vtkTableAlgorithm.h"

#include <memory> // for std::unique_ptr

class vtkMultiProcessController;
struct MacroscopeTraceInputs;

class MACROSCOPEFILTERS_EXPORT vtkMacroscopeTraceStatistics : public vtkTableAlgorithm
{
public:
  static vtkMacroscopeTraceStatistics* New();
  vtkTypeMacro(vtkMacroscopeTraceStatistics, vtkTableAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /// Start and end of the counted window in seconds since the trace start;
  /// an end of 0 means the trace end, so the default (0, 0) counts the
  /// whole trace.
  vtkSetVector2Macro(TimeWindow, double);
  vtkGetVector2Macro(TimeWindow, double);
  ///@}

  ///@{
  /// Number of event-density bins over the window (default 200).
  vtkSetMacro(Bins, int);
  vtkGetMacro(Bins, int);
  ///@}

  ///@{
  /// The hierarchy level whose vertices are the producers: -1 (default) for
  /// the locations, 0 for the root, 1 for its children...
  vtkSetMacro(Level, int);
  vtkGetMacro(Level, int);
  ///@}

  ///@{
  /// The controller that sums the pieces' counts; the global one by default.
  void SetController(vtkMultiProcessController* controller);
  vtkGetObjectMacro(Controller, vtkMultiProcessController);
  ///@}

protected:
  vtkMacroscopeTraceStatistics();
  ~vtkMacroscopeTraceStatistics() override;

  int FillInputPortInformation(int port, vtkInformation* info) override;
  int RequestUpdateExtent(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

private:
  vtkMacroscopeTraceStatistics(const vtkMacroscopeTraceStatistics&) = delete;
  void operator=(const vtkMacroscopeTraceStatistics&) = delete;

  // Counts the trace into the cached tables; 1 done, 0 failed, -1 aborted.
  int Compute(vtkInformationVector* inputs);
  struct TraceRows;
  // The Hierarchy's parents and the producers Level folds its leaves into.
  struct TraceShape;
  // Compute's checks and window; false after reporting the problem.
  bool CheckInputs(vtkInformationVector* inputs, MacroscopeTraceInputs& trace, TraceShape& shape);
  bool ChooseWindow(const MacroscopeTraceInputs& trace, double window[2], bool& closedEnd);
  // Copies the cached tables to the outputs (piece 0) or empties them.
  void WriteOutputs(vtkInformationVector* outputVector);

  double TimeWindow[2] = { 0.0, 0.0 };
  int Bins = 200;
  int Level = -1;
  vtkMultiProcessController* Controller = nullptr;

  struct TableCache;
  std::unique_ptr<TableCache> Cache;
};

#endif
