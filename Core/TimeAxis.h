// Ticks and labels of a time axis in seconds: "nice" steps (1, 2 or 5 times
// a power of ten) and labels in the SI unit that suits the axis, with the
// decimals that the step needs, so that neighbouring labels always differ
// and read naturally (12.5 ms, not 0.0125). Used by the timeline representations.
#pragma once

#include <string>
#include <vector>

namespace macroscope
{

struct TimeTicks
{
  double Step = 0.0;         ///< seconds between ticks
  std::vector<double> Times; ///< tick times within [t0, t1], increasing
  std::vector<std::string> Labels;
};

/// About `approximateCount` ticks (at least 1) over [t0, t1]: the step is
/// the nice number closest above (t1 - t0) / approximateCount, or a smaller
/// one when no multiple of that step falls in the window. Throws
/// std::invalid_argument unless t0 < t1 are finite.
TimeTicks ComputeTimeTicks(double t0, double t1, int approximateCount);

/// `seconds` written in the unit (s, ms, µs or ns) of `magnitude`, the
/// largest time on the axis, with just the decimals that `step` needs, e.g.
/// (0.0125, 0.0005, 0.02) → "12.5 ms".
std::string FormatSeconds(double seconds, double step, double magnitude);

/// The unit FormatSeconds writes for an axis whose largest time is
/// `magnitude`: "s", "ms", "µs" or "ns" (UTF-8), for axis titles that name
/// the unit of their ticks.
std::string SecondsUnit(double magnitude);

}
