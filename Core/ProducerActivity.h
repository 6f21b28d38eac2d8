// Which event producers (locations, or the vertices of a hierarchy level)
// have records in a time window: FrameSoC's "active / idle producers"
// filter (Pagano et al. 2013 (FrameSoC) §V-C), used to narrow a model's resources before it is
// re-built on them (Ocelotl's zoom as a re-run, Dosimont et al. 2015 (Ocelotl) §4.1.2–4.1.3).
//
// The window is half-open, [Begin, End): a record counts for a location
//  - a state when it overlaps the window for a positive time
//    (start < End and end > Begin), or, lasting zero time, when its start is
//    in the window;
//  - an event or a variable sample when its time is in the window;
//  - a message for its sender when the send time is in the window, and for
//    its receiver when the receive time is.
// End = +infinity makes the window reach past the last record.
#pragma once

#include "TimeSlicing.h" // StateRows, PointRows, MessageRows

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

namespace macroscope
{

/// Records in the window, per location or per producer.
struct ActivityCounts
{
  std::vector<uint64_t> States;
  std::vector<uint64_t> Events;
  std::vector<uint64_t> Variables;
  std::vector<uint64_t> Messages; ///< sends plus receives

  explicit ActivityCounts(std::size_t size = 0)
    : States(size, 0)
    , Events(size, 0)
    , Variables(size, 0)
    , Messages(size, 0)
  {
  }
  std::size_t Size() const { return this->States.size(); }
  uint64_t Total(std::size_t i) const
  {
    return this->States[i] + this->Events[i] + this->Variables[i] + this->Messages[i];
  }
};

class ActivityAborted : public std::runtime_error
{
public:
  ActivityAborted()
    : std::runtime_error("activity count aborted")
  {
  }
};

struct ActivityWindow
{
  double Begin = 0.0;
  double End = 0.0; ///< excluded; +infinity for "to the end of the trace"
  /// Throws std::invalid_argument unless Begin < End and Begin is finite.
  void Validate() const;
  bool Contains(double time) const { return time >= this->Begin && time < this->End; }
  /// The rule for states stated at the top of this file.
  bool Overlaps(double start, double end) const
  {
    return start == end ? this->Contains(start) : start < this->End && end > this->Begin;
  }
};

/// Counts the records of every location (leaf index 0..leaves-1) in the
/// window. Any of the row sets may be empty (Count 0). `progress` (may be
/// empty) is called with the fraction done; returning false aborts
/// (ActivityAborted). Throws std::invalid_argument on a row whose location
/// is out of range.
ActivityCounts CountLeafActivity(uint32_t leaves, const ActivityWindow& window,
  const StateRows& states, const PointRows& events, const PointRows& variables,
  const MessageRows& messages, const std::function<bool(double)>& progress = {});

/// The counts of the producers: the sum over the locations of each
/// (`producerOfLeaf`, as ResourceHierarchy::ResourceOfLeaf; NoResource
/// leaves are skipped).
ActivityCounts SumByProducer(
  const ActivityCounts& leaves, const std::vector<uint32_t>& producerOfLeaf, uint32_t producers);

/// The producers whose total is at least `minimumRecords` (active), or
/// below it (idle), in producer order.
std::vector<uint32_t> ProducersWithActivity(
  const ActivityCounts& producers, bool active, uint64_t minimumRecords);

}
