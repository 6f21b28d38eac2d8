/**
 * @class vtkMacroscopeTraceReader
 * @brief The properties and outputs every Macroscope trace reader shares.
 *
 * Six output ports, the data contract (docs/architecture.md): 0 States,
 * 1 Messages, 2 Events, 3 Variables (vtkTable), 4 Hierarchy (vtkTree),
 * 5 Types (vtkTable). The readers of each format (vtkMacroscopeOTF2Reader,
 * vtkMacroscopePajeReader) derive from it, so that they take the same
 * properties with the same meaning and scripts work with either: FileName,
 * HierarchyFile, TimeWindow, ClipStatesToWindow, the Locations and Regions
 * selections, and the information known before the events are read.
 */
#ifndef vtkMacroscopeTraceReader_h
#define vtkMacroscopeTraceReader_h

#include "MacroscopeReadersModule.h" // for export macro
#include "vtkTableAlgorithm.h"

#include <cstdint>          // for uint64_t
#include <functional>       // for std::function
#include <initializer_list> // for std::initializer_list
#include <string>           // for std::string
#include <utility>          // for std::pair
#include <vector>           // for std::vector

class vtkDataArraySelection;
class vtkMultiProcessController;
namespace macroscope
{
class ModelStream;
}

class MACROSCOPEREADERS_EXPORT vtkMacroscopeTraceReader : public vtkTableAlgorithm
{
public:
  vtkTypeMacro(vtkMacroscopeTraceReader, vtkTableAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /// The trace file (for OTF2, the archive's anchor file).
  vtkSetStdStringFromCharMacro(FileName);
  vtkGetCharFromStdStringMacro(FileName);
  ///@}

  ///@{
  /// A JSON hierarchy file regrouping the trace's leaves
  /// (docs/hierarchy-file.md); empty (the default) keeps the trace's own
  /// hierarchy. The Hierarchy output, the Locations selection paths and the
  /// leaf indexes of the tables follow the file's tree; leaves it does not
  /// name are kept under an "unplaced" vertex, and both kinds of mismatch
  /// are reported as a warning and in the States field data
  /// ("HierarchyFileReport"). Re-applied when the name or the file's
  /// modification time changes.
  vtkSetStdStringFromCharMacro(HierarchyFile);
  vtkGetCharFromStdStringMacro(HierarchyFile);
  ///@}

  ///@{
  /// Time window in seconds: states and messages that overlap it and events
  /// and samples inside it are output. An end of 0 means the end of the
  /// trace, so the default (0, 0) outputs everything.
  vtkSetVector2Macro(TimeWindow, double);
  vtkGetVector2Macro(TimeWindow, double);
  ///@}

  ///@{
  /// Cut the states overlapping the window's borders to the window. Off by
  /// default: a state keeps its true duration.
  vtkSetMacro(ClipStatesToWindow, bool);
  vtkGetMacro(ClipStatesToWindow, bool);
  vtkBooleanMacro(ClipStatesToWindow, bool);
  ///@}

  ///@{
  /// The leaves (locations, containers) to output, by path in the hierarchy
  /// ("cluster-0/node-1/MPI Rank 4/Master thread"); all by default.
  vtkDataArraySelection* GetLocationSelection() { return this->LocationSelection; }
  int GetNumberOfLocationArrays();
  const char* GetLocationArrayName(int index);
  int GetLocationArrayStatus(const char* name);
  void SetLocationStatus(const char* name, int status);
  ///@}

  ///@{
  /// The state types (OTF2 regions, Pajé state values) whose states are
  /// output; all by default. Filtered ones still count for the depth of the
  /// states nested in them.
  vtkDataArraySelection* GetRegionSelection() { return this->RegionSelection; }
  int GetNumberOfRegionArrays();
  const char* GetRegionArrayName(int index);
  int GetRegionArrayStatus(const char* name);
  void SetRegionStatus(const char* name, int status);
  ///@}

  ///@{
  /// Known after UpdateInformation: the time span in seconds, the number of
  /// event records and of leaves.
  vtkGetVector2Macro(TimeBounds, double);
  vtkGetMacro(NumberOfEventRecords, vtkIdType);
  vtkGetMacro(NumberOfLocations, vtkIdType);
  ///@}

  /// The report of the last read: counts and anomalies, a few lines.
  const char* GetReadReport() { return this->ReadReport.c_str(); }

  ///@{
  /// The controller of the parallel run; the global one by default.
  void SetController(vtkMultiProcessController* controller);
  vtkGetObjectMacro(Controller, vtkMultiProcessController);
  ///@}

  vtkMTimeType GetMTime() override;

  /// For an error about `path`, the file a `property` names: when the file
  /// does not exist, a sentence saying so, whether its directory is gone
  /// too, and how to point a moved trace's state at its new place
  /// (docs/state-files.md); empty when the file exists.
  static std::string MissingFileHint(const std::string& path, const char* property);

  /**
   * The streamed time slicing (vtkMacroscopeStreamedTimeSlicing): reads
   * the trace and hands this piece's rows to `stream` (Core
   * ModelStream.h) leaf after leaf, without filling the outputs or keeping
   * the rows, so that memory stays O(model). Leaves are numbered as in the
   * Hierarchy output; a leaf the stream does not need, or that the
   * Locations selection disables, is not read. The Regions selection
   * applies; TimeWindow and ClipStatesToWindow do not (the stream's grids
   * say which times count). Piece p of n reads the p-th share of the
   * leaves; with the message metrics the pieces exchange message ends, a
   * collective call on the Controller. Call after UpdateInformation().
   * Returns 1 when read, 0 after an error (reported), -1 when aborted.
   */
  virtual int SliceWhileReading(macroscope::ModelStream& stream, int piece, int pieces);

protected:
  vtkMacroscopeTraceReader();
  ~vtkMacroscopeTraceReader() override;

  int FillOutputPortInformation(int port, vtkInformation* info) override;

  /// After the outputs are filled: a warning naming the window, the file
  /// and the trace's span when a TimeWindow was asked and the outputs hold
  /// no state, message, event or sample. Piece p of n > 1 warns only when
  /// the window misses the span (every piece is empty then), since a piece
  /// may hold nothing while the others hold rows. Returns whether it warned.
  bool WarnIfWindowEmpty(vtkInformationVector* outputVector, int pieces);

#ifndef __VTK_WRAP__
  /// The HierarchyFile step of RequestInformation, alike in every reader:
  /// `apply` regroups the trace's hierarchy (HierarchyFileTracker::Apply) and
  /// returns its report of mismatches, which becomes a warning when not
  /// empty; what `apply` throws becomes an error naming the trace and, when
  /// the hierarchy file is missing, how to point at it (MissingFileHint).
  /// Returns false after an error.
  bool RunHierarchyFileStep(const std::function<std::string()>& apply);

  /// A counter of the read's report: its field array's name and its value.
  using ReadCounter = std::pair<const char*, uint64_t>;

  /// What every read does once the outputs are filled (FillTraceOutputs):
  /// warns when the TimeWindow left them empty (WarnIfWindowEmpty), names
  /// the trace in every output's information
  /// (vtkMacroscopeTraceKeys::TRACE_FILE, for filters' messages) and adds
  /// `counters` to the field data of States, one array each.
  void FinishOutputs(
    vtkInformationVector* outputVector, int pieces, std::initializer_list<ReadCounter> counters);
#endif

  /// The enabled Regions when some are disabled; empty when all are enabled
  /// (the decoders' "keep all").
  std::vector<std::string> EnabledRegions() const;

  std::string FileName;
  std::string HierarchyFile;
  double TimeWindow[2] = { 0.0, 0.0 };
  bool ClipStatesToWindow = false;
  vtkDataArraySelection* LocationSelection;
  vtkDataArraySelection* RegionSelection;
  vtkMultiProcessController* Controller = nullptr;

  double TimeBounds[2] = { 0.0, 0.0 };
  vtkIdType NumberOfEventRecords = 0;
  vtkIdType NumberOfLocations = 0;
  std::string ReadReport;

private:
  vtkMacroscopeTraceReader(const vtkMacroscopeTraceReader&) = delete;
  void operator=(const vtkMacroscopeTraceReader&) = delete;
};

#endif
