// Logical time, stage 1 (LogicalTimeInternal.h): MPI_Sendrecv exchanges.
// A Sendrecv sends and receives in one call, so two partners exchanging
// with Sendrecv each receive from the other's call: as events, A -> B and
// B -> A, a cycle that would otherwise cost a message. Ravel lines up the
// sends of a send-then-receive pair on one step; a Sendrecv is such a pair
// in one call, so the partners' calls share one step, contracted like the
// members of a collective. See docs/logical-time.md, section 2.
#include "LogicalTimeInternal.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

#include <algorithm>
#include <numeric>

namespace macroscope::logical::detail
{
namespace
{

using Digraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

// Strong components of `vertices` vertices: the component of every vertex.
std::vector<std::size_t> Components(
  std::size_t vertices, const std::vector<std::pair<int64_t, int64_t>>& arcs, std::size_t& count)
{
  Digraph graph(vertices);
  for (const auto& arc : arcs)
  {
    boost::add_edge(std::size_t(arc.first), std::size_t(arc.second), graph);
  }
  std::vector<std::size_t> component(vertices);
  count = boost::strong_components(graph,
    boost::make_iterator_property_map(component.begin(), boost::get(boost::vertex_index, graph)));
  return component;
}

bool IsExchangeMember(const CommGraph& g, int64_t e)
{
  return g.Kind[e] == EventKind::SendReceive && g.Collective[e] < 0;
}

} // namespace

void ContractSendrecvExchanges(CommGraph& g, UnionFind& contraction, Diagnostics& report)
{
  // The messages from one SendReceive event to another, on local ids.
  std::vector<int64_t> local(g.size(), -1);
  std::vector<int64_t> events;
  std::vector<std::pair<int64_t, int64_t>> arcs;
  const auto id = [&](int64_t e)
  {
    if (local[e] < 0)
    {
      local[e] = int64_t(events.size());
      events.push_back(e);
    }
    return local[e];
  };
  for (std::size_t m = 0; m < g.SendEvent.size(); ++m)
  {
    const int64_t s = g.SendEvent[m], r = g.RecvEvent[m];
    if (s != r && IsExchangeMember(g, s) && IsExchangeMember(g, r))
    {
      arcs.emplace_back(id(s), id(r));
    }
  }
  if (arcs.empty())
  {
    return;
  }
  std::size_t count = 0;
  const std::vector<std::size_t> component = Components(events.size(), arcs, count);
  std::vector<std::vector<int64_t>> members(count);
  for (std::size_t v = 0; v < events.size(); ++v)
  {
    members[component[v]].push_back(events[v]);
  }
  std::vector<int32_t> locations;
  for (const std::vector<int64_t>& group : members)
  {
    // Two calls of one location on a cycle of messages: only clock skew
    // does that, and BreakCycles deals with it.
    locations.clear();
    for (const int64_t e : group)
    {
      locations.push_back(g.Location[e]);
    }
    std::sort(locations.begin(), locations.end());
    if (group.size() < 2 ||
      std::adjacent_find(locations.begin(), locations.end()) != locations.end())
    {
      continue;
    }
    for (std::size_t i = 1; i < group.size(); ++i)
    {
      contraction.Union(std::size_t(group[0]), std::size_t(group[i]));
    }
    ++report.SendrecvExchanges;
  }
}

void SplitContradictedExchanges(CommGraph& g, const TraceInput& in, Diagnostics& report)
{
  if (report.SendrecvExchanges == 0)
  {
    return;
  }
  // The node graph without the messages received before they were sent
  // (BreakCycles drops those first): a cycle left through an exchange
  // means its calls cannot share a step.
  std::vector<std::pair<int64_t, int64_t>> arcs;
  for (std::size_t e = 0; e < g.size(); ++e)
  {
    const int64_t next = g.Next(e);
    if (next >= 0 && g.Node[e] != g.Node[next])
    {
      arcs.emplace_back(g.Node[e], g.Node[next]);
    }
  }
  for (std::size_t m = 0; m < g.SendEvent.size(); ++m)
  {
    const int64_t from = g.Node[g.SendEvent[m]], to = g.Node[g.RecvEvent[m]];
    if (from != to && in.RecvTime[m] >= in.SendTime[m])
    {
      arcs.emplace_back(from, to);
    }
  }
  const std::size_t nodes = g.NodeCount();
  std::size_t count = 0;
  const std::vector<std::size_t> component = Components(nodes, arcs, count);
  std::vector<std::size_t> size(count, 0);
  for (std::size_t v = 0; v < nodes; ++v)
  {
    ++size[component[v]];
  }
  int64_t fresh = int64_t(nodes);
  bool split = false;
  for (std::size_t v = 0; v < nodes; ++v)
  {
    const std::size_t first = g.MemberOffset[v], last = g.MemberOffset[v + 1];
    if (size[component[v]] < 2 || last - first < 2 || !IsExchangeMember(g, g.Members[first]))
    {
      continue;
    }
    for (std::size_t i = first + 1; i < last; ++i)
    {
      g.Node[g.Members[i]] = fresh++;
    }
    ++report.SplitExchanges;
    split = true;
  }
  if (split)
  {
    g.CompactNodes();
  }
}

}
