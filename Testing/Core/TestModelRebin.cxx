// Tests of RebinModel (Ocelotl's model rebuilding from a cache, Dosimont et al. 2015 (Ocelotl)
// eqs. 6-8): hand-computed cases, then a brute force: a coarse model sliced
// from synthetic rows by SliceTrace against the same rows sliced finely and
// rebinned. Where the borders align they agree up to rounding; elsewhere
// each cell is within the share of the dirty fine slices it meets.
#include "ModelCache.h"
#include "ResourceHierarchy.h"
#include "TraceRowsBuilders.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

using macroscope::MicroscopicModel;
using macroscope::RebinModel;
using macroscope::RebinResult;
using macroscope::SliceGrid;
using macroscope::SliceMetric;
using macroscope::SliceTrace;
using macroscope::TimeSlicingOptions;

namespace
{
SliceGrid Grid(double begin, double end, int slices)
{
  SliceGrid g;
  g.Begin = begin;
  g.End = end;
  g.Slices = slices;
  return g;
}

MicroscopicModel Row(const SliceGrid& grid, const std::vector<double>& values)
{
  MicroscopicModel m;
  m.Grid = grid;
  m.Resources = 1;
  m.Types = 1;
  m.Values = values;
  return m;
}

// Fine model: 4 slices of width 1 over [0, 4], values 1, 2, 3, 4.
const MicroscopicModel Fine4 = Row(Grid(0, 4, 4), { 1, 2, 3, 4 });

TEST(RebinModel, WholeSlicesAreSummed)
{
  const RebinResult r = RebinModel(Fine4, Grid(0, 4, 2), true);
  EXPECT_EQ(r.Model.Values, (std::vector<double>{ 3, 7 })); // 1+2, 3+4
  EXPECT_TRUE(r.DirtySlices.empty());
  EXPECT_EQ(r.Model.Grid.Slices, 2);
}

TEST(RebinModel, SplitSlicesAreSharedByOverlap)
{
  // Borders at 4/3 and 8/3 cut fine slices 1 ([1,2)) and 2 ([2,3)):
  // new 0 = 1 + 2·(1/3) = 5/3; new 1 = 2·(2/3) + 3·(2/3) = 10/3;
  // new 2 = 3·(1/3) + 4 = 5.
  const RebinResult r = RebinModel(Fine4, Grid(0, 4, 3), true);
  ASSERT_EQ(r.Model.Values.size(), 3u);
  EXPECT_NEAR(r.Model.Values[0], 5.0 / 3, 1e-12);
  EXPECT_NEAR(r.Model.Values[1], 10.0 / 3, 1e-12);
  EXPECT_NEAR(r.Model.Values[2], 5.0, 1e-12);
  EXPECT_EQ(r.DirtySlices, (std::vector<int>{ 1, 2 }));
}

TEST(RebinModel, ZoomWindowCutsItsEndSlices)
{
  // [0.5, 2.5]: half of slice 0, all of slice 1, half of slice 2 = 0.5 + 2 + 1.5.
  const RebinResult r = RebinModel(Fine4, Grid(0.5, 2.5, 1), true);
  EXPECT_NEAR(r.Model.Values[0], 4.0, 1e-12);
  EXPECT_EQ(r.DirtySlices, (std::vector<int>{ 0, 2 }));
  // New slices narrower than the fine ones: [1.25, 1.5), [1.5, 1.75) take a
  // quarter of slice 1 each; slice 1 is counted dirty once.
  const RebinResult narrow = RebinModel(Fine4, Grid(1.25, 1.75, 2), true);
  EXPECT_NEAR(narrow.Model.Values[0], 0.5, 1e-12);
  EXPECT_NEAR(narrow.Model.Values[1], 0.5, 1e-12);
  EXPECT_EQ(narrow.DirtySlices, (std::vector<int>{ 1 }));
}

TEST(RebinModel, PerSecondValuesAreWeightedByWidth)
{
  // Rates over width-1 slices; the new slices are 2 wide: their rate is the
  // mean of the two (1+2)/2, (3+4)/2. With 3 slices (width 4/3):
  // new 0 = (1 + 2/3)·(3/4) = 5/4.
  const RebinResult r = RebinModel(Fine4, Grid(0, 4, 2), false);
  EXPECT_NEAR(r.Model.Values[0], 1.5, 1e-12);
  EXPECT_NEAR(r.Model.Values[1], 3.5, 1e-12);
  const RebinResult thirds = RebinModel(Fine4, Grid(0, 4, 3), false);
  EXPECT_NEAR(thirds.Model.Values[0], 1.25, 1e-12);
}

TEST(RebinModel, BordersOffByRoundingAreAligned)
{
  // (0.3 - 0) / 0.1 is 2.9999999999999996 in binary: still fine border 3.
  std::vector<double> values(10);
  for (int i = 0; i < 10; ++i)
  {
    values[i] = 1 << i;
  }
  const RebinResult r = RebinModel(Row(Grid(0, 1, 10), values), Grid(0.3, 0.7, 2), true);
  EXPECT_TRUE(r.DirtySlices.empty());
  EXPECT_EQ(r.Model.Values, (std::vector<double>{ 8 + 16, 32 + 64 }));
}

TEST(RebinModel, RowsAndPlanesKeepTheirPlace)
{
  // 2 resources × 2 types × 4 slices; Value(s, t, u) at t + 4·(s + 2·u).
  MicroscopicModel m;
  m.Grid = Grid(0, 4, 4);
  m.Resources = 2;
  m.Types = 2;
  for (int i = 0; i < 16; ++i)
  {
    m.Values.push_back(i);
  }
  const RebinResult r = RebinModel(m, Grid(0, 4, 2), true);
  ASSERT_EQ(r.Model.Values.size(), 8u);
  EXPECT_EQ(r.Model.Resources, 2u);
  EXPECT_EQ(r.Model.Types, 2u);
  // Row (s=1, u=1) holds 12..15: sums 12+13, 14+15 at 2·(1 + 2·1) = 6.
  EXPECT_EQ(r.Model.Values[6], 25);
  EXPECT_EQ(r.Model.Values[7], 29);
  // Row (s=0, u=1) is row 2 (values 8..11): its second new slice is 10 + 11.
  EXPECT_EQ(r.Model.At(0, 1, 1), 21);
}

TEST(RebinModel, WindowOutsideTheCacheIsRefused)
{
  EXPECT_THROW(RebinModel(Fine4, Grid(-0.5, 2, 2), true), std::invalid_argument);
  EXPECT_THROW(RebinModel(Fine4, Grid(1, 4.5, 2), true), std::invalid_argument);
  EXPECT_THROW(RebinModel(Fine4, Grid(1, 1, 2), true), std::invalid_argument);
  EXPECT_THROW(RebinModel(Fine4, Grid(0, 4, 0), true), std::invalid_argument);
  try
  {
    RebinModel(Fine4, Grid(1, 5, 2), true);
    FAIL() << "no error";
  }
  catch (const std::invalid_argument& e)
  {
    EXPECT_NE(std::string(e.what()).find("leaves the cached model"), std::string::npos);
  }
}

// --- Brute force against SliceTrace ---------------------------------------

using macroscope::testing::Points;
using macroscope::testing::States;
constexpr uint32_t Leaves = 5;
constexpr uint32_t Types = 3;
constexpr double TraceEnd = 120.0;

// Per leaf, back-to-back states of random types, lengths and gaps over [0, 120].
States RandomStates(unsigned seed)
{
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> length(0.01, 1.7);
  std::uniform_real_distribution<double> gap(0.0, 0.4);
  std::uniform_int_distribution<uint32_t> type(0, Types - 1);
  States s;
  for (uint32_t leaf = 0; leaf < Leaves; ++leaf)
  {
    double t = gap(rng);
    while (true)
    {
      const double end = t + length(rng);
      if (end > TraceEnd)
      {
        break;
      }
      s.Add(leaf, type(rng), 0, t, end);
      t = end + gap(rng);
    }
  }
  return s;
}

Points RandomPoints(unsigned seed, bool positiveValues)
{
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> time(0.0, TraceEnd);
  std::uniform_real_distribution<double> value(positiveValues ? 0.0 : -5.0, 5.0);
  std::uniform_int_distribution<uint32_t> type(0, Types - 1);
  std::uniform_int_distribution<uint32_t> leaf(0, Leaves - 1);
  Points p;
  for (int i = 0; i < 3000; ++i)
  {
    p.Add(leaf(rng), type(rng), time(rng), value(rng));
  }
  return p;
}

MicroscopicModel Slice(
  const SliceGrid& grid, SliceMetric metric, const States& states, const Points& points)
{
  TimeSlicingOptions o;
  o.Grid = grid;
  o.Metric = metric;
  o.Leaves = Leaves;
  o.Types = Types;
  o.Threads = 1;
  return SliceTrace(o, states.Rows(), points.Rows(), {});
}

// For every cell of `rebinned`, the bound of eqs. 7-8's error, computed
// here from the two grids' times: a fine slice overlapping new slice j by a
// fraction p in (0, 1) puts p·v in it where the truth lies in [0, v], hence
// an error of at most max(p, 1 - p)·v (non-negative extensive values).
//
// With `capacity` > 0 (state durations of one leaf, one state at a time) the
// truth is tighter: the time of a type in a part of length p·w lies in
// [max(0, v - (1 - p)·w), min(v, p·w)], and the error is p·v's distance to
// the farther end of that interval.
std::vector<double> DirtyShareBound(
  const MicroscopicModel& fine, const SliceGrid& target, bool capacity = false)
{
  const int S = fine.Grid.Slices;
  const int n = target.Slices;
  const std::size_t rows = std::size_t(fine.Resources) * fine.Types;
  std::vector<double> bound(rows * n, 0.0);
  const double wf = fine.Grid.Width();
  for (int j = 0; j < n; ++j)
  {
    const double lo = target.Begin + j * target.Width();
    const double hi = j + 1 == n ? target.End : target.Begin + (j + 1) * target.Width();
    for (int f = 0; f < S; ++f)
    {
      const double flo = fine.Grid.Begin + f * wf;
      const double p = std::max(0.0, std::min(hi, flo + wf) - std::max(lo, flo)) / wf;
      if (p > 1e-9 && p < 1 - 1e-9)
      {
        for (std::size_t row = 0; row < rows; ++row)
        {
          const double v = fine.Values[row * S + f];
          if (capacity)
          {
            const double lo = std::max(0.0, v - (1 - p) * wf);
            const double hi = std::min(v, p * wf);
            bound[row * n + j] += std::max(p * v - lo, hi - p * v);
          }
          else
          {
            bound[row * n + j] += std::max(p, 1 - p) * v;
          }
        }
      }
    }
  }
  return bound;
}

// The fine slices a border of `target` cuts, found by scanning the fine grid.
std::vector<int> CutFineSlices(const SliceGrid& fine, const SliceGrid& target)
{
  std::vector<int> cut;
  for (int f = 0; f < fine.Slices; ++f)
  {
    const double lo = fine.Begin + f * fine.Width();
    const double hi = lo + fine.Width();
    for (int j = 0; j <= target.Slices; ++j)
    {
      const double b = j == target.Slices ? target.End : target.Begin + j * target.Width();
      if (b > lo + 1e-9 * fine.Width() && b < hi - 1e-9 * fine.Width())
      {
        cut.push_back(f);
        break;
      }
    }
  }
  return cut;
}

struct Case
{
  const char* Name;
  double Begin, End;
  int Slices;
  bool Aligned;
};

void PrintTo(const Case& c, std::ostream* os)
{
  *os << c.Name;
}

class RebinAgainstSliceTrace : public ::testing::TestWithParam<Case>
{
};

TEST_P(RebinAgainstSliceTrace, StateDurations)
{
  const Case c = GetParam();
  const States states = RandomStates(11);
  const SliceGrid fineGrid = Grid(0, TraceEnd, 240); // width 0.5
  const SliceGrid target = Grid(c.Begin, c.End, c.Slices);
  const MicroscopicModel fine = Slice(fineGrid, SliceMetric::StateDuration, states, {});
  const MicroscopicModel truth = Slice(target, SliceMetric::StateDuration, states, {});
  const RebinResult r = RebinModel(fine, target, true);
  ASSERT_EQ(r.Model.Values.size(), truth.Values.size());
  EXPECT_EQ(r.DirtySlices, CutFineSlices(fineGrid, target));
  EXPECT_EQ(r.DirtySlices.empty(), c.Aligned);
  const std::vector<double> bound = DirtyShareBound(fine, target, true);
  double worst = 0.0;
  for (std::size_t i = 0; i < truth.Values.size(); ++i)
  {
    const double error = std::abs(r.Model.Values[i] - truth.Values[i]);
    worst = std::max(worst, error);
    if (c.Aligned)
    {
      EXPECT_NEAR(r.Model.Values[i], truth.Values[i], 1e-9) << "cell " << i;
      EXPECT_EQ(bound[i], 0.0);
    }
    else
    {
      EXPECT_LE(error, bound[i] + 1e-9) << "cell " << i;
    }
  }
  if (!c.Aligned)
  {
    EXPECT_GT(worst, 1e-6) << "dirty slices but no approximation: the case tests nothing";
  }
}

TEST_P(RebinAgainstSliceTrace, EventCounts)
{
  const Case c = GetParam();
  const Points points = RandomPoints(12, true);
  const SliceGrid target = Grid(c.Begin, c.End, c.Slices);
  const MicroscopicModel fine = Slice(Grid(0, TraceEnd, 240), SliceMetric::EventCount, {}, points);
  const MicroscopicModel truth = Slice(target, SliceMetric::EventCount, {}, points);
  const RebinResult r = RebinModel(fine, target, true);
  const std::vector<double> bound = DirtyShareBound(fine, target);
  for (std::size_t i = 0; i < truth.Values.size(); ++i)
  {
    if (c.Aligned)
    {
      EXPECT_EQ(r.Model.Values[i], truth.Values[i]) << "cell " << i; // integer sums: exact
    }
    else
    {
      EXPECT_LE(std::abs(r.Model.Values[i] - truth.Values[i]), bound[i] + 1e-9) << "cell " << i;
    }
  }
  // Shares of a fine slice add up to the part of it inside the window: the
  // row totals are the fine totals over the window, weighted by overlap.
  const SliceGrid& g = fine.Grid;
  for (std::size_t row = 0; row < std::size_t(Leaves) * Types; ++row)
  {
    double expected = 0.0;
    for (int f = 0; f < g.Slices; ++f)
    {
      const double lo = g.Begin + f * g.Width();
      const double inside =
        std::max(0.0, std::min(target.End, lo + g.Width()) - std::max(target.Begin, lo));
      expected += fine.Values[row * g.Slices + f] * inside / g.Width();
    }
    double total = 0.0;
    for (int j = 0; j < target.Slices; ++j)
    {
      total += r.Model.Values[row * target.Slices + j];
    }
    EXPECT_NEAR(total, expected, 1e-9) << "row " << row;
  }
}

TEST_P(RebinAgainstSliceTrace, VariableMeans)
{
  // Per-second values: aligned borders reproduce the mean; otherwise the
  // bound holds in integral units (value × width) for non-negative samples.
  const Case c = GetParam();
  const Points points = RandomPoints(13, true);
  const SliceGrid fineGrid = Grid(0, TraceEnd, 240);
  const SliceGrid target = Grid(c.Begin, c.End, c.Slices);
  const MicroscopicModel fine = Slice(fineGrid, SliceMetric::VariableMean, {}, points);
  const MicroscopicModel truth = Slice(target, SliceMetric::VariableMean, {}, points);
  const RebinResult r = RebinModel(fine, target, false);
  MicroscopicModel integral = fine;
  for (double& v : integral.Values)
  {
    v *= fineGrid.Width();
  }
  const std::vector<double> bound = DirtyShareBound(integral, target);
  for (std::size_t i = 0; i < truth.Values.size(); ++i)
  {
    const double error = std::abs(r.Model.Values[i] - truth.Values[i]);
    if (c.Aligned)
    {
      EXPECT_NEAR(r.Model.Values[i], truth.Values[i], 1e-9) << "cell " << i;
    }
    else
    {
      EXPECT_LE(error * target.Width(), bound[i] + 1e-9) << "cell " << i;
    }
  }
}

// Fine grid: 240 slices of 0.5 s over [0, 120].
INSTANTIATE_TEST_SUITE_P(Windows, RebinAgainstSliceTrace,
  ::testing::Values(Case{ "whole_by_4", 0, 120, 60, true }, // 2 s = 4 fine slices
    Case{ "zoom_aligned", 10, 70, 30, true },               // [10, 70], 2 s
    Case{ "whole_by_2_4", 0, 120, 100, false },             // 1.2 s = 2.4 fine slices
    Case{ "zoom_cut_ends", 10.3, 47.1, 23, false },         // ends inside fine slices
    Case{ "zoom_narrower", 10.3, 13.1, 7, false }),         // 0.4 s < 0.5 s
  [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.Name); });

TEST(RebinModel, DirtyCountOfAHandCase)
{
  // 240 fine slices → 100 new: border j at 2.4·j fine slices, on a fine
  // border iff 5 divides j: 99 interior borders, 19 aligned, 80 dirty.
  MicroscopicModel fine = Row(Grid(0, 120, 240), std::vector<double>(240, 1.0));
  const RebinResult r = RebinModel(fine, Grid(0, 120, 100), true);
  ASSERT_EQ(r.DirtySlices.size(), 80u);
  EXPECT_EQ(r.DirtySlices.front(), 2);  // 2.4
  EXPECT_EQ(r.DirtySlices.back(), 237); // 2.4 · 99 = 237.6
  for (double v : r.Model.Values)
  {
    EXPECT_NEAR(v, 2.4, 1e-12); // a uniform model stays uniform
  }
}
}

// --- Leaves folded into resources ------------------------------------------

// GroupResources on a leaf-level model equals SliceTrace() with the same
// ResourceOfLeaf, for every metric the streamed Time Slicing caches; with a
// leaf left out, and after a rebin (which commutes with the grouping).
TEST(GroupResources, EqualsSlicingWithResourceOfLeaf)
{
  const States states = RandomStates(5);
  const Points points = RandomPoints(9, false);
  const std::vector<uint32_t> resourceOfLeaf = { 1, 0, macroscope::NoResource, 1, 0 };
  for (SliceMetric metric :
    { SliceMetric::StateDuration, SliceMetric::EventCount, SliceMetric::VariableMean })
  {
    const SliceGrid fineGrid = Grid(0, TraceEnd, 240);
    const MicroscopicModel leaves = Slice(fineGrid, metric, states, points);
    TimeSlicingOptions o;
    o.Grid = Grid(0, TraceEnd, 60); // aligned: 4 fine slices each
    o.Metric = metric;
    o.Leaves = Leaves;
    o.Types = Types;
    o.Resources = 2;
    o.ResourceOfLeaf = resourceOfLeaf;
    o.Threads = 1;
    const MicroscopicModel truth = SliceTrace(o, states.Rows(), points.Rows(), {});
    const macroscope::RebinResult coarse =
      macroscope::RebinModel(leaves, o.Grid, macroscope::IsExtensiveMetric(metric, false));
    ASSERT_TRUE(coarse.DirtySlices.empty());
    const MicroscopicModel grouped = macroscope::GroupResources(coarse.Model, resourceOfLeaf, 2);
    ASSERT_EQ(grouped.Resources, 2u);
    ASSERT_EQ(grouped.Values.size(), truth.Values.size());
    double largest = 0.0;
    for (std::size_t i = 0; i < truth.Values.size(); ++i)
    {
      largest = std::max(largest, std::abs(truth.Values[i]));
      EXPECT_NEAR(grouped.Values[i], truth.Values[i], 1e-9 * (1.0 + std::abs(truth.Values[i])))
        << "metric " << int(metric) << " cell " << i;
    }
    EXPECT_GT(largest, 0.0) << "metric " << int(metric) << ": nothing was compared";
  }
}

TEST(GroupResources, RefusesMismatchedMaps)
{
  const MicroscopicModel leaves =
    Slice(Grid(0, TraceEnd, 10), SliceMetric::EventCount, {}, RandomPoints(3, true));
  EXPECT_THROW(macroscope::GroupResources(leaves, { 0, 0, 0 }, 1), std::invalid_argument);
  EXPECT_THROW(macroscope::GroupResources(leaves, { 0, 0, 0, 0, 2 }, 2), std::invalid_argument);
}

TEST(ContentDigest, TellsTextsApart)
{
  EXPECT_EQ(macroscope::ContentDigest("a/b\nc"), macroscope::ContentDigest("a/b\nc"));
  EXPECT_NE(macroscope::ContentDigest("a/b\nc"), macroscope::ContentDigest("a/c\nb"));
  EXPECT_NE(macroscope::ContentDigest(""), macroscope::ContentDigest(std::string(1, '\0')));
}
