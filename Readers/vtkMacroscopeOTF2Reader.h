/**
 * @class vtkMacroscopeOTF2Reader
 * @brief Reads an OTF2 archive (Score-P's traces.otf2) into Macroscope's
 * trace tables and resource hierarchy.
 *
 * Six output ports, the data contract of every Macroscope trace reader
 * (docs/architecture.md): 0 States, 1 Messages, 2 Events, 3 Variables
 * (vtkTable), 4 Hierarchy (vtkTree), 5 Types (vtkTable). Times are seconds
 * since the trace start, from the archive's clock properties.
 *
 * The decoding is done by the VTK-free library in Readers/OTF2; this class
 * adds the selections, progress and abort, and parallel reading: asked for
 * piece p of n, it reads the p-th of n contiguous, event-balanced ranges of
 * locations (OTF2 selective reading) and outputs their States, Messages,
 * Events and Variables; Hierarchy and Types are whole on every piece. Under
 * MPI, messages whose ends lie in different pieces are matched by exchanging
 * the unmatched ends; a message belongs to the piece of its receiver.
 *
 * What did not fit the model (unmatched sends and receives, receives stamped
 * before their sends, states left open...) is counted, reported as a warning
 * and kept in the field data of the States table ("ReadReport" and one
 * counter array per anomaly); nothing is dropped silently.
 */
#ifndef vtkMacroscopeOTF2Reader_h
#define vtkMacroscopeOTF2Reader_h

#include "MacroscopeReadersModule.h" // for export macro
#include "vtkTableAlgorithm.h"

#include <memory>
#include <string>

class vtkDataArraySelection;
class vtkMultiProcessController;

class MACROSCOPEREADERS_EXPORT vtkMacroscopeOTF2Reader : public vtkTableAlgorithm
{
public:
  static vtkMacroscopeOTF2Reader* New();
  vtkTypeMacro(vtkMacroscopeOTF2Reader, vtkTableAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /// The archive's anchor file (traces.otf2, or any *.otf2 name).
  vtkSetStdStringFromCharMacro(FileName);
  vtkGetCharFromStdStringMacro(FileName);
  ///@}

  /// True if `name` opens as an OTF2 archive (for ParaView's reader factory).
  static int CanReadFile(const char* name);

  ///@{
  /// Time window in seconds since the trace start: states and messages that
  /// overlap it and events and samples inside it are read. An end of 0 means
  /// the end of the trace, so the default (0, 0) reads everything.
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
  /// The locations to read, by path in the hierarchy
  /// ("cluster-0/node-1/MPI Rank 4/Master thread"); all by default.
  vtkDataArraySelection* GetLocationSelection();
  int GetNumberOfLocationArrays();
  const char* GetLocationArrayName(int index);
  int GetLocationArrayStatus(const char* name);
  void SetLocationStatus(const char* name, int status);
  ///@}

  ///@{
  /// The regions whose states are read; all by default. Filtered regions
  /// still count for the call-stack depth of the regions nested in them.
  vtkDataArraySelection* GetRegionSelection();
  int GetNumberOfRegionArrays();
  const char* GetRegionArrayName(int index);
  int GetRegionArrayStatus(const char* name);
  void SetRegionStatus(const char* name, int status);
  ///@}

  ///@{
  /// A JSON hierarchy file regrouping the locations (docs/hierarchy-file.md);
  /// empty (the default) keeps the archive's own hierarchy. The Hierarchy
  /// output, the Locations selection paths and the leaf indexes of the
  /// tables follow the file's tree; locations it does not name are kept
  /// under an "unplaced" vertex, and both kinds of mismatch are reported as
  /// a warning and in the States field data ("HierarchyFileReport").
  /// Re-applied when the name or the file's modification time changes.
  vtkSetStdStringFromCharMacro(HierarchyFile);
  vtkGetCharFromStdStringMacro(HierarchyFile);
  ///@}

  ///@{
  /// What the definitions say, known before the events are read (after
  /// UpdateInformation): the time span in seconds, the number of event
  /// records and of locations.
  vtkGetVector2Macro(TimeBounds, double);
  vtkGetMacro(NumberOfEventRecords, vtkIdType);
  vtkGetMacro(NumberOfLocations, vtkIdType);
  ///@}

  /// The report of the last read: counts and anomalies, a few lines.
  const char* GetReadReport() { return this->ReadReport.c_str(); }

  ///@{
  /// The controller that joins messages across pieces; the global one by
  /// default.
  void SetController(vtkMultiProcessController* controller);
  vtkGetObjectMacro(Controller, vtkMultiProcessController);
  ///@}

  vtkMTimeType GetMTime() override;

protected:
  vtkMacroscopeOTF2Reader();
  ~vtkMacroscopeOTF2Reader() override;

  int FillOutputPortInformation(int port, vtkInformation* info) override;
  int RequestInformation(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

private:
  vtkMacroscopeOTF2Reader(const vtkMacroscopeOTF2Reader&) = delete;
  void operator=(const vtkMacroscopeOTF2Reader&) = delete;

  // Regroups the hierarchy by HierarchyFile when it (or its modification
  // time) changed since last applied; false after an error.
  bool ApplyHierarchyFile();

  struct Internals;
  std::unique_ptr<Internals> Internal;

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
};

#endif
