// The treemap's window, animated or fixed, its areas and its qualities
// (Core/TreemapWindow.h). Expectations worked out by hand below.
#include "TreemapWindow.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

using namespace macroscope;

namespace
{
// 5 slices of 2 s from t = 10 s.
const SliceAxis Axis{ 10.0, 2.0 };

// 3 resources, 2 types: resource-major values.
WindowIntegral Integral()
{
  WindowIntegral integral;
  integral.Resources = 3;
  integral.Types = 2;
  integral.Values = { 1, 2, 0, 0, 4, 0.5 };
  return integral;
}
}

TEST(TreemapWindow, AnimationTimesAreTheRunsStarts)
{
  EXPECT_EQ(AnimationTimes(Axis, 5, 2), (std::vector<double>{ 10, 12, 14, 16 }));
  EXPECT_EQ(AnimationTimes(Axis, 5, 5), (std::vector<double>{ 10 }));
  EXPECT_TRUE(AnimationTimes(Axis, 5, 6).empty());
  EXPECT_TRUE(AnimationTimes(Axis, 5, 0).empty());
  EXPECT_TRUE(AnimationTimes({ 10.0, 0.0 }, 5, 2).empty());
}

TEST(TreemapWindow, AnimationWindowHoldsTheRequestedSlice)
{
  using Window = std::pair<double, double>;
  EXPECT_EQ(AnimationWindow(Axis, 5, 2, 12.0), (Window{ 12, 16 }));
  // Just below a slice start still starts there; inside a slice, its start.
  EXPECT_EQ(AnimationWindow(Axis, 5, 2, 14.0 - 1e-9), (Window{ 14, 18 }));
  EXPECT_EQ(AnimationWindow(Axis, 5, 2, 15.0), (Window{ 14, 18 }));
  // Past the last run, before the first, or no time: clamped.
  EXPECT_EQ(AnimationWindow(Axis, 5, 2, 19.0), (Window{ 16, 20 }));
  EXPECT_EQ(AnimationWindow(Axis, 5, 2, 0.0), (Window{ 10, 14 }));
  EXPECT_EQ(AnimationWindow(Axis, 5, 2, std::nan("")), (Window{ 10, 14 }));
}

TEST(TreemapWindow, WindowsMustOverlapTheModel)
{
  EXPECT_TRUE(WindowOverlapsModel(Axis, 5, 11.0, 12.0));
  EXPECT_TRUE(WindowOverlapsModel(Axis, 5, 0.0, 10.5));
  EXPECT_TRUE(WindowOverlapsModel(Axis, 5, 19.5, 100.0));
  EXPECT_FALSE(WindowOverlapsModel(Axis, 5, 0.0, 10.0));  // ends where the model starts
  EXPECT_FALSE(WindowOverlapsModel(Axis, 5, 20.0, 30.0)); // starts where it ends
  EXPECT_FALSE(WindowOverlapsModel(Axis, 5, 12.0, 12.0));
  EXPECT_FALSE(WindowOverlapsModel(Axis, 5, 12.0, std::numeric_limits<double>::infinity()));
}

TEST(TreemapWindow, ResourceSizes)
{
  const WindowIntegral integral = Integral();
  EXPECT_EQ(ResourceSizes(integral, TreemapSizing::Total), (std::vector<double>{ 3, 0, 4.5 }));
  EXPECT_EQ(ResourceSizes(integral, TreemapSizing::Resources), (std::vector<double>{ 1, 1, 1 }));
  EXPECT_EQ(ResourceSizes(integral, TreemapSizing::Type, 1), (std::vector<double>{ 2, 0, 0.5 }));
}

TEST(TreemapWindow, RowQualitiesAreTheCutNodesScaled)
{
  // Resources 0, 1 under node 3, resource 2 alone; the root 4.
  const AggregationHierarchy hierarchy({ 3, 3, 4, 4, -1 }, 3);
  const std::vector<double> model = { 1, 3, 5, 2, 1, 0 }; // Value(s, 0, u) at s + 3 u
  SpatialAggregation aggregation({ model.data(), 1, 3, 2 }, hierarchy);
  const std::vector<double> values = { 1, 2, 3, 1, 5, 0 };
  const TreemapRows rows = BuildTreemap(hierarchy, { 3, 2 }, values, 2, { 1, 1, 1 });
  for (bool normalize : { false, true })
  {
    aggregation.SetNormalizeQualities(normalize);
    const Quality full = aggregation.FullAggregation();
    const TreemapQualities q = RowQualities(rows, aggregation, normalize);
    ASSERT_EQ(q.Gain.size(), rows.Rows());
    double gain = 0.0;
    double loss = 0.0;
    for (std::size_t r = 0; r < rows.Rows(); ++r)
    {
      const Quality node = aggregation.NodeQuality(rows.Node[r]);
      const double gainScale = normalize && full.Gain > 0.0 ? full.Gain : 1.0;
      const double lossScale = normalize && full.Loss > 0.0 ? full.Loss : 1.0;
      EXPECT_DOUBLE_EQ(q.Gain[r], rows.Cut[r] ? node.Gain / gainScale : 0.0) << "row " << r;
      EXPECT_DOUBLE_EQ(q.Loss[r], rows.Cut[r] ? node.Loss / lossScale : 0.0) << "row " << r;
      gain += q.Gain[r];
      loss += q.Loss[r];
    }
    EXPECT_DOUBLE_EQ(q.CutGain, gain);
    EXPECT_DOUBLE_EQ(q.CutLoss, loss);
    EXPECT_EQ(q.Gain[0], 0.0); // the root is above the cut
  }
  // Node 3 aggregates two different resources: it loses information.
  EXPECT_GT(aggregation.NodeQuality(3).Loss, 0.0);
}
