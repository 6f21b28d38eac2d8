// Logical time, stage 2b (LogicalTimeInternal.h): the merges of Ravel's
// phase options (docs/logical-time.md section 4): caller merge
// with main included, merge at a call depth, phases bounded by collectives.
// Each option contributes pairs of events that BuildPhases puts in one
// phase, on top of messages, collectives and MergeByEnclosingCall.
#include "LogicalTimeInternal.h"

#include <algorithm>

namespace macroscope::logical::detail
{
namespace
{

// The calls of each location as a forest (StateForest), with the position
// of every call, to search an event's enclosing calls from.
struct CallTree
{
  StateForest Forest;
  std::vector<int64_t> Position; // per state row

  explicit CallTree(const TraceInput& in)
    : Forest(in)
    , Position(Forest.Positions())
  {
  }

  /// The position an event's callers are searched from: its own call, or
  /// for an instant the call holding it (which then counts as a caller).
  int64_t Start(const CommGraph& g, std::size_t e) const
  {
    return g.State[e] >= 0 ? this->Position[g.State[e]]
                           : this->Forest.Innermost(g.Location[e], g.Enter[e]);
  }
};

// Ravel's least multiple caller of every event (its "caller merge"): the
// nearest call, the event's own included, whose function (state type) holds
// at least two communication events in one of its calls; a collective
// counts as two, as in Ravel. -1 when there is none.
std::vector<int64_t> LeastMultipleCaller(
  const CommGraph& g, const TraceInput& in, const CallTree& tree)
{
  std::vector<uint32_t> below(tree.Forest.Order.size(), 0);
  for (std::size_t e = 0; e < g.size(); ++e)
  {
    const int64_t start = tree.Start(g, e);
    const uint32_t weight = g.Kind[e] == EventKind::Collective ? 2 : 1;
    // A call counts the events beneath it, not itself.
    for (int64_t p = g.State[e] >= 0 && start >= 0 ? tree.Forest.Parent[start] : start; p >= 0;
         p = tree.Forest.Parent[p])
    {
      below[p] += weight;
    }
  }
  std::vector<uint32_t> ofType(in.CommunicationType.size(), 0);
  for (std::size_t p = 0; p < tree.Forest.Order.size(); ++p)
  {
    uint32_t& most = ofType[in.StateType[tree.Forest.Order[p]]];
    most = std::max(most, below[p]);
  }
  std::vector<int64_t> caller(g.size(), -1);
  for (std::size_t e = 0; e < g.size(); ++e)
  {
    int64_t p = tree.Start(g, e);
    while (p >= 0 && ofType[in.StateType[tree.Forest.Order[p]]] <= 1)
    {
      p = tree.Forest.Parent[p];
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
    int64_t p = tree.Start(g, e);
    p = g.State[e] >= 0 && p >= 0 ? tree.Forest.Parent[p] : p;
    while (p >= 0 && in.StateDepth[tree.Forest.Order[p]] > depth)
    {
      p = tree.Forest.Parent[p];
    }
    call[e] = p >= 0 && in.StateDepth[tree.Forest.Order[p]] == depth ? p : -1;
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
  const auto consecutive = [&g](const auto& join)
  {
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
      consecutive(
        [&](std::size_t a, std::size_t b) { return caller[a] >= 0 && caller[a] == caller[b]; });
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
    const auto boundary = [&](std::size_t e)
    {
      return g.Kind[e] == EventKind::Collective &&
        (types.empty() ||
          (g.Type[e] >= 0 && std::size_t(g.Type[e]) < types.size() && types[g.Type[e]]));
    };
    consecutive([&](std::size_t, std::size_t b) { return !boundary(b); });
  }
}

}
