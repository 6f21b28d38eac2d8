// Logical time, stage 4 (LogicalTimeInternal.h): send-aligned logical steps
// (Isaacs et al. 2014 (Ravel) §3.1, after the structure-extracting clock it cites).
// Within a phase, the skeleton (every event but pure receives) is layered by
// rounds, the longest path in the skeleton DAG; all skeleton events of a
// round share one step, the smallest that respects their predecessors, so
// sends of the same round line up. Receives go one step after the later of
// their location's previous event and their senders.
#include "LogicalTimeInternal.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace macroscope::logical::detail
{

std::vector<int64_t> AssignSteps(const CommGraph& g, const Phases& phases, const ProgressGate& gate)
{
  const std::size_t nodes = g.NodeCount();
  const std::vector<int32_t>& phaseOf = phases.OfNode;
  std::vector<uint8_t> skeleton(nodes, 0);
  for (std::size_t e = 0; e < g.size(); ++e)
  {
    skeleton[g.Node[e]] |= g.Kind[e] != EventKind::Receive ? 1 : 0;
  }
  const auto samePhase = [&](int64_t a, int64_t b) { return phaseOf[a] == phaseOf[b]; };

  // Skeleton edges: consecutive skeleton events of a location, and from a
  // message's sender to the first skeleton event at or after its receive.
  std::vector<std::pair<int64_t, int64_t>> arcs;
  std::vector<int64_t> skeletonFrom(g.size(), -1); // first skeleton node at or after e, same phase
  for (uint32_t l = 0; l < g.Locations; ++l)
  {
    int64_t following = -1;
    for (std::size_t e = g.LocationOffset[l + 1]; e-- > g.LocationOffset[l];)
    {
      const int64_t v = g.Node[e];
      if (following >= 0 && !samePhase(following, v))
      {
        following = -1;
      }
      if (skeleton[v])
      {
        if (following >= 0 && following != v)
        {
          arcs.emplace_back(v, following);
        }
        following = v;
      }
      skeletonFrom[e] = following;
    }
  }
  for (std::size_t m = 0; m < g.SendEvent.size(); ++m)
  {
    const int64_t s = g.Node[g.SendEvent[m]];
    const int64_t t = skeletonFrom[g.RecvEvent[m]];
    if (!g.Dropped[m] && t >= 0 && t != s && samePhase(s, t))
    {
      arcs.emplace_back(s, t);
    }
  }
  skeletonFrom = {};
  gate.At(0.55);

  // Rounds: the longest path to each skeleton node (Kahn's order).
  std::vector<std::size_t> offset(nodes + 1, 0);
  std::vector<uint32_t> indegree(nodes, 0);
  for (const auto& arc : arcs)
  {
    ++offset[arc.first + 1];
    ++indegree[arc.second];
  }
  std::partial_sum(offset.begin(), offset.end(), offset.begin());
  std::vector<int64_t> targets(arcs.size());
  {
    std::vector<std::size_t> next(offset.begin(), offset.end() - 1);
    for (const auto& arc : arcs)
    {
      targets[next[arc.first]++] = arc.second;
    }
  }
  arcs = {};
  std::vector<int64_t> round(nodes, 0);
  std::vector<int64_t> ready;
  std::size_t skeletonNodes = 0, ranked = 0;
  for (std::size_t v = 0; v < nodes; ++v)
  {
    skeletonNodes += skeleton[v];
    if (skeleton[v] && indegree[v] == 0)
    {
      ready.push_back(int64_t(v));
    }
  }
  while (!ready.empty())
  {
    const int64_t v = ready.back();
    ready.pop_back();
    ++ranked;
    for (std::size_t i = offset[v]; i < offset[v + 1]; ++i)
    {
      const int64_t w = targets[i];
      round[w] = std::max(round[w], round[v] + 1);
      if (--indegree[w] == 0)
      {
        ready.push_back(w);
      }
    }
  }
  if (ranked != skeletonNodes)
  {
    throw std::logic_error("logical time: the skeleton of a phase has a cycle");
  }
  gate.At(0.6);

  // Per phase, its nodes: skeleton ones by round, then the receives.
  std::vector<int64_t> byPhase(nodes);
  std::iota(byPhase.begin(), byPhase.end(), 0);
  std::sort(byPhase.begin(), byPhase.end(),
    [&](int64_t a, int64_t b)
    {
      if (phaseOf[a] != phaseOf[b])
        return phaseOf[a] < phaseOf[b];
      if (skeleton[a] != skeleton[b])
        return skeleton[a] > skeleton[b];
      if (round[a] != round[b])
        return round[a] < round[b];
      return a < b;
    });

  // Inputs of a node inside its phase: the previous event of each member's
  // location and the senders of the messages its members receive.
  std::vector<int64_t> local(nodes, -1);
  const auto forInputs = [&](int64_t v, auto&& visit)
  {
    for (std::size_t i = g.MemberOffset[v]; i < g.MemberOffset[v + 1]; ++i)
    {
      const int64_t e = g.Members[i];
      const int64_t previous = g.Previous(std::size_t(e));
      if (previous >= 0 && g.Node[previous] != v && samePhase(g.Node[previous], v))
      {
        visit(g.Node[previous]);
      }
      for (std::size_t k = g.InOffset[e]; k < g.InOffset[e + 1]; ++k)
      {
        const int64_t m = g.In[k];
        const int64_t s = g.Node[g.SendEvent[m]];
        if (!g.Dropped[m] && s != v && samePhase(s, v))
        {
          visit(s);
        }
      }
    }
  };
  const auto earliest = [&](int64_t v)
  {
    int64_t step = 0;
    forInputs(v,
      [&](int64_t u)
      {
        if (local[u] < 0)
        {
          throw std::logic_error("logical time: a node was stepped before its inputs");
        }
        step = std::max(step, local[u] + 1);
      });
    return step;
  };
  // Receives wait for their inputs; a counter per receive node.
  std::vector<uint32_t> pending(nodes, 0);
  for (std::size_t v = 0; v < nodes; ++v)
  {
    if (!skeleton[v])
    {
      forInputs(int64_t(v), [&](int64_t) { ++pending[v]; });
    }
  }
  ready.clear();
  const auto settle = [&](int64_t v, int64_t step)
  {
    local[v] = step;
    for (std::size_t i = g.MemberOffset[v]; i < g.MemberOffset[v + 1]; ++i)
    {
      const int64_t e = g.Members[i];
      const int64_t next = g.Next(std::size_t(e));
      if (next >= 0)
      {
        const int64_t w = g.Node[next];
        if (!skeleton[w] && w != v && samePhase(w, v) && --pending[w] == 0)
        {
          ready.push_back(w);
        }
      }
      for (std::size_t k = g.OutOffset[e]; k < g.OutOffset[e + 1]; ++k)
      {
        const int64_t m = g.Out[k];
        const int64_t w = g.Node[g.RecvEvent[m]];
        if (!g.Dropped[m] && !skeleton[w] && w != v && samePhase(w, v) && --pending[w] == 0)
        {
          ready.push_back(w);
        }
      }
    }
  };
  const auto drain = [&]()
  {
    while (!ready.empty())
    {
      const int64_t w = ready.back();
      ready.pop_back();
      settle(w, earliest(w));
    }
  };

  std::vector<int64_t> span(phases.Count, 0);
  std::size_t done = 0, reported = 0;
  for (std::size_t i = 0; i < nodes;)
  {
    const int32_t phase = phaseOf[byPhase[i]];
    std::size_t end = i;
    while (end < nodes && phaseOf[byPhase[end]] == phase)
    {
      ++end;
    }
    for (std::size_t k = i; k < end; ++k)
    {
      const int64_t v = byPhase[k];
      if (!skeleton[v] && pending[v] == 0)
      {
        ready.push_back(v);
      }
    }
    drain();
    int64_t previousRound = -1; // A(k - 1)
    std::size_t k = i;
    while (k < end && skeleton[byPhase[k]])
    {
      std::size_t roundEnd = k;
      int64_t step = previousRound + 1;
      for (; roundEnd < end && skeleton[byPhase[roundEnd]] &&
           round[byPhase[roundEnd]] == round[byPhase[k]];
           ++roundEnd)
      {
        step = std::max(step, earliest(byPhase[roundEnd]));
      }
      for (std::size_t r = k; r < roundEnd; ++r)
      {
        settle(byPhase[r], step);
      }
      drain();
      previousRound = step;
      k = roundEnd;
    }
    int64_t last = -1;
    for (std::size_t r = i; r < end; ++r)
    {
      if (local[byPhase[r]] < 0)
      {
        throw std::logic_error("logical time: a receive of a phase was never stepped");
      }
      last = std::max(last, local[byPhase[r]]);
    }
    span[phase] = last + 1;
    done += end - i;
    if (done - reported >= 65536)
    {
      reported = done;
      gate.At(0.6 + 0.15 * double(done) / double(nodes));
    }
    i = end;
  }

  // Phases in topological order: each starts after all its predecessors end.
  std::vector<int64_t> first(phases.Count, 0);
  for (int32_t p = 0; p < phases.Count; ++p)
  {
    for (const int32_t q : phases.Predecessors[p])
    {
      first[p] = std::max(first[p], first[q] + span[q]);
    }
  }
  std::vector<int64_t> step(nodes);
  for (std::size_t v = 0; v < nodes; ++v)
  {
    step[v] = first[phaseOf[v]] + local[v];
  }
  return step;
}

}
