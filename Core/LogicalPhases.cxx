// Logical time, stages 2 and 3 (LogicalTimeInternal.h): an acyclic
// happened-before graph, its phases (Isaacs et al. 2014 (Ravel) §3.1) and the exchange
// patterns of the phases (sections 3.3.2 and 4.2.1).
#include "LogicalTimeInternal.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

#include <algorithm>
#include <array>
#include <functional>
#include <numeric>
#include <queue>
#include <stdexcept>
#include <tuple>

namespace macroscope::logical::detail
{
namespace
{

using Digraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

struct Edge
{
  int64_t From;
  int64_t To;
  int64_t Message; // -1: consecutive events of a location
};

std::vector<Edge> NodeEdges(const CommGraph& g)
{
  std::vector<Edge> edges;
  edges.reserve(g.size() + g.SendEvent.size());
  for (std::size_t e = 0; e < g.size(); ++e)
  {
    const int64_t next = g.Next(e);
    if (next >= 0 && g.Node[e] != g.Node[next])
    {
      edges.push_back({ g.Node[e], g.Node[next], -1 });
    }
  }
  for (std::size_t m = 0; m < g.SendEvent.size(); ++m)
  {
    const int64_t from = g.Node[g.SendEvent[m]], to = g.Node[g.RecvEvent[m]];
    if (!g.Dropped[m] && from != to)
    {
      edges.push_back({ from, to, int64_t(m) });
    }
  }
  return edges;
}

// Kahn's algorithm: true when every node gets removed.
bool Acyclic(std::size_t nodes, const std::vector<Edge>& edges)
{
  std::vector<std::size_t> offset(nodes + 1, 0);
  std::vector<uint32_t> indegree(nodes, 0);
  for (const Edge& e : edges)
  {
    ++offset[e.From + 1];
    ++indegree[e.To];
  }
  std::partial_sum(offset.begin(), offset.end(), offset.begin());
  std::vector<int64_t> targets(edges.size());
  std::vector<std::size_t> next(offset.begin(), offset.end() - 1);
  for (const Edge& e : edges)
  {
    targets[next[e.From]++] = e.To;
  }
  std::vector<int64_t> ready;
  for (std::size_t v = 0; v < nodes; ++v)
  {
    if (indegree[v] == 0)
    {
      ready.push_back(int64_t(v));
    }
  }
  std::size_t removed = 0;
  while (!ready.empty())
  {
    const int64_t v = ready.back();
    ready.pop_back();
    ++removed;
    for (std::size_t i = offset[v]; i < offset[v + 1]; ++i)
    {
      if (--indegree[targets[i]] == 0)
      {
        ready.push_back(targets[i]);
      }
    }
  }
  return removed == nodes;
}

// Strong components with Boost (Tarjan); returns the component of every vertex.
std::vector<int64_t> StrongComponents(
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
  return std::vector<int64_t>(component.begin(), component.end());
}

} // namespace

void BreakCycles(CommGraph& g, const TraceInput& in, Diagnostics& report)
{
  for (;;)
  {
    const std::vector<Edge> edges = NodeEdges(g);
    const std::size_t nodes = g.NodeCount();
    if (Acyclic(nodes, edges))
    {
      return;
    }
    std::vector<std::pair<int64_t, int64_t>> arcs;
    arcs.reserve(edges.size());
    for (const Edge& e : edges)
    {
      arcs.emplace_back(e.From, e.To);
    }
    std::size_t count = 0;
    const std::vector<int64_t> component = StrongComponents(nodes, arcs, count);
    // An edge inside a component lies on a cycle. Messages received before
    // they were sent (clock skew) are the likely culprits: drop them all.
    // Otherwise drop, per component, the message with the least time between
    // send and receive, and look again.
    bool dropped = false;
    std::vector<int64_t> tightest(count, -1);
    const auto slack = [&](int64_t m) { return in.RecvTime[m] - in.SendTime[m]; };
    for (const Edge& e : edges)
    {
      if (e.Message < 0 || component[e.From] != component[e.To])
      {
        continue;
      }
      if (slack(e.Message) < 0)
      {
        g.Dropped[e.Message] = 1;
        ++report.DroppedMessages;
        dropped = true;
      }
      int64_t& t = tightest[component[e.From]];
      t = t < 0 || slack(e.Message) < slack(t) ? e.Message : t;
    }
    if (!dropped)
    {
      for (const int64_t m : tightest)
      {
        if (m >= 0)
        {
          g.Dropped[m] = 1;
          ++report.DroppedMessages;
          dropped = true;
        }
      }
    }
    if (dropped)
    {
      continue;
    }
    // Only consecutive events and collectives left: the collectives met in
    // inconsistent orders. Step the members of those on a cycle separately.
    std::vector<std::size_t> size(count, 0);
    for (std::size_t v = 0; v < nodes; ++v)
    {
      ++size[component[v]];
    }
    int64_t fresh = int64_t(nodes);
    bool split = false;
    for (std::size_t v = 0; v < nodes; ++v)
    {
      const std::size_t members = g.MemberOffset[v + 1] - g.MemberOffset[v];
      if (size[component[v]] > 1 && members > 1)
      {
        ++report.SplitCollectives;
        split = true;
        for (std::size_t i = g.MemberOffset[v] + 1; i < g.MemberOffset[v + 1]; ++i)
        {
          g.Node[g.Members[i]] = fresh++;
        }
      }
    }
    if (!split)
    {
      // Timelines alone are chains: a cycle needs a message or a collective.
      throw std::logic_error("logical time: a happened-before cycle could not be broken");
    }
    g.CompactNodes();
  }
}

Phases BuildPhases(
  const CommGraph& g, const Options& options, Diagnostics& report, const ProgressGate& gate)
{
  const std::size_t nodes = g.NodeCount();
  const std::size_t messages = g.SendEvent.size();
  const bool boundaries = !options.PhaseBoundaries.empty();
  std::vector<int64_t> initial(nodes);
  if (!boundaries)
  {
    // Connected components of messages, collectives (already one node) and,
    // optionally, the calls of one enclosing function.
    UnionFind sets(nodes);
    for (std::size_t m = 0; m < messages; ++m)
    {
      sets.Union(std::size_t(g.Node[g.SendEvent[m]]), std::size_t(g.Node[g.RecvEvent[m]]));
    }
    if (options.MergeByEnclosingCall)
    {
      std::vector<std::pair<int64_t, int64_t>> calls; // (enclosing state, node)
      for (std::size_t e = 0; e < g.size(); ++e)
      {
        if (g.EnclosingCall[e] >= 0)
        {
          calls.emplace_back(g.EnclosingCall[e], g.Node[e]);
        }
      }
      std::sort(calls.begin(), calls.end());
      for (std::size_t i = 1; i < calls.size(); ++i)
      {
        if (calls[i].first == calls[i - 1].first)
        {
          sets.Union(std::size_t(calls[i - 1].second), std::size_t(calls[i].second));
        }
      }
    }
    // Ravel's further options (PlanMerges).
    for (const auto& pair : g.OptionMerges)
    {
      sets.Union(std::size_t(g.Node[pair.first]), std::size_t(g.Node[pair.second]));
    }
    for (std::size_t v = 0; v < nodes; ++v)
    {
      initial[v] = int64_t(sets.Find(v));
    }
  }
  else
  {
    // The interval of the boundaries holding the node's earliest enter.
    const std::vector<double>& b = options.PhaseBoundaries;
    for (std::size_t v = 0; v < nodes; ++v)
    {
      double enter = std::numeric_limits<double>::infinity();
      for (std::size_t i = g.MemberOffset[v]; i < g.MemberOffset[v + 1]; ++i)
      {
        enter = std::min(enter, g.Enter[g.Members[i]]);
      }
      initial[v] = int64_t(std::upper_bound(b.begin(), b.end(), enter) - b.begin());
    }
  }
  // Dense ids.
  std::vector<int64_t> dense(std::max<std::size_t>(nodes, options.PhaseBoundaries.size() + 1), -1);
  std::size_t count = 0;
  for (std::size_t v = 0; v < nodes; ++v)
  {
    int64_t& id = dense[initial[v]];
    if (id < 0)
    {
      id = int64_t(count++);
    }
    initial[v] = id;
  }
  gate.At(0.45);

  // The phase graph; its cycles merge (Ravel merges them with Tarjan too).
  std::vector<std::pair<int64_t, int64_t>> arcs;
  for (std::size_t e = 0; e < g.size(); ++e)
  {
    const int64_t next = g.Next(e);
    if (next >= 0 && initial[g.Node[e]] != initial[g.Node[next]])
    {
      arcs.emplace_back(initial[g.Node[e]], initial[g.Node[next]]);
    }
  }
  if (boundaries)
  {
    for (std::size_t m = 0; m < messages; ++m)
    {
      const int64_t from = initial[g.Node[g.SendEvent[m]]], to = initial[g.Node[g.RecvEvent[m]]];
      if (!g.Dropped[m] && from != to)
      {
        arcs.emplace_back(from, to);
      }
    }
  }
  std::sort(arcs.begin(), arcs.end());
  arcs.erase(std::unique(arcs.begin(), arcs.end()), arcs.end());
  std::size_t merged = 0;
  const std::vector<int64_t> component = StrongComponents(count, arcs, merged);
  report.MergedPhaseCycles += count - merged;

  // Topological order of the condensed DAG, earliest enter first among the ready.
  std::vector<double> earliest(merged, std::numeric_limits<double>::infinity());
  for (std::size_t e = 0; e < g.size(); ++e)
  {
    double& t = earliest[component[initial[g.Node[e]]]];
    t = std::min(t, g.Enter[e]);
  }
  std::vector<std::pair<int64_t, int64_t>> dag;
  for (const auto& arc : arcs)
  {
    const int64_t a = component[arc.first], b = component[arc.second];
    if (a != b)
    {
      dag.emplace_back(a, b);
    }
  }
  std::sort(dag.begin(), dag.end());
  dag.erase(std::unique(dag.begin(), dag.end()), dag.end());
  std::vector<std::size_t> offset(merged + 1, 0);
  std::vector<uint32_t> indegree(merged, 0);
  for (const auto& arc : dag)
  {
    ++offset[arc.first + 1];
    ++indegree[arc.second];
  }
  std::partial_sum(offset.begin(), offset.end(), offset.begin());
  using Ready = std::pair<double, int64_t>;
  std::priority_queue<Ready, std::vector<Ready>, std::greater<Ready>> ready;
  for (std::size_t c = 0; c < merged; ++c)
  {
    if (indegree[c] == 0)
    {
      ready.emplace(earliest[c], int64_t(c));
    }
  }
  std::vector<int32_t> number(merged, -1);
  int32_t next = 0;
  while (!ready.empty())
  {
    const int64_t c = ready.top().second;
    ready.pop();
    number[c] = next++;
    for (std::size_t i = offset[c]; i < offset[c + 1]; ++i)
    {
      const int64_t d = dag[i].second;
      if (--indegree[d] == 0)
      {
        ready.emplace(earliest[d], d);
      }
    }
  }
  Phases phases;
  phases.Count = int32_t(merged);
  phases.OfNode.resize(nodes);
  for (std::size_t v = 0; v < nodes; ++v)
  {
    phases.OfNode[v] = number[component[initial[v]]];
  }
  phases.Predecessors.resize(merged);
  for (const auto& arc : dag)
  {
    phases.Predecessors[number[arc.second]].push_back(number[arc.first]);
  }
  return phases;
}

std::vector<ExchangePattern> DetectExchanges(const CommGraph& g, const Phases& phases)
{
  std::vector<ExchangePattern> pattern(phases.Count, ExchangePattern::None);
  // Events grouped by phase, by location and in time order within a phase.
  std::vector<std::size_t> offset(std::size_t(phases.Count) + 1, 0);
  for (std::size_t e = 0; e < g.size(); ++e)
  {
    ++offset[phases.OfNode[g.Node[e]] + 1];
  }
  std::partial_sum(offset.begin(), offset.end(), offset.begin());
  std::vector<int64_t> order(g.size());
  std::vector<std::size_t> next(offset.begin(), offset.end() - 1);
  for (std::size_t e = 0; e < g.size(); ++e)
  {
    order[next[phases.OfNode[g.Node[e]]]++] = int64_t(e);
  }

  std::vector<int32_t> to, from;
  for (int32_t p = 0; p < phases.Count; ++p)
  {
    // Per flavour (Alternating, SendsThenReceives, ReceivesWaitall): the
    // locations whose sequence of events fits it.
    std::array<std::size_t, 4> fits{};
    std::size_t locations = 0;
    bool exchange = true;
    for (std::size_t i = offset[p]; i < offset[p + 1] && exchange;)
    {
      const int32_t location = g.Location[order[i]];
      std::size_t j = i;
      to.clear();
      from.clear();
      bool alternating = true, sendsFirst = true, singleReceives = true;
      std::size_t sends = 0, receives = 0; // events
      int last = -1;                       // 0 send, 1 receive
      for (; j < offset[p + 1] && g.Location[order[j]] == location; ++j)
      {
        const int64_t e = order[j];
        const EventKind kind = g.Kind[e];
        if (kind == EventKind::Collective)
        {
          exchange = false;
        }
        for (std::size_t k = g.OutOffset[e]; k < g.OutOffset[e + 1]; ++k)
        {
          to.push_back(g.Location[g.RecvEvent[g.Out[k]]]);
        }
        for (std::size_t k = g.InOffset[e]; k < g.InOffset[e + 1]; ++k)
        {
          from.push_back(g.Location[g.SendEvent[g.In[k]]]);
        }
        // A SendReceive is a send followed by a receive.
        const bool sendsHere = kind == EventKind::Send || kind == EventKind::SendReceive;
        const bool receivesHere = kind == EventKind::Receive || kind == EventKind::SendReceive;
        if (sendsHere)
        {
          // Several sends in one event (coalesced Isends) are sends in a row.
          alternating = alternating && last != 0 && g.Sends[e] <= 1;
          sendsFirst = sendsFirst && receives == 0 && kind == EventKind::Send;
          last = 0;
          ++sends;
        }
        if (receivesHere)
        {
          alternating = alternating && last != 1;
          sendsFirst = sendsFirst && kind == EventKind::Receive;
          singleReceives = singleReceives && g.Receives[e] == 1;
          last = 1;
          ++receives;
        }
      }
      std::sort(to.begin(), to.end());
      to.erase(std::unique(to.begin(), to.end()), to.end());
      std::sort(from.begin(), from.end());
      from.erase(std::unique(from.begin(), from.end()), from.end());
      exchange = exchange && !to.empty() && to == from;
      const bool both = sends > 0 && receives > 0;
      fits[1] += alternating && both ? 1 : 0;
      fits[2] += sendsFirst && both && singleReceives ? 1 : 0;
      fits[3] += sendsFirst && both && receives == 1 ? 1 : 0;
      ++locations;
      i = j;
    }
    if (!exchange)
    {
      continue;
    }
    // The flavour most locations fit, if at least half do. A lone send and
    // receive fits all three: ties go to Alternating, then SendsThenReceives.
    int best = 0;
    for (int f : { 1, 2, 3 })
    {
      if (2 * fits[f] >= locations && (best == 0 || fits[f] > fits[best]))
      {
        best = f;
      }
    }
    pattern[p] = ExchangePattern(best);
  }
  return pattern;
}

}
