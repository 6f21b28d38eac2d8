// What the trace statistics tables list beside the counts
// (Core/TraceStatisticsTables.h): the types listed and the
// messages' line, the time bins.
#include "TraceStatisticsTables.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace macroscope;

TEST(TraceStatisticsTables, TypesListedAndTheMessagesLine)
{
  const TypeListing one = ListTypes({ "state", "link", "event", "container", "variable", "state" });
  EXPECT_EQ(one.Listed, (std::vector<uint32_t>{ 0, 2, 4, 5 }));
  EXPECT_EQ(one.IsState, (std::vector<bool>{ true, false, false, false, false, true }));
  EXPECT_EQ(one.MessageType, 1);
  // Two link types: the line cannot take either name.
  EXPECT_EQ(ListTypes({ "link", "state", "link" }).MessageType, -1);
  EXPECT_EQ(ListTypes({ "state" }).MessageType, -1);
}

TEST(TraceStatisticsTables, BinsCoverTheWindow)
{
  const auto bins = TimeBins(1.0, 2.0, 4);
  ASSERT_EQ(bins.size(), 4u);
  EXPECT_DOUBLE_EQ(bins[0].first, 1.0);
  EXPECT_DOUBLE_EQ(bins[0].second, 1.25);
  EXPECT_DOUBLE_EQ(bins[2].first, 1.5);
  EXPECT_EQ(bins[3].second, 2.0); // exactly the end
  for (std::size_t b = 1; b < bins.size(); ++b)
  {
    EXPECT_EQ(bins[b].first, bins[b - 1].second);
  }
  // A width that does not divide exactly still ends at the end.
  EXPECT_EQ(TimeBins(0.0, 0.3, 7).back().second, 0.3);
}
