#include "LabelPlacement.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

using macroscope::BoxesOverlap;
using macroscope::FitChartMargins;
using macroscope::FitLegend;
using macroscope::LabelAlign;
using macroscope::LabelBox;
using macroscope::LabelCandidate;
using macroscope::LabelRect;
using macroscope::PlaceLabels;

namespace
{
LabelCandidate Label(double x, double y, double w, double h, int priority,
  LabelAlign horizontal = LabelAlign::Start, LabelAlign vertical = LabelAlign::Start)
{
  LabelCandidate label;
  label.X = x;
  label.Y = y;
  label.Width = w;
  label.Height = h;
  label.Horizontal = horizontal;
  label.Vertical = vertical;
  label.Priority = priority;
  return label;
}
const LabelRect Big{ -1000.0, -1000.0, 1000.0, 1000.0 };
}

TEST(LabelPlacement, BoxFollowsTheAlignment)
{
  const LabelRect right = LabelBox(Label(100, 50, 40, 10, 0, LabelAlign::End, LabelAlign::Centre));
  EXPECT_DOUBLE_EQ(right.X0, 60);
  EXPECT_DOUBLE_EQ(right.X1, 100);
  EXPECT_DOUBLE_EQ(right.Y0, 45);
  EXPECT_DOUBLE_EQ(right.Y1, 55);
  const LabelRect top = LabelBox(Label(100, 50, 40, 10, 0, LabelAlign::Centre, LabelAlign::End));
  EXPECT_DOUBLE_EQ(top.X0, 80);
  EXPECT_DOUBLE_EQ(top.Y0, 40);
  EXPECT_DOUBLE_EQ(top.Y1, 50);
}

TEST(LabelPlacement, GapSeparatesBoxes)
{
  const LabelRect a{ 0, 0, 10, 10 };
  const LabelRect touching{ 10, 0, 20, 10 };
  const LabelRect twoApart{ 12, 0, 22, 10 };
  EXPECT_FALSE(BoxesOverlap(a, touching, 0.0));
  EXPECT_TRUE(BoxesOverlap(a, touching, 1.0));
  EXPECT_FALSE(BoxesOverlap(a, twoApart, 2.0));
  EXPECT_TRUE(BoxesOverlap(a, twoApart, 2.5));
}

TEST(LabelPlacement, HigherPriorityWinsAndTiesKeepInputOrder)
{
  // Three boxes on one spot: the highest priority wins whatever its index.
  const std::vector<LabelCandidate> pile{ Label(0, 0, 50, 10, 1), Label(5, 2, 50, 10, 3),
    Label(10, 4, 50, 10, 2) };
  EXPECT_EQ(PlaceLabels(pile, Big, 0.0), (std::vector<bool>{ false, true, false }));
  // Equal priorities: the first in input order wins, then the next that
  // does not touch it.
  const std::vector<LabelCandidate> ties{ Label(0, 0, 50, 10, 0), Label(20, 0, 50, 10, 0),
    Label(60, 0, 50, 10, 0) };
  EXPECT_EQ(PlaceLabels(ties, Big, 2.0), (std::vector<bool>{ true, false, true }));
}

TEST(LabelPlacement, LabelsOutsideTheBoundsAreDropped)
{
  const LabelRect bounds{ 0, 0, 100, 50 };
  const std::vector<LabelCandidate> labels{ Label(90, 10, 20, 10, 0), Label(10, 10, 20, 10, 0),
    Label(0, 40, 100, 10, 0) };
  EXPECT_EQ(PlaceLabels(labels, bounds, 0.0), (std::vector<bool>{ false, true, true }));
}

TEST(LabelPlacement, RandomPilesNeverOverlapAndLoneLabelsStay)
{
  std::mt19937 random(26);
  std::uniform_real_distribution<double> position(0.0, 600.0);
  std::uniform_real_distribution<double> size(5.0, 120.0);
  std::uniform_int_distribution<int> priority(0, 4);
  const LabelRect bounds{ 0, 0, 640, 480 };
  for (int trial = 0; trial < 50; ++trial)
  {
    std::vector<LabelCandidate> labels;
    for (int i = 0; i < 300; ++i)
    {
      labels.push_back(Label(position(random), position(random) * 0.8, size(random),
        0.2 * size(random), priority(random), LabelAlign::Centre, LabelAlign::Centre));
    }
    const double gap = 2.0;
    const auto kept = PlaceLabels(labels, bounds, gap);
    ASSERT_EQ(kept, PlaceLabels(labels, bounds, gap)) << "deterministic";
    for (std::size_t i = 0; i < labels.size(); ++i)
    {
      const LabelRect box = LabelBox(labels[i]);
      bool alone = macroscope::BoxInside(box, bounds);
      for (std::size_t j = 0; j < labels.size(); ++j)
      {
        if (j != i && BoxesOverlap(box, LabelBox(labels[j]), gap))
        {
          alone = false;
          if (kept[i] && kept[j])
          {
            ADD_FAILURE() << "labels " << i << " and " << j << " kept and overlapping";
          }
        }
      }
      if (kept[i])
      {
        EXPECT_TRUE(macroscope::BoxInside(box, bounds));
      }
      if (alone)
      {
        EXPECT_TRUE(kept[i]) << "label " << i << " overlaps nothing but was dropped";
      }
      else if (!kept[i] && macroscope::BoxInside(box, bounds))
      {
        // Greedy is maximal: a dropped label touches a kept one.
        bool blocked = false;
        for (std::size_t j = 0; j < labels.size(); ++j)
        {
          blocked = blocked || (kept[j] && BoxesOverlap(box, LabelBox(labels[j]), gap));
        }
        EXPECT_TRUE(blocked) << "label " << i;
      }
    }
  }
}

namespace
{
// 2 clusters x 2 nodes x 2 ranks x 2 threads: thread t of rank r of node n
// of cluster c is row 8c + 4n + 2r + t; node ids: threads 0..15, ranks
// 100 + 8c + 2n... (each level its own range), root 1000.
std::vector<std::vector<int64_t>> FourLevelRows()
{
  std::vector<std::vector<int64_t>> rows;
  for (int64_t row = 0; row < 16; ++row)
  {
    rows.push_back({ row, 100 + row / 2, 200 + row / 4, 300 + row / 8, 1000 });
  }
  return rows;
}
}

TEST(LabelPlacement, RowGroupsNameEveryRow)
{
  const auto rows = FourLevelRows();
  // Rows tall enough: one label per row.
  auto groups = macroscope::GroupRowsForLabels(rows, std::vector<double>(16, 16.0), 16.0);
  ASSERT_EQ(groups.size(), 16u);
  EXPECT_EQ(groups[5].First, 5u);
  EXPECT_EQ(groups[5].Node, 5);
  // 10 px rows, 16 px labels: ranks (2 rows, 20 px) are named.
  groups = macroscope::GroupRowsForLabels(rows, std::vector<double>(16, 10.0), 16.0);
  ASSERT_EQ(groups.size(), 8u);
  EXPECT_EQ(groups[3].First, 6u);
  EXPECT_EQ(groups[3].Last, 7u);
  EXPECT_EQ(groups[3].Node, 103);
  // 3 px rows: ranks are 6 px, nodes 12, clusters 24: clusters.
  groups = macroscope::GroupRowsForLabels(rows, std::vector<double>(16, 3.0), 16.0);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[1].First, 8u);
  EXPECT_EQ(groups[1].Last, 15u);
  EXPECT_EQ(groups[1].Node, 301);
  // Too thin for anything but the root: one label for all.
  groups = macroscope::GroupRowsForLabels(rows, std::vector<double>(16, 0.5), 16.0);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].Node, 1000);
  EXPECT_EQ(groups[0].Last, 15u);
  // Every row lies under exactly one group, in order, at every size.
  for (double height : { 0.5, 1.0, 2.0, 3.0, 5.0, 8.0, 12.0, 20.0 })
  {
    groups = macroscope::GroupRowsForLabels(rows, std::vector<double>(16, height), 16.0);
    std::size_t next = 0;
    for (const macroscope::RowGroup& group : groups)
    {
      EXPECT_EQ(group.First, next);
      EXPECT_GE(group.Last, group.First);
      next = group.Last + 1;
    }
    EXPECT_EQ(next, 16u);
  }
}

TEST(LabelPlacement, RowGroupsFollowUnevenRowsAndStraddlingBands)
{
  // Rows of different heights (an overview's parts): the short rows 0-1
  // share parent 10, row 2 alone under 11 is tall.
  std::vector<std::vector<int64_t>> rows{ { 0, 10, 99 }, { 1, 10, 99 }, { 2, 11, 99 } };
  auto groups = macroscope::GroupRowsForLabels(rows, { 4.0, 4.0, 40.0 }, 10.0);
  ASSERT_EQ(groups.size(), 1u); // the run under 10 is 8 px: only the root fits
  EXPECT_EQ(groups[0].Node, 99);
  groups = macroscope::GroupRowsForLabels(rows, { 5.0, 5.0, 40.0 }, 10.0);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].Node, 10);
  EXPECT_EQ(groups[1].Node, 11);
  // A band straddling two ranks (-1 at rank level) never joins a run.
  std::vector<std::vector<int64_t>> bands{ { 0, 20, 99 }, { 1, -1, 99 }, { 2, 21, 99 } };
  groups = macroscope::GroupRowsForLabels(bands, { 6.0, 6.0, 6.0 }, 10.0);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].Node, 99);
  EXPECT_THROW(macroscope::GroupRowsForLabels(bands, { 1.0 }, 10.0), std::invalid_argument);
}

TEST(LabelPlacement, RowStrideLeavesRoomForTheText)
{
  EXPECT_EQ(macroscope::RowLabelStride(20.0, 14.0, 2.0, 100), 1u);
  EXPECT_EQ(macroscope::RowLabelStride(16.0, 14.0, 2.0, 100), 1u); // exactly enough
  EXPECT_EQ(macroscope::RowLabelStride(15.9, 14.0, 2.0, 100), 2u);
  EXPECT_EQ(macroscope::RowLabelStride(3.0, 14.0, 2.0, 100), 6u);
  EXPECT_EQ(macroscope::RowLabelStride(3.0, 14.0, 2.0, 4), 4u); // one label for all
  EXPECT_EQ(macroscope::RowLabelStride(0.0, 14.0, 2.0, 7), 7u);
  // The rule in pixels: k rows of the pitch hold a label and its gap.
  for (double pitch : { 0.7, 2.5, 9.0, 13.0 })
  {
    const std::size_t k = macroscope::RowLabelStride(pitch, 13.0, 3.0, 1000);
    EXPECT_GE(k * pitch, 16.0 - 1e-9);
    EXPECT_LT((k - 1) * pitch, 16.0);
  }
}

TEST(LabelPlacement, TickBudgetShrinksWithWideText)
{
  EXPECT_EQ(macroscope::TickLabelBudget(800.0, 40.0, 10.0), 16);
  EXPECT_EQ(macroscope::TickLabelBudget(800.0, 90.0, 10.0), 8);
  EXPECT_EQ(macroscope::TickLabelBudget(300.0, 90.0, 10.0), 3);
  EXPECT_EQ(macroscope::TickLabelBudget(50.0, 90.0, 10.0), 1);
  EXPECT_TRUE(macroscope::TickLabelsFit({ 0, 100, 200 }, { 80, 80, 80 }, 20.0));
  EXPECT_FALSE(macroscope::TickLabelsFit({ 0, 100, 200 }, { 80, 90, 80 }, 20.0));
}

TEST(LabelPlacement, LegendFillsColumnsThenSaysHowManyMore)
{
  const std::vector<double> widths{ 80, 120, 60, 100, 90 };
  // Tall room: one column of all five.
  auto fit = FitLegend(widths, 70, 20, 150, 200, 10);
  EXPECT_EQ(fit.Shown, 5u);
  EXPECT_FALSE(fit.More);
  EXPECT_EQ(fit.Columns, 1u);
  EXPECT_EQ(fit.Rows, 5u);
  EXPECT_DOUBLE_EQ(fit.Width, 120);
  EXPECT_DOUBLE_EQ(fit.Height, 100);
  // Two rows and room for two columns of 120: three entries, then "+ 2 more".
  fit = FitLegend(widths, 70, 20, 260, 45, 10);
  EXPECT_EQ(fit.Rows, 2u);
  EXPECT_EQ(fit.Columns, 2u);
  EXPECT_TRUE(fit.More);
  EXPECT_EQ(fit.Shown, 3u);
  EXPECT_LE(fit.Width, 260);
  // Wide room: three columns hold all five in two rows.
  fit = FitLegend(widths, 70, 20, 400, 45, 10);
  EXPECT_FALSE(fit.More);
  EXPECT_EQ(fit.Shown, 5u);
  EXPECT_EQ(fit.Columns, 3u);
  // One slot only: "+ 5 more" alone.
  fit = FitLegend(widths, 70, 20, 100, 25, 10);
  EXPECT_TRUE(fit.More);
  EXPECT_EQ(fit.Shown, 0u);
  // No room for a row: nothing.
  fit = FitLegend(widths, 70, 20, 400, 15, 10);
  EXPECT_EQ(fit.Shown, 0u);
  EXPECT_FALSE(fit.More);
  EXPECT_EQ(fit.Columns, 0u);
}

TEST(LabelPlacement, MarginsLeaveThePlotItsShare)
{
  macroscope::ChartMargins wanted;
  wanted.Left = 100;
  wanted.Right = 200;
  wanted.Bottom = 40;
  wanted.Top = 20;
  auto margins = FitChartMargins(1600, 900, wanted, 0.5);
  EXPECT_DOUBLE_EQ(margins.Left, 100);
  EXPECT_DOUBLE_EQ(margins.PlotWidth, 1300);
  EXPECT_DOUBLE_EQ(margins.PlotHeight, 840);
  // 400 px wide: 300 asked, 200 allowed; both margins give up a third.
  margins = FitChartMargins(400, 100, wanted, 0.5);
  EXPECT_NEAR(margins.Left, 66.667, 1e-3);
  EXPECT_NEAR(margins.Right, 133.333, 1e-3);
  EXPECT_NEAR(margins.PlotWidth, 200, 1e-9);
  EXPECT_NEAR(margins.Bottom + margins.Top + margins.PlotHeight, 100, 1e-9);
  EXPECT_GE(margins.PlotHeight, 50 - 1e-9);
}

TEST(LabelPlacement, CommonLeadingPathIsDropped)
{
  using macroscope::DropCommonLeadingPath;
  const std::string sep = " / ";
  EXPECT_EQ(
    DropCommonLeadingPath({ "cluster / node 3 / rank 0", "cluster / node 3 / rank 1" }, sep),
    (std::vector<std::string>{ "rank 0", "rank 1" }));
  // Shared up to a component only: "node 1" and "node 12" differ.
  EXPECT_EQ(DropCommonLeadingPath({ "c / node 1 / a", "c / node 12 / a" }, sep),
    (std::vector<std::string>{ "node 1 / a", "node 12 / a" }));
  // Nothing shared, one name, equal names: unchanged (a name keeps its last component).
  EXPECT_EQ(
    DropCommonLeadingPath({ "MPI Rank 0 / Master thread", "MPI Rank 1 / Master thread" }, sep),
    (std::vector<std::string>{ "MPI Rank 0 / Master thread", "MPI Rank 1 / Master thread" }));
  EXPECT_EQ(DropCommonLeadingPath({ "a / b" }, sep), (std::vector<std::string>{ "a / b" }));
  EXPECT_EQ(
    DropCommonLeadingPath({ "a / b", "a / b" }, sep), (std::vector<std::string>{ "b", "b" }));
  EXPECT_EQ(
    DropCommonLeadingPath({ "a / b", "a" }, sep), (std::vector<std::string>{ "a / b", "a" }));
  EXPECT_TRUE(DropCommonLeadingPath({}, sep).empty());
}
