/**
 * @class vtkMacroscopeOTF2Reader
 * @brief Reads an OTF2 archive (Score-P's traces.otf2) into Macroscope's
 * trace tables and resource hierarchy.
 *
 * The outputs and properties of every trace reader
 * (vtkMacroscopeTraceReader). Times are seconds since the trace start, from
 * the archive's clock properties; FileName is the archive's anchor file
 * (traces.otf2, or any *.otf2 name); the Controller joins messages across
 * pieces.
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
#include "vtkMacroscopeTraceReader.h"

#include <functional> // for std::function
#include <memory>
#include <vector> // for std::vector

class MACROSCOPEREADERS_EXPORT vtkMacroscopeOTF2Reader : public vtkMacroscopeTraceReader
{
public:
  static vtkMacroscopeOTF2Reader* New();
  vtkTypeMacro(vtkMacroscopeOTF2Reader, vtkMacroscopeTraceReader);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  /// True if `name` opens as an OTF2 archive (for ParaView's reader factory).
  static int CanReadFile(const char* name);

  /// Streams this piece's locations with otf2::StreamTrace (see
  /// vtkMacroscopeTraceReader): one location at a time, no table kept.
  int SliceWhileReading(macroscope::ModelStream& stream, int piece, int pieces) override;

protected:
  vtkMacroscopeOTF2Reader();
  ~vtkMacroscopeOTF2Reader() override;

  int RequestInformation(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

private:
  // The leaves piece `piece` of `pieces` reads, among those selected and
  // `needed` (archive numbering): `read` by any piece, `mine` by this one,
  // and this one's as a list.
  void ShareLeaves(int piece, int pieces, const std::function<bool(uint32_t)>& needed,
    std::vector<bool>& read, std::vector<bool>& mine, std::vector<uint32_t>& leaves);
  // The worst status of every piece (0 error, -1 aborted, 1 done) when the
  // pieces run in parallel, so that none is left alone in a collective call.
  int AgreeAcrossPieces(int status, bool parallel);
  // Widens TimeBounds (and the Types output's "TimeBounds") to the records
  // read, first to last (NaN when none), when the clock's declared span
  // misses some, with a warning.
  void CoverRecordsRead(double first, double last, bool parallel);
  // Before any read: grows TimeBounds to the records of an archive whose
  // event files are small enough to scan in the information pass.
  void CoverRecordSpanOfSmallArchive();

  vtkMacroscopeOTF2Reader(const vtkMacroscopeOTF2Reader&) = delete;
  void operator=(const vtkMacroscopeOTF2Reader&) = delete;

  // Regroups the hierarchy by HierarchyFile when it (or its modification
  // time) changed since last applied; false after an error.
  bool ApplyHierarchyFile();

  struct Internals;
  std::unique_ptr<Internals> Internal;
};

#endif
