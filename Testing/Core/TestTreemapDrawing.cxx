// Tests of what the Treemap chart draws from its layout (TreemapDrawing.h,
// docs/treemap.md): frame greys, the types tiling a node, the legend's
// order and the title's cut. Worked by hand.
#include "TreemapDrawing.h"

#include <gtest/gtest.h>

#include <vector>

using namespace macroscope;

TEST(TreemapDrawing, FramesLightenWithDepthUpToAFloor)
{
  EXPECT_EQ(TreemapFrameColor(0), (RGB{ { 110, 110, 110 } }));
  EXPECT_EQ(TreemapFrameColor(3), (RGB{ { 194, 194, 194 } }));
  EXPECT_EQ(TreemapFrameColor(40), (RGB{ { 232, 232, 232 } }));
}

TEST(TreemapDrawing, TypesTileTheNodeInProportion)
{
  std::vector<double> values = { 3.0, -1.0, 1.0 };
  std::vector<TreemapRect> rects;
  const double total = TileNodeByType(values, { 0.0, 0.0, 4.0, 2.0 }, false, rects);
  EXPECT_DOUBLE_EQ(total, 4.0);
  EXPECT_EQ(values, (std::vector<double>{ 3.0, 0.0, 1.0 })); // negatives count as nothing
  ASSERT_EQ(rects.size(), 3u);
  EXPECT_DOUBLE_EQ(rects[0].Area(), 6.0);
  EXPECT_DOUBLE_EQ(rects[1].Area(), 0.0);
  EXPECT_DOUBLE_EQ(rects[2].Area(), 2.0);
  std::vector<double> none = { 0.0, -2.0 };
  EXPECT_DOUBLE_EQ(TileNodeByType(none, { 0.0, 0.0, 1.0, 1.0 }, true, rects), 0.0);
  EXPECT_TRUE(rects.empty());
}

TEST(TreemapDrawing, LegendByAreaUnlessOrdered)
{
  const std::vector<double> area = { 1.0, 0.0, 5.0, 1.0 };
  EXPECT_EQ(TreemapLegendOrder(area, false), (std::vector<int>{ 2, 0, 3 }));
  EXPECT_EQ(TreemapLegendOrder(area, true), (std::vector<int>{ 0, 2, 3 }));
}

TEST(TreemapDrawing, TitleNamesTheCut)
{
  EXPECT_EQ(TreemapCutText("spatial", 0.25, -1), "   optimal cut, p = 0.25");
  EXPECT_EQ(TreemapCutText("level", 0.0, 2), "   level 2");
  EXPECT_EQ(TreemapCutText("level", 0.0, -1), "   every resource");
  EXPECT_EQ(TreemapCutText("temporal", 0.5, 1), "");
}
