// Choosing p on Ocelotl's quality curves, for the GUI's parameter panel
// (docs/parameter-panel.md): the interval of p a value is in, the p a click
// picks, and the p of a neighbouring partition for the keyboard.
#pragma once

#include <cstddef>
#include <vector>

namespace macroscope
{

/// The intervals of p over which each distinct optimal partition is
/// optimal: interval k is [Start(k), End(k)), from the sweep's breakpoints
/// (PStart of the Quality Curves), the first starting at 0 and the last
/// ending at 1.
class QualityCurvePick
{
public:
  /// `starts`: increasing, starts[0] = 0 (the Quality Curves' PStart).
  explicit QualityCurvePick(std::vector<double> starts);

  std::size_t Count() const { return this->Starts.size(); }
  double Start(std::size_t k) const { return this->Starts[k]; }
  double End(std::size_t k) const
  {
    return k + 1 < this->Starts.size() ? this->Starts[k + 1] : 1.0;
  }
  double Middle(std::size_t k) const { return 0.5 * (this->Start(k) + this->End(k)); }

  /// The interval holding p (clamped to [0, 1]); on a breakpoint, the one
  /// that starts there. Count() must be positive.
  std::size_t IntervalAt(double p) const;

  /// The p a click at `p` picks, `snap` being how close to a breakpoint (in
  /// units of p: a few pixels) a click counts as on it. Within `snap` of a
  /// breakpoint, the middle of the interval under the pointer: at a
  /// breakpoint two partitions tie and which one the filter outputs depends
  /// on rounding, so a click there would give either; the middle gives the
  /// partition drawn under the pointer, and one the sweep holds (no DP).
  /// Elsewhere the clicked p, rounded to 0.001 when that stays inside the
  /// same interval. Without curves, the clicked p clamped and rounded.
  double Pick(double p, double snap) const;

  /// The middle of the interval `steps` intervals after (negative: before)
  /// the one holding p, clamped to the first and last: the keyboard moves
  /// from one partition to the next. Without curves, p.
  double Step(double p, int steps) const;

private:
  std::vector<double> Starts;
};

}
