// Unsynchronised clocks (Core/ClockOffsets.h) on synthesized OTF2
// archives read without VTK: macroscope-synth's per-rank clock offsets
// shift each rank's timestamps by exactly the injected amount; they are
// detected from the messages, estimated back from the collectives (exactly)
// and from the messages (within the slowed rank's asymmetry), and once they
// are removed the lateness ranks the slowed rank first, where the raw times
// rank the rank whose clock runs furthest ahead first.
#include "OTF2TestArchives.h"

#include <ClockOffsets.h>
#include <LogicalTime.h>
#include <MacroscopeOTF2.h>
#include <MpiRegions.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>

namespace
{
using namespace macroscope::logical;
using macroscope::otf2::testing::ScratchDirectory;
namespace synth = macroscope::synth;
namespace otf2 = macroscope::otf2;

constexpr uint32_t Ranks = 4;
constexpr uint32_t Threads = 2;
const std::vector<double> Injected = { 0.0, 0.3, 0.0, 0.6 };
constexpr uint32_t Slowed = 2; // node 2 holds rank 2 alone

// The reader's tables as logical time's input (as TestLogicalTimeSynthesized).
TraceInput ToInput(const otf2::TraceData& trace)
{
  TraceInput in;
  in.Locations = uint32_t(trace.Info.Leaves.size());
  const otf2::StateColumns& s = trace.States;
  in.StateLocation.assign(s.Location.begin(), s.Location.end());
  in.StateType.assign(s.Type.begin(), s.Type.end());
  in.StateDepth.assign(s.Depth.begin(), s.Depth.end());
  in.StateStart.assign(s.Start.begin(), s.Start.end());
  in.StateEnd.assign(s.End.begin(), s.End.end());
  const otf2::TypeColumns& types = trace.Info.Types;
  for (std::size_t t = 0; t < types.Name.size(); ++t)
  {
    in.CommunicationType.push_back(
      types.Kind[t] == "state" && macroscope::IsMpiCall(types.Name[t], types.Paradigm[t]));
  }
  const otf2::MessageColumns& m = trace.Messages;
  in.Sender.assign(m.Sender.begin(), m.Sender.end());
  in.Receiver.assign(m.Receiver.begin(), m.Receiver.end());
  in.SendTime.assign(m.SendTime.begin(), m.SendTime.end());
  in.RecvTime.assign(m.RecvTime.begin(), m.RecvTime.end());
  const otf2::EventColumns& e = trace.Events;
  for (std::size_t i = 0; i < e.size(); ++i)
  {
    if (types.Name[e.Type[i]] == "MpiCollectiveEnd")
    {
      in.CollectiveLocation.push_back(int32_t(e.Location[i]));
      in.CollectiveTime.push_back(e.Time[i]);
      in.CollectiveCommunicator.push_back(e.Communicator[i]);
    }
  }
  return in;
}

// A stencil on 4 ranks of 2 threads, rank 2 computing 3 times slower.
TraceInput Synthesize(const ScratchDirectory& scratch, const std::vector<double>& offsets)
{
  synth::SynthConfig config;
  config.OutputDirectory = scratch.path().string();
  config.Clusters = 1;
  config.NodesPerCluster = Ranks;
  config.RanksPerNode = 1;
  config.ThreadsPerRank = Threads;
  config.Iterations = 30;
  config.CommunicationPattern = synth::Pattern::Stencil3D;
  config.Perturbation.Kind = synth::PerturbationKind::SlowNode;
  config.Perturbation.Target = Slowed;
  config.ClockOffsets = offsets;
  config.Overwrite = true;
  return ToInput(otf2::ReadTrace(synth::Synthesize(config).AnchorFile));
}

// Every location's clock: its rank (leaves are in rank, thread order).
std::vector<int32_t> ClockOfRanks()
{
  std::vector<int32_t> clock(Ranks * Threads);
  for (std::size_t l = 0; l < clock.size(); ++l)
  {
    clock[l] = int32_t(l / Threads);
  }
  return clock;
}

// Ranks by the mean lateness of their events, the latest first.
std::vector<uint32_t> RankByLateness(const TraceInput& input)
{
  const LogicalTrace trace = BuildLogicalTrace(input);
  std::vector<double> total(Ranks, 0.0), count(Ranks, 0.0);
  for (std::size_t r = 0; r < trace.Events.size(); ++r)
  {
    total[trace.Events.Location[r] / Threads] += trace.Events.Lateness[r];
    count[trace.Events.Location[r] / Threads] += 1.0;
  }
  std::vector<uint32_t> order(Ranks);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
    [&](uint32_t a, uint32_t b) { return total[a] / count[a] > total[b] / count[b]; });
  return order;
}

TEST(ClockOffsetsSynthesized, InjectedOffsetsAreFoundAndRemoved)
{
  ScratchDirectory synchronised, skewed;
  const TraceInput truth = Synthesize(synchronised, {});
  const TraceInput raw = Synthesize(skewed, Injected);
  const std::vector<int32_t> clock = ClockOfRanks();

  // The same run, each rank's times shifted by its offset (to the 1 ns tick).
  ASSERT_EQ(raw.StateStart.size(), truth.StateStart.size());
  for (std::size_t i = 0; i < raw.StateStart.size(); ++i)
  {
    ASSERT_EQ(raw.StateLocation[i], truth.StateLocation[i]);
    ASSERT_NEAR(
      raw.StateStart[i] - truth.StateStart[i], Injected[clock[raw.StateLocation[i]]], 2e-9)
      << "state " << i;
  }

  // Detected: messages from a rank ahead to a rank behind arrive early.
  EXPECT_EQ(CheckClocks(truth, clock).Violations, 0u);
  const ClockReport report = CheckClocks(raw, clock);
  EXPECT_GT(report.Violations, 0u);
  for (const ClockPair& pair : report.Pairs)
  {
    EXPECT_GT(Injected[pair.Sender], Injected[pair.Receiver]);
  }
  EXPECT_NEAR(report.Largest, 0.6, 0.01);

  // Uncorrected, lateness measures the clocks: rank 3 (0.6 s ahead) first.
  EXPECT_EQ(RankByLateness(raw).front(), 3u);
  EXPECT_EQ(RankByLateness(truth).front(), Slowed);

  // From the collectives' exits: exact. From the messages: the slowed rank
  // completes its receives late, which reads as a few ms of offset.
  for (const auto& [source, tolerance] :
    { std::make_pair(ClockSource::Collectives, 1e-8), std::make_pair(ClockSource::Messages, 5e-3) })
  {
    const ClockEstimate estimate = EstimateClockOffsets(raw, source, clock);
    ASSERT_EQ(estimate.Offset.size(), Ranks);
    for (uint32_t r = 0; r < Ranks; ++r)
    {
      EXPECT_NEAR(estimate.Offset[r], Injected[r], tolerance) << "rank " << r;
    }
    TraceInput corrected = raw;
    ApplyClockOffsets(corrected, estimate.Offset, clock);
    EXPECT_EQ(CheckClocks(corrected, clock).Violations, 0u);
    EXPECT_EQ(RankByLateness(corrected).front(), Slowed);
  }
}

}
