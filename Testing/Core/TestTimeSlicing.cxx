// Tests of SliceTrace (Triva's Time-Slice algorithm, Schnorr 2009 (Triva) §4.2).
// Every expectation below is worked out by hand in the comments, or computed
// by an independent brute force (the randomized tests at the end).
#include "TimeSlicing.h"
#include "TraceRowsBuilders.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

using macroscope::AvailableMemoryBytes;
using macroscope::MessageRows;
using macroscope::MicroscopicModel;
using macroscope::ModelMemory;
using macroscope::ModelMemoryNeed;
using macroscope::ModelMemoryProblem;
using macroscope::PointRows;
using macroscope::SliceMetric;
using macroscope::SliceTrace;
using macroscope::StateRows;
using macroscope::TimeSlicingAborted;
using macroscope::TimeSlicingOptions;

namespace
{
using macroscope::testing::Messages;
using macroscope::testing::Points;
using macroscope::testing::States;
TimeSlicingOptions Options(double begin, double end, int slices, SliceMetric metric,
  uint32_t leaves, uint32_t types, unsigned threads = 1)
{
  TimeSlicingOptions o;
  o.Grid.Begin = begin;
  o.Grid.End = end;
  o.Grid.Slices = slices;
  o.Metric = metric;
  o.Leaves = leaves;
  o.Types = types;
  o.Threads = threads;
  return o;
}

MicroscopicModel SliceStates(const TimeSlicingOptions& o, const States& s)
{
  return SliceTrace(o, s.Rows(), PointRows{}, MessageRows{});
}
MicroscopicModel SlicePoints(const TimeSlicingOptions& o, const Points& p)
{
  return SliceTrace(o, StateRows{}, p.Rows(), MessageRows{});
}
MicroscopicModel SliceMessages(const TimeSlicingOptions& o, const Messages& m)
{
  return SliceTrace(o, StateRows{}, PointRows{}, m.Rows());
}

// Checks one row of the model (resource, type) against the expected values.
void ExpectRow(const MicroscopicModel& m, uint32_t resource, uint32_t type,
  const std::vector<double>& expected, double tolerance = 1e-12)
{
  ASSERT_EQ(static_cast<int>(expected.size()), m.Grid.Slices);
  for (int t = 0; t < m.Grid.Slices; ++t)
  {
    EXPECT_NEAR(m.At(resource, t, type), expected[t], tolerance)
      << "resource " << resource << ", slice " << t << ", type " << type;
  }
}

double Overlap(double a, double b, double lo, double hi)
{
  return std::max(0.0, std::min(b, hi) - std::max(a, lo));
}
}

// ---------------------------------------------------------------------------
// States

TEST(TimeSlicing, FigureFourFourPositionsOnOneSlice)
{
  // One slice [10, 20], entities A..E (leaves 0..4), one state type.
  States s;
  s.Add(0, 0, 0, 15, 25); // A: starts inside, ends after: 20 - 15 = 5
  s.Add(1, 0, 0, 2, 6);   // B: one state outside ...
  s.Add(1, 0, 0, 12, 17); //    ... one inside: 17 - 12 = 5
  s.Add(2, 0, 0, 5, 13);  // C: starts before, ends inside: 13 - 10 = 3
  s.Add(3, 0, 0, 0, 8);   // D: nothing in the slice: 0
  s.Add(3, 0, 0, 22, 30);
  s.Add(4, 0, 0, 11, 13); // E: two states inside: 2 + 3.5 = 5.5
  s.Add(4, 0, 0, 16, 19.5);
  auto o = Options(10, 20, 1, SliceMetric::StateDuration, 5, 1);
  const double expected[5] = { 5, 5, 3, 0, 5.5 };
  for (int depth : { -1, 0 })
  {
    o.Depth = depth;
    o.Normalize = false;
    const MicroscopicModel m = SliceStates(o, s);
    ASSERT_EQ(m.Resources, 5u);
    ASSERT_EQ(m.Types, 1u);
    ASSERT_EQ(m.Values.size(), 5u);
    for (uint32_t e = 0; e < 5; ++e)
    {
      EXPECT_DOUBLE_EQ(m.At(e, 0, 0), expected[e]) << "entity " << e << " depth " << depth;
    }
    // Eq. 4.1 normalizes by T_f - T_i = 10.
    o.Normalize = true;
    const MicroscopicModel n = SliceStates(o, s);
    for (uint32_t e = 0; e < 5; ++e)
    {
      EXPECT_DOUBLE_EQ(n.At(e, 0, 0), expected[e] / 10.0) << "entity " << e;
    }
  }
}

TEST(TimeSlicing, StatesAcrossSeveralSlices)
{
  // [0, 10) in 5 slices of width 2: borders 0 2 4 6 8 10.
  States s;
  s.Add(0, 0, 0, -3, -1);  // before the window: nothing
  s.Add(0, 0, 0, 1, 7.5);  // type 0: 1, 2, 2, 1.5, 0
  s.Add(0, 1, 0, 7.5, 12); // type 1: 0, 0, 0, 0.5, 2 (clipped at 10)
  s.Add(0, 0, 0, 12, 14);  // after the window: nothing
  auto o = Options(0, 10, 5, SliceMetric::StateDuration, 1, 2);
  const MicroscopicModel m = SliceStates(o, s);
  ExpectRow(m, 0, 0, { 1, 2, 2, 1.5, 0 });
  ExpectRow(m, 0, 1, { 0, 0, 0, 0.5, 2 });
  // The layout of the values: t + slices * (s + resources * u).
  EXPECT_DOUBLE_EQ(m.Values[3 + 5 * (0 + 1 * 1)], 0.5);
  o.Normalize = true;
  const MicroscopicModel n = SliceStates(o, s);
  ExpectRow(n, 0, 0, { 0.5, 1, 1, 0.75, 0 });
  ExpectRow(n, 0, 1, { 0, 0, 0, 0.25, 1 });
}

namespace
{
// Three levels on one leaf, in Leave order (End ascending, deeper first):
//   P  depth 0 type 0 [0, 8]
//   C1 depth 1 type 1 [0, 3]  child at the parent's start
//   G  depth 2 type 2 [1, 3]  ends with C1 (equal End)
//   C2 depth 1 type 1 [5, 8]  child at the parent's end (equal End with P)
//   G2 depth 2 type 2 [6, 7]
// Slices of width 2 over [0, 8).
States NestedStates()
{
  States s;
  s.Add(0, 2, 2, 1, 3); // G
  s.Add(0, 1, 1, 0, 3); // C1
  s.Add(0, 2, 2, 6, 7); // G2
  s.Add(0, 1, 1, 5, 8); // C2
  s.Add(0, 0, 0, 0, 8); // P
  return s;
}

void ExpectNestedExclusive(const MicroscopicModel& m)
{
  // Innermost state at each moment: C1 [0,1], G [1,3], P [3,5], C2 [5,6],
  // G2 [6,7], C2 [7,8].
  ExpectRow(m, 0, 0, { 0, 1, 1, 0 }); // P: [3,4] and [4,5]
  ExpectRow(m, 0, 1, { 1, 0, 1, 1 }); // C1 [0,1]; C2 [5,6] and [7,8]
  ExpectRow(m, 0, 2, { 1, 1, 0, 1 }); // G [1,2] and [2,3]; G2 [6,7]
}
}

TEST(TimeSlicing, NestedStatesExclusiveTime)
{
  auto o = Options(0, 8, 4, SliceMetric::StateDuration, 1, 3);
  const MicroscopicModel m = SliceStates(o, NestedStates());
  ExpectNestedExclusive(m);
  // Each slice is fully covered by P: its exclusive durations add to 2.
  for (int t = 0; t < 4; ++t)
  {
    EXPECT_NEAR(m.At(0, t, 0) + m.At(0, t, 1) + m.At(0, t, 2), 2.0, 1e-12);
  }
}

TEST(TimeSlicing, NestedStatesOfTheSameType)
{
  // A recursive call: P type 0 [0, 4] with a child of type 0 [1, 2] and a
  // child of type 1 [2, 3], over one slice [0, 4]: type 0 holds 3 of the 4
  // seconds (P's [0,1] and [3,4], plus the child's [1,2]), type 1 holds 1.
  States s;
  s.Add(0, 0, 1, 1, 2);
  s.Add(0, 1, 1, 2, 3);
  s.Add(0, 0, 0, 0, 4);
  const MicroscopicModel m = SliceStates(Options(0, 4, 1, SliceMetric::StateDuration, 1, 2), s);
  EXPECT_DOUBLE_EQ(m.At(0, 0, 0), 3.0);
  EXPECT_DOUBLE_EQ(m.At(0, 0, 1), 1.0);
}

TEST(TimeSlicing, DepthOptionCountsInclusiveTimeOfOneDepth)
{
  auto o = Options(0, 8, 4, SliceMetric::StateDuration, 1, 3);
  o.Depth = 0; // P [0, 8]: 2 in every slice
  MicroscopicModel m = SliceStates(o, NestedStates());
  ExpectRow(m, 0, 0, { 2, 2, 2, 2 });
  ExpectRow(m, 0, 1, { 0, 0, 0, 0 });
  ExpectRow(m, 0, 2, { 0, 0, 0, 0 });
  o.Depth = 1; // C1 [0, 3], C2 [5, 8], children included
  m = SliceStates(o, NestedStates());
  ExpectRow(m, 0, 0, { 0, 0, 0, 0 });
  ExpectRow(m, 0, 1, { 2, 1, 1, 2 });
  ExpectRow(m, 0, 2, { 0, 0, 0, 0 });
  o.Depth = 2; // G [1, 3], G2 [6, 7]
  m = SliceStates(o, NestedStates());
  ExpectRow(m, 0, 2, { 1, 1, 0, 1 });
  ExpectRow(m, 0, 1, { 0, 0, 0, 0 });
  o.Depth = 3; // nobody
  m = SliceStates(o, NestedStates());
  for (double v : m.Values)
  {
    EXPECT_EQ(v, 0.0);
  }
  o.Depth = 1; // normalized by the width 2
  o.Normalize = true;
  m = SliceStates(o, NestedStates());
  ExpectRow(m, 0, 1, { 1, 0.5, 0.5, 1 });
}

TEST(TimeSlicing, StatesInAnyOrder)
{
  // Every permutation of the five nested states gives the same model.
  const States nested = NestedStates();
  std::vector<std::size_t> order(nested.Size());
  std::iota(order.begin(), order.end(), 0);
  const auto o = Options(0, 8, 4, SliceMetric::StateDuration, 1, 3);
  int permutations = 0;
  do
  {
    ExpectNestedExclusive(SliceStates(o, nested.Permuted(order)));
    ++permutations;
  } while (std::next_permutation(order.begin(), order.end()));
  EXPECT_EQ(permutations, 120);

  // Leaves interleaved: the nested set on leaf 1 in reverse (Enter) order,
  // its rows alternating with those of leaf 0's single state.
  States mixed;
  mixed.Add(1, 0, 0, 0, 8);
  mixed.Add(0, 1, 0, 2, 6);
  mixed.Add(1, 1, 1, 5, 8);
  mixed.Add(1, 2, 2, 6, 7);
  mixed.Add(1, 1, 1, 0, 3);
  mixed.Add(1, 2, 2, 1, 3);
  const MicroscopicModel m = SliceStates(Options(0, 8, 4, SliceMetric::StateDuration, 2, 3), mixed);
  ExpectRow(m, 1, 0, { 0, 1, 1, 0 });
  ExpectRow(m, 1, 1, { 1, 0, 1, 1 });
  ExpectRow(m, 1, 2, { 1, 1, 0, 1 });
  ExpectRow(m, 0, 1, { 0, 2, 2, 0 }); // leaf 0's [2, 6]
  ExpectRow(m, 0, 0, { 0, 0, 0, 0 });
}

TEST(TimeSlicing, ZeroLengthStatesAtCallBorders)
{
  // A zero-length call at its parent's start and one at its end, and two
  // adjacent depth-0 calls that share the timestamp 2: P1 [0, 2] with a
  // child [1, 2], P2 [2, 4] with a zero-length child [2, 2] and a child
  // [2, 3]. One slice [0, 4]: P1 excl. 1, P2 excl. 1, children 1 + 1.
  States s;
  s.Add(0, 2, 1, 0, 0); // zero-length at P1's start
  s.Add(0, 1, 1, 1, 2);
  s.Add(0, 2, 1, 2, 2); // zero-length, child of P2 at its start
  s.Add(0, 0, 0, 0, 2); // P1
  s.Add(0, 1, 1, 2, 3);
  s.Add(0, 0, 0, 2, 4); // P2
  const MicroscopicModel m = SliceStates(Options(0, 4, 2, SliceMetric::StateDuration, 1, 3), s);
  ExpectRow(m, 0, 0, { 1, 1 }); // P1 [0, 1]; P2 [3, 4]
  ExpectRow(m, 0, 1, { 1, 1 }); // [1, 2]; [2, 3]
  ExpectRow(m, 0, 2, { 0, 0 });
}

TEST(TimeSlicing, ZeroLengthSiblingListedBeforeTheCallWithChildren)
{
  // P depth 0 [0, 4] calls S [1, 3] (which calls c [2, 3]) and then a
  // zero-length Z [3, 3]; S and Z both end at 3 at depth 1. Rows listed as
  // c, Z, S, P: the End/depth order does not tell S from Z, S still owns c.
  // One slice [0, 4]: P [0,1] + [3,4] = 2, S [1,2] = 1, c [2,3] = 1.
  States s;
  s.Add(0, 2, 2, 2, 3); // c
  s.Add(0, 1, 1, 3, 3); // Z
  s.Add(0, 1, 1, 1, 3); // S
  s.Add(0, 0, 0, 0, 4); // P
  const MicroscopicModel m = SliceStates(Options(0, 4, 1, SliceMetric::StateDuration, 1, 3), s);
  EXPECT_DOUBLE_EQ(m.At(0, 0, 0), 2.0);
  EXPECT_DOUBLE_EQ(m.At(0, 0, 1), 1.0);
  EXPECT_DOUBLE_EQ(m.At(0, 0, 2), 1.0);
}

TEST(TimeSlicing, ExclusiveTimeNeverNegativeFarFromZero)
{
  // A window [1e5, 1e5 + 10] in 1000 slices; each depth-0 call (type 0) is
  // entirely covered by two adjacent children (types 1 and 2), so type 0
  // has no exclusive time anywhere, and types 1 and 2 cover every slice up
  // to the last call's end.
  const double begin = 1e5;
  States s;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> length(0.001, 0.2);
  double t = begin;
  while (t < begin + 10)
  {
    const double a = t;
    const double m = a + length(rng);
    const double e = m + length(rng);
    s.Add(0, 1, 1, a, m);
    s.Add(0, 2, 1, m, e);
    s.Add(0, 0, 0, a, e);
    t = e;
  }
  const MicroscopicModel m =
    SliceStates(Options(begin, begin + 10, 1000, SliceMetric::StateDuration, 1, 3), s);
  const double width = m.Grid.Width();
  for (int k = 0; k < 1000; ++k)
  {
    EXPECT_GE(m.At(0, k, 0), 0.0) << "slice " << k;
    EXPECT_LE(m.At(0, k, 0), 1e-9) << "slice " << k;
    EXPECT_GE(m.At(0, k, 1), 0.0);
    EXPECT_GE(m.At(0, k, 2), 0.0);
    EXPECT_NEAR(m.At(0, k, 1) + m.At(0, k, 2), width, 1e-9) << "slice " << k;
  }
}

TEST(TimeSlicing, EmptySlicesAndEmptyInput)
{
  // States only in the first and last of 5 slices of width 1.
  States s;
  s.Add(0, 0, 0, 0.25, 1.0);
  s.Add(0, 1, 0, 4.0, 4.5);
  const MicroscopicModel m = SliceStates(Options(0, 5, 5, SliceMetric::StateDuration, 1, 2), s);
  ExpectRow(m, 0, 0, { 0.75, 0, 0, 0, 0 });
  ExpectRow(m, 0, 1, { 0, 0, 0, 0, 0.5 });

  // No rows at all: a zero model of the right shape, for every metric.
  for (SliceMetric metric : { SliceMetric::StateDuration, SliceMetric::EventCount,
         SliceMetric::VariableMean, SliceMetric::BytesSentRate, SliceMetric::BytesReceivedRate,
         SliceMetric::MessagesSent, SliceMetric::MessagesReceived })
  {
    const MicroscopicModel z =
      SliceTrace(Options(0, 1, 3, metric, 4, 2), StateRows{}, PointRows{}, MessageRows{});
    const bool messages = metric != SliceMetric::StateDuration &&
      metric != SliceMetric::EventCount && metric != SliceMetric::VariableMean;
    EXPECT_EQ(z.Resources, 4u);
    EXPECT_EQ(z.Types, messages ? 1u : 2u);
    EXPECT_EQ(z.Grid.Slices, 3);
    ASSERT_EQ(z.Values.size(), 3u * 4u * z.Types);
    for (double v : z.Values)
    {
      EXPECT_EQ(v, 0.0);
    }
  }
}

TEST(TimeSlicing, OneSliceOneResourceModel)
{
  // One leaf, one slice [0, 9]: Table 4.2's entity A, Blocked [0, 5] (type
  // 0) then Executing [5, 9] (type 1), with a call inside Executing [6, 7]
  // of type 0 (exclusive: Blocked 5 + 1, Executing 4 - 1).
  States s;
  s.Add(0, 0, 0, 0, 5);
  s.Add(0, 0, 1, 6, 7);
  s.Add(0, 1, 0, 5, 9);
  auto o = Options(0, 9, 1, SliceMetric::StateDuration, 1, 2);
  const MicroscopicModel m = SliceStates(o, s);
  ASSERT_EQ(m.Values.size(), 2u);
  EXPECT_DOUBLE_EQ(m.At(0, 0, 0), 6.0);
  EXPECT_DOUBLE_EQ(m.At(0, 0, 1), 3.0);
  // The same leaf folded explicitly into a single resource.
  o.ResourceOfLeaf = { 0 };
  o.Resources = 1;
  const MicroscopicModel f = SliceStates(o, s);
  EXPECT_EQ(f.Values, m.Values);
}

TEST(TimeSlicing, FoldingLeavesIntoResources)
{
  // Four leaves into three resources: leaves 0 and 2 -> resource 1, leaf 1
  // -> resource 0, leaf 3 -> resource 2; resource 3 gets no leaf.
  // Two slices of width 2 over [0, 4).
  States s;
  s.Add(0, 0, 0, 0, 3);   // resource 1, type 0: 2, 1
  s.Add(2, 0, 0, 1, 4);   // resource 1, type 0: 1, 2
  s.Add(2, 1, 1, 2, 3);   //   (its child, type 1: 0, 1; leaf 2's type 0 becomes 1, 1)
  s.Add(1, 1, 0, 0.5, 1); // resource 0, type 1: 0.5, 0
  s.Add(3, 0, 0, 3, 4);   // resource 2, type 0: 0, 1
  auto o = Options(0, 4, 2, SliceMetric::StateDuration, 4, 2);
  o.ResourceOfLeaf = { 1, 0, 1, 2 };
  o.Resources = 4;
  const MicroscopicModel m = SliceStates(o, s);
  ASSERT_EQ(m.Resources, 4u);
  ExpectRow(m, 1, 0, { 2 + 1, 1 + 1 });
  ExpectRow(m, 1, 1, { 0, 1 });
  ExpectRow(m, 0, 0, { 0, 0 });
  ExpectRow(m, 0, 1, { 0.5, 0 });
  ExpectRow(m, 2, 0, { 0, 1 });
  ExpectRow(m, 3, 0, { 0, 0 });
  ExpectRow(m, 3, 1, { 0, 0 });

  // Events fold the same way: leaf 0 (t = 1) and leaf 2 (t = 1.5) both count
  // in resource 1's slice 0; leaf 3's (t = 3) in resource 2's slice 1.
  Points e;
  e.Add(0, 0, 1.0);
  e.Add(2, 0, 1.5);
  e.Add(3, 1, 3.0);
  auto oe = Options(0, 4, 2, SliceMetric::EventCount, 4, 2);
  oe.ResourceOfLeaf = o.ResourceOfLeaf;
  oe.Resources = 4;
  const MicroscopicModel c = SlicePoints(oe, e);
  ExpectRow(c, 1, 0, { 2, 0 });
  ExpectRow(c, 2, 1, { 0, 1 });
  ExpectRow(c, 0, 0, { 0, 0 });
}

// ---------------------------------------------------------------------------
// Events

TEST(TimeSlicing, EventCountsIncludingBorders)
{
  // [0, 4) in 4 slices of width 1.
  Points e;
  e.Add(0, 0, 0.0);    // at Begin: slice 0
  e.Add(0, 0, 1.0);    // on a border: the slice that starts there, 1
  e.Add(0, 0, 1.5);    // slice 1
  e.Add(0, 0, 4.0);    // at End: the last slice, 3
  e.Add(0, 0, -0.001); // before: ignored
  e.Add(0, 0, 4.001);  // after: ignored
  e.Add(0, 1, 2.999);  // slice 2
  e.Add(0, 1, 3.0);    // slice 3
  e.Add(1, 1, 0.5);    // leaf 1, slice 0
  e.Add(1, 1, 0.5);    // twice
  const MicroscopicModel m = SlicePoints(Options(0, 4, 4, SliceMetric::EventCount, 2, 2), e);
  ExpectRow(m, 0, 0, { 1, 2, 0, 1 });
  ExpectRow(m, 0, 1, { 0, 0, 1, 1 });
  ExpectRow(m, 1, 1, { 2, 0, 0, 0 });
  ExpectRow(m, 1, 0, { 0, 0, 0, 0 });
}

// ---------------------------------------------------------------------------
// Variables

TEST(TimeSlicing, VariablesPiecewiseConstant)
{
  // [0, 8) in 4 slices of width 2.
  Points v;
  // Leaf 0, variable 0, given out of order: 4 from t=1, 2 from t=2.5, 6
  // from t=5 to the end.
  v.Add(0, 0, 5.0, 6.0);
  v.Add(0, 0, 1.0, 4.0);
  v.Add(0, 0, 2.5, 2.0);
  // Leaf 0, variable 1: a single sample inside the last slice, -3 from 7.
  v.Add(0, 1, 7.0, -3.0);
  // Leaf 0, variable 2: 10 from before the window, 0 from t=3.
  v.Add(0, 2, -2.0, 10.0);
  v.Add(0, 2, 3.0, 0.0);
  // Leaf 1, variable 0: 1 from t=4 (it must not cut leaf 0's variable 0).
  v.Add(1, 0, 4.0, 1.0);
  const MicroscopicModel m = SlicePoints(Options(0, 8, 4, SliceMetric::VariableMean, 2, 3), v);
  // Variable 0, leaf 0, integral per slice / 2:
  //   [0,2): nothing before 1, 4 on [1,2)      -> 4 / 2 = 2
  //   [2,4): 4 on [2,2.5), 2 on [2.5,4): 2 + 3 -> 5 / 2 = 2.5
  //   [4,6): 2 on [4,5), 6 on [5,6): 2 + 6      -> 8 / 2 = 4
  //   [6,8): 6 on [6,8): 12                     -> 6
  ExpectRow(m, 0, 0, { 2, 2.5, 4, 6 });
  ExpectRow(m, 0, 1, { 0, 0, 0, -1.5 }); // -3 on [7,8): -3 / 2
  ExpectRow(m, 0, 2, { 10, 5, 0, 0 });   // 10 on [0,2); 10 on [2,3)
  ExpectRow(m, 1, 0, { 0, 0, 1, 1 });    // 1 on [4,8)
  ExpectRow(m, 1, 1, { 0, 0, 0, 0 });
}

// ---------------------------------------------------------------------------
// Links

namespace
{
// Leaves 0..2, [0, 8) in 4 slices of width 2.
//   m0: 0 -> 1, sent 1,   received 5,   80 bytes (20 B/s)
//   m1: 2 -> 0, sent 3,   received 7,   12 bytes (3 B/s)
//   m2: 1 -> 2, sent 6,   received 6,   10 bytes (instantaneous)
//   m3: 0 -> 2, sent 4.5, received 4.0,  8 bytes (received before sent)
//   m4: 1 -> 0, sent 7,   received 9,    4 bytes (2 B/s, ends after the window)
//   m5: 2 -> 1, sent 8,   received 8,    6 bytes (at the window's end)
Messages SomeMessages()
{
  Messages m;
  m.Add(0, 1, 1, 5, 80);
  m.Add(2, 0, 3, 7, 12);
  m.Add(1, 2, 6, 6, 10);
  m.Add(0, 2, 4.5, 4.0, 8);
  m.Add(1, 0, 7, 9, 4);
  m.Add(2, 1, 8, 8, 6);
  return m;
}
}

TEST(TimeSlicing, LinksCrossingSliceBorders)
{
  const Messages msgs = SomeMessages();
  auto o = Options(0, 8, 4, SliceMetric::BytesSentRate, 3, 5);
  MicroscopicModel m = SliceMessages(o, msgs);
  EXPECT_EQ(m.Types, 1u);
  ASSERT_EQ(m.Values.size(), 12u);
  // As origin, bytes in each slice / width 2:
  //   leaf 0: m0 20 B/s on [1,2) [2,4) [4,5): 20, 40, 20 bytes -> 10, 20, 10;
  //           m3 all 8 bytes at its send 4.5 (slice 2)    -> + 4
  //   leaf 1: m2 10 bytes at 6 (slice 3) -> 5; m4 2 B/s on [7,8): 2 -> + 1
  //   leaf 2: m1 3 B/s on [3,4) [4,6) [6,7): 3, 6, 3 -> 1.5, 3, 1.5;
  //           m5 6 bytes at 8 = End (last slice) -> + 3
  ExpectRow(m, 0, 0, { 10, 20, 14, 0 });
  ExpectRow(m, 1, 0, { 0, 0, 0, 6 });
  ExpectRow(m, 2, 0, { 0, 1.5, 3, 4.5 });

  o.Metric = SliceMetric::BytesReceivedRate;
  m = SliceMessages(o, msgs);
  //   leaf 0: m1 -> 1.5, 3, 1.5 (slices 1..3); m4 [7,8) -> + 1 in slice 3
  //   leaf 1: m0 -> 10, 20, 10; m5 at 8 -> + 3 in slice 3
  //   leaf 2: m3 at its receive 4.0 (slice 2) -> 4; m2 at 6 -> 5
  ExpectRow(m, 0, 0, { 0, 1.5, 3, 2.5 });
  ExpectRow(m, 1, 0, { 10, 20, 10, 3 });
  ExpectRow(m, 2, 0, { 0, 0, 4, 5 });

  o.Metric = SliceMetric::MessagesSent;
  m = SliceMessages(o, msgs);
  ExpectRow(m, 0, 0, { 1, 0, 1, 0 }); // m0 at 1, m3 at 4.5
  ExpectRow(m, 1, 0, { 0, 0, 0, 2 }); // m2 at 6, m4 at 7
  ExpectRow(m, 2, 0, { 0, 1, 0, 1 }); // m1 at 3, m5 at 8

  o.Metric = SliceMetric::MessagesReceived;
  m = SliceMessages(o, msgs);
  ExpectRow(m, 0, 0, { 0, 0, 0, 1 }); // m1 at 7 (m4 at 9 is outside)
  ExpectRow(m, 1, 0, { 0, 0, 1, 1 }); // m0 at 5, m5 at 8
  ExpectRow(m, 2, 0, { 0, 0, 1, 1 }); // m3 at 4.0, m2 at 6
}

TEST(TimeSlicing, TableFourTwoLinkExample)
{
  // Figure 4.7's links (entities A..E = leaves 0..4) inside one 9-second
  // slice [0, 9]; the destinations are not given by the table, any will do.
  //   A: 10 bytes over 2 s, 40 bytes over 2 s    B: 36 bytes over 2 s
  //   C: 10 bytes over 1 s                       D: 5 bytes over 1 s, 45 over 3 s
  //   E: 30 bytes over 2 s
  // The seed sums throughputs (A: 10/2 + 40/2 = 25 B/s). Our metric spreads
  // each throughput over the time the message spends in the slice and
  // divides by the slice width: Σ (bytes/d) × d / 9 = Σ bytes / 9 here.
  Messages m;
  m.Add(0, 1, 1, 3, 10);
  m.Add(0, 2, 4, 6, 40);
  m.Add(1, 0, 2, 4, 36);
  m.Add(2, 3, 5, 6, 10);
  m.Add(3, 4, 0.5, 1.5, 5);
  m.Add(3, 0, 5, 8, 45);
  m.Add(4, 3, 6, 8, 30);
  auto o = Options(0, 9, 1, SliceMetric::BytesSentRate, 5, 1);
  const MicroscopicModel r = SliceMessages(o, m);
  const double byHand[5] = { 50.0 / 9, 36.0 / 9, 10.0 / 9, 50.0 / 9, 30.0 / 9 };
  const double seedColumn[5] = { 25, 18, 10, 20, 15 }; // Table 4.2, B/s
  for (uint32_t e = 0; e < 5; ++e)
  {
    // The definition, computed independently: Σ throughput × overlap / width.
    double definition = 0.0;
    double seedRate = 0.0;
    for (std::size_t i = 0; i < m.Sender.size(); ++i)
    {
      if (m.Sender[i] == e)
      {
        const double d = m.RecvTime[i] - m.SendTime[i];
        definition += m.Bytes[i] / d * Overlap(m.SendTime[i], m.RecvTime[i], 0, 9) / 9.0;
        seedRate += m.Bytes[i] / d;
      }
    }
    EXPECT_NEAR(definition, byHand[e], 1e-12);
    EXPECT_NEAR(r.At(e, 0, 0), byHand[e], 1e-12) << "entity " << e;
    EXPECT_NEAR(seedRate, seedColumn[e], 1e-12) << "the test data is Table 4.2's";
  }
  // The seed's own column (25, 18, 10, 20, 15 B/s) is what we get with one
  // slice per message: a slice of the message's own duration holds its
  // throughput. A's first message alone in the slice [1, 3]:
  const MicroscopicModel a = SliceMessages(Options(1, 3, 1, SliceMetric::BytesSentRate, 5, 1), m);
  EXPECT_NEAR(a.At(0, 0, 0), 10.0 / 2, 1e-12);
  // D's second message [5, 8] is D's only message in the slice [5, 8].
  const MicroscopicModel d = SliceMessages(Options(5, 8, 1, SliceMetric::BytesSentRate, 5, 1), m);
  EXPECT_NEAR(d.At(3, 0, 0), 45.0 / 3, 1e-12);
}

// ---------------------------------------------------------------------------
// Bad input, abort

TEST(TimeSlicing, BadOptionsThrow)
{
  States s;
  s.Add(0, 0, 0, 0, 1);
  const auto good = Options(0, 1, 2, SliceMetric::StateDuration, 1, 1);
  EXPECT_NO_THROW(SliceStates(good, s));
  auto expectThrow = [&](TimeSlicingOptions o, const States& rows)
  { EXPECT_THROW(SliceStates(o, rows), std::invalid_argument); };
  auto o = good;
  o.Grid.Slices = 0;
  expectThrow(o, s);
  o.Grid.Slices = -3;
  expectThrow(o, s);
  o = good;
  o.Grid.End = o.Grid.Begin; // Begin == End
  expectThrow(o, s);
  o.Grid.End = -1; // Begin > End
  expectThrow(o, s);
  o = good;
  o.Grid.Begin = std::numeric_limits<double>::quiet_NaN();
  expectThrow(o, s);
  o = good;
  o.Grid.End = std::numeric_limits<double>::infinity();
  expectThrow(o, s);
  o = good;
  o.Grid.Begin = -std::numeric_limits<double>::infinity();
  expectThrow(o, s);
  o = good;
  o.Depth = -2;
  expectThrow(o, s);
  o = good;
  o.Types = 0;
  expectThrow(o, s);
  o = good;
  o.Leaves = 0;
  expectThrow(o, s);
  // ResourceOfLeaf: wrong size, or a resource out of range.
  o = good;
  o.ResourceOfLeaf = { 0, 0 };
  o.Resources = 1;
  expectThrow(o, s);
  o.ResourceOfLeaf = { 1 };
  o.Resources = 1;
  expectThrow(o, s);
  // A row on a leaf out of range, or of a type out of range.
  States badLeaf;
  badLeaf.Add(1, 0, 0, 0, 1);
  expectThrow(good, badLeaf);
  States badType;
  badType.Add(0, 1, 0, 0, 1);
  expectThrow(good, badType);
  auto depth0 = good;
  depth0.Depth = 0;
  expectThrow(depth0, badType);
  Points badEvent;
  badEvent.Add(0, 3, 0.5);
  EXPECT_THROW(
    SlicePoints(Options(0, 1, 1, SliceMetric::EventCount, 1, 3), badEvent), std::invalid_argument);
  EXPECT_THROW(SlicePoints(Options(0, 1, 1, SliceMetric::VariableMean, 1, 3), badEvent),
    std::invalid_argument);
  Points badEventLeaf;
  badEventLeaf.Add(5, 0, 0.5);
  EXPECT_THROW(SlicePoints(Options(0, 1, 1, SliceMetric::EventCount, 1, 3), badEventLeaf),
    std::invalid_argument);
  Messages badSender;
  badSender.Add(2, 0, 0.1, 0.2, 1);
  EXPECT_THROW(SliceMessages(Options(0, 1, 1, SliceMetric::BytesSentRate, 2, 1), badSender),
    std::invalid_argument);
  EXPECT_THROW(SliceMessages(Options(0, 1, 1, SliceMetric::MessagesSent, 2, 1), badSender),
    std::invalid_argument);
  Messages badReceiver;
  badReceiver.Add(0, 7, 0.1, 0.2, 1);
  EXPECT_THROW(SliceMessages(Options(0, 1, 1, SliceMetric::BytesReceivedRate, 2, 1), badReceiver),
    std::invalid_argument);
}

TEST(TimeSlicing, BadTypeLeavesNoStateForTheNextCall)
{
  // A call that fails on a bad type half-way through a leaf must not leave
  // anything behind for the next call on the same thread. Leaf 0: a child
  // [0, 1] of depth 1, then its parent with a bad type.
  States bad;
  bad.Add(0, 0, 1, 0, 1);
  bad.Add(0, 9, 0, 0, 2);
  EXPECT_THROW(
    SliceStates(Options(0, 2, 1, SliceMetric::StateDuration, 1, 1), bad), std::invalid_argument);
  // Then a single depth-0 state [0, 2]: 2 seconds of type 0.
  States good;
  good.Add(0, 0, 0, 0, 2);
  const MicroscopicModel m = SliceStates(Options(0, 2, 1, SliceMetric::StateDuration, 1, 1), good);
  EXPECT_DOUBLE_EQ(m.At(0, 0, 0), 2.0);
}

TEST(TimeSlicing, ProgressAndAbort)
{
  States s;
  for (uint32_t leaf = 0; leaf < 8; ++leaf)
  {
    s.Add(leaf, 0, 0, 0, 1);
  }
  // Reported fractions grow to 1.
  auto o = Options(0, 1, 1, SliceMetric::StateDuration, 8, 1);
  std::vector<double> reported;
  o.Progress = [&reported](double f)
  {
    reported.push_back(f);
    return true;
  };
  const MicroscopicModel m = SliceStates(o, s);
  ASSERT_FALSE(reported.empty());
  EXPECT_TRUE(std::is_sorted(reported.begin(), reported.end()));
  EXPECT_DOUBLE_EQ(reported.back(), 1.0);
  EXPECT_DOUBLE_EQ(m.At(7, 0, 0), 1.0);

  // Returning false aborts, single- or multi-threaded.
  for (unsigned threads : { 1u, 2u, 4u })
  {
    o.Threads = threads;
    o.Progress = [](double) { return false; };
    EXPECT_THROW(SliceStates(o, s), TimeSlicingAborted) << threads << " threads";
  }
  // Even when the only block is the last one.
  auto one = Options(0, 1, 1, SliceMetric::StateDuration, 1, 1);
  States single;
  single.Add(0, 0, 0, 0, 1);
  int calls = 0;
  one.Progress = [&calls](double)
  {
    ++calls;
    return false;
  };
  EXPECT_THROW(SliceStates(one, single), TimeSlicingAborted);
  EXPECT_EQ(calls, 1);
}

TEST(TimeSlicing, ProgressFollowsRowsNotResources)
{
  // Leaf 0 holds 9,999 of the 10,006 rows: single-threaded, the report after
  // it says 10,000 of 10,014 (rows plus one per resource), not 1 of 8.
  States s;
  for (int k = 0; k < 9999; ++k)
  {
    s.Add(0, 0, 0, 0, 1);
  }
  for (uint32_t leaf = 1; leaf < 8; ++leaf)
  {
    s.Add(leaf, 0, 0, 0, 1);
  }
  auto o = Options(0, 1, 1, SliceMetric::StateDuration, 8, 1);
  o.Threads = 1;
  std::vector<double> reported;
  o.Progress = [&reported](double f)
  {
    reported.push_back(f);
    return true;
  };
  SliceStates(o, s);
  ASSERT_FALSE(reported.empty());
  EXPECT_NEAR(reported.front(), 10000.0 / 10014.0, 1e-12);
  EXPECT_DOUBLE_EQ(reported.back(), 1.0);
  EXPECT_TRUE(std::is_sorted(reported.begin(), reported.end()));
}

// ---------------------------------------------------------------------------
// Random traces: invariants and a brute-force reference

namespace
{
constexpr double RandomBegin = 0.0;
constexpr double RandomEnd = 10.0;
constexpr int RandomSlices = 7; // width 10/7: borders are not on the time lattice
constexpr uint32_t RandomTypes = 5;
constexpr uint32_t RandomMaxDepth = 4;

// A proper call stack: children strictly nested in their parent, siblings in
// sequence. Times are multiples of 1/8, so that children often start at
// their parent's start, end at its end, siblings touch, and some states
// have zero length. Rows in Leave order.
double RandomCall(States& s, std::mt19937& rng, uint32_t leaf, uint32_t depth, double start)
{
  std::uniform_int_distribution<int> gap(0, 2);
  std::uniform_int_distribution<int> children(0, depth < RandomMaxDepth ? 3 : 0);
  std::uniform_int_distribution<uint32_t> type(0, RandomTypes - 1);
  double t = start + gap(rng) / 8.0;
  const int n = children(rng);
  for (int c = 0; c < n; ++c)
  {
    t = RandomCall(s, rng, leaf, depth + 1, t) + gap(rng) / 8.0;
  }
  s.Add(leaf, type(rng), depth, start, t);
  return t;
}

States RandomTrace(uint32_t leaves, unsigned seed)
{
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> idle(0, 4);
  States s;
  for (uint32_t leaf = 0; leaf < leaves; ++leaf)
  {
    double t = -1.5 + idle(rng) / 8.0; // some states start before the window
    while (t < RandomEnd + 1.0)        // and some end after it
    {
      t = RandomCall(s, rng, leaf, 0, t) + idle(rng) / 8.0;
    }
  }
  return s;
}

TimeSlicingOptions RandomOptions(uint32_t leaves, unsigned threads = 1)
{
  return Options(
    RandomBegin, RandomEnd, RandomSlices, SliceMetric::StateDuration, leaves, RandomTypes, threads);
}

// Exclusive time by brute force: cut each leaf's timeline at every state
// border and slice border; on each piece, the state of the greatest depth
// that covers it owns it.
std::vector<double> BruteForceExclusive(const States& s, uint32_t leaves)
{
  const auto o = RandomOptions(leaves);
  const double width = (RandomEnd - RandomBegin) / RandomSlices;
  std::vector<double> values(std::size_t(RandomSlices) * leaves * RandomTypes, 0.0);
  for (uint32_t leaf = 0; leaf < leaves; ++leaf)
  {
    std::vector<double> cuts;
    for (int t = 0; t <= RandomSlices; ++t)
    {
      cuts.push_back(RandomBegin + t * width);
    }
    for (std::size_t i = 0; i < s.Size(); ++i)
    {
      if (s.Location[i] == leaf)
      {
        for (double x : { s.Start[i], s.End[i] })
        {
          if (x > RandomBegin && x < RandomEnd)
          {
            cuts.push_back(x);
          }
        }
      }
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k)
    {
      const double a = cuts[k];
      const double b = cuts[k + 1];
      const double mid = 0.5 * (a + b);
      int slice = 0;
      while (slice + 1 < RandomSlices && RandomBegin + (slice + 1) * width <= mid)
      {
        ++slice;
      }
      long owner = -1;
      for (std::size_t i = 0; i < s.Size(); ++i)
      {
        if (s.Location[i] == leaf && s.Start[i] <= a && s.End[i] >= b &&
          (owner < 0 || s.Depth[i] > s.Depth[owner]))
        {
          owner = static_cast<long>(i);
        }
      }
      if (owner >= 0)
      {
        values[slice + std::size_t(RandomSlices) * (leaf + std::size_t(leaves) * s.Type[owner])] +=
          b - a;
      }
    }
  }
  (void)o;
  return values;
}
}

TEST(TimeSlicing, RandomTraceMatchesBruteForce)
{
  constexpr uint32_t leaves = 6;
  for (unsigned seed : { 1u, 2u, 3u })
  {
    const States s = RandomTrace(leaves, seed);
    ASSERT_GT(s.Size(), 300u);
    const MicroscopicModel m = SliceStates(RandomOptions(leaves), s);
    const std::vector<double> reference = BruteForceExclusive(s, leaves);
    ASSERT_EQ(m.Values.size(), reference.size());
    double total = 0.0;
    for (std::size_t i = 0; i < reference.size(); ++i)
    {
      EXPECT_NEAR(m.Values[i], reference[i], 1e-9) << "seed " << seed << " value " << i;
      total += reference[i];
    }
    EXPECT_GT(total, 0.5 * leaves * (RandomEnd - RandomBegin)); // not a trivial trace
  }
}

TEST(TimeSlicing, RandomTraceExclusiveTimeCoversDepthZeroStates)
{
  constexpr uint32_t leaves = 6;
  const States s = RandomTrace(leaves, 11);
  const MicroscopicModel m = SliceStates(RandomOptions(leaves), s);
  const double width = m.Grid.Width();
  for (uint32_t leaf = 0; leaf < leaves; ++leaf)
  {
    for (int t = 0; t < RandomSlices; ++t)
    {
      const double lo = RandomBegin + t * width;
      const double hi = RandomBegin + (t + 1) * width;
      double covered = 0.0; // depth-0 states of a leaf never overlap
      for (std::size_t i = 0; i < s.Size(); ++i)
      {
        if (s.Location[i] == leaf && s.Depth[i] == 0)
        {
          covered += Overlap(s.Start[i], s.End[i], lo, hi);
        }
      }
      double sum = 0.0;
      for (uint32_t u = 0; u < RandomTypes; ++u)
      {
        EXPECT_GE(m.At(leaf, t, u), 0.0);
        sum += m.At(leaf, t, u);
      }
      EXPECT_NEAR(sum, covered, 1e-9) << "leaf " << leaf << " slice " << t;
    }
  }
}

TEST(TimeSlicing, RandomTraceDepthOptionSumsToOverlap)
{
  constexpr uint32_t leaves = 5;
  const States s = RandomTrace(leaves, 21);
  for (int depth = 0; depth <= static_cast<int>(RandomMaxDepth) + 1; ++depth)
  {
    auto o = RandomOptions(leaves);
    o.Depth = depth;
    const MicroscopicModel m = SliceStates(o, s);
    for (uint32_t leaf = 0; leaf < leaves; ++leaf)
    {
      for (uint32_t u = 0; u < RandomTypes; ++u)
      {
        double overlap = 0.0;
        for (std::size_t i = 0; i < s.Size(); ++i)
        {
          if (s.Location[i] == leaf && s.Type[i] == u && s.Depth[i] == uint32_t(depth))
          {
            overlap += Overlap(s.Start[i], s.End[i], RandomBegin, RandomEnd);
          }
        }
        double sum = 0.0;
        for (int t = 0; t < RandomSlices; ++t)
        {
          sum += m.At(leaf, t, u);
        }
        EXPECT_NEAR(sum, overlap, 1e-9) << "depth " << depth << " leaf " << leaf << " type " << u;
      }
    }
  }
}

TEST(TimeSlicing, RandomTraceThreadsAndRowOrderAgree)
{
  constexpr uint32_t leaves = 9;
  const States s = RandomTrace(leaves, 31);
  for (int depth : { -1, 1 })
  {
    auto o = RandomOptions(leaves, 1);
    o.Depth = depth;
    const MicroscopicModel one = SliceStates(o, s);
    for (unsigned threads : { 2u, 4u })
    {
      o.Threads = threads;
      const MicroscopicModel many = SliceStates(o, s);
      ASSERT_EQ(many.Values.size(), one.Values.size());
      EXPECT_EQ(
        0, std::memcmp(many.Values.data(), one.Values.data(), one.Values.size() * sizeof(double)))
        << threads << " threads, depth " << depth;
    }
    // The rows shuffled across leaves: the same model up to rounding.
    std::vector<std::size_t> order(s.Size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), std::mt19937(7));
    o.Threads = 2;
    const MicroscopicModel shuffled = SliceStates(o, s.Permuted(order));
    for (std::size_t i = 0; i < one.Values.size(); ++i)
    {
      EXPECT_NEAR(shuffled.Values[i], one.Values[i], 1e-9) << "depth " << depth;
    }
  }
}

TEST(TimeSlicing, RandomTraceFoldedResourcesAddUp)
{
  constexpr uint32_t leaves = 6;
  const States s = RandomTrace(leaves, 41);
  const MicroscopicModel byLeaf = SliceStates(RandomOptions(leaves), s);
  auto o = RandomOptions(leaves, 2);
  o.ResourceOfLeaf = { 2, 0, 2, 1, 0, 2 };
  o.Resources = 3;
  const MicroscopicModel folded = SliceStates(o, s);
  for (uint32_t r = 0; r < 3; ++r)
  {
    for (int t = 0; t < RandomSlices; ++t)
    {
      for (uint32_t u = 0; u < RandomTypes; ++u)
      {
        double sum = 0.0;
        for (uint32_t leaf = 0; leaf < leaves; ++leaf)
        {
          sum += o.ResourceOfLeaf[leaf] == r ? byLeaf.At(leaf, t, u) : 0.0;
        }
        EXPECT_NEAR(folded.At(r, t, u), sum, 1e-9);
      }
    }
  }
}

TEST(TimeSlicing, RandomMessagesConserveBytes)
{
  // Messages inside the window: Σ_t value × width = bytes sent (received)
  // per leaf; the counts add up to the number of messages.
  constexpr uint32_t leaves = 5;
  std::mt19937 rng(51);
  std::uniform_int_distribution<uint32_t> leaf(0, leaves - 1);
  std::uniform_real_distribution<double> time(0.0, 10.0);
  std::uniform_real_distribution<double> bytes(1.0, 1000.0);
  Messages m;
  std::vector<double> sent(leaves, 0.0), received(leaves, 0.0);
  for (int i = 0; i < 400; ++i)
  {
    double a = time(rng);
    double b = time(rng);
    if (i % 10 == 0)
    {
      b = a; // some instantaneous ones
    }
    const double n = bytes(rng);
    const uint32_t from = leaf(rng);
    const uint32_t to = leaf(rng);
    m.Add(from, to, std::min(a, b), std::max(a, b), n);
    sent[from] += n;
    received[to] += n;
  }
  auto o = Options(0, 10, 13, SliceMetric::BytesSentRate, leaves, 1, 2);
  const MicroscopicModel out = SliceMessages(o, m);
  o.Metric = SliceMetric::BytesReceivedRate;
  const MicroscopicModel in = SliceMessages(o, m);
  o.Metric = SliceMetric::MessagesSent;
  const MicroscopicModel count = SliceMessages(o, m);
  const double width = o.Grid.Width();
  double messages = 0.0;
  for (uint32_t l = 0; l < leaves; ++l)
  {
    double s = 0.0, r = 0.0;
    for (int t = 0; t < 13; ++t)
    {
      s += out.At(l, t, 0) * width;
      r += in.At(l, t, 0) * width;
      messages += count.At(l, t, 0);
    }
    EXPECT_NEAR(s, sent[l], 1e-9 * sent[l]) << "leaf " << l;
    EXPECT_NEAR(r, received[l], 1e-9 * received[l]) << "leaf " << l;
  }
  EXPECT_EQ(messages, 400.0);
}

TEST(TimeSlicing, ModelMemoryNeedCountsCellsAndCopies)
{
  const ModelMemory need = ModelMemoryNeed(100, 8, 3, 2);
  EXPECT_EQ(need.Cells, 2400.0);
  EXPECT_EQ(need.Bytes, 2400.0 * sizeof(double) * 2);
  // No overflow however absurd the request: 2^31 x 2^32 x 2^32 cells.
  const ModelMemory huge = ModelMemoryNeed(2147483648.0, 4294967296.0, 4294967296.0, 2);
  EXPECT_GT(huge.Bytes, 1e28);
  EXPECT_TRUE(std::isfinite(huge.Bytes));
}

TEST(TimeSlicing, ModelMemoryProblemNamesCellsAndBytes)
{
  const ModelMemory need = ModelMemoryNeed(1000000, 1000, 100, 2);
  EXPECT_EQ(ModelMemoryProblem(1000000, 1000, 100, need, 0), "") << "an unknown limit accepts";
  EXPECT_EQ(ModelMemoryProblem(1000000, 1000, 100, need, uint64_t(2e12)), "");
  const std::string problem = ModelMemoryProblem(1000000, 1000, 100, need, uint64_t(1) << 30);
  EXPECT_NE(problem.find("1000000 slices x 1000 resources x 100 types"), std::string::npos)
    << problem;
  EXPECT_NE(problem.find("1e+11 cells"), std::string::npos) << problem;
  EXPECT_NE(problem.find("1.6e+12 bytes (1.455 TiB)"), std::string::npos) << problem;
  EXPECT_NE(problem.find("1073741824 bytes (1.000 GiB)"), std::string::npos) << problem;
}

TEST(TimeSlicing, AvailableMemoryIsKnownOnLinux)
{
  // The limit the filters check models against: this machine's.
  const uint64_t available = AvailableMemoryBytes();
  EXPECT_GT(available, uint64_t(1) << 20);
  EXPECT_LT(available, uint64_t(1) << 50);
}

TEST(TimeSlicing, NoRowsGiveAZeroModel)
{
  // Empty tables are normal: valid pointers to no rows, for every metric.
  const uint32_t none32 = 0;
  const double none = 0.0;
  TimeSlicingOptions o;
  o.Grid = { 0.0, 1.0, 4 };
  o.Leaves = 3;
  o.Types = 2;
  const StateRows states{ &none32, &none32, &none32, &none, &none, 0 };
  const PointRows points{ &none32, &none32, &none, &none, 0 };
  const MessageRows messages{ &none32, &none32, &none, &none, &none, 0 };
  for (SliceMetric metric : { SliceMetric::StateDuration, SliceMetric::EventCount,
         SliceMetric::VariableMean, SliceMetric::BytesSentRate, SliceMetric::MessagesReceived })
  {
    o.Metric = metric;
    const MicroscopicModel model = SliceTrace(o, states, points, messages);
    EXPECT_EQ(model.Resources, 3u);
    EXPECT_EQ(model.Values.size(), 4u * 3u * model.Types);
    EXPECT_TRUE(
      std::all_of(model.Values.begin(), model.Values.end(), [](double v) { return v == 0.0; }));
  }
}
