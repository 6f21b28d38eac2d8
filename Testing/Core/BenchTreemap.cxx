// Benchmark of the nested treemap layout (Core/Treemap.h) on a
// three-level hierarchy shaped like a large machine: clusters of nodes of
// leaves, random leaf sizes from a fixed seed. Times the squarified layout
// with margins and a header, and two baselines on the same input in the
// same run (the slice-and-dice layout of the tree, and a std::sort of the
// leaf sizes), so that the figures compare on a noisy machine.
//
// Usage: macroscope-treemap-bench [--clusters C] [--nodes N] [--leaves L]
//          [--repeat R] [--seed S]
// Prints the best of R runs of each; exits 1 if a layout is inconsistent.
#include "Treemap.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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
}

int main(int argc, char* argv[])
{
  int clusters = 10;
  int nodes = 100;
  int leaves = 100;
  int repeat = 5;
  unsigned seed = 8;
  for (int i = 1; i + 1 < argc; i += 2)
  {
    const std::string option = argv[i];
    const int value = std::atoi(argv[i + 1]);
    if (option == "--clusters")
      clusters = value;
    else if (option == "--nodes")
      nodes = value;
    else if (option == "--leaves")
      leaves = value;
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
  if (clusters < 1 || nodes < 1 || leaves < 1 || repeat < 1)
  {
    std::fprintf(stderr, "bad arguments\n");
    return 2;
  }

  // Root, then each cluster followed by its nodes, each node by its leaves.
  std::vector<int64_t> parent{ -1 };
  std::vector<double> size{ 0.0 };
  std::vector<double> leafSizes;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> work(0.1, 1.0);
  for (int c = 0; c < clusters; ++c)
  {
    const auto cluster = static_cast<int64_t>(parent.size());
    parent.push_back(0);
    size.push_back(0.0);
    for (int n = 0; n < nodes; ++n)
    {
      const auto node = static_cast<int64_t>(parent.size());
      parent.push_back(cluster);
      size.push_back(0.0);
      for (int l = 0; l < leaves; ++l)
      {
        parent.push_back(node);
        size.push_back(work(rng));
        leafSizes.push_back(size.back());
      }
    }
  }
  std::printf("tree: %zu nodes, %zu leaves (%d clusters x %d nodes x %d leaves)\n", parent.size(),
    leafSizes.size(), clusters, nodes, leaves);

  const macroscope::TreemapRect bounds{ 0, 0, 1920, 1080 };
  macroscope::TreemapOptions squarified{ macroscope::TreemapAlgorithm::Squarified, 1.0, 2.0 };
  macroscope::TreemapOptions sliced{ macroscope::TreemapAlgorithm::SliceAndDice, 1.0, 2.0 };
  macroscope::TreemapLayout a, b;
  const double timeSquarified =
    BestOf(repeat, [&] { a = macroscope::LayoutTree(parent, size, bounds, squarified); });
  const double timeSliced =
    BestOf(repeat, [&] { b = macroscope::LayoutTree(parent, size, bounds, sliced); });
  std::vector<double> sorted;
  const double timeSort = BestOf(repeat,
    [&]
    {
      sorted = leafSizes;
      std::sort(sorted.begin(), sorted.end(), std::greater<double>());
    });

  // Consistency: the same root size both ways, every leaf inside the bounds.
  double total = 0.0;
  for (const double s : sorted)
  {
    total += s;
  }
  if (std::abs(a.Size[0] - total) > 1e-9 * total || a.Size[0] != b.Size[0])
  {
    std::fprintf(
      stderr, "FAIL: root sizes %.17g, %.17g, expected %.17g\n", a.Size[0], b.Size[0], total);
    return 1;
  }
  std::vector<macroscope::TreemapRect> leafA, leafB;
  for (std::size_t v = 0; v < parent.size(); ++v)
  {
    if (!bounds.Contains(a.Rects[v]) || !bounds.Contains(b.Rects[v]))
    {
      std::fprintf(stderr, "FAIL: node %zu outside the bounds\n", v);
      return 1;
    }
    if (a.Depth[v] == 3)
    {
      leafA.push_back(a.Rects[v]);
      leafB.push_back(b.Rects[v]);
    }
  }
  std::printf("best of %d:\n", repeat);
  std::printf("time_squarified_s: %.6f\n", timeSquarified);
  std::printf("time_slice_and_dice_s: %.6f\n", timeSliced);
  std::printf("time_sort_s: %.6f\n", timeSort);
  std::printf("squarified_over_slice_and_dice: %.2f\n", timeSquarified / timeSliced);
  std::printf("squarified_over_sort: %.2f\n", timeSquarified / timeSort);
  std::printf("mean_leaf_aspect_squarified: %.3f\n", macroscope::MeanAspectRatio(leafA));
  std::printf("mean_leaf_aspect_slice_and_dice: %.3f\n", macroscope::MeanAspectRatio(leafB));
  return 0;
}
