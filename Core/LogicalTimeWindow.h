// The global steps a physical time window covers in a logical view: the
// steps of the logical events that lie in the window (Ravel's step <-> time
// map, Isaacs et al. 2014 (Ravel) §4, read from the Logical Events themselves so that
// it also works on a lone events table).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace macroscope
{

/// The first and last global step of the events in the window [begin, end)
/// (seconds), or {0, -1} when none is. An event [enter, exit] is in it when
/// it overlaps it for a positive time (enter < end and exit > begin); a
/// zero-length event when its instant is in [begin, end). An infinite end
/// reaches the end of the trace inclusively (an instant at the last time
/// counts). Events with a non-finite enter or exit are skipped. The same
/// rule as Active Producers' (docs/zoom-and-filter.md).
/// Throws std::invalid_argument for columns of different lengths, a NaN
/// bound or end <= begin.
std::pair<int64_t, int64_t> StepsOfTimeWindow(const std::vector<int64_t>& globalStep,
  const std::vector<double>& enter, const std::vector<double>& exit, double begin, double end);

}
