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
};

#endif
