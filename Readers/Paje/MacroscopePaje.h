// Public entry point of Macroscope's Pajé parser: reads a Pajé trace (the
// text format of Pajé, pajeng, SimGrid/SMPI and FrameSoC exports) into the
// columns of Macroscope's data contract, without VTK. The tables are those
// of the OTF2 decoder (OTF2TraceTables.h), so that one VTK adapter hands
// either over. docs/paje-parser.md describes the format as implemented.
//
//   macroscope::paje::TraceData trace = macroscope::paje::ReadTrace("run.paje");
//
// Malformed input throws ParseError (with the line number); a file that
// cannot be opened throws TraceError; an abort requested by the progress
// callback throws ReadAborted.
#ifndef macroscope_paje_MacroscopePaje_h
#define macroscope_paje_MacroscopePaje_h

#include "PajeErrors.h"

#include <OTF2TraceTables.h>

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace macroscope::paje
{

using otf2::EventColumns;
using otf2::HierarchyColumns;
using otf2::MessageColumns;
using otf2::StateColumns;
using otf2::TypeColumns;
using otf2::VariableColumns;

/// Counts of what was read, and of everything that did not fit the model.
struct Diagnostics
{
  std::array<uint64_t, 19> Events{};  ///< event lines per EventKind
  uint64_t Lines = 0;                 ///< event lines (not headers, comments, blanks)
  uint64_t StatesLeftOpen = 0;        ///< closed at LastTime
  uint64_t StatesClosedByDestroy = 0; ///< closed by the DestroyContainer of their container
  uint64_t UnmatchedStartLinks = 0;   ///< no EndLink with the same key
  uint64_t UnmatchedEndLinks = 0;     ///< no StartLink with the same key
  uint64_t EndsBeforeStarts = 0;      ///< matched links with RecvTime < SendTime
  uint64_t ImplicitValues = 0;        ///< state/event values used without DefineEntityValue
  uint64_t SelfLeaves = 0;            ///< leaves added for inner containers holding data
  /// PajeTraceFile events: a part of the trace in another file, not read
  /// (pajeng ignores them too); the first few file names, as excerpts.
  uint64_t TraceFilesSkipped = 0;
  std::vector<std::string> SkippedTraceFiles;

  /// Earliest and latest timestamps read, in seconds (NaN when none).
  double FirstTime = std::numeric_limits<double>::quiet_NaN();
  double LastTime = std::numeric_limits<double>::quiet_NaN();
};

/// One leaf of the hierarchy: a Pajé container.
struct LeafInfo
{
  std::string Container;  ///< the container's alias, or its name when it has none
  std::size_t Vertex = 0; ///< row in HierarchyColumns
  bool Self = false;      ///< the data of an inner container (docs/paje-parser.md)
};

/// Everything the parser returns. Location, Sender and Receiver are leaf
/// indexes; Type and Variable are rows of Types. Messages: Tag is 0 (Pajé
/// has none), Communicator is the Types row of the link type, Bytes and
/// RecvBytes the StartLink's Size field (0 without one). Events: Communicator,
/// Root and Operation are -1.
struct TraceData
{
  HierarchyColumns Hierarchy;
  std::vector<LeafInfo> Leaves; ///< in leaf order
  TypeColumns Types;
  StateColumns States;
  MessageColumns Messages;
  EventColumns Events;
  VariableColumns Variables;
  Diagnostics Report;
  /// Rows of each leaf (states, events and samples on it, messages it
  /// receives), counted even when the tables are not kept: SplitLeaves().
  std::vector<uint64_t> RowsOfLeaf;
  /// Leaf of each container, in the order of their PajeCreateContainer
  /// (the root "0" first); UINT32_MAX for an inner container without data.
  /// What StreamTrace() needs from a first pass to number its rows.
  std::vector<uint32_t> LeafOfContainer;
};

/// Receives the fraction of the input read, in [0, 1]; returning false aborts.
using ProgressCallback = std::function<bool(double fraction)>;

struct ReadOptions
{
  ProgressCallback Progress;
  /// False: a definitions-only scan. The file is parsed and checked as
  /// usual, but no State, Event, Variable or Message row is kept (the
  /// tables stay empty, RowsOfLeaf counts them): memory O(containers +
  /// open states + pending links), and the pages of the file already read
  /// are given back to the system.
  bool KeepRows = true;
};

/// Receives the rows of StreamTrace() while the file is parsed.
class RowSink
{
public:
  virtual ~RowSink() = default;
  /// Which rows to hand over; the others are not even built.
  virtual bool WantsStates() const { return true; }
  virtual bool WantsEvents() const { return true; }
  virtual bool WantsVariables() const { return true; }
  virtual bool WantsMessages() const { return true; }
  /// The rows completed since the last call, of any leaves (Location,
  /// Sender and Receiver are leaf indexes, as ReadTrace() gives them). Per
  /// leaf, states come in the order of their Leave (End ascending, then
  /// deeper first, then earlier start first: the order SliceTrace() sorts
  /// a leaf's states into), events, samples and messages in file order.
  /// The columns are reused after the call; a few tens of thousands of rows
  /// at a time.
  virtual void Rows(const StateColumns& states, const EventColumns& events,
    const VariableColumns& variables, const MessageColumns& messages) = 0;
};

/// Parses a whole trace held in memory. `source` names it in error messages.
TraceData ParseTrace(
  std::string_view text, const ReadOptions& options = {}, const std::string& source = "");

/// Maps the file into memory and parses it.
TraceData ReadTrace(const std::string& path, const ReadOptions& options = {});

/// Parses `path` a second time and hands its rows to `sink` as they
/// complete (a state when it is popped, replaced, reset or closed by its
/// container's destruction or the end of the file; a link once both ends
/// were read), keeping none: memory O(containers + open states + pending
/// links + states ending at the same instant). `leafOfContainer` is the
/// TraceData::LeafOfContainer of a first pass over the same file (a scan
/// with KeepRows false), since a container's leaf is only known at the
/// end of the file. The file must be in time order within each container
/// (Pajé requires it): a state ending before one already handed over
/// throws ParseError. Returns the diagnostics and hierarchy as ReadTrace();
/// its tables are empty.
TraceData StreamTrace(const std::string& path, const std::vector<uint32_t>& leafOfContainer,
  RowSink& sink, const ReadOptions& options = {});

/// A few lines describing the diagnostics, for a log or a GUI panel.
std::string Describe(const Diagnostics& report);

} // namespace macroscope::paje

#endif
