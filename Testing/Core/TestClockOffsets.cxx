// Unsynchronised clocks (ClockOffsets.h): detection and offset estimation
// on hand-built traces with known offsets; the estimates are exact when the
// model holds (one latency, exits together).
#include "ClockOffsets.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace
{
using namespace macroscope::logical;

// A trace of `clocks` processes whose clocks read true time + offset[p].
struct Skewed
{
  TraceInput In;
  std::vector<double> Offset;
  explicit Skewed(std::vector<double> offset)
    : Offset(std::move(offset))
  {
    this->In.Locations = uint32_t(this->Offset.size());
    this->In.CommunicationType = { true };
  }
  // A message leaving `from` at true time t and arriving `latency` later.
  void Message(int32_t from, int32_t to, double t, double latency)
  {
    this->In.Sender.push_back(from);
    this->In.Receiver.push_back(to);
    this->In.SendTime.push_back(t + this->Offset[from]);
    this->In.RecvTime.push_back(t + latency + this->Offset[to]);
  }
  // A collective every location leaves at true time t.
  void Collective(
    double t, const std::vector<int32_t>& locations, const std::vector<double>& offset)
  {
    for (int32_t l : locations)
    {
      this->In.CollectiveLocation.push_back(l);
      this->In.CollectiveTime.push_back(t + offset[l]);
      this->In.CollectiveCommunicator.push_back(0);
    }
  }
};

TEST(ClockOffsets, ViolationsPerPairOfClocks)
{
  // Clock 1 is 0.5 s behind clock 0 and clock 0 is 0.1 s behind clock 2.
  // Messages 0 -> 1 (latency 0.2): received 0.3 s before sent, twice;
  // 1 -> 0: fine; 2 -> 0 (latency 0.05): 0.05 s early.
  Skewed t({ 0.0, -0.5, 0.1 });
  t.Message(0, 1, 1.0, 0.2);
  t.Message(0, 1, 2.0, 0.2);
  t.Message(1, 0, 3.0, 0.2);
  t.Message(2, 0, 4.0, 0.05);
  t.Message(2, 0, 5.0, 0.5); // slow enough to arrive after it left
  const ClockReport report = CheckClocks(t.In);
  EXPECT_EQ(report.Messages, 5u);
  EXPECT_EQ(report.Violations, 3u);
  EXPECT_NEAR(report.Largest, 0.3, 1e-12);
  ASSERT_EQ(report.Pairs.size(), 2u);
  EXPECT_EQ(report.Pairs[0].Sender, 0);
  EXPECT_EQ(report.Pairs[0].Receiver, 1);
  EXPECT_EQ(report.Pairs[0].Messages, 2u);
  EXPECT_EQ(report.Pairs[0].Violations, 2u);
  EXPECT_NEAR(report.Pairs[0].Largest, 0.3, 1e-12);
  EXPECT_EQ(report.Pairs[1].Sender, 2);
  EXPECT_EQ(report.Pairs[1].Messages, 2u);
  EXPECT_EQ(report.Pairs[1].Violations, 1u);
  EXPECT_NEAR(report.Pairs[1].Largest, 0.05, 1e-12);
}

TEST(ClockOffsets, TwoWayMessagesGiveTheOffsets)
{
  // Offsets relative to clock 0: 0.7 and 0.3; every message takes at least
  // 1 ms, some wait longer (their receiver was busy): the least delays are
  // the model, the others do not matter.
  Skewed t({ 0.0, 0.7, 0.3 });
  for (int k = 0; k < 5; ++k)
  {
    for (int32_t a = 0; a < 3; ++a)
    {
      for (int32_t b = 0; b < 3; ++b)
      {
        if (a != b)
        {
          t.Message(a, b, k + 0.1 * a, 1e-3 * (1 + (k * (a + 2 * b)) % 4));
        }
      }
    }
  }
  const ClockEstimate estimate = EstimateClockOffsets(t.In, ClockSource::Messages);
  ASSERT_EQ(estimate.Offset.size(), 3u);
  EXPECT_NEAR(estimate.Offset[0], 0.0, 1e-12);
  EXPECT_NEAR(estimate.Offset[1], 0.7, 1e-9);
  EXPECT_NEAR(estimate.Offset[2], 0.3, 1e-9);
  EXPECT_NEAR(estimate.Latency, 1e-3, 1e-9);
  EXPECT_EQ(estimate.Pairs, 6u);
  EXPECT_EQ(estimate.Unconstrained, 0u);
  // Messages from a clock ahead to one behind (1 -> 0, 1 -> 2, 2 -> 0, 5
  // each) arrive before they leave; corrected, none does.
  EXPECT_EQ(CheckClocks(t.In).Violations, 15u);
  ApplyClockOffsets(t.In, estimate.Offset);
  EXPECT_EQ(CheckClocks(t.In).Violations, 0u);
}

TEST(ClockOffsets, OneWayRingClosesACycle)
{
  // A ring 0 -> 1 -> 2 -> 3 -> 0 (no pair talks both ways): the cycle fixes
  // the common latency (2 ms), hence every offset.
  Skewed t({ 0.0, 2.0, 0.5, 1.25 });
  for (int k = 0; k < 3; ++k)
  {
    for (int32_t p = 0; p < 4; ++p)
    {
      t.Message(p, (p + 1) % 4, k + 0.01 * p, 2e-3 + 1e-3 * ((k + p) % 2));
    }
  }
  const ClockEstimate estimate = EstimateClockOffsets(t.In, ClockSource::Messages);
  EXPECT_NEAR(estimate.Latency, 2e-3, 1e-9);
  for (int32_t p = 0; p < 4; ++p)
  {
    EXPECT_NEAR(estimate.Offset[p], t.Offset[p], 1e-9) << "clock " << p;
  }
}

TEST(ClockOffsets, ChainWithoutCycleAssumesNoLatency)
{
  // 0 -> 1 -> 2 only: the latency cannot be told from the offsets; it is
  // taken as 0, so each offset difference is the least delay (latency 1 ms
  // included), less the nanosecond kept so that no corrected delay rounds
  // below 0. A fourth clock with no message is unconstrained.
  Skewed t({ 0.0, 0.4, 0.1, 0.9 });
  t.Message(0, 1, 1.0, 1e-3);
  t.Message(1, 2, 2.0, 1e-3);
  const ClockEstimate estimate = EstimateClockOffsets(t.In, ClockSource::Messages);
  EXPECT_EQ(estimate.Latency, 0.0);
  EXPECT_NEAR(estimate.Offset[1], 0.4 + 1e-3 - 1e-9, 1e-12);
  EXPECT_NEAR(estimate.Offset[2], 0.1 + 2e-3 - 2e-9, 1e-12);
  EXPECT_EQ(estimate.Offset[3], 0.0);
  EXPECT_EQ(estimate.Unconstrained, 1u);
}

TEST(ClockOffsets, CollectiveExitsGiveTheOffsetsOfProcesses)
{
  // Two processes of two threads each (locations 0, 1 on clock 0; 2, 3 on
  // clock 1) and a third process (location 4, clock 2); clock 1 reads 0.25 s
  // ahead, clock 2 0.125 s. The masters (0, 2, 4) meet in 3 collectives,
  // one where clock 2's exit was recorded late (an outlier the median skips).
  Skewed t({ 0.0, 0.0, 0.25, 0.25, 0.125 });
  const std::vector<int32_t> clockOf = { 0, 0, 1, 1, 2 };
  t.Collective(1.0, { 0, 2, 4 }, t.Offset);
  t.Collective(2.0, { 0, 2, 4 }, t.Offset);
  t.Collective(3.0, { 0, 2 }, t.Offset);
  t.Collective(3.0, { 4 }, { 0, 0, 0, 0, 0.125 + 0.5 });
  const ClockEstimate estimate = EstimateClockOffsets(t.In, ClockSource::Collectives, clockOf);
  ASSERT_EQ(estimate.Offset.size(), 3u);
  EXPECT_NEAR(estimate.Offset[1], 0.25, 1e-12);
  EXPECT_NEAR(estimate.Offset[2], 0.125, 1e-12);
  EXPECT_EQ(estimate.Pairs, 2u);
  ApplyClockOffsets(t.In, estimate.Offset, clockOf);
  EXPECT_NEAR(t.In.CollectiveTime[1], 1.0, 1e-12); // location 2's first exit
}

TEST(ClockOffsets, BusyReceiverStaysCausal)
{
  // Clock 2 is slow: it completes every receive 4 ms after the message
  // arrived, so its least incoming delays read 4 ms too long, and least
  // squares shifts it. Corrected, still no message arrives before it left,
  // and every offset is within the 4 ms of asymmetry of the truth.
  Skewed t({ 0.0, 0.02, 0.01 });
  for (int k = 0; k < 4; ++k)
  {
    for (int32_t a = 0; a < 3; ++a)
    {
      for (int32_t b = 0; b < 3; ++b)
      {
        if (a != b)
        {
          t.Message(a, b, k + 0.1 * a, 1e-4 + (b == 2 ? 4e-3 : 0.0) + 1e-4 * ((k + a) % 3));
        }
      }
    }
  }
  // Clock 0 -> 1 messages are also quick enough to constrain the result.
  const ClockEstimate estimate = EstimateClockOffsets(t.In, ClockSource::Messages);
  TraceInput corrected = t.In;
  ApplyClockOffsets(corrected, estimate.Offset);
  EXPECT_EQ(CheckClocks(corrected).Violations, 0u);
  for (int32_t p = 0; p < 3; ++p)
  {
    EXPECT_NEAR(estimate.Offset[p], t.Offset[p], 4e-3) << "clock " << p;
  }
  EXPECT_EQ(estimate.Offset[0], 0.0);
}

TEST(ClockOffsets, BadClocksThrow)
{
  Skewed t({ 0.0, 0.1 });
  EXPECT_THROW(CheckClocks(t.In, { 0 }), std::invalid_argument);
  EXPECT_THROW(CheckClocks(t.In, { 0, -1 }), std::invalid_argument);
  EXPECT_THROW(ApplyClockOffsets(t.In, { 0.0 }), std::invalid_argument);
}

}
