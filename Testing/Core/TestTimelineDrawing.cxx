// Tests of what the Timeline draws from its layout (TimelineDrawing.h,
// docs/timeline.md): rows planned to the view's height, band geometry, the
// cells of stacked and mode marks, hatching spans, density columns and the
// legend's order. The expected values are worked out by hand.
#include "ResourceHierarchy.h"
#include "TimelineDrawing.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace macroscope;

namespace
{
// root 0 -> nodes 1, 2; node 1 -> leaves 3, 4; node 2 -> leaves 5, 6.
const std::vector<int64_t> Parent = { -1, 0, 0, 1, 1, 2, 2 };
const std::vector<int64_t> LeafIndex = { -1, -1, -1, 0, 1, 2, 3 };

// One band, one mark of two types over [0, 1] s, in a 100 px window.
TimelineLayout TwoTypeAggregate()
{
  TimelineLayout layout;
  layout.Bands.FirstRow = { 0 };
  layout.Bands.RowCount = { 1 };
  layout.Bands.Flags = { 0 };
  TimelineMarks& marks = layout.Marks;
  marks.Band = { 0 };
  marks.Depth = { 0 };
  marks.Start = { 0.0 };
  marks.End = { 0.01 };
  marks.Type = { 1 };
  marks.StateCount = { 3 };
  marks.Flags = { TimelineTimeAggregate };
  marks.TypeOffset = { 0, 2 };
  marks.TypeId = { 0, 1 };
  marks.TypeTime = { 0.002, 0.006 };
  layout.PixelsPerSecond = 100.0;
  return layout;
}
}

TEST(TimelineDrawing, RowsGiveWayToTheirParentsWhenTooThin)
{
  // 4 locations in 40 px at 10 px each fit; at 20 px only 2 rows fit: the
  // level-1 nodes (1 and 2) stand for them.
  const TimelineRowPlan all = PlanTimelineRows(Parent, LeafIndex, 40.0, 10.0, {});
  EXPECT_EQ(all.Level, -1);
  EXPECT_EQ(all.RowVertex, (std::vector<int64_t>{ 3, 4, 5, 6 }));
  const TimelineRowPlan merged = PlanTimelineRows(Parent, LeafIndex, 40.0, 20.0, {});
  EXPECT_EQ(merged.Level, 1);
  EXPECT_EQ(merged.RowVertex, (std::vector<int64_t>{ 1, 2 }));
  EXPECT_EQ(merged.RowOfLeaf, (std::vector<uint32_t>{ 0, 0, 1, 1 }));
}

TEST(TimelineDrawing, RowWindowKeepsTheLocationsAsked)
{
  std::vector<bool> keep;
  int window[2] = { 1, 2 };
  int drawn[3] = { -1, -1, -1 };
  KeepTimelineRowWindow(Parent, LeafIndex, window, keep, drawn);
  EXPECT_EQ(keep, (std::vector<bool>{ false, true, true, false }));
  EXPECT_EQ(drawn[0], 1);
  EXPECT_EQ(drawn[1], 2);
  EXPECT_EQ(drawn[2], 4);
  // An open window keeps all, and says so.
  std::vector<bool> all;
  int open[2] = { 0, -1 };
  KeepTimelineRowWindow(Parent, LeafIndex, open, all, drawn);
  EXPECT_TRUE(all.empty());
  EXPECT_EQ(drawn[1], 3);
}

TEST(TimelineDrawing, BandAncestorsAndGroups)
{
  // Rows 3 and 4 share node 1 and the root; rows 4 and 5 only the root.
  EXPECT_EQ(TimelineBandAncestors(Parent, 3, 4), (std::vector<int64_t>{ -1, 1, 0 }));
  EXPECT_EQ(TimelineBandAncestors(Parent, 4, 5), (std::vector<int64_t>{ -1, -1, 0 }));
  const auto groups = TimelineRowGroups(Parent, { 3, 4, 5, 6 }, 1);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].Group, 1);
  EXPECT_EQ(groups[0].EndRow, 2u);
  EXPECT_EQ(groups[1].FirstRow, 2u);
  EXPECT_EQ(groups[1].Group, 2);
}

TEST(TimelineDrawing, StackedAggregateSplitsByTypeTime)
{
  const TimelineLayout layout = TwoTypeAggregate();
  const TimelineBandGeometry bands(layout, 100.0, -1);
  EXPECT_DOUBLE_EQ(bands.BandHeight, 100.0);
  EXPECT_DOUBLE_EQ(bands.Gap, 8.0);
  // The mark is 1 px wide: widened to the 4 px budget around its centre,
  // clamped at the window's left edge.
  const TimelineMarkDrawing stacked =
    DrawTimelineMarks(layout, bands, { 0 }, 0.0, 100.0, 4.0, true, 2);
  ASSERT_EQ(stacked.Cells.size(), 2u);
  EXPECT_DOUBLE_EQ(stacked.Cells[0].X0, 0.0);
  EXPECT_DOUBLE_EQ(stacked.Cells[0].X1, 4.0);
  // Type 0 holds a quarter of the time: a quarter of [8, 92] from the bottom.
  EXPECT_DOUBLE_EQ(stacked.Cells[0].Y0, 8.0);
  EXPECT_DOUBLE_EQ(stacked.Cells[0].Y1, 8.0 + 0.25 * 84.0);
  EXPECT_DOUBLE_EQ(stacked.Cells[1].Y1, 92.0);
  EXPECT_DOUBLE_EQ(stacked.Cells[0].Fraction, 0.25);
  EXPECT_FALSE(stacked.Cells[0].Shaded);
  EXPECT_DOUBLE_EQ(stacked.TimeOfType[0], 0.002);
  EXPECT_DOUBLE_EQ(stacked.TimeOfType[1], 0.006);
  ASSERT_EQ(stacked.Spans.size(), 1u);
  EXPECT_DOUBLE_EQ(stacked.Spans[0].Z, 1.5);
}

TEST(TimelineDrawing, ModeAggregateIsOneShadedCell)
{
  const TimelineLayout layout = TwoTypeAggregate();
  const TimelineBandGeometry bands(layout, 100.0, -1);
  const TimelineMarkDrawing mode =
    DrawTimelineMarks(layout, bands, { 0 }, 0.0, 100.0, 4.0, false, 2);
  ASSERT_EQ(mode.Cells.size(), 1u);
  EXPECT_EQ(mode.Cells[0].Type, 1u);
  EXPECT_TRUE(mode.Cells[0].Shaded);
  // The mode fills 0.006 s of the 0.01 s one location could hold.
  EXPECT_NEAR(mode.Cells[0].Filled, 0.6, 1e-12);
  EXPECT_NEAR(mode.Cells[0].Fraction, 0.75, 1e-12);
  // A full mode keeps its colour; an empty one keeps 35 % of it.
  const RGB red{ { 255, 0, 0 } };
  EXPECT_EQ(TimelineModeShade(red, 1.0), red);
  EXPECT_EQ(TimelineModeShade(red, 0.0), (RGB{ { 240, 151, 151 } }));
}

TEST(TimelineDrawing, DeeperMarksAreInsetAndInFront)
{
  TimelineLayout layout = TwoTypeAggregate();
  layout.Marks.Depth = { 2 };
  const TimelineBandGeometry bands(layout, 100.0, -1);
  // Depths 0..2: inset min(12, 30 / 2) = 12 px per depth.
  EXPECT_DOUBLE_EQ(bands.InsetStep, 12.0);
  double y0 = 0.0, y1 = 0.0;
  bands.MarkRows(0, 2, y0, y1);
  EXPECT_DOUBLE_EQ(y0, 32.0);
  EXPECT_DOUBLE_EQ(y1, 68.0);
  EXPECT_DOUBLE_EQ(bands.Z(2), 3.0);
  EXPECT_DOUBLE_EQ(bands.LineZ(), 5.0);
}

TEST(TimelineDrawing, TouchingAggregatesShareOneHatchSpan)
{
  TimelineLayout layout = TwoTypeAggregate();
  TimelineMarks& marks = layout.Marks;
  // A second aggregate starting where the first ends, and a plain mark.
  marks.Band = { 0, 0, 0 };
  marks.Depth = { 0, 0, 0 };
  marks.Start = { 0.0, 0.1, 0.5 };
  marks.End = { 0.1, 0.2, 0.9 };
  marks.Type = { 1, 0, 0 };
  marks.StateCount = { 3, 2, 1 };
  marks.Flags = { TimelineTimeAggregate, TimelineTimeAggregate, 0 };
  marks.TypeOffset = { 0, 2, 3, 4 };
  marks.TypeId = { 0, 1, 0, 0 };
  marks.TypeTime = { 0.02, 0.06, 0.05, 0.4 };
  const TimelineBandGeometry bands(layout, 100.0, -1);
  const TimelineMarkDrawing drawing =
    DrawTimelineMarks(layout, bands, { 0 }, 0.0, 100.0, 2.0, false, 2);
  ASSERT_EQ(drawing.Spans.size(), 1u);
  EXPECT_DOUBLE_EQ(drawing.Spans[0].X0, 0.0);
  EXPECT_DOUBLE_EQ(drawing.Spans[0].X1, 20.0);
  EXPECT_EQ(drawing.Cells.size(), 3u);
  EXPECT_EQ(TypesByTime(drawing.TimeOfType), (std::vector<uint32_t>{ 0, 1 }));
}

TEST(TimelineDrawing, SegmentsClippedToThePlot)
{
  double x0 = -10.0, y0 = 0.0, x1 = 10.0, y1 = 20.0;
  ASSERT_TRUE(ClipSegmentToWidth(x0, y0, x1, y1, 5.0));
  EXPECT_DOUBLE_EQ(x0, 0.0);
  EXPECT_DOUBLE_EQ(y0, 10.0);
  EXPECT_DOUBLE_EQ(x1, 5.0);
  EXPECT_DOUBLE_EQ(y1, 15.0);
  double a = 6.0, b = 0.0, c = 8.0, d = 1.0;
  EXPECT_FALSE(ClipSegmentToWidth(a, b, c, d, 5.0));
}

TEST(TimelineDrawing, DensityColumnsCountLinesAndDensityAlike)
{
  TimelineLayout layout;
  layout.PixelsPerSecond = 1.0;
  layout.Density.Column = { 1 };
  layout.Density.Count = { 4 };
  layout.Density.Bytes = { 40.0 };
  layout.Lines.SendTime = { 2.5, -3.0 };
  layout.Lines.Count = { 2, 1 };
  layout.Lines.Bytes = { 8.0, 1.0 };
  // 3 columns: the line sent before the window counts in the first.
  const std::vector<double> columns = TimelineDensityColumns(layout, 0.0, 2.5);
  EXPECT_EQ(columns, (std::vector<double>{ 1.0, 4.0, 2.0, 1.0, 40.0, 8.0 }));
  const TimelineDensity density = TimelineDensityOfColumns(columns);
  EXPECT_EQ(density.Column, (std::vector<int64_t>{ 0, 1, 2 }));
  EXPECT_EQ(density.MaxCount, 4u);
  EXPECT_EQ(TimelineDensityGrey(0.0), 225);
  EXPECT_EQ(TimelineDensityGrey(1.0), 20);
}

TEST(TimelineDrawing, TypesByTimeMostFirstTiesByIdNoneEmpty)
{
  EXPECT_EQ(TypesByTime({ 1.0, 0.0, 3.0, 1.0 }), (std::vector<uint32_t>{ 2, 0, 3 }));
  EXPECT_TRUE(TypesByTime({}).empty());
}
