// Tests of the producers' activity in a window (Core/
// ProducerActivity.h): hand-computed borders of the half-open window, the
// sums per producer, the active / idle split, and a brute force check.
#include "ProducerActivity.h"
#include "ResourceHierarchy.h"
#include "TraceRowsBuilders.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

using namespace macroscope;

namespace
{
// Four locations; the window is [2, 5).
struct Trace
{
  macroscope::testing::States States;
  macroscope::testing::Points Events;
  macroscope::testing::Points Variables;
  macroscope::testing::Messages Messages;

  Trace()
  {
    this->States.Add(0, 0, 0, 1, 3);        // straddles the start: counts
    this->States.Add(0, 0, 0, 4, 6);        // straddles the end: counts
    this->States.Add(0, 1, 0, 0, 2);        // ends at the start: no
    this->States.Add(1, 0, 0, 5, 7);        // starts at the end: no
    this->States.Add(1, 0, 0, 2, 2);        // zero length at the start: counts
    this->States.Add(1, 0, 0, 5, 5);        // zero length at the end: no
    this->States.Add(2, 0, 0, 0, 10);       // covers the window: counts
    this->Events.Add(0, 0, 2.0);            // at the start: counts
    this->Events.Add(1, 0, 5.0);            // at the end: no
    this->Events.Add(1, 0, 4.999);          // counts
    this->Events.Add(3, 0, 9.0);            // after: no
    this->Variables.Add(2, 0, 1.0, 7.0);    // before: no
    this->Variables.Add(2, 0, 3.0, 8.0);    // counts
    this->Messages.Add(0, 1, 1.5, 2.5, 10); // received by 1 in the window
    this->Messages.Add(1, 2, 4.0, 6.0, 10); // sent by 1 in the window
    this->Messages.Add(2, 0, 4.5, 4.8, 10); // both ends in the window
  }
  ActivityCounts Count(double begin, double end) const
  {
    return CountLeafActivity(4, { begin, end }, this->States.Rows(), this->Events.Rows(),
      this->Variables.Rows(), this->Messages.Rows());
  }
};

using Counts = std::vector<uint64_t>;
}

TEST(ProducerActivity, HalfOpenWindowBorders)
{
  const ActivityCounts c = Trace().Count(2.0, 5.0);
  EXPECT_EQ(c.States, (Counts{ 2, 1, 1, 0 }));
  EXPECT_EQ(c.Events, (Counts{ 1, 1, 0, 0 }));
  EXPECT_EQ(c.Variables, (Counts{ 0, 0, 1, 0 }));
  EXPECT_EQ(c.Messages, (Counts{ 1, 2, 1, 0 }));
  EXPECT_EQ(c.Total(0), 4u);
  EXPECT_EQ(c.Total(1), 4u);
  EXPECT_EQ(c.Total(2), 3u);
  EXPECT_EQ(c.Total(3), 0u);
}

TEST(ProducerActivity, WindowToTheEnd)
{
  // [2, +inf): everything from 2 on, the instants at 5 and 9 included.
  const ActivityCounts c = Trace().Count(2.0, std::numeric_limits<double>::infinity());
  EXPECT_EQ(c.States, (Counts{ 2, 3, 1, 0 }));
  EXPECT_EQ(c.Events, (Counts{ 1, 2, 0, 1 }));
  EXPECT_EQ(c.Messages, (Counts{ 1, 2, 2, 0 }));
  // Before every record: nothing.
  const ActivityCounts before = Trace().Count(-3.0, -1.0);
  for (std::size_t leaf = 0; leaf < 4; ++leaf)
  {
    EXPECT_EQ(before.Total(leaf), 0u);
  }
}

TEST(ProducerActivity, ProducersAndTheirActivity)
{
  const ActivityCounts leaves = Trace().Count(2.0, 5.0);
  EXPECT_EQ(ProducersWithActivity(leaves, true, 1), (std::vector<uint32_t>{ 0, 1, 2 }));
  EXPECT_EQ(ProducersWithActivity(leaves, false, 1), (std::vector<uint32_t>{ 3 }));
  EXPECT_EQ(ProducersWithActivity(leaves, true, 4), (std::vector<uint32_t>{ 0, 1 }));
  EXPECT_EQ(ProducersWithActivity(leaves, false, 4), (std::vector<uint32_t>{ 2, 3 }));
  // Locations 0 and 1 make producer 0, location 2 producer 1; 3 left out.
  const ActivityCounts producers = SumByProducer(leaves, { 0, 0, 1, NoResource }, 2);
  EXPECT_EQ(producers.States, (Counts{ 3, 1 }));
  EXPECT_EQ(producers.Events, (Counts{ 2, 0 }));
  EXPECT_EQ(producers.Variables, (Counts{ 0, 1 }));
  EXPECT_EQ(producers.Messages, (Counts{ 3, 1 }));
  EXPECT_EQ(ProducersWithActivity(producers, true, 4), (std::vector<uint32_t>{ 0 }));
  EXPECT_THROW(SumByProducer(leaves, { 0, 0, 2, 0 }, 2), std::invalid_argument);
  EXPECT_THROW(SumByProducer(leaves, { 0, 0 }, 2), std::invalid_argument);
}

TEST(ProducerActivity, BadInput)
{
  const Trace t;
  EXPECT_THROW(t.Count(5.0, 2.0), std::invalid_argument);
  EXPECT_THROW(t.Count(3.0, 3.0), std::invalid_argument);
  EXPECT_THROW(t.Count(std::numeric_limits<double>::quiet_NaN(), 3.0), std::invalid_argument);
  // A row on a location that does not exist.
  EXPECT_THROW(CountLeafActivity(3, { 0, 1 }, t.States.Rows(), t.Events.Rows(), t.Variables.Rows(),
                 t.Messages.Rows()),
    std::invalid_argument);
  // An abort is heard.
  EXPECT_THROW(CountLeafActivity(4, { 0, 1 }, t.States.Rows(), t.Events.Rows(), t.Variables.Rows(),
                 t.Messages.Rows(), [](double) { return false; }),
    ActivityAborted);
}

TEST(ProducerActivity, BruteForce)
{
  // Integer times hit the borders often. A state counts when its overlap
  // with the window is positive, or it is an instant inside it.
  std::mt19937 random(11);
  const uint32_t leaves = 9;
  macroscope::testing::States states;
  macroscope::testing::Points events;
  macroscope::testing::Messages messages;
  for (int i = 0; i < 3000; ++i)
  {
    const double a = double(random() % 20);
    const double b = a + double(random() % 4);
    states.Add(random() % leaves, 0, 0, a, b);
    events.Add(random() % leaves, 0, double(random() % 20));
    messages.Add(random() % leaves, random() % leaves, a, b, 1.0);
  }
  std::vector<double> progress;
  for (double begin = 0; begin < 20; begin += 3)
  {
    const double end = begin + 1 + double(random() % 6);
    const ActivityCounts c = CountLeafActivity(leaves, { begin, end }, states.Rows(), events.Rows(),
      macroscope::testing::Points().Rows(), messages.Rows(),
      [&progress](double f)
      {
        progress.push_back(f);
        return true;
      });
    ActivityCounts expected(leaves);
    for (std::size_t i = 0; i < states.Size(); ++i)
    {
      const double s = states.Start[i], e = states.End[i];
      const bool in = s == e ? (s >= begin && s < end) : std::min(e, end) - std::max(s, begin) > 0;
      expected.States[states.Location[i]] += in;
      expected.Events[events.Location[i]] += events.Time[i] >= begin && events.Time[i] < end;
      expected.Messages[messages.Sender[i]] +=
        messages.SendTime[i] >= begin && messages.SendTime[i] < end;
      expected.Messages[messages.Receiver[i]] +=
        messages.RecvTime[i] >= begin && messages.RecvTime[i] < end;
    }
    EXPECT_EQ(c.States, expected.States);
    EXPECT_EQ(c.Events, expected.Events);
    EXPECT_EQ(c.Messages, expected.Messages);
    EXPECT_EQ(c.Variables, Counts(leaves, 0));
  }
  ASSERT_FALSE(progress.empty());
  EXPECT_EQ(progress.back(), 1.0);
}
