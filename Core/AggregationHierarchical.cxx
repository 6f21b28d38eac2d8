// Spatial (Viva) and spatiotemporal (Ocelotl) aggregation over the resource
// hierarchy.
#include "Aggregation.h"

#include "AggregationKernels.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
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
  const ModelView& model, const AggregationHierarchy& hierarchy, AggregationProgress progress)
  : Aggregation(std::move(progress))
  , Hierarchy(hierarchy)
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
    this->Checkpoint(double(s) / model.Resources);
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
  auto sameVector = [&](uint32_t a, uint32_t b)
  { return std::equal(&sums[a * types], &sums[a * types] + types, &sums[b * types]); };
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
      uniform[n] =
        uniform[n] && uniform[c] && sameVector(hierarchy.LeafBegin(c), hierarchy.LeafBegin(n));
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

SpatiotemporalAggregation::SpatiotemporalAggregation(const ModelView& model,
  const AggregationHierarchy& hierarchy, unsigned threads, AggregationProgress progress)
  : Aggregation(std::move(progress))
  , Hierarchy(hierarchy)
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
  // The leaves' rows are the model's values, copied in the model's order
  // (reading it type by type across the leaves would miss the cache at
  // every value); the checks below then compare contiguous leaf rows.
  for (uint32_t u = 0; u < types; ++u)
  {
    for (uint32_t s = 0; s < model.Resources; ++s)
    {
      const double* in =
        &model.Values[std::size_t(slices) * (s + std::size_t(model.Resources) * u)];
      for (int t = 0; t < slices; ++t)
      {
        sumsAt(s, t)[u] = in[t];
      }
    }
  }
  std::vector<double> leafXLogX(std::size_t(slices) * types);
  for (std::size_t n = 0; n < nodes; ++n)
  {
    const auto& children = hierarchy.Children(n);
    const uint32_t firstLeaf = hierarchy.LeafBegin(n);
    if (children.empty())
    {
      // The same routine as the intervals' below, so that a cell's own gain
      // is exactly 0.
      aggregation::XLog2XBatch(sumsAt(n, 0), leafXLogX.data(), leafXLogX.size());
    }
    for (int t = 0; t < slices; ++t)
    {
      double* out = sumsAt(n, t);
      const double* firstLeafRow = sumsAt(firstLeaf, t);
      bool isMixed = false;
      bool changed = false;
      if (children.empty())
      {
        const double* next = t + 1 < slices ? sumsAt(n, t + 1) : nullptr;
        for (uint32_t u = 0; u < types; ++u)
        {
          cellXLogX[n * slices + t] += leafXLogX[std::size_t(t) * types + u];
          changed = changed || (next && out[u] != next[u]);
        }
      }
      for (int64_t c : children)
      {
        const double* in = sumsAt(c, t);
        const double* childLeafRow = sumsAt(hierarchy.LeafBegin(c), t);
        for (uint32_t u = 0; u < types; ++u)
        {
          out[u] += in[u];
          isMixed = isMixed || childLeafRow[u] != firstLeafRow[u];
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
  aggregation::ParallelFor(nodes, threads,
    [&](std::size_t n)
    {
      if (!this->Continue(double(n) / nodes))
      {
        return;
      }
      const double leaves = hierarchy.LeafCount(n);
      // For one first slice: the running type sums of every interval
      // [first, last] in a row, then all their x log2 x at once (vector log2),
      // then the sums in the same order as one interval at a time.
      std::vector<double> acc(types);
      std::vector<double> running(std::size_t(slices) * types);
      std::vector<double> xLogX(running.size());
      for (int first = 0; first < slices; ++first)
      {
        std::fill(acc.begin(), acc.end(), 0.0);
        for (int last = first; last < slices; ++last)
        {
          const double* in = sumsAt(n, last);
          double* out = &running[std::size_t(last - first) * types];
          for (uint32_t u = 0; u < types; ++u)
          {
            acc[u] += in[u];
            out[u] = acc[u];
          }
        }
        aggregation::XLog2XBatch(running.data(), xLogX.data(), std::size_t(slices - first) * types);
        double entityXLogX = 0.0;
        double total = 0.0;
        for (int last = first; last < slices; ++last)
        {
          const double* in = sumsAt(n, last);
          const double* terms = &xLogX[std::size_t(last - first) * types];
          double sumXLogX = 0.0;
          for (uint32_t u = 0; u < types; ++u)
          {
            total += in[u];
            sumXLogX += terms[u];
          }
          entityXLogX += cellXLogX[n * slices + last];
          const bool uniform = mixed[n * row + last + 1] == mixed[n * row + first] &&
            changes[n * row + last] == changes[n * row + first];
          this->Qualities[this->Index(n, first, last)] = aggregation::PartQuality(
            sumXLogX, entityXLogX, total, leaves * (last - first + 1), uniform);
        }
      }
    });
  this->ThrowIfStopped();
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
/// and fewer parts). Every variant below does, element by element, the same
/// two additions and the same comparisons as this scalar rule, so all give
/// identical tables; they differ only in how many i they handle at once.
void RelaxCutsScalar(int i, const double* beforeValue, const double* beforeParts, double addValue,
  double addParts, int k, double* bestValue, double* bestParts, double* bestCut)
{
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

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MACROSCOPE_AGGREGATION_X86_KERNELS 1
/// One candidate k for four i (from i) of one row: Best(n, i, k - 1) + Atom(n, k,
/// last) replaces the running best (bv, bm, bc) where it beats it; lanes
/// with i >= k are masked (nothing read).
__attribute__((target("avx2"), always_inline)) inline void Candidate(const double* rowsValue,
  const double* rowsParts, const double* atomValue, const double* atomParts, int i, int k,
  __m256d cutK, __m256d& bv, __m256d& bm, __m256d& bc)
{
  const std::size_t before = std::size_t(k - 1) * k / 2 + i; // Best(n, i.., k - 1)
  __m256d v;
  __m256d m;
  __m256d valid;
  if (k - i >= 4)
  {
    v = _mm256_loadu_pd(rowsValue + before);
    m = _mm256_loadu_pd(rowsParts + before);
    valid = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
  }
  else
  {
    const __m256i mask =
      _mm256_cmpgt_epi64(_mm256_set1_epi64x(k - i), _mm256_set_epi64x(3, 2, 1, 0));
    v = _mm256_maskload_pd(rowsValue + before, mask);
    m = _mm256_maskload_pd(rowsParts + before, mask);
    valid = _mm256_castsi256_pd(mask);
  }
  v = _mm256_add_pd(v, _mm256_broadcast_sd(atomValue + k));
  m = _mm256_add_pd(m, _mm256_broadcast_sd(atomParts + k));
  const __m256d beats = _mm256_and_pd(valid,
    _mm256_or_pd(_mm256_cmp_pd(v, bv, _CMP_GT_OQ),
      _mm256_and_pd(_mm256_cmp_pd(v, bv, _CMP_EQ_OQ), _mm256_cmp_pd(m, bm, _CMP_LT_OQ))));
  bv = _mm256_blendv_pd(bv, v, beats);
  bm = _mm256_blendv_pd(bm, m, beats);
  bc = _mm256_blendv_pd(bc, cutK, beats);
}

/// RelaxCuts for every k = 1..last of one row, four i at a time (AVX2 is
/// checked at run time; only additions, comparisons and blends, so no
/// contraction can change a value). For one group of four i the loop over k
/// is the inner one and the running best stays in registers. The scalar
/// rule keeps, among all candidates, the greatest by (pIC, -parts, -k) - the
/// first of the best in k order - and a maximum can be taken in pieces: even
/// and odd k go to two independent running bests (two dependency chains
/// instead of one), merged at the end by that full key. Lanes with i > last
/// (outside the row) are neither read nor written. `rows` is the node's
/// table (row j at j (j + 1) / 2), `best` its row `last`, holding the single
/// atoms (k = i) on entry.
__attribute__((target("avx2"))) void RelaxRowAVX2(const double* rowsValue, const double* rowsParts,
  const double* atomValue, const double* atomParts, int last, double* bestValue, double* bestParts,
  double* bestCut)
{
  const __m256i lane = _mm256_set_epi64x(3, 2, 1, 0);
  for (int i = 0; i <= last; i += 4)
  {
    const __m256i inRow = _mm256_cmpgt_epi64(_mm256_set1_epi64x(last + 1 - i), lane);
    __m256d bv = _mm256_maskload_pd(bestValue + i, inRow);
    __m256d bm = _mm256_maskload_pd(bestParts + i, inRow);
    __m256d bc = _mm256_maskload_pd(bestCut + i, inRow);
    __m256d ov = _mm256_set1_pd(-std::numeric_limits<double>::infinity());
    __m256d om = _mm256_setzero_pd();
    __m256d oc = _mm256_setzero_pd();
    // k as a double, counted in the vector unit (a conversion per k would
    // wait on its destination register's previous value).
    const __m256d one = _mm256_set1_pd(1.0);
    const __m256d two = _mm256_set1_pd(2.0);
    __m256d cutK = _mm256_set1_pd(double(i + 1));
    int k = i + 1;
    for (; k + 1 <= last; k += 2)
    {
      Candidate(rowsValue, rowsParts, atomValue, atomParts, i, k, cutK, ov, om, oc);
      Candidate(
        rowsValue, rowsParts, atomValue, atomParts, i, k + 1, _mm256_add_pd(cutK, one), bv, bm, bc);
      cutK = _mm256_add_pd(cutK, two);
    }
    if (k <= last)
    {
      Candidate(rowsValue, rowsParts, atomValue, atomParts, i, k, cutK, ov, om, oc);
    }
    // The odd running best (a real candidate wherever it is finite) wins
    // over the even one by (pIC, -parts, -k).
    const __m256d sameValue = _mm256_cmp_pd(ov, bv, _CMP_EQ_OQ);
    const __m256d fewer = _mm256_or_pd(_mm256_cmp_pd(om, bm, _CMP_LT_OQ),
      _mm256_and_pd(_mm256_cmp_pd(om, bm, _CMP_EQ_OQ), _mm256_cmp_pd(oc, bc, _CMP_LT_OQ)));
    const __m256d odd =
      _mm256_or_pd(_mm256_cmp_pd(ov, bv, _CMP_GT_OQ), _mm256_and_pd(sameValue, fewer));
    bv = _mm256_blendv_pd(bv, ov, odd);
    bm = _mm256_blendv_pd(bm, om, odd);
    bc = _mm256_blendv_pd(bc, oc, odd);
    _mm256_maskstore_pd(bestValue + i, inRow, bv);
    _mm256_maskstore_pd(bestParts + i, inRow, bm);
    _mm256_maskstore_pd(bestCut + i, inRow, bc);
  }
}

/// The same as Candidate and RelaxRowAVX2 with eight i at a time (AVX-512F)
/// and mask registers for the lanes.
__attribute__((target("avx512f"), always_inline)) inline void Candidate512(const double* rowsValue,
  const double* rowsParts, const double* atomValue, const double* atomParts, int i, int k,
  __m512d cutK, __m512d& bv, __m512d& bm, __m512d& bc)
{
  const std::size_t before = std::size_t(k - 1) * k / 2 + i; // Best(n, i.., k - 1)
  const __mmask8 valid = k - i >= 8 ? __mmask8(0xFF) : __mmask8((1u << (k - i)) - 1u);
  __m512d v = _mm512_maskz_loadu_pd(valid, rowsValue + before);
  __m512d m = _mm512_maskz_loadu_pd(valid, rowsParts + before);
  v = _mm512_add_pd(v, _mm512_set1_pd(atomValue[k]));
  m = _mm512_add_pd(m, _mm512_set1_pd(atomParts[k]));
  const __mmask8 greater = _mm512_mask_cmp_pd_mask(valid, v, bv, _CMP_GT_OQ);
  const __mmask8 equal = _mm512_mask_cmp_pd_mask(valid, v, bv, _CMP_EQ_OQ);
  const __mmask8 beats = __mmask8(greater | _mm512_mask_cmp_pd_mask(equal, m, bm, _CMP_LT_OQ));
  bv = _mm512_mask_mov_pd(bv, beats, v);
  bm = _mm512_mask_mov_pd(bm, beats, m);
  bc = _mm512_mask_mov_pd(bc, beats, cutK);
}

__attribute__((target("avx512f"))) void RelaxRowAVX512(const double* rowsValue,
  const double* rowsParts, const double* atomValue, const double* atomParts, int last,
  double* bestValue, double* bestParts, double* bestCut)
{
  for (int i = 0; i <= last; i += 8)
  {
    const __mmask8 inRow =
      last + 1 - i >= 8 ? __mmask8(0xFF) : __mmask8((1u << (last + 1 - i)) - 1u);
    __m512d bv = _mm512_maskz_loadu_pd(inRow, bestValue + i);
    __m512d bm = _mm512_maskz_loadu_pd(inRow, bestParts + i);
    __m512d bc = _mm512_maskz_loadu_pd(inRow, bestCut + i);
    __m512d ov = _mm512_set1_pd(-std::numeric_limits<double>::infinity());
    __m512d om = _mm512_setzero_pd();
    __m512d oc = _mm512_setzero_pd();
    const __m512d one = _mm512_set1_pd(1.0);
    const __m512d two = _mm512_set1_pd(2.0);
    __m512d cutK = _mm512_set1_pd(double(i + 1));
    int k = i + 1;
    for (; k + 1 <= last; k += 2)
    {
      Candidate512(rowsValue, rowsParts, atomValue, atomParts, i, k, cutK, ov, om, oc);
      Candidate512(
        rowsValue, rowsParts, atomValue, atomParts, i, k + 1, _mm512_add_pd(cutK, one), bv, bm, bc);
      cutK = _mm512_add_pd(cutK, two);
    }
    if (k <= last)
    {
      Candidate512(rowsValue, rowsParts, atomValue, atomParts, i, k, cutK, ov, om, oc);
    }
    const __mmask8 sameValue = _mm512_cmp_pd_mask(ov, bv, _CMP_EQ_OQ);
    const __mmask8 sameParts = _mm512_mask_cmp_pd_mask(sameValue, om, bm, _CMP_EQ_OQ);
    const __mmask8 odd = __mmask8(_mm512_cmp_pd_mask(ov, bv, _CMP_GT_OQ) |
      _mm512_mask_cmp_pd_mask(sameValue, om, bm, _CMP_LT_OQ) |
      _mm512_mask_cmp_pd_mask(sameParts, oc, bc, _CMP_LT_OQ));
    _mm512_mask_storeu_pd(bestValue + i, inRow, _mm512_mask_mov_pd(bv, odd, ov));
    _mm512_mask_storeu_pd(bestParts + i, inRow, _mm512_mask_mov_pd(bm, odd, om));
    _mm512_mask_storeu_pd(bestCut + i, inRow, _mm512_mask_mov_pd(bc, odd, oc));
  }
}

/// RelaxRowAVX512 that skips dominated cuts (docs/aggregation.md, "Pruning
/// dominated cuts"). A cut k > i is tried for i only if Best(n, k, last) is
/// not above the atom (n, k, last) by more than `margin`: otherwise Best(n,
/// k, last) starts with a cut m > k, and for every i < k the candidate m
/// beats the candidate k by about that gap - k can never be chosen, and
/// leaving it out changes nothing, not even a tie. Groups of eight i are
/// taken from the last one down, so that Best(n, k, last) is final for every
/// k above the group when the group runs; the cuts inside the group are
/// always tried. The candidates of one i are still tried in increasing k in
/// two chains merged by the full key, as in RelaxRowAVX512: same tables.
/// `live` is scratch for the cuts kept (descending).
__attribute__((target("avx512f"))) void RelaxRowAVX512Pruned(const double* rowsValue,
  const double* rowsParts, const double* atomValue, const double* atomParts, int last,
  double* bestValue, double* bestParts, double* bestCut, double margin, std::vector<int>& live)
{
  live.clear();
  const __m512d one = _mm512_set1_pd(1.0);
  for (int i = last - last % 8; i >= 0; i -= 8)
  {
    const __mmask8 inRow =
      last + 1 - i >= 8 ? __mmask8(0xFF) : __mmask8((1u << (last + 1 - i)) - 1u);
    __m512d bv = _mm512_maskz_loadu_pd(inRow, bestValue + i);
    __m512d bm = _mm512_maskz_loadu_pd(inRow, bestParts + i);
    __m512d bc = _mm512_maskz_loadu_pd(inRow, bestCut + i);
    __m512d ov = _mm512_set1_pd(-std::numeric_limits<double>::infinity());
    __m512d om = _mm512_setzero_pd();
    __m512d oc = _mm512_setzero_pd();
    // The cuts inside the group, then the live ones above it, in increasing
    // k, alternately to the odd and the even chain.
    const int groupEnd = std::min(i + 7, last);
    bool odd = true;
    __m512d cutK = _mm512_set1_pd(double(i + 1));
    for (int k = i + 1; k <= groupEnd; ++k)
    {
      if (odd)
      {
        Candidate512(rowsValue, rowsParts, atomValue, atomParts, i, k, cutK, ov, om, oc);
      }
      else
      {
        Candidate512(rowsValue, rowsParts, atomValue, atomParts, i, k, cutK, bv, bm, bc);
      }
      odd = !odd;
      cutK = _mm512_add_pd(cutK, one);
    }
    std::size_t r = live.size();
    for (; r >= 2; r -= 2)
    {
      const int k0 = live[r - 1];
      const int k1 = live[r - 2];
      if (odd)
      {
        Candidate512(rowsValue, rowsParts, atomValue, atomParts, i, k0, _mm512_set1_pd(double(k0)),
          ov, om, oc);
        Candidate512(rowsValue, rowsParts, atomValue, atomParts, i, k1, _mm512_set1_pd(double(k1)),
          bv, bm, bc);
      }
      else
      {
        Candidate512(rowsValue, rowsParts, atomValue, atomParts, i, k0, _mm512_set1_pd(double(k0)),
          bv, bm, bc);
        Candidate512(rowsValue, rowsParts, atomValue, atomParts, i, k1, _mm512_set1_pd(double(k1)),
          ov, om, oc);
      }
    }
    if (r == 1)
    {
      const int k0 = live[0];
      if (odd)
      {
        Candidate512(rowsValue, rowsParts, atomValue, atomParts, i, k0, _mm512_set1_pd(double(k0)),
          ov, om, oc);
      }
      else
      {
        Candidate512(rowsValue, rowsParts, atomValue, atomParts, i, k0, _mm512_set1_pd(double(k0)),
          bv, bm, bc);
      }
    }
    const __mmask8 sameValue = _mm512_cmp_pd_mask(ov, bv, _CMP_EQ_OQ);
    const __mmask8 sameParts = _mm512_mask_cmp_pd_mask(sameValue, om, bm, _CMP_EQ_OQ);
    const __mmask8 oddWins = __mmask8(_mm512_cmp_pd_mask(ov, bv, _CMP_GT_OQ) |
      _mm512_mask_cmp_pd_mask(sameValue, om, bm, _CMP_LT_OQ) |
      _mm512_mask_cmp_pd_mask(sameParts, oc, bc, _CMP_LT_OQ));
    _mm512_mask_storeu_pd(bestValue + i, inRow, _mm512_mask_mov_pd(bv, oddWins, ov));
    _mm512_mask_storeu_pd(bestParts + i, inRow, _mm512_mask_mov_pd(bm, oddWins, om));
    _mm512_mask_storeu_pd(bestCut + i, inRow, _mm512_mask_mov_pd(bc, oddWins, oc));
    // Best(n, k, last) is now final for the group: keep its cuts that are
    // not dominated (k = 0 is never a cut).
    for (int k = groupEnd; k >= std::max(i, 1); --k)
    {
      if (!(bestValue[k] > atomValue[k] + margin))
      {
        live.push_back(k);
      }
    }
  }
}

bool HasAVX512()
{
  static const bool has = __builtin_cpu_supports("avx512f");
  return has;
}

bool HasAVX2()
{
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}
#endif

/// RelaxCuts for one k, two i at a time with SSE2 when `sse2`, else scalar.
void RelaxCuts(const double* beforeValue, const double* beforeParts, double addValue,
  double addParts, int k, double* bestValue, double* bestParts, double* bestCut, bool sse2)
{
  int i = 0;
#ifdef __SSE2__
  if (sse2)
  {
    const __m128d add = _mm_set1_pd(addValue);
    const __m128d addCount = _mm_set1_pd(addParts);
    const __m128d cutK = _mm_set1_pd(double(k));
    for (; i + 2 <= k; i += 2)
    {
      const __m128d v = _mm_add_pd(_mm_loadu_pd(beforeValue + i), add);
      const __m128d m = _mm_add_pd(_mm_loadu_pd(beforeParts + i), addCount);
      const __m128d bv = _mm_loadu_pd(bestValue + i);
      const __m128d bm = _mm_loadu_pd(bestParts + i);
      const __m128d beats =
        _mm_or_pd(_mm_cmpgt_pd(v, bv), _mm_and_pd(_mm_cmpeq_pd(v, bv), _mm_cmplt_pd(m, bm)));
      _mm_storeu_pd(bestValue + i, _mm_or_pd(_mm_and_pd(beats, v), _mm_andnot_pd(beats, bv)));
      _mm_storeu_pd(bestParts + i, _mm_or_pd(_mm_and_pd(beats, m), _mm_andnot_pd(beats, bm)));
      const __m128d bc = _mm_loadu_pd(bestCut + i);
      _mm_storeu_pd(bestCut + i, _mm_or_pd(_mm_and_pd(beats, cutK), _mm_andnot_pd(beats, bc)));
    }
  }
#else
  (void)sse2;
#endif
  RelaxCutsScalar(
    i, beforeValue, beforeParts, addValue, addParts, k, bestValue, bestParts, bestCut);
}

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
  // k, then Best(n, i, j) for every i. For one i the result is the first
  // candidate k of highest (pIC, -parts), as with the strict tie rule of
  // Score::Beats tried in increasing k; the candidates Best(n, i, k - 1) for
  // consecutive i are one contiguous row in the layout of Index, so several
  // i are handled at once (RelaxRow*, RelaxCuts), each with the very same
  // additions and comparisons as the scalar rule: every kernel, and the
  // former one-i-at-a-time loop, gives bit-identical tables.
  const int slices = this->SliceCount;
  const std::size_t cells = this->Hierarchy.Nodes() * this->Intervals;
  // Tables: pIC, number of parts and cut k of Best(n, i, j), and whether
  // Atom(n, k, j) splits into the children. Part counts and cuts are held as
  // doubles (exact for any realistic size): the kernels then compare and
  // blend one vector type only. Every cell is written before it is read.
  // Within a sweep the memory is kept from one DP to the next (see
  // aggregation::SweepScratch).
  std::vector<double> ownDoubles;
  std::vector<char> ownChars;
  std::vector<double>& doubles =
    aggregation::InsideSweep ? aggregation::Scratch.Doubles : ownDoubles;
  std::vector<char>& chars = aggregation::InsideSweep ? aggregation::Scratch.Chars : ownChars;
  if (doubles.size() < 3 * cells)
  {
    doubles.resize(3 * cells);
  }
  if (chars.size() < cells)
  {
    chars.resize(cells);
  }
  double* const value = doubles.data();
  double* const count = value + cells;
  double* const cut = count + cells;
  char* const split = chars.data();
  const Quality* const qualities = this->Qualities.data();

  const unsigned kernelBits = aggregation::KernelBits.load();
#ifdef MACROSCOPE_AGGREGATION_X86_KERNELS
  const bool avx512 = kernelBits >= 512 && HasAVX512();
  const bool avx2 = kernelBits >= 256 && HasAVX2();
#endif
  const bool prune = aggregation::PruneDominatedCuts.load();
  // A bound on the rounding of any DP value of node n, and of any difference
  // of two of them, with room to spare. A value is a sum of at most m =
  // leaves x slices atom values (the cells of the node's rectangle), whose
  // absolute values add up to at most W = gainWeight G + lossWeight L, the
  // raw qualities of the node over all slices (gain and loss only grow when
  // parts merge); any order of summation is then within m u W of the exact
  // sum (u = 2^-53), and the DP's comparisons chain such sums.
  auto pruningMargin = [&](int64_t n)
  {
    const Quality& whole = qualities[this->Index(n, 0, slices - 1)];
    const double weighted = gainWeight * whole.Gain + lossWeight * whole.Loss;
    const double terms = double(this->Hierarchy.LeafCount(n)) * slices;
    return 16.0 * terms * std::ldexp(weighted, -53);
  };
  auto solveNode = [&](int64_t n)
  {
    const auto& children = this->Hierarchy.Children(n);
    std::vector<double> atomValue(slices);
    std::vector<double> atomParts(slices);
    std::vector<double> belowValue(slices);
    std::vector<double> belowParts(slices);
    std::vector<int> live;
    live.reserve(slices);
    const double margin = pruningMargin(n);
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
          const bool below =
            belowValue[k] > atomValue[k] || (belowValue[k] == atomValue[k] && belowParts[k] < 1.0);
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
#ifdef MACROSCOPE_AGGREGATION_X86_KERNELS
      if (avx512 && prune)
      {
        const std::size_t rows = this->Index(n, 0, 0);
        RelaxRowAVX512Pruned(value + rows, count + rows, atomValue.data(), atomParts.data(), last,
          bestValue, bestParts, bestCut, margin, live);
        continue;
      }
      if (avx512)
      {
        const std::size_t rows = this->Index(n, 0, 0);
        RelaxRowAVX512(value + rows, count + rows, atomValue.data(), atomParts.data(), last,
          bestValue, bestParts, bestCut);
        continue;
      }
      if (avx2)
      {
        const std::size_t rows = this->Index(n, 0, 0);
        RelaxRowAVX2(value + rows, count + rows, atomValue.data(), atomParts.data(), last,
          bestValue, bestParts, bestCut);
        continue;
      }
#endif
      for (int k = 1; k < width; ++k)
      {
        const std::size_t before = this->Index(n, 0, k - 1); // Best(n, i, k - 1) at before + i
        RelaxCuts(value + before, count + before, atomValue[k], atomParts[k], k, bestValue,
          bestParts, bestCut, kernelBits >= 128);
      }
    }
  };
  std::size_t solved = 0; // nodes of the groups before this one
  const double nodes = double(this->Hierarchy.Nodes());
  for (const auto& group : NodesByHeight(this->Hierarchy))
  {
    aggregation::ParallelFor(group.size(), this->Threads,
      [&](std::size_t g)
      {
        if (this->Continue((solved + g) / nodes))
        {
          solveNode(group[g]);
        }
      });
    this->ThrowIfStopped();
    solved += group.size();
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
