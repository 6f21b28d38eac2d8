// The linked views' selection on the logical views (docs/linked-views.md):
// hand-computed events and messages, and a brute force over random traces
// against the rule read from the definition (a location and a type kept, an
// aggregate with its communication event).
#include "LogicalSelection.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

using namespace macroscope;

namespace
{
// Two locations, two steps each: aggregate (type -1) then a communication
// event. Location 0: MPI_Send (type 1) at step 0, MPI_Recv (type 2) at
// step 1; location 1: MPI_Recv, then MPI_Send.
struct Hand
{
  std::vector<int32_t> Location{ 0, 0, 0, 0, 1, 1, 1, 1 };
  std::vector<int64_t> Step{ 0, 1, 2, 3, 0, 1, 2, 3 };
  std::vector<int32_t> Type{ -1, 1, -1, 2, -1, 2, -1, 1 };
};
}

TEST(LogicalSelection, EverythingWhenNoMask)
{
  Hand h;
  EXPECT_EQ(SelectLogicalEvents(h.Location, h.Step, h.Type, {}, {}), std::vector<bool>(8, true));
}

TEST(LogicalSelection, ResourcesKeepTheirLocationsEvents)
{
  Hand h;
  const std::vector<bool> expected{ false, false, false, false, true, true, true, true };
  EXPECT_EQ(SelectLogicalEvents(h.Location, h.Step, h.Type, { false, true }, {}), expected);
}

TEST(LogicalSelection, TypesKeepTheirEventsAndTheAggregatesBefore)
{
  Hand h;
  // Only type 1 (MPI_Send): rows 1 and 7 and the aggregates 0 and 6.
  const std::vector<bool> expected{ true, true, false, false, false, false, true, true };
  EXPECT_EQ(SelectLogicalEvents(h.Location, h.Step, h.Type, {}, { false, true, false }), expected);
  // With location 1 only: rows 6 and 7.
  const std::vector<bool> both{ false, false, false, false, false, false, true, true };
  EXPECT_EQ(
    SelectLogicalEvents(h.Location, h.Step, h.Type, { false, true }, { false, true, false }), both);
}

TEST(LogicalSelection, OutsideTheMaskIsNotSelected)
{
  // A location beyond the leaf mask, a type beyond the type mask, and an
  // aggregate with no communication event after it.
  const std::vector<bool> keep =
    SelectLogicalEvents({ 0, 5, 0, 0 }, { 1, 1, 3, 4 }, { 0, 0, 7, -1 }, { true, true }, { true });
  EXPECT_EQ(keep, (std::vector<bool>{ true, false, false, false }));
}

TEST(LogicalSelection, MessagesNeedBothEnds)
{
  const std::vector<bool> keepEvent{ true, false, true };
  EXPECT_EQ(SelectLogicalMessages({ 0, 0, 1, -1, 2 }, { 2, 1, 2, 0, 9 }, keepEvent),
    (std::vector<bool>{ true, false, false, false, false }));
}

TEST(LogicalSelection, Errors)
{
  EXPECT_THROW(SelectLogicalEvents({ 0 }, { 0, 1 }, { 0 }, {}, {}), std::invalid_argument);
  EXPECT_THROW(SelectLogicalMessages({ 0 }, {}, {}), std::invalid_argument);
}

TEST(LogicalSelection, BruteForce)
{
  std::mt19937 random(13);
  for (int round = 0; round < 200; ++round)
  {
    const int locations = 1 + static_cast<int>(random() % 5);
    const int types = 1 + static_cast<int>(random() % 4);
    std::vector<int32_t> location, type;
    std::vector<int64_t> step;
    for (int l = 0; l < locations; ++l)
    {
      const int steps = static_cast<int>(random() % 6);
      for (int s = 0; s < steps; ++s)
      {
        location.push_back(l), step.push_back(2 * s), type.push_back(-1);
        location.push_back(l), step.push_back(2 * s + 1);
        type.push_back(static_cast<int32_t>(random() % types));
      }
    }
    std::vector<bool> keepLeaf, keepType;
    if (random() % 3)
    {
      for (int l = 0; l < locations; ++l)
      {
        keepLeaf.push_back(random() % 2);
      }
    }
    if (random() % 3)
    {
      for (int t = 0; t < types; ++t)
      {
        keepType.push_back(random() % 2);
      }
    }
    const std::vector<bool> keep = SelectLogicalEvents(location, step, type, keepLeaf, keepType);
    ASSERT_EQ(keep.size(), location.size());
    for (std::size_t e = 0; e < keep.size(); ++e)
    {
      const bool leaf = keepLeaf.empty() || keepLeaf[location[e]];
      // Events come in (aggregate, communication event) pairs here.
      const int32_t t = type[e] >= 0 ? type[e] : type[e + 1];
      const bool typed = keepType.empty() || keepType[t];
      EXPECT_EQ(keep[e], leaf && typed) << "round " << round << ", event " << e;
    }
  }
}
