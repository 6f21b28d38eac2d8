// Internal helpers of the aggregation classes (not installed).
#pragma once

#include "Aggregation.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

#if defined(__x86_64__) && defined(__GLIBC__) && (defined(__GNUC__) || defined(__clang__))
#if __GLIBC_PREREQ(2, 35)
#define MACROSCOPE_AGGREGATION_VECTOR_LOG2 1
// glibc's vector log2 (libmvec, reached through libm's linker script), eight
// doubles at a time, within a few ulp like the scalar one.
extern "C" __m512d _ZGVeN8v_log2(__m512d);
#endif
#endif

namespace macroscope
{
namespace aggregation
{

/// x log2 x with 0 log 0 = 0.
inline double XLog2X(double x)
{
  return x > 0.0 ? x * std::log2(x) : 0.0;
}

/// The qualities of a part from the sums its formula needs:
///   gain = sum_c V_c log2 V_c - sum_x sum_c v log2 v
///   loss = sum_x sum_c v log2(|X| v / V_c) = V log2 |X| - gain.
/// Both are >= 0 mathematically, and the loss is 0 exactly when every
/// component is uniform over the part: `uniform` says so (tested exactly by
/// the caller), so rounding can neither create nor hide a zero loss, which is
/// what p = 0 decides on.
inline Quality PartQuality(
  double sumXLogX, double sumEntityXLogX, double total, double entities, bool uniform)
{
  Quality q;
  q.Gain = std::max(0.0, sumXLogX - sumEntityXLogX);
  if (uniform)
  {
    return q;
  }
  q.Loss = total * std::log2(entities) - q.Gain;
  if (!(q.Loss > 0.0))
  {
    q.Loss = std::numeric_limits<double>::min();
  }
  return q;
}

/// DP score: pIC first, then fewer parts.
struct Score
{
  double Value = 0.0;
  std::size_t Parts = 0;

  bool Beats(const Score& other) const
  {
    return this->Value > other.Value || (this->Value == other.Value && this->Parts < other.Parts);
  }
};

inline unsigned ThreadCount(unsigned requested, std::size_t work)
{
  unsigned n = requested ? requested : std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::min<std::size_t>(n, std::max<std::size_t>(work, 1)));
}

/// The widest vector kernel the aggregation may use, in bits: 512
/// (AVX-512F), 256 (AVX2), 128 (SSE2), or 0 for plain scalar code; a wider
/// one is used only if the processor has it. The spatiotemporal DP's kernels
/// all give identical tables (the same additions and comparisons per
/// element); the temporal qualities' AVX-512 kernel (glibc's vector log2)
/// agrees with the scalar one within a few ulp. The tests lower this to
/// check both. Default: the widest.
inline std::atomic<unsigned> KernelBits{ 512 };

/// Whether the spatiotemporal DP skips the cuts that are dominated by a
/// margin larger than any rounding (docs/aggregation.md, "Pruning dominated
/// cuts"): the tables and partitions are the same either way; the tests
/// switch it off to compare with the full search. Default: on.
inline std::atomic<bool> PruneDominatedCuts{ true };

#ifdef MACROSCOPE_AGGREGATION_VECTOR_LOG2
__attribute__((target("avx512f"))) inline void XLog2XBatchAVX512(
  const double* x, double* out, std::size_t n)
{
  for (std::size_t c = 0; c < n; c += 8)
  {
    const __mmask8 lanes = n - c >= 8 ? __mmask8(0xFF) : __mmask8((1u << (n - c)) - 1u);
    const __m512d v = _mm512_maskz_loadu_pd(lanes, x + c);
    const __mmask8 positive = _mm512_mask_cmp_pd_mask(lanes, v, _mm512_setzero_pd(), _CMP_GT_OQ);
    const __m512d logs = _ZGVeN8v_log2(_mm512_mask_mov_pd(_mm512_set1_pd(1.0), positive, v));
    _mm512_mask_storeu_pd(out + c, lanes, _mm512_maskz_mul_pd(positive, v, logs));
  }
}
#endif

/// out[c] = XLog2X(x[c]) for c < n, eight at a time with glibc's vector log2
/// when the processor has AVX-512F and KernelBits allows it (a few ulp from
/// the scalar log2, the same for equal inputs).
inline void XLog2XBatch(const double* x, double* out, std::size_t n)
{
#ifdef MACROSCOPE_AGGREGATION_VECTOR_LOG2
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  if (avx512 && KernelBits.load() >= 512)
  {
    XLog2XBatchAVX512(x, out, n);
    return;
  }
#endif
  for (std::size_t c = 0; c < n; ++c)
  {
    out[c] = XLog2X(x[c]);
  }
}

/// Set on the sweep's worker threads, which already keep every core busy
/// with one DP each: ParallelFor then runs its loop on the calling thread.
inline thread_local bool InsideParallelSweep = false;

/// Set on every thread of a sweep while it runs: a DP may then keep its
/// tables in Scratch for the next DP of the same thread, instead of
/// allocating (and faulting in) them again each time, which cost as much as
/// a DP. The sweep releases them when it ends.
inline thread_local bool InsideSweep = false;
struct SweepScratch
{
  std::vector<double> Doubles;
  std::vector<char> Chars;
};
inline thread_local SweepScratch Scratch;

/// Calls body(i) for i in [0, count), index i on thread i % threads: the
/// callers' rows shrink with i, and interleaving balances them; the calling
/// thread's indices come evenly, so progress it reports between them does
/// too. Progress observers run on the calling thread alone: once done with
/// its indices, it calls waiting() every 20 ms until the others are done
/// with theirs (a busy machine may pause one for seconds).
template <typename Body, typename Waiting>
void ParallelFor(std::size_t count, unsigned threads, Body body, Waiting waiting)
{
  threads = InsideParallelSweep ? 1u : ThreadCount(threads, count);
  auto run = [&](unsigned first)
  {
    for (std::size_t i = first; i < count; i += threads)
    {
      body(i);
    }
  };
  std::mutex mutex;
  std::condition_variable finished;
  unsigned running = threads - 1;
  std::vector<std::thread> pool;
  for (unsigned k = 1; k < threads; ++k)
  {
    pool.emplace_back(
      [&, k]()
      {
        run(k);
        std::lock_guard<std::mutex> lock(mutex);
        --running;
        finished.notify_one();
      });
  }
  run(0);
  {
    std::unique_lock<std::mutex> lock(mutex);
    while (!finished.wait_for(lock, std::chrono::milliseconds(20), [&]() { return running == 0; }))
    {
      lock.unlock();
      waiting();
      lock.lock();
    }
  }
  for (auto& thread : pool)
  {
    thread.join();
  }
}

template <typename Body>
void ParallelFor(std::size_t count, unsigned threads, Body body)
{
  ParallelFor(count, threads, std::move(body), []() {});
}

}
}
