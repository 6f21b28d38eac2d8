// Logical time, metrics (LogicalTimeInternal.h): differential lateness over
// any lateness, and Ravel's per-phase lateness (Isaacs et al. 2014 (Ravel) §3.2;
// docs/logical-time.md section 7).
#include "LogicalTimeInternal.h"

#include <algorithm>
#include <limits>

namespace macroscope::logical::detail
{

std::vector<double> DifferentialOf(const CommGraph& g, const std::vector<double>& lateness)
{
  // What an event adds to the lateness it inherits from its predecessors
  // (none: it inherits 0). Rows 2e (aggregate) and 2e + 1 (event e).
  std::vector<double> differential(lateness.size());
  for (std::size_t e = 0; e < g.size(); ++e)
  {
    const std::size_t a = 2 * e, c = 2 * e + 1;
    const int64_t previous = g.Previous(e);
    const double before = previous >= 0 ? lateness[2 * previous + 1] : 0.0;
    differential[a] = std::max(0.0, lateness[a] - before);
    double inherited = lateness[a];
    for (std::size_t i = g.InOffset[e]; i < g.InOffset[e + 1]; ++i)
    {
      const int64_t m = g.In[i];
      if (!g.Dropped[m])
      {
        inherited = std::max(inherited, lateness[2 * g.SendEvent[m] + 1]);
      }
    }
    differential[c] = std::max(0.0, lateness[c] - inherited);
  }
  return differential;
}

std::vector<double> PhaseLatenessOf(const LogicalEvents& ev)
{
  // The global steps of each phase, [first, last], as offsets into one flat
  // array of earliest exits: a phase spans at most twice its events' steps.
  int32_t phases = 0;
  for (std::size_t r = 0; r < ev.size(); ++r)
  {
    phases = std::max(phases, ev.Phase[r] + 1);
  }
  std::vector<int64_t> first(phases, std::numeric_limits<int64_t>::max());
  std::vector<int64_t> last(phases, -1);
  for (std::size_t r = 0; r < ev.size(); ++r)
  {
    first[ev.Phase[r]] = std::min(first[ev.Phase[r]], ev.GlobalStep[r]);
    last[ev.Phase[r]] = std::max(last[ev.Phase[r]], ev.GlobalStep[r]);
  }
  std::vector<std::size_t> offset(std::size_t(phases) + 1, 0);
  for (int32_t p = 0; p < phases; ++p)
  {
    offset[p + 1] = offset[p] + (last[p] >= first[p] ? std::size_t(last[p] - first[p] + 1) : 0);
  }
  const auto slot = [&](std::size_t r)
  { return offset[ev.Phase[r]] + std::size_t(ev.GlobalStep[r] - first[ev.Phase[r]]); };
  std::vector<double> earliest(offset.back(), std::numeric_limits<double>::infinity());
  for (std::size_t r = 0; r < ev.size(); ++r)
  {
    earliest[slot(r)] = std::min(earliest[slot(r)], ev.Exit[r]);
  }
  std::vector<double> lateness(ev.size());
  for (std::size_t r = 0; r < ev.size(); ++r)
  {
    lateness[r] = ev.Exit[r] - earliest[slot(r)];
  }
  return lateness;
}

}
