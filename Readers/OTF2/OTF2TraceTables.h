// The decoded trace: plain columns that follow Macroscope's data contract
// (docs/architecture.md, Core/TraceSchema.h). The numeric columns of
// the tables are Columns, whose buffers the VTK adapter hands to its arrays
// without a copy.
#ifndef macroscope_otf2_OTF2TraceTables_h
#define macroscope_otf2_OTF2TraceTables_h

#include "OTF2Column.h"
#include "OTF2RecordKind.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace macroscope::otf2
{

/// Port 0: one row per state interval (an Enter with its Leave).
struct StateColumns
{
  Column<uint32_t> Location; ///< leaf index
  Column<uint32_t> Type;     ///< row in TypeColumns
  Column<uint32_t> Depth;    ///< call-stack depth, 0 = outermost
  Column<double> Start;      ///< seconds since the global trace start
  Column<double> End;

  std::size_t size() const { return this->Start.size(); }
  std::size_t capacity() const { return this->Start.capacity(); }
  void reserve(std::size_t rows);
  /// Maps the memory of the rows up to `rows` ahead (Column::Prefault).
  void Prefault(std::size_t rows) const;
  void shrink_to_fit();
  std::size_t MemoryBytes() const;
};

/// Port 1: one row per matched point-to-point message.
struct MessageColumns
{
  Column<uint32_t> Sender;    ///< leaf index
  Column<uint32_t> Receiver;  ///< leaf index
  Column<double> SendTime;    ///< Send or Isend
  Column<double> RecvTime;    ///< Recv or Irecv (completion of the receive)
  Column<uint64_t> Bytes;     ///< length given by the send
  Column<uint64_t> RecvBytes; ///< length given by the receive (may differ)
  Column<uint32_t> Tag;
  Column<uint32_t> Communicator; ///< OTF2 Comm id, see TraceInfo::Communicators
  /// 1 when RecvTime < SendTime: the clocks of the two locations drift.
  /// Such rows are kept unchanged and counted in Diagnostics.
  Column<uint8_t> RecvBeforeSend;

  std::size_t size() const { return this->SendTime.size(); }
  std::size_t capacity() const { return this->SendTime.capacity(); }
  void reserve(std::size_t rows);
  /// Maps the memory of the rows up to `rows` ahead (Column::Prefault).
  void Prefault(std::size_t rows) const;
  void resize(std::size_t rows);
  void shrink_to_fit();
  std::size_t MemoryBytes() const;
};

/// Port 2: one row per instant event.
struct EventColumns
{
  Column<uint32_t> Location;
  Column<uint32_t> Type;
  Column<double> Time;
  /// Collectives only (MpiCollectiveBegin gets them from its End), else -1:
  Column<int64_t> Communicator; ///< OTF2 Comm id
  Column<int64_t> Root;         ///< leaf index of the root
  Column<int32_t> Operation;    ///< OTF2_CollectiveOp, see CollectiveOperationName

  std::size_t size() const { return this->Time.size(); }
  std::size_t capacity() const { return this->Time.capacity(); }
  void reserve(std::size_t rows);
  /// Maps the memory of the rows up to `rows` ahead (Column::Prefault).
  void Prefault(std::size_t rows) const;
  void shrink_to_fit();
  std::size_t MemoryBytes() const;
};

/// Port 3: one row per metric value.
struct VariableColumns
{
  Column<uint32_t> Location;
  Column<uint32_t> Variable; ///< row in TypeColumns
  Column<double> Time;
  Column<double> Value;

  std::size_t size() const { return this->Time.size(); }
  std::size_t capacity() const { return this->Time.capacity(); }
  void reserve(std::size_t rows);
  /// Maps the memory of the rows up to `rows` ahead (Column::Prefault).
  void Prefault(std::size_t rows) const;
  void shrink_to_fit();
  std::size_t MemoryBytes() const;
};

/// Port 4: the resource tree, vertices in depth-first order (a parent
/// precedes its children), children in definition order.
struct HierarchyColumns
{
  std::vector<int64_t> Parent; ///< -1 for the root
  std::vector<std::string> Name;
  std::vector<std::string> Kind;  ///< "machine", "node", "process", "thread", "gpu", ...
  std::vector<int64_t> LeafIndex; ///< -1 for inner vertices

  std::size_t size() const { return this->Parent.size(); }
};

/// One leaf of the hierarchy: an OTF2 location.
struct LeafInfo
{
  uint64_t LocationId = 0; ///< OTF2 location reference
  std::size_t Vertex = 0;  ///< row in HierarchyColumns
  uint64_t Events = 0;     ///< numberOfEvents of the Location definition
};

/// Port 5: one row per type; Id equals the row.
struct TypeColumns
{
  Column<uint32_t> Id;
  std::vector<std::string> Name;
  std::vector<std::string> Kind;     ///< "state", "event", "variable" or "link"
  std::vector<std::string> Paradigm; ///< regions: "MPI", "OpenMP", "user", ...; else ""
  std::vector<std::string> Role;     ///< regions: "function", "loop", ...; else ""
  /// TypePalette::ColorOf(name, paradigm, role): the colour every view draws.
  std::vector<std::array<uint8_t, 3>> Color;
  /// The colour the trace file gives the type (Pajé's Color field), else
  /// the same as Color; macroscope.use_palette("trace") draws these.
  std::vector<std::array<uint8_t, 3>> TraceColor;
  /// The colour-blind-safe palette's colour (macroscope.use_palette).
  std::vector<std::array<uint8_t, 3>> ColorBlindColor;

  std::size_t size() const { return this->Id.size(); }
  uint32_t Add(const std::string& name, const char* kind, const std::string& paradigm,
    const std::string& role);
};

struct CommunicatorInfo
{
  uint32_t Id = 0; ///< OTF2 Comm reference, as in the Communicator columns
  std::string Name;
  uint32_t Size = 0; ///< members of its group
};

/// The archive's clock: tick t is at (t - GlobalOffset) / Resolution seconds.
struct ClockInfo
{
  uint64_t Resolution = 1;
  uint64_t GlobalOffset = 0;
  uint64_t TraceLength = 0;         ///< ticks
  uint64_t RealtimeNanoseconds = 0; ///< wall-clock time of GlobalOffset, 0 if unknown

  double Seconds(uint64_t ticks) const;
  double Duration() const { return this->Seconds(this->GlobalOffset + this->TraceLength); }
};

/// What the definitions alone tell: enough for the GUI's information pass.
struct TraceInfo
{
  std::string AnchorFile;
  ClockInfo Clock;
  HierarchyColumns Hierarchy;
  std::vector<LeafInfo> Leaves; ///< in leaf order
  TypeColumns Types;
  std::vector<CommunicatorInfo> Communicators;
  uint64_t TotalEvents = 0; ///< sum of the Locations' numberOfEvents
  /// Group definitions that reuse an id (EZTrace defines Group 0 as the
  /// locations and as MPI_COMM_WORLD's ranks); resolved by their type.
  uint64_t DuplicateGroupDefinitions = 0;
  /// Regions whose name an earlier Region has: they share its state type.
  uint64_t RegionsSharingAName = 0;
};

/// Counts of what was read, and of everything that did not fit the model.
/// Nothing is dropped silently: each anomaly has a counter here.
struct Diagnostics
{
  std::array<uint64_t, RecordKindCount> Records{}; ///< decoded records per kind
  uint64_t EventsRead = 0;                         ///< all event records of the selected locations
  uint64_t OtherRecords = 0;                       ///< records of kinds the decoder does not map

  uint64_t UnmatchedSends = 0;      ///< no receive on the same channel
  uint64_t UnmatchedReceives = 0;   ///< no send on the same channel
  uint64_t ReceivesBeforeSends = 0; ///< matched with RecvTime < SendTime
  /// Messages whose peer is not among the selected locations; kept in
  /// TraceData::Unresolved for a later cross-part matching.
  uint64_t SendsToUnselected = 0;
  uint64_t ReceivesFromUnselected = 0;
  uint64_t UnknownPeers = 0; ///< peer rank not in the communicator, or undefined comm

  uint64_t IsendsNotCompleted = 0;
  uint64_t IsendCompletesWithoutIsend = 0;
  uint64_t IrecvRequestsNotCompleted = 0;
  uint64_t IrecvsWithoutRequest = 0;
  uint64_t CancelledRequests = 0;

  /// Peers given as MPI_PROC_NULL (-2 as Open MPI writes it, -1 as MPICH):
  /// no message, and no anomaly either.
  uint64_t ProcNullPeers = 0;

  uint64_t LeavesWithoutEnter = 0; ///< ignored
  /// Leaves of an open region that is not the innermost one (EZTrace enters
  /// "EZTrace finalize" before it leaves "Working"): the regions inside it
  /// are closed at that Leave, so that states stay nested.
  uint64_t MisnestedLeaves = 0;
  /// States closed at the misnested Leave of an enclosing region; their own
  /// Leave, when it comes, is ignored.
  uint64_t StatesClosedEarly = 0;
  uint64_t StatesLeftOpen = 0; ///< closed at their location's last timestamp
  uint64_t CollectiveBeginsWithoutEnd = 0;
  uint64_t CollectiveEndsWithoutBegin = 0;
  uint64_t UndefinedReferences = 0; ///< region or metric ids without definition
  uint64_t MalformedMetrics = 0;    ///< value count or type not matching the class

  /// Locations whose events number differently from the numberOfEvents of
  /// their definition (EZTrace announces 2 everywhere). The count is
  /// advisory: every record in the file is read. The first case, as text.
  uint64_t EventCountMismatches = 0;
  std::string FirstEventCountMismatch;
  /// Locations with records outside the span ClockProperties declare
  /// (EZTrace declares rank 0's); the span read is [FirstTime, LastTime].
  uint64_t LocationsOutsideClockSpan = 0;
  double ClockEnd = std::numeric_limits<double>::quiet_NaN(); ///< declared, seconds
  /// Definitions resolved rather than taken as they come (TraceInfo).
  uint64_t DuplicateGroupDefinitions = 0;
  uint64_t RegionsSharingAName = 0;

  /// Rows left out because they lie outside ReadOptions' time window.
  uint64_t StatesOutsideWindow = 0;
  uint64_t MessagesOutsideWindow = 0;
  uint64_t EventsOutsideWindow = 0;
  uint64_t SamplesOutsideWindow = 0; ///< metric values (one per member)

  /// Earliest and latest timestamps read, in seconds (NaN when nothing was read).
  double FirstTime = std::numeric_limits<double>::quiet_NaN();
  double LastTime = std::numeric_limits<double>::quiet_NaN();

  uint64_t Count(RecordKind kind) const { return this->Records[std::size_t(kind)]; }
};

/// A send or receive whose matching needs the records of another part.
struct MessageEndpoint
{
  uint32_t Sender = 0;
  uint32_t Receiver = 0;
  uint32_t Communicator = 0;
  uint32_t Tag = 0;
  double Time = 0.0;
  uint64_t Bytes = 0;
};

struct UnresolvedMessages
{
  std::vector<MessageEndpoint> Sends;
  std::vector<MessageEndpoint> Receives;
};

/// Everything ReadTrace() returns.
struct TraceData
{
  TraceInfo Info;
  StateColumns States;
  MessageColumns Messages;
  EventColumns Events;
  VariableColumns Variables;
  Diagnostics Report;
  UnresolvedMessages Unresolved;

  /// Bytes held by the four event tables (the measure of the memory bound).
  std::size_t TableBytes() const;
  /// Gives back the capacity of the four event tables beyond their rows.
  void ShrinkTables();
};

} // namespace macroscope::otf2

#endif
