// Evenly spread progress for a loop, and an abort heard within it
// (docs/progress.md).
#pragma once

#include <cstddef>
#include <functional>
#include <utility>

namespace macroscope
{

/// Maps the iterations 0..n-1 of a loop onto the fractions [lo, hi] of the
/// whole execution and calls `report` at `reports` evenly spread iterations
/// (every ceil(n / reports)-th), so that an algorithm reports the same
/// number of values whatever its input's size, and hears an abort (the
/// callback returning false) within 1/reports of the loop. Between reports
/// a step costs one comparison.
///
///   ProgressSpan span(progress, 0.1, 0.7, rows.size());
///   for (std::size_t i = 0; i < rows.size(); ++i)
///   {
///     if (!span.At(i)) { return aborted; }
///     ...
///   }
class ProgressSpan
{
public:
  /// The usual number of reports per loop: enough for a smooth bar (ParaView
  /// asks for at least 20 per execution) at a negligible cost.
  static constexpr std::size_t DefaultReports = 50;

  ProgressSpan(std::function<bool(double)> report, double lo, double hi, std::size_t n,
    std::size_t reports = DefaultReports)
    : Report(std::move(report))
    , Lo(lo)
    , Hi(hi)
    , Count(n)
    , Every(n == 0 || reports == 0 ? 1 : (n + reports - 1) / reports)
    , Next(0)
  {
  }

  /// Call at the start of iteration i (increasing). Returns false once the
  /// callback asked to stop.
  bool At(std::size_t i)
  {
    if (i < this->Next)
    {
      return true;
    }
    this->Next = i + this->Every;
    return this->Send(this->Count == 0
        ? this->Hi
        : this->Lo + (this->Hi - this->Lo) * double(i) / double(this->Count));
  }

  /// Reports the end of the span (hi). Returns false once the callback asked to stop.
  bool Done() { return this->Send(this->Hi); }

private:
  bool Send(double fraction) const { return !this->Report || this->Report(fraction); }

  std::function<bool(double)> Report;
  double Lo;
  double Hi;
  std::size_t Count;
  std::size_t Every;
  std::size_t Next;
};

}
