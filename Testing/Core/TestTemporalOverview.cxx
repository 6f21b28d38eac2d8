#include "TemporalOverview.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

using macroscope::LayoutTemporalOverview;
using macroscope::TemporalOverview;
using macroscope::TemporalOverviewOptions;
using macroscope::TemporalOverviewParts;

namespace
{
TemporalOverviewParts MakeParts(uint32_t types, const std::vector<double>& start,
  const std::vector<double>& end, const std::vector<double>& amplitude)
{
  TemporalOverviewParts parts;
  parts.Types = types;
  parts.Start = start;
  parts.End = end;
  parts.Amplitude = amplitude;
  return parts;
}

TemporalOverviewOptions MakeOptions(
  double t0, double t1, double width, double height, double budget)
{
  TemporalOverviewOptions options;
  options.WindowBegin = t0;
  options.WindowEnd = t1;
  options.Width = width;
  options.Height = height;
  options.MinLayerHeight = budget;
  return options;
}

void ExpectLayer(const TemporalOverview& chart, std::size_t i, uint32_t part, int type,
  double value, double x0, double x1, double y0, double y1, uint8_t flags)
{
  const auto& l = chart.Layers;
  ASSERT_LT(i, l.Size());
  EXPECT_EQ(l.Part[i], part) << "layer " << i;
  EXPECT_EQ(l.Type[i], type) << "layer " << i;
  EXPECT_NEAR(l.Value[i], value, 1e-12) << "layer " << i;
  EXPECT_NEAR(l.X0[i], x0, 1e-9) << "layer " << i;
  EXPECT_NEAR(l.X1[i], x1, 1e-9) << "layer " << i;
  EXPECT_NEAR(l.Y0[i], y0, 1e-9) << "layer " << i;
  EXPECT_NEAR(l.Y1[i], y1, 1e-9) << "layer " << i;
  EXPECT_EQ(l.Flags[i], flags) << "layer " << i;
}
}

// Two stacks, two types, no budget: heights = amplitude × scale, the scale
// set by the tallest stack, the type with the larger area at the bottom.
TEST(TemporalOverview, HandComputedStacks)
{
  // Part 0: [0, 1] s, amplitudes (3, 1), total 4; part 1: [1, 4] s, (1, 4), total 5.
  // Scale 100 px / 5 = 20; areas: type 0 = 3·1 + 1·3 = 6, type 1 = 1·1 + 4·3 = 13.
  const auto chart = LayoutTemporalOverview(
    MakeParts(2, { 0, 1 }, { 1, 4 }, { 3, 1, 1, 4 }), MakeOptions(0, 4, 400, 100, 0));
  EXPECT_DOUBLE_EQ(chart.Scale, 20.0);
  EXPECT_DOUBLE_EQ(chart.MaxTotal, 5.0);
  EXPECT_DOUBLE_EQ(chart.PixelsPerSecond, 100.0);
  EXPECT_EQ(chart.TypeOrder, (std::vector<uint32_t>{ 1, 0 }));
  EXPECT_DOUBLE_EQ(chart.TypeArea[0], 6.0);
  EXPECT_DOUBLE_EQ(chart.TypeArea[1], 13.0);
  EXPECT_EQ(chart.StackTotal, (std::vector<double>{ 4.0, 5.0 }));
  ASSERT_EQ(chart.Layers.Size(), 4u);
  ExpectLayer(chart, 0, 0, 1, 1.0, 0, 100, 0, 20, 0);
  ExpectLayer(chart, 1, 0, 0, 3.0, 0, 100, 20, 80, 0);
  ExpectLayer(chart, 2, 1, 1, 4.0, 100, 400, 0, 80, 0);
  ExpectLayer(chart, 3, 1, 0, 1.0, 100, 400, 80, 100, 0);
  // Width proportional to duration, stacks adjacent.
  EXPECT_EQ(chart.Layers.X1[0], chart.Layers.X0[2]);
  // Value ticks: 0 .. 5 by 1.
  EXPECT_DOUBLE_EQ(chart.ValueStep, 1.0);
  EXPECT_EQ(chart.ValueTicks, (std::vector<double>{ 0, 1, 2, 3, 4, 5 }));
  EXPECT_EQ(chart.TypeDrawn, (std::vector<uint8_t>{ 1, 1 }));
}

// Layers thinner than the budget merge into one layer on top of their
// stack, as tall as their sum; a layer exactly at the budget stays.
TEST(TemporalOverview, ThinLayersMergeIntoOneLayerPerStack)
{
  // Scale 100 / 10 = 10 px per unit, budget 5 px: amplitudes below 0.5 are thin.
  // Areas: t0 = 9 + 2 = 11, t1 = 0.2 + 4 = 4.2, t2 = 0.3 + 4 = 4.3, t3 = 0.5:
  // order 0, 2, 1, 3.
  const auto chart =
    LayoutTemporalOverview(MakeParts(4, { 0, 1 }, { 1, 2 }, { 9, 0.2, 0.3, 0.5, 2, 4, 4, 0 }),
      MakeOptions(0, 2, 200, 100, 5));
  EXPECT_EQ(chart.TypeOrder, (std::vector<uint32_t>{ 0, 2, 1, 3 }));
  ASSERT_EQ(chart.Layers.Size(), 6u);
  ExpectLayer(chart, 0, 0, 0, 9.0, 0, 100, 0, 90, 0);
  ExpectLayer(chart, 1, 0, 3, 0.5, 0, 100, 90, 95, 0); // exactly 5 px: not thin
  ExpectLayer(chart, 2, 0, -1, 0.5, 0, 100, 95, 100, macroscope::TemporalLayerMerged);
  const auto& l = chart.Layers;
  // The merged layer holds types 2 and 1 (3 px and 2 px), in the chart's order.
  EXPECT_EQ(std::vector<uint32_t>(
              l.MergedType.begin() + l.MergedOffset[2], l.MergedType.begin() + l.MergedOffset[3]),
    (std::vector<uint32_t>{ 2, 1 }));
  EXPECT_EQ(l.MergedOffset[1], l.MergedOffset[0]); // plain layers hold nothing
  EXPECT_EQ(l.MergedOffset[2], l.MergedOffset[1]);
  // Part 1: type 3 is zero and draws nothing.
  ExpectLayer(chart, 3, 1, 0, 2.0, 100, 200, 0, 20, 0);
  ExpectLayer(chart, 4, 1, 2, 4.0, 100, 200, 20, 60, 0);
  ExpectLayer(chart, 5, 1, 1, 4.0, 100, 200, 60, 100, 0);
  EXPECT_EQ(chart.TypeDrawn, (std::vector<uint8_t>{ 1, 1, 1, 1 }));
}

// A merged layer thinner than the budget keeps its true height and says so.
TEST(TemporalOverview, MergedLayerBelowBudgetKeepsItsHeight)
{
  // Scale 10, budget 3 px: type 1 (0.1 → 1 px) merges alone.
  const auto chart =
    LayoutTemporalOverview(MakeParts(2, { 0 }, { 1 }, { 9.9, 0.1 }), MakeOptions(0, 1, 50, 100, 3));
  ASSERT_EQ(chart.Layers.Size(), 2u);
  ExpectLayer(chart, 0, 0, 0, 9.9, 0, 50, 0, 99, 0);
  ExpectLayer(chart, 1, 0, -1, 0.1, 0, 50, 99, 100,
    macroscope::TemporalLayerMerged | macroscope::TemporalLayerBelowBudget);
  EXPECT_EQ(chart.TypeDrawn, (std::vector<uint8_t>{ 1, 0 }));
}

// With a budget above the plot height every stack is one merged layer of
// all its non-zero types; with budget 0 nothing merges.
TEST(TemporalOverview, HugeBudgetMergesEverythingZeroBudgetNothing)
{
  const auto parts = MakeParts(3, { 0, 2, 5 }, { 2, 5, 6 }, { 1, 0, 2, 4, 4, 4, 0, 0, 0.5 });
  const auto merged = LayoutTemporalOverview(parts, MakeOptions(0, 6, 600, 120, 1e9));
  // Totals 3, 12, 0.5: scale 10.
  ASSERT_EQ(merged.Layers.Size(), 3u);
  // Areas: t0 = 1·2 + 4·3 = 14, t1 = 4·3 = 12, t2 = 2·2 + 4·3 + 0.5·1 = 16.5.
  ExpectLayer(merged, 0, 0, -1, 3.0, 0, 200, 0, 30,
    macroscope::TemporalLayerMerged | macroscope::TemporalLayerBelowBudget);
  ExpectLayer(merged, 1, 1, -1, 12.0, 200, 500, 0, 120,
    macroscope::TemporalLayerMerged | macroscope::TemporalLayerBelowBudget);
  ExpectLayer(merged, 2, 2, -1, 0.5, 500, 600, 0, 5,
    macroscope::TemporalLayerMerged | macroscope::TemporalLayerBelowBudget);
  const auto& m = merged.Layers;
  auto typesOf = [&m](std::size_t i)
  {
    return std::vector<uint32_t>(
      m.MergedType.begin() + m.MergedOffset[i], m.MergedType.begin() + m.MergedOffset[i + 1]);
  };
  EXPECT_EQ(merged.TypeOrder, (std::vector<uint32_t>{ 2, 0, 1 }));
  EXPECT_EQ(typesOf(0), (std::vector<uint32_t>{ 2, 0 }));
  EXPECT_EQ(typesOf(1), (std::vector<uint32_t>{ 2, 0, 1 }));
  EXPECT_EQ(typesOf(2), (std::vector<uint32_t>{ 2 }));

  const auto plain = LayoutTemporalOverview(parts, MakeOptions(0, 6, 600, 120, 0));
  EXPECT_EQ(plain.Layers.Size(), 6u); // the non-zero amplitudes
  for (uint8_t flags : plain.Layers.Flags)
  {
    EXPECT_EQ(flags, 0);
  }
}

// A type's area is its total over the model times the slice width, whatever
// the partition: the type order does not change with p.
TEST(TemporalOverview, TypeOrderIsTheSameForEveryPartition)
{
  // v(t, u) summed over resources, 6 slices of 0.5 s, 3 types.
  const std::vector<std::vector<double>> v = { { 1, 5, 0 }, { 1, 5, 0 }, { 9, 0, 1 }, { 9, 0, 1 },
    { 0, 1, 8 }, { 0, 1, 8 } };
  const double w = 0.5;
  // Partitions as lists of [first, last] slices.
  const std::vector<std::vector<std::pair<int, int>>> partitions = {
    { { 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 3 }, { 4, 4 }, { 5, 5 } }, { { 0, 1 }, { 2, 5 } },
    { { 0, 5 } }, { { 0, 2 }, { 3, 5 } }
  };
  for (const auto& partition : partitions)
  {
    TemporalOverviewParts parts;
    parts.Types = 3;
    for (const auto& [first, last] : partition)
    {
      parts.Start.push_back(first * w);
      parts.End.push_back((last + 1) * w);
      for (int u = 0; u < 3; ++u)
      {
        double sum = 0.0;
        for (int t = first; t <= last; ++t)
        {
          sum += v[t][u];
        }
        parts.Amplitude.push_back(sum / (last - first + 1)); // Dosimont et al. 2015 (Ocelotl) eq. 4
      }
    }
    const auto chart = LayoutTemporalOverview(parts, MakeOptions(0, 3, 600, 300, 0));
    // Totals over the model: 20, 12, 18.
    EXPECT_EQ(chart.TypeOrder, (std::vector<uint32_t>{ 0, 2, 1 }));
    EXPECT_NEAR(chart.TypeArea[0], 20 * w, 1e-12);
    EXPECT_NEAR(chart.TypeArea[1], 12 * w, 1e-12);
    EXPECT_NEAR(chart.TypeArea[2], 18 * w, 1e-12);
  }
}

TEST(TemporalOverview, EmptyAndZeroInputsDrawNothing)
{
  const auto none =
    LayoutTemporalOverview(MakeParts(3, {}, {}, {}), MakeOptions(0, 1, 100, 100, 3));
  EXPECT_EQ(none.Layers.Size(), 0u);
  EXPECT_EQ(none.Scale, 0.0);
  EXPECT_TRUE(none.ValueTicks.empty());
  EXPECT_EQ(none.TypeOrder, (std::vector<uint32_t>{ 0, 1, 2 }));

  const auto zeros = LayoutTemporalOverview(
    MakeParts(2, { 0, 0.5 }, { 0.5, 1 }, { 0, 0, 0, 0 }), MakeOptions(0, 1, 100, 100, 0));
  EXPECT_EQ(zeros.Layers.Size(), 0u);
  EXPECT_EQ(zeros.MaxTotal, 0.0);
  EXPECT_EQ(zeros.Scale, 0.0);
  EXPECT_EQ(zeros.StackTotal, (std::vector<double>{ 0, 0 }));

  const auto typeless =
    LayoutTemporalOverview(MakeParts(0, { 0 }, { 1 }, {}), MakeOptions(0, 1, 100, 100, 3));
  EXPECT_EQ(typeless.Layers.Size(), 0u);

  // A zero stack between two others: a gap, the others unchanged.
  const auto gap = LayoutTemporalOverview(
    MakeParts(1, { 0, 1, 2 }, { 1, 2, 3 }, { 2, 0, 4 }), MakeOptions(0, 3, 300, 100, 0));
  ASSERT_EQ(gap.Layers.Size(), 2u);
  ExpectLayer(gap, 0, 0, 0, 2, 0, 100, 0, 50, 0);
  ExpectLayer(gap, 1, 2, 0, 4, 200, 300, 0, 100, 0);
}

// Stacks follow time whatever the order of the parts; Part is the input index.
TEST(TemporalOverview, StacksInTimeOrder)
{
  const auto chart = LayoutTemporalOverview(
    MakeParts(1, { 2, 0, 1 }, { 3, 1, 2 }, { 1, 2, 4 }), MakeOptions(0, 3, 300, 100, 0));
  ASSERT_EQ(chart.Layers.Size(), 3u);
  EXPECT_EQ(chart.Layers.Part, (std::vector<uint32_t>{ 1, 2, 0 }));
  ExpectLayer(chart, 0, 1, 0, 2, 0, 100, 0, 50, 0);
  ExpectLayer(chart, 1, 2, 0, 4, 100, 200, 0, 100, 0);
  ExpectLayer(chart, 2, 0, 0, 1, 200, 300, 0, 25, 0);
}

TEST(TemporalOverview, InvalidInputThrows)
{
  const auto ok = MakeOptions(0, 2, 100, 100, 3);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  auto bad = [&](const TemporalOverviewParts& parts, const TemporalOverviewOptions& options)
  { EXPECT_THROW(LayoutTemporalOverview(parts, options), std::invalid_argument); };
  bad(MakeParts(1, { 0 }, { 1 }, { -1 }), ok);           // negative amplitude
  bad(MakeParts(1, { 0 }, { 1 }, { nan }), ok);          // NaN amplitude
  bad(MakeParts(1, { 0 }, { 1 }, { inf }), ok);          // infinite amplitude
  bad(MakeParts(1, { 1 }, { 1 }, { 1 }), ok);            // End == Start
  bad(MakeParts(1, { 1 }, { 0.5 }, { 1 }), ok);          // End < Start
  bad(MakeParts(1, { nan }, { 1 }, { 1 }), ok);          // NaN time
  bad(MakeParts(1, { 0, 0.5 }, { 1, 2 }, { 1, 1 }), ok); // overlapping
  bad(MakeParts(1, { 0.5, 0 }, { 2, 1 }, { 1, 1 }), ok); // overlapping, unsorted
  bad(MakeParts(1, { 0 }, { 3 }, { 1 }), ok);            // past the window
  bad(MakeParts(1, { -1 }, { 1 }, { 1 }), ok);           // before the window
  bad(MakeParts(2, { 0 }, { 1 }, { 1 }), ok);            // too few amplitudes
  bad(MakeParts(1, { 0 }, { 1, 2 }, { 1 }), ok);         // End size
  const auto parts = MakeParts(1, { 0 }, { 1 }, { 1 });
  bad(parts, MakeOptions(2, 2, 100, 100, 3));   // empty window
  bad(parts, MakeOptions(0, nan, 100, 100, 3)); // NaN window
  bad(parts, MakeOptions(0, 2, 0, 100, 3));     // no width
  bad(parts, MakeOptions(0, 2, 100, -1, 3));    // negative height
  bad(parts, MakeOptions(0, 2, 100, 100, -1));  // negative budget
  bad(parts, MakeOptions(0, 2, 100, 100, nan)); // NaN budget
  // Touching parts and parts on the window's borders are fine, also with
  // the rounding of origin + slice × width.
  EXPECT_NO_THROW(
    LayoutTemporalOverview(MakeParts(1, { 0.1, 0.3 }, { 0.1 * 3, 0.7 + 1e-12 }, { 1, 1 }),
      MakeOptions(0.1, 0.7, 100, 100, 3)));
}

// Random partitions: the invariants hold whatever the data.
TEST(TemporalOverview, RandomPartitionsKeepEveryLayer)
{
  std::mt19937 random(7);
  for (int trial = 0; trial < 200; ++trial)
  {
    const uint32_t types = 1 + random() % 6;
    const int slices = 1 + static_cast<int>(random() % 40);
    std::vector<double> start, end, amplitude;
    for (int s = 0; s < slices;)
    {
      const int length = 1 + static_cast<int>(random() % 5);
      start.push_back(0.25 + s * 0.01);
      s = std::min(slices, s + length);
      end.push_back(0.25 + s * 0.01);
      for (uint32_t u = 0; u < types; ++u)
      {
        const unsigned kind = random() % 4;
        amplitude.push_back(kind == 0 ? 0.0
            : kind == 1               ? 1e-3 * (random() % 100)
                                      : 0.1 * (random() % 100));
      }
    }
    const double budget = (random() % 3) * 2.5;
    const auto parts = MakeParts(types, start, end, amplitude);
    const double height = 200.0 + random() % 300;
    const auto chart =
      LayoutTemporalOverview(parts, MakeOptions(0.25, 0.25 + slices * 0.01, 777, height, budget));
    const auto& l = chart.Layers;
    std::vector<double> stackHeight(parts.Size(), 0.0);
    std::vector<std::set<uint32_t>> seen(parts.Size());
    std::vector<double> top(parts.Size(), 0.0);
    for (std::size_t i = 0; i < l.Size(); ++i)
    {
      const uint32_t k = l.Part[i];
      // Adjacent layers from y = 0, spanning the part's time exactly.
      EXPECT_NEAR(l.Y0[i], top[k], 1e-9);
      top[k] = l.Y1[i];
      stackHeight[k] += l.Y1[i] - l.Y0[i];
      EXPECT_NEAR(l.X0[i], (start[k] - 0.25) * chart.PixelsPerSecond, 1e-9);
      EXPECT_NEAR(l.X1[i], (end[k] - 0.25) * chart.PixelsPerSecond, 1e-9);
      if (l.Type[i] >= 0)
      {
        const uint32_t u = static_cast<uint32_t>(l.Type[i]);
        EXPECT_NEAR(l.Y1[i] - l.Y0[i], amplitude[k * types + u] * chart.Scale, 1e-9);
        EXPECT_GE(l.Y1[i] - l.Y0[i], budget);
        EXPECT_TRUE(seen[k].insert(u).second);
      }
      else
      {
        double sum = 0.0;
        for (std::size_t m = l.MergedOffset[i]; m < l.MergedOffset[i + 1]; ++m)
        {
          const double a = amplitude[k * types + l.MergedType[m]];
          EXPECT_GT(a, 0.0);
          EXPECT_LT(a * chart.Scale, budget);
          EXPECT_TRUE(seen[k].insert(l.MergedType[m]).second);
          sum += a;
        }
        EXPECT_NEAR(l.Value[i], sum, 1e-12);
        EXPECT_NEAR(l.Y1[i] - l.Y0[i], sum * chart.Scale, 1e-9);
        // The merged layer is the stack's last.
        EXPECT_TRUE(i + 1 == l.Size() || l.Part[i + 1] != k);
      }
      // Plain layers follow the chart's type order.
      if (i > 0 && l.Part[i - 1] == k && l.Type[i] >= 0)
      {
        const auto rank = [&chart](int32_t u)
        {
          return std::find(
                   chart.TypeOrder.begin(), chart.TypeOrder.end(), static_cast<uint32_t>(u)) -
            chart.TypeOrder.begin();
        };
        EXPECT_LT(rank(l.Type[i - 1]), rank(l.Type[i]));
      }
    }
    double tallest = 0.0;
    for (std::size_t k = 0; k < parts.Size(); ++k)
    {
      // No layer lost: every non-zero type is drawn or merged, and the
      // stack is exactly as tall as its total.
      std::set<uint32_t> nonZero;
      for (uint32_t u = 0; u < types; ++u)
      {
        if (amplitude[k * types + u] > 0.0)
        {
          nonZero.insert(u);
        }
      }
      EXPECT_EQ(seen[k], nonZero);
      EXPECT_NEAR(stackHeight[k], chart.StackTotal[k] * chart.Scale, 1e-9);
      tallest = std::max(tallest, stackHeight[k]);
    }
    if (chart.MaxTotal > 0.0)
    {
      EXPECT_NEAR(tallest, height, 1e-9);
    }
    if (budget == 0.0)
    {
      EXPECT_TRUE(std::none_of(l.Flags.begin(), l.Flags.end(), [](uint8_t f) { return f != 0; }));
    }
  }
}

TEST(TemporalOverview, AxisTitlesNameTheMetricAndItsUnit)
{
  const auto state = macroscope::DescribeAmplitudeAxis("state duration", true, 0.01);
  EXPECT_EQ(state.Title, "state time per 10 ms slice, all resources");
  EXPECT_TRUE(state.Seconds);
  // Drawn, the title names the unit of the ticks below it.
  EXPECT_EQ(
    macroscope::AmplitudeTitle(state, 0.0634), "state time per 10 ms slice, all resources (ms)");
  EXPECT_EQ(
    macroscope::AmplitudeTitle(state, 12.0), "state time per 10 ms slice, all resources (s)");
  EXPECT_EQ(macroscope::FormatAmplitude(0.06, 0.02, 0.0634, true).substr(3), "ms");
  const auto fraction = macroscope::DescribeAmplitudeAxis("state duration", false, 0.01);
  EXPECT_EQ(fraction.Title, "state time / slice width, summed over resources");
  EXPECT_FALSE(fraction.Seconds);
  EXPECT_EQ(macroscope::DescribeAmplitudeAxis("event count", true, 2.5).Title,
    "events per 2.5 s slice, all resources");
  EXPECT_EQ(macroscope::DescribeAmplitudeAxis("messages sent", true, 1.5e-6).Title,
    "messages sent per 1.5 \xC2\xB5s slice, all resources");
  EXPECT_EQ(macroscope::DescribeAmplitudeAxis("bytes received per second", false, 0.1).Title,
    "bytes received per second, all resources (B/s)");
  EXPECT_EQ(macroscope::DescribeAmplitudeAxis("variable mean", false, 0.1).Title,
    "variable mean, summed over resources");
}

TEST(TemporalOverview, AmplitudeLabels)
{
  EXPECT_EQ(macroscope::FormatAmplitude(1500000, 500000, 2000000, false), "1.5 M");
  EXPECT_EQ(macroscope::FormatAmplitude(4, 2, 10, false), "4");
  EXPECT_EQ(macroscope::FormatAmplitude(0.25, 0.05, 1, false), "0.25");
  EXPECT_EQ(macroscope::FormatAmplitude(2000, 1000, 5000, false), "2 k");
  EXPECT_EQ(macroscope::FormatAmplitude(-1e-20, 0.5, 2, false), "0.0");
  EXPECT_EQ(macroscope::FormatAmplitude(0.0125, 0.0005, 0.02, true), "12.5 ms");
}

TEST(TemporalOverview, PartitionTitlesSayWhatIsShown)
{
  EXPECT_EQ(macroscope::PartitionTitle(0.3, 14, 100, 0), "p = 0.3: 14 parts of 100 slices");
  EXPECT_EQ(macroscope::PartitionTitle(0.25, 1, 1, 64),
    "p = 0.25: 1 part of 1 slice \xC3\x97 64 resources");
  EXPECT_EQ(macroscope::PartitionTitle(std::nan(""), 37, 100, 1),
    "37 parts of 100 slices \xC3\x97 1 resource");
}

TEST(TemporalOverview, LayerContentsNameTheTypesAMergedLayerHolds)
{
  macroscope::TemporalOverviewLayers layers;
  layers.Part = { 0, 0 };
  layers.Type = { 2, -1 };
  layers.Flags = { 0, macroscope::TemporalLayerMerged };
  layers.MergedOffset = { 0, 0, 2 };
  layers.MergedType = { 0, 1 };
  const std::vector<std::string> names = { "MPI_Send", "MPI_Recv", "Compute" };
  EXPECT_EQ(macroscope::TemporalLayerContents(layers, 0, names), "Compute");
  EXPECT_EQ(macroscope::TemporalLayerContents(layers, 1, names), "MPI_Send, MPI_Recv");
  EXPECT_EQ(macroscope::MergedLayersKey(2.5), "visually aggregated: layers under 2.5 px");
}
