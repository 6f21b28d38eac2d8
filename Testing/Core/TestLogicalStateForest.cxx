// The states of each location as a forest (Core/LogicalTimeInternal.h),
// which Logical Time's communication events and caller merges search: the
// order of the states, their parents, the innermost state at a time and
// the positions of the rows, on small traces worked out by hand.
#include "LogicalTimeInternal.h"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

namespace
{
using macroscope::logical::LogicalTimeAborted;
using macroscope::logical::TraceInput;
using macroscope::logical::detail::ProgressGate;
using macroscope::logical::detail::StateForest;

void AddState(TraceInput& in, int32_t location, int32_t depth, double start, double end)
{
  in.StateLocation.push_back(location);
  in.StateType.push_back(0);
  in.StateDepth.push_back(depth);
  in.StateStart.push_back(start);
  in.StateEnd.push_back(end);
}

// Location 0: main [0, 10] holding f [1, 4] (holding g [2, 3]) and h [5, 9];
// location 1: k [0, 2] then m [2, 6]. Rows are given out of order.
TraceInput TwoLocations()
{
  TraceInput in;
  in.Locations = 2;
  AddState(in, 0, 2, 2.0, 3.0);  // row 0: g
  AddState(in, 0, 1, 5.0, 9.0);  // row 1: h
  AddState(in, 0, 0, 0.0, 10.0); // row 2: main
  AddState(in, 1, 0, 0.0, 2.0);  // row 3: k
  AddState(in, 0, 1, 1.0, 4.0);  // row 4: f
  AddState(in, 1, 0, 2.0, 6.0);  // row 5: m
  return in;
}
}

TEST(LogicalStateForest, SortsEachLocationByStartAndLinksTheEnclosingState)
{
  const StateForest forest(TwoLocations());
  EXPECT_EQ(forest.Offset, (std::vector<std::size_t>{ 0, 4, 6 }));
  // main, f, g, h on location 0; k, m on location 1.
  EXPECT_EQ(forest.Order, (std::vector<int64_t>{ 2, 4, 0, 1, 3, 5 }));
  EXPECT_EQ(forest.Start, (std::vector<double>{ 0.0, 1.0, 2.0, 5.0, 0.0, 2.0 }));
  EXPECT_EQ(forest.End, (std::vector<double>{ 10.0, 4.0, 3.0, 9.0, 2.0, 6.0 }));
  // f and h in main, g in f; k and m are roots (m starts as k ends).
  EXPECT_EQ(forest.Parent, (std::vector<int64_t>{ -1, 0, 1, 0, -1, -1 }));
  // Per row, its position: the inverse of Order.
  EXPECT_EQ(forest.Positions(), (std::vector<int64_t>{ 2, 3, 0, 4, 1, 5 }));
}

TEST(LogicalStateForest, InnermostStateAtATime)
{
  const StateForest forest(TwoLocations());
  EXPECT_EQ(forest.Innermost(0, 2.5), 2);   // g
  EXPECT_EQ(forest.Innermost(0, 3.5), 1);   // f, after g ended
  EXPECT_EQ(forest.Innermost(0, 4.5), 0);   // main, between f and h
  EXPECT_EQ(forest.Innermost(0, 11.0), -1); // after main
  EXPECT_EQ(forest.Innermost(0, -1.0), -1); // before anything
  // At 2, m starts as k ends: the state starting there, unless only those
  // starting strictly before count.
  EXPECT_EQ(forest.Innermost(1, 2.0), 5);
  EXPECT_EQ(forest.Innermost(1, 2.0, true), 4);
  // At g's start, strictly before: f holds the time.
  EXPECT_EQ(forest.Innermost(0, 2.0, true), 1);
}

TEST(LogicalStateForest, TiesPutTheLongerThenTheShallowerFirst)
{
  TraceInput in;
  in.Locations = 1;
  AddState(in, 0, 2, 0.0, 5.0); // row 0: same span as row 1, deeper
  AddState(in, 0, 1, 0.0, 5.0); // row 1
  AddState(in, 0, 0, 0.0, 8.0); // row 2: longer
  const StateForest forest(in);
  EXPECT_EQ(forest.Order, (std::vector<int64_t>{ 2, 1, 0 }));
  // Equal ends do not pop the stack: each encloses the next.
  EXPECT_EQ(forest.Parent, (std::vector<int64_t>{ -1, 0, 1 }));
  EXPECT_EQ(forest.Innermost(0, 1.0), 2);
}

TEST(LogicalStateForest, ReportsWhileSortingAndStopsWhenRefused)
{
  TraceInput in;
  in.Locations = 200;
  for (int32_t l = 0; l < 200; ++l)
  {
    AddState(in, l, 0, 0.0, 1.0);
  }
  std::vector<double> heard;
  const std::function<bool(double)> listen = [&](double f)
  {
    heard.push_back(f);
    return true;
  };
  const ProgressGate gate(listen);
  const StateForest forest(in, &gate);
  ASSERT_FALSE(heard.empty());
  for (std::size_t i = 1; i < heard.size(); ++i)
  {
    EXPECT_LT(heard[i - 1], heard[i]);
  }
  EXPECT_LE(heard.back(), 0.045);
  EXPECT_GT(heard.size(), 50u); // every percent of the states sorted

  const std::function<bool(double)> refuse = [](double) { return false; };
  const ProgressGate stop(refuse);
  EXPECT_THROW((StateForest{ in, &stop }), LogicalTimeAborted);
}
