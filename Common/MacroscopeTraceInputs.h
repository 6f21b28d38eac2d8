// The outputs of a Macroscope trace reader given to a filter on one
// repeatable input port, each recognised by its data type and columns.
#ifndef MacroscopeTraceInputs_h
#define MacroscopeTraceInputs_h

#include "MacroscopeCommonModule.h" // for export macro

#include <string>

class vtkAlgorithm;
class vtkInformation;
class vtkInformationVector;
class vtkMultiProcessController;
class vtkTable;
class vtkTree;

struct MACROSCOPECOMMON_EXPORT MacroscopeTraceInputs
{
  vtkTable* States = nullptr;
  vtkTable* Messages = nullptr;
  vtkTable* Events = nullptr;
  vtkTable* Variables = nullptr;
  vtkTree* Hierarchy = nullptr;
  vtkTable* Types = nullptr;

  /// Sorts the connections of `inputs` into the members. False, with
  /// `problem` set, when an input is none of them or comes twice.
  bool Collect(vtkInformationVector* inputs, std::string& problem);

  /// Collect, then, when `inputs` (the connections of `consumer`'s input
  /// port 0) is a single table or tree, fill the members it lacks from the
  /// other outputs of the trace reader that produced it
  /// (MacroscopeFindTrace): applying a filter to the reader, whose first
  /// output is selected, gives it the whole trace. Two or more connections
  /// are taken as given, so that a script may leave a table out.
  bool CollectTrace(vtkAlgorithm* consumer, vtkInformationVector* inputs, std::string& problem);

  /// The Hierarchy and Types definitions (vtkMacroscopeTraceKeys) on the
  /// connections of `inputs` during REQUEST_INFORMATION, or, for a single
  /// connection, on the outputs of the reader upstream of it; null when
  /// neither has them.
  static void FindDefinitions(
    vtkAlgorithm* consumer, vtkInformationVector* inputs, vtkTree*& hierarchy, vtkTable*& types);

  /// Whether CollectTrace took members from the reader beside the input.
  bool Completed = false;

  /// "States, Hierarchy, Types": what was found, for error messages.
  std::string Describe() const;

  /// The trace's time span in seconds: the "TimeBounds" a reader stores in
  /// its outputs' field data, or else the extent of the rows' times, over
  /// every rank of `controller` (which all must call this).
  void TimeBounds(double bounds[2], vtkMultiProcessController* controller) const;

  /// The window a TimeWindow property asks for: its end 0 means the trace's
  /// end (TimeBounds, so every rank of `controller` must call this). False,
  /// with `problem` saying why and what the trace spans, when the window is
  /// not finite with start < end.
  bool ResolveWindow(const double requested[2], vtkMultiProcessController* controller,
    double window[2], std::string& problem) const;

  /// The start of a trace view's RequestData (Timeline Layout,
  /// Topology-Time Scene): CollectTrace, the States and Hierarchy the view
  /// needs (Messages and Types are optional), then ResolveWindow of its
  /// TimeWindow `requested` into `window` (every rank of `controller` must
  /// call this). False, with `problem` the whole error message (naming the
  /// view by `name` where the problem is the inputs), when one step fails.
  bool CollectTraceAndWindow(vtkAlgorithm* view, const char* name, vtkInformationVector* inputs,
    const double requested[2], vtkMultiProcessController* controller, double window[2],
    std::string& problem);

  /// Declares the input port of a filter that takes a trace: one repeatable
  /// connection per reader output, tables and the hierarchy tree.
  static void DeclareTracePort(vtkInformation* info);

  /// Asks every connection of `inputs` for piece i of n, where i is this
  /// rank and n the ranks of `controller`, whatever downstream asked: the
  /// ranks' partial results then add up to the trace's.
  static void RequestRankPieces(
    vtkInformationVector* inputs, vtkMultiProcessController* controller);

  /// Whether the ranks of `controller` hold one piece each of `inputs` (as
  /// RequestRankPieces asks), so that their partial results must be summed.
  static bool SplitOverRanks(vtkInformationVector* inputs, vtkMultiProcessController* controller);

  /// The worst of every rank's `status` (0 error, -1 aborted, 1 done) when
  /// `parallel`, so that all ranks stop or go on together; else `status`.
  static int AgreeOnStatus(int status, vtkMultiProcessController* controller, bool parallel);
};

#endif
