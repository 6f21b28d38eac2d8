// The logical timeline's geometry (docs/logical-views.md) on hand-computed
// cases: rows, equal boxes, aggregates at half height, spacing by the pixel
// budget, message lines and their budgets, windows, step ticks, the metric
// overview's bars and the colour map's stops.
#include "LogicalTimelineLayout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace macroscope;

namespace
{
// Locations 0, 2 and 5 (1 has no event): steps 0..3, aggregates on even steps.
LogicalEventColumns HandEvents()
{
  LogicalEventColumns e;
  auto add = [&](int32_t location, int64_t step, int32_t kind, double metric)
  {
    e.Location.push_back(location);
    e.GlobalStep.push_back(step);
    e.Kind.push_back(kind);
    e.Metric.push_back(metric);
  };
  add(0, 0, 0, 0.0);
  add(0, 1, 1, 1.0); // send to 2
  add(2, 0, 0, 0.5);
  add(2, 1, 2, 2.0); // receives it at the same step (a vertical line)
  add(2, 3, 2, 4.0); // receive from 5
  add(5, 2, 0, 3.0); // its send at step 1 has no event row: only the message is known
  add(5, 3, 1, 1.0);
  return e;
}

LogicalMessageColumns HandMessages()
{
  LogicalMessageColumns m;
  m.Sender = { 0, 5 };
  m.Receiver = { 2, 2 };
  m.SendStep = { 1, 1 };
  m.RecvStep = { 1, 3 };
  return m;
}
}

TEST(LogicalTimelineLayout, StepColumnsWithAndWithoutAggregates)
{
  const StepColumns all = StepColumns::Make(2, 9, true);
  EXPECT_EQ(all.Count(), 8);
  EXPECT_EQ(all.ColumnOf(2), 0);
  EXPECT_EQ(all.ColumnOf(9), 7);
  EXPECT_EQ(all.ColumnOf(10), -1);
  EXPECT_EQ(all.StepOf(3), 5);
  const StepColumns odd = StepColumns::Make(2, 9, false);
  EXPECT_EQ(odd.First, 3);
  EXPECT_EQ(odd.Last, 9);
  EXPECT_EQ(odd.Count(), 4); // 3 5 7 9
  EXPECT_EQ(odd.ColumnOf(4), -1);
  EXPECT_EQ(odd.ColumnOf(7), 2);
  EXPECT_EQ(odd.StepOf(3), 9);
  EXPECT_EQ(StepColumns::Make(4, 4, false).Count(), 0);
}

TEST(LogicalTimelineLayout, BoxesOnTheGrid)
{
  LogicalTimelineOptions options;
  options.Width = 400.0;
  options.Height = 300.0;
  const auto layout = LayoutLogicalTimeline(HandEvents(), HandMessages(), options);
  ASSERT_EQ(layout.RowLocation, (std::vector<int32_t>{ 0, 2, 5 }));
  EXPECT_EQ(layout.RowOf(1), -1);
  EXPECT_EQ(layout.RowOf(5), 2);
  EXPECT_EQ(layout.Columns.Count(), 4);
  EXPECT_DOUBLE_EQ(layout.ColumnWidth, 100.0);
  EXPECT_DOUBLE_EQ(layout.RowHeight, 100.0);
  ASSERT_TRUE(layout.Spaced);
  EXPECT_DOUBLE_EQ(layout.Inset, 3.0); // 10 % of 100, at most 3
  EXPECT_EQ(layout.MetricRange, std::make_pair(0.0, 4.0));
  ASSERT_EQ(layout.Boxes.size(), 7u);
  // Event 4: location 2 (row 1), step 3 (column 3), a receive: full cell.
  const LogicalBox& receive = layout.Boxes[4];
  EXPECT_EQ(receive.Event, 4);
  EXPECT_DOUBLE_EQ(receive.X0, 303.0);
  EXPECT_DOUBLE_EQ(receive.X1, 397.0);
  EXPECT_DOUBLE_EQ(receive.Y1, 197.0);
  EXPECT_DOUBLE_EQ(receive.Y0, 103.0);
  // Event 5: location 5 (row 2), step 2, an aggregate: half the inset cell, centred.
  const LogicalBox& aggregate = layout.Boxes[5];
  EXPECT_DOUBLE_EQ(aggregate.X0, 203.0);
  EXPECT_DOUBLE_EQ(aggregate.Y0, 50.0 - 23.5);
  EXPECT_DOUBLE_EQ(aggregate.Y1, 50.0 + 23.5);
  // Both messages drawn, centre to centre.
  ASSERT_EQ(layout.Messages.size(), 2u);
  EXPECT_FALSE(layout.MessagesOmitted);
  const LogicalLine& second = layout.Messages[1];
  EXPECT_DOUBLE_EQ(second.X0, 150.0);
  EXPECT_DOUBLE_EQ(second.Y0, 50.0);
  EXPECT_DOUBLE_EQ(second.X1, 350.0);
  EXPECT_DOUBLE_EQ(second.Y1, 150.0);
}

TEST(LogicalTimelineLayout, SmallBoxesHaveNoSpacing)
{
  LogicalTimelineOptions options;
  options.Width = 28.0; // 7 pixels per column: under the 8 pixel budget
  options.Height = 300.0;
  const auto layout = LayoutLogicalTimeline(HandEvents(), HandMessages(), options);
  EXPECT_FALSE(layout.Spaced);
  EXPECT_DOUBLE_EQ(layout.Boxes[1].X0, 7.0);
  EXPECT_DOUBLE_EQ(layout.Boxes[1].X1, 14.0);
}

TEST(LogicalTimelineLayout, CommunicationStepsOnly)
{
  LogicalTimelineOptions options;
  options.Width = 200.0;
  options.Height = 300.0;
  options.ShowAggregates = false;
  const auto layout = LayoutLogicalTimeline(HandEvents(), HandMessages(), options);
  EXPECT_EQ(layout.Columns.Count(), 2); // steps 1 and 3
  ASSERT_EQ(layout.Boxes.size(), 4u);   // the aggregates are not drawn
  for (const LogicalBox& box : layout.Boxes)
  {
    EXPECT_NE(HandEvents().Kind[box.Event], 0);
  }
  // The message 1 -> 3 goes from column 0's centre to column 1's.
  EXPECT_DOUBLE_EQ(layout.Messages[1].X0, 50.0);
  EXPECT_DOUBLE_EQ(layout.Messages[1].X1, 150.0);
}

TEST(LogicalTimelineLayout, MessageBudgets)
{
  LogicalTimelineOptions options;
  options.Width = 400.0;
  options.Height = 300.0;
  options.MaxMessages = 1;
  auto layout = LayoutLogicalTimeline(HandEvents(), HandMessages(), options);
  EXPECT_EQ(layout.MessagesInWindow, 2u);
  EXPECT_TRUE(layout.MessagesOmitted);
  EXPECT_TRUE(layout.Messages.empty());
  options.MaxMessages = 2;
  EXPECT_EQ(LayoutLogicalTimeline(HandEvents(), HandMessages(), options).Messages.size(), 2u);
  options.MaxMessages = 0;
  EXPECT_TRUE(LayoutLogicalTimeline(HandEvents(), HandMessages(), options).MessagesOmitted);
  // Rows under the 2 pixel rule: 3 rows in 5 pixels.
  options.MaxMessages = 100;
  options.Height = 5.0;
  layout = LayoutLogicalTimeline(HandEvents(), HandMessages(), options);
  EXPECT_TRUE(layout.MessagesOmitted);
}

TEST(LogicalTimelineLayout, WindowClipsMessages)
{
  LogicalTimelineOptions options;
  options.Width = 200.0;
  options.Height = 300.0;
  options.FirstStep = 2;
  options.LastStep = 99; // clamped to the trace's last step, 3
  const auto layout = LayoutLogicalTimeline(HandEvents(), HandMessages(), options);
  EXPECT_EQ(layout.Columns.First, 2);
  EXPECT_EQ(layout.Columns.Last, 3);
  EXPECT_EQ(layout.Boxes.size(), 3u); // events at steps 2 and 3
  // Message 0 (1 -> 1) is outside; message 1 (1 -> 3, rows 2 -> 1) is cut at x = 0.
  ASSERT_EQ(layout.Messages.size(), 1u);
  const LogicalLine& line = layout.Messages[0];
  EXPECT_EQ(line.Message, 1);
  // Unclipped: x from -50 (step 1) to 150 (step 3), y from 50 to 150.
  EXPECT_DOUBLE_EQ(line.X0, 0.0);
  EXPECT_DOUBLE_EQ(line.Y0, 75.0);
  EXPECT_DOUBLE_EQ(line.X1, 150.0);
  EXPECT_DOUBLE_EQ(line.Y1, 150.0);
}

TEST(LogicalTimelineLayout, BadInput)
{
  LogicalEventColumns events = HandEvents();
  events.Metric.pop_back();
  EXPECT_THROW(LayoutLogicalTimeline(events, {}, {}), std::invalid_argument);
  LogicalTimelineOptions options;
  options.Width = 0.0;
  EXPECT_THROW(LayoutLogicalTimeline(HandEvents(), {}, options), std::invalid_argument);
  // No event: no row, no column, nothing drawn.
  const auto empty = LayoutLogicalTimeline({}, {}, {});
  EXPECT_TRUE(empty.RowLocation.empty());
  EXPECT_EQ(empty.Columns.Count(), 0);
}

TEST(LogicalTimelineLayout, StepTicksKeepTheirSpacing)
{
  // 100 columns over 500 pixels: 5 pixels each, labels 40 apart -> every 10th.
  const auto ticks = StepTicks(StepColumns::Make(0, 99, true), 500.0, 40.0);
  ASSERT_EQ(ticks.size(), 10u);
  EXPECT_EQ(ticks[1], 10);
  // 4 columns over 400 pixels: every column.
  EXPECT_EQ(
    StepTicks(StepColumns::Make(1, 7, false), 400.0, 40.0), (std::vector<int64_t>{ 1, 3, 5, 7 }));
  // 30 columns of 10 pixels: every 5th (2 x 10 = 20 < 40 <= 5 x 10).
  EXPECT_EQ(StepTicks(StepColumns::Make(0, 29, true), 300.0, 40.0).size(), 6u);
}

TEST(LogicalTimelineLayout, MetricBars)
{
  const auto bars = LayoutMetricBars({ 2.0, 8.0, 0.0, -1.0, NAN, 4.0 }, 10, 600.0, 200.0);
  ASSERT_EQ(bars.size(), 6u);
  EXPECT_EQ(bars[0].Step, 10);
  EXPECT_DOUBLE_EQ(bars[0].Height, 50.0);
  EXPECT_DOUBLE_EQ(bars[1].Height, 200.0);
  EXPECT_DOUBLE_EQ(bars[2].Height, 0.0);
  EXPECT_DOUBLE_EQ(bars[3].Height, 0.0);
  EXPECT_DOUBLE_EQ(bars[4].Height, 0.0);
  EXPECT_DOUBLE_EQ(bars[5].Height, 100.0);
  EXPECT_DOUBLE_EQ(bars[5].X0, 500.0);
  EXPECT_DOUBLE_EQ(bars[5].X1, 600.0);
}

TEST(LogicalTimelineLayout, MetricColorStops)
{
  EXPECT_EQ(MetricColor(0.0), (std::array<unsigned char, 3>{ { 255, 255, 204 } }));
  EXPECT_EQ(MetricColor(0.5), (std::array<unsigned char, 3>{ { 253, 141, 60 } }));
  EXPECT_EQ(MetricColor(1.0), (std::array<unsigned char, 3>{ { 189, 0, 38 } }));
  EXPECT_EQ(MetricColor(2.0), MetricColor(1.0));
  EXPECT_EQ(MetricColor(NAN), (std::array<unsigned char, 3>{ { 160, 160, 160 } }));
  // Halfway along the first segment.
  EXPECT_EQ(MetricColor(0.25), (std::array<unsigned char, 3>{ { 254, 198, 132 } }));
}

TEST(LogicalTimelineLayout, ProgressAndAbort)
{
  LogicalTimelineOptions options;
  std::vector<double> reported;
  options.Progress = [&reported](double f)
  {
    reported.push_back(f);
    return true;
  };
  const auto layout = LayoutLogicalTimeline(HandEvents(), HandMessages(), options);
  EXPECT_EQ(layout.Boxes.size(), 7u);
  ASSERT_GE(reported.size(), 14u); // 7 events, two loops: every event reported
  EXPECT_TRUE(std::is_sorted(reported.begin(), reported.end()));
  EXPECT_DOUBLE_EQ(reported.back(), 1.0);

  // A refusal at the second value stops the layout.
  int calls = 0;
  options.Progress = [&calls](double) { return ++calls < 2; };
  EXPECT_THROW(LayoutLogicalTimeline(HandEvents(), HandMessages(), options), LogicalLayoutAborted);
  EXPECT_EQ(calls, 2);
}
