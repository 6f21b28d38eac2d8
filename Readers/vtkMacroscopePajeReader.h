/**
 * @class vtkMacroscopePajeReader
 * @brief Reads a Pajé trace (SimGrid/SMPI, pajeng, FrameSoC exports) into
 * Macroscope's trace tables and resource hierarchy.
 *
 * The same six outputs, properties and field data as
 * vtkMacroscopeOTF2Reader (docs/architecture.md): 0 States, 1 Messages,
 * 2 Events, 3 Variables (vtkTable), 4 Hierarchy (vtkTree), 5 Types
 * (vtkTable), so that every filter and representation works unchanged.
 * Times are the file's seconds, not shifted (SimGrid's traces start at 0).
 *
 * The parsing is done by the VTK-free library in Readers/Paje. Pajé
 * definitions may come anywhere in the file, so RequestInformation parses
 * the whole file once (with progress and abort) and keeps the tables,
 * keyed on the file's name, modification time and size; RequestData copies
 * the rows of the time window, the selections and this piece out of that
 * cache, so a new window or selection does not parse again. Asked for piece
 * p of n, it outputs the rows of the p-th of n contiguous, row-balanced
 * ranges of leaves (a message goes with its receiver); every rank parses
 * the file, which has no index to read a part from. Hierarchy and Types are
 * whole on every piece.
 */
#ifndef vtkMacroscopePajeReader_h
#define vtkMacroscopePajeReader_h

#include "MacroscopeReadersModule.h" // for export macro
#include "vtkTableAlgorithm.h"

#include <memory>
#include <string>

class vtkDataArraySelection;
class vtkMultiProcessController;

class MACROSCOPEREADERS_EXPORT vtkMacroscopePajeReader : public vtkTableAlgorithm
{
public:
  static vtkMacroscopePajeReader* New();
  vtkTypeMacro(vtkMacroscopePajeReader, vtkTableAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /// The Pajé trace file (*.paje, *.trace).
  vtkSetStdStringFromCharMacro(FileName);
  vtkGetCharFromStdStringMacro(FileName);
  ///@}

  /// True if the first line that is neither blank nor a comment starts with
  /// `%EventDef` (cheap: reads the start of the file only).
  static int CanReadFile(const char* name);

  ///@{
  /// Time window in the file's seconds: states and messages that overlap it
  /// and events and samples inside it are output. An end of 0 means the end
  /// of the trace, so the default (0, 0) outputs everything.
  vtkSetVector2Macro(TimeWindow, double);
  vtkGetVector2Macro(TimeWindow, double);
  ///@}

  ///@{
  /// Cut the states overlapping the window's borders to the window.
  vtkSetMacro(ClipStatesToWindow, bool);
  vtkGetMacro(ClipStatesToWindow, bool);
  vtkBooleanMacro(ClipStatesToWindow, bool);
  ///@}

  ///@{
  /// A JSON tree regrouping the leaves into other levels (e.g. SMPI's ranks,
  /// all under the root, into clusters and hosts); empty keeps the trace's
  /// hierarchy. As in the OTF2 reader (docs/hierarchy-file.md): leaves the
  /// file does not name go under an "unplaced" vertex, file leaves naming
  /// nothing are dropped; both are reported as a warning and in the
  /// "HierarchyFileReport" field data of States. Changing it does not parse
  /// the trace again.
  vtkSetStdStringFromCharMacro(HierarchyFile);
  vtkGetCharFromStdStringMacro(HierarchyFile);
  ///@}

  ///@{
  /// The leaves (containers) to output, by path in the hierarchy
  /// ("cluster-0/host-1/rank-4"); all by default.
  vtkDataArraySelection* GetLocationSelection();
  int GetNumberOfLocationArrays();
  const char* GetLocationArrayName(int index);
  int GetLocationArrayStatus(const char* name);
  void SetLocationStatus(const char* name, int status);
  ///@}

  ///@{
  /// The state values whose states are output (named Regions as in the
  /// OTF2 reader so that scripts work with either); all by default. Depths
  /// stay those of the full stacks.
  vtkDataArraySelection* GetRegionSelection();
  int GetNumberOfRegionArrays();
  const char* GetRegionArrayName(int index);
  int GetRegionArrayStatus(const char* name);
  void SetRegionStatus(const char* name, int status);
  ///@}

  ///@{
  /// Known after UpdateInformation (which parses the file): the first and
  /// last timestamps in seconds, the number of event lines and of leaves.
  vtkGetVector2Macro(TimeBounds, double);
  vtkGetMacro(NumberOfEventRecords, vtkIdType);
  vtkGetMacro(NumberOfLocations, vtkIdType);
  ///@}

  /// The report of the last read: counts and anomalies, a few lines.
  const char* GetReadReport() { return this->ReadReport.c_str(); }

  /// How many times this reader parsed a file (a new file, or a changed one).
  vtkGetMacro(NumberOfParses, vtkIdType);

  ///@{
  /// The controller whose rank count checks the piece request; the global
  /// one by default. No collective call is made.
  void SetController(vtkMultiProcessController* controller);
  vtkGetObjectMacro(Controller, vtkMultiProcessController);
  ///@}

  vtkMTimeType GetMTime() override;

protected:
  vtkMacroscopePajeReader();
  ~vtkMacroscopePajeReader() override;

  int FillOutputPortInformation(int port, vtkInformation* info) override;
  int RequestInformation(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

private:
  vtkMacroscopePajeReader(const vtkMacroscopePajeReader&) = delete;
  void operator=(const vtkMacroscopePajeReader&) = delete;

  // Regroups the parsed hierarchy by HierarchyFile when it, its
  // modification time or the trace changed; false (error reported) when the
  // file cannot be applied.
  bool ApplyHierarchyFile();

  struct Internals;
  std::unique_ptr<Internals> Internal;

  std::string FileName;
  double TimeWindow[2] = { 0.0, 0.0 };
  bool ClipStatesToWindow = false;
  std::string HierarchyFile;
  vtkDataArraySelection* LocationSelection;
  vtkDataArraySelection* RegionSelection;
  vtkMultiProcessController* Controller = nullptr;

  double TimeBounds[2] = { 0.0, 0.0 };
  vtkIdType NumberOfEventRecords = 0;
  vtkIdType NumberOfLocations = 0;
  vtkIdType NumberOfParses = 0;
  std::string ReadReport;
};

#endif
