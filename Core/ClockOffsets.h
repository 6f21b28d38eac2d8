// Unsynchronised clocks (docs/logical-time.md "Unsynchronised
// clocks"): when every process stamps its events with its own time origin
// (EZTrace without synchronisation), lateness measures the offsets rather
// than the delays. This detects it from messages received before they were
// sent, estimates one constant offset per clock from the messages or from
// the collectives, and subtracts it. VTK-free; the Logical Time filter's
// ClockCorrection property uses it.
#pragma once

#include "LogicalTime.h"

#include <cstdint>
#include <vector>

namespace macroscope::logical
{

/// Messages from one clock to another, and how many arrived before they left.
struct ClockPair
{
  int32_t Sender = 0; // clocks (ClockOf)
  int32_t Receiver = 0;
  uint64_t Messages = 0;
  uint64_t Violations = 0; // RecvTime < SendTime
  double Largest = 0.0;    // the largest SendTime - RecvTime among them (s)
};

struct ClockReport
{
  uint64_t Messages = 0;
  uint64_t Violations = 0;
  double Largest = 0.0;
  /// The pairs with at least one violation, most violations first.
  std::vector<ClockPair> Pairs;
};

/// Where the constant offsets are estimated from.
enum class ClockSource : uint8_t
{
  /// Per ordered pair of clocks, the least observed delay (RecvTime -
  /// SendTime) is taken as one common network latency plus the offset
  /// difference; least squares over all pairs (with the latency as one more
  /// unknown when the pairs close a cycle: two-way pairs give the classic
  /// half-difference of the round trip).
  Messages = 0,
  /// The members of a collective operation leave it together (MPI's
  /// synchronising collectives: nobody leaves before the last entered):
  /// per pair of clocks, the median difference of their exits.
  Collectives = 1,
};

/// Either way, the offsets are then moved as little as cyclic projections
/// do until no message is received before it is sent (corrected).
struct ClockEstimate
{
  /// Per clock: seconds to subtract from its times. The lowest clock of
  /// every connected group is the reference (0); clocks no message or
  /// collective ties to another keep 0.
  std::vector<double> Offset;
  /// ClockSource::Messages: the common latency estimated (0 when the pairs
  /// close no cycle, which leaves it undetermined).
  double Latency = 0.0;
  /// Clocks with no equation at all.
  uint32_t Unconstrained = 0;
  /// Pairs of clocks the estimate used.
  uint64_t Pairs = 0;
};

/// `clockOf`: per location, its clock (e.g. its process: threads share the
/// process's clock), in [0, clocks); empty: every location is its own clock.
/// Throws std::invalid_argument for a clockOf of the wrong length or a
/// negative clock.
ClockReport CheckClocks(const TraceInput& input, const std::vector<int32_t>& clockOf = {});

ClockEstimate EstimateClockOffsets(
  const TraceInput& input, ClockSource source, const std::vector<int32_t>& clockOf = {});

/// Subtracts every location's clock offset from its state, message and
/// collective times.
void ApplyClockOffsets(
  TraceInput& input, const std::vector<double>& offset, const std::vector<int32_t>& clockOf = {});

}
