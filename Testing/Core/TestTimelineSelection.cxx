// The Timeline's resource and type selection (docs/linked-views.md): a
// layout with leaves left out (RowOfLeaf NoResource) and types left out
// (KeepType) equals the layout of the trace from which those rows were
// removed beforehand, on random traces, with and without merged rows.
#include "ResourceHierarchy.h"
#include "TimelineLayout.h"
#include "TraceRowsBuilders.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace macroscope;
using macroscope::testing::Messages;
using macroscope::testing::States;

namespace
{
void ExpectSame(const TimelineLayout& a, const TimelineLayout& b)
{
  EXPECT_EQ(a.Bands.FirstRow, b.Bands.FirstRow);
  EXPECT_EQ(a.Bands.Flags, b.Bands.Flags);
  EXPECT_EQ(a.Marks.Band, b.Marks.Band);
  EXPECT_EQ(a.Marks.Depth, b.Marks.Depth);
  EXPECT_EQ(a.Marks.Start, b.Marks.Start);
  EXPECT_EQ(a.Marks.End, b.Marks.End);
  EXPECT_EQ(a.Marks.Type, b.Marks.Type);
  EXPECT_EQ(a.Marks.StateCount, b.Marks.StateCount);
  EXPECT_EQ(a.Marks.Flags, b.Marks.Flags);
  EXPECT_EQ(a.Marks.TypeId, b.Marks.TypeId);
  EXPECT_EQ(a.Marks.TypeTime, b.Marks.TypeTime);
  EXPECT_EQ(a.Lines.SenderBand, b.Lines.SenderBand);
  EXPECT_EQ(a.Lines.ReceiverBand, b.Lines.ReceiverBand);
  EXPECT_EQ(a.Lines.SendTime, b.Lines.SendTime);
  EXPECT_EQ(a.Lines.Count, b.Lines.Count);
}
}

TEST(TimelineSelection, EqualsTheTraceWithoutTheRows)
{
  const uint32_t leaves = 6;
  const std::vector<uint32_t> kept{ 1, 3, 4 }; // leaf -> row 0, 1, 2
  const std::vector<bool> keepType{ true, false, true, false, false };
  std::mt19937 random(7);
  std::uniform_real_distribution<double> time(0.0, 10.0);
  for (int trial = 0; trial < 40; ++trial)
  {
    States all, selected;
    Messages allMessages, selectedMessages;
    std::vector<uint32_t> rowOf(leaves, NoResource);
    for (uint32_t r = 0; r < kept.size(); ++r)
    {
      rowOf[kept[r]] = r;
    }
    for (int i = 0; i < 200; ++i)
    {
      const uint32_t leaf = random() % leaves;
      const uint32_t type = random() % keepType.size();
      const uint32_t depth = random() % 2;
      const double a = time(random);
      const double b = a + time(random) / 20.0;
      all.Add(leaf, type, depth, a, b);
      if (rowOf[leaf] != NoResource && keepType[type])
      {
        selected.Add(rowOf[leaf], type, depth, a, b);
      }
      const uint32_t to = random() % leaves;
      allMessages.Add(leaf, to, a, b, 8.0);
      if (rowOf[leaf] != NoResource && rowOf[to] != NoResource)
      {
        selectedMessages.Add(rowOf[leaf], rowOf[to], a, b, 8.0);
      }
    }
    TimelineOptions options;
    options.WindowBegin = 1.0;
    options.WindowEnd = 9.0;
    options.ViewWidth = 200.0;
    options.MinMarkWidth = 2.0;
    options.ViewHeight = trial % 2 ? 10.0 : 300.0; // 10: three rows merge into two bands
    options.MinRowHeight = 5.0;
    options.Rows = static_cast<uint32_t>(kept.size());
    options.KeepType = keepType;
    options.RowOfLeaf = rowOf;
    const auto index = BuildTimelineIndex(all.Rows(), allMessages.Rows(), leaves);
    const auto layout = LayoutTimeline(index, all.Rows(), allMessages.Rows(), options);

    TimelineOptions plain = options;
    plain.KeepType.clear();
    plain.RowOfLeaf.clear();
    plain.Rows = 0;
    const auto reference = BuildTimelineIndex(
      selected.Rows(), selectedMessages.Rows(), static_cast<uint32_t>(kept.size()));
    const auto expected =
      LayoutTimeline(reference, selected.Rows(), selectedMessages.Rows(), plain);
    ASSERT_GT(expected.Marks.Size(), 0u);
    ExpectSame(layout, expected);
  }
}

TEST(TimelineSelection, RowsMustStillExist)
{
  States states;
  states.Add(0, 0, 0, 0.0, 1.0);
  Messages none;
  TimelineOptions options;
  options.WindowBegin = 0.0;
  options.WindowEnd = 1.0;
  options.RowOfLeaf = { NoResource, 3 };
  options.Rows = 2;
  const auto index = BuildTimelineIndex(states.Rows(), none.Rows(), 2);
  EXPECT_THROW(LayoutTimeline(index, states.Rows(), none.Rows(), options), std::invalid_argument);
}
