// Benchmark of BuildLogicalTrace (Core/LogicalTime.h) on an
// in-memory trace shaped like the synthesizer's stencil3d: ranks on a
// cubic-ish grid, each iteration a compute call, then exchange_halo ⊃ one
// MPI_Isend per face neighbour and an MPI_Waitall completing the receives;
// every 10th iteration reduce_residual ⊃ MPI_Allreduce.
//
// Usage: macroscope-logical-bench [--ranks R] [--events N] [--repeat K]
//   --events  logical events wanted (rows of the output, aggregates
//             included; default 1000000): sets the number of iterations.
// Prints the input size, the output size and the best time of K runs.
#include "LogicalTime.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace
{
using namespace macroscope::logical;

struct Grid
{
  std::array<int, 3> Size{ 1, 1, 1 };
  explicit Grid(int ranks)
  {
    // The most cubic factorization x >= y >= z.
    int best = ranks;
    for (int z = 1; z * z * z <= ranks; ++z)
    {
      for (int y = z; y * y * z <= ranks; ++y)
      {
        if (ranks % (y * z) == 0)
        {
          const int x = ranks / (y * z);
          if (x >= y && x - z < best)
          {
            best = x - z;
            this->Size = { x, y, z };
          }
        }
      }
    }
  }
  std::vector<int> Neighbours(int rank) const
  {
    const int x = rank % Size[0], y = rank / Size[0] % Size[1], z = rank / (Size[0] * Size[1]);
    std::vector<int> result;
    const int c[3] = { x, y, z };
    const int stride[3] = { 1, Size[0], Size[0] * Size[1] };
    for (int d = 0; d < 3; ++d)
    {
      if (c[d] > 0)
        result.push_back(rank - stride[d]);
      if (c[d] + 1 < Size[d])
        result.push_back(rank + stride[d]);
    }
    return result;
  }
};

enum Type : int32_t
{
  Main,
  Compute,
  Halo,
  Residual,
  Isend,
  Waitall,
  Allreduce,
  Types
};

TraceInput Stencil(int ranks, std::size_t iterations)
{
  const Grid grid(ranks);
  TraceInput in;
  in.Locations = uint32_t(ranks);
  in.CommunicationType = { false, false, false, false, true, true, true };
  const auto state = [&](int r, Type type, int depth, double start, double end)
  {
    in.StateLocation.push_back(r);
    in.StateType.push_back(type);
    in.StateDepth.push_back(depth);
    in.StateStart.push_back(start);
    in.StateEnd.push_back(end);
  };
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> jitter(0.9e-3, 1.1e-3);
  const double call = 0.5e-6, latency = 5e-6;
  std::vector<double> clock(ranks, 0.0);
  std::vector<std::vector<int>> neighbours(ranks);
  for (int r = 0; r < ranks; ++r)
  {
    neighbours[r] = grid.Neighbours(r);
  }
  // Send time of the message from r to its k-th neighbour.
  std::vector<std::vector<double>> sent(ranks);
  std::vector<std::size_t> haloRow(ranks);
  for (std::size_t i = 0; i < iterations; ++i)
  {
    for (int r = 0; r < ranks; ++r)
    {
      const double begin = clock[r];
      clock[r] += jitter(rng);
      state(r, Compute, 1, begin, clock[r]);
      sent[r].clear();
      const double halo = clock[r];
      for (std::size_t k = 0; k < neighbours[r].size(); ++k)
      {
        state(r, Isend, 2, clock[r], clock[r] + call);
        sent[r].push_back(clock[r]);
        clock[r] += call;
      }
      haloRow[r] = in.StateEnd.size();
      state(r, Halo, 1, halo, halo); // ends with the Waitall, below
    }
    for (int r = 0; r < ranks; ++r)
    {
      const double enter = clock[r];
      double t = enter;
      for (const int from : neighbours[r])
      {
        const auto& back = neighbours[from];
        const std::size_t k = std::find(back.begin(), back.end(), r) - back.begin();
        t = std::max(t, sent[from][k] + latency);
        in.Sender.push_back(from);
        in.Receiver.push_back(r);
        in.SendTime.push_back(sent[from][k]);
        in.RecvTime.push_back(t);
      }
      clock[r] = t + call;
      state(r, Waitall, 2, enter, clock[r]);
      in.StateEnd[haloRow[r]] = clock[r];
    }
    if ((i + 1) % 10 == 0)
    {
      const double last = *std::max_element(clock.begin(), clock.end()) + 10e-6;
      for (int r = 0; r < ranks; ++r)
      {
        state(r, Residual, 1, clock[r], last);
        state(r, Allreduce, 2, clock[r], last);
        in.CollectiveLocation.push_back(r);
        in.CollectiveTime.push_back(last);
        in.CollectiveCommunicator.push_back(0);
        clock[r] = last;
      }
    }
  }
  for (int r = 0; r < ranks; ++r)
  {
    state(r, Main, 0, 0.0, clock[r]);
  }
  return in;
}

} // namespace

int main(int argc, char** argv)
{
  int ranks = 64;
  std::size_t events = 1000000;
  int repeat = 3;
  bool coalesce = false; // the Isends known as such, so that they coalesce
  for (int i = 1; i + 1 < argc; i += 2)
  {
    if (!std::strcmp(argv[i], "--ranks"))
      ranks = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--events"))
      events = std::strtoull(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--repeat"))
      repeat = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--coalesce"))
      coalesce = std::atoi(argv[i + 1]) != 0;
    else
    {
      std::fprintf(
        stderr, "usage: %s [--ranks R] [--events N] [--repeat K] [--coalesce 0|1]\n", argv[0]);
      return 2;
    }
  }
  if (ranks < 2 || repeat < 1)
  {
    std::fprintf(stderr, "need at least 2 ranks and 1 repeat\n");
    return 2;
  }
  // Logical events per iteration: 2 per Isend and Waitall, ~2 per rank for
  // the Allreduce every 10 iterations.
  const Grid grid(ranks);
  std::size_t perIteration = 0;
  for (int r = 0; r < ranks; ++r)
  {
    perIteration += 2 * (grid.Neighbours(r).size() + 1);
  }
  const std::size_t iterations = std::max<std::size_t>(1, events / (perIteration + ranks / 5));
  TraceInput in = Stencil(ranks, iterations);
  if (coalesce)
  {
    in.IsendType.assign(Types, false);
    in.IsendType[Isend] = true;
  }
  double best = INFINITY;
  LogicalTrace trace;
  for (int k = 0; k < repeat; ++k)
  {
    const auto t0 = std::chrono::steady_clock::now();
    trace = BuildLogicalTrace(in);
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
  }
  // Baseline, timed the same way in the same run (the machine is shared and
  // noisy): sorting the state rows by (location, start), the least any
  // reordering of the trace into timelines costs.
  double baseline = INFINITY;
  for (int k = 0; k < repeat; ++k)
  {
    std::vector<std::size_t> order(in.StateStart.size());
    for (std::size_t i = 0; i < order.size(); ++i)
    {
      order[i] = i;
    }
    const auto t0 = std::chrono::steady_clock::now();
    std::sort(order.begin(), order.end(),
      [&](std::size_t a, std::size_t b)
      {
        return in.StateLocation[a] != in.StateLocation[b]
          ? in.StateLocation[a] < in.StateLocation[b]
          : in.StateStart[a] < in.StateStart[b];
      });
    const auto t1 = std::chrono::steady_clock::now();
    baseline = std::min(baseline, std::chrono::duration<double>(t1 - t0).count());
  }
  std::printf("grid: %d x %d x %d ranks\n", grid.Size[0], grid.Size[1], grid.Size[2]);
  std::printf("iterations: %zu\n", iterations);
  std::printf("states: %zu\n", in.StateStart.size());
  std::printf("messages: %zu\n", in.SendTime.size());
  std::printf("collective_records: %zu\n", in.CollectiveTime.size());
  std::printf("logical_events: %zu\n", trace.Events.size());
  std::printf("phases: %zu\n", trace.Phases.size());
  std::printf("global_steps: %zu\n", trace.Spans.Start.size());
  std::printf("dropped_messages: %llu\n", (unsigned long long)trace.Report.DroppedMessages);
  std::printf("coalesced_isends: %llu\n", (unsigned long long)trace.Report.CoalescedIsends);
  std::printf("baseline_sort_seconds: %.3f\n", baseline);
  std::printf("ratio_to_baseline: %.1f\n", best / baseline);
  std::printf("build_seconds: %.3f\n", best);
  return 0;
}
