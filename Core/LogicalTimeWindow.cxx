#include "LogicalTimeWindow.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace macroscope
{

std::pair<int64_t, int64_t> StepsOfTimeWindow(const std::vector<int64_t>& globalStep,
  const std::vector<double>& enter, const std::vector<double>& exit, double begin, double end)
{
  if (enter.size() != globalStep.size() || exit.size() != globalStep.size())
  {
    throw std::invalid_argument("the GlobalStep, Enter and Exit columns differ in length");
  }
  if (std::isnan(begin) || std::isnan(end) || !(end > begin))
  {
    throw std::invalid_argument("the time window must have a start before its end");
  }
  std::pair<int64_t, int64_t> steps{ 0, -1 };
  bool found = false;
  for (std::size_t e = 0; e < globalStep.size(); ++e)
  {
    const double a = enter[e];
    const double b = exit[e];
    if (!std::isfinite(a) || !std::isfinite(b))
    {
      continue;
    }
    const bool in = a < b ? (a < end && b > begin) : (a >= begin && (a < end || std::isinf(end)));
    if (!in)
    {
      continue;
    }
    steps.first = found ? std::min(steps.first, globalStep[e]) : globalStep[e];
    steps.second = found ? std::max(steps.second, globalStep[e]) : globalStep[e];
    found = true;
  }
  return steps;
}

}
