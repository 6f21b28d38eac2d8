#include "QualityCurvePick.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace macroscope
{

QualityCurvePick::QualityCurvePick(std::vector<double> starts)
  : Starts(std::move(starts))
{
}

std::size_t QualityCurvePick::IntervalAt(double p) const
{
  // The last start at or before p; starts[0] = 0 holds every p <= 0.
  const auto after = std::upper_bound(this->Starts.begin() + 1, this->Starts.end(), p);
  return static_cast<std::size_t>(after - this->Starts.begin()) - 1;
}

double QualityCurvePick::Pick(double p, double snap) const
{
  p = std::min(1.0, std::max(0.0, p));
  const double rounded = std::round(p * 1000.0) / 1000.0;
  if (this->Starts.empty())
  {
    return rounded;
  }
  const std::size_t k = this->IntervalAt(p);
  // 0 and 1 bound the domain: they are not breakpoints.
  const bool nearLeft = k > 0 && p - this->Start(k) <= snap;
  const bool nearRight = k + 1 < this->Count() && this->End(k) - p <= snap;
  if (nearLeft || nearRight)
  {
    return this->Middle(k);
  }
  const bool inside = (k == 0 ? rounded >= 0.0 : rounded > this->Start(k)) &&
    (k + 1 == this->Count() ? rounded <= 1.0 : rounded < this->End(k));
  return inside ? rounded : p;
}

double QualityCurvePick::Step(double p, int steps) const
{
  if (this->Starts.empty())
  {
    return p;
  }
  const long target = static_cast<long>(this->IntervalAt(p)) + steps;
  const long last = static_cast<long>(this->Count()) - 1;
  return this->Middle(static_cast<std::size_t>(std::min(last, std::max(0L, target))));
}

}
