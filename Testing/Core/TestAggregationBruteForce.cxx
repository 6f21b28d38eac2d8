// The dynamic programs and the exact sweep over p against brute force: every
// allowed partition of small random models enumerated, its qualities taken
// from the definitions cell by cell.
#include "Aggregation.h"
#include "AggregationKernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <random>
#include <tuple>
#include <vector>

using namespace macroscope;

namespace
{

struct Model
{
  MicroscopicModel Data;
  std::vector<int64_t> Parent;
  ModelView View() const { return ModelView::Of(this->Data); }
};

/// Small integers (so that equal neighbours and uniform areas occur) mixed
/// with reals.
Model RandomModel(
  std::mt19937& random, int slices, uint32_t resources, uint32_t types, std::vector<int64_t> parent)
{
  Model model;
  model.Data.Grid.Slices = slices;
  model.Data.Resources = resources;
  model.Data.Types = types;
  model.Data.Values.resize(std::size_t(slices) * resources * types);
  std::uniform_int_distribution<int> small(0, 3);
  std::uniform_real_distribution<double> real(0.0, 5.0);
  const bool integers = random() % 2 == 0;
  for (double& v : model.Data.Values)
  {
    v = integers ? small(random) : real(random);
  }
  model.Parent = std::move(parent);
  return model;
}

/// An area's qualities straight from the definitions: per component c,
/// gain = V log2 V - sum v log2 v and loss = sum v log2(|X| v / V).
struct Area
{
  std::vector<std::vector<double>> Entities; // entity x -> component values
};

Quality Definition(const Area& area)
{
  Quality q;
  const double size = double(area.Entities.size());
  const std::size_t components = area.Entities.front().size();
  for (std::size_t c = 0; c < components; ++c)
  {
    double total = 0.0;
    for (const auto& entity : area.Entities)
    {
      total += entity[c];
    }
    if (total > 0.0)
    {
      q.Gain += total * std::log2(total);
    }
    for (const auto& entity : area.Entities)
    {
      const double v = entity[c];
      if (v > 0.0)
      {
        q.Gain -= v * std::log2(v);
        q.Loss += v * std::log2(size * v / total);
      }
    }
  }
  return q;
}

/// A candidate partition as a list of (node, first, last).
struct Candidate
{
  std::vector<AggregatePart> Parts;
  double Gain = 0.0;
  double Loss = 0.0;
};

double PIC(const Candidate& c, double p, const Quality& full, bool normalize)
{
  const double g = normalize && full.Gain > 0.0 ? c.Gain / full.Gain : c.Gain;
  const double l = normalize && full.Loss > 0.0 ? c.Loss / full.Loss : c.Loss;
  return p * g - (1.0 - p) * l;
}

struct BruteForce
{
  std::vector<Candidate> All;
  Quality Full;

  double Max(double p, bool normalize) const
  {
    double best = -INFINITY;
    for (const auto& c : this->All)
    {
      best = std::max(best, PIC(c, p, this->Full, normalize));
    }
    return best;
  }
};

/// Temporal: every composition of the slices; a slice's entity holds all
/// (resource, type) values.
BruteForce TemporalBruteForce(const ModelView& m)
{
  BruteForce brute;
  auto area = [&](int first, int last)
  {
    Area a;
    for (int t = first; t <= last; ++t)
    {
      std::vector<double> entity;
      for (uint32_t s = 0; s < m.Resources; ++s)
        for (uint32_t u = 0; u < m.Types; ++u)
          entity.push_back(m.At(s, t, u));
      a.Entities.push_back(entity);
    }
    return Definition(a);
  };
  const int t = m.Slices;
  for (unsigned cuts = 0; cuts < (1u << (t - 1)); ++cuts)
  {
    Candidate c;
    int first = 0;
    for (int last = 0; last < t; ++last)
    {
      if (last == t - 1 || (cuts >> last & 1u))
      {
        const Quality q = area(first, last);
        c.Parts.push_back(AggregatePart{ -1, first, last, q.Gain, q.Loss });
        c.Gain += q.Gain;
        c.Loss += q.Loss;
        first = last + 1;
      }
    }
    brute.All.push_back(c);
  }
  brute.Full = area(0, t - 1);
  return brute;
}

/// Leaves of each node, from the parent array by walking up.
std::vector<std::vector<uint32_t>> LeavesOf(const std::vector<int64_t>& parent, uint32_t leaves)
{
  std::vector<std::vector<uint32_t>> below(parent.size());
  for (uint32_t s = 0; s < leaves; ++s)
  {
    for (int64_t n = s; n != -1; n = parent[n])
    {
      below[n].push_back(s);
    }
  }
  return below;
}

/// Exact cover of the cells (leaf, slice) by rectangles node x interval,
/// by backtracking on the first uncovered cell. `spatial` treats the whole
/// time range as one entity per leaf (values summed over slices).
BruteForce HierarchicalBruteForce(
  const ModelView& m, const std::vector<int64_t>& parent, bool spatial)
{
  const auto below = LeavesOf(parent, m.Resources);
  const int slices = spatial ? 1 : m.Slices;
  auto entity = [&](uint32_t s, int first, int last)
  {
    std::vector<double> values(m.Types, 0.0);
    for (uint32_t u = 0; u < m.Types; ++u)
      for (int t = first; t <= last; ++t)
        values[u] += m.At(s, t, u);
    return values;
  };
  auto quality = [&](int64_t node, int first, int last)
  {
    Area a;
    for (uint32_t s : below[node])
    {
      if (spatial)
        a.Entities.push_back(entity(s, 0, m.Slices - 1));
      else
        for (int t = first; t <= last; ++t)
          a.Entities.push_back(entity(s, t, t));
    }
    return Definition(a);
  };
  BruteForce brute;
  const int lastSlice = m.Slices - 1;
  brute.Full = quality(static_cast<int64_t>(parent.size()) - 1, 0, lastSlice);

  std::vector<char> covered(std::size_t(m.Resources) * slices, 0);
  Candidate current;
  std::function<void()> search = [&]()
  {
    const auto free = std::find(covered.begin(), covered.end(), 0);
    if (free == covered.end())
    {
      brute.All.push_back(current);
      return;
    }
    const uint32_t leaf = static_cast<uint32_t>((free - covered.begin()) / slices);
    const int slice = static_cast<int>((free - covered.begin()) % slices);
    for (std::size_t n = 0; n < parent.size(); ++n)
    {
      const auto& leaves = below[n];
      if (std::find(leaves.begin(), leaves.end(), leaf) == leaves.end())
        continue;
      // The free cell is the first uncovered in leaf-major order, so a
      // rectangle through it starts at `slice`.
      for (int last = slice; last < slices; ++last)
      {
        bool fits = true;
        for (uint32_t s : leaves)
          for (int t = slice; t <= last; ++t)
            fits = fits && !covered[s * slices + t];
        if (!fits)
          break;
        for (uint32_t s : leaves)
          for (int t = slice; t <= last; ++t)
            covered[s * slices + t] = 1;
        const Quality q = spatial ? quality(n, 0, lastSlice) : quality(n, slice, last);
        current.Parts.push_back(AggregatePart{ static_cast<int64_t>(n), spatial ? 0 : slice,
          spatial ? lastSlice : last, q.Gain, q.Loss });
        current.Gain += q.Gain;
        current.Loss += q.Loss;
        search();
        current.Parts.pop_back();
        current.Gain -= q.Gain;
        current.Loss -= q.Loss;
        for (uint32_t s : leaves)
          for (int t = slice; t <= last; ++t)
            covered[s * slices + t] = 0;
      }
    }
  };
  search();
  return brute;
}

/// The brute-force pIC of a partition the aggregation returned, from its
/// parts' areas (not from its own qualities).
double BrutePIC(const BruteForce& brute, const Partition& partition, double p, bool normalize)
{
  for (const auto& c : brute.All)
  {
    if (c.Parts.size() != partition.Parts.size())
      continue;
    bool same = true;
    for (const auto& part : partition.Parts)
    {
      same = same &&
        std::any_of(
          c.Parts.begin(), c.Parts.end(), [&](const AggregatePart& q) { return q.SameArea(part); });
    }
    if (same)
      return PIC(c, p, brute.Full, normalize);
  }
  ADD_FAILURE() << "the aggregation returned a partition that is not allowed";
  return NAN;
}

double Tolerance(double value)
{
  return 1e-9 * (1.0 + std::fabs(value));
}

/// Best(p) at many p is optimal among all brute-force partitions, in both
/// quality modes, and its reported qualities are the definitions'.
void ExpectOptimal(Aggregation& aggregation, const BruteForce& brute)
{
  for (bool normalize : { true, false })
  {
    aggregation.SetNormalizeQualities(normalize);
    for (int k = 0; k <= 200; ++k)
    {
      const double p = k / 200.0;
      const Partition best = aggregation.Best(p);
      const double expected = brute.Max(p, normalize);
      EXPECT_NEAR(BrutePIC(brute, best, p, normalize), expected, Tolerance(expected))
        << "p = " << p << (normalize ? " normalised" : " raw");
      EXPECT_NEAR(best.PIC(p), expected, Tolerance(expected)) << "p = " << p;
    }
  }
}

/// The sweep: partitions distinct, each optimal inside its interval and on
/// both sides of each breakpoint, breakpoints increasing in (0, 1), the two
/// neighbours' lines equal at each breakpoint; and at every p of a fine grid
/// the sweep's partition reaches the brute-force maximum (none is missed).
void ExpectExactSweep(Aggregation& aggregation, const BruteForce& brute)
{
  for (bool normalize : { true, false })
  {
    aggregation.SetNormalizeQualities(normalize);
    const PartitionSweep sweep = aggregation.AllPartitions();
    ASSERT_EQ(sweep.Breakpoints.size() + 1, sweep.Partitions.size());
    EXPECT_TRUE(sweep.Partitions.front().SameParts(aggregation.Best(0.0)));
    EXPECT_TRUE(sweep.Partitions.back().SameParts(aggregation.Best(1.0)));
    for (std::size_t k = 0; k < sweep.Breakpoints.size(); ++k)
    {
      const double b = sweep.Breakpoints[k];
      const double before = sweep.PStart(k);
      const double after = k + 1 < sweep.Breakpoints.size() ? sweep.Breakpoints[k + 1] : 1.0;
      // The last breakpoint may be 1 itself: when some less aggregated
      // partition has the full aggregation's gain (a merge that gains
      // nothing, like adding a zero area), p = 1 ties them and the tie rule
      // gives the full aggregation, optimal at that single point.
      const bool endsAtOne = k + 1 == sweep.Breakpoints.size() && b == 1.0;
      EXPECT_GT(b, before);
      if (!endsAtOne)
        EXPECT_LT(b, after);
      EXPECT_FALSE(sweep.Partitions[k].SameParts(sweep.Partitions[k + 1]));
      const Partition& left = sweep.Partitions[k];
      const Partition& right = sweep.Partitions[k + 1];
      const double atBreakpoint = brute.Max(b, normalize);
      EXPECT_NEAR(BrutePIC(brute, left, b, normalize), atBreakpoint, Tolerance(atBreakpoint));
      EXPECT_NEAR(BrutePIC(brute, right, b, normalize), atBreakpoint, Tolerance(atBreakpoint));
      // Just inside the neighbouring intervals, each side wins strictly.
      const double pl = b - (b - before) / 1000.0;
      const double pr = b + (after - b) / 1000.0;
      EXPECT_NEAR(
        BrutePIC(brute, left, pl, normalize), brute.Max(pl, normalize), Tolerance(atBreakpoint));
      EXPECT_GT(BrutePIC(brute, left, pl, normalize), BrutePIC(brute, right, pl, normalize));
      if (endsAtOne)
      {
        EXPECT_EQ(right.Parts.size(), 1u);
        continue;
      }
      EXPECT_NEAR(
        BrutePIC(brute, right, pr, normalize), brute.Max(pr, normalize), Tolerance(atBreakpoint));
      EXPECT_GT(BrutePIC(brute, right, pr, normalize), BrutePIC(brute, left, pr, normalize));
    }
    std::size_t k = 0;
    for (int step = 0; step <= 1000; ++step)
    {
      const double p = step / 1000.0;
      while (k < sweep.Breakpoints.size() && sweep.Breakpoints[k] < p)
        ++k;
      const double expected = brute.Max(p, normalize);
      EXPECT_NEAR(BrutePIC(brute, sweep.Partitions[k], p, normalize), expected, Tolerance(expected))
        << "p = " << p;
    }
  }
}

std::vector<int64_t> TwoLevelHierarchy()
{
  // Leaves 0-1 under node 4, leaves 2-3 under node 5, root 6.
  return { 4, 4, 5, 5, 6, 6, -1 };
}

std::vector<int64_t> UnevenHierarchy()
{
  // Leaves 0-1 under node 3, leaf 2 alone under node 4 (a chain), root 5.
  return { 3, 3, 4, 5, 5, -1 };
}

}

TEST(AggregationBruteForce, TemporalMatchesAllCompositions)
{
  std::mt19937 random(7);
  for (int trial = 0; trial < 12; ++trial)
  {
    const int slices = 1 + trial % 7;
    Model m = RandomModel(random, slices, 1 + trial % 3, 1 + trial % 2, {});
    TemporalAggregation aggregation(m.View(), 2);
    const BruteForce brute = TemporalBruteForce(m.View());
    ExpectOptimal(aggregation, brute);
    ExpectExactSweep(aggregation, brute);
  }
}

TEST(AggregationBruteForce, SpatialMatchesAllCuts)
{
  std::mt19937 random(11);
  for (int trial = 0; trial < 10; ++trial)
  {
    const auto parent = trial % 2 ? TwoLevelHierarchy() : UnevenHierarchy();
    const uint32_t leaves = trial % 2 ? 4 : 3;
    Model m = RandomModel(random, 1 + trial % 3, leaves, 1 + trial % 3, parent);
    AggregationHierarchy hierarchy(m.Parent, leaves);
    SpatialAggregation aggregation(m.View(), hierarchy);
    const BruteForce brute = HierarchicalBruteForce(m.View(), m.Parent, true);
    ExpectOptimal(aggregation, brute);
    ExpectExactSweep(aggregation, brute);
  }
}

TEST(AggregationBruteForce, SpatiotemporalMatchesAllProducts)
{
  std::mt19937 random(13);
  for (int trial = 0; trial < 10; ++trial)
  {
    const auto parent = trial % 2 ? TwoLevelHierarchy() : UnevenHierarchy();
    const uint32_t leaves = trial % 2 ? 4 : 3;
    const int slices = 1 + trial % 3;
    Model m = RandomModel(random, slices, leaves, 1 + trial % 2, parent);
    AggregationHierarchy hierarchy(m.Parent, leaves);
    SpatiotemporalAggregation aggregation(m.View(), hierarchy, 2);
    const BruteForce brute = HierarchicalBruteForce(m.View(), m.Parent, false);
    ExpectOptimal(aggregation, brute);
    ExpectExactSweep(aggregation, brute);
  }
}

TEST(AggregationBruteForce, QualitiesAreTheDefinitions)
{
  std::mt19937 random(17);
  Model m = RandomModel(random, 4, 4, 2, TwoLevelHierarchy());
  AggregationHierarchy hierarchy(m.Parent, 4);
  SpatiotemporalAggregation aggregation(m.View(), hierarchy);
  const BruteForce brute = HierarchicalBruteForce(m.View(), m.Parent, false);
  std::size_t checked = 0;
  for (const auto& c : brute.All)
  {
    for (const auto& part : c.Parts)
    {
      const Quality q = aggregation.AreaQuality(part.Node, part.FirstSlice, part.LastSlice);
      EXPECT_NEAR(q.Gain, part.Gain, Tolerance(part.Gain));
      EXPECT_NEAR(q.Loss, part.Loss, Tolerance(part.Loss));
      ++checked;
    }
  }
  EXPECT_GT(checked, 100u);
}

namespace
{

/// The spatiotemporal DP as first written - one (node, first, last) at a
/// time, Score comparisons, longest last part first - on the library's own
/// qualities, and the recursive sweep that used it: the reference the
/// vectorised DP and the parallel sweep must reproduce bit for bit.
class ReferenceSpatiotemporal
{
public:
  ReferenceSpatiotemporal(const SpatiotemporalAggregation& aggregation,
    const AggregationHierarchy& hierarchy, int slices, bool normalize)
    : Aggregation(aggregation)
    , Hierarchy(hierarchy)
    , Slices(slices)
  {
    const Quality full = aggregation.FullAggregation();
    this->GainScale = normalize && full.Gain > 0.0 ? full.Gain : 1.0;
    this->LossScale = normalize && full.Loss > 0.0 ? full.Loss : 1.0;
  }

  Partition Best(double p) const
  {
    const double gw = p / this->GainScale;
    const double lw = (1.0 - p) / this->LossScale;
    const std::size_t nodes = this->Hierarchy.Nodes();
    const int t = this->Slices;
    auto at = [&](std::size_t n, int i, int j) { return (n * t + i) * t + j; };
    struct Score
    {
      double Value = 0.0;
      std::size_t Parts = 0;
      bool Beats(const Score& o) const
      {
        return Value > o.Value || (Value == o.Value && Parts < o.Parts);
      }
    };
    std::vector<Score> best(nodes * t * t);
    std::vector<int> cut(nodes * t * t);
    std::vector<char> split(nodes * t * t, 0);
    for (std::size_t n = 0; n < nodes; ++n)
    {
      const auto& children = this->Hierarchy.Children(n);
      for (int last = 0; last < t; ++last)
      {
        std::vector<Score> atom(t);
        for (int k = 0; k <= last; ++k)
        {
          const Quality q = this->Aggregation.AreaQuality(n, k, last);
          const Score whole{ gw * q.Gain - lw * q.Loss, 1 };
          Score below;
          for (int64_t c : children)
          {
            below.Value += best[at(c, k, last)].Value;
            below.Parts += best[at(c, k, last)].Parts;
          }
          split[at(n, k, last)] = !children.empty() && below.Beats(whole);
          atom[k] = split[at(n, k, last)] ? below : whole;
        }
        for (int first = 0; first <= last; ++first)
        {
          Score chosen = atom[first];
          int chosenCut = first;
          for (int k = first + 1; k <= last; ++k)
          {
            const Score& before = best[at(n, first, k - 1)];
            const Score candidate{ before.Value + atom[k].Value, before.Parts + atom[k].Parts };
            if (candidate.Beats(chosen))
            {
              chosen = candidate;
              chosenCut = k;
            }
          }
          best[at(n, first, last)] = chosen;
          cut[at(n, first, last)] = chosenCut;
        }
      }
    }
    Partition partition;
    std::vector<std::array<int64_t, 3>> pending{ { this->Hierarchy.Root(), 0, t - 1 } };
    while (!pending.empty())
    {
      const auto [n, first, last] = pending.back();
      pending.pop_back();
      const int k = cut[at(n, int(first), int(last))];
      if (k > first)
        pending.push_back({ n, first, k - 1 });
      if (split[at(n, k, int(last))])
      {
        for (int64_t c : this->Hierarchy.Children(n))
          pending.push_back({ c, k, last });
        continue;
      }
      const Quality q = this->Aggregation.AreaQuality(n, k, int(last));
      partition.Parts.push_back(AggregatePart{ n, k, int(last), q.Gain, q.Loss });
    }
    std::sort(partition.Parts.begin(), partition.Parts.end(),
      [](const AggregatePart& a, const AggregatePart& b)
      { return std::tie(a.Node, a.FirstSlice) < std::tie(b.Node, b.FirstSlice); });
    for (AggregatePart& part : partition.Parts)
    {
      part.Gain /= this->GainScale;
      part.Loss /= this->LossScale;
      partition.Gain += part.Gain;
      partition.Loss += part.Loss;
    }
    return partition;
  }

  PartitionSweep AllPartitions() const
  {
    const Partition first = this->Best(0.0);
    const Partition last = this->Best(1.0);
    std::vector<Partition> vertices{ first };
    this->Envelope(first, last, vertices);
    if (!last.SameParts(first))
      vertices.push_back(last);
    PartitionSweep sweep;
    for (Partition& vertex : vertices)
    {
      while (!sweep.Partitions.empty())
      {
        const double crossing = Crossing(sweep.Partitions.back(), vertex);
        if (sweep.Partitions.size() > 1 && !(crossing > sweep.Breakpoints.back()))
        {
          sweep.Partitions.pop_back();
          sweep.Breakpoints.pop_back();
          continue;
        }
        sweep.Breakpoints.push_back(crossing);
        break;
      }
      sweep.Partitions.push_back(std::move(vertex));
    }
    return sweep;
  }

private:
  static double Slope(const Partition& p) { return p.Gain + p.Loss; }
  static double Crossing(const Partition& a, const Partition& b)
  {
    return std::min(1.0, std::max(0.0, (a.Loss - b.Loss) / (Slope(a) - Slope(b))));
  }
  void Envelope(const Partition& left, const Partition& right, std::vector<Partition>& out) const
  {
    if (left.SameParts(right) || !(Slope(left) < Slope(right)))
      return;
    Partition middle = this->Best(Crossing(left, right));
    if (middle.SameParts(left) || middle.SameParts(right) ||
      !(Slope(left) < Slope(middle) && Slope(middle) < Slope(right)))
      return;
    this->Envelope(left, middle, out);
    out.push_back(middle);
    this->Envelope(middle, right, out);
  }

  const SpatiotemporalAggregation& Aggregation;
  const AggregationHierarchy& Hierarchy;
  int Slices;
  double GainScale = 1.0;
  double LossScale = 1.0;
};

/// A random tree over `leaves` leaves: each level groups runs of 1 to 3
/// consecutive nodes (chains included) under new parents.
std::vector<int64_t> RandomHierarchy(std::mt19937& random, uint32_t leaves)
{
  std::vector<int64_t> parent(leaves, -1);
  std::vector<int64_t> level(leaves);
  for (uint32_t s = 0; s < leaves; ++s)
    level[s] = s;
  while (level.size() > 1)
  {
    std::vector<int64_t> next;
    std::size_t i = 0;
    while (i < level.size())
    {
      std::size_t run = 1 + random() % 3;
      if (next.empty() && i + run >= level.size() && level.size() > 1 && run == 1)
        run = 2;
      const int64_t node = static_cast<int64_t>(parent.size());
      parent.push_back(-1);
      for (std::size_t k = i; k < std::min(level.size(), i + run); ++k)
        parent[level[k]] = node;
      next.push_back(node);
      i += run;
    }
    if (next.size() == level.size())
    {
      // No group merged anything: put the whole level under one node.
      parent.resize(parent.size() - next.size());
      const int64_t node = static_cast<int64_t>(parent.size());
      parent.push_back(-1);
      for (int64_t n : level)
        parent[n] = node;
      next.assign(1, node);
    }
    level = next;
  }
  if (parent.size() == leaves) // a single leaf: give it a root
  {
    parent[0] = 1;
    parent.push_back(-1);
  }
  return parent;
}

void ExpectSameSweep(const PartitionSweep& expected, const PartitionSweep& actual)
{
  ASSERT_EQ(expected.Partitions.size(), actual.Partitions.size());
  ASSERT_EQ(expected.Breakpoints.size(), actual.Breakpoints.size());
  for (std::size_t k = 0; k < expected.Partitions.size(); ++k)
  {
    EXPECT_TRUE(expected.Partitions[k].SameParts(actual.Partitions[k])) << "partition " << k;
    EXPECT_EQ(expected.Partitions[k].Gain, actual.Partitions[k].Gain) << "partition " << k;
    EXPECT_EQ(expected.Partitions[k].Loss, actual.Partitions[k].Loss) << "partition " << k;
  }
  for (std::size_t k = 0; k < expected.Breakpoints.size(); ++k)
    EXPECT_EQ(expected.Breakpoints[k], actual.Breakpoints[k]) << "breakpoint " << k;
}

/// Restores the default kernel when a test ends, even on failure.
struct KernelChoice
{
  explicit KernelChoice(unsigned bits) { aggregation::KernelBits = bits; }
  ~KernelChoice() { aggregation::KernelBits = 512; }
};

}

// Every vector kernel of the spatiotemporal DP (AVX-512, AVX2, SSE2, scalar,
// those the processor has) and the parallel sweep reproduce the scalar DP
// and recursive sweep partition for partition and breakpoint for breakpoint
// (==, not a tolerance), on random trees, up to 19 slices (several groups of
// eight lanes, masked tails), with ties (small integers) and without.
TEST(AggregationBruteForce, SpatiotemporalSweepMatchesTheScalarReference)
{
  std::mt19937 random(19);
  for (int trial = 0; trial < 16; ++trial)
  {
    const uint32_t leaves = 1 + random() % 6;
    const int slices = 1 + int(random() % 19);
    const uint32_t types = 1 + random() % 2;
    Model m = RandomModel(random, slices, leaves, types, RandomHierarchy(random, leaves));
    AggregationHierarchy hierarchy(m.Parent, leaves);
    for (unsigned threads : { 1u, 2u })
    {
      SpatiotemporalAggregation aggregation(m.View(), hierarchy, threads);
      for (bool normalize : { true, false })
      {
        aggregation.SetNormalizeQualities(normalize);
        const ReferenceSpatiotemporal reference(aggregation, hierarchy, slices, normalize);
        const PartitionSweep expected = reference.AllPartitions();
        for (unsigned bits : { 512u, 256u, 128u, 0u })
        {
          SCOPED_TRACE(::testing::Message()
            << "trial " << trial << ", " << threads << " threads, kernel " << bits << " bits");
          KernelChoice kernel(bits);
          ExpectSameSweep(expected, aggregation.AllPartitions());
          for (double p : { 0.0, 0.01, 0.3, 0.5, 0.9, 1.0 })
          {
            const Partition a = reference.Best(p);
            const Partition b = aggregation.Best(p);
            EXPECT_TRUE(a.SameParts(b)) << "p = " << p;
            EXPECT_EQ(a.Gain, b.Gain) << "p = " << p;
            EXPECT_EQ(a.Loss, b.Loss) << "p = " << p;
          }
        }
      }
    }
  }
}

// The temporal qualities with the vector log2 (when the processor has
// AVX-512) and with the scalar one: the same to a few ulp, and both pass the
// brute-force checks; a one-slice interval has exactly zero gain.
TEST(AggregationBruteForce, TemporalKernelsAgree)
{
  std::mt19937 random(23);
  for (int trial = 0; trial < 8; ++trial)
  {
    const int slices = 1 + trial % 6;
    // Up to 21 components per slice: whole groups of eight and a tail.
    Model m = RandomModel(random, slices, 1 + trial % 7, 1 + trial % 3, {});
    const BruteForce brute = TemporalBruteForce(m.View());
    std::vector<Quality> qualities[2];
    for (unsigned bits : { 512u, 0u })
    {
      SCOPED_TRACE(::testing::Message() << "trial " << trial << ", kernel " << bits << " bits");
      KernelChoice kernel(bits);
      TemporalAggregation aggregation(m.View(), 2);
      for (int first = 0; first < slices; ++first)
      {
        EXPECT_EQ(aggregation.IntervalQuality(first, first).Gain, 0.0);
        for (int last = first; last < slices; ++last)
          qualities[bits ? 0 : 1].push_back(aggregation.IntervalQuality(first, last));
      }
      ExpectOptimal(aggregation, brute);
      ExpectExactSweep(aggregation, brute);
    }
    ASSERT_EQ(qualities[0].size(), qualities[1].size());
    for (std::size_t k = 0; k < qualities[0].size(); ++k)
    {
      EXPECT_NEAR(qualities[0][k].Gain, qualities[1][k].Gain, 1e-12 * (1.0 + qualities[1][k].Gain));
      EXPECT_NEAR(qualities[0][k].Loss, qualities[1][k].Loss, 1e-12 * (1.0 + qualities[1][k].Loss));
    }
  }
}

namespace
{

/// Restores the pruning of dominated cuts when a test ends, even on failure.
struct PruningChoice
{
  explicit PruningChoice(bool prune) { aggregation::PruneDominatedCuts = prune; }
  ~PruningChoice() { aggregation::PruneDominatedCuts = true; }
};

/// A model with time phases (values constant within a phase and a type,
/// scaled per leaf, sometimes exactly equal, sometimes noisy), so that long
/// parts are optimal for a wide range of p and the pruning has both
/// dominated and live cuts to tell apart.
Model PhasedModel(std::mt19937& random, int slices, uint32_t leaves, uint32_t types)
{
  Model model = RandomModel(random, slices, leaves, types, RandomHierarchy(random, leaves));
  std::vector<int> phase(slices);
  int current = 0;
  for (int t = 0; t < slices; ++t)
  {
    if (t > 0 && random() % 6 == 0)
      ++current;
    phase[t] = current;
  }
  std::uniform_real_distribution<double> level(0.0, 4.0);
  std::vector<double> base((current + 1) * types);
  for (double& b : base)
    b = random() % 3 == 0 ? 0.0 : std::round(level(random));
  const bool noisy = random() % 2 == 0;
  std::uniform_real_distribution<double> noise(0.9, 1.1);
  for (uint32_t u = 0; u < types; ++u)
    for (uint32_t s = 0; s < leaves; ++s)
    {
      const double scale = 1.0 + s % 3;
      for (int t = 0; t < slices; ++t)
      {
        double v = base[phase[t] * types + u] * scale;
        if (noisy)
          v *= noise(random);
        model.Data.Values[std::size_t(t) + std::size_t(slices) * (s + std::size_t(leaves) * u)] = v;
      }
    }
  return model;
}

}

// The spatiotemporal DP with and without the pruning of dominated cuts gives
// the same partitions with equal (==) qualities, at every breakpoint of the
// sweep, between every two, at 0 and 1, and the same sweep, on random and
// phased models of up to 60 slices (many groups of eight cuts) on random
// trees. The reference (no pruning) is checked against brute force and the
// scalar DP by the tests above.
TEST(AggregationBruteForce, PrunedSpatiotemporalMatchesTheFullSearch)
{
  std::mt19937 random(31);
  for (int trial = 0; trial < 12; ++trial)
  {
    const uint32_t leaves = 1 + random() % 10;
    const int slices = 9 + int(random() % 52);
    const uint32_t types = 1 + random() % 3;
    Model m = trial % 3 == 0
      ? RandomModel(random, slices, leaves, types, RandomHierarchy(random, leaves))
      : PhasedModel(random, slices, leaves, types);
    AggregationHierarchy hierarchy(m.Parent, leaves);
    SpatiotemporalAggregation aggregation(m.View(), hierarchy, 2);
    for (bool normalize : { true, false })
    {
      SCOPED_TRACE(::testing::Message() << "trial " << trial << ", " << leaves << " leaves, "
                                        << slices << " slices, normalize " << normalize);
      aggregation.SetNormalizeQualities(normalize);
      PartitionSweep full;
      {
        PruningChoice pruning(false);
        full = aggregation.AllPartitions();
      }
      ExpectSameSweep(full, aggregation.AllPartitions());
      std::vector<double> ps{ 0.0, 1.0 };
      for (std::size_t k = 0; k < full.Breakpoints.size(); ++k)
      {
        ps.push_back(full.Breakpoints[k]);
        const double next = k + 1 < full.Breakpoints.size() ? full.Breakpoints[k + 1] : 1.0;
        ps.push_back(0.5 * (full.Breakpoints[k] + next));
      }
      for (double p : ps)
      {
        Partition expected;
        {
          PruningChoice pruning(false);
          expected = aggregation.Best(p);
        }
        const Partition actual = aggregation.Best(p);
        EXPECT_TRUE(expected.SameParts(actual)) << "p = " << p;
        EXPECT_EQ(expected.Gain, actual.Gain) << "p = " << p;
        EXPECT_EQ(expected.Loss, actual.Loss) << "p = " << p;
      }
    }
  }
}

// The spatiotemporal qualities with the vector log2 (when the processor has
// AVX-512) and with the scalar one: the same to 1e-12 relative, a leaf's
// one-slice area has exactly zero gain and loss with both. (The tests above,
// at the default kernel, check the vector qualities against the definitions
// and brute force.)
TEST(AggregationBruteForce, SpatiotemporalQualityKernelsAgree)
{
  std::mt19937 random(37);
  for (int trial = 0; trial < 8; ++trial)
  {
    const uint32_t leaves = 1 + random() % 6;
    const int slices = 1 + int(random() % 30);
    const uint32_t types = 1 + random() % 12; // up to a group of eight and a tail
    Model m = RandomModel(random, slices, leaves, types, RandomHierarchy(random, leaves));
    AggregationHierarchy hierarchy(m.Parent, leaves);
    std::vector<Quality> qualities[2];
    for (unsigned bits : { 512u, 0u })
    {
      SCOPED_TRACE(::testing::Message() << "trial " << trial << ", kernel " << bits << " bits");
      KernelChoice kernel(bits);
      SpatiotemporalAggregation aggregation(m.View(), hierarchy, 2);
      for (std::size_t n = 0; n < hierarchy.Nodes(); ++n)
        for (int first = 0; first < slices; ++first)
        {
          if (n < leaves)
          {
            EXPECT_EQ(aggregation.AreaQuality(n, first, first).Gain, 0.0);
            EXPECT_EQ(aggregation.AreaQuality(n, first, first).Loss, 0.0);
          }
          for (int last = first; last < slices; ++last)
            qualities[bits ? 0 : 1].push_back(aggregation.AreaQuality(n, first, last));
        }
    }
    ASSERT_EQ(qualities[0].size(), qualities[1].size());
    for (std::size_t k = 0; k < qualities[0].size(); ++k)
    {
      EXPECT_NEAR(qualities[0][k].Gain, qualities[1][k].Gain, 1e-12 * (1.0 + qualities[1][k].Gain));
      EXPECT_NEAR(qualities[0][k].Loss, qualities[1][k].Loss, 1e-12 * (1.0 + qualities[1][k].Loss));
    }
  }
}
