// Tests of what the spatiotemporal overview draws from its layout
// (SpatiotemporalOverviewDrawing.h, docs/overviews.md): the mode colour
// with opacity, the marking lines, the areas per mode and the groups shown.
#include "SpatiotemporalOverviewDrawing.h"

#include <gtest/gtest.h>

#include <vector>

using namespace macroscope;

namespace
{
OverviewMark Mark(double x0, double y0, double x1, double y1, OverviewMarkKind kind)
{
  OverviewMark m;
  m.X0 = x0;
  m.Y0 = y0;
  m.X1 = x1;
  m.Y1 = y1;
  m.Kind = kind;
  return m;
}
}

TEST(SpatiotemporalOverviewDrawing, OpacityOverWhite)
{
  const RGB blue{ { 0, 0, 200 } };
  EXPECT_EQ(OverOpaqueWhite(blue, 1.0), blue);
  EXPECT_EQ(OverOpaqueWhite(blue, 0.0), (RGB{ { 255, 255, 255 } }));
  EXPECT_EQ(OverOpaqueWhite(blue, 0.5), (RGB{ { 128, 128, 228 } }));
  EXPECT_EQ(OverOpaqueWhite(blue, 7.0), blue); // clamped
}

TEST(SpatiotemporalOverviewDrawing, MarkingLinesOfEachKind)
{
  // Inside the chart: left and top borders; a part has no diagonal.
  const auto inner = MarkingLines(Mark(10, 10, 20, 20, OverviewMarkKind::Part), 100.0);
  ASSERT_EQ(inner.size(), 2u);
  EXPECT_EQ(inner[0].Kind, OverviewMarkingKind::Border);
  EXPECT_DOUBLE_EQ(inner[0].X1, 10.0);
  EXPECT_DOUBLE_EQ(inner[1].Y0, 20.0);
  // At the chart's left and top edges: no border; a cross aggregate has
  // its diagonal and the other line of the cross.
  const auto cross = MarkingLines(Mark(0, 50, 20, 100, OverviewMarkKind::CrossAggregate), 100.0);
  ASSERT_EQ(cross.size(), 2u);
  EXPECT_EQ(cross[0].Kind, OverviewMarkingKind::Diagonal);
  EXPECT_EQ(cross[1].Kind, OverviewMarkingKind::Cross);
  EXPECT_DOUBLE_EQ(cross[1].Y0, 100.0);
  EXPECT_DOUBLE_EQ(cross[1].Y1, 50.0);
  const auto diagonal =
    MarkingLines(Mark(0, 50, 20, 100, OverviewMarkKind::DiagonalAggregate), 100.0);
  ASSERT_EQ(diagonal.size(), 1u);
  EXPECT_EQ(diagonal[0].Kind, OverviewMarkingKind::Diagonal);
}

TEST(SpatiotemporalOverviewDrawing, AreasSignedScaleAndTags)
{
  std::vector<OverviewMark> marks = { Mark(0, 0, 10, 10, OverviewMarkKind::Part),
    Mark(10, 0, 20, 5, OverviewMarkKind::Part) };
  marks[0].Mode = 1;
  marks[0].SignedValue = -4.0;
  marks[0].Value = 4.0;
  marks[1].Mode = 1;
  marks[1].SignedValue = 0.1;
  marks[1].Value = 0.1;
  EXPECT_EQ(ModeAreaOfTypes(marks, 3), (std::vector<double>{ 0.0, 150.0, 0.0 }));
  EXPECT_DOUBLE_EQ(LargestSignedValue(marks), 4.0);
  EXPECT_TRUE(NamesDifferingType(marks[0], 4.0));
  EXPECT_FALSE(NamesDifferingType(marks[1], 4.0)); // under 5 % of 4
  EXPECT_DOUBLE_EQ(LargestSignedValue({ Mark(0, 0, 1, 1, OverviewMarkKind::Part) }), 1.0);
}

TEST(SpatiotemporalOverviewDrawing, GroupsShownOnlyAtOrAboveTheCut)
{
  // Parents after children (the aggregation hierarchy): leaves 0..3,
  // node 4 = {0, 1}, node 5 = {2, 3}, root 6.
  const std::vector<int64_t> parent = { 4, 4, 5, 5, 6, 6, -1 };
  OverviewRow leaf0, leaf1, group5;
  leaf0.Node = 0;
  leaf1.Node = 1;
  group5.Node = 5;
  EXPECT_EQ(ShownGroups(parent, { leaf0, leaf1, group5 }, 1), (std::vector<int64_t>{ 4, 5 }));
  // Node 5 drawn as one row: its leaves (depth 2) are not groups shown.
  EXPECT_TRUE(ShownGroups(parent, { group5 }, 2).empty());
  EXPECT_EQ(ShownGroups(parent, { leaf0 }, 2), (std::vector<int64_t>{ 0 }));
}
