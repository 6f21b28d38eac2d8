// Turns the event records of one location at a time into table rows. The
// OTF2 callbacks run on the hot path: they only index flat vectors, append
// to columns and keep per-location stacks, never allocate per record.
#ifndef macroscope_otf2_OTF2EventDecoder_h
#define macroscope_otf2_OTF2EventDecoder_h

#include "MacroscopeOTF2.h"
#include "OTF2Definitions.h"
#include "OTF2MessageMatcher.h"
#include "OTF2RequestTable.h"

#include <otf2/otf2.h>

#include <array>
#include <string>
#include <vector>

// Out of line and cold: the rare paths (a dropped or misnested state) stay out
// of the per-record loop's code.
#if defined(__GNUC__)
#define MACROSCOPE_COLD __attribute__((noinline, cold))
#else
#define MACROSCOPE_COLD
#endif

namespace macroscope::otf2
{

class EventDecoder
{
public:
  /// With a sink (StreamTrace), dropped states are marked in the rows and
  /// messages are matched only if the sink wants them.
  EventDecoder(const Definitions& definitions, const ReadOptions& options,
    const std::vector<bool>& selectedLeaves, TraceData& output, RowSink* sink = nullptr);

  /// Registers the callbacks on the event reader of the next location.
  void Attach(OTF2_Reader* reader, OTF2_EvtReader* eventReader);
  void BeginLocation(uint32_t leaf);
  /// Closes what the location left open: states, requests, collectives.
  void EndLocation();
  /// Completes the messages among the selected locations and applies the
  /// time window to them.
  void Finish();

  /// Set when a callback met a record that makes the archive unusable; the
  /// callback then interrupts OTF2's reading loop (exceptions must not cross
  /// OTF2's C frames).
  const std::string& GetError() const { return this->Error; }

  /// Hands the States, Events and Variables rows decoded so far to the
  /// sink, then empties them (keeping their capacity).
  void HandOver();

  /// Grows the output columns ahead of a location with `events` records,
  /// from the rows per event seen so far, `remaining` events to come.
  void ReserveFor(uint64_t events, uint64_t remaining);

private:
  struct Callbacks;
  struct Frame
  {
    // For emplace_back, which builds the frame in place: a braced temporary
    // is stored in two halves and reloaded whole (a store-forwarding stall).
    Frame(uint64_t region, uint64_t start)
      : Region(region)
      , Start(start)
    {
    }
    uint64_t Region;
    uint64_t Start; ///< ticks
  };

  double Seconds(uint64_t ticks) const
  {
    // Integer subtraction first: ticks are large (uptime counters), their
    // difference is exact, and only the result is rounded to a double.
    return double(int64_t(ticks - this->Offset)) / this->Resolution;
  }
  bool InWindow(double time) const { return time >= this->WindowBegin && time <= this->WindowEnd; }
  void Count(RecordKind kind) { ++this->Records[std::size_t(kind)]; }
  void Touch(uint64_t ticks)
  {
    this->FirstTicks = ticks < this->FirstTicks ? ticks : this->FirstTicks;
    this->LastTicks = ticks > this->LastTicks ? ticks : this->LastTicks;
  }

  OTF2_CallbackCode Enter(uint64_t ticks, OTF2_RegionRef region);
  OTF2_CallbackCode Leave(uint64_t ticks, OTF2_RegionRef region);
  /// Inline: Leave() runs it for most records of a trace.
  inline void EmitState(uint64_t region, uint64_t startTicks, uint64_t endTicks, uint32_t depth);
  MACROSCOPE_COLD void MarkDropped(uint64_t startTicks, uint64_t endTicks, uint32_t depth);
  // Appends a state row of `type`, timed, windowed and clipped.
  inline void PushState(uint32_t type, uint64_t startTicks, uint64_t endTicks, uint32_t depth);
  std::size_t EmitEvent(RecordKind kind, uint64_t ticks);
  void Metric(uint64_t ticks, OTF2_MetricRef metric, uint8_t count, const OTF2_Type* types,
    const OTF2_MetricValue* values);
  /// The leaf of `rank` in `comm`, or -1 (counted as an unknown peer).
  int64_t PeerLeaf(OTF2_CommRef comm, uint32_t rank);
  /// Returns the slot of the new endpoint for request bookkeeping.
  uint64_t Send(uint64_t ticks, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t bytes);
  void Receive(uint64_t ticks, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t bytes);
  void Cancel(uint64_t request);
  void CollectiveEnd(uint64_t ticks, OTF2_CollectiveOp operation, OTF2_CommRef comm, uint32_t root);
  OTF2_CallbackCode Fail(const std::string& problem);
  /// Whether a Leave of region `b` closes an Enter of region `a`: the
  /// same region, or regions of one state type (named alike).
  bool SameState(uint64_t a, uint64_t b) const;
  /// A Leave that does not close the innermost open region. Out of line, so
  /// that Leave() stays small.
  MACROSCOPE_COLD void LeaveMisnested(uint64_t ticks, OTF2_RegionRef region);
  /// A Leave of no open region: the late Leave of a state closed early, or
  /// one whose Enter was not recorded.
  MACROSCOPE_COLD void LeaveUnpaired(OTF2_RegionRef region);

  const Definitions& Defs;
  const ReadOptions& Options;
  const std::vector<bool>& Selected;
  TraceData& Output;
  // Copies of the options read per record, next to the other hot members.
  double WindowBegin;
  double WindowEnd;
  bool ClipStates;
  bool FilterRegions;                  ///< whether KeepRegionType filters anything
  std::vector<uint8_t> KeepRegionType; ///< by type id; bytes, not bits: read per state
  RowSink* Sink;
  bool MatchMessages; ///< false when streaming to a sink that does not want them
  /// Counted here, next to the other hot members, and added to the report
  /// by Finish().
  std::array<uint64_t, RecordKindCount> Records{};
  uint64_t Offset;
  double Resolution;

  // Per location, reset by BeginLocation().
  uint32_t Leaf = 0;
  uint64_t FirstTicks = 0;
  uint64_t LastTicks = 0;
  std::vector<Frame> Stack;
  /// Regions whose state a misnested Leave closed early; their own Leave
  /// is still to come.
  std::vector<uint64_t> ClosedEarly;
  std::vector<std::size_t> OpenCollectives; ///< Events rows, or NoRow
  RequestTable Requests;

  // Cache of the last communicator looked up: records mostly use one.
  OTF2_CommRef LastComm = OTF2_UNDEFINED_COMM;
  const CommPeers* LastPeers = nullptr;

  MessageMatcher Matcher; ///< messages with both ends selected
  std::string Error;
};

} // namespace macroscope::otf2

#endif
