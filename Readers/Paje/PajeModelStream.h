// The streamed time slicing of a Pajé trace (docs/streaming-model.md, "Pajé
// traces"): the rows of StreamTrace() handed to a ModelStream as they
// complete, with the reader's selections applied, so that the model is
// built without the tables. The glue of vtkMacroscopePajeReader's
// SliceWhileReading, VTK-free so that the tests drive it directly.
//
//   ReadOptions scanOptions;
//   scanOptions.KeepRows = false;
//   TraceData scan = ReadTrace(path, scanOptions); // definitions only
//   ModelStream stream(...);                       // the output's leaves
//   StreamModel(path, scan, selection, stream);
//   std::vector<MicroscopicModel> models = stream.Finish();
#ifndef macroscope_paje_PajeModelStream_h
#define macroscope_paje_PajeModelStream_h

#include "MacroscopePaje.h"
#include "PajeSelection.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace macroscope
{
class ModelStream;
}

namespace macroscope::paje
{

/// What one streamed read counts, in the parsed trace's leaf numbering.
struct StreamSelection
{
  /// The stream's leaf of each parsed leaf (a HierarchyFile regrouping
  /// renumbers them); empty: the same numbers.
  std::vector<uint32_t> OutputLeaf;
  /// Selected parsed leaves (1 = read); empty: all.
  std::vector<uint8_t> Leaves;
  /// This piece's parsed leaves: their states, events and samples, and the
  /// messages they receive (a message goes with its receiver, as in the
  /// reader's tables, and needs both ends selected).
  LeafRange Piece{ 0, std::numeric_limits<uint32_t>::max() };
  /// Types rows whose states count, one per row; empty: all. The states of
  /// the others are handed over as DroppedStateType rows (their children
  /// then count in full, as when the reader's tables lack them).
  std::vector<uint8_t> StateTypes;
};

/// Parses `path` again (its first pass gave `scan`: a ReadTrace() with or
/// without KeepRows) and hands the rows `selection` keeps to `stream`,
/// interleaved (ModelStream::AddInterleavedStates...), then closes the
/// leaves (EndInterleaved); the caller calls stream.Finish(). The stream's
/// leaves are the output's (OutputLeaf's numbers, or the scan's leaves).
/// Throws as ReadTrace() (ParseError, TraceError, ReadAborted), and
/// std::invalid_argument when the rows do not fit the stream. Returns the
/// second pass's diagnostics.
Diagnostics StreamModel(const std::string& path, const TraceData& scan,
  const StreamSelection& selection, ModelStream& stream, const ReadOptions& options = {});

} // namespace macroscope::paje

#endif
