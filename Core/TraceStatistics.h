// Trace statistics: FrameSoC's statistics pie chart and event-density chart
// (Pagano et al. 2013 (FrameSoC) §III-B), and the reading of section V-C, "only 20% of
// event producers generate 80% of trace events", as numbers.
//
// Two steps. TallyTrace counts the records of a time window per producer,
// per type and per time bin; its tallies are additive, so the tallies of
// disjoint sets of rows (the pieces of MPI ranks) merge into those of their
// union. SummarizeProducers and SummarizeTypes then sort and share them out.
//
// A record is a state, an instant event, a variable sample, a message send
// or a message receive (a message is two records, one per end, as in the
// trace). A record is in the window [Begin, End) when its time is (a
// state: when it overlaps the window, its duration clipped to it; a
// zero-length state: when its start is). With ClosedEnd the window is
// [Begin, End], so that a window ending at the trace end keeps the records
// stamped at the very end. See docs/statistics.md.
#pragma once

#include "TimeSlicing.h" // StateRows, PointRows, MessageRows

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

namespace macroscope
{

/// The kinds of records counted, the columns of the per-producer and
/// per-bin tallies.
enum RecordKind : int
{
  StateRecord = 0,
  EventRecord = 1, ///< instant events and variable samples
  SendRecord = 2,
  ReceiveRecord = 3
};
constexpr int RecordKinds = 4;

struct TraceStatisticsOptions
{
  double Begin = 0.0;
  double End = 1.0;
  /// Count records at End too (the window ends at the trace end).
  bool ClosedEnd = false;
  /// Event-density bins over [Begin, End].
  int Bins = 200;
  /// The producer of each leaf (location); empty: producer = leaf.
  std::vector<uint32_t> ProducerOfLeaf;
  uint32_t Leaves = 0;
  uint32_t Producers = 0; ///< ignored when ProducerOfLeaf is empty
  uint32_t Types = 0;     ///< rows of the Types table
  /// Called with the fraction done; returning false aborts
  /// (TraceStatisticsAborted).
  std::function<bool(double)> Progress;

  /// Throws std::invalid_argument unless Begin < End (finite), Bins >= 1 and
  /// ProducerOfLeaf maps every leaf below Producers.
  void Validate() const;
};

class TraceStatisticsAborted : public std::runtime_error
{
public:
  TraceStatisticsAborted()
    : std::runtime_error("trace statistics aborted")
  {
  }
};

/// Additive counts of the records of a window.
struct TraceTally
{
  uint32_t Producers = 0;
  uint32_t Types = 0;
  int Bins = 0;
  /// Records of producer p and kind k at p * RecordKinds + k.
  std::vector<int64_t> ProducerRecords;
  /// Seconds of each producer's outermost (depth 0) states, clipped to the
  /// window: the time its locations spent in traced states, summed.
  std::vector<double> ProducerStateTime;
  /// Per Types row: states, events or samples of that type in the window.
  std::vector<int64_t> TypeCount;
  /// Per Types row, states only: clipped durations, summed, smallest and
  /// largest (+inf and -inf while there are none).
  std::vector<double> TypeDuration;
  std::vector<double> TypeMinDuration;
  std::vector<double> TypeMaxDuration;
  /// Records of bin b and kind k at b * RecordKinds + k. A record falls in
  /// the bin of its time; a state in the bin of its start, or the first bin
  /// when it started before the window.
  std::vector<int64_t> Density;

  /// Adds the counts of other rows of the same trace and window.
  void Merge(const TraceTally& other);
};

/// Counts the rows. `events` are instant events (Type: Types row),
/// `variables` variable samples (Type: the variable's Types row); their
/// Value is not read. Throws std::invalid_argument on bad options, on a row
/// whose leaf or type is out of range, or on a state ending before it starts.
TraceTally TallyTrace(const TraceStatisticsOptions& options, const StateRows& states,
  const PointRows& events, const PointRows& variables, const MessageRows& messages);

/// One producer's line of the Pareto table.
struct ProducerStatistics
{
  uint32_t Producer = 0;             ///< index in the tally
  int64_t Records[RecordKinds] = {}; ///< by RecordKind
  int64_t Total = 0;
  double StateTime = 0.0;
  double RecordShare = 0.0;     ///< Total / all records
  double CumulativeShare = 0.0; ///< this and the busier producers' share
  double ProducerShare = 0.0;   ///< rank / producers
};

struct ProducerSummary
{
  /// Every producer, by decreasing Total (ties: producer order).
  std::vector<ProducerStatistics> Rows;
  /// The fewest producers that together make at least 80% of the records,
  /// and their share of the producers (both 0 when there is no record).
  uint32_t ProducersFor80Percent = 0;
  double ProducerShareFor80Percent = 0.0;
  int64_t Totals[RecordKinds] = {};
  int64_t TotalRecords = 0;
  double TotalStateTime = 0.0;
};

ProducerSummary SummarizeProducers(const TraceTally& tally);

/// One line of the types table. Type is a Types row, or MessageType for the
/// line counting the messages (sent in the window), which have no type.
struct TypeStatistics
{
  static constexpr uint32_t MessageType = UINT32_MAX;
  uint32_t Type = 0;
  int64_t Count = 0;
  double TotalDuration = 0.0; ///< states; 0 for other kinds
  double MeanDuration = 0.0;  ///< states with a count; NaN otherwise
  double MinDuration = 0.0;   ///< idem
  double MaxDuration = 0.0;   ///< idem
  double Share = 0.0;         ///< Count / the listed lines' counts
};

/// The lines of `listed` Types rows (and of the messages when
/// `withMessages`), by decreasing Count, then decreasing TotalDuration, then
/// increasing Types row (the message line last among equals). `isState[t]`
/// says whether Types row t is a state type, whose durations are reported.
std::vector<TypeStatistics> SummarizeTypes(const TraceTally& tally,
  const std::vector<uint32_t>& listed, const std::vector<bool>& isState, bool withMessages);

}
