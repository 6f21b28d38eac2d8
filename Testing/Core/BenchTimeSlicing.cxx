// Benchmark of SliceTrace (StateDuration, exclusive time) on an in-memory
// state table shaped like a reader's output: rows grouped by leaf, each
// leaf's rows in Leave order (End ascending, children before their parent),
// nested call stacks three to four levels deep.
//
// Usage: macroscope-time-slicing-bench [--leaves L] [--states N] [--slices S]
//          [--repeat R] [--types T]
// Prints the states/s of the best of R runs with Threads = 1 and with
// Threads = 2, and the speed-up; exits 1 if the two results differ.
#include "TimeSlicing.h"

#include <algorithm>
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
struct Table
{
  std::vector<uint32_t> Location, Type, Depth;
  std::vector<double> Start, End;

  void Reserve(std::size_t n)
  {
    this->Location.reserve(n);
    this->Type.reserve(n);
    this->Depth.reserve(n);
    this->Start.reserve(n);
    this->End.reserve(n);
  }
};

// One call of depth `depth` starting at `start`: its callees first (they
// leave first), then the call itself. Returns the call's end.
double EmitCall(Table& table, std::mt19937_64& rng, uint32_t leaf, uint32_t depth,
  uint32_t maxDepth, uint32_t types, double start, std::size_t& budget)
{
  std::uniform_real_distribution<double> work(0.5e-6, 8e-6);
  std::uniform_int_distribution<int> callees(depth == 0 ? 1 : 0, 3);
  std::uniform_int_distribution<uint32_t> type(0, types - 1);
  double t = start + work(rng);
  if (depth + 1 < maxDepth)
  {
    const int n = callees(rng);
    for (int c = 0; c < n && budget > 1; ++c)
    {
      t = EmitCall(table, rng, leaf, depth + 1, maxDepth, types, t, budget);
      t += work(rng);
    }
  }
  table.Location.push_back(leaf);
  table.Type.push_back(type(rng));
  table.Depth.push_back(depth);
  table.Start.push_back(start);
  table.End.push_back(t);
  if (budget > 0)
  {
    --budget;
  }
  return t;
}

double Seconds(std::chrono::steady_clock::duration d)
{
  return std::chrono::duration<double>(d).count();
}
}

int main(int argc, char* argv[])
{
  uint32_t leaves = 64;
  std::size_t states = 16000000;
  int slices = 1000;
  int repeat = 3;
  uint32_t types = 24;
  for (int i = 1; i + 1 < argc; i += 2)
  {
    const std::string option = argv[i];
    const char* value = argv[i + 1];
    if (option == "--leaves")
      leaves = static_cast<uint32_t>(std::strtoul(value, nullptr, 10));
    else if (option == "--states")
      states = std::strtoull(value, nullptr, 10);
    else if (option == "--slices")
      slices = std::atoi(value);
    else if (option == "--repeat")
      repeat = std::atoi(value);
    else if (option == "--types")
      types = static_cast<uint32_t>(std::strtoul(value, nullptr, 10));
    else
    {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (leaves < 1 || states < leaves || slices < 1 || repeat < 1 || types < 1)
  {
    std::fprintf(stderr, "bad arguments\n");
    return 2;
  }

  // The state table, leaf after leaf.
  const auto generating = std::chrono::steady_clock::now();
  Table table;
  table.Reserve(states + 16 * leaves);
  double end = 0.0;
  for (uint32_t leaf = 0; leaf < leaves; ++leaf)
  {
    std::mt19937_64 rng(0x5eed0000u + leaf);
    std::uniform_real_distribution<double> idle(0.0, 4e-6);
    std::uniform_int_distribution<uint32_t> stack(3, 4);
    std::size_t budget = states / leaves + (leaf < states % leaves ? 1 : 0);
    double t = idle(rng);
    while (budget > 0)
    {
      t = EmitCall(table, rng, leaf, 0, stack(rng), types, t, budget) + idle(rng);
    }
    end = std::max(end, t);
  }
  const std::size_t rows = table.Location.size();
  std::printf("generated %zu states on %u leaves (%u types, trace %.3f s) in %.2f s\n", rows,
    leaves, types, end, Seconds(std::chrono::steady_clock::now() - generating));

  macroscope::StateRows input;
  input.Location = table.Location.data();
  input.Type = table.Type.data();
  input.Depth = table.Depth.data();
  input.Start = table.Start.data();
  input.End = table.End.data();
  input.Count = rows;

  macroscope::TimeSlicingOptions options;
  options.Grid.Begin = 0.0;
  options.Grid.End = end;
  options.Grid.Slices = slices;
  options.Metric = macroscope::SliceMetric::StateDuration;
  options.Depth = -1;
  options.Leaves = leaves;
  options.Types = types;

  std::vector<double> reference;
  double rate[2] = { 0.0, 0.0 };
  const unsigned threadCounts[2] = { 1, 2 };
  for (int k = 0; k < 2; ++k)
  {
    options.Threads = threadCounts[k];
    double best = 1e300;
    for (int r = 0; r < repeat; ++r)
    {
      const auto start = std::chrono::steady_clock::now();
      macroscope::MicroscopicModel model = macroscope::SliceTrace(options, input, {}, {});
      best = std::min(best, Seconds(std::chrono::steady_clock::now() - start));
      if (reference.empty())
      {
        reference = model.Values;
      }
      else if (model.Values.size() != reference.size() ||
        std::memcmp(model.Values.data(), reference.data(), reference.size() * sizeof(double)) != 0)
      {
        std::fprintf(stderr, "FAIL: Threads=%u gives a different model\n", options.Threads);
        return 1;
      }
    }
    rate[k] = rows / best;
    std::printf("threads=%u slices=%d best of %d: %.4f s  %.2f M states/s\n", options.Threads,
      slices, repeat, best, rate[k] / 1e6);
  }
  double traced = 0.0;
  for (double v : reference)
  {
    traced += v;
  }
  // Exclusive durations add up to the time covered by the depth-0 calls.
  double covered = 0.0;
  for (std::size_t i = 0; i < rows; ++i)
  {
    covered += table.Depth[i] == 0 ? table.End[i] - table.Start[i] : 0.0;
  }
  std::printf("checksum (traced seconds): %.9f (depth-0 calls cover %.9f)\n", traced, covered);
  if (std::abs(traced - covered) > 1e-9 * covered)
  {
    std::fprintf(stderr, "FAIL: the model does not add up to the traced time\n");
    return 1;
  }
  std::printf("rate_1thread_states_per_s: %.0f\n", rate[0]);
  std::printf("rate_2threads_states_per_s: %.0f\n", rate[1]);
  std::printf("speedup: %.2f\n", rate[1] / rate[0]);
  return 0;
}
