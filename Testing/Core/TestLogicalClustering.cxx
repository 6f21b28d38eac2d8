// Per-phase clustering (Core/LogicalClustering.h): the distance of
// Isaacs et al. 2014 (Ravel) Fig. 4 on hand cases and its fast path against the reference,
// PAM against exhaustive search, CLARA on separated groups, single linkage
// against a naive O(k^3) agglomeration, cuts of the dendrogram, bad input.
#include "LogicalClustering.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace macroscope::logical;

namespace
{
constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

// Library-independent draws (std::*_distribution differ between libraries).
double Uniform(std::mt19937_64& rng)
{
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// `members` rows of `steps` values in [0, 10), a step without an event with
// probability `gap`.
PhaseSeries RandomSeries(std::mt19937_64& rng, uint32_t members, uint32_t steps, double gap)
{
  PhaseSeries series;
  series.Steps = steps;
  for (uint32_t m = 0; m < members; ++m)
  {
    series.Members.push_back(static_cast<int32_t>(100 + m));
    for (uint32_t s = 0; s < steps; ++s)
    {
      const bool active = Uniform(rng) >= gap;
      const double v = 10.0 * Uniform(rng);
      series.Values.push_back(active ? v : NaN);
    }
  }
  return series;
}

const double* Row(const PhaseSeries& series, uint32_t m)
{
  return series.Values.data() + std::size_t(m) * series.Steps;
}

double Distance(const PhaseSeries& series, uint32_t a, uint32_t b)
{
  return TimelineDistance(Row(series, a), Row(series, b), series.Steps);
}

double CostOf(const PhaseSeries& series, const std::vector<uint32_t>& medoids)
{
  double cost = 0.0;
  for (uint32_t m = 0; m < series.Members.size(); ++m)
  {
    double best = std::numeric_limits<double>::infinity();
    for (const uint32_t c : medoids)
    {
      best = std::min(best, Distance(series, m, c));
    }
    cost += best;
  }
  return cost;
}

// The least cost over all k-subsets of the members.
double BruteForceOptimum(const PhaseSeries& series, uint32_t k)
{
  const auto n = static_cast<uint32_t>(series.Members.size());
  std::vector<uint8_t> pick(n, 0);
  std::fill(pick.begin(), pick.begin() + k, 1);
  double best = std::numeric_limits<double>::infinity();
  do
  {
    std::vector<uint32_t> medoids;
    for (uint32_t m = 0; m < n; ++m)
    {
      if (pick[m])
      {
        medoids.push_back(m);
      }
    }
    best = std::min(best, CostOf(series, medoids));
  } while (std::prev_permutation(pick.begin(), pick.end()));
  return best;
}

// The clusters as sets of members, so that two labelings compare up to renumbering.
std::set<std::set<uint32_t>> Partition(const std::vector<uint32_t>& labels)
{
  std::map<uint32_t, std::set<uint32_t>> groups;
  for (uint32_t m = 0; m < labels.size(); ++m)
  {
    groups[labels[m]].insert(m);
  }
  std::set<std::set<uint32_t>> result;
  for (const auto& g : groups)
  {
    result.insert(g.second);
  }
  return result;
}

// A CLARA result must send each member to its nearest medoid (a medoid to
// its own cluster) and add the distances up to its cost.
void ExpectConsistent(const PhaseSeries& series, const ClaraResult& r)
{
  const auto n = static_cast<uint32_t>(series.Members.size());
  ASSERT_EQ(r.Assignment.size(), n);
  ASSERT_TRUE(std::is_sorted(r.Medoids.begin(), r.Medoids.end()));
  double cost = 0.0;
  for (uint32_t m = 0; m < n; ++m)
  {
    ASSERT_LT(r.Assignment[m], r.Medoids.size());
    const double mine = Distance(series, m, r.Medoids[r.Assignment[m]]);
    for (uint32_t c = 0; c < r.Medoids.size(); ++c)
    {
      EXPECT_LE(mine, Distance(series, m, r.Medoids[c]) + 1e-12) << "member " << m;
      if (r.Medoids[c] == m)
      {
        EXPECT_EQ(r.Assignment[m], c);
      }
    }
    cost += mine;
  }
  EXPECT_NEAR(r.Cost, cost, 1e-9 * (1.0 + cost));
}

template <typename F>
void ExpectInvalid(F f, const std::string& needle)
{
  try
  {
    f();
    ADD_FAILURE() << "no exception; expected one mentioning '" << needle << "'";
  }
  catch (const std::invalid_argument& e)
  {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
      << "message '" << e.what() << "' lacks '" << needle << "'";
  }
}

// Three groups of `per` members interleaved (member m in group m % 3) over
// `steps` steps, a fifth of the steps without an event: a flat group near 0,
// a ramp, and a "slow" group offset by 3; noise of +-0.05.
PhaseSeries Groups(uint32_t per, uint32_t steps, uint64_t seed)
{
  std::mt19937_64 rng(seed);
  PhaseSeries series;
  series.Steps = steps;
  for (uint32_t m = 0; m < 3 * per; ++m)
  {
    series.Members.push_back(static_cast<int32_t>(m));
    for (uint32_t s = 0; s < steps; ++s)
    {
      const double base = m % 3 == 0 ? 0.0 : m % 3 == 1 ? 0.1 * s : 3.0;
      const double noise = 0.1 * (Uniform(rng) - 0.5);
      series.Values.push_back(Uniform(rng) < 0.2 ? NaN : base + noise);
    }
  }
  return series;
}
}

TEST(TimelineDistance, HandCaseOfFigure4Rule)
{
  // step:   0    1    2    3    4    5
  // a:      1    -    3    -    -    2
  // b:      -    2    5    -    4    -
  // 0: b has no value yet, skipped. 1: a fills with 1, (1-2)^2 = 1.
  // 2: (3-5)^2 = 4. 3: both inactive, skipped. 4: a fills with 3, (3-4)^2 = 1.
  // 5: b fills with 4, (2-4)^2 = 4. Mean over the 4 steps: 10 / 4.
  const double a[] = { 1, NaN, 3, NaN, NaN, 2 };
  const double b[] = { NaN, 2, 5, NaN, 4, NaN };
  EXPECT_DOUBLE_EQ(TimelineDistance(a, b, 6), 2.5);
  EXPECT_DOUBLE_EQ(TimelineDistance(b, a, 6), 2.5);
  // Only the first two steps: step 1 alone counts.
  EXPECT_DOUBLE_EQ(TimelineDistance(a, b, 2), 1.0);

  // Not a Euclidean distance: equal values over fewer common steps are not
  // penalized. a2 is active twice, b2 four times; a2 fills 7 for steps 1, 2.
  const double a2[] = { 7, NaN, NaN, 7 };
  const double b2[] = { 7, 7, 9, 7 };
  EXPECT_DOUBLE_EQ(TimelineDistance(a2, b2, 4), 4.0 / 4.0);
}

TEST(TimelineDistance, NothingCountedIsZero)
{
  // a's only event comes before b has any; then both are inactive.
  const double a[] = { 1, NaN, NaN };
  const double b[] = { NaN, NaN, NaN };
  EXPECT_EQ(TimelineDistance(a, b, 3), 0.0);
  EXPECT_EQ(TimelineDistance(a, b, 0), 0.0);
  // b's events all precede a's first one: b fills from then on.
  const double c[] = { 5, 6, NaN, NaN };
  const double d[] = { NaN, NaN, 1, NaN };
  // Step 0, 1: d has no value yet. Step 2: (6 - 1)^2. Step 3: both inactive.
  EXPECT_DOUBLE_EQ(TimelineDistance(c, d, 4), 25.0);
}

TEST(TimelineDistance, SymmetricZeroOnIdenticalAndFastPathMatches)
{
  std::mt19937_64 rng(42);
  for (const double gap : { 0.0, 0.3, 0.7, 0.95 })
  {
    const PhaseSeries series = RandomSeries(rng, 40, 25, gap);
    const FilledSeries filled = FillSeries(series);
    for (uint32_t a = 0; a < 40; ++a)
    {
      EXPECT_EQ(Distance(series, a, a), 0.0);
      EXPECT_EQ(FilledDistance(filled, a, a), 0.0);
      for (uint32_t b = 0; b < 40; ++b)
      {
        const double reference = Distance(series, a, b);
        EXPECT_GE(reference, 0.0);
        EXPECT_EQ(reference, Distance(series, b, a));
        EXPECT_NEAR(FilledDistance(filled, a, b), reference, 1e-12 * (1.0 + reference))
          << "gap " << gap << " members " << a << ", " << b;
      }
    }
  }
}

// True when no swap of one medoid for one other member lowers the cost,
// tried by brute force.
bool SwapOptimal(const PhaseSeries& series, const ClaraResult& r)
{
  for (uint32_t h = 0; h < r.Medoids.size(); ++h)
  {
    for (uint32_t i = 0; i < series.Members.size(); ++i)
    {
      if (std::find(r.Medoids.begin(), r.Medoids.end(), i) != r.Medoids.end())
      {
        continue;
      }
      std::vector<uint32_t> swapped = r.Medoids;
      swapped[h] = i;
      if (CostOf(series, swapped) < r.Cost - 1e-9 * (1.0 + r.Cost))
      {
        return false;
      }
    }
  }
  return true;
}

TEST(Clara, PamMatchesExhaustiveSearchOnSmallInputs)
{
  // n <= SampleSize: a single PAM on every member. PAM (BUILD + SWAP) is a
  // local search: k = 1 is exact (BUILD takes the least total distance) and
  // grouped members give the optimum; on random rows it can stop at a set no
  // single swap improves while the optimum is two swaps away (this distance,
  // a mean of squares, is no metric), so there it must be swap-optimal and
  // mostly optimal.
  std::mt19937_64 rng(7);
  int cases = 0;
  int optimal = 0;
  for (uint32_t n = 2; n <= 11; ++n)
  {
    for (uint32_t k = 1; k <= std::min(n, 4u); ++k)
    {
      for (int repeat = 0; repeat < 4; ++repeat)
      {
        const PhaseSeries series = RandomSeries(rng, n, 6, 0.3);
        ClaraOptions options;
        options.Clusters = k;
        const ClaraResult r = Clara(series, options);
        ASSERT_EQ(r.Medoids.size(), k);
        ExpectConsistent(series, r);
        const double optimum = BruteForceOptimum(series, k);
        EXPECT_GE(r.Cost, optimum - 1e-9 * (1.0 + optimum));
        EXPECT_TRUE(SwapOptimal(series, r)) << "n " << n << " k " << k;
        const bool isOptimal = r.Cost <= optimum + 1e-9 * (1.0 + optimum);
        if (k == 1)
        {
          EXPECT_TRUE(isOptimal) << "n " << n;
        }
        optimal += isOptimal ? 1 : 0;
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, 4 * (2 + 3 + 4 * 8));
  EXPECT_GE(optimal, 0.85 * cases) << optimal << " of " << cases << " optimal";

  // k groups of members around 0, 10, 20, ... (+-0.5, with gaps): optimal.
  for (uint32_t k = 2; k <= 4; ++k)
  {
    for (uint32_t n = k; n <= 12; ++n)
    {
      PhaseSeries series;
      series.Steps = 5;
      for (uint32_t m = 0; m < n; ++m)
      {
        series.Members.push_back(static_cast<int32_t>(m));
        for (uint32_t s = 0; s < 5; ++s)
        {
          const double v = 10.0 * (m % k) + Uniform(rng) - 0.5;
          series.Values.push_back(s > 0 && Uniform(rng) < 0.3 ? NaN : v);
        }
      }
      ClaraOptions options;
      options.Clusters = k;
      const ClaraResult r = Clara(series, options);
      const double optimum = BruteForceOptimum(series, k);
      EXPECT_NEAR(r.Cost, optimum, 1e-9 * (1.0 + optimum)) << "grouped n " << n << " k " << k;
    }
  }
}

TEST(Clara, NoSingleSwapImprovesThePamResult)
{
  // SWAP runs to convergence, on 30 members and 5 clusters.
  std::mt19937_64 rng(11);
  for (int repeat = 0; repeat < 10; ++repeat)
  {
    const PhaseSeries series = RandomSeries(rng, 30, 8, 0.4);
    ClaraOptions options;
    options.Clusters = 5;
    const ClaraResult r = Clara(series, options);
    ASSERT_EQ(r.Medoids.size(), 5u);
    EXPECT_TRUE(SwapOptimal(series, r));
  }
}

TEST(Clara, RecoversSeparatedGroups)
{
  // 600 members, more than the 46 of a sample: sampled CLARA.
  const PhaseSeries series = Groups(200, 30, 5);
  std::vector<uint32_t> truth(600);
  for (uint32_t m = 0; m < 600; ++m)
  {
    truth[m] = m % 3;
  }
  for (const uint64_t seed : { 1u, 2u, 3u })
  {
    ClaraOptions options;
    options.Clusters = 3;
    options.Seed = seed;
    const ClaraResult r = Clara(series, options);
    ASSERT_EQ(r.Medoids.size(), 3u);
    ExpectConsistent(series, r);
    EXPECT_EQ(Partition(r.Assignment), Partition(truth)) << "seed " << seed;
  }

  // More CLARA clusters than groups: the dendrogram cut at 3 finds them.
  ClaraOptions options;
  options.Clusters = 8;
  const ClaraResult r = Clara(series, options);
  ASSERT_EQ(r.Medoids.size(), 8u);
  const std::vector<Merge> merges = SingleLinkage(series, r);
  ASSERT_EQ(merges.size(), 7u);
  EXPECT_EQ(Partition(CutDendrogram(r, merges, 3)), Partition(truth));
  // The last two merges join groups, far above the merges within them.
  EXPECT_GT(merges[5].Height, 10.0 * merges[4].Height);
  EXPECT_EQ(merges.back().Size, 600u);
}

TEST(Clara, DeterministicForASeedAndMoreSamplesNeverCostMore)
{
  std::mt19937_64 rng(3);
  const PhaseSeries series = RandomSeries(rng, 500, 12, 0.3);
  ClaraOptions options;
  options.Clusters = 6;
  options.Seed = 99;
  const ClaraResult a = Clara(series, options);
  const ClaraResult b = Clara(series, options);
  EXPECT_EQ(a.Medoids, b.Medoids);
  EXPECT_EQ(a.Assignment, b.Assignment);
  EXPECT_EQ(a.Cost, b.Cost);
  ExpectConsistent(series, a);

  // The first t samples of a seed are the same whatever Samples is, and the
  // best of them is kept: the cost never rises with Samples.
  double previous = std::numeric_limits<double>::infinity();
  for (uint32_t samples = 1; samples <= 6; ++samples)
  {
    options.Samples = samples;
    const ClaraResult r = Clara(series, options);
    EXPECT_LE(r.Cost, previous) << samples << " samples";
    previous = r.Cost;
  }
}

TEST(Clara, DuplicatedRowsCapClusters)
{
  // 9 members, 3 distinct rows (one of them without any event), Clusters 5.
  PhaseSeries series;
  series.Steps = 3;
  const std::vector<std::vector<double>> rows = { { 1, NaN, 2 }, { NaN, NaN, NaN }, { 4, 4, NaN } };
  for (uint32_t m = 0; m < 9; ++m)
  {
    series.Members.push_back(static_cast<int32_t>(m));
    series.Values.insert(series.Values.end(), rows[m % 3].begin(), rows[m % 3].end());
  }
  for (const uint32_t sampleSize : { 0u, 5u })
  {
    ClaraOptions options;
    options.Clusters = 5;
    options.SampleSize = sampleSize; // 5 < 9: sampled, still 3 distinct rows
    const ClaraResult r = Clara(series, options);
    ASSERT_EQ(r.Medoids.size(), 3u);
    std::set<uint32_t> rowsOfMedoids;
    for (const uint32_t medoid : r.Medoids)
    {
      rowsOfMedoids.insert(medoid % 3);
    }
    EXPECT_EQ(rowsOfMedoids.size(), 3u);
    EXPECT_EQ(r.Cost, 0.0);
    ExpectConsistent(series, r);
  }

  // Every member identical: one cluster.
  PhaseSeries same;
  same.Steps = 2;
  for (uint32_t m = 0; m < 50; ++m)
  {
    same.Members.push_back(static_cast<int32_t>(m));
    same.Values.insert(same.Values.end(), { 3.0, NaN });
  }
  const ClaraResult one = Clara(same, ClaraOptions{});
  EXPECT_EQ(one.Medoids, std::vector<uint32_t>{ 0 });
  EXPECT_EQ(one.Assignment, std::vector<uint32_t>(50, 0));
  EXPECT_EQ(SingleLinkage(same, one).size(), 0u);
  EXPECT_EQ(CutDendrogram(one, {}, 1), std::vector<uint32_t>(50, 0));
}

TEST(Clara, FewerMembersThanClustersAndEmpty)
{
  std::mt19937_64 rng(5);
  const PhaseSeries series = RandomSeries(rng, 3, 4, 0.0);
  const ClaraResult r = Clara(series, ClaraOptions{}); // Clusters 8
  EXPECT_EQ(r.Medoids, (std::vector<uint32_t>{ 0, 1, 2 }));
  EXPECT_EQ(r.Assignment, (std::vector<uint32_t>{ 0, 1, 2 }));
  EXPECT_EQ(r.Cost, 0.0);

  const PhaseSeries empty;
  const ClaraResult none = Clara(empty, ClaraOptions{});
  EXPECT_TRUE(none.Medoids.empty());
  EXPECT_TRUE(none.Assignment.empty());
  EXPECT_TRUE(SingleLinkage(empty, none).empty());
}

TEST(SingleLinkage, HandCase)
{
  // Three clusters whose medoids hold 0, 1 and 3 at their single step:
  // distances 1 (0-1), 4 (1-3), 9 (0-3). Members 3..5 join clusters 2, 0, 0.
  PhaseSeries series;
  series.Steps = 1;
  series.Members = { 0, 1, 2, 3, 4, 5 };
  series.Values = { 0, 1, 3, 3.5, 0.2, -0.1 };
  ClaraResult clara;
  clara.Medoids = { 0, 1, 2 };
  clara.Assignment = { 0, 1, 2, 2, 0, 0 };
  const std::vector<Merge> merges = SingleLinkage(series, clara);
  ASSERT_EQ(merges.size(), 2u);
  EXPECT_EQ(merges[0].Left, 0u);
  EXPECT_EQ(merges[0].Right, 1u);
  EXPECT_DOUBLE_EQ(merges[0].Height, 1.0);
  EXPECT_EQ(merges[0].Size, 4u); // 3 members in cluster 0, 1 in cluster 1
  EXPECT_EQ(merges[1].Left, 2u);
  EXPECT_EQ(merges[1].Right, 3u);
  EXPECT_DOUBLE_EQ(merges[1].Height, 4.0); // min(4, 9)
  EXPECT_EQ(merges[1].Size, 6u);

  EXPECT_EQ(CutDendrogram(clara, merges, 3), (std::vector<uint32_t>{ 0, 1, 2, 2, 0, 0 }));
  EXPECT_EQ(CutDendrogram(clara, merges, 2), (std::vector<uint32_t>{ 0, 0, 1, 1, 0, 0 }));
  EXPECT_EQ(CutDendrogram(clara, merges, 1), (std::vector<uint32_t>(6, 0)));

  // Numbered by first member: cluster 2 holding member 0 becomes cluster 0.
  clara.Assignment = { 2, 1, 0, 0, 2, 2 };
  clara.Medoids = { 2, 1, 0 };
  EXPECT_EQ(CutDendrogram(clara, SingleLinkage(series, clara), 3),
    (std::vector<uint32_t>{ 0, 1, 2, 2, 0, 0 }));
}

TEST(SingleLinkage, MatchesNaiveAgglomerationAndCutsNest)
{
  std::mt19937_64 rng(21);
  for (int repeat = 0; repeat < 5; ++repeat)
  {
    const PhaseSeries series = RandomSeries(rng, 300, 10, 0.3);
    ClaraOptions options;
    options.Clusters = 12;
    options.Seed = 1000 + repeat;
    const ClaraResult clara = Clara(series, options);
    const auto k = static_cast<uint32_t>(clara.Medoids.size());
    ASSERT_EQ(k, 12u);
    const std::vector<Merge> merges = SingleLinkage(series, clara);
    ASSERT_EQ(merges.size(), k - 1);

    // Naive O(k^3): merge the two groups with the closest pair of medoids.
    std::vector<std::vector<uint32_t>> groups;
    for (uint32_t c = 0; c < k; ++c)
    {
      groups.push_back({ c });
    }
    for (uint32_t step = 0; step + 1 < k; ++step)
    {
      // The cut into as many groups as now exist is the naive partition.
      std::vector<uint32_t> naive(series.Members.size());
      for (uint32_t g = 0; g < groups.size(); ++g)
      {
        for (uint32_t m = 0; m < naive.size(); ++m)
        {
          if (std::count(groups[g].begin(), groups[g].end(), clara.Assignment[m]))
          {
            naive[m] = g;
          }
        }
      }
      EXPECT_EQ(Partition(CutDendrogram(clara, merges, k - step)), Partition(naive))
        << "cut " << k - step;

      double best = std::numeric_limits<double>::infinity();
      std::size_t bi = 0, bj = 0;
      for (std::size_t i = 0; i < groups.size(); ++i)
      {
        for (std::size_t j = i + 1; j < groups.size(); ++j)
        {
          for (const uint32_t x : groups[i])
          {
            for (const uint32_t y : groups[j])
            {
              const double d = Distance(series, clara.Medoids[x], clara.Medoids[y]);
              if (d < best)
              {
                best = d;
                bi = i;
                bj = j;
              }
            }
          }
        }
      }
      EXPECT_DOUBLE_EQ(merges[step].Height, best) << "merge " << step;
      groups[bi].insert(groups[bi].end(), groups[bj].begin(), groups[bj].end());
      groups.erase(groups.begin() + bj);
      uint32_t size = 0;
      for (const uint32_t c : clara.Assignment)
      {
        size += std::count(groups[bi].begin(), groups[bi].end(), c) ? 1 : 0;
      }
      EXPECT_EQ(merges[step].Size, size) << "merge " << step;
    }

    // Heights rise; nested cuts; cut(1) is one cluster, cut(k) is CLARA's.
    for (uint32_t i = 1; i < merges.size(); ++i)
    {
      EXPECT_LE(merges[i - 1].Height, merges[i].Height);
    }
    EXPECT_EQ(CutDendrogram(clara, merges, 1), std::vector<uint32_t>(series.Members.size(), 0));
    EXPECT_EQ(Partition(CutDendrogram(clara, merges, k)), Partition(clara.Assignment));
    for (uint32_t count = 1; count <= k; ++count)
    {
      const std::vector<uint32_t> cut = CutDendrogram(clara, merges, count);
      // Numbered by first member: labels first appear in order 0, 1, ...
      uint32_t next = 0;
      for (const uint32_t label : cut)
      {
        ASSERT_LE(label, next);
        next = std::max(next, label + 1);
      }
      EXPECT_EQ(next, count);
      if (count < k)
      {
        // Every cluster of the finer cut lies inside one of this cut.
        const std::vector<uint32_t> finer = CutDendrogram(clara, merges, count + 1);
        std::map<uint32_t, uint32_t> inside;
        for (std::size_t m = 0; m < cut.size(); ++m)
        {
          const auto it = inside.emplace(finer[m], cut[m]).first;
          EXPECT_EQ(it->second, cut[m]) << "member " << m << " at cut " << count;
        }
      }
    }
  }
}

TEST(LogicalClustering, InvalidInputThrows)
{
  std::mt19937_64 rng(1);
  const PhaseSeries series = RandomSeries(rng, 20, 4, 0.2);
  ClaraOptions options;
  options.Clusters = 0;
  ExpectInvalid([&] { Clara(series, options); }, "Clusters is 0");
  options = ClaraOptions{};
  options.Samples = 0;
  ExpectInvalid([&] { Clara(series, options); }, "Samples is 0");
  options = ClaraOptions{};
  options.SampleSize = 3; // below Clusters 8
  ExpectInvalid([&] { Clara(series, options); }, "SampleSize 3");

  PhaseSeries shortValues = series;
  shortValues.Values.pop_back();
  ExpectInvalid([&] { Clara(shortValues, ClaraOptions{}); }, "79 values");
  ExpectInvalid([&] { FillSeries(shortValues); }, "20 members x 4 steps");
  PhaseSeries infinite = series;
  infinite.Values[4 * 7 + 2] = std::numeric_limits<double>::infinity();
  ExpectInvalid([&] { Clara(infinite, ClaraOptions{}); }, "member row 7 at step 2");

  options = ClaraOptions{};
  options.Clusters = 4;
  const ClaraResult clara = Clara(series, options);
  const std::vector<Merge> merges = SingleLinkage(series, clara);
  ExpectInvalid([&] { CutDendrogram(clara, merges, 0); }, "count 0 is not in 1..4");
  ExpectInvalid([&] { CutDendrogram(clara, merges, 5); }, "count 5 is not in 1..4");
  ExpectInvalid([&] { CutDendrogram(clara, {}, 2); }, "0 merges for 4 clusters");
  std::vector<Merge> bad = merges;
  bad[1].Left = bad[0].Left; // merged twice
  bad[1].Right = 5;
  ExpectInvalid([&] { CutDendrogram(clara, bad, 2); }, "merge 1");
  bad = merges;
  bad[0].Right = 6; // a node that does not exist yet
  ExpectInvalid([&] { CutDendrogram(clara, bad, 2); }, "merge 0");

  ClaraResult wrong = clara;
  wrong.Assignment.pop_back();
  ExpectInvalid([&] { SingleLinkage(series, wrong); }, "assigns 19 members");
  wrong = clara;
  wrong.Assignment[3] = 4;
  ExpectInvalid([&] { SingleLinkage(series, wrong); }, "cluster 4 of 4");
  ExpectInvalid([&] { CutDendrogram(wrong, merges, 2); }, "cluster 4 of 4");
}
