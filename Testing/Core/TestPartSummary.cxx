// What a partition's table says of a part (Core/PartSummary.h): a
// temporal part covers the root, a part of the hierarchy its node; their
// amplitudes worked out by hand below.
#include "PartSummary.h"

#include <gtest/gtest.h>

#include <vector>

using namespace macroscope;

namespace
{
// Resources 0, 1 under node 3, resource 2 under node 4... as parents:
// 0, 1 -> 3; 2 -> 4; 3 -> 4 (the root).
const AggregationHierarchy Hierarchy({ 3, 3, 4, 4, -1 }, 3);
// 2 slices, 3 resources, 2 types: Value(s, t, u) at t + 2 (s + 3 u).
const std::vector<double> Values = {
  1, 3, // s0 u0
  2, 2, // s1 u0
  0, 6, // s2 u0
  4, 0, // s0 u1
  0, 0, // s1 u1
  2, 2, // s2 u1
};
const ModelView Model{ Values.data(), 2, 3, 2 };
}

TEST(PartSummary, TemporalPartCoversTheRoot)
{
  AggregatePart part;
  part.Node = -1;
  part.FirstSlice = 0;
  part.LastSlice = 1;
  const PartSummary summary = SummarizePart(Model, Hierarchy, part);
  EXPECT_EQ(summary.Area, 4);
  // Summed over the resources, per slice: u0 (1+2+0 + 3+2+6) / 2, u1 (4+0+2 + 0+0+2) / 2.
  ASSERT_EQ(summary.Amplitude.size(), 2u);
  EXPECT_DOUBLE_EQ(summary.Amplitude[0], 7.0);
  EXPECT_DOUBLE_EQ(summary.Amplitude[1], 4.0);
  EXPECT_DOUBLE_EQ(summary.Summary.Mean[0], 14.0 / 6.0);
  EXPECT_EQ(summary.Summary.Mode, 0u);
}

TEST(PartSummary, HierarchyPartHasItsOwnAmplitude)
{
  AggregatePart part;
  part.Node = 3; // resources 0 and 1
  part.FirstSlice = 1;
  part.LastSlice = 1;
  const PartSummary summary = SummarizePart(Model, Hierarchy, part);
  EXPECT_EQ(summary.Area, 3);
  // Slice 1 of resources 0, 1: u0 3 + 2, u1 0 + 0; mean over 2 leaves × 1 slice.
  EXPECT_DOUBLE_EQ(summary.Summary.Mean[0], 2.5);
  EXPECT_DOUBLE_EQ(summary.Summary.Mean[1], 0.0);
  EXPECT_DOUBLE_EQ(summary.Amplitude[0], 5.0);
  EXPECT_DOUBLE_EQ(summary.Amplitude[1], 0.0);
  EXPECT_DOUBLE_EQ(summary.Summary.ModeProportion, 1.0);
}
