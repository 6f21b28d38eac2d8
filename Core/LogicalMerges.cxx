// Logical time, stage 2b (LogicalTimeInternal.h): the merges of Ravel's
// phase options (docs/logical-time.md section 4): caller merge
// with main included, merge at a call depth, phases bounded by collectives.
// Each option contributes pairs of events that BuildPhases puts in one
// phase, on top of messages, collectives and MergeByEnclosingCall.
#include "LogicalTimeInternal.h"

#include <algorithm>
#include <numeric>

namespace macroscope::logical::detail
{
namespace
{

// The calls of each location as a tree: positions sorted by start (longer
// first on ties, then shallower), each with its enclosing call.
struct CallTree
{
  std::vector<std::size_t> Offset; // per location, into Row
  std::vector<int64_t> Row;        // state rows, by position
  std::vector<int64_t> Position;   // per state row
  std::vector<int64_t> Parent;     // per position, -1 for a root

  explicit CallTree(const TraceInput& in)
  {
    const std::size_t n = in.StateLocation.size();
    this->Offset.assign(std::size_t(in.Locations) + 1, 0);
    for (std::size_t i = 0; i < n; ++i)
    {
      ++this->Offset[in.StateLocation[i] + 1];
    }
    std::partial_sum(this->Offset.begin(), this->Offset.end(), this->Offset.begin());
    this->Row.resize(n);
    std::vector<std::size_t> next(this->Offset.begin(), this->Offset.end() - 1);
    for (std::size_t i = 0; i < n; ++i)
    {
      this->Row[next[in.StateLocation[i]]++] = int64_t(i);
    }
    for (uint32_t l = 0; l < in.Locations; ++l)
    {
      std::sort(this->Row.begin() + this->Offset[l], this->Row.begin() + this->Offset[l + 1],
        [&](int64_t a, int64_t b) {
          if (in.StateStart[a] != in.StateStart[b])
            return in.StateStart[a] < in.StateStart[b];
          if (in.StateEnd[a] != in.StateEnd[b])
            return in.StateEnd[a] > in.StateEnd[b];
          if (in.StateDepth[a] != in.StateDepth[b])
            return in.StateDepth[a] < in.StateDepth[b];
          return a < b;
        });
    }
    this->Position.assign(n, -1);
    this->Parent.assign(n, -1);
    std::vector<int64_t> stack; // positions whose call holds the current start
    for (uint32_t l = 0; l < in.Locations; ++l)
    {
      stack.clear();
      for (std::size_t p = this->Offset[l]; p < this->Offset[l + 1]; ++p)
      {
        this->Position[this->Row[p]] = int64_t(p);
        while (!stack.empty() && in.StateEnd[this->Row[stack.back()]] < in.StateEnd[this->Row[p]])
        {
          stack.pop_back();
        }
        this->Parent[p] = stack.empty() ? -1 : stack.back();
        stack.push_back(int64_t(p));
      }
    }
  }

  /// The innermost call of `location` holding time t, -1 if none.
  int64_t Innermost(const TraceInput& in, int32_t location, double t) const
  {
    const auto begin = this->Row.begin() + this->Offset[location];
    const auto end = this->Row.begin() + this->Offset[location + 1];
    const auto it = std::upper_bound(
      begin, end, t, [&](double time, int64_t row) { return time < in.StateStart[row]; });
    int64_t p = it == begin ? -1 : int64_t(it - this->Row.begin()) - 1;
    while (p >= 0 && in.StateEnd[this->Row[p]] < t)
    {
      p = this->Parent[p];
    }
    return p;
  }

  /// The position an event's callers are searched from: its own call, or
  /// for an instant the call holding it (which then counts as a caller).
  int64_t Start(const CommGraph& g, const TraceInput& in, std::size_t e) const
  {
    return g.State[e] >= 0 ? this->Position[g.State[e]] : this->Innermost(in, g.Location[e], g.Enter[e]);
  }
};

// Ravel's least multiple caller of every event (its "caller merge"): the
// nearest call, the event's own included, whose function (state type) holds
// at least two communication events in one of its calls; a collective
// counts as two, as in Ravel. -1 when there is none.
std::vector<int64_t> LeastMultipleCaller(const CommGraph& g, const TraceInput& in, const CallTree& tree)
{
  std::vector<uint32_t> below(tree.Row.size(), 0);
  for (std::size_t e = 0; e < g.size(); ++e)
  {
    const int64_t start = tree.Start(g, in, e);
    const uint32_t weight = g.Kind[e] == EventKind::Collective ? 2 : 1;
    // A call counts the events beneath it, not itself.
    for (int64_t p = g.State[e] >= 0 && start >= 0 ? tree.Parent[start] : start; p >= 0;
         p = tree.Parent[p])
    {
      below[p] += weight;
    }
  }
  std::vector<uint32_t> ofType(in.CommunicationType.size(), 0);
  for (std::size_t p = 0; p < tree.Row.size(); ++p)
  {
    uint32_t& most = ofType[in.StateType[tree.Row[p]]];
    most = std::max(most, below[p]);
  }
  std::vector<int64_t> caller(g.size(), -1);
  for (std::size_t e = 0; e < g.size(); ++e)
  {
    int64_t p = tree.Start(g, in, e);
    while (p >= 0 && ofType[in.StateType[tree.Row[p]]] <= 1)
    {
      p = tree.Parent[p];
    }
    caller[e] = p;
  }
  return caller;
}

// The call at `depth` enclosing every event (its own call excluded), -1 if none.
std::vector<int64_t> CallAtDepth(
  const CommGraph& g, const TraceInput& in, const CallTree& tree, int32_t depth)
{
  std::vector<int64_t> call(g.size(), -1);
  for (std::size_t e = 0; e < g.size(); ++e)
  {
    int64_t p = tree.Start(g, in, e);
    p = g.State[e] >= 0 && p >= 0 ? tree.Parent[p] : p;
    while (p >= 0 && in.StateDepth[tree.Row[p]] > depth)
    {
      p = tree.Parent[p];
    }
    call[e] = p >= 0 && in.StateDepth[tree.Row[p]] == depth ? p : -1;
  }
  return call;
}

} // namespace

void PlanMerges(CommGraph& g, const TraceInput& in, const Options& options)
{
  g.OptionMerges.clear();
  if (!options.PhaseBoundaries.empty())
  {
    return;
  }
  const auto consecutive = [&g](const auto& join) {
    for (std::size_t e = 0; e < g.size(); ++e)
    {
      const int64_t next = g.Next(e);
      if (next >= 0 && join(e, std::size_t(next)))
      {
        g.OptionMerges.emplace_back(int64_t(e), next);
      }
    }
  };
  if (options.MergeByCaller || options.MergeDepth >= 0)
  {
    const CallTree tree(in);
    if (options.MergeByCaller)
    {
      // Ravel stitches a location's consecutive events only: main's two
      // barriers stay apart when other callers' events lie between them.
      const std::vector<int64_t> caller = LeastMultipleCaller(g, in, tree);
      consecutive([&](std::size_t a, std::size_t b) { return caller[a] >= 0 && caller[a] == caller[b]; });
    }
    if (options.MergeDepth >= 0)
    {
      // A call at one depth holds a contiguous run of its location's events.
      const std::vector<int64_t> call = CallAtDepth(g, in, tree, options.MergeDepth);
      consecutive([&](std::size_t a, std::size_t b) { return call[a] >= 0 && call[a] == call[b]; });
    }
  }
  if (options.CollectiveBoundaries)
  {
    const std::vector<bool>& types = options.BoundaryTypes;
    const auto boundary = [&](std::size_t e) {
      return g.Kind[e] == EventKind::Collective &&
        (types.empty() || (g.Type[e] >= 0 && std::size_t(g.Type[e]) < types.size() && types[g.Type[e]]));
    };
    consecutive([&](std::size_t, std::size_t b) { return !boundary(b); });
  }
}

}
