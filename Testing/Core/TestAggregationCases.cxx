// Aggregation on hand-checked cases: Pagano et al. 2013 (FrameSoC) Table II, degenerate models, tie
// rules, the overview's summaries, and bad input.
#include "Aggregation.h"
#include "AggregationText.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <vector>

using namespace macroscope;

namespace
{

/// A model from rows[resource * types + type][slice].
MicroscopicModel MakeModel(
  int slices, uint32_t resources, uint32_t types, const std::vector<std::vector<double>>& rows)
{
  MicroscopicModel model;
  model.Grid.Slices = slices;
  model.Resources = resources;
  model.Types = types;
  model.Values.resize(std::size_t(slices) * resources * types);
  for (uint32_t s = 0; s < resources; ++s)
    for (uint32_t u = 0; u < types; ++u)
      for (int t = 0; t < slices; ++t)
        model.At(s, t, u) = rows[s * types + u][t];
  return model;
}

using Intervals = std::vector<std::pair<int, int>>;

Intervals IntervalsOf(const Partition& partition)
{
  Intervals out;
  for (const auto& part : partition.Parts)
    out.emplace_back(part.FirstSlice, part.LastSlice);
  return out;
}

}

// Pagano et al. 2013 (FrameSoC) Table II: five vectors of three values, raw qualities. The paper's
// p are the first multiples of 0.001 (its bisection step) at which each partition appears, so each
// exact breakpoint lies in (p - 0.001, p].
TEST(AggregationCases, Table2OfSeed002InRawMode)
{
  // Vectors (3,6,7) (5,3,5) (6,2,9) (1,2,7) (0,9,3): one resource, 3 types.
  const MicroscopicModel model =
    MakeModel(5, 1, 3, { { 3, 5, 6, 1, 0 }, { 6, 3, 2, 2, 9 }, { 7, 5, 9, 7, 3 } });
  TemporalAggregation aggregation(ModelView::Of(model));
  aggregation.SetNormalizeQualities(false);
  const PartitionSweep sweep = aggregation.AllPartitions();
  ASSERT_EQ(sweep.Partitions.size(), 5u);
  const std::vector<Intervals> expected{ { { 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 3 }, { 4, 4 } },
    { { 0, 0 }, { 1, 2 }, { 3, 3 }, { 4, 4 } }, { { 0, 2 }, { 3, 3 }, { 4, 4 } },
    { { 0, 3 }, { 4, 4 } }, { { 0, 4 } } };
  const double table[] = { 0.035, 0.052, 0.078, 0.223 };
  for (std::size_t k = 0; k < 5; ++k)
  {
    EXPECT_EQ(IntervalsOf(sweep.Partitions[k]), expected[k]) << "partition " << k;
  }
  for (std::size_t k = 0; k < 4; ++k)
  {
    EXPECT_GT(sweep.Breakpoints[k], table[k] - 0.001) << "breakpoint " << k;
    EXPECT_LE(sweep.Breakpoints[k], table[k]) << "breakpoint " << k;
    EXPECT_EQ(IntervalsOf(aggregation.Best(table[k])), expected[k + 1]);
  }
  // By hand: aggregating slices 1-2, type 0: 11 log2 11 - 5 log2 5 - 6 log2 6.
  const Quality q12 = aggregation.IntervalQuality(1, 2);
  const double gain = (11 * std::log2(11.0) - 5 * std::log2(5.0) - 6 * std::log2(6.0)) +
    (5 * std::log2(5.0) - 3 * std::log2(3.0) - 2 * std::log2(2.0)) +
    (14 * std::log2(14.0) - 5 * std::log2(5.0) - 9 * std::log2(9.0));
  EXPECT_NEAR(q12.Gain, gain, 1e-12);
  EXPECT_NEAR(q12.Loss, 30.0 * std::log2(2.0) - gain, 1e-12);
}

TEST(AggregationCases, NormalisedQualitiesOfTheFullPartitionAreOne)
{
  const MicroscopicModel model = MakeModel(4, 2, 1, { { 1, 2, 3, 4 }, { 4, 1, 1, 0 } });
  TemporalAggregation aggregation(ModelView::Of(model));
  const Partition full = aggregation.Best(1.0);
  ASSERT_EQ(full.Parts.size(), 1u);
  EXPECT_DOUBLE_EQ(full.Gain, 1.0);
  EXPECT_DOUBLE_EQ(full.Loss, 1.0);
  aggregation.SetNormalizeQualities(false);
  EXPECT_DOUBLE_EQ(aggregation.Best(1.0).Gain, aggregation.FullAggregation().Gain);
}

TEST(AggregationCases, AllZeroModelIsOnePart)
{
  const MicroscopicModel model =
    MakeModel(3, 2, 2, { { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 } });
  const ModelView view = ModelView::Of(model);
  TemporalAggregation temporal(view);
  AggregationHierarchy hierarchy(FlatHierarchy(2), 2);
  SpatiotemporalAggregation spatiotemporal(view, hierarchy);
  for (const Aggregation* aggregation : { static_cast<const Aggregation*>(&temporal),
         static_cast<const Aggregation*>(&spatiotemporal) })
  {
    for (double p : { 0.0, 0.5, 1.0 })
    {
      const Partition best = aggregation->Best(p);
      ASSERT_EQ(best.Parts.size(), 1u);
      EXPECT_EQ(best.Gain, 0.0);
      EXPECT_EQ(best.Loss, 0.0);
    }
    EXPECT_EQ(aggregation->AllPartitions().Partitions.size(), 1u);
  }
  EXPECT_EQ(spatiotemporal.Best(0.0).Parts.front().Node, 2);
}

TEST(AggregationCases, SingleSliceIsOneTemporalPart)
{
  const MicroscopicModel model = MakeModel(1, 3, 1, { { 1 }, { 5 }, { 2 } });
  TemporalAggregation aggregation(ModelView::Of(model));
  EXPECT_EQ(IntervalsOf(aggregation.Best(0.0)), (Intervals{ { 0, 0 } }));
  EXPECT_EQ(aggregation.AllPartitions().Partitions.size(), 1u);
}

TEST(AggregationCases, SingleSliceSpatiotemporalIsSpatial)
{
  // With one slice a cell is a resource's whole time window: both
  // aggregations see the same entities, so they choose the same cuts.
  const MicroscopicModel model =
    MakeModel(1, 4, 2, { { 1 }, { 2 }, { 1 }, { 2 }, { 5 }, { 0 }, { 4 }, { 1 } });
  AggregationHierarchy hierarchy({ 4, 4, 5, 5, 6, 6, -1 }, 4);
  SpatialAggregation spatial(ModelView::Of(model), hierarchy);
  SpatiotemporalAggregation spatiotemporal(ModelView::Of(model), hierarchy);
  for (double p = 0.0; p <= 1.0; p += 0.05)
  {
    const Partition a = spatial.Best(p);
    const Partition b = spatiotemporal.Best(p);
    EXPECT_TRUE(a.SameParts(b)) << "p = " << p;
  }
  // Leaves 0 and 1 are equal: p = 0 merges them (zero loss), not 2 and 3.
  const Partition zero = spatial.Best(0.0);
  ASSERT_EQ(zero.Parts.size(), 3u);
  EXPECT_EQ(zero.Parts[0].Node, 2);
  EXPECT_EQ(zero.Parts[1].Node, 3);
  EXPECT_EQ(zero.Parts[2].Node, 4);
}

TEST(AggregationCases, SingleLeafSpatiotemporalIsTemporal)
{
  const MicroscopicModel model = MakeModel(6, 1, 2, { { 1, 1, 4, 0, 2, 2 }, { 3, 0, 1, 1, 2, 5 } });
  AggregationHierarchy hierarchy({ -1 }, 1);
  TemporalAggregation temporal(ModelView::Of(model));
  SpatiotemporalAggregation spatiotemporal(ModelView::Of(model), hierarchy);
  const PartitionSweep a = temporal.AllPartitions();
  const PartitionSweep b = spatiotemporal.AllPartitions();
  ASSERT_EQ(a.Partitions.size(), b.Partitions.size());
  EXPECT_GT(a.Partitions.size(), 2u);
  for (std::size_t k = 0; k < a.Partitions.size(); ++k)
  {
    EXPECT_EQ(IntervalsOf(a.Partitions[k]), IntervalsOf(b.Partitions[k]));
    EXPECT_EQ(b.Partitions[k].Parts.front().Node, 0);
  }
  for (std::size_t k = 0; k < a.Breakpoints.size(); ++k)
  {
    EXPECT_NEAR(a.Breakpoints[k], b.Breakpoints[k], 1e-12);
  }
}

TEST(AggregationCases, ChainPrefersTheHigherNode)
{
  // Root 3 has a single child, node 2 (over leaves 0, 1): both cover the
  // same cells with equal qualities, and ties go to the larger aggregate.
  const MicroscopicModel model = MakeModel(2, 2, 1, { { 1, 3 }, { 2, 2 } });
  AggregationHierarchy hierarchy({ 2, 2, 3, -1 }, 2);
  SpatiotemporalAggregation aggregation(ModelView::Of(model), hierarchy);
  EXPECT_EQ(aggregation.AreaQuality(2, 0, 1).Gain, aggregation.AreaQuality(3, 0, 1).Gain);
  const Partition full = aggregation.Best(1.0);
  ASSERT_EQ(full.Parts.size(), 1u);
  EXPECT_EQ(full.Parts.front().Node, 3);
  // p = 0: nothing is uniform but leaf 1 over both slices (2, 2).
  const Partition micro = aggregation.Best(0.0);
  ASSERT_EQ(micro.Parts.size(), 3u);
  EXPECT_EQ(micro.Parts[2].Node, 1);
  EXPECT_EQ(micro.Parts[2].FirstSlice, 0);
  EXPECT_EQ(micro.Parts[2].LastSlice, 1);
}

TEST(AggregationCases, ZeroLossMergesOnlyIdenticalNeighbours)
{
  // Slices 1-3 are identical, with values whose sums round (0.1 + 0.1 +
  // 0.1 != 0.3): the loss there must still be exactly zero. Slices 4 and 5
  // differ by one ulp: not identical, not merged at p = 0.
  const double next = std::nextafter(0.7, 1.0);
  const MicroscopicModel model =
    MakeModel(6, 2, 1, { { 0.3, 0.1, 0.1, 0.1, 0.7, next }, { 0.2, 0.7, 0.7, 0.7, 0.2, 0.2 } });
  TemporalAggregation aggregation(ModelView::Of(model));
  EXPECT_EQ(aggregation.IntervalQuality(1, 3).Loss, 0.0);
  EXPECT_GT(aggregation.IntervalQuality(4, 5).Loss, 0.0);
  for (bool normalize : { true, false })
  {
    aggregation.SetNormalizeQualities(normalize);
    EXPECT_EQ(
      IntervalsOf(aggregation.Best(0.0)), (Intervals{ { 0, 0 }, { 1, 3 }, { 4, 4 }, { 5, 5 } }));
  }
}

TEST(AggregationCases, FullAggregationAtPOne)
{
  const MicroscopicModel model = MakeModel(
    5, 2, 2, { { 1, 2, 3, 4, 5 }, { 5, 1, 1, 2, 9 }, { 2, 2, 0, 1, 3 }, { 1, 7, 1, 1, 1 } });
  TemporalAggregation temporal(ModelView::Of(model));
  EXPECT_EQ(IntervalsOf(temporal.Best(1.0)), (Intervals{ { 0, 4 } }));
  AggregationHierarchy hierarchy(FlatHierarchy(2), 2);
  SpatiotemporalAggregation spatiotemporal(ModelView::Of(model), hierarchy);
  const Partition full = spatiotemporal.Best(1.0);
  ASSERT_EQ(full.Parts.size(), 1u);
  EXPECT_EQ(full.Parts.front().Node, 2);
  EXPECT_EQ(spatiotemporal.Best(0.0).Parts.size(), 10u);
}

TEST(AggregationCases, AmplitudesAndModes)
{
  // Two resources, two types, three slices.
  const MicroscopicModel model =
    MakeModel(3, 2, 2, { { 1, 2, 3 }, { 0, 0, 6 }, { 4, 0, 1 }, { 2, 2, 2 } });
  const ModelView view = ModelView::Of(model);
  // Type 0 over slices 0-1: (1 + 2 + 4 + 0) / 2; type 1: (0 + 0 + 2 + 2) / 2.
  EXPECT_EQ(TemporalAmplitudes(view, 0, 1), (std::vector<double>{ 3.5, 2.0 }));
  AggregationHierarchy hierarchy(FlatHierarchy(2), 2);
  // Root over slice 2: type 0 (3 + 1) / 2 = 2, type 1 (6 + 2) / 2 = 4.
  const AreaSummary root = SummarizeArea(view, hierarchy, 2, 2, 2);
  EXPECT_EQ(root.Mean, (std::vector<double>{ 2.0, 4.0 }));
  EXPECT_EQ(root.Mode, 1u);
  EXPECT_DOUBLE_EQ(root.ModeProportion, 4.0 / 6.0);
  // Leaf 1 over all slices: type 0 5/3, type 1 6/3.
  const AreaSummary leaf = SummarizeArea(view, hierarchy, 1, 0, 2);
  EXPECT_EQ(leaf.Mode, 1u);
  EXPECT_DOUBLE_EQ(leaf.Mean[0], 5.0 / 3.0);
  const MicroscopicModel zeros = MakeModel(1, 1, 2, { { 0 }, { 0 } });
  AggregationHierarchy single({ -1 }, 1);
  const AreaSummary empty = SummarizeArea(ModelView::Of(zeros), single, 0, 0, 0);
  EXPECT_EQ(empty.Mode, 0u);
  EXPECT_EQ(empty.ModeProportion, 0.0);
}

TEST(AggregationCases, PartsOfAPartitionTileTheModel)
{
  MicroscopicModel model;
  model.Grid.Slices = 7;
  model.Resources = 6;
  model.Types = 2;
  for (int k = 0; k < 7 * 6 * 2; ++k)
    model.Values.push_back((k * 37 % 11) * 0.5);
  AggregationHierarchy hierarchy({ 6, 6, 7, 7, 7, 8, 9, 9, 9, -1 }, 6);
  SpatiotemporalAggregation aggregation(ModelView::Of(model), hierarchy);
  for (const auto& partition : aggregation.AllPartitions().Partitions)
  {
    std::vector<int> cover(6 * 7, 0);
    for (const auto& part : partition.Parts)
      for (uint32_t s = hierarchy.LeafBegin(part.Node); s < hierarchy.LeafEnd(part.Node); ++s)
        for (int t = part.FirstSlice; t <= part.LastSlice; ++t)
          ++cover[s * 7 + t];
    EXPECT_EQ(cover, std::vector<int>(6 * 7, 1));
  }
}

TEST(AggregationCases, BadPAndValuesAreRejected)
{
  MicroscopicModel model = MakeModel(2, 1, 1, { { 1, 2 } });
  TemporalAggregation aggregation(ModelView::Of(model));
  EXPECT_THROW(aggregation.Best(-0.01), std::invalid_argument);
  EXPECT_THROW(aggregation.Best(1.01), std::invalid_argument);
  EXPECT_THROW(aggregation.Best(std::nan("")), std::invalid_argument);
  model.At(0, 1, 0) = -1.0;
  EXPECT_THROW(TemporalAggregation{ ModelView::Of(model) }, std::invalid_argument);
  model.At(0, 1, 0) = std::nan("");
  EXPECT_THROW(TemporalAggregation{ ModelView::Of(model) }, std::invalid_argument);
  model.At(0, 1, 0) = std::numeric_limits<double>::infinity();
  AggregationHierarchy single({ -1 }, 1);
  EXPECT_THROW(SpatialAggregation(ModelView::Of(model), single), std::invalid_argument);
}

TEST(AggregationCases, BadHierarchiesAreRejected)
{
  EXPECT_THROW(AggregationHierarchy({ 2, 2, 0 }, 2), std::invalid_argument);   // root not -1
  EXPECT_THROW(AggregationHierarchy({ 2, -1, -1 }, 2), std::invalid_argument); // two roots
  EXPECT_THROW(AggregationHierarchy({ 1, 2, -1 }, 2), std::invalid_argument);  // leaf with child
  EXPECT_THROW(AggregationHierarchy({ 3, 3, 3, -1, 3 }, 3), std::invalid_argument); // root not last
  EXPECT_THROW(
    AggregationHierarchy({ 4, 5, 4, 5, 6, 6, -1 }, 4), std::invalid_argument); // scattered
  EXPECT_THROW(
    AggregationHierarchy({ 3, 3, 4, 5, 5, -1 }, 2), std::invalid_argument); // 2 childless
  EXPECT_THROW(
    AggregationHierarchy({ 3, 3, 3, 5, 5, -1 }, 3), std::invalid_argument); // 4 childless
  const MicroscopicModel model = MakeModel(1, 3, 1, { { 1 }, { 1 }, { 1 } });
  AggregationHierarchy twoLeaves(FlatHierarchy(2), 2);
  EXPECT_THROW(SpatialAggregation(ModelView::Of(model), twoLeaves), std::invalid_argument);
  AggregationHierarchy chain({ 2, 2, 3, -1 }, 2);
  EXPECT_EQ(chain.LeafBegin(3), 0u);
  EXPECT_EQ(chain.LeafEnd(3), 2u);
}

TEST(AggregationCases, DenseTextModel)
{
  std::istringstream good("3 2 1 3\n2 2 -1\n1 2 3\n0 0.5 1e1\n");
  const DenseModelText text = ReadDenseModelText(good);
  EXPECT_EQ(text.Parent, (std::vector<int64_t>{ 2, 2, -1 }));
  EXPECT_EQ(text.Model.At(1, 2, 0), 10.0);
  EXPECT_EQ(text.Model.At(0, 1, 0), 2.0);
  for (const char* bad : { "3 2 1\n", "3 2 1 3\n2 2\n1 2 3\n0 0 0\n",
         "3 2 1 3\n2 2 -1\n1 2 3\n0 0\n", "3 2 1 3\n2 2 -1\n1 2 x\n0 0 0\n",
         "3 2 1 3\n2 2 -1\n1 2 -3\n0 0 0\n", "3 2 1 3\n2 2 -1\n1 2 nan\n0 0 0\n",
         "3 2 1 3\n2 2 -1\n1 2 3\n", "3 2 1 3\n2 2 -1\n1 2 3\n0 0 0\n5\n", "0 1 1 1\n-1\n" })
  {
    std::istringstream in(bad);
    EXPECT_THROW(ReadDenseModelText(in), std::invalid_argument) << bad;
  }
}
