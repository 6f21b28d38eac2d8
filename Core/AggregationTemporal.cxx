#include "Aggregation.h"

#include "AggregationKernels.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <stdexcept>
#include <utility>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

namespace macroscope
{

using aggregation::Score;

namespace
{

/// sums[c] += add[c] for c < n, and the sum of x log2 x over the new sums
/// (0 log 0 = 0), accumulated in eight running sums (c mod 8) added in a
/// fixed order: independent additions instead of one chain, the same
/// grouping with or without vectors.
double AddAndSumXLog2XScalar(double* sums, const double* add, std::size_t n)
{
  double partial[8] = { 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 };
  for (std::size_t c = 0; c < n; ++c)
  {
    sums[c] += add[c];
    partial[c % 8] += aggregation::XLog2X(sums[c]);
  }
  return ((partial[0] + partial[1]) + (partial[2] + partial[3])) +
    ((partial[4] + partial[5]) + (partial[6] + partial[7]));
}

#ifdef MACROSCOPE_AGGREGATION_VECTOR_LOG2
__attribute__((target("avx512f"))) double AddAndSumXLog2XAVX512(
  double* sums, const double* add, std::size_t n)
{
  __m512d partial = _mm512_setzero_pd();
  std::size_t c = 0;
  for (; c < n; c += 8)
  {
    const __mmask8 lanes = n - c >= 8 ? __mmask8(0xFF) : __mmask8((1u << (n - c)) - 1u);
    const __m512d x =
      _mm512_add_pd(_mm512_maskz_loadu_pd(lanes, sums + c), _mm512_maskz_loadu_pd(lanes, add + c));
    _mm512_mask_storeu_pd(sums + c, lanes, x);
    const __mmask8 positive = _mm512_mask_cmp_pd_mask(lanes, x, _mm512_setzero_pd(), _CMP_GT_OQ);
    const __m512d logs = _ZGVeN8v_log2(_mm512_mask_mov_pd(_mm512_set1_pd(1.0), positive, x));
    partial = _mm512_add_pd(partial, _mm512_maskz_mul_pd(positive, x, logs));
  }
  alignas(64) double lane[8];
  _mm512_store_pd(lane, partial);
  return ((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7]));
}
#endif

double AddAndSumXLog2X(double* sums, const double* add, std::size_t n)
{
#ifdef MACROSCOPE_AGGREGATION_VECTOR_LOG2
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  if (avx512 && aggregation::KernelBits.load() >= 512)
  {
    return AddAndSumXLog2XAVX512(sums, add, n);
  }
#endif
  return AddAndSumXLog2XScalar(sums, add, n);
}

}

TemporalAggregation::TemporalAggregation(
  const ModelView& model, unsigned threads, AggregationProgress progress)
  : Aggregation(std::move(progress))
{
  model.Validate();
  this->Threads = threads;
  const int slices = model.Slices;
  const std::size_t components = std::size_t(model.Resources) * model.Types;
  this->SliceCount = slices;

  // Slice-major copy: a slice's sub-matrix is contiguous for the row sums.
  std::vector<double> bySlice(components * slices);
  std::vector<double> sliceXLogX(slices, 0.0);
  std::vector<double> sliceTotal(slices, 0.0);
  std::vector<double> zeros(components);
  for (int t = 0; t < slices; ++t)
  {
    for (std::size_t c = 0; c < components; ++c)
    {
      const double v = model.Values[t + std::size_t(slices) * c];
      bySlice[t * components + c] = v;
      sliceTotal[t] += v;
    }
    // The same routine as the intervals' below, so that a one-slice
    // interval's gain is exactly 0.
    std::fill(zeros.begin(), zeros.end(), 0.0);
    sliceXLogX[t] = AddAndSumXLog2X(zeros.data(), &bySlice[t * components], components);
  }
  // changes[t]: slices that differ from their successor among the first t;
  // an interval is uniform (zero loss) when it holds no such change.
  std::vector<int> changes(slices, 0);
  for (int t = 0; t + 1 < slices; ++t)
  {
    const double* a = &bySlice[t * components];
    const double* b = a + components;
    changes[t + 1] = changes[t] + (std::equal(a, a + components, b) ? 0 : 1);
  }

  this->Qualities.resize(std::size_t(slices) * (slices + 1) / 2);
  // Progress is the share of intervals done (row i holds T - i of them), so
  // that the calling thread can go on reporting while others end their rows.
  const double intervals = double(this->Qualities.size());
  std::atomic<std::size_t> done{ 0 };
  auto doneShare = [&]() { return double(done.load(std::memory_order_relaxed)) / intervals; };
  auto computeRow = [&](std::size_t row)
  {
    if (!this->Continue(doneShare()))
    {
      return;
    }
    const int first = static_cast<int>(row);
    std::vector<double> sums(components, 0.0);
    double entityXLogX = 0.0;
    double total = 0.0;
    for (int last = first; last < slices; ++last)
    {
      const double sumXLogX = AddAndSumXLog2X(sums.data(), &bySlice[last * components], components);
      entityXLogX += sliceXLogX[last];
      total += sliceTotal[last];
      const bool uniform = changes[last] == changes[first];
      this->Qualities[this->Index(first, last)] =
        aggregation::PartQuality(sumXLogX, entityXLogX, total, double(last - first + 1), uniform);
    }
    done.fetch_add(std::size_t(slices) - row, std::memory_order_relaxed);
  };
  aggregation::ParallelFor(
    std::size_t(slices), threads, computeRow, [&]() { this->Continue(doneShare()); });
  this->ThrowIfStopped();
  this->Full = this->Qualities[this->Index(0, slices - 1)];
}

std::size_t TemporalAggregation::Index(int first, int last) const
{
  const std::size_t t = this->SliceCount;
  const std::size_t i = first;
  return i * (2 * t - i + 1) / 2 + (last - first); // row i starts after rows of t, t-1, ...
}

Quality TemporalAggregation::IntervalQuality(int first, int last) const
{
  if (first < 0 || last < first || last >= this->SliceCount)
  {
    throw std::invalid_argument("temporal aggregation: bad slice interval");
  }
  return this->Qualities[this->Index(first, last)];
}

std::vector<AggregatePart> TemporalAggregation::Optimize(double gainWeight, double lossWeight) const
{
  // best[j]: best partition of slices [0, j); its last part starts at
  // start[j]. Candidates are tried longest last part first.
  const int slices = this->SliceCount;
  std::vector<Score> best(slices + 1);
  std::vector<int> start(slices + 1, 0);
  for (int end = 1; end <= slices; ++end)
  {
    if (end % 16 == 0)
    {
      // Rows grow with end: [1, end] is (end / T)^2 of the work.
      this->Checkpoint(double(end) * end / (double(slices) * slices));
    }
    Score chosen;
    for (int first = 0; first < end; ++first)
    {
      const Quality& q = this->Qualities[this->Index(first, end - 1)];
      Score candidate{ best[first].Value + (gainWeight * q.Gain - lossWeight * q.Loss),
        best[first].Parts + 1 };
      if (first == 0 || candidate.Beats(chosen))
      {
        chosen = candidate;
        start[end] = first;
      }
    }
    best[end] = chosen;
  }
  std::vector<AggregatePart> parts;
  for (int end = slices; end > 0; end = start[end])
  {
    const Quality& q = this->Qualities[this->Index(start[end], end - 1)];
    parts.push_back(AggregatePart{ -1, start[end], end - 1, q.Gain, q.Loss });
  }
  return parts;
}

}
