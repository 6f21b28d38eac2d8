// Spatial (Viva) and spatiotemporal (Ocelotl) aggregation over the resource
// hierarchy.
#include "Aggregation.h"

#include "AggregationKernels.h"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

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
  // Node-major, then by last slice, then by first slice: the intervals that
  // end at one slice are contiguous, which is what the DP sweeps over.
  const std::size_t j = last;
  return node * this->Intervals + j * (j + 1) / 2 + std::size_t(first);
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

namespace
{

/// The inner loop of the spatiotemporal DP: for i in [0, k), the candidate
/// "Best(n, i, k - 1) then the atom starting at k" replaces the current
/// Best(n, i, last) when it beats it (Score::Beats: higher pIC, or equal pIC
/// and fewer parts). Same additions and comparisons as the scalar rule, two
/// i at a time with SSE2.
void RelaxCuts(const double* beforeValue, const double* beforeParts, double addValue,
  double addParts, int k, double* bestValue, double* bestParts, double* bestCut)
{
  int i = 0;
#ifdef __SSE2__
  const __m128d add = _mm_set1_pd(addValue);
  const __m128d addCount = _mm_set1_pd(addParts);
  const __m128d cutK = _mm_set1_pd(double(k));
  for (; i + 2 <= k; i += 2)
  {
    const __m128d v = _mm_add_pd(_mm_loadu_pd(beforeValue + i), add);
    const __m128d m = _mm_add_pd(_mm_loadu_pd(beforeParts + i), addCount);
    const __m128d bv = _mm_loadu_pd(bestValue + i);
    const __m128d bm = _mm_loadu_pd(bestParts + i);
    const __m128d beats = _mm_or_pd(
      _mm_cmpgt_pd(v, bv), _mm_and_pd(_mm_cmpeq_pd(v, bv), _mm_cmplt_pd(m, bm)));
    _mm_storeu_pd(bestValue + i, _mm_or_pd(_mm_and_pd(beats, v), _mm_andnot_pd(beats, bv)));
    _mm_storeu_pd(bestParts + i, _mm_or_pd(_mm_and_pd(beats, m), _mm_andnot_pd(beats, bm)));
    const __m128d bc = _mm_loadu_pd(bestCut + i);
    _mm_storeu_pd(bestCut + i, _mm_or_pd(_mm_and_pd(beats, cutK), _mm_andnot_pd(beats, bc)));
  }
#endif
  for (; i < k; ++i)
  {
    const double v = beforeValue[i] + addValue;
    const double m = beforeParts[i] + addParts;
    if (v > bestValue[i] || (v == bestValue[i] && m < bestParts[i]))
    {
      bestValue[i] = v;
      bestParts[i] = m;
      bestCut[i] = k;
    }
  }
}

/// The DP tables of one Optimize call, kept per calling thread so that the
/// sweep's many calls do not allocate and fault in ~25 bytes per cell each
/// time. Every cell is written before it is read, so nothing is cleared.
/// Part counts and cuts are held as doubles (exact for any realistic size):
/// the inner loop then compares and blends one vector type only.
struct SpatiotemporalTables
{
  std::vector<double> Value; ///< Best(n, i, j): pIC
  std::vector<double> Parts; ///< Best(n, i, j): number of parts
  std::vector<double> Cut;   ///< Best(n, i, j): start k of the last atom
  std::vector<char> Split;   ///< Atom(n, k, j) splits into the children

  void Reserve(std::size_t cells)
  {
    if (this->Value.size() < cells)
    {
      this->Value.resize(cells);
      this->Parts.resize(cells);
      this->Cut.resize(cells);
      this->Split.resize(cells);
    }
  }
};

}

std::vector<AggregatePart> SpatiotemporalAggregation::Optimize(
  double gainWeight, double lossWeight) const
{
  // For each node n and interval [i, j]:
  //   Atom(n, i, j) = max(pIC of the rectangle, sum over children c of Best(c, i, j))
  //   Best(n, i, j) = max over k in [i, j] of Best(n, i, k - 1) + Atom(n, k, j)
  // (Best of an empty interval is 0): a partition of a rectangle is either
  // the rectangle, a split of its node into children, or a cut in time.
  //
  // Evaluation order: for each last slice j, the atoms (n, k, j) for every
  // k, then Best(n, i, j) for every i. Each candidate k of Best(n, i, j) is
  // still compared, for one i, in increasing k with the strict tie rule of
  // Score::Beats; but the loop over k is the outer one, so the inner loop
  // runs over i, reading Best(n, i, k - 1) for all i at once - one
  // contiguous row in the layout of Index - and vectorises.
  const int slices = this->SliceCount;
  const std::size_t cells = this->Hierarchy.Nodes() * this->Intervals;
  thread_local SpatiotemporalTables tables;
  tables.Reserve(cells);
  double* const value = tables.Value.data();
  double* const count = tables.Parts.data();
  double* const cut = tables.Cut.data();
  char* const split = tables.Split.data();
  const Quality* const qualities = this->Qualities.data();

  auto solveNode = [&](int64_t n) {
    const auto& children = this->Hierarchy.Children(n);
    std::vector<double> atomValue(slices);
    std::vector<double> atomParts(slices);
    std::vector<double> belowValue(slices);
    std::vector<double> belowParts(slices);
    for (int last = 0; last < slices; ++last)
    {
      const std::size_t row = this->Index(n, 0, last); // (n, k, last) at row + k
      const int width = last + 1;
      for (int k = 0; k < width; ++k)
      {
        const Quality& q = qualities[row + k];
        atomValue[k] = gainWeight * q.Gain - lossWeight * q.Loss;
        atomParts[k] = 1.0;
      }
      if (!children.empty())
      {
        std::fill(belowValue.begin(), belowValue.begin() + width, 0.0);
        std::fill(belowParts.begin(), belowParts.begin() + width, 0.0);
        for (int64_t c : children)
        {
          const std::size_t childRow = this->Index(c, 0, last);
          const double* v = value + childRow;
          const double* m = count + childRow;
          for (int k = 0; k < width; ++k)
          {
            belowValue[k] += v[k];
            belowParts[k] += m[k];
          }
        }
        for (int k = 0; k < width; ++k)
        {
          // below.Beats(whole), whole having one part.
          const bool below = belowValue[k] > atomValue[k] ||
            (belowValue[k] == atomValue[k] && belowParts[k] < 1.0);
          split[row + k] = below;
          if (below)
          {
            atomValue[k] = belowValue[k];
            atomParts[k] = belowParts[k];
          }
        }
      }
      else
      {
        std::fill(split + row, split + row + width, char(0));
      }
      // Best(n, i, last), i = 0..last, lives at row + i: start from the
      // single atom (k = i), then try k = 1..last for every i < k.
      double* bestValue = value + row;
      double* bestParts = count + row;
      double* bestCut = cut + row;
      for (int i = 0; i < width; ++i)
      {
        bestValue[i] = atomValue[i];
        bestParts[i] = atomParts[i];
        bestCut[i] = i;
      }
      for (int k = 1; k < width; ++k)
      {
        const std::size_t before = this->Index(n, 0, k - 1); // Best(n, i, k - 1) at before + i
        const double* beforeValue = value + before;
        const double* beforeParts = count + before;
        const double addValue = atomValue[k];
        const double addParts = atomParts[k];
        RelaxCuts(beforeValue, beforeParts, atomValue[k], atomParts[k], k, bestValue, bestParts,
          bestCut);
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
    const int k = static_cast<int>(cut[this->Index(area.Node, area.First, area.Last)]);
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
