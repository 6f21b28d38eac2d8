// Benchmark of the per-phase clustering (Core/LogicalClustering.h):
// one phase of M members over S steps, the metric (a lateness-like value)
// drawn around one of G group profiles with noise, a fraction of the steps
// without an event. Times Clara (default samples and sample size) and
// SingleLinkage, and as a baseline in the same run the assignment of every
// member to the final medoids with the reference TimelineDistance on the raw
// rows (M x k distances, what one CLARA sample costs without the fast path).
//
// Usage: macroscope-clustering-bench [--members M] [--steps S] [--clusters K]
//          [--groups G] [--gap PERCENT] [--repeat R] [--seed X]
// Prints the best of R runs of each; exits 1 if a result is inconsistent.
#include "LogicalClustering.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace
{
double Seconds(std::chrono::steady_clock::duration d)
{
  return std::chrono::duration<double>(d).count();
}

template <typename F>
double BestOf(int repeat, F f)
{
  double best = 1e300;
  for (int r = 0; r < repeat; ++r)
  {
    const auto start = std::chrono::steady_clock::now();
    f();
    best = std::min(best, Seconds(std::chrono::steady_clock::now() - start));
  }
  return best;
}

double Uniform(std::mt19937_64& rng)
{
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}
}

int main(int argc, char* argv[])
{
  int members = 16384;
  int steps = 40;
  int clusters = 20;
  int groups = 12;
  int gap = 30;
  int repeat = 3;
  unsigned seed = 4;
  for (int i = 1; i + 1 < argc; i += 2)
  {
    const std::string option = argv[i];
    const int value = std::atoi(argv[i + 1]);
    if (option == "--members")
      members = value;
    else if (option == "--steps")
      steps = value;
    else if (option == "--clusters")
      clusters = value;
    else if (option == "--groups")
      groups = value;
    else if (option == "--gap")
      gap = value;
    else if (option == "--repeat")
      repeat = value;
    else if (option == "--seed")
      seed = static_cast<unsigned>(value);
    else
    {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (members < 1 || steps < 1 || clusters < 1 || groups < 1 || gap < 0 || gap > 100 || repeat < 1)
  {
    std::fprintf(stderr, "bad arguments\n");
    return 2;
  }

  // Group g's profile: a level, a drift over the steps, a late spike.
  namespace ml = macroscope::logical;
  std::mt19937_64 rng(seed);
  std::vector<double> profile(std::size_t(groups) * steps);
  for (int g = 0; g < groups; ++g)
  {
    const double level = 5.0 * Uniform(rng);
    const double drift = Uniform(rng) - 0.5;
    const int spike = static_cast<int>(Uniform(rng) * steps);
    for (int s = 0; s < steps; ++s)
    {
      profile[std::size_t(g) * steps + s] = level + drift * s + (s >= spike ? 2.0 : 0.0);
    }
  }
  ml::PhaseSeries series;
  series.Steps = static_cast<uint32_t>(steps);
  for (int m = 0; m < members; ++m)
  {
    const int g = static_cast<int>(Uniform(rng) * groups);
    series.Members.push_back(m);
    for (int s = 0; s < steps; ++s)
    {
      const bool active = s == 0 || Uniform(rng) * 100.0 >= gap;
      const double v = profile[std::size_t(g) * steps + s] + 0.3 * (Uniform(rng) - 0.5);
      series.Values.push_back(active ? v : std::numeric_limits<double>::quiet_NaN());
    }
  }
  std::printf("phase: %d members x %d steps, %d groups, %d%% of the steps without an event\n",
    members, steps, groups, gap);

  ml::ClaraOptions options;
  options.Clusters = static_cast<uint32_t>(clusters);
  ml::ClaraResult clara;
  std::vector<ml::Merge> merges;
  const double timeClara = BestOf(repeat, [&] { clara = ml::Clara(series, options); });
  const double timeLinkage = BestOf(repeat, [&] { merges = ml::SingleLinkage(series, clara); });
  const std::size_t k = clara.Medoids.size();
  std::vector<uint32_t> reference(series.Members.size());
  double referenceCost = 0.0;
  const double timeReference = BestOf(repeat,
    [&]
    {
      referenceCost = 0.0;
      for (std::size_t m = 0; m < reference.size(); ++m)
      {
        double best = std::numeric_limits<double>::infinity();
        for (std::size_t c = 0; c < k; ++c)
        {
          const double d = ml::TimelineDistance(series.Values.data() + m * steps,
            series.Values.data() + std::size_t(clara.Medoids[c]) * steps, series.Steps);
          if (d < best)
          {
            best = d;
            reference[m] = static_cast<uint32_t>(c);
          }
        }
        referenceCost += best;
      }
    });

  // Consistency: k clusters, a dendrogram over them, CLARA's cost equal to
  // the reference assignment's.
  if (k != std::min<std::size_t>(clusters, members) || merges.size() + 1 != k ||
    merges.back().Size != static_cast<uint32_t>(members))
  {
    std::fprintf(stderr, "FAIL: %zu medoids, %zu merges\n", k, merges.size());
    return 1;
  }
  if (std::abs(clara.Cost - referenceCost) > 1e-9 * (1.0 + referenceCost))
  {
    std::fprintf(
      stderr, "FAIL: CLARA cost %.17g, reference assignment %.17g\n", clara.Cost, referenceCost);
    return 1;
  }
  std::printf("best of %d:\n", repeat);
  std::printf("time_clara_s: %.6f\n", timeClara);
  std::printf("time_single_linkage_s: %.6f\n", timeLinkage);
  std::printf("time_clustering_s: %.6f\n", timeClara + timeLinkage);
  std::printf("time_reference_assignment_s: %.6f\n", timeReference);
  std::printf("clara_cost: %.6g\n", clara.Cost);
  std::printf("dendrogram_top_height: %.6g\n", merges.back().Height);
  return 0;
}
