// Tests of the spatiotemporal overview layout (SpatiotemporalOverview.h,
// docs/overviews.md). The small cases are worked out by hand in the
// comments; the randomized test lays out the partitions of the real
// SpatiotemporalAggregation on random models and checks each mark against
// a recomputation from the model and a per-cell ownership grid.
#include "Aggregation.h"
#include "SpatiotemporalOverview.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

using namespace macroscope;

namespace
{

// Leaves 0..5. A = 6 holds leaves 0-1, C = 7 holds leaves 4-5, B = 8 holds
// leaves 2, 3 and C, the root 9 holds A and B (a small version of the
// hierarchy of Dosimont et al. 2014 (VPA), Fig. 1).
constexpr int64_t NodeA = 6, NodeC = 7, NodeB = 8, Root = 9;
std::vector<int64_t> Fig1Hierarchy()
{
  return { NodeA, NodeA, NodeB, NodeB, NodeC, NodeC, Root, NodeB, Root, -1 };
}

// Six slices, two types. A column over everything, then fine parts on A
// (cut at different times: slices 4-5 give a cross), and on B a part of B
// followed by parts that all span slices 3-5 (a diagonal).
std::vector<OverviewPart> Fig1Partition()
{
  return {
    { Root, 0, 0, { 1, 3 } },  // 0
    { NodeA, 1, 1, { 2, 2 } }, // 1
    { 0, 2, 3, { 4, 0 } },     // 2
    { 1, 2, 3, { 0, 2 } },     // 3
    { 0, 4, 5, { 1, 1 } },     // 4
    { 1, 4, 4, { 0, 4 } },     // 5
    { 1, 5, 5, { 2, 0 } },     // 6
    { NodeB, 1, 2, { 0, 1 } }, // 7
    { 2, 3, 5, { 3, 0 } },     // 8
    { 3, 3, 5, { 3, 0 } },     // 9
    { NodeC, 3, 5, { 0, 1 } }, // 10
  };
}

// 60 x 60 pixels: 10 per slice, 10 per leaf; slice s spans [s, s + 1] s.
SpatiotemporalOverviewOptions Fig1Options(double minRowHeight)
{
  SpatiotemporalOverviewOptions options;
  options.Slices = 6;
  options.WindowBegin = 0.0;
  options.WindowEnd = 6.0;
  options.PlotWidth = 60.0;
  options.PlotHeight = 60.0;
  options.MinRowHeight = minRowHeight;
  return options;
}

void ExpectMark(const OverviewMark& m, int64_t part, int64_t node, double x0, double x1, double y0,
  double y1, uint32_t mode, double proportion, double value, OverviewMarkKind kind, uint32_t count)
{
  EXPECT_EQ(m.Part, part);
  EXPECT_EQ(m.Node, node);
  EXPECT_DOUBLE_EQ(m.X0, x0);
  EXPECT_DOUBLE_EQ(m.X1, x1);
  EXPECT_DOUBLE_EQ(m.Y0, y0);
  EXPECT_DOUBLE_EQ(m.Y1, y1);
  EXPECT_DOUBLE_EQ(m.Start, x0 / 10.0);
  EXPECT_DOUBLE_EQ(m.End, x1 / 10.0);
  EXPECT_EQ(m.Mode, mode);
  EXPECT_DOUBLE_EQ(m.ModeProportion, proportion);
  EXPECT_DOUBLE_EQ(m.Value, value);
  EXPECT_EQ(m.Kind, kind);
  EXPECT_EQ(m.PartCount, count);
}

std::vector<int64_t> RowNodes(const SpatiotemporalOverview& overview)
{
  std::vector<int64_t> nodes;
  for (const OverviewRow& row : overview.Rows)
    nodes.push_back(row.Node);
  return nodes;
}

/// A random tree over `leaves` leaves, built top down: a node splits its
/// leaf range into 1 to 4 consecutive children (1: a chain), down to depth
/// 4 where the leaves hang directly; ids follow the parent-array layout
/// (leaves first, children before parents, root last).
std::vector<int64_t> RandomTree(std::mt19937& random, uint32_t leaves)
{
  std::vector<int64_t> parent(leaves, -1);
  std::function<int64_t(uint32_t, uint32_t, int)> build = [&](uint32_t begin, uint32_t end,
                                                            int depth) -> int64_t
  {
    const uint32_t count = end - begin;
    if (count == 1 && depth > 0 && random() % 4 != 0)
      return begin; // else a chain above the leaf
    std::vector<int64_t> children;
    if (depth >= 4 || count == 1)
    {
      for (uint32_t leaf = begin; leaf < end; ++leaf)
        children.push_back(leaf);
    }
    else
    {
      const uint32_t pieces = std::min<uint32_t>(count, 1 + random() % 4);
      std::set<uint32_t> bounds{ begin, end };
      while (bounds.size() < pieces + 1)
        bounds.insert(begin + 1 + random() % (count - 1));
      for (auto it = bounds.begin(); std::next(it) != bounds.end(); ++it)
        children.push_back(build(*it, *std::next(it), depth + 1));
    }
    const int64_t node = static_cast<int64_t>(parent.size());
    parent.push_back(-1);
    for (int64_t child : children)
      parent[child] = node;
    return node;
  };
  build(0, leaves, 0);
  return parent;
}

MicroscopicModel RandomModel(std::mt19937& random, int slices, uint32_t leaves, uint32_t types)
{
  MicroscopicModel model;
  model.Grid.Slices = slices;
  model.Resources = leaves;
  model.Types = types;
  model.Values.resize(std::size_t(slices) * leaves * types);
  // Phases shared by groups of leaves with noise, so that the optimal
  // partitions have parts at every level.
  const int phase = 1 + static_cast<int>(random() % slices);
  for (uint32_t s = 0; s < leaves; ++s)
    for (int t = 0; t < slices; ++t)
      for (uint32_t u = 0; u < types; ++u)
      {
        const bool main = u == ((t / phase + s / 3) % types);
        model.At(s, t, u) = (main ? 4.0 : 0.0) + (random() % 4 == 0 ? random() % 3 : 0);
      }
  return model;
}

}

TEST(SpatiotemporalOverview, Fig1CutGivesDiagonalAndCrossAggregates)
{
  const AggregationHierarchy hierarchy(Fig1Hierarchy(), 6);
  // 15 px: A (20 px) and B (40 px) are visible, so the root's children are
  // shown; A's and B's children (10 px) are not, so A and B are the rows.
  const SpatiotemporalOverview overview =
    LayoutSpatiotemporalOverview(hierarchy, Fig1Partition(), 2, Fig1Options(15.0));
  EXPECT_EQ(RowNodes(overview), (std::vector<int64_t>{ NodeA, NodeB }));
  ASSERT_EQ(overview.Rows.size(), 2u);
  EXPECT_DOUBLE_EQ(overview.Rows[0].Y0, 40.0);
  EXPECT_DOUBLE_EQ(overview.Rows[0].Y1, 60.0);
  EXPECT_DOUBLE_EQ(overview.Rows[1].Y0, 0.0);
  EXPECT_DOUBLE_EQ(overview.Rows[1].Y1, 40.0);
  EXPECT_DOUBLE_EQ(overview.LeafHeight, 10.0);
  ASSERT_EQ(overview.Marks.size(), 6u);
  EXPECT_EQ(overview.Aggregates, 3u);
  const auto& m = overview.Marks;
  // The root's column: mean (1, 3), mode 1 at 3/4.
  ExpectMark(m[0], 0, Root, 0, 10, 0, 60, 1, 0.75, 3.0, OverviewMarkKind::Part, 1);
  // A's own part: a tie (2, 2) goes to type 0, at 1/2.
  ExpectMark(m[1], 1, NodeA, 10, 20, 40, 60, 0, 0.5, 2.0, OverviewMarkKind::Part, 1);
  // A x slices 2-3: leaf 0 (4, 0) and leaf 1 (0, 2), 2 slices each, sum
  // (8, 4): mode 0 at 2/3, mean 8 / 4 cells; both span it: diagonal.
  ExpectMark(
    m[2], -1, NodeA, 20, 40, 40, 60, 0, 2.0 / 3.0, 2.0, OverviewMarkKind::DiagonalAggregate, 2);
  // A x slices 4-5: leaf 0 (1, 1) x 2 + leaf 1 (0, 4) + (2, 0) = (4, 6):
  // mode 1 at 0.6, mean 6 / 4; leaf 1 is cut at 5, leaf 0 is not: cross.
  ExpectMark(m[3], -1, NodeA, 40, 60, 40, 60, 1, 0.6, 1.5, OverviewMarkKind::CrossAggregate, 3);
  // B's own part over slices 1-2.
  ExpectMark(m[4], 7, NodeB, 10, 30, 0, 40, 1, 1.0, 1.0, OverviewMarkKind::Part, 1);
  // B x slices 3-5: leaves 2 and 3 (3, 0) x 3 each, C (0, 1) x 6 cells =
  // (18, 6): mode 0 at 3/4, mean 18 / 12; all span 3-5: diagonal.
  ExpectMark(m[5], -1, NodeB, 30, 60, 0, 40, 0, 0.75, 1.5, OverviewMarkKind::DiagonalAggregate, 3);
}

TEST(SpatiotemporalOverview, SignedMeansFollowTheModeLikeTheValue)
{
  // A difference model: Mean is |A - B|, SignedMean A - B. Give the parts
  // of Fig. 1 signs: the signed means are the means, negated on odd parts.
  std::vector<OverviewPart> parts = Fig1Partition();
  for (std::size_t i = 0; i < parts.size(); ++i)
  {
    for (double mean : parts[i].Mean)
    {
      parts[i].SignedMean.push_back(i % 2 ? -mean : mean);
    }
  }
  const AggregationHierarchy hierarchy(Fig1Hierarchy(), 6);
  const SpatiotemporalOverview overview =
    LayoutSpatiotemporalOverview(hierarchy, parts, 2, Fig1Options(15.0));
  ASSERT_EQ(overview.Marks.size(), 6u);
  const auto& m = overview.Marks;
  // Part 0 (even): mode 1, signed +3; part 1 (odd): mode 0, signed -2.
  EXPECT_DOUBLE_EQ(m[0].SignedValue, 3.0);
  EXPECT_DOUBLE_EQ(m[1].SignedValue, -2.0);
  // A x slices 2-3, mode 0: part 2 (+4 x 2 cells) and part 3 (-0 x 2):
  // +8 over 4 cells.
  EXPECT_DOUBLE_EQ(m[2].SignedValue, 2.0);
  // A x slices 4-5, mode 1: part 4 (+1 x 2), part 5 (-4 x 1), part 6
  // (+0 x 1): -2 over 4 cells.
  EXPECT_DOUBLE_EQ(m[3].SignedValue, -0.5);
  // B's part 7 (odd): mode 1, -1.
  EXPECT_DOUBLE_EQ(m[4].SignedValue, -1.0);
  // B x slices 3-5, mode 0: part 8 (+3 x 3), part 9 (-3 x 3), part 10
  // (+0 x 6): 0.
  EXPECT_DOUBLE_EQ(m[5].SignedValue, 0.0);
  // Without signed means, 0; with the wrong count, an error.
  const SpatiotemporalOverview plain =
    LayoutSpatiotemporalOverview(hierarchy, Fig1Partition(), 2, Fig1Options(15.0));
  EXPECT_DOUBLE_EQ(plain.Marks[0].SignedValue, 0.0);
  parts[0].SignedMean.pop_back();
  EXPECT_THROW(
    LayoutSpatiotemporalOverview(hierarchy, parts, 2, Fig1Options(15.0)), std::invalid_argument);
}

TEST(SpatiotemporalOverview, RowsTallerThanTheBudgetShowEveryPart)
{
  const AggregationHierarchy hierarchy(Fig1Hierarchy(), 6);
  const auto parts = Fig1Partition();
  for (double budget : { 0.0, 5.0, 10.0 })
  {
    const SpatiotemporalOverview overview =
      LayoutSpatiotemporalOverview(hierarchy, parts, 2, Fig1Options(budget));
    EXPECT_EQ(RowNodes(overview), (std::vector<int64_t>{ 0, 1, 2, 3, 4, 5 })) << budget;
    EXPECT_EQ(overview.Aggregates, 0u);
    ASSERT_EQ(overview.Marks.size(), parts.size());
    std::set<int64_t> drawn;
    for (const OverviewMark& m : overview.Marks)
    {
      EXPECT_EQ(m.Kind, OverviewMarkKind::Part);
      ASSERT_GE(m.Part, 0);
      drawn.insert(m.Part);
      EXPECT_EQ(m.Node, parts[m.Part].Node);
      EXPECT_DOUBLE_EQ(m.X0, 10.0 * parts[m.Part].FirstSlice);
      EXPECT_DOUBLE_EQ(m.X1, 10.0 * (parts[m.Part].LastSlice + 1));
    }
    EXPECT_EQ(drawn.size(), parts.size());
  }
  // Leaf 1's part over slice 4: rows 1, slice 4, so x 40-50, y 40-50.
  const SpatiotemporalOverview overview =
    LayoutSpatiotemporalOverview(hierarchy, parts, 2, Fig1Options(0.0));
  const auto it = std::find_if(overview.Marks.begin(), overview.Marks.end(),
    [](const OverviewMark& m) { return m.Part == 5; });
  ASSERT_NE(it, overview.Marks.end());
  ExpectMark(*it, 5, 1, 40, 50, 40, 50, 1, 1.0, 4.0, OverviewMarkKind::Part, 1);
}

TEST(SpatiotemporalOverview, RootIsTheOnlyRowWhenItsChildrenDoNotFit)
{
  const AggregationHierarchy hierarchy(Fig1Hierarchy(), 6);
  // 25 px: the root (60) is visible but A (20) is not; 100 px: not even the
  // root. Both stop at the root.
  for (double budget : { 25.0, 100.0 })
  {
    const SpatiotemporalOverview overview =
      LayoutSpatiotemporalOverview(hierarchy, Fig1Partition(), 2, Fig1Options(budget));
    EXPECT_EQ(RowNodes(overview), (std::vector<int64_t>{ Root }));
    ASSERT_EQ(overview.Marks.size(), 2u);
    EXPECT_EQ(overview.Aggregates, 1u);
    ExpectMark(overview.Marks[0], 0, Root, 0, 10, 0, 60, 1, 0.75, 3.0, OverviewMarkKind::Part, 1);
    // Every leaf is cut at 1 only in common. Summed values per part (mean x
    // cells): A (4, 4), (8, 0), (0, 4), (2, 2), (0, 4), (2, 0), B (0, 8),
    // (9, 0), (9, 0), C (0, 6): total (34, 28) over 6 x 5 cells.
    ExpectMark(overview.Marks[1], -1, Root, 10, 60, 0, 60, 0, 34.0 / 62.0, 34.0 / 30.0,
      OverviewMarkKind::CrossAggregate, 10);
  }
}

TEST(SpatiotemporalOverview, DisplayCutDescendsOnlyIntoVisibleChildren)
{
  const AggregationHierarchy hierarchy(Fig1Hierarchy(), 6);
  EXPECT_EQ(OverviewDisplayCut(hierarchy, 10.0, 0.0), (std::vector<int64_t>{ 0, 1, 2, 3, 4, 5 }));
  EXPECT_EQ(OverviewDisplayCut(hierarchy, 10.0, 20.0), (std::vector<int64_t>{ NodeA, NodeB }));
  EXPECT_EQ(OverviewDisplayCut(hierarchy, 10.0, 20.000001), (std::vector<int64_t>{ Root }));
  // Three leaves of 0.9 / 3 pixels make 0.8999999999999999 pixels: the
  // rounding does not hide node 3 from a budget of 0.9.
  const AggregationHierarchy three({ 3, 3, 3, 4, -1 }, 3); // leaves under 3 under root 4
  EXPECT_EQ(OverviewDisplayCut(three, 0.9 / 3, 0.9), (std::vector<int64_t>{ 3 }));
  EXPECT_EQ(OverviewDisplayCut(three, 0.9 / 3, 0.91), (std::vector<int64_t>{ 4 }));
  // A chain (a node with a single child) is descended like any node.
  const AggregationHierarchy chain({ 2, 3, 3, -1 }, 2); // leaf 0 under 2 under root 3
  EXPECT_EQ(OverviewDisplayCut(chain, 5.0, 5.0), (std::vector<int64_t>{ 0, 1 }));
  EXPECT_EQ(OverviewDisplayCut(chain, 5.0, 6.0), (std::vector<int64_t>{ 3 }));
}

TEST(SpatiotemporalOverview, TemporalPartitionsAreFullHeightColumns)
{
  const AggregationHierarchy hierarchy(Fig1Hierarchy(), 6);
  const std::vector<OverviewPart> parts{ { Root, 0, 1, { 0.5, 0.25 } },
    { Root, 2, 5, { 0.0, 0.0 } } };
  for (double budget : { 0.0, 15.0, 1000.0 })
  {
    SpatiotemporalOverviewOptions options = Fig1Options(budget);
    options.WindowBegin = 2.0; // slice s spans [2 + 0.5 s, 2.5 + 0.5 s]
    options.WindowEnd = 5.0;
    const SpatiotemporalOverview overview =
      LayoutSpatiotemporalOverview(hierarchy, parts, 2, options);
    ASSERT_EQ(overview.Marks.size(), 2u);
    EXPECT_EQ(overview.Aggregates, 0u);
    const auto& m = overview.Marks;
    EXPECT_EQ(m[0].Part, 0);
    EXPECT_DOUBLE_EQ(m[0].Y0, 0.0);
    EXPECT_DOUBLE_EQ(m[0].Y1, 60.0);
    EXPECT_DOUBLE_EQ(m[0].X1, 20.0);
    EXPECT_DOUBLE_EQ(m[0].Start, 2.0);
    EXPECT_DOUBLE_EQ(m[0].End, 3.0);
    EXPECT_DOUBLE_EQ(m[0].ModeProportion, 2.0 / 3.0);
    EXPECT_EQ(m[1].Part, 1);
    EXPECT_DOUBLE_EQ(m[1].Y0, 0.0);
    EXPECT_DOUBLE_EQ(m[1].Y1, 60.0);
    EXPECT_DOUBLE_EQ(m[1].X0, 20.0);
    EXPECT_DOUBLE_EQ(m[1].X1, 60.0);
    EXPECT_DOUBLE_EQ(m[1].End, 5.0);
    // All zero: type 0 with a proportion of 0 (fully transparent).
    EXPECT_EQ(m[1].Mode, 0u);
    EXPECT_DOUBLE_EQ(m[1].ModeProportion, 0.0);
  }
}

TEST(SpatiotemporalOverview, SpatialPartitionsAggregateIntoDiagonals)
{
  // Parts of a hierarchy cut over all slices: below a display row, every
  // part spans the whole time, so the aggregate is one diagonal.
  const AggregationHierarchy hierarchy(Fig1Hierarchy(), 6);
  const std::vector<OverviewPart> parts{ { 0, 0, 5, { 1, 0 } }, { 1, 0, 5, { 1, 0 } },
    { 2, 0, 5, { 0, 1 } }, { 3, 0, 5, { 1, 0 } }, { NodeC, 0, 5, { 0, 1 } } };
  const SpatiotemporalOverview overview =
    LayoutSpatiotemporalOverview(hierarchy, parts, 2, Fig1Options(15.0));
  ASSERT_EQ(overview.Marks.size(), 2u);
  ExpectMark(overview.Marks[0], -1, NodeA, 0, 60, 40, 60, 0, 1.0, 1.0,
    OverviewMarkKind::DiagonalAggregate, 2);
  // B: leaf 2 (0, 6), leaf 3 (6, 0), C (0, 12): mode 1 at 3/4, mean 18 / 24.
  ExpectMark(overview.Marks[1], -1, NodeB, 0, 60, 0, 40, 1, 0.75, 0.75,
    OverviewMarkKind::DiagonalAggregate, 3);
}

TEST(SpatiotemporalOverview, InvalidInputThrows)
{
  const AggregationHierarchy hierarchy(Fig1Hierarchy(), 6);
  const auto parts = Fig1Partition();
  auto layout = [&](
                  std::vector<OverviewPart> p, SpatiotemporalOverviewOptions o, uint32_t types = 2)
  { return LayoutSpatiotemporalOverview(hierarchy, p, types, o); };
  EXPECT_NO_THROW(layout(parts, Fig1Options(3.0)));
  auto options = [](std::function<void(SpatiotemporalOverviewOptions&)> change)
  {
    SpatiotemporalOverviewOptions o = Fig1Options(3.0);
    change(o);
    return o;
  };
  EXPECT_THROW(layout(parts, options([](auto& o) { o.Slices = 0; })), std::invalid_argument);
  EXPECT_THROW(layout(parts, options([](auto& o) { o.Slices = 5; })), std::invalid_argument);
  EXPECT_THROW(layout(parts, options([](auto& o) { o.WindowEnd = 0.0; })), std::invalid_argument);
  EXPECT_THROW(layout(parts, options([](auto& o) { o.WindowBegin = NAN; })), std::invalid_argument);
  EXPECT_THROW(layout(parts, options([](auto& o) { o.PlotWidth = 0.0; })), std::invalid_argument);
  EXPECT_THROW(
    layout(parts, options([](auto& o) { o.PlotHeight = INFINITY; })), std::invalid_argument);
  EXPECT_THROW(
    layout(parts, options([](auto& o) { o.MinRowHeight = -1.0; })), std::invalid_argument);
  EXPECT_THROW(
    layout(parts, options([](auto& o) { o.MinRowHeight = NAN; })), std::invalid_argument);
  EXPECT_THROW(layout(parts, Fig1Options(3.0), 0), std::invalid_argument);
  EXPECT_THROW(layout(parts, Fig1Options(3.0), 3), std::invalid_argument); // Mean size
  auto changed = [&](std::function<void(std::vector<OverviewPart>&)> change)
  {
    std::vector<OverviewPart> p = parts;
    change(p);
    return p;
  };
  EXPECT_THROW(
    layout(changed([](auto& p) { p[2].Node = 10; }), Fig1Options(3.0)), std::invalid_argument);
  EXPECT_THROW(
    layout(changed([](auto& p) { p[2].Node = -1; }), Fig1Options(3.0)), std::invalid_argument);
  EXPECT_THROW(
    layout(changed([](auto& p) { p[2].LastSlice = 1; }), Fig1Options(3.0)), std::invalid_argument);
  EXPECT_THROW(
    layout(changed([](auto& p) { p[8].LastSlice = 6; }), Fig1Options(3.0)), std::invalid_argument);
  EXPECT_THROW(
    layout(changed([](auto& p) { p[3].Mean[1] = -1.0; }), Fig1Options(3.0)), std::invalid_argument);
  EXPECT_THROW(
    layout(changed([](auto& p) { p[3].Mean[0] = NAN; }), Fig1Options(3.0)), std::invalid_argument);
  // A gap (a part missing) and an overlap (a part repeated).
  EXPECT_THROW(
    layout(changed([](auto& p) { p.pop_back(); }), Fig1Options(3.0)), std::invalid_argument);
  EXPECT_THROW(
    layout(changed([](auto& p) { p.push_back(p[4]); }), Fig1Options(3.0)), std::invalid_argument);
  EXPECT_THROW(
    layout(changed([](auto& p) { p[5].Node = NodeA; }), Fig1Options(3.0)), std::invalid_argument);
}

// The partitions of the real spatiotemporal aggregation on random models
// and trees, laid out with random budgets, against brute force.
TEST(SpatiotemporalOverview, RandomPartitionsTileThePlotAndMatchTheModel)
{
  std::mt19937 random(2014);
  std::size_t aggregates = 0, diagonals = 0, crosses = 0;
  for (int trial = 0; trial < 40; ++trial)
  {
    const uint32_t leaves = 2 + random() % 14;
    const int slices = 1 + random() % 10;
    const uint32_t types = 1 + random() % 3;
    const AggregationHierarchy hierarchy(RandomTree(random, leaves), leaves);
    const MicroscopicModel model = RandomModel(random, slices, leaves, types);
    const ModelView view = ModelView::Of(model);
    const SpatiotemporalAggregation aggregation(view, hierarchy, 1);
    for (double p : { 0.0, 0.3, 0.6, 0.9 })
    {
      const Partition partition = aggregation.Best(p);
      std::vector<OverviewPart> parts;
      for (const AggregatePart& part : partition.Parts)
        parts.push_back({ part.Node, part.FirstSlice, part.LastSlice,
          SummarizeArea(view, hierarchy, part.Node, part.FirstSlice, part.LastSlice).Mean });
      // Which part owns each (leaf, slice) cell.
      std::vector<int64_t> owner(std::size_t(leaves) * slices, -1);
      for (std::size_t i = 0; i < parts.size(); ++i)
        for (uint32_t s = hierarchy.LeafBegin(parts[i].Node); s < hierarchy.LeafEnd(parts[i].Node);
             ++s)
          for (int t = parts[i].FirstSlice; t <= parts[i].LastSlice; ++t)
            owner[s * slices + t] = static_cast<int64_t>(i);
      // A boundary b (0 < b < slices) is a cut of leaf s when its parts change there.
      auto cutOf = [&](uint32_t s, int b)
      { return owner[s * slices + b] != owner[s * slices + b - 1]; };

      SpatiotemporalOverviewOptions options;
      options.Slices = slices;
      options.WindowBegin = 1.0;
      options.WindowEnd = 1.0 + 0.25 * slices;
      options.PlotWidth = 7.0 * slices;
      options.PlotHeight = 3.0 * leaves;
      options.MinRowHeight = (random() % 4 == 0) ? 0.0 : double(random() % (3 * leaves + 4));
      const SpatiotemporalOverview overview =
        LayoutSpatiotemporalOverview(hierarchy, parts, types, options);
      SCOPED_TRACE(::testing::Message()
        << "trial " << trial << " p " << p << " budget " << options.MinRowHeight);

      // The cut: rows tile the leaves, the descent rule holds at every row.
      std::vector<int64_t> rowOf(leaves, -1);
      auto visible = [&](int64_t n)
      { return hierarchy.LeafCount(n) * 3.0 >= options.MinRowHeight; };
      std::set<int64_t> rowSet;
      for (const OverviewRow& row : overview.Rows)
      {
        rowSet.insert(row.Node);
        for (uint32_t s = row.FirstLeaf; s < row.LeafEnd; ++s)
        {
          EXPECT_EQ(rowOf[s], -1);
          rowOf[s] = row.Node;
        }
        const auto& children = hierarchy.Children(row.Node);
        EXPECT_TRUE(children.empty() || !std::all_of(children.begin(), children.end(), visible));
        for (int64_t up = hierarchy.ParentOf(row.Node); up >= 0; up = hierarchy.ParentOf(up))
        {
          const auto& siblings = hierarchy.Children(up);
          EXPECT_TRUE(std::all_of(siblings.begin(), siblings.end(), visible));
        }
      }
      EXPECT_TRUE(std::none_of(rowOf.begin(), rowOf.end(), [](int64_t r) { return r < 0; }));
      auto isBelowCut = [&](int64_t node)
      {
        for (int64_t up = hierarchy.ParentOf(node); up >= 0; up = hierarchy.ParentOf(up))
          if (rowSet.count(up))
            return true;
        return false;
      };

      // Every cell is covered by exactly one mark; areas add up to the plot.
      std::vector<int> cover(owner.size(), 0);
      double area = 0.0;
      std::set<int64_t> drawnParts;
      std::size_t partsInAggregates = 0;
      for (const OverviewMark& m : overview.Marks)
      {
        ASSERT_GE(m.Node, 0);
        EXPECT_EQ(m.FirstLeaf, hierarchy.LeafBegin(m.Node));
        EXPECT_EQ(m.LeafEnd, hierarchy.LeafEnd(m.Node));
        EXPECT_NEAR(m.X0, 7.0 * m.FirstSlice, 1e-9);
        EXPECT_NEAR(m.X1, 7.0 * (m.LastSlice + 1), 1e-9);
        EXPECT_NEAR(m.Y1, 3.0 * (leaves - m.FirstLeaf), 1e-9);
        EXPECT_NEAR(m.Y0, 3.0 * (leaves - m.LeafEnd), 1e-9);
        EXPECT_NEAR(m.Start, 1.0 + 0.25 * m.FirstSlice, 1e-12);
        EXPECT_NEAR(m.End, 1.0 + 0.25 * (m.LastSlice + 1), 1e-12);
        area += (m.X1 - m.X0) * (m.Y1 - m.Y0);
        for (uint32_t s = m.FirstLeaf; s < m.LeafEnd; ++s)
          for (int t = m.FirstSlice; t <= m.LastSlice; ++t)
            ++cover[s * slices + t];
        // Colour and opacity: eq. 5 on the model's cells under the mark.
        const AreaSummary truth = SummarizeArea(view, hierarchy, m.Node, m.FirstSlice, m.LastSlice);
        EXPECT_EQ(m.Mode, truth.Mode);
        EXPECT_NEAR(m.ModeProportion, truth.ModeProportion, 1e-9);
        EXPECT_NEAR(m.Value, truth.Mean[truth.Mode], 1e-9);
        if (m.Kind == OverviewMarkKind::Part)
        {
          ASSERT_GE(m.Part, 0);
          EXPECT_TRUE(drawnParts.insert(m.Part).second);
          EXPECT_EQ(m.Node, parts[m.Part].Node);
          EXPECT_EQ(m.FirstSlice, parts[m.Part].FirstSlice);
          EXPECT_EQ(m.LastSlice, parts[m.Part].LastSlice);
          EXPECT_FALSE(isBelowCut(m.Node));
          continue;
        }
        // A visual aggregate: its node is a row, every part under it lies
        // below the cut, its ends are cuts of every leaf and no boundary
        // inside is; diagonal iff no leaf is cut inside.
        EXPECT_EQ(m.Part, -1);
        EXPECT_TRUE(rowSet.count(m.Node));
        std::set<int64_t> inside;
        for (uint32_t s = m.FirstLeaf; s < m.LeafEnd; ++s)
          for (int t = m.FirstSlice; t <= m.LastSlice; ++t)
            inside.insert(owner[s * slices + t]);
        for (int64_t i : inside)
        {
          EXPECT_TRUE(isBelowCut(parts[i].Node));
          EXPECT_GE(parts[i].FirstSlice, m.FirstSlice);
          EXPECT_LE(parts[i].LastSlice, m.LastSlice);
        }
        EXPECT_EQ(m.PartCount, inside.size());
        partsInAggregates += inside.size();
        bool anyInnerCut = false;
        for (int b = m.FirstSlice + 1; b <= m.LastSlice; ++b)
        {
          bool all = true;
          for (uint32_t s = m.FirstLeaf; s < m.LeafEnd; ++s)
          {
            all = all && cutOf(s, b);
            anyInnerCut = anyInnerCut || cutOf(s, b);
          }
          EXPECT_FALSE(all) << "boundary " << b << " is shared by every leaf";
        }
        for (int b : { m.FirstSlice, m.LastSlice + 1 })
        {
          for (uint32_t s = m.FirstLeaf; b > 0 && b < slices && s < m.LeafEnd; ++s)
            EXPECT_TRUE(cutOf(s, b));
        }
        EXPECT_EQ(m.Kind,
          anyInnerCut ? OverviewMarkKind::CrossAggregate : OverviewMarkKind::DiagonalAggregate);
        ++aggregates;
        (anyInnerCut ? crosses : diagonals)++;
      }
      EXPECT_TRUE(std::all_of(cover.begin(), cover.end(), [](int c) { return c == 1; }));
      EXPECT_NEAR(area, options.PlotWidth * options.PlotHeight, 1e-6);
      EXPECT_EQ(drawnParts.size() + partsInAggregates, parts.size());
      if (options.MinRowHeight <= 3.0)
      {
        EXPECT_EQ(overview.Aggregates, 0u);
        EXPECT_EQ(overview.Marks.size(), parts.size());
      }
      // Per pixel: the centre of every pixel lies in exactly one mark.
      for (int y = 0; y < static_cast<int>(options.PlotHeight); ++y)
        for (int x = 0; x < static_cast<int>(options.PlotWidth); ++x)
        {
          int hits = 0;
          for (const OverviewMark& m : overview.Marks)
            hits += m.X0 < x + 0.5 && x + 0.5 < m.X1 && m.Y0 < y + 0.5 && y + 0.5 < m.Y1;
          ASSERT_EQ(hits, 1) << "pixel " << x << ", " << y;
        }
    }
  }
  // The random cases exercise both kinds of aggregate.
  EXPECT_GT(diagonals, 10u);
  EXPECT_GT(crosses, 10u);
  EXPECT_EQ(diagonals + crosses, aggregates);
}
