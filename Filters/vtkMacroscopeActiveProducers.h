/**
 * @class vtkMacroscopeActiveProducers
 * @brief The event producers active — or idle — in a time window
 * (FrameSoC's producer filter), to narrow a model's resources before it is
 * re-built on them.
 *
 * Input: the outputs of a Macroscope trace reader, on one repeatable input
 * port, recognised by their columns (MacroscopeTraceInputs): the Hierarchy
 * and any of States, Events, Variables, Messages (only those given count).
 *
 * The producers are the locations (Level -1) or the vertices of one
 * hierarchy level. A location's records in the half-open window
 * [start, end) are its states overlapping it, its events and variable
 * samples inside it, and the messages it sends (at their send time) or
 * receives (at their receive time) inside it; a producer's are the sum of
 * its locations'. A producer with at least MinimumRecords of them is
 * active, the others idle.
 *
 * Output: a vtkTable, one row per producer of the requested Activity, in
 * hierarchy order: Name, Path (the names from the root joined with "/"),
 * Vertex (in the Hierarchy), States, Events, Variables, Messages, Total.
 * Field data: "ResourceNames" (the rows' paths, ready for Time Slicing's
 * Resources), "Selected" and "Total" (producer counts), "TimeWindow" (the
 * window counted, its end +inf when it reaches the trace end) and
 * "Activity" ("active" or "idle").
 *
 * Under MPI every rank counts the locations of its reader piece, the counts
 * are summed over the ranks and rank 0 holds the table (the others hold
 * its columns and field data, no rows). See docs/zoom-and-filter.md.
 */
#ifndef vtkMacroscopeActiveProducers_h
#define vtkMacroscopeActiveProducers_h

#include "MacroscopeFiltersModule.h" // for export macro
#include "vtkTableAlgorithm.h"

#include <cstdint> // for uint32_t
#include <vector>  // for std::vector

class vtkMultiProcessController;
class vtkTable;
struct MacroscopeTraceInputs;
namespace macroscope
{
struct ActivityCounts;
}

class MACROSCOPEFILTERS_EXPORT vtkMacroscopeActiveProducers : public vtkTableAlgorithm
{
public:
  static vtkMacroscopeActiveProducers* New();
  vtkTypeMacro(vtkMacroscopeActiveProducers, vtkTableAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum ActivityType
  {
    ACTIVE = 0,
    IDLE = 1
  };

  ///@{
  /// Start and end of the window in seconds since the trace start; the end
  /// is excluded. An end of 0 means the trace end (included): the default
  /// (0, 0) is the whole trace.
  vtkSetVector2Macro(TimeWindow, double);
  vtkGetVector2Macro(TimeWindow, double);
  ///@}

  ///@{
  /// Which producers to list: the active ones (default) or the idle ones.
  vtkSetMacro(Activity, int);
  vtkGetMacro(Activity, int);
  ///@}

  ///@{
  /// The hierarchy level whose vertices are the producers: -1 (default) for
  /// the locations, 0 for the root, 1 for its children...
  vtkSetMacro(Level, int);
  vtkGetMacro(Level, int);
  ///@}

  ///@{
  /// Records in the window that make a producer active (default 1).
  vtkSetMacro(MinimumRecords, int);
  vtkGetMacro(MinimumRecords, int);
  ///@}

  ///@{
  /// The controller that sums the pieces' counts; the global one by default.
  void SetController(vtkMultiProcessController* controller);
  vtkGetObjectMacro(Controller, vtkMultiProcessController);
  ///@}

protected:
  vtkMacroscopeActiveProducers();
  ~vtkMacroscopeActiveProducers() override;

  int FillInputPortInformation(int port, vtkInformation* info) override;
  int RequestUpdateExtent(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

private:
  vtkMacroscopeActiveProducers(const vtkMacroscopeActiveProducers&) = delete;
  void operator=(const vtkMacroscopeActiveProducers&) = delete;

  struct Producers;
  struct ActivityRows;
  // RequestData's steps; each reports its problem and returns false.
  bool CheckProperties(double window[2]);
  bool ReadProducers(
    vtkInformationVector* inputs, MacroscopeTraceInputs& trace, Producers& producers);
  // The table of the producers `chosen`: their rows on `writesRows` only,
  // their paths in the field data on every rank.
  void WriteTable(vtkTable* output, const Producers& producers,
    const macroscope::ActivityCounts& perProducer, const std::vector<uint32_t>& chosen,
    const double window[2], bool writesRows);

  double TimeWindow[2] = { 0.0, 0.0 };
  int Activity = ACTIVE;
  int Level = -1;
  int MinimumRecords = 1;
  vtkMultiProcessController* Controller = nullptr;
};

#endif
