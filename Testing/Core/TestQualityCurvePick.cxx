// The click and keyboard rules of the parameter panel (docs/parameter-panel.md).
#include "QualityCurvePick.h"

#include <gtest/gtest.h>

using macroscope::QualityCurvePick;

namespace
{
// Three partitions: [0, 0.2), [0.2, 0.7), [0.7, 1].
QualityCurvePick ThreeIntervals()
{
  return QualityCurvePick({ 0.0, 0.2, 0.7 });
}
}

TEST(QualityCurvePick, IntervalsFromStarts)
{
  const QualityCurvePick pick = ThreeIntervals();
  ASSERT_EQ(pick.Count(), 3u);
  EXPECT_EQ(pick.End(0), 0.2);
  EXPECT_EQ(pick.End(2), 1.0);
  EXPECT_DOUBLE_EQ(pick.Middle(1), 0.45);
  EXPECT_EQ(pick.IntervalAt(0.0), 0u);
  EXPECT_EQ(pick.IntervalAt(0.1999), 0u);
  EXPECT_EQ(pick.IntervalAt(0.2), 1u); // a breakpoint belongs to the interval it starts
  EXPECT_EQ(pick.IntervalAt(0.95), 2u);
  EXPECT_EQ(pick.IntervalAt(1.0), 2u);
  EXPECT_EQ(pick.IntervalAt(-0.5), 0u);
  EXPECT_EQ(pick.IntervalAt(1.5), 2u);
}

TEST(QualityCurvePick, ClickAwayFromBreakpointsKeepsTheClickedP)
{
  const QualityCurvePick pick = ThreeIntervals();
  EXPECT_DOUBLE_EQ(pick.Pick(0.40037, 0.01), 0.4); // rounded to 0.001
  EXPECT_DOUBLE_EQ(pick.Pick(0.0004, 0.01), 0.0);  // 0 is the domain's end, not a breakpoint
  EXPECT_DOUBLE_EQ(pick.Pick(1.2, 0.01), 1.0);     // clamped
}

TEST(QualityCurvePick, ClickNearABreakpointPicksTheMiddleOfTheIntervalUnderThePointer)
{
  const QualityCurvePick pick = ThreeIntervals();
  EXPECT_DOUBLE_EQ(pick.Pick(0.195, 0.01), 0.1);  // left of 0.2: [0, 0.2)
  EXPECT_DOUBLE_EQ(pick.Pick(0.205, 0.01), 0.45); // right of 0.2: [0.2, 0.7)
  EXPECT_DOUBLE_EQ(pick.Pick(0.2, 0.01), 0.45);   // on it: the interval it starts
  EXPECT_DOUBLE_EQ(pick.Pick(0.695, 0.01), 0.45);
  EXPECT_DOUBLE_EQ(pick.Pick(0.705, 0.01), 0.85);
  // Farther than the snap distance: the clicked p.
  EXPECT_DOUBLE_EQ(pick.Pick(0.215, 0.01), 0.215);
}

TEST(QualityCurvePick, RoundingNeverCrossesABreakpoint)
{
  // A breakpoint at 0.30004: a click at 0.3003 rounds to 0.300, in the
  // interval before it, so the clicked p is kept as it is.
  const QualityCurvePick pick({ 0.0, 0.30004 });
  EXPECT_DOUBLE_EQ(pick.Pick(0.3003, 0.0001), 0.3003);
  EXPECT_EQ(pick.IntervalAt(pick.Pick(0.3003, 0.0001)), 1u);
}

TEST(QualityCurvePick, NarrowIntervalsAreReachedByTheirMiddle)
{
  // [0.5, 0.502) is narrower than the snap distance: any click in it picks
  // its middle.
  const QualityCurvePick pick({ 0.0, 0.5, 0.502 });
  EXPECT_DOUBLE_EQ(pick.Pick(0.5005, 0.01), 0.501);
  EXPECT_DOUBLE_EQ(pick.Pick(0.5015, 0.01), 0.501);
}

TEST(QualityCurvePick, KeyboardStepsFromPartitionToPartition)
{
  const QualityCurvePick pick = ThreeIntervals();
  EXPECT_DOUBLE_EQ(pick.Step(0.1, 1), 0.45);
  EXPECT_DOUBLE_EQ(pick.Step(0.3, 1), 0.85);
  EXPECT_DOUBLE_EQ(pick.Step(0.3, -1), 0.1);
  EXPECT_DOUBLE_EQ(pick.Step(0.9, 5), 0.85); // clamped to the last
  EXPECT_DOUBLE_EQ(pick.Step(0.9, -9), 0.1); // and the first
  EXPECT_DOUBLE_EQ(pick.Step(0.3, 0), 0.45); // the middle of its own
}

TEST(QualityCurvePick, WithoutCurvesTheClickIsTheP)
{
  const QualityCurvePick pick({});
  EXPECT_EQ(pick.Count(), 0u);
  EXPECT_DOUBLE_EQ(pick.Pick(0.1234, 0.01), 0.123);
  EXPECT_DOUBLE_EQ(pick.Step(0.3, 1), 0.3);
}
