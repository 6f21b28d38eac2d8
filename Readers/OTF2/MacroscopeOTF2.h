// Public entry point of Macroscope's OTF2 decoder: reads an OTF2 archive into
// the columns of Macroscope's data contract, without VTK.
//
//   macroscope::otf2::ReadOptions options;
//   options.WindowBegin = 1.0;
//   options.WindowEnd = 2.0;
//   macroscope::otf2::TraceData trace = macroscope::otf2::ReadTrace("run/traces.otf2", options);
//
// Errors in the archive throw TraceError; an abort requested by the progress
// callback throws ReadAborted.
#ifndef macroscope_otf2_MacroscopeOTF2_h
#define macroscope_otf2_MacroscopeOTF2_h

#include "OTF2TraceTables.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace macroscope::otf2
{

/// An archive that cannot be read: the message names the file and the problem.
class TraceError : public std::runtime_error
{
public:
  using std::runtime_error::runtime_error;
};

/// Thrown when the progress callback returned false.
class ReadAborted : public std::runtime_error
{
public:
  ReadAborted();
};

/// Receives the fraction of events read, in [0, 1]; returning false aborts.
using ProgressCallback = std::function<bool(double fraction)>;

struct ReadOptions
{
  /// Time window in seconds since the trace start (bounds included). States
  /// and messages that overlap it are kept, events and samples inside it.
  double WindowBegin = -std::numeric_limits<double>::infinity();
  double WindowEnd = std::numeric_limits<double>::infinity();
  /// Cut the Start and End of kept states to the window. Off by default, so
  /// that a state keeps its true duration whatever the window.
  bool ClipStatesToWindow = false;

  /// Leaf indexes to read (OTF2 selective reading); empty reads all.
  std::vector<uint32_t> Leaves;

  /// Region names whose states are kept; empty keeps all. Filtered regions
  /// still count for the depth of the regions nested in them.
  std::vector<std::string> Regions;

  ProgressCallback Progress;
};

/// Reads the global definitions only: clock, hierarchy, types, location
/// event counts. Fast (no event file is opened); for information passes.
TraceInfo ReadTraceInfo(const std::string& anchorFile);

/// Reads the definitions and the events of the selected locations.
TraceData ReadTrace(const std::string& anchorFile, const ReadOptions& options = {});

/// In rows handed to a RowSink only: a state the options dropped (its
/// region filtered out by ReadOptions::Regions, or undefined), with its
/// depth and times, so that a consumer can tell that the states nested in
/// it have no parent among the rows. Equals macroscope::DroppedStateType.
constexpr uint32_t DroppedStateType = 0xFFFFFFFFu;

/// Receives the rows of StreamTrace() while the events are decoded, one
/// location after the other, instead of tables holding the whole trace.
class RowSink
{
public:
  virtual ~RowSink() = default;
  /// The definitions (clock, hierarchy, types), before any row.
  virtual void Begin(const TraceInfo& info) { (void)info; }
  virtual void BeginLocation(uint32_t leaf) { (void)leaf; }
  /// The rows decoded since the last call, all of the current location and
  /// in the order ReadTrace() gives them (states in the order of their
  /// Leave, plus DroppedStateType rows). The columns are reused after the
  /// call: copy what must outlive it. At most a few hundred thousand rows.
  /// In the Events rows, Communicator, Root and Operation are -1 when the
  /// MpiCollectiveBegin and its End fell in different calls.
  virtual void Rows(
    const StateColumns& states, const EventColumns& events, const VariableColumns& variables) = 0;
  virtual void EndLocation(uint32_t leaf) { (void)leaf; }
  /// Whether to match the messages (returned whole by StreamTrace(): they
  /// need both ends). When false, sends and receives are skipped, and the
  /// message counters of Diagnostics stay 0.
  virtual bool WantsMessages() const { return false; }
};

/// Reads like ReadTrace(), but hands the States, Events and Variables rows
/// to `sink` as it decodes them, and keeps none: memory is the open call
/// stacks and the batch being decoded, not the trace. Returns the
/// definitions, the diagnostics and, if the sink wants them, the messages;
/// its States, Events and Variables tables are empty.
TraceData StreamTrace(
  const std::string& anchorFile, RowSink& sink, const ReadOptions& options = {});

/// The span of the records, {FirstTime, LastTime} in seconds, from a pass
/// over every event file that keeps no row (NaN, NaN when there is no
/// record). The clock's declared span may be shorter (EZTrace declares rank
/// 0's); this costs a decoding pass, for the information pass of small
/// archives (see EventFileBytes).
std::pair<double, double> ReadRecordSpan(const std::string& anchorFile);

/// Bytes of the archive's event files (`<anchor without .otf2>/*.evt`), 0
/// when there is no such directory (e.g. another OTF2 substrate).
uint64_t EventFileBytes(const std::string& anchorFile);

/// A contiguous range of leaves [Begin, End).
struct LeafRange
{
  uint32_t Begin = 0;
  uint32_t End = 0;
  std::vector<uint32_t> Leaves() const;
};

/// Splits the leaves into `parts` contiguous ranges with about the same
/// number of events each (from the Location definitions), e.g. one per MPI
/// rank of pvbatch. Ranges are non-empty while there are enough leaves.
std::vector<LeafRange> SplitLeaves(const TraceInfo& info, uint32_t parts);

/// Matches sends and receives FIFO per (sender, receiver, communicator, tag),
/// given in any order, and appends the messages to `messages` in channel
/// order; joins the Unresolved records of parts read separately. ReadTrace()
/// gives the same rows, matching while it reads (MessageMatcher). Counts the
/// records left unmatched and the receives before their send into `report`.
void MatchMessages(std::vector<MessageEndpoint> sends, std::vector<MessageEndpoint> receives,
  MessageColumns& messages, Diagnostics& report);

/// A few lines describing the diagnostics, for a log or a GUI panel.
std::string Describe(const Diagnostics& report);

} // namespace macroscope::otf2

#endif
