// Spatial (Viva) and spatiotemporal (Ocelotl) aggregation over the resource
// hierarchy.
#include "Aggregation.h"

#include "AggregationKernels.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace macroscope
{

using aggregation::Score;

namespace
{

void CheckLeaves(const ModelView& model, const AggregationHierarchy& hierarchy)
{
  model.Validate();
  if (hierarchy.Leaves() != model.Resources)
  {
    throw std::invalid_argument("aggregation: the hierarchy has " +
      std::to_string(hierarchy.Leaves()) + " leaves but the model " +
      std::to_string(model.Resources) + " resources");
  }
}

/// Nodes grouped by height (leaves 0, then their parents...): the nodes of a
/// group depend only on earlier groups, so each group runs in parallel.
std::vector<std::vector<int64_t>> NodesByHeight(const AggregationHierarchy& hierarchy)
{
  std::vector<int> height(hierarchy.Nodes(), 0);
  std::vector<std::vector<int64_t>> groups(1);
  for (std::size_t n = 0; n < hierarchy.Nodes(); ++n)
  {
    for (int64_t c : hierarchy.Children(n))
    {
      height[n] = std::max(height[n], height[c] + 1);
    }
    if (height[n] >= static_cast<int>(groups.size()))
    {
      groups.resize(height[n] + 1);
    }
    groups[height[n]].push_back(static_cast<int64_t>(n));
  }
  return groups;
}

}

// ---------------------------------------------------------------------------
// Spatial aggregation: a resource's entity is its type vector summed over all
// slices; a part is a node.

SpatialAggregation::SpatialAggregation(
  const ModelView& model, const AggregationHierarchy& hierarchy)
  : Hierarchy(hierarchy)
{
  CheckLeaves(model, hierarchy);
  this->SliceCount = model.Slices;
  const uint32_t types = model.Types;
  const std::size_t nodes = hierarchy.Nodes();
  std::vector<double> sums(nodes * types, 0.0); // per node and type
  std::vector<double> entityXLogX(nodes, 0.0);
  std::vector<char> uniform(nodes, 1);
  for (uint32_t s = 0; s < model.Resources; ++s)
  {
    for (uint32_t u = 0; u < types; ++u)
    {
      double sum = 0.0;
      for (int t = 0; t < model.Slices; ++t)
      {
        sum += model.At(s, t, u);
      }
      sums[s * types + u] = sum;
      entityXLogX[s] += aggregation::XLog2X(sum);
    }
  }
  auto sameVector = [&](uint32_t a, uint32_t b) {
    return std::equal(&sums[a * types], &sums[a * types] + types, &sums[b * types]);
  };
  this->Qualities.resize(nodes);
  for (std::size_t n = 0; n < nodes; ++n)
  {
    const auto& children = hierarchy.Children(n);
    for (int64_t c : children)
    {
      for (uint32_t u = 0; u < types; ++u)
      {
        sums[n * types + u] += sums[c * types + u];
      }
      entityXLogX[n] += entityXLogX[c];
      // Uniform: every child uniform and equal to the first leaf.
      uniform[n] = uniform[n] && uniform[c] && sameVector(hierarchy.LeafBegin(c), hierarchy.LeafBegin(n));
    }
    double sumXLogX = 0.0;
    double total = 0.0;
    for (uint32_t u = 0; u < types; ++u)
    {
      sumXLogX += aggregation::XLog2X(sums[n * types + u]);
      total += sums[n * types + u];
    }
    this->Qualities[n] = aggregation::PartQuality(
      sumXLogX, entityXLogX[n], total, double(hierarchy.LeafCount(n)), uniform[n] != 0);
  }
  this->Full = this->Qualities[hierarchy.Root()];
}

std::vector<AggregatePart> SpatialAggregation::Optimize(double gainWeight, double lossWeight) const
{
  const std::size_t nodes = this->Hierarchy.Nodes();
  std::vector<Score> best(nodes);
  std::vector<char> split(nodes, 0);
  for (std::size_t n = 0; n < nodes; ++n)
  {
    const Quality& q = this->Qualities[n];
    const Score whole{ gainWeight * q.Gain - lossWeight * q.Loss, 1 };
    const auto& children = this->Hierarchy.Children(n);
    Score below;
    for (int64_t c : children)
    {
      below.Value += best[c].Value;
      below.Parts += best[c].Parts;
    }
    split[n] = !children.empty() && below.Beats(whole);
    best[n] = split[n] ? below : whole;
  }
  std::vector<AggregatePart> parts;
  std::vector<int64_t> pending{ this->Hierarchy.Root() };
  while (!pending.empty())
  {
    const int64_t n = pending.back();
    pending.pop_back();
    if (split[n])
    {
      const auto& children = this->Hierarchy.Children(n);
      pending.insert(pending.end(), children.begin(), children.end());
      continue;
    }
    const Quality& q = this->Qualities[n];
    parts.push_back(AggregatePart{ n, 0, this->SliceCount - 1, q.Gain, q.Loss });
  }
  return parts;
}

// ---------------------------------------------------------------------------
// Spatiotemporal aggregation: a cell's entity is its type vector; a part is a
// node over a slice interval.

SpatiotemporalAggregation::SpatiotemporalAggregation(
  const ModelView& model, const AggregationHierarchy& hierarchy, unsigned threads)
  : Hierarchy(hierarchy)
{
  CheckLeaves(model, hierarchy);
  this->Threads = threads;
  const int slices = model.Slices;
  const uint32_t types = model.Types;
  const std::size_t nodes = hierarchy.Nodes();
  this->SliceCount = slices;
  this->Intervals = std::size_t(slices) * (slices + 1) / 2;

  // Per node and slice: the type sums over its leaves (slice-major, so that
  // an interval's sums grow one contiguous row at a time), the sum of
  // v log2 v over its cells, and two facts about its cells, kept as prefix
  // counts: `mixed` (its leaves differ in that slice) and `changes` (some
  // leaf differs from its next slice). A rectangle is uniform - zero loss -
  // when it has neither inside.
  const std::size_t row = std::size_t(slices) + 1;
  std::vector<double> sums(nodes * slices * types, 0.0);
  std::vector<double> cellXLogX(nodes * slices, 0.0);
  std::vector<int> mixed(nodes * row, 0);
  std::vector<int> changes(nodes * row, 0);
  auto sumsAt = [&](std::size_t n, int t) { return &sums[(n * slices + t) * types]; };
  for (std::size_t n = 0; n < nodes; ++n)
  {
    const auto& children = hierarchy.Children(n);
    const uint32_t firstLeaf = hierarchy.LeafBegin(n);
    for (int t = 0; t < slices; ++t)
    {
      double* out = sumsAt(n, t);
      bool isMixed = false;
      bool changed = false;
      if (children.empty())
      {
        for (uint32_t u = 0; u < types; ++u)
        {
          out[u] = model.At(firstLeaf, t, u);
          cellXLogX[n * slices + t] += aggregation::XLog2X(out[u]);
          changed = changed || (t + 1 < slices && out[u] != model.At(firstLeaf, t + 1, u));
        }
      }
      for (int64_t c : children)
      {
        const double* in = sumsAt(c, t);
        for (uint32_t u = 0; u < types; ++u)
        {
          out[u] += in[u];
          isMixed = isMixed || model.At(hierarchy.LeafBegin(c), t, u) != model.At(firstLeaf, t, u);
        }
        cellXLogX[n * slices + t] += cellXLogX[c * slices + t];
        isMixed = isMixed || mixed[c * row + t + 1] != mixed[c * row + t];
        changed = changed || changes[c * row + t + 1] != changes[c * row + t];
      }
      mixed[n * row + t + 1] = mixed[n * row + t] + isMixed;
      changes[n * row + t + 1] = changes[n * row + t] + changed;
    }
  }

  this->Qualities.resize(nodes * this->Intervals);
  aggregation::ParallelFor(nodes, threads, [&](std::size_t n) {
    const double leaves = hierarchy.LeafCount(n);
    std::vector<double> acc(types);
    for (int first = 0; first < slices; ++first)
    {
      std::fill(acc.begin(), acc.end(), 0.0);
      double entityXLogX = 0.0;
      double total = 0.0;
      for (int last = first; last < slices; ++last)
      {
        const double* in = sumsAt(n, last);
        double sumXLogX = 0.0;
        for (uint32_t u = 0; u < types; ++u)
        {
          acc[u] += in[u];
          total += in[u];
          sumXLogX += aggregation::XLog2X(acc[u]);
        }
        entityXLogX += cellXLogX[n * slices + last];
        const bool uniform = mixed[n * row + last + 1] == mixed[n * row + first] &&
          changes[n * row + last] == changes[n * row + first];
        this->Qualities[this->Index(n, first, last)] = aggregation::PartQuality(
          sumXLogX, entityXLogX, total, leaves * (last - first + 1), uniform);
      }
    }
  });
  this->Full = this->Qualities[this->Index(hierarchy.Root(), 0, slices - 1)];
}

std::size_t SpatiotemporalAggregation::Index(int64_t node, int first, int last) const
{
  const std::size_t t = this->SliceCount;
  const std::size_t i = first;
  return node * this->Intervals + i * (2 * t - i + 1) / 2 + (last - first);
}

Quality SpatiotemporalAggregation::AreaQuality(int64_t node, int first, int last) const
{
  if (node < 0 || node >= static_cast<int64_t>(this->Hierarchy.Nodes()) || first < 0 ||
    last < first || last >= this->SliceCount)
  {
    throw std::invalid_argument("spatiotemporal aggregation: bad area");
  }
  return this->Qualities[this->Index(node, first, last)];
}

std::vector<AggregatePart> SpatiotemporalAggregation::Optimize(
  double gainWeight, double lossWeight) const
{
  // For each node n and interval [i, j]:
  //   Atom(n, i, j) = max(pIC of the rectangle, sum over children c of Best(c, i, j))
  //   Best(n, i, j) = max over k in [i, j] of Best(n, i, k - 1) + Atom(n, k, j)
  // (Best of an empty interval is 0): a partition of a rectangle is either
  // the rectangle, a split of its node into children, or a cut in time.
  const int slices = this->SliceCount;
  const std::size_t cells = this->Hierarchy.Nodes() * this->Intervals;
  std::vector<Score> best(cells);
  std::vector<int> cut(cells);       // k of Best(n, i, j)
  std::vector<char> split(cells, 0); // Atom(n, k, j) splits into children

  auto solveNode = [&](int64_t n) {
    const auto& children = this->Hierarchy.Children(n);
    std::vector<Score> atom(slices); // Atom(n, k, j) for the current j
    for (int last = 0; last < slices; ++last)
    {
      for (int k = 0; k <= last; ++k)
      {
        const std::size_t at = this->Index(n, k, last);
        const Quality& q = this->Qualities[at];
        const Score whole{ gainWeight * q.Gain - lossWeight * q.Loss, 1 };
        Score below;
        for (int64_t c : children)
        {
          const Score& part = best[this->Index(c, k, last)];
          below.Value += part.Value;
          below.Parts += part.Parts;
        }
        split[at] = !children.empty() && below.Beats(whole);
        atom[k] = split[at] ? below : whole;
      }
      for (int first = 0; first <= last; ++first)
      {
        Score chosen = atom[first];
        int chosenCut = first;
        for (int k = first + 1; k <= last; ++k)
        {
          const Score& before = best[this->Index(n, first, k - 1)];
          const Score candidate{ before.Value + atom[k].Value, before.Parts + atom[k].Parts };
          if (candidate.Beats(chosen))
          {
            chosen = candidate;
            chosenCut = k;
          }
        }
        const std::size_t at = this->Index(n, first, last);
        best[at] = chosen;
        cut[at] = chosenCut;
      }
    }
  };
  for (const auto& group : NodesByHeight(this->Hierarchy))
  {
    aggregation::ParallelFor(
      group.size(), this->Threads, [&](std::size_t g) { solveNode(group[g]); });
  }

  struct Pending
  {
    int64_t Node;
    int First;
    int Last;
  };
  std::vector<AggregatePart> parts;
  std::vector<Pending> pending{ { this->Hierarchy.Root(), 0, slices - 1 } };
  while (!pending.empty())
  {
    const Pending area = pending.back();
    pending.pop_back();
    const int k = cut[this->Index(area.Node, area.First, area.Last)];
    if (k > area.First)
    {
      pending.push_back({ area.Node, area.First, k - 1 });
    }
    const std::size_t atom = this->Index(area.Node, k, area.Last);
    if (split[atom])
    {
      for (int64_t c : this->Hierarchy.Children(area.Node))
      {
        pending.push_back({ c, k, area.Last });
      }
      continue;
    }
    const Quality& q = this->Qualities[atom];
    parts.push_back(AggregatePart{ area.Node, k, area.Last, q.Gain, q.Loss });
  }
  return parts;
}

}
