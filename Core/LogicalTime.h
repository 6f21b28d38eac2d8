// Logical time (Isaacs et al. 2014 (Ravel) sections 3.1-3.2): the happened-before graph
// of a trace's communication events, its phases, the integer logical steps
// that respect it, and the metrics that keep physical time visible in
// logical time (lateness, differential lateness). See docs/logical-time.md.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace macroscope::logical
{

/// What a logical event stands for. Aggregate is the non-messaging time
/// between two communication events of a location (Isaacs et al. 2014 (Ravel) §3.1).
enum class EventKind : uint8_t
{
  Aggregate = 0,
  Send = 1,        // the call holds sends only
  Receive = 2,     // receives only
  SendReceive = 3, // both (MPI_Sendrecv, a Waitall completing sends and receives)
  Collective = 4,  // a collective operation (all its participants share one step)
};
const char* EventKindName(EventKind kind);

/// The exchange (stencil) flavours of Isaacs et al. 2014 (Ravel) sections 3.3.2 and 4.2.1.
enum class ExchangePattern : uint8_t
{
  None = 0,
  Alternating = 1,       // sends and receives alternate
  SendsThenReceives = 2, // all sends, then the receives one by one
  ReceivesWaitall = 3,   // receives posted, sends, then one call completing them all
};
const char* ExchangePatternName(ExchangePattern pattern);

/// The trace, as the columns of Macroscope's trace tables (TraceSchema.h).
/// Rows need not be sorted. Locations are leaf indexes in [0, Locations).
struct TraceInput
{
  uint32_t Locations = 0;

  // States (call intervals).
  std::vector<int32_t> StateLocation;
  std::vector<int32_t> StateType;
  std::vector<int32_t> StateDepth;
  std::vector<double> StateStart;
  std::vector<double> StateEnd;
  /// Per type id: true when a state of that type is a communication call
  /// (MPI paradigm). A message end or collective record is attributed to the
  /// innermost communication state of its location that contains its time;
  /// when there is none it becomes an instant event at that time. At a time
  /// where one call ends and the next starts, sends go to the starting call,
  /// collective records to the ending one, receives to the ending one unless
  /// it holds a send (docs/logical-time.md).
  std::vector<bool> CommunicationType;

  // Matched point-to-point messages.
  std::vector<int32_t> Sender;
  std::vector<int32_t> Receiver;
  std::vector<double> SendTime;
  std::vector<double> RecvTime;

  // Collective participations: one record per location and collective
  // operation (e.g. the MpiCollectiveEnd events). The k-th record of a
  // communicator at one location meets the k-th record of that communicator
  // at every other location (MPI orders collectives per communicator).
  std::vector<int32_t> CollectiveLocation;
  std::vector<double> CollectiveTime;
  std::vector<int64_t> CollectiveCommunicator;

  /// Per type id: true when a state of that type is a non-blocking send
  /// (MPI_Isend and its Ibsend, Issend, Irsend siblings), the calls
  /// Options::CoalesceIsends folds. Empty: no type is.
  std::vector<bool> IsendType;
};

struct Options
{
  /// Empty: phases are the connected components of the happened-before graph
  /// (Isaacs et al. 2014 (Ravel) §3.1). Otherwise increasing times: an event's phase is
  /// the interval of these boundaries its enter time falls into.
  std::vector<double> PhaseBoundaries;
  /// Merge the communication events of a location that share their nearest
  /// enclosing non-communication call (e.g. the Isends and Waitall of one
  /// exchange_halo) into one phase. Outermost calls (Depth 0, main) never merge.
  bool MergeByEnclosingCall = true;
  /// Ravel's Isend coalescing: a run of consecutive non-blocking sends of a
  /// location (IsendType) holding sends only, with no other call or event
  /// between them, is one Send event from the first one's enter to the last
  /// one's exit (a halo exchange's k Isends become one step, not k).
  bool CoalesceIsends = true;

  // Ravel's further phase options (docs/logical-time.md section
  // 4). Each adds unions to the components; none applies with
  // PhaseBoundaries.

  /// Ravel's caller merge: consecutive communication events of a location
  /// merge when they share their least multiple caller, the nearest
  /// enclosing call whose function holds at least two communication events
  /// in one of its calls; main included (a ping-pong in main is one phase).
  bool MergeByCaller = false;
  /// >= 0: the events of a location under one call at this call depth (0 =
  /// the outermost) make one phase. -1: off.
  int32_t MergeDepth = -1;
  /// Collective boundaries: every collective event of the chosen types
  /// starts a phase holding the events of each location up to its next
  /// boundary (Ravel's partition by function).
  bool CollectiveBoundaries = false;
  /// Per state type id: true for the collectives that are boundaries. Empty:
  /// every collective event is one (instant collective records included).
  std::vector<bool> BoundaryTypes;
};

/// One row per logical event, grouped by location, in time order within a
/// location. Steps: every communication event has a logical step; the
/// aggregate before it shares that step. GlobalStep interleaves them like
/// Ravel: 2 Step for the aggregate, 2 Step + 1 for the communication event.
struct LogicalEvents
{
  std::vector<int32_t> Location;
  std::vector<int64_t> Step;
  std::vector<int64_t> GlobalStep;
  std::vector<int32_t> Phase;
  std::vector<EventKind> Kind;
  std::vector<double> Enter;
  std::vector<double> Exit;
  std::vector<int64_t> State;      // the communication state's row, -1 if none
  std::vector<int32_t> Type;       // its type, -1 if none
  std::vector<int32_t> Sends;      // messages sent by the event
  std::vector<int32_t> Receives;   // messages received
  std::vector<int32_t> Partner;    // the other end of its first message, -1 if none
  std::vector<int64_t> Collective; // collective operation id, -1 if none
  /// Exit time minus the earliest exit among the events of its GlobalStep.
  std::vector<double> Lateness;
  /// max(0, Lateness - the largest Lateness among its predecessors: the
  /// previous event of its location and the senders of its receives).
  std::vector<double> DifferentialLateness;
  /// Ravel's default "Lateness" (Isaacs et al. 2014 (Ravel) §3.2, per phase): Exit minus
  /// the earliest exit among the events of its GlobalStep *in its Phase*.
  /// Lateness above is Ravel's "G. Lateness" (over the whole trace); both
  /// agree when the phases of one global step are causally ordered.
  std::vector<double> PhaseLateness;
  /// DifferentialLateness computed from PhaseLateness (Ravel's "D. Lateness").
  std::vector<double> PhaseDifferentialLateness;

  std::size_t size() const { return this->Location.size(); }
};

/// One row per point-to-point message that links two logical events.
struct LogicalMessages
{
  std::vector<int64_t> Message;   // row in TraceInput's messages
  std::vector<int64_t> SendEvent; // rows in LogicalEvents
  std::vector<int64_t> RecvEvent;
  /// 1 when the message was ignored to break a happened-before cycle (clock
  /// skew): its events keep it in Sends / Receives but not in their steps.
  std::vector<uint8_t> Dropped;
  std::size_t size() const { return this->Message.size(); }
};

struct PhaseInfo
{
  int64_t FirstGlobalStep = 0;
  int64_t LastGlobalStep = 0;
  double Start = 0.0; // earliest enter of its events
  double End = 0.0;   // latest exit
  uint32_t Locations = 0;
  uint64_t Events = 0;
  ExchangePattern Pattern = ExchangePattern::None;
};

/// Isaacs et al. 2014 (Ravel) §4.3: per global step, the earliest enter and latest exit
/// of its events (NaN for a step no event has).
struct StepSpans
{
  std::vector<double> Start;
  std::vector<double> End;
  /// The physical time span of global steps [first, last]: the largest one.
  std::pair<double, double> TimeOfSteps(int64_t first, int64_t last) const;
  /// The global steps whose span overlaps [begin, end]; {0, -1} if none.
  std::pair<int64_t, int64_t> StepsOfTime(double begin, double end) const;
};

struct Diagnostics
{
  uint64_t InstantEndpoints =
    0; // message ends / collective records outside any communication state
  uint64_t DroppedMessages =
    0; // message edges removed to break happened-before cycles (clock skew)
  uint64_t IncompleteCollectives = 0; // collective operations missing participants
  uint64_t MergedPhaseCycles = 0;     // phases merged because they formed a cycle
  /// Collective operations whose participants could not share one step
  /// without a cycle, even with every message of the cycle dropped; their
  /// members keep Kind Collective but are stepped independently.
  uint64_t SplitCollectives = 0;
  /// Non-blocking send calls folded into the event of the run they continue
  /// (Options::CoalesceIsends): a run of k calls counts k - 1.
  uint64_t CoalescedIsends = 0;
  /// Sendrecv exchanges: groups of SendReceive events on distinct locations
  /// whose messages form a cycle among them, contracted into one node (one
  /// step, as a collective's members). SplitExchanges: such groups stepped
  /// apart again because sharing a step contradicted another path.
  uint64_t SendrecvExchanges = 0;
  uint64_t SplitExchanges = 0;
};

struct LogicalTrace
{
  LogicalEvents Events;
  LogicalMessages Messages;
  std::vector<PhaseInfo> Phases; // in step order
  StepSpans Spans;
  Diagnostics Report;
};

class LogicalTimeAborted : public std::runtime_error
{
public:
  LogicalTimeAborted()
    : std::runtime_error("logical time aborted")
  {
  }
};

/// Builds the logical trace. `progress` (optional) gets the fraction done;
/// returning false throws LogicalTimeAborted. Throws std::invalid_argument
/// for inconsistent input (column lengths, locations out of range, a state
/// ending before it starts, unsorted phase boundaries).
LogicalTrace BuildLogicalTrace(const TraceInput& input, const Options& options = {},
  const std::function<bool(double)>& progress = {});

}
