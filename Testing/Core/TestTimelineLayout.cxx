// Tests of the Gantt timeline layout with visual aggregation
// (TimelineLayout.h, docs/timeline.md). Small cases are worked out by hand
// in the comments; the randomized tests compare with a brute force that
// clips every state and message to the window on its own.
#include "TimelineLayout.h"
#include "TraceRowsBuilders.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <stdexcept>
#include <tuple>
#include <vector>

using macroscope::BuildTimelineIndex;
using macroscope::LayoutTimeline;
using macroscope::MessageRows;
using macroscope::StateRows;
using macroscope::TimelineIndex;
using macroscope::TimelineLayout;
using macroscope::TimelineMarks;
using macroscope::TimelineOptions;

namespace
{
using macroscope::testing::Messages;
using macroscope::testing::States;
TimelineLayout Layout(
  const States& states, const Messages& messages, uint32_t leaves, const TimelineOptions& options)
{
  const TimelineIndex index = BuildTimelineIndex(states.Rows(), messages.Rows(), leaves);
  return LayoutTimeline(index, states.Rows(), messages.Rows(), options);
}

TimelineOptions Window(double t0, double t1, double width, double minWidth)
{
  TimelineOptions options;
  options.WindowBegin = t0;
  options.WindowEnd = t1;
  options.ViewWidth = width;
  options.MinMarkWidth = minWidth;
  return options;
}

// Mark i as (start, end, mode type, state count, flags).
void ExpectMark(const TimelineMarks& m, std::size_t i, uint32_t band, uint32_t depth, double start,
  double end, uint32_t type, uint32_t count, uint8_t flags)
{
  ASSERT_LT(i, m.Size());
  EXPECT_EQ(m.Band[i], band) << "mark " << i;
  EXPECT_EQ(m.Depth[i], depth) << "mark " << i;
  EXPECT_DOUBLE_EQ(m.Start[i], start) << "mark " << i;
  EXPECT_DOUBLE_EQ(m.End[i], end) << "mark " << i;
  EXPECT_EQ(m.Type[i], type) << "mark " << i;
  EXPECT_EQ(m.StateCount[i], count) << "mark " << i;
  EXPECT_EQ(m.Flags[i], flags) << "mark " << i;
}

// The per-type times of mark i as a map.
std::map<uint32_t, double> TypesOf(const TimelineMarks& m, std::size_t i)
{
  std::map<uint32_t, double> times;
  for (std::size_t k = m.TypeOffset[i]; k < m.TypeOffset[i + 1]; ++k)
  {
    times[m.TypeId[k]] += m.TypeTime[k];
  }
  return times;
}

constexpr uint8_t TimeAgg = macroscope::TimelineTimeAggregate;
constexpr uint8_t RowAgg = macroscope::TimelineRowAggregate;
constexpr uint8_t MsgAgg = macroscope::TimelineMessageAggregate;
}

TEST(TimelineLayout, EverythingWideGivesPlainMarks)
{
  // 100 px for 10 s: 10 px/s; the narrowest state (2 s) is 20 px >= 1 px.
  States s;
  s.Add(0, 0, 0, 0.0, 2.0);
  s.Add(0, 1, 0, 2.0, 5.0);
  s.Add(0, 0, 0, 5.0, 10.0);
  s.Add(1, 2, 0, 1.0, 9.0);
  const TimelineLayout layout = Layout(s, Messages(), 2, Window(0.0, 10.0, 100.0, 1.0));
  EXPECT_DOUBLE_EQ(layout.PixelsPerSecond, 10.0);
  EXPECT_EQ(layout.RowsPerBand, 1u);
  ASSERT_EQ(layout.Bands.FirstRow, (std::vector<uint32_t>{ 0, 1 }));
  EXPECT_EQ(layout.Bands.Flags, (std::vector<uint8_t>{ 0, 0 }));
  const TimelineMarks& m = layout.Marks;
  ASSERT_EQ(m.Size(), 4u);
  ExpectMark(m, 0, 0, 0, 0.0, 2.0, 0, 1, 0);
  ExpectMark(m, 1, 0, 0, 2.0, 5.0, 1, 1, 0);
  ExpectMark(m, 2, 0, 0, 5.0, 10.0, 0, 1, 0);
  ExpectMark(m, 3, 1, 0, 1.0, 9.0, 2, 1, 0);
  EXPECT_EQ(m.TypeOffset, (std::vector<std::size_t>{ 0, 1, 2, 3, 4 }));
  EXPECT_EQ(m.TypeTime, (std::vector<double>{ 2.0, 3.0, 5.0, 8.0 }));
}

TEST(TimelineLayout, RunOfTinyStatesMerges)
{
  // 1 px/s, budget 2 px = 2 s. The three states in [10, 12.5] are 0.5, 0.5
  // and 1.5 s: one aggregate with B = 0.5 + 1.5 = 2, C = 0.5, mode B.
  States s;
  s.Add(0, 0, 0, 0.0, 10.0);  // A
  s.Add(0, 1, 0, 10.0, 10.5); // B
  s.Add(0, 2, 0, 10.5, 11.0); // C
  s.Add(0, 1, 0, 11.0, 12.5); // B
  s.Add(0, 0, 0, 12.5, 30.0); // A
  const TimelineLayout layout = Layout(s, Messages(), 1, Window(0.0, 100.0, 100.0, 2.0));
  const TimelineMarks& m = layout.Marks;
  ASSERT_EQ(m.Size(), 3u);
  ExpectMark(m, 0, 0, 0, 0.0, 10.0, 0, 1, 0);
  ExpectMark(m, 1, 0, 0, 10.0, 12.5, 1, 3, TimeAgg);
  ExpectMark(m, 2, 0, 0, 12.5, 30.0, 0, 1, 0);
  EXPECT_EQ(TypesOf(m, 1), (std::map<uint32_t, double>{ { 1, 2.0 }, { 2, 0.5 } }));

  // The same states at 10 px/s are all at least 5 px wide: no aggregate.
  const TimelineLayout zoomed = Layout(s, Messages(), 1, Window(0.0, 100.0, 1000.0, 2.0));
  ASSERT_EQ(zoomed.Marks.Size(), 5u);
  for (std::size_t i = 0; i < 5; ++i)
  {
    EXPECT_EQ(zoomed.Marks.Flags[i], 0);
    EXPECT_EQ(zoomed.Marks.StateCount[i], 1u);
  }
}

TEST(TimelineLayout, WideStateSplitsTheAggregate)
{
  // 1 px/s, budget 2 s: [1.5, 5] (3.5 s) stays plain between two runs.
  // Columns of 2 s from t0: the run after it starts in two columns ([4, 6)
  // and [6, 8)), so it gives one aggregate per column.
  States s;
  s.Add(0, 1, 0, 0.0, 1.0);
  s.Add(0, 2, 0, 1.0, 1.5);
  s.Add(0, 0, 0, 1.5, 5.0);
  s.Add(0, 1, 0, 5.0, 6.0);
  s.Add(0, 2, 0, 6.0, 7.5);
  const TimelineLayout layout = Layout(s, Messages(), 1, Window(0.0, 100.0, 100.0, 2.0));
  const TimelineMarks& m = layout.Marks;
  ASSERT_EQ(m.Size(), 4u);
  ExpectMark(m, 0, 0, 0, 0.0, 1.5, 1, 2, TimeAgg);
  ExpectMark(m, 1, 0, 0, 1.5, 5.0, 0, 1, 0);
  ExpectMark(m, 2, 0, 0, 5.0, 6.0, 1, 1, TimeAgg);
  ExpectMark(m, 3, 0, 0, 6.0, 7.5, 2, 1, TimeAgg);
  EXPECT_EQ(TypesOf(m, 0), (std::map<uint32_t, double>{ { 1, 1.0 }, { 2, 0.5 } }));
}

TEST(TimelineLayout, EveryColumnShowsWhatDominatesInIt)
{
  // Vampir's master timeline at full view: 1 px/s, budget 2 px, so columns
  // of 2 s from t0 = 0. One leaf alternates 0.25 s of type 0 and 0.25 s of
  // type 1 (half and half) in [0, 4), then 0.4 s of type 2 and 0.1 s of
  // type 0 in [4, 8): the type 2 column dominates there. A single mark
  // over [0, 8) would show type 0 or 2 everywhere.
  States s;
  for (int k = 0; k < 8; ++k)
  {
    s.Add(0, 0, 0, 0.5 * k, 0.5 * k + 0.25);
    s.Add(0, 1, 0, 0.5 * k + 0.25, 0.5 * k + 0.5);
  }
  for (int k = 0; k < 8; ++k)
  {
    s.Add(0, 2, 0, 4.0 + 0.5 * k, 4.0 + 0.5 * k + 0.4);
    s.Add(0, 0, 0, 4.0 + 0.5 * k + 0.4, 4.0 + 0.5 * k + 0.5);
  }
  const TimelineLayout layout = Layout(s, Messages(), 1, Window(0.0, 100.0, 100.0, 2.0));
  const TimelineMarks& m = layout.Marks;
  ASSERT_EQ(m.Size(), 4u);
  ExpectMark(m, 0, 0, 0, 0.0, 2.0, 0, 8, TimeAgg); // tie 1 s / 1 s: smallest type
  ExpectMark(m, 1, 0, 0, 2.0, 4.0, 0, 8, TimeAgg);
  ExpectMark(m, 2, 0, 0, 4.0, 6.0, 2, 8, TimeAgg);
  ExpectMark(m, 3, 0, 0, 6.0, 8.0, 2, 8, TimeAgg);
  EXPECT_EQ(TypesOf(m, 2).size(), 2u);
  EXPECT_NEAR(TypesOf(m, 2)[2], 1.6, 1e-12);
  EXPECT_NEAR(TypesOf(m, 2)[0], 0.4, 1e-12);

  // Columns are aligned on the window's begin: from t0 = 1, [1, 3) holds
  // the states starting there.
  const TimelineLayout shifted = Layout(s, Messages(), 1, Window(1.0, 101.0, 100.0, 2.0));
  ASSERT_GE(shifted.Marks.Size(), 1u);
  EXPECT_DOUBLE_EQ(shifted.Marks.Start[0], 1.0);
  EXPECT_DOUBLE_EQ(shifted.Marks.End[0], 3.0);
  EXPECT_EQ(shifted.Marks.StateCount[0], 8u);
}

TEST(TimelineLayout, ManyMessagesBecomeADensity)
{
  // 10 px over [0, 10): 1 px/s. 30 messages from leaf 0 to 1, three per
  // second: 30 lines (3 per column and pair, MaxMessagesPerPixel 3). With a
  // budget of 29 lines they become a density of 10 columns of 3; with 30
  // they stay lines. Sends before the window count in its first column.
  Messages msg;
  for (int k = 0; k < 30; ++k)
  {
    msg.Add(0, 1, k / 3.0, k / 3.0 + 0.1, 10.0 + k);
  }
  msg.Add(0, 1, -0.5, 0.5, 7.0);
  TimelineOptions o = Window(0.0, 10.0, 10.0, 1.0);
  o.MaxMessagesPerPixel = 3;
  o.MaxMessageLines = 31;
  const TimelineLayout lines = Layout(States(), msg, 2, o);
  EXPECT_EQ(lines.Lines.Size(), 31u);
  EXPECT_EQ(lines.Density.Size(), 0u);
  o.MaxMessageLines = 30;
  const TimelineLayout dense = Layout(States(), msg, 2, o);
  EXPECT_EQ(dense.Lines.Size(), 0u);
  ASSERT_EQ(dense.Density.Size(), 10u);
  EXPECT_EQ(dense.Density.Count[0], 4u);
  EXPECT_DOUBLE_EQ(dense.Density.Bytes[0], 7.0 + 10.0 + 11.0 + 12.0);
  for (std::size_t c = 1; c < 10; ++c)
  {
    EXPECT_EQ(dense.Density.Column[c], int64_t(c));
    EXPECT_EQ(dense.Density.Count[c], 3u);
  }
  EXPECT_EQ(dense.Density.MaxCount, 4u);
}

TEST(TimelineLayout, VisibleGapSplitsTheAggregate)
{
  // 1 px/s, budget 2 s: tiny states 1 s apart share an aggregate; a 5 s
  // gap is visible and separates them. A lone tiny state is an aggregate of
  // one (drawn distinctly, never dropped).
  States s;
  s.Add(0, 0, 0, 0.0, 0.5);
  s.Add(0, 1, 0, 1.5, 2.0);
  s.Add(0, 0, 0, 7.0, 7.25);
  const TimelineLayout layout = Layout(s, Messages(), 1, Window(0.0, 100.0, 100.0, 2.0));
  const TimelineMarks& m = layout.Marks;
  ASSERT_EQ(m.Size(), 2u);
  ExpectMark(m, 0, 0, 0, 0.0, 2.0, 0, 2, TimeAgg); // tie 0.5 / 0.5: smallest type
  ExpectMark(m, 1, 0, 0, 7.0, 7.25, 0, 1, TimeAgg);
}

TEST(TimelineLayout, StatesCrossingTheWindowAreClipped)
{
  // Window [10, 20] on 10 px: 1 px/s, budget 1 px.
  States s;
  s.Add(0, 0, 0, 0.0, 5.0);   // before: out
  s.Add(0, 0, 0, 5.0, 12.0);  // clipped to [10, 12]
  s.Add(0, 1, 0, 12.0, 18.0); // inside
  s.Add(0, 0, 0, 18.0, 25.0); // clipped to [18, 20]
  s.Add(0, 1, 0, 25.0, 30.0); // after: out
  s.Add(0, 2, 1, 9.5, 10.25); // depth 1, clipped to 0.25 s: aggregate
  s.Add(0, 2, 1, 13.0, 17.0); // depth 1, plain
  s.Add(0, 3, 1, 20.0, 20.0); // instant at t1: kept, as an aggregate
  s.Add(0, 3, 1, 9.0, 10.0);  // ends at t0: out
  const TimelineLayout layout = Layout(s, Messages(), 1, Window(10.0, 20.0, 10.0, 1.0));
  const TimelineMarks& m = layout.Marks;
  ASSERT_EQ(m.Size(), 6u);
  ExpectMark(m, 0, 0, 0, 10.0, 12.0, 0, 1, 0);
  ExpectMark(m, 1, 0, 0, 12.0, 18.0, 1, 1, 0);
  ExpectMark(m, 2, 0, 0, 18.0, 20.0, 0, 1, 0);
  ExpectMark(m, 3, 0, 1, 10.0, 10.25, 2, 1, TimeAgg);
  ExpectMark(m, 4, 0, 1, 13.0, 17.0, 2, 1, 0);
  ExpectMark(m, 5, 0, 1, 20.0, 20.0, 3, 1, TimeAgg);
  EXPECT_DOUBLE_EQ(m.TypeTime[3], 0.25);

  // Depth 1 only.
  TimelineOptions options = Window(10.0, 20.0, 10.0, 1.0);
  options.Depth = 1;
  const TimelineLayout deep = Layout(s, Messages(), 1, options);
  ASSERT_EQ(deep.Marks.Size(), 3u);
  EXPECT_EQ(deep.Marks.Depth, (std::vector<uint32_t>{ 1, 1, 1 }));
}

TEST(TimelineLayout, ThinRowsMergeIntoBands)
{
  // 4 rows in 20 px with 10 px minimum: 2 bands of 2 rows.
  States s;
  s.Add(0, 0, 0, 0.0, 4.0);  // A on row 0
  s.Add(1, 1, 0, 2.0, 6.0);  // B on row 1, overlapping A
  s.Add(2, 0, 0, 0.0, 10.0); // A on row 2; row 3 is empty
  s.Add(1, 1, 0, 8.0, 9.0);  // B on row 1, 2 s after the band's first mark
  TimelineOptions options = Window(0.0, 10.0, 10.0, 1.0);
  options.ViewHeight = 20.0;
  options.MinRowHeight = 10.0;
  const TimelineLayout layout = Layout(s, Messages(), 4, options);
  EXPECT_EQ(layout.RowsPerBand, 2u);
  EXPECT_EQ(layout.Bands.FirstRow, (std::vector<uint32_t>{ 0, 2 }));
  EXPECT_EQ(layout.Bands.RowCount, (std::vector<uint32_t>{ 2, 2 }));
  EXPECT_EQ(layout.Bands.Flags, (std::vector<uint8_t>{ RowAgg, RowAgg }));
  const TimelineMarks& m = layout.Marks;
  ASSERT_EQ(m.Size(), 3u);
  // [0, 4] A and [2, 6] B overlap: one mark with A = 4, B = 4 (mode A on the tie).
  ExpectMark(m, 0, 0, 0, 0.0, 6.0, 0, 2, RowAgg);
  EXPECT_EQ(TypesOf(m, 0), (std::map<uint32_t, double>{ { 0, 4.0 }, { 1, 4.0 } }));
  ExpectMark(m, 1, 0, 0, 8.0, 9.0, 1, 1, RowAgg);
  ExpectMark(m, 2, 1, 0, 0.0, 10.0, 0, 1, RowAgg);

  // 5 rows in 20 px: still at most 2 bands, so 3 rows per band.
  States five;
  five.Add(4, 0, 0, 0.0, 1.0);
  const TimelineLayout layout5 = Layout(five, Messages(), 5, options);
  EXPECT_EQ(layout5.RowsPerBand, 3u);
  EXPECT_EQ(layout5.Bands.RowCount, (std::vector<uint32_t>{ 3, 2 }));
  ASSERT_EQ(layout5.Marks.Size(), 1u);
  EXPECT_EQ(layout5.Marks.Band[0], 1u);

  // Enough height: one band per row and no row aggregate.
  options.ViewHeight = 40.0;
  const TimelineLayout tall = Layout(s, Messages(), 4, options);
  EXPECT_EQ(tall.RowsPerBand, 1u);
  EXPECT_EQ(tall.Bands.Flags, (std::vector<uint8_t>{ 0, 0, 0, 0 }));
  EXPECT_EQ(tall.Marks.Size(), 4u);
  for (uint8_t flags : tall.Marks.Flags)
  {
    EXPECT_EQ(flags, 0);
  }
}

TEST(TimelineLayout, RowsGroupedByAHierarchyLevel)
{
  // Leaves 0 and 1 share row 0 (say, a node), leaf 2 has row 1.
  States s;
  s.Add(0, 0, 0, 0.0, 5.0);
  s.Add(1, 1, 0, 5.0, 10.0);
  s.Add(2, 0, 0, 0.0, 10.0);
  TimelineOptions options = Window(0.0, 10.0, 10.0, 1.0);
  options.RowOfLeaf = { 0, 0, 1 };
  options.Rows = 2;
  const TimelineLayout layout = Layout(s, Messages(), 3, options);
  EXPECT_EQ(layout.Bands.Flags, (std::vector<uint8_t>{ RowAgg, 0 }));
  const TimelineMarks& m = layout.Marks;
  ASSERT_EQ(m.Size(), 3u);
  // On a band of several leaves, wide pieces merge only when they overlap.
  ExpectMark(m, 0, 0, 0, 0.0, 5.0, 0, 1, RowAgg);
  ExpectMark(m, 1, 0, 0, 5.0, 10.0, 1, 1, RowAgg);
  ExpectMark(m, 2, 1, 0, 0.0, 10.0, 0, 1, 0);
}

TEST(TimelineLayout, MessagesMergePerPixelColumn)
{
  // Window [0, 10] on 10 px: column = floor(send time).
  Messages msg;
  msg.Add(0, 1, 1.1, 2.0, 10.0);  // (0 -> 1, column 1)
  msg.Add(0, 1, 1.5, 3.0, 20.0);  // (0 -> 1, column 1)
  msg.Add(0, 1, 1.9, 2.5, 5.0);   // (0 -> 1, column 1)
  msg.Add(0, 1, 4.0, 5.0, 7.0);   // (0 -> 1, column 4)
  msg.Add(1, 0, 1.2, 1.4, 1.0);   // (1 -> 0, column 1)
  msg.Add(1, 0, 20.0, 21.0, 1.0); // after the window
  msg.Add(1, 0, -5.0, -1.0, 1.0); // before the window
  msg.Add(1, 0, -3.0, 0.5, 2.0);  // sent before, received inside: column -3
  TimelineOptions options = Window(0.0, 10.0, 10.0, 1.0);
  options.MaxMessagesPerPixel = 2;
  const TimelineLayout layout = Layout(States(), msg, 2, options);
  const auto& l = layout.Lines;
  ASSERT_EQ(l.Size(), 4u);
  EXPECT_EQ(l.SenderBand, (std::vector<uint32_t>{ 0, 0, 1, 1 }));
  EXPECT_EQ(l.ReceiverBand, (std::vector<uint32_t>{ 1, 1, 0, 0 }));
  EXPECT_EQ(l.SendTime, (std::vector<double>{ 1.1, 4.0, -3.0, 1.2 }));
  EXPECT_EQ(l.RecvTime, (std::vector<double>{ 3.0, 5.0, 0.5, 1.4 }));
  EXPECT_EQ(l.Count, (std::vector<uint32_t>{ 3, 1, 1, 1 }));
  EXPECT_EQ(l.Bytes, (std::vector<double>{ 35.0, 7.0, 2.0, 1.0 }));
  EXPECT_EQ(l.Flags, (std::vector<uint8_t>{ MsgAgg, 0, 0, 0 }));

  // A budget of 3 per column (or none) keeps the six messages apart.
  options.MaxMessagesPerPixel = 3;
  EXPECT_EQ(Layout(States(), msg, 2, options).Lines.Size(), 6u);
  options.MaxMessagesPerPixel = 0;
  EXPECT_EQ(Layout(States(), msg, 2, options).Lines.Size(), 6u);
  options.Messages = false;
  EXPECT_EQ(Layout(States(), msg, 2, options).Lines.Size(), 0u);

  // Zoomed 10x, the three messages fall in columns 11, 15 and 19: no aggregate.
  options = Window(0.0, 10.0, 100.0, 1.0);
  options.MaxMessagesPerPixel = 2;
  const TimelineLayout zoomed = Layout(States(), msg, 2, options);
  EXPECT_EQ(zoomed.Lines.Size(), 6u);
  for (uint8_t flags : zoomed.Lines.Flags)
  {
    EXPECT_EQ(flags, 0);
  }
}

TEST(TimelineLayout, RejectsBadInput)
{
  States s;
  s.Add(0, 0, 0, 1.0, 0.5);
  EXPECT_THROW(BuildTimelineIndex(s.Rows(), MessageRows(), 1), std::invalid_argument);
  States good;
  good.Add(1, 0, 0, 0.0, 1.0);
  EXPECT_THROW(BuildTimelineIndex(good.Rows(), MessageRows(), 1), std::invalid_argument);
  const TimelineIndex index = BuildTimelineIndex(good.Rows(), MessageRows(), 2);
  EXPECT_THROW(LayoutTimeline(index, good.Rows(), MessageRows(), Window(1.0, 1.0, 10.0, 1.0)),
    std::invalid_argument);
  EXPECT_THROW(LayoutTimeline(index, good.Rows(), MessageRows(), Window(0.0, 1.0, 0.0, 1.0)),
    std::invalid_argument);
  TimelineOptions options = Window(0.0, 1.0, 10.0, 1.0);
  options.RowOfLeaf = { 0, 2 };
  options.Rows = 2;
  EXPECT_THROW(LayoutTimeline(index, good.Rows(), MessageRows(), options), std::invalid_argument);
  options = Window(0.0, 1.0, 10.0, 1.0);
  options.Depth = -2;
  EXPECT_THROW(LayoutTimeline(index, good.Rows(), MessageRows(), options), std::invalid_argument);
}

TEST(TimelineLayout, ProgressAndAbort)
{
  // 4 leaves of 1000 states: the index reports by rows, the layout by bands.
  States s;
  for (uint32_t leaf = 0; leaf < 4; ++leaf)
  {
    for (int k = 0; k < 1000; ++k)
    {
      s.Add(leaf, 0, 0, k, k + 0.5);
    }
  }
  std::vector<double> reported;
  auto record = [&reported](double f)
  {
    reported.push_back(f);
    return true;
  };
  const TimelineIndex index = BuildTimelineIndex(s.Rows(), MessageRows(), 4, record);
  EXPECT_GE(reported.size(), 50u);
  EXPECT_TRUE(std::is_sorted(reported.begin(), reported.end()));
  EXPECT_DOUBLE_EQ(reported.back(), 1.0);
  EXPECT_EQ(index.StateOrder.size(), 4000u);

  reported.clear();
  TimelineOptions options = Window(0.0, 1000.0, 1000.0, 4.0);
  options.Progress = record;
  const TimelineLayout layout = LayoutTimeline(index, s.Rows(), MessageRows(), options);
  EXPECT_GE(reported.size(), 5u); // one per band (4), then the end
  EXPECT_TRUE(std::is_sorted(reported.begin(), reported.end()));
  EXPECT_DOUBLE_EQ(reported.back(), 1.0);

  // A refusal stops either.
  auto refuse = [](double) { return false; };
  EXPECT_THROW(
    BuildTimelineIndex(s.Rows(), MessageRows(), 4, refuse), macroscope::TimelineLayoutAborted);
  options.Progress = refuse;
  EXPECT_THROW(
    LayoutTimeline(index, s.Rows(), MessageRows(), options), macroscope::TimelineLayoutAborted);
}

namespace
{
// Random nested states: per leaf, a sequence of depth-0 states with gaps,
// durations spread over four decades so that some fall below any budget,
// and runs of depth-1 children inside some of them.
States RandomStates(std::mt19937& rng, uint32_t leaves, uint32_t types)
{
  States s;
  std::uniform_real_distribution<double> exponent(-3.0, 1.0);
  std::uniform_int_distribution<uint32_t> type(0, types - 1);
  std::bernoulli_distribution coin(0.5);
  for (uint32_t leaf = 0; leaf < leaves; ++leaf)
  {
    double t = 0.0;
    while (t < 60.0)
    {
      if (coin(rng))
      {
        t += std::pow(10.0, exponent(rng)); // idle gap
      }
      const double start = t;
      const double end = start + std::pow(10.0, exponent(rng));
      s.Add(leaf, type(rng), 0, start, end);
      if (coin(rng))
      {
        double c = start;
        while (true)
        {
          const double cs = c + std::pow(10.0, exponent(rng) - 1.0);
          const double ce = cs + std::pow(10.0, exponent(rng) - 1.0);
          if (ce > end)
          {
            break;
          }
          s.Add(leaf, type(rng), 1, cs, ce);
          c = ce;
        }
      }
      t = end;
    }
  }
  return s;
}

Messages RandomMessages(std::mt19937& rng, uint32_t leaves, std::size_t count)
{
  Messages m;
  std::uniform_int_distribution<uint32_t> leaf(0, leaves - 1);
  std::uniform_real_distribution<double> time(-5.0, 65.0);
  std::uniform_real_distribution<double> latency(0.0, 2.0);
  std::uniform_int_distribution<int> bytes(1, 1000);
  for (std::size_t i = 0; i < count; ++i)
  {
    const double send = time(rng);
    m.Add(leaf(rng), leaf(rng), send, send + latency(rng), bytes(rng));
  }
  return m;
}

// A state clipped to the window, computed on its own.
struct Clipped
{
  uint32_t Band, Depth;
  double Start, End;
  uint32_t Type;
};

std::vector<Clipped> BruteClip(const States& s, const TimelineOptions& o, uint32_t rowsPerBand)
{
  std::vector<Clipped> out;
  for (std::size_t i = 0; i < s.Size(); ++i)
  {
    if (o.Depth >= 0 && s.Depth[i] != uint32_t(o.Depth))
    {
      continue;
    }
    const double start = std::max(s.Start[i], o.WindowBegin);
    const double end = std::min(s.End[i], o.WindowEnd);
    const bool instant = s.Start[i] == s.End[i];
    if ((instant && start == s.Start[i] && end == s.End[i]) || (!instant && start < end))
    {
      const uint32_t row = o.RowOfLeaf.empty() ? s.Location[i] : o.RowOfLeaf[s.Location[i]];
      out.push_back({ row / rowsPerBand, s.Depth[i], start, end, s.Type[i] });
    }
  }
  return out;
}

void CheckInvariants(const States& s, const Messages& msg, uint32_t leaves, TimelineOptions o)
{
  const TimelineLayout layout = Layout(s, msg, leaves, o);
  const TimelineMarks& m = layout.Marks;
  const double pps = o.ViewWidth / (o.WindowEnd - o.WindowBegin);
  const std::vector<Clipped> clipped = BruteClip(s, o, layout.RowsPerBand);

  // Time conservation per (band, depth, type), and state counts per (band, depth).
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, double> expected, drawn;
  std::map<std::pair<uint32_t, uint32_t>, std::size_t> expectedCount, drawnCount;
  for (const Clipped& c : clipped)
  {
    expected[{ c.Band, c.Depth, c.Type }] += c.End - c.Start;
    ++expectedCount[{ c.Band, c.Depth }];
  }
  for (std::size_t i = 0; i < m.Size(); ++i)
  {
    for (const auto& [type, time] : TypesOf(m, i))
    {
      drawn[{ m.Band[i], m.Depth[i], type }] += time;
    }
    drawnCount[{ m.Band[i], m.Depth[i] }] += m.StateCount[i];
  }
  ASSERT_EQ(expected.size(), drawn.size());
  for (const auto& [key, time] : expected)
  {
    ASSERT_TRUE(drawn.count(key));
    EXPECT_NEAR(drawn[key], time, 1e-9 * (1.0 + time));
  }
  EXPECT_EQ(expectedCount, drawnCount);

  // Marks of a band and depth in order, inside the window, never overlapping.
  for (std::size_t i = 0; i < m.Size(); ++i)
  {
    EXPECT_LE(o.WindowBegin, m.Start[i]);
    EXPECT_LE(m.Start[i], m.End[i]);
    EXPECT_LE(m.End[i], o.WindowEnd);
    if (i > 0 && m.Band[i] == m.Band[i - 1] && m.Depth[i] == m.Depth[i - 1])
    {
      if (layout.Bands.Flags[m.Band[i]] == 0)
      {
        EXPECT_GE(m.Start[i], m.End[i - 1]) << "marks " << i - 1 << " and " << i << " overlap";
      }
      else
      {
        EXPECT_GE(m.Start[i], m.Start[i - 1]);
      }
    }
    if (i > 0)
    {
      EXPECT_LE(
        std::make_pair(m.Band[i - 1], m.Depth[i - 1]), std::make_pair(m.Band[i], m.Depth[i]));
    }
  }

  // Plain marks are exactly the wide states of bands of one leaf; every
  // state under a time aggregate there is narrow.
  for (std::size_t i = 0; i < m.Size(); ++i)
  {
    const bool rowAgg = layout.Bands.Flags[m.Band[i]] != 0;
    EXPECT_EQ((m.Flags[i] & RowAgg) != 0, rowAgg);
    if (m.Flags[i] == 0)
    {
      EXPECT_EQ(m.StateCount[i], 1u);
      EXPECT_GE((m.End[i] - m.Start[i]) * pps, o.MinMarkWidth);
    }
    if (!rowAgg)
    {
      for (const Clipped& c : clipped)
      {
        if (c.Band == m.Band[i] && c.Depth == m.Depth[i] && c.Start >= m.Start[i] &&
          c.End <= m.End[i] && (m.Flags[i] & TimeAgg))
        {
          EXPECT_LT((c.End - c.Start) * pps, o.MinMarkWidth);
        }
      }
    }
  }
  // The master timeline, by brute force: on a band of one leaf, the time
  // aggregates of a budget column (the column of their start) hold exactly
  // the narrow states starting in that column, type by type; a time
  // aggregate lies within its column and the next; its Type is the type
  // with the most time in it (smallest id on ties).
  if (o.MinMarkWidth > 0.0)
  {
    const double columnSeconds = o.MinMarkWidth / pps;
    auto columnOf = [&](double t)
    { return static_cast<int64_t>(std::floor((t - o.WindowBegin) / columnSeconds)); };
    std::map<std::tuple<uint32_t, uint32_t, int64_t, uint32_t>, double> narrowTime, aggregated;
    for (const Clipped& c : clipped)
    {
      if (layout.Bands.Flags[c.Band] == 0 && (c.End - c.Start) * pps < o.MinMarkWidth)
      {
        narrowTime[{ c.Band, c.Depth, columnOf(c.Start), c.Type }] += c.End - c.Start;
      }
    }
    for (std::size_t i = 0; i < m.Size(); ++i)
    {
      if (m.Flags[i] != TimeAgg)
      {
        continue;
      }
      const int64_t column = columnOf(m.Start[i]);
      EXPECT_LE(m.End[i], o.WindowBegin + (column + 2) * columnSeconds * (1 + 1e-12) + 1e-12);
      double most = -1.0;
      uint32_t mode = 0;
      for (const auto& [type, time] : TypesOf(m, i))
      {
        aggregated[{ m.Band[i], m.Depth[i], column, type }] += time;
        if (time > most)
        {
          most = time;
          mode = type;
        }
      }
      EXPECT_EQ(m.Type[i], mode);
    }
    ASSERT_EQ(narrowTime.size(), aggregated.size());
    for (const auto& [key, time] : narrowTime)
    {
      ASSERT_TRUE(aggregated.count(key));
      EXPECT_NEAR(aggregated[key], time, 1e-9 * (1.0 + time));
    }
  }

  std::size_t wide = 0, plain = 0;
  for (const Clipped& c : clipped)
  {
    wide += layout.Bands.Flags[c.Band] == 0 && (c.End - c.Start) * pps >= o.MinMarkWidth;
  }
  for (uint8_t flags : m.Flags)
  {
    plain += flags == 0;
  }
  EXPECT_EQ(wide, plain);

  // Messages: every message reaching into the window is counted once, and
  // lines aggregate only groups over the budget.
  std::map<std::tuple<uint32_t, uint32_t, int64_t>, std::pair<std::size_t, double>> groups;
  for (std::size_t i = 0; i < msg.Sender.size(); ++i)
  {
    const double lo = std::min(msg.SendTime[i], msg.RecvTime[i]);
    const double hi = std::max(msg.SendTime[i], msg.RecvTime[i]);
    if (lo <= o.WindowEnd && hi >= o.WindowBegin)
    {
      const auto key =
        std::make_tuple(msg.Sender[i] / layout.RowsPerBand, msg.Receiver[i] / layout.RowsPerBand,
          static_cast<int64_t>(std::floor((msg.SendTime[i] - o.WindowBegin) * pps)));
      ++groups[key].first;
      groups[key].second += msg.Bytes[i];
    }
  }
  std::size_t expectedLines = 0, total = 0;
  for (const auto& [key, group] : groups)
  {
    expectedLines += group.first > o.MaxMessagesPerPixel ? 1 : group.first;
    total += group.first;
  }
  const auto& l = layout.Lines;
  EXPECT_EQ(l.Size(), expectedLines);
  EXPECT_EQ(std::accumulate(l.Count.begin(), l.Count.end(), std::size_t(0)), total);
  for (std::size_t i = 0; i < l.Size(); ++i)
  {
    const auto key = std::make_tuple(l.SenderBand[i], l.ReceiverBand[i],
      static_cast<int64_t>(std::floor((l.SendTime[i] - o.WindowBegin) * pps)));
    ASSERT_TRUE(groups.count(key));
    const bool aggregated = groups[key].first > o.MaxMessagesPerPixel;
    EXPECT_EQ(l.Flags[i] == MsgAgg, aggregated);
    if (aggregated)
    {
      EXPECT_EQ(l.Count[i], groups[key].first);
      EXPECT_DOUBLE_EQ(l.Bytes[i], groups[key].second);
    }
  }
  EXPECT_EQ(layout.Density.Size(), 0u);

  // The same window with a line budget under those lines: a density that
  // counts every message once, in the column of its send time (clamped to
  // the window), bytes summed; no line.
  if (expectedLines > 0)
  {
    o.MaxMessageLines = expectedLines - 1;
    const TimelineLayout dense = Layout(s, msg, leaves, o);
    EXPECT_EQ(dense.Lines.Size(), 0u);
    std::map<int64_t, std::pair<uint32_t, double>> columns;
    const int64_t last = static_cast<int64_t>(std::ceil(o.ViewWidth)) - 1;
    for (std::size_t i = 0; i < msg.Sender.size(); ++i)
    {
      const double lo = std::min(msg.SendTime[i], msg.RecvTime[i]);
      const double hi = std::max(msg.SendTime[i], msg.RecvTime[i]);
      if (lo <= o.WindowEnd && hi >= o.WindowBegin)
      {
        const int64_t column = std::clamp<int64_t>(
          static_cast<int64_t>(std::floor((msg.SendTime[i] - o.WindowBegin) * pps)), 0, last);
        ++columns[column].first;
        columns[column].second += msg.Bytes[i];
      }
    }
    const auto& d = dense.Density;
    ASSERT_EQ(d.Size(), columns.size());
    uint32_t most = 0;
    std::size_t k = 0;
    for (const auto& [column, entry] : columns)
    {
      EXPECT_EQ(d.Column[k], column);
      EXPECT_EQ(d.Count[k], entry.first);
      EXPECT_NEAR(d.Bytes[k], entry.second, 1e-9 * entry.second);
      most = std::max(most, entry.first);
      ++k;
    }
    EXPECT_EQ(d.MaxCount, most);
    EXPECT_EQ(std::accumulate(d.Count.begin(), d.Count.end(), std::size_t(0)), total);
    // Lines come back at their budget.
    o.MaxMessageLines = expectedLines;
    EXPECT_EQ(Layout(s, msg, leaves, o).Lines.Size(), expectedLines);
  }
}
}

TEST(TimelineLayout, RandomInvariants)
{
  std::mt19937 rng(20261121);
  for (int trial = 0; trial < 40; ++trial)
  {
    const uint32_t leaves = 1 + trial % 9;
    const States s = RandomStates(rng, leaves, 4);
    const Messages msg = RandomMessages(rng, leaves, 200);
    std::uniform_real_distribution<double> when(-5.0, 65.0);
    double t0 = when(rng), t1 = when(rng);
    if (t0 > t1)
    {
      std::swap(t0, t1);
    }
    t1 += 0.01;
    TimelineOptions o = Window(t0, t1, 50.0 + 50.0 * (trial % 20), 1.0 + trial % 3);
    o.MaxMessagesPerPixel = 1 + trial % 3;
    o.ViewHeight = 30.0;
    o.MinRowHeight = trial % 2 ? 10.0 : 1.0; // odd trials: bands of up to 3 rows
    o.Depth = trial % 5 == 4 ? 1 : -1;
    SCOPED_TRACE("trial " + std::to_string(trial));
    CheckInvariants(s, msg, leaves, o);
  }
}

TEST(TimelineLayout, AggregatesAppearExactlyWhenTheBudgetIsExceeded)
{
  // A budget just under the narrowest visible state, with room for every
  // row and every message: all plain, nothing merged. Just over it: the
  // narrowest state becomes (part of) an aggregate.
  std::mt19937 rng(7);
  for (int trial = 0; trial < 10; ++trial)
  {
    const uint32_t leaves = 1 + trial % 4;
    const States s = RandomStates(rng, leaves, 3);
    const Messages msg = RandomMessages(rng, leaves, 50);
    TimelineOptions o = Window(10.0, 30.0, 800.0, 1.0);
    o.MaxMessagesPerPixel = 50;
    const std::vector<Clipped> clipped = BruteClip(s, o, 1);
    ASSERT_FALSE(clipped.empty());
    double narrowest = std::numeric_limits<double>::infinity();
    for (const Clipped& c : clipped)
    {
      narrowest = std::min(narrowest, c.End - c.Start);
    }
    const double pps = 800.0 / 20.0;
    o.MinMarkWidth = 0.999 * narrowest * pps;
    const TimelineLayout within = Layout(s, msg, leaves, o);
    EXPECT_EQ(within.Marks.Size(), clipped.size());
    for (uint8_t flags : within.Marks.Flags)
    {
      EXPECT_EQ(flags, 0);
    }
    for (uint8_t flags : within.Lines.Flags)
    {
      EXPECT_EQ(flags, 0);
    }
    for (uint8_t flags : within.Bands.Flags)
    {
      EXPECT_EQ(flags, 0);
    }

    o.MinMarkWidth = 1.001 * narrowest * pps;
    const TimelineLayout over = Layout(s, msg, leaves, o);
    EXPECT_LT(over.Marks.Size(), clipped.size() + 1);
    EXPECT_EQ(std::count(over.Marks.Flags.begin(), over.Marks.Flags.end(), TimeAgg) > 0, true);
    CheckInvariants(s, msg, leaves, o);
  }
}

TEST(TimelineLayout, InputOrderDoesNotMatter)
{
  // The readers emit states in Leave order; any permutation gives the same marks.
  std::mt19937 rng(11);
  const States s = RandomStates(rng, 5, 4);
  std::vector<std::size_t> order(s.Size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  States shuffled;
  for (std::size_t i : order)
  {
    shuffled.Add(s.Location[i], s.Type[i], s.Depth[i], s.Start[i], s.End[i]);
  }
  TimelineOptions o = Window(5.0, 45.0, 300.0, 2.0);
  o.ViewHeight = 20.0;
  o.MinRowHeight = 8.0; // bands of 3 and 2 leaves
  const TimelineLayout a = Layout(s, Messages(), 5, o);
  const TimelineLayout b = Layout(shuffled, Messages(), 5, o);
  EXPECT_EQ(a.RowsPerBand, 3u);
  EXPECT_GT(a.Marks.Size(), 0u);
  EXPECT_EQ(a.Marks.Band, b.Marks.Band);
  EXPECT_EQ(a.Marks.Depth, b.Marks.Depth);
  EXPECT_EQ(a.Marks.Start, b.Marks.Start);
  EXPECT_EQ(a.Marks.End, b.Marks.End);
  EXPECT_EQ(a.Marks.Type, b.Marks.Type);
  EXPECT_EQ(a.Marks.StateCount, b.Marks.StateCount);
  EXPECT_EQ(a.Marks.Flags, b.Marks.Flags);
  EXPECT_EQ(a.Marks.TypeOffset, b.Marks.TypeOffset);
  EXPECT_EQ(a.Marks.TypeId, b.Marks.TypeId);
  for (std::size_t k = 0; k < a.Marks.TypeTime.size(); ++k)
  {
    EXPECT_NEAR(a.Marks.TypeTime[k], b.Marks.TypeTime[k], 1e-12);
  }
}

TEST(TimelineLayout, ThreadsDoNotMatter)
{
  // The index's leaves and the layout's bands are shared out among threads;
  // one thread and four give the same arrays, with nested states given in
  // Leave order (the readers' order: children before their parent).
  std::mt19937 rng(2026);
  const States nested = RandomStates(rng, 7, 5);
  std::vector<std::size_t> order(nested.Size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
    [&](std::size_t x, std::size_t y)
    {
      return std::make_pair(nested.Location[x], nested.End[x]) <
        std::make_pair(nested.Location[y], nested.End[y]);
    });
  States s;
  for (std::size_t i : order)
  {
    s.Add(nested.Location[i], nested.Type[i], nested.Depth[i], nested.Start[i], nested.End[i]);
  }
  const Messages msg = RandomMessages(rng, 7, 300);
  const TimelineIndex one = BuildTimelineIndex(s.Rows(), msg.Rows(), 7, {}, 1);
  const TimelineIndex four = BuildTimelineIndex(s.Rows(), msg.Rows(), 7, {}, 4);
  EXPECT_EQ(one.StateOrder, four.StateOrder);
  EXPECT_EQ(one.MaxEnd, four.MaxEnd);
  EXPECT_EQ(one.RunBegin, four.RunBegin);
  EXPECT_EQ(one.RunDepth, four.RunDepth);
  EXPECT_EQ(one.LeafRuns, four.LeafRuns);
  for (std::size_t p = 1; p < one.StateOrder.size(); ++p)
  {
    const std::size_t x = one.StateOrder[p - 1], y = one.StateOrder[p];
    if (s.Location[x] == s.Location[y])
    {
      EXPECT_LE(std::make_tuple(s.Depth[x], s.Start[x], s.End[x], x),
        std::make_tuple(s.Depth[y], s.Start[y], s.End[y], y));
    }
  }
  TimelineOptions o = Window(3.0, 50.0, 400.0, 2.0);
  o.ViewHeight = 20.0;
  o.MinRowHeight = 5.0; // bands of 2 leaves
  o.Threads = 1;
  const TimelineLayout a = LayoutTimeline(one, s.Rows(), msg.Rows(), o);
  o.Threads = 4;
  const TimelineLayout b = LayoutTimeline(four, s.Rows(), msg.Rows(), o);
  EXPECT_GT(a.Marks.Size(), 0u);
  EXPECT_EQ(a.Marks.Band, b.Marks.Band);
  EXPECT_EQ(a.Marks.Start, b.Marks.Start);
  EXPECT_EQ(a.Marks.End, b.Marks.End);
  EXPECT_EQ(a.Marks.Type, b.Marks.Type);
  EXPECT_EQ(a.Marks.TypeOffset, b.Marks.TypeOffset);
  EXPECT_EQ(a.Marks.TypeTime, b.Marks.TypeTime);
  EXPECT_EQ(a.Lines.SendTime, b.Lines.SendTime);
}

TEST(TimelineLayout, MessagesSortedOnThreadsAsOnOne)
{
  // Past 100,000 messages the send-time order is sorted in runs on the
  // threads and merged: the same order as one thread's, ties by row.
  std::mt19937 rng(99);
  Messages msg = RandomMessages(rng, 4, 150000);
  for (int k = 0; k < 1000; ++k)
  {
    msg.Add(k % 4, (k + 1) % 4, 1.5, 2.0, 1.0); // equal send times
  }
  const TimelineIndex one = BuildTimelineIndex(StateRows(), msg.Rows(), 4, {}, 1);
  const TimelineIndex three = BuildTimelineIndex(StateRows(), msg.Rows(), 4, {}, 3);
  EXPECT_EQ(one.MessageOrder, three.MessageOrder);
  for (std::size_t p = 1; p < one.MessageOrder.size(); ++p)
  {
    const std::size_t x = one.MessageOrder[p - 1], y = one.MessageOrder[p];
    ASSERT_TRUE(msg.SendTime[x] < msg.SendTime[y] || (msg.SendTime[x] == msg.SendTime[y] && x < y));
  }
}
