/**
 * @class vtkMacroscopePajeReader
 * @brief Reads a Pajé trace (SimGrid/SMPI, pajeng, FrameSoC exports) into
 * Macroscope's trace tables and resource hierarchy.
 *
 * The outputs and properties of every trace reader
 * (vtkMacroscopeTraceReader), so that every filter and representation works
 * unchanged. Times are the file's seconds, not shifted (SimGrid's traces
 * start at 0); the Regions selection lists the state values. No collective
 * call is made: the Controller is not used.
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
 *
 * The streamed time slicing uses the reader differently (KeepRows off,
 * then SliceWhileReading): the information pass only scans the file for
 * its definitions, and the rows are folded into the model during a second
 * pass, never kept (docs/streaming-model.md, "Pajé traces").
 */
#ifndef vtkMacroscopePajeReader_h
#define vtkMacroscopePajeReader_h

#include "MacroscopeReadersModule.h" // for export macro
#include "vtkMacroscopeTraceReader.h"

#include <memory>

class MACROSCOPEREADERS_EXPORT vtkMacroscopePajeReader : public vtkMacroscopeTraceReader
{
public:
  static vtkMacroscopePajeReader* New();
  vtkTypeMacro(vtkMacroscopePajeReader, vtkMacroscopeTraceReader);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  /// True if the first line that is neither blank nor a comment starts with
  /// `%EventDef` (cheap: reads the start of the file only).
  static int CanReadFile(const char* name);

  /// How many times this reader parsed a file (a new file, or a changed one).
  vtkGetMacro(NumberOfParses, vtkIdType);

  ///@{
  /// Keep the parsed rows for RequestData (on, the default). Off, the
  /// information pass is a definitions-only scan (hierarchy, types, time
  /// bounds, rows per leaf) that keeps no row, so that memory stays
  /// O(containers) whatever the file's size; the reader then has no tables
  /// to output (RequestData fails, saying so) and serves SliceWhileReading
  /// only. Turning it on again parses the file again. Not a proxy property:
  /// the streamed time slicing sets it on the reader it owns.
  vtkSetMacro(KeepRows, bool);
  vtkGetMacro(KeepRows, bool);
  vtkBooleanMacro(KeepRows, bool);
  ///@}

  /**
   * Folds this piece's rows into `stream` while parsing the file a second
   * time (the contract of vtkMacroscopeTraceReader::SliceWhileReading).
   * A Pajé file has no index: every piece parses the whole file and folds
   * the leaves RequestData would output for it (row-balanced contiguous
   * ranges of the parsed leaves, messages with their receiver); there is
   * no collective call, since links are matched within the file. The
   * file must be in time order per container (as Pajé requires) and
   * unchanged since UpdateInformation. Progress is reported; an abort
   * (SetAbortExecute(1), e.g. from a progress observer) returns -1.
   */
  int SliceWhileReading(macroscope::ModelStream& stream, int piece, int pieces) override;

protected:
  vtkMacroscopePajeReader();
  ~vtkMacroscopePajeReader() override;

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
  vtkIdType NumberOfParses = 0;
  bool KeepRows = true;
};

#endif
