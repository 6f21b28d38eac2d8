#include "TimeNavigation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

using macroscope::AsProperty;
using macroscope::MinimumWindowWidth;
using macroscope::PanWindow;
using macroscope::TimeAxisMap;
using macroscope::TimeWindow;
using macroscope::ZoomWindow;

namespace
{
const TimeWindow Span{ 0.0, 10.0 };
}

TEST(TimeNavigation, ZoomKeepsThePivotInPlace)
{
  const TimeWindow window{ 2.0, 6.0 };
  const TimeWindow zoomed = ZoomWindow(window, Span, 0.5, 3.0);
  EXPECT_DOUBLE_EQ(zoomed.Width(), 2.0);
  // 3 s was a quarter into the window; it still is.
  EXPECT_DOUBLE_EQ((3.0 - zoomed.Start) / zoomed.Width(), 0.25);
  EXPECT_DOUBLE_EQ(zoomed.Start, 2.5);
}

TEST(TimeNavigation, ZoomOutStopsAtTheSpan)
{
  // Around 8.5 the 4 s window would end at 10.5: pushed back inside, width kept.
  const TimeWindow zoomed = ZoomWindow(TimeWindow{ 8.0, 9.0 }, Span, 4.0, 8.5);
  EXPECT_DOUBLE_EQ(zoomed.Width(), 4.0);
  EXPECT_DOUBLE_EQ(zoomed.End, 10.0);
  const TimeWindow whole = ZoomWindow(TimeWindow{ 1.0, 9.0 }, Span, 100.0, 5.0);
  EXPECT_DOUBLE_EQ(whole.Start, 0.0);
  EXPECT_DOUBLE_EQ(whole.End, 10.0);
}

TEST(TimeNavigation, ZoomInStopsAtTheMinimumWidth)
{
  TimeWindow window = Span;
  for (int step = 0; step < 200; ++step)
  {
    window = ZoomWindow(window, Span, 0.5, 7.0);
  }
  EXPECT_NEAR(window.Width(), MinimumWindowWidth(Span), 1e-9 * MinimumWindowWidth(Span) + 1e-15);
  EXPECT_LE(window.Start, 7.0);
  EXPECT_GE(window.End, 7.0);
}

TEST(TimeNavigation, ZoomRandomWindowsStayInsideTheSpan)
{
  std::mt19937 random(26);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 2000; ++trial)
  {
    const double a = 10.0 * unit(random), b = 10.0 * unit(random);
    const TimeWindow window{ std::min(a, b), std::max(a, b) + 1e-3 };
    const double factor = 0.05 + 3.0 * unit(random);
    const double pivot = window.Start + window.Width() * unit(random);
    const TimeWindow zoomed = ZoomWindow(window, Span, factor, pivot);
    ASSERT_GE(zoomed.Start, Span.Start);
    ASSERT_LE(zoomed.End, Span.End + 1e-12);
    ASSERT_GE(zoomed.Width(), MinimumWindowWidth(Span) * (1 - 1e-9));
    if (factor < 1.0 && window.End <= Span.End)
    {
      // Zooming in keeps the pivot inside and at the same share.
      ASSERT_LE(zoomed.Start, pivot + 1e-9);
      ASSERT_GE(zoomed.End, pivot - 1e-9);
      ASSERT_NEAR(
        (pivot - zoomed.Start) / zoomed.Width(), (pivot - window.Start) / window.Width(), 1e-6);
    }
  }
}

TEST(TimeNavigation, PanMovesAndStopsAtTheEnds)
{
  const TimeWindow moved = PanWindow(TimeWindow{ 2.0, 4.0 }, Span, 1.5);
  EXPECT_DOUBLE_EQ(moved.Start, 3.5);
  EXPECT_DOUBLE_EQ(moved.End, 5.5);
  const TimeWindow right = PanWindow(TimeWindow{ 2.0, 4.0 }, Span, 100.0);
  EXPECT_DOUBLE_EQ(right.Start, 8.0);
  EXPECT_DOUBLE_EQ(right.End, 10.0);
  const TimeWindow left = PanWindow(TimeWindow{ 2.0, 4.0 }, Span, -100.0);
  EXPECT_DOUBLE_EQ(left.Start, 0.0);
  EXPECT_DOUBLE_EQ(left.End, 2.0);
}

TEST(TimeNavigation, AxisMapsChartUnitsToTime)
{
  TimeAxisMap axis;
  axis.X0 = 100.0;
  axis.X1 = 500.0;
  axis.Window = TimeWindow{ 2.0, 6.0 };
  EXPECT_DOUBLE_EQ(axis.UnitsPerSecond(), 100.0);
  EXPECT_DOUBLE_EQ(axis.TimeAt(100.0), 2.0);
  EXPECT_DOUBLE_EQ(axis.TimeAt(300.0), 4.0);
  EXPECT_DOUBLE_EQ(axis.TimeAt(500.0), 6.0);
}

TEST(TimeNavigation, WholeSpanIsWrittenAsZeroZero)
{
  const TimeWindow whole = AsProperty(TimeWindow{ 0.0, 10.0 }, Span);
  EXPECT_EQ(whole.Start, 0.0);
  EXPECT_EQ(whole.End, 0.0);
  const TimeWindow part = AsProperty(TimeWindow{ 0.0, 9.0 }, Span);
  EXPECT_EQ(part.End, 9.0);
}

TEST(TimeNavigation, BadArgumentsThrow)
{
  EXPECT_THROW(ZoomWindow(Span, Span, 0.0, 1.0), std::invalid_argument);
  EXPECT_THROW(ZoomWindow(Span, Span, -2.0, 1.0), std::invalid_argument);
  EXPECT_THROW(ZoomWindow(Span, TimeWindow{ 3.0, 3.0 }, 0.5, 1.0), std::invalid_argument);
  EXPECT_THROW(PanWindow(Span, Span, std::nan("")), std::invalid_argument);
}

TEST(TimeNavigation, IndexZoomKeepsThePivotRowAndStaysInside)
{
  using macroscope::IndexWindow;
  // 64 rows, all shown: halving around row 40.5 keeps it at the same share.
  IndexWindow w = macroscope::ZoomIndices(IndexWindow{ 0, -1 }, 64, 0.5, 40.5);
  EXPECT_EQ(w.Count(), 32);
  EXPECT_LE(w.First, 40);
  EXPECT_GE(w.Last, 40);
  EXPECT_NEAR((40.5 - w.First) / w.Count(), 40.5 / 64.0, 1.0 / 32.0);
  // Zooming in to one row and no further; out to all rows and no further.
  for (int step = 0; step < 20; ++step)
  {
    w = macroscope::ZoomIndices(w, 64, 0.8, w.First + 0.5);
  }
  EXPECT_EQ(w.Count(), 1);
  EXPECT_EQ(macroscope::ZoomIndices(w, 64, 0.8, w.First + 0.5).Count(), 1);
  for (int step = 0; step < 40; ++step)
  {
    w = macroscope::ZoomIndices(w, 64, 1.25, 63.5);
    EXPECT_GE(w.First, 0);
    EXPECT_LE(w.Last, 63);
  }
  EXPECT_EQ(w.Count(), 64);
  const IndexWindow whole = macroscope::AsProperty(w, 64);
  EXPECT_EQ(whole.First, 0);
  EXPECT_EQ(whole.Last, -1);
  // A small window's step still moves by a row; a window at the bottom stays inside.
  EXPECT_EQ(macroscope::ZoomIndices(IndexWindow{ 10, 12 }, 64, 0.8, 11.5).Count(), 2);
  const IndexWindow bottom = macroscope::ZoomIndices(IndexWindow{ 60, 63 }, 64, 1.25, 63.9);
  EXPECT_EQ(bottom.Last, 63);
  EXPECT_EQ(bottom.Count(), 5);
  EXPECT_THROW(macroscope::ZoomIndices(IndexWindow{}, 0, 0.5, 0.0), std::invalid_argument);
  EXPECT_THROW(macroscope::ZoomIndices(IndexWindow{}, 8, 0.0, 0.0), std::invalid_argument);
}

TEST(TimeNavigation, IndexPanKeepsTheCountAndStopsAtTheEnds)
{
  using macroscope::IndexWindow;
  using macroscope::PanIndices;
  // Steps 10..19 of 100 moved by 4.4 columns: 14..23; back by 30: stops at 0.
  IndexWindow w = PanIndices(IndexWindow{ 10, 19 }, 100, 4.4);
  EXPECT_EQ(w.First, 14);
  EXPECT_EQ(w.Last, 23);
  w = PanIndices(w, 100, -30.0);
  EXPECT_EQ(w.First, 0);
  EXPECT_EQ(w.Count(), 10);
  w = PanIndices(w, 100, 1e9);
  EXPECT_EQ(w.Last, 99);
  EXPECT_EQ(w.Count(), 10);
  // All indices shown: a pan has nowhere to go.
  const IndexWindow all = PanIndices(IndexWindow{ 0, -1 }, 100, 7.0);
  EXPECT_EQ(all.First, 0);
  EXPECT_EQ(all.Last, 99);
  // A window reaching past the end (the data shrank) is cut to the end.
  const IndexWindow cut = PanIndices(IndexWindow{ 90, 120 }, 100, -5.0);
  EXPECT_EQ(cut.First, 85);
  EXPECT_EQ(cut.Last, 94);
  // Beyond int: a trace of ten billion steps.
  const int64_t huge = 10'000'000'000;
  const IndexWindow far = PanIndices(IndexWindow{ huge - 20, huge - 11 }, huge, 5.0);
  EXPECT_EQ(far.First, huge - 15);
  EXPECT_THROW(PanIndices(IndexWindow{}, 0, 1.0), std::invalid_argument);
  EXPECT_THROW(PanIndices(IndexWindow{}, 10, std::nan("")), std::invalid_argument);
}
