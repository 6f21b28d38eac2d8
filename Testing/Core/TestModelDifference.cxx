// Tests of the difference model (docs/comparison.md): identity,
// the union of types, matching by rank and by name, rebinning unequal grids
// against a brute force computed from the overlaps in seconds, and the
// ranking of an aggregation's parts.
#include "ModelDifference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

using macroscope::DifferenceOptions;
using macroscope::DifferencePart;
using macroscope::DiffModels;
using macroscope::ModelDifference;
using macroscope::NamedModel;
using macroscope::RankDifferenceParts;
using macroscope::ResourceMatching;
using macroscope::SliceGrid;

namespace
{
SliceGrid Grid(double begin, double end, int slices)
{
  SliceGrid g;
  g.Begin = begin;
  g.End = end;
  g.Slices = slices;
  return g;
}

// A flat hierarchy (resources below one root) with values given per type,
// resource and slice: values[u][r][t].
NamedModel Flat(const SliceGrid& grid, const std::vector<std::string>& resources,
  const std::vector<std::string>& types,
  const std::vector<std::vector<std::vector<double>>>& values)
{
  NamedModel m;
  m.Model.Grid = grid;
  m.Model.Resources = static_cast<uint32_t>(resources.size());
  m.Model.Types = static_cast<uint32_t>(types.size());
  m.Model.Values.assign(std::size_t(grid.Slices) * resources.size() * types.size(), 0.0);
  for (std::size_t u = 0; u < types.size(); ++u)
  {
    for (std::size_t r = 0; r < resources.size(); ++r)
    {
      for (int t = 0; t < grid.Slices; ++t)
      {
        m.Model.At(static_cast<uint32_t>(r), t, static_cast<uint32_t>(u)) = values[u][r][t];
      }
    }
  }
  for (std::size_t r = 0; r < resources.size(); ++r)
  {
    m.Parent.push_back(static_cast<int64_t>(resources.size()));
    m.NodeName.push_back(resources[r]);
    m.NodeKind.push_back("process");
  }
  m.Parent.push_back(-1);
  m.NodeName.push_back("root");
  m.NodeKind.push_back("machine");
  m.TypeName = types;
  return m;
}

double Cell(
  const ModelDifference& d, const std::vector<double>& values, uint32_t r, int t, uint32_t u)
{
  return values[d.Index(r, t, u)];
}

DifferenceOptions Options(ResourceMatching matching, int slices = 0)
{
  DifferenceOptions o;
  o.Matching = matching;
  o.Slices = slices;
  return o;
}
}

TEST(ModelDifference, ItselfIsExactlyZero)
{
  const NamedModel a = Flat(Grid(0.5, 2.5, 4), { "p0", "p1" }, { "compute", "wait" },
    { { { 0.1, 0.2, 0.3, 0.4 }, { 0.5, 0.6, 0.7, 0.8 } },
      { { 0.4, 0.3, 0.2, 0.1 }, { 0.0, 0.1, 1.0 / 3, 0.0 } } });
  for (ResourceMatching matching : { ResourceMatching::ByRank, ResourceMatching::ByName })
  {
    const ModelDifference d = DiffModels(a, a, Options(matching));
    EXPECT_EQ(d.Grid.Begin, 0.5);
    EXPECT_EQ(d.Grid.End, 2.5);
    EXPECT_EQ(d.Grid.Slices, 4);
    EXPECT_EQ(d.Resources, 2u);
    EXPECT_EQ(d.Types, 2u);
    EXPECT_EQ(d.A, a.Model.Values); // exactly: the identity rebinning
    EXPECT_EQ(d.B, a.Model.Values);
    EXPECT_EQ(d.Difference, std::vector<double>(16, 0.0));
    EXPECT_EQ(d.Value, std::vector<double>(16, 0.0));
    EXPECT_EQ(d.Parent, a.Parent);
    EXPECT_EQ(d.NodeName, a.NodeName);
    EXPECT_EQ(d.TypeName, a.TypeName);
    EXPECT_EQ(d.UnmatchedA, 0u);
    EXPECT_EQ(d.UnmatchedB, 0u);
  }
}

TEST(ModelDifference, TypesAreTheUnionByName)
{
  // A: compute, wait; B: wait, io. Output: compute, wait, io.
  const NamedModel a =
    Flat(Grid(0, 2, 2), { "p0" }, { "compute", "wait" }, { { { 1, 2 } }, { { 3, 4 } } });
  const NamedModel b =
    Flat(Grid(0, 2, 2), { "p0" }, { "wait", "io" }, { { { 5, 1 } }, { { 7, 8 } } });
  const ModelDifference d = DiffModels(a, b, Options(ResourceMatching::ByRank));
  EXPECT_EQ(d.TypeName, (std::vector<std::string>{ "compute", "wait", "io" }));
  EXPECT_EQ(d.TypeOfA, (std::vector<int64_t>{ 0, 1, -1 }));
  EXPECT_EQ(d.TypeOfB, (std::vector<int64_t>{ -1, 0, 1 }));
  // compute: A only; wait: 3-5, 4-1; io: B only.
  EXPECT_EQ(d.Difference, (std::vector<double>{ 1, 2, -2, 3, -7, -8 }));
  EXPECT_EQ(d.Value, (std::vector<double>{ 1, 2, 2, 3, 7, 8 }));
  EXPECT_EQ(d.A, (std::vector<double>{ 1, 2, 3, 4, 0, 0 }));
  EXPECT_EQ(d.B, (std::vector<double>{ 0, 0, 5, 1, 7, 8 }));
}

TEST(ModelDifference, ByRankKeepsTheLargerHierarchy)
{
  const NamedModel three =
    Flat(Grid(0, 1, 1), { "a0", "a1", "a2" }, { "s" }, { { { 1 }, { 2 }, { 3 } } });
  const NamedModel two = Flat(Grid(0, 1, 1), { "b0", "b1" }, { "s" }, { { { 5 }, { 7 } } });
  const ModelDifference d = DiffModels(three, two, Options(ResourceMatching::ByRank));
  EXPECT_EQ(d.Resources, 3u);
  EXPECT_EQ(d.NodeName, three.NodeName);
  EXPECT_EQ(d.Parent, three.Parent);
  EXPECT_EQ(d.Difference, (std::vector<double>{ 1 - 5, 2 - 7, 3 }));
  EXPECT_EQ(d.UnmatchedA, 1u);
  EXPECT_EQ(d.UnmatchedB, 0u);

  const ModelDifference e = DiffModels(two, three, Options(ResourceMatching::ByRank));
  EXPECT_EQ(e.Resources, 3u);
  EXPECT_EQ(e.NodeName, three.NodeName); // B has more rows: its hierarchy
  EXPECT_EQ(e.Difference, (std::vector<double>{ 5 - 1, 7 - 2, -3 }));
  EXPECT_EQ(e.UnmatchedA, 0u);
  EXPECT_EQ(e.UnmatchedB, 1u);

  // Equal counts, other names: A's hierarchy, nothing unmatched.
  const NamedModel other =
    Flat(Grid(0, 1, 1), { "c0", "c1", "c2" }, { "s" }, { { { 1 }, { 1 }, { 1 } } });
  const ModelDifference f = DiffModels(three, other, Options(ResourceMatching::ByRank));
  EXPECT_EQ(f.NodeName, three.NodeName);
  EXPECT_EQ(f.UnmatchedA + f.UnmatchedB, 0u);
}

namespace
{
// root / n1 / {r0, r1}, root / n2 / {r2}, one slice, one type: value = 10 + resource.
NamedModel TwoNodes(const std::string& second, bool swap)
{
  NamedModel m;
  m.Model.Grid = Grid(0, 1, 1);
  m.Model.Resources = 3;
  m.Model.Types = 1;
  // Nodes: 0 r0 (or r1), 1 r1 (or r0), 2 r2, 3 n1, 4 n2, 5 root.
  m.NodeName = { swap ? "r1" : "r0", swap ? "r0" : "r1", "r2", "n1", second, "root" };
  m.NodeKind = { "process", "process", "process", "node", "node", "machine" };
  m.Parent = { 3, 3, 4, 5, 5, -1 };
  m.TypeName = { "s" };
  m.Model.Values = swap ? std::vector<double>{ 21, 20, 22 } : std::vector<double>{ 10, 11, 12 };
  return m;
}
}

TEST(ModelDifference, ByNameMatchesPathsAndKeepsTheUnionTree)
{
  // B lists n1's processes in the other order and calls n2 "n3".
  const NamedModel a = TwoNodes("n2", false);
  const NamedModel b = TwoNodes("n3", true);
  const ModelDifference d = DiffModels(a, b, Options(ResourceMatching::ByName));
  // Union: n1/r0, n1/r1, n2/r2, n3/r2 (A's first, B's extra after).
  ASSERT_EQ(d.Resources, 4u);
  EXPECT_EQ(
    d.NodeName, (std::vector<std::string>{ "r0", "r1", "r2", "r2", "n1", "n2", "n3", "root" }));
  EXPECT_EQ(d.Parent, (std::vector<int64_t>{ 4, 4, 5, 6, 7, 7, 7, -1 }));
  EXPECT_EQ(d.NodeKind[4], "node");
  // n1/r0: A 10, B 20; n1/r1: A 11, B 21; n2/r2: A only; n3/r2: B only.
  EXPECT_EQ(d.A, (std::vector<double>{ 10, 11, 12, 0 }));
  EXPECT_EQ(d.B, (std::vector<double>{ 20, 21, 0, 22 }));
  EXPECT_EQ(d.Difference, (std::vector<double>{ -10, -10, 12, -22 }));
  EXPECT_EQ(d.UnmatchedA, 1u);
  EXPECT_EQ(d.UnmatchedB, 1u);
  EXPECT_EQ(d.NodeOfA, (std::vector<int64_t>{ 0, 1, 2, -1, 3, 4, -1, 5 }));
  EXPECT_EQ(d.NodeOfB, (std::vector<int64_t>{ 1, 0, -1, 2, 3, -1, 4, 5 }));

  // By rank the same models match row for row, whatever the names.
  const ModelDifference r = DiffModels(a, b, Options(ResourceMatching::ByRank));
  EXPECT_EQ(r.Difference, (std::vector<double>{ -11, -9, -10 }));
}

TEST(ModelDifference, ByNameRefusesAResourceWithResourcesBelowInTheOtherRun)
{
  // A's resources are the nodes n1, n2; B's the processes below them.
  NamedModel a = Flat(Grid(0, 1, 1), { "n1", "n2" }, { "s" }, { { { 1 }, { 2 } } });
  const NamedModel b = TwoNodes("n2", false);
  try
  {
    DiffModels(a, b, Options(ResourceMatching::ByName));
    FAIL() << "no error";
  }
  catch (const std::invalid_argument& e)
  {
    EXPECT_NE(std::string(e.what()).find("'n1' is a resource of run A"), std::string::npos)
      << e.what();
  }
}

TEST(ModelDifference, RefusesNonsense)
{
  const NamedModel a = Flat(Grid(0, 1, 1), { "p" }, { "s" }, { { { 1 } } });
  NamedModel rate = a;
  rate.Extensive = false;
  EXPECT_THROW(DiffModels(a, rate, Options(ResourceMatching::ByRank)), std::invalid_argument);
  EXPECT_THROW(DiffModels(a, a, Options(ResourceMatching::ByRank, -1)), std::invalid_argument);
  NamedModel broken = a;
  broken.Model.Values.push_back(1.0);
  EXPECT_THROW(DiffModels(a, broken, Options(ResourceMatching::ByRank)), std::invalid_argument);
}

namespace
{
// The brute force: the value of a piecewise-constant model on [lo, hi),
// from the overlaps in seconds. Extensive values spread uniformly over
// their slice; per-second values are averaged over [lo, hi).
double Integrate(const NamedModel& m, uint32_t r, uint32_t u, double lo, double hi)
{
  const SliceGrid& g = m.Model.Grid;
  double sum = 0.0;
  for (int t = 0; t < g.Slices; ++t)
  {
    const double a = g.Begin + t * (g.End - g.Begin) / g.Slices;
    const double b = g.Begin + (t + 1) * (g.End - g.Begin) / g.Slices;
    const double overlap = std::max(0.0, std::min(b, hi) - std::max(a, lo));
    const double v = m.Model.At(r, t, u);
    sum += m.Extensive ? v * overlap / (b - a) : v * overlap / (hi - lo);
  }
  return sum;
}
}

TEST(ModelDifference, UnequalGridsAgainstBruteForce)
{
  // A over [0, 4] in 4 slices, B over [1, 7] in 3; the common grid [0, 7].
  for (bool extensive : { true, false })
  {
    NamedModel a =
      Flat(Grid(0, 4, 4), { "p0", "p1" }, { "s" }, { { { 1, 2, 3, 4 }, { 0.5, 0, 2, 1 } } });
    NamedModel b = Flat(Grid(1, 7, 3), { "p0", "p1" }, { "s" }, { { { 6, 3, 9 }, { 1, 1, 1 } } });
    a.Extensive = b.Extensive = extensive;
    for (int slices : { 0, 5, 14, 1 })
    {
      const ModelDifference d = DiffModels(a, b, Options(ResourceMatching::ByRank, slices));
      EXPECT_EQ(d.Grid.Begin, 0.0);
      EXPECT_EQ(d.Grid.End, 7.0);
      ASSERT_EQ(d.Grid.Slices, slices == 0 ? 4 : slices);
      for (uint32_t r = 0; r < 2; ++r)
      {
        for (int t = 0; t < d.Grid.Slices; ++t)
        {
          const double lo = d.Grid.SliceBegin(t);
          const double hi = t + 1 == d.Grid.Slices ? d.Grid.End : d.Grid.SliceBegin(t + 1);
          const double ea = Integrate(a, r, 0, lo, hi);
          const double eb = Integrate(b, r, 0, lo, hi);
          EXPECT_NEAR(Cell(d, d.A, r, t, 0), ea, 1e-12) << extensive << " " << slices << " " << t;
          EXPECT_NEAR(Cell(d, d.B, r, t, 0), eb, 1e-12) << extensive << " " << slices << " " << t;
          EXPECT_NEAR(Cell(d, d.Difference, r, t, 0), ea - eb, 1e-12);
          EXPECT_NEAR(Cell(d, d.Value, r, t, 0), std::abs(ea - eb), 1e-12);
        }
      }
    }
  }
  // One cell by hand: 4 slices of 1.75 s; A's [0, 1.75) holds 1 + 0.75 · 2
  // (extensive), or (1 + 0.75 · 2) / 1.75 per second (intensive); B starts
  // at 1, its first slice (width 2) gives 0.75 / 2 · 6.
  NamedModel a = Flat(Grid(0, 4, 4), { "p" }, { "s" }, { { { 1, 2, 3, 4 } } });
  NamedModel b = Flat(Grid(1, 7, 3), { "p" }, { "s" }, { { { 6, 3, 9 } } });
  const ModelDifference d = DiffModels(a, b, Options(ResourceMatching::ByRank));
  EXPECT_NEAR(d.A[0], 2.5, 1e-12);
  EXPECT_NEAR(d.B[0], 2.25, 1e-12);
  a.Extensive = b.Extensive = false;
  const ModelDifference i = DiffModels(a, b, Options(ResourceMatching::ByRank));
  EXPECT_NEAR(i.A[0], 2.5 / 1.75, 1e-12);
  EXPECT_NEAR(i.B[0], 0.75 * 6 / 1.75, 1e-12);
}

TEST(DifferenceSummary, RanksPartsByMeanDifference)
{
  std::vector<DifferencePart> parts(3);
  parts[0].NodeName = "root";
  parts[0].Mean = { 0.1, 0.2 }; // 0.3
  parts[1].NodeName = "node-1";
  parts[1].FirstResource = 2;
  parts[1].LastResource = 3;
  parts[1].Start = 0.17;
  parts[1].End = 0.84;
  parts[1].Mean = { 0.21, 0.4 }; // 0.61, mode 1
  parts[2].NodeName = "rank 0";
  parts[2].Mean = { 0.3, 0.0 }; // 0.3, ties with part 0: after it
  const auto ranked = RankDifferenceParts(parts);
  ASSERT_EQ(ranked.size(), 3u);
  EXPECT_EQ(ranked[0].Part, 1u);
  EXPECT_NEAR(ranked[0].MeanDifference, 0.61, 1e-15);
  EXPECT_EQ(ranked[0].Mode, 1u);
  EXPECT_EQ(ranked[1].Part, 0u);
  EXPECT_EQ(ranked[2].Part, 2u);
  EXPECT_EQ(ranked[2].Mode, 0u);
  EXPECT_EQ(macroscope::DescribeDifference(
              parts[1], ranked[0], { "rank 2", "rank 3" }, { "computing", "waiting" }),
    "Runs differ most on node-1 (rank 2, rank 3) from 0.17 s to 0.84 s: mean |A \u2212 B| 0.61 "
    "(type waiting)");
  EXPECT_EQ(macroscope::DescribeDifference(parts[2], ranked[2], { "rank 0" }, { "c", "w" }),
    "Runs differ most on rank 0 from 0 s to 0 s: mean |A \u2212 B| 0.3 (type c)");
  std::vector<std::string> many;
  for (int i = 0; i < 10; ++i)
  {
    many.push_back("r" + std::to_string(i));
  }
  const std::string sentence = macroscope::DescribeDifference(parts[0], ranked[1], many, {});
  EXPECT_NE(sentence.find("(r0, r1, r2, r3, r4, r5, r6, r7 and 2 more)"), std::string::npos)
    << sentence;
}

// The onset: the earliest part among those of at least `fraction` of the
// largest mean, on equal starts the more different one.
TEST(DifferenceSummary, OnsetIsTheEarliestPartThatDiffersEnough)
{
  std::vector<DifferencePart> parts(4);
  parts[0].NodeName = "machine"; // the delayed rest of the run: large, later
  parts[0].Start = 0.02;
  parts[0].End = 0.12;
  parts[0].Mean = { 0.5 };
  parts[1].NodeName = "node-5"; // the cause: earlier, smaller
  parts[1].Start = 0.018;
  parts[1].End = 0.02;
  parts[1].Mean = { 0.2 };
  parts[2].NodeName = "node-1"; // earliest, but below 10 % of 0.5
  parts[2].Start = 0.0;
  parts[2].End = 0.018;
  parts[2].Mean = { 0.04 };
  parts[3].NodeName = "node-2"; // same start as node-5, less different
  parts[3].Start = 0.018;
  parts[3].End = 0.02;
  parts[3].Mean = { 0.1 };
  const auto ranked = RankDifferenceParts(parts);
  const std::size_t onset = macroscope::FirstDifferingPart(parts, ranked, 0.1);
  ASSERT_LT(onset, ranked.size());
  EXPECT_EQ(ranked[onset].Part, 1u);
  // A lower fraction admits node-1's part, which starts first.
  EXPECT_EQ(ranked[macroscope::FirstDifferingPart(parts, ranked, 0.05)].Part, 2u);
  // A fraction of 1 keeps the most different part only.
  EXPECT_EQ(ranked[macroscope::FirstDifferingPart(parts, ranked, 1.0)].Part, 0u);
  EXPECT_EQ(
    macroscope::DescribeOnset(parts[1], ranked[onset], { "rank 20", "rank 21" }, { "compute" }),
    "The runs first differ at 0.018 s, on node-5 (rank 20, rank 21), until 0.02 s: mean "
    "|A \u2212 B| 0.2 (type compute)");
  // Runs that do not differ have no onset.
  std::vector<DifferencePart> same(2);
  same[0].Mean = { 0.0 };
  same[1].Mean = { 0.0 };
  const auto none = RankDifferenceParts(same);
  EXPECT_EQ(macroscope::FirstDifferingPart(same, none, 0.1), none.size());
  EXPECT_EQ(macroscope::FirstDifferingPart({}, {}, 0.1), 0u);
}
