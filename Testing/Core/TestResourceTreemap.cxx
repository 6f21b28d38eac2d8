// Tests of the treemap rows (Schnorr 2009 (Triva), sections 4.3-4.4): level cuts, the
// depth-first order, the sums up the hierarchy, modes, and Viva's optimal
// cut. Expectations worked out by hand below.
#include "ResourceTreemap.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

using macroscope::AggregationHierarchy;
using macroscope::BuildTreemap;
using macroscope::LevelCut;
using macroscope::TreemapRows;

namespace
{
// Nodes as the model numbers them, resources first, root last:
//
//  8 machine                 depth 0
//  ├─ 7 c0                   depth 1
//  │  ├─ 5 a                 depth 2
//  │  │  ├─ 0 t0             depth 3
//  │  │  └─ 1 t1
//  │  └─ 6 b
//  │     ├─ 2 t2
//  │     └─ 3 t3
//  └─ 4 n4                   a resource at depth 1
const std::vector<int64_t> Parent = { 5, 5, 6, 6, 8, 7, 7, 8, -1 };
const AggregationHierarchy Hierarchy(Parent, 5);

// Two types per resource; sizes are the totals.
const std::vector<double> Values = { 1, 0, 2, 1, 0, 0, 3, 3, 0, 5 };
const std::vector<double> Sizes = { 1, 3, 0, 6, 5 };
}

TEST(ResourceTreemap, LevelCuts)
{
  EXPECT_EQ(LevelCut(Hierarchy, 0), (std::vector<int64_t>{ 8 }));
  EXPECT_EQ(LevelCut(Hierarchy, 1), (std::vector<int64_t>{ 4, 7 }));
  EXPECT_EQ(LevelCut(Hierarchy, 2), (std::vector<int64_t>{ 4, 5, 6 }));
  EXPECT_EQ(LevelCut(Hierarchy, 3), (std::vector<int64_t>{ 0, 1, 2, 3, 4 }));
  try
  {
    LevelCut(Hierarchy, 7);
    ADD_FAILURE() << "a level deeper than the hierarchy was accepted";
  }
  catch (const std::invalid_argument& error)
  {
    EXPECT_NE(std::string(error.what()).find("level 7 is deeper"), std::string::npos)
      << error.what();
    EXPECT_NE(std::string(error.what()).find("deepest level is 3"), std::string::npos)
      << error.what();
  }
  EXPECT_EQ(LevelCut(Hierarchy, -1), LevelCut(Hierarchy, 3));
  EXPECT_THROW(LevelCut(Hierarchy, -2), std::invalid_argument);
}

TEST(ResourceTreemap, PathsStartBelowTheRoot)
{
  const auto paths =
    macroscope::NodePaths(Hierarchy, { "t0", "t1", "t2", "t3", "n4", "a", "b", "c0", "machine" });
  EXPECT_EQ(paths[8], "machine");
  EXPECT_EQ(paths[7], "c0");
  EXPECT_EQ(paths[4], "n4");
  EXPECT_EQ(paths[5], "c0/a");
  EXPECT_EQ(paths[3], "c0/b/t3");
  EXPECT_THROW(macroscope::NodePaths(Hierarchy, { "x" }), std::invalid_argument);
}

TEST(ResourceTreemap, RowsOfALevelCut)
{
  const TreemapRows rows = BuildTreemap(Hierarchy, LevelCut(Hierarchy, 2), Values, 2, Sizes);
  ASSERT_EQ(rows.Rows(), 5u);
  // Depth first, children in leaf order: machine, c0, a, b, n4.
  EXPECT_EQ(rows.Node, (std::vector<int64_t>{ 8, 7, 5, 6, 4 }));
  EXPECT_EQ(rows.ParentRow, (std::vector<int64_t>{ -1, 0, 1, 1, 0 }));
  EXPECT_EQ(rows.Depth, (std::vector<int>{ 0, 1, 2, 2, 1 }));
  EXPECT_EQ(rows.Cut, (std::vector<char>{ 0, 0, 1, 1, 1 }));
  EXPECT_EQ(rows.Values, (std::vector<double>{ 6, 9, 6, 4, 3, 1, 3, 3, 0, 5 }));
  EXPECT_EQ(rows.Size, (std::vector<double>{ 15, 10, 4, 6, 5 }));
  EXPECT_EQ(rows.Total, (std::vector<double>{ 15, 10, 4, 6, 5 }));
  // Modes: ties go to the lower type (b has 3 and 3).
  EXPECT_EQ(rows.Mode, (std::vector<int>{ 1, 0, 0, 0, 1 }));
  EXPECT_DOUBLE_EQ(rows.ModeProportion[0], 0.6);
  EXPECT_DOUBLE_EQ(rows.ModeProportion[2], 0.75);
  EXPECT_DOUBLE_EQ(rows.ModeProportion[3], 0.5);
  EXPECT_DOUBLE_EQ(rows.ModeProportion[4], 1.0);
}

TEST(ResourceTreemap, EmptyNodesHaveNoMode)
{
  const TreemapRows rows = BuildTreemap(Hierarchy, LevelCut(Hierarchy, -1), Values, 2, Sizes);
  EXPECT_EQ(rows.Node, (std::vector<int64_t>{ 8, 7, 5, 0, 1, 6, 2, 3, 4 }));
  EXPECT_EQ(rows.Cut, (std::vector<char>{ 0, 0, 0, 1, 1, 0, 1, 1, 1 }));
  EXPECT_EQ(rows.Node[6], 2);
  EXPECT_EQ(rows.Total[6], 0.0);
  EXPECT_EQ(rows.Mode[6], -1);
  EXPECT_EQ(rows.ModeProportion[6], 0.0);
}

TEST(ResourceTreemap, TheRootAloneHoldsEverything)
{
  const TreemapRows rows = BuildTreemap(Hierarchy, { 8 }, Values, 2, { 1, 1, 1, 1, 1 });
  ASSERT_EQ(rows.Rows(), 1u);
  EXPECT_EQ(rows.Cut[0], 1);
  EXPECT_EQ(rows.Size[0], 5.0);
  EXPECT_EQ(rows.Values, (std::vector<double>{ 6, 9 }));
}

TEST(ResourceTreemap, CutsMustCoverEachResourceOnce)
{
  EXPECT_THROW(BuildTreemap(Hierarchy, { 7, 5, 4 }, Values, 2, Sizes), std::invalid_argument);
  EXPECT_THROW(BuildTreemap(Hierarchy, { 5, 4 }, Values, 2, Sizes), std::invalid_argument);
  EXPECT_THROW(BuildTreemap(Hierarchy, { 9 }, Values, 2, Sizes), std::invalid_argument);
  EXPECT_THROW(BuildTreemap(Hierarchy, { 8 }, Values, 3, Sizes), std::invalid_argument);
  EXPECT_THROW(BuildTreemap(Hierarchy, { 8 }, Values, 2, { 1 }), std::invalid_argument);
}

TEST(ResourceTreemap, OptimalCutsAggregateLikeTheirResources)
{
  // Random values on the hierarchy: for every p, the rows of Viva's optimal
  // cut sum the resources below each node (brute force), and the root's
  // values are the whole model's whatever the cut.
  std::mt19937 random(7);
  std::uniform_real_distribution<double> value(0.0, 10.0);
  for (int trial = 0; trial < 20; ++trial)
  {
    std::vector<double> model(5 * 2); // one slice: Value(s, 0, u) at s + 5 u
    for (double& v : model)
    {
      v = trial % 3 == 0 ? std::floor(value(random) / 5.0) : value(random);
    }
    std::vector<double> values(10);
    for (uint32_t s = 0; s < 5; ++s)
    {
      for (uint32_t u = 0; u < 2; ++u)
      {
        values[s * 2 + u] = model[s + 5 * u];
      }
    }
    macroscope::SpatialAggregation aggregation({ model.data(), 1, 5, 2 }, Hierarchy);
    for (double p : { 0.0, 0.3, 0.6, 1.0 })
    {
      std::vector<int64_t> cut;
      for (const auto& part : aggregation.Best(p).Parts)
      {
        cut.push_back(part.Node);
      }
      const TreemapRows rows = BuildTreemap(Hierarchy, cut, values, 2, Sizes);
      std::size_t cutRows = 0;
      for (std::size_t r = 0; r < rows.Rows(); ++r)
      {
        const int64_t n = rows.Node[r];
        cutRows += rows.Cut[r];
        for (uint32_t u = 0; u < 2; ++u)
        {
          double sum = 0.0;
          for (uint32_t s = Hierarchy.LeafBegin(n); s < Hierarchy.LeafEnd(n); ++s)
          {
            sum += values[s * 2 + u];
          }
          EXPECT_NEAR(rows.Values[r * 2 + u], sum, 1e-12) << "trial " << trial << " p " << p;
        }
        if (r > 0)
        {
          EXPECT_LT(rows.ParentRow[r], static_cast<int64_t>(r)) << "a child before its parent";
        }
      }
      EXPECT_EQ(cutRows, cut.size());
    }
  }
}
