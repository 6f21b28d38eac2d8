// Validation of logical time (Core/LogicalTime.h) on synthesized
// OTF2 archives read without VTK: the steps of the ring, stencil and tree
// patterns, whose call sequences docs/synthesizer.md describes, and the
// lateness of an injected slow node (Isaacs et al. 2014 (Ravel) §3.2).
#include "OTF2TestArchives.h"

#include <LogicalTime.h>
#include <MacroscopeOTF2.h>
#include <MpiRegions.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace
{
using namespace macroscope::logical;
using macroscope::otf2::testing::ScratchDirectory;
namespace synth = macroscope::synth;
namespace otf2 = macroscope::otf2;

/// The reader's tables as the input of BuildLogicalTrace: MPI regions are
/// the communication calls, MpiCollectiveEnd events the collective records.
TraceInput ToInput(const otf2::TraceData& trace)
{
  TraceInput in;
  in.Locations = uint32_t(trace.Info.Leaves.size());
  const otf2::StateColumns& s = trace.States;
  for (std::size_t i = 0; i < s.size(); ++i)
  {
    in.StateLocation.push_back(int32_t(s.Location[i]));
    in.StateType.push_back(int32_t(s.Type[i]));
    in.StateDepth.push_back(int32_t(s.Depth[i]));
    in.StateStart.push_back(s.Start[i]);
    in.StateEnd.push_back(s.End[i]);
  }
  const otf2::TypeColumns& types = trace.Info.Types;
  for (std::size_t t = 0; t < types.Name.size(); ++t)
  {
    in.CommunicationType.push_back(
      types.Kind[t] == "state" && macroscope::IsMpiCall(types.Name[t], types.Paradigm[t]));
    in.IsendType.push_back(
      in.CommunicationType.back() && macroscope::IsNonblockingSend(types.Name[t]));
  }
  const otf2::MessageColumns& m = trace.Messages;
  for (std::size_t i = 0; i < m.size(); ++i)
  {
    in.Sender.push_back(int32_t(m.Sender[i]));
    in.Receiver.push_back(int32_t(m.Receiver[i]));
    in.SendTime.push_back(m.SendTime[i]);
    in.RecvTime.push_back(m.RecvTime[i]);
  }
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

struct SynthRun
{
  synth::SynthesisSummary Summary;
  otf2::TraceData Trace;
  LogicalTrace Logical;
};

/// 8 ranks (2 clusters x 2 nodes x 2 ranks), one thread each. The steps
/// are checked against Ravel's with its Isend coalescing off (every Isend its
/// own event); StencilIsendsCoalesced checks it on.
SynthRun Synthesize(const ScratchDirectory& scratch, synth::Pattern pattern, uint64_t iterations,
  const synth::PerturbationConfig& perturbation = {}, double imbalance = 0.2,
  bool coalesceIsends = false)
{
  synth::SynthConfig config;
  config.OutputDirectory = scratch.path().string();
  config.Clusters = 2;
  config.NodesPerCluster = 2;
  config.RanksPerNode = 2;
  config.ThreadsPerRank = 1;
  config.Iterations = iterations;
  config.CommunicationPattern = pattern;
  config.Perturbation = perturbation;
  config.Imbalance = imbalance;
  config.Overwrite = true;
  SynthRun run;
  run.Summary = synth::Synthesize(config);
  run.Trace = otf2::ReadTrace(run.Summary.AnchorFile);
  Options options;
  options.CoalesceIsends = coalesceIsends;
  run.Logical = BuildLogicalTrace(ToInput(run.Trace), options);
  return run;
}

void ExpectClean(const LogicalTrace& trace)
{
  EXPECT_EQ(trace.Report.InstantEndpoints, 0u);
  EXPECT_EQ(trace.Report.DroppedMessages, 0u);
  EXPECT_EQ(trace.Report.IncompleteCollectives, 0u);
  EXPECT_EQ(trace.Report.SplitCollectives, 0u);
  EXPECT_EQ(trace.Report.MergedPhaseCycles, 0u);
}

/// The communication rows of each location in phase p, in time order.
std::map<int32_t, std::vector<std::size_t>> RowsOfPhase(const LogicalTrace& trace, int32_t p)
{
  std::map<int32_t, std::vector<std::size_t>> rows;
  for (std::size_t r = 0; r < trace.Events.size(); ++r)
  {
    if (trace.Events.Phase[r] == p && trace.Events.Kind[r] != EventKind::Aggregate)
    {
      rows[trace.Events.Location[r]].push_back(r);
    }
  }
  return rows;
}

int64_t FirstStep(const LogicalTrace& trace, int32_t p)
{
  return trace.Phases[p].FirstGlobalStep / 2;
}

TEST(LogicalTimeSynthesized, RingIsendIsendWaitall)
{
  // MPI_Barrier, 4 x exchange_halo (Irecv, Irecv, Isend, Isend, Waitall),
  // MPI_Barrier: 6 phases in order; in each exchange every rank's Isends are
  // at the phase's first two steps and its Waitall (2 receives) one after.
  ScratchDirectory scratch;
  const SynthRun run = Synthesize(scratch, synth::Pattern::Ring, 4);
  const LogicalTrace& trace = run.Logical;
  ExpectClean(trace);
  ASSERT_EQ(trace.Phases.size(), 6u);
  for (int32_t p : { 0, 5 })
  {
    const auto rows = RowsOfPhase(trace, p);
    ASSERT_EQ(rows.size(), 8u);
    for (const auto& [location, events] : rows)
    {
      ASSERT_EQ(events.size(), 1u);
      EXPECT_EQ(trace.Events.Kind[events[0]], EventKind::Collective);
      EXPECT_EQ(trace.Events.Step[events[0]], FirstStep(trace, p));
    }
  }
  for (int32_t p = 1; p <= 4; ++p)
  {
    EXPECT_EQ(trace.Phases[p].Pattern, ExchangePattern::ReceivesWaitall) << "phase " << p;
    EXPECT_EQ(trace.Phases[p].Locations, 8u);
    const int64_t first = FirstStep(trace, p);
    EXPECT_EQ(first, FirstStep(trace, p - 1) + (p == 1 ? 1 : 3));
    const auto rows = RowsOfPhase(trace, p);
    ASSERT_EQ(rows.size(), 8u);
    for (const auto& [location, events] : rows)
    {
      ASSERT_EQ(events.size(), 3u) << "rank " << location;
      std::vector<int64_t> relative;
      for (const std::size_t r : events)
      {
        relative.push_back(trace.Events.Step[r] - first);
      }
      EXPECT_EQ(relative, (std::vector<int64_t>{ 0, 1, 2 })) << "rank " << location;
      EXPECT_EQ(trace.Events.Kind[events[0]], EventKind::Send);
      EXPECT_EQ(trace.Events.Kind[events[1]], EventKind::Send);
      EXPECT_EQ(trace.Events.Kind[events[2]], EventKind::Receive);
      EXPECT_EQ(trace.Events.Receives[events[2]], 2);
    }
  }
  EXPECT_EQ(trace.Messages.size(), run.Trace.Messages.size());
}

TEST(LogicalTimeSynthesized, StencilWaitallFollowsTheLastIsend)
{
  // 8 ranks make a 2 x 2 x 2 grid: 3 face neighbours each. Isends at the
  // phase's steps 0, 1, 2 (rounds), the Waitall completing 3 receives at 3,
  // one after the last Isend (its senders' Isends are at 2 at the latest).
  ScratchDirectory scratch;
  const SynthRun run = Synthesize(scratch, synth::Pattern::Stencil3D, 3);
  const LogicalTrace& trace = run.Logical;
  ExpectClean(trace);
  ASSERT_EQ(trace.Phases.size(), 5u);
  for (int32_t p = 1; p <= 3; ++p)
  {
    EXPECT_EQ(trace.Phases[p].Pattern, ExchangePattern::ReceivesWaitall);
    const int64_t first = FirstStep(trace, p);
    for (const auto& [location, events] : RowsOfPhase(trace, p))
    {
      ASSERT_EQ(events.size(), 4u) << "rank " << location;
      for (std::size_t i = 0; i < 3; ++i)
      {
        EXPECT_EQ(trace.Events.Kind[events[i]], EventKind::Send);
        EXPECT_EQ(trace.Events.Step[events[i]], first + int64_t(i));
      }
      EXPECT_EQ(trace.Events.Receives[events[3]], 3);
      EXPECT_EQ(trace.Events.Step[events[3]], trace.Events.Step[events[2]] + 1);
    }
  }
}

TEST(LogicalTimeSynthesized, StencilIsendsCoalesced)
{
  // As StencilWaitallFollowsTheLastIsend, with Ravel's Isend coalescing:
  // the three Isends of a rank (nothing between them) are one Send event
  // with 3 sends at the phase's first step, the Waitall one step after it.
  ScratchDirectory scratch;
  const SynthRun run = Synthesize(scratch, synth::Pattern::Stencil3D, 3, {}, 0.2, true);
  const LogicalTrace& trace = run.Logical;
  ExpectClean(trace);
  EXPECT_EQ(trace.Report.CoalescedIsends, 8u * 3u * 2u); // 8 ranks, 3 exchanges, 3 -> 1
  ASSERT_EQ(trace.Phases.size(), 5u);
  for (int32_t p = 1; p <= 3; ++p)
  {
    EXPECT_EQ(trace.Phases[p].Pattern, ExchangePattern::ReceivesWaitall);
    EXPECT_EQ(FirstStep(trace, p), FirstStep(trace, p - 1) + (p == 1 ? 1 : 2));
    for (const auto& [location, events] : RowsOfPhase(trace, p))
    {
      ASSERT_EQ(events.size(), 2u) << "rank " << location;
      EXPECT_EQ(trace.Events.Kind[events[0]], EventKind::Send);
      EXPECT_EQ(trace.Events.Sends[events[0]], 3);
      EXPECT_EQ(trace.Events.Step[events[0]], FirstStep(trace, p));
      EXPECT_EQ(trace.Events.Receives[events[1]], 3);
      EXPECT_EQ(trace.Events.Step[events[1]], FirstStep(trace, p) + 1);
    }
  }
  EXPECT_EQ(trace.Messages.size(), run.Trace.Messages.size());
}

// The communication steps of each location, in time order.
std::map<int32_t, std::vector<int64_t>> StepsByLocation(const LogicalTrace& trace)
{
  std::map<int32_t, std::vector<int64_t>> steps;
  for (std::size_t r = 1; r < trace.Events.size(); r += 2)
  {
    steps[trace.Events.Location[r]].push_back(trace.Events.Step[r]);
  }
  return steps;
}

TEST(LogicalTimeSynthesized, HandWrittenProbe)
{
  // writeLogicalProbe's archive read by the decoder, MPI calls known by
  // name (its regions are "user"). Phases: the three Sendrecv exchanges,
  // each one contracted node of both ranks (steps 0, 1, 2), one phase as
  // they share their enclosing call `exchange` (three without merging by
  // enclosing call, at the same steps); the skewed pair, rank 0's MPI_Send X
  // holding the skewed receive (a SendReceive, not contracted: rank 1's
  // calls are a Recv and a Send), X -> R1 -> S1 -> X a cycle broken by
  // dropping the message received before it was sent: X round 0 at 3, R1
  // 3 + 1 = 4, S1 (round 1) after R1: 5; the halo exchange from step 6,
  // its two Isends one Send event (coalesced) at 6 and the Waitall at 7, or
  // Isends at 6, 7 and the Waitall at 8 without coalescing.
  ScratchDirectory scratch;
  const otf2::TraceData read =
    otf2::ReadTrace(macroscope::otf2::testing::writeLogicalProbe(scratch.path()));
  const TraceInput in = ToInput(read);
  ASSERT_EQ(in.Sender.size(), 12u);
  Options off;
  off.CoalesceIsends = false;
  for (const bool coalesce : { true, false })
  {
    const LogicalTrace trace = BuildLogicalTrace(in, coalesce ? Options() : off);
    EXPECT_EQ(trace.Report.InstantEndpoints, 0u);
    EXPECT_EQ(trace.Report.SendrecvExchanges, 3u);
    EXPECT_EQ(trace.Report.DroppedMessages, 1u);
    EXPECT_EQ(trace.Report.CoalescedIsends, coalesce ? 2u : 0u);
    EXPECT_EQ(trace.Phases.size(), 3u);
    const std::map<int32_t, std::vector<int64_t>> expected = coalesce
      ? std::map<int32_t, std::vector<int64_t>>{ { 0, { 0, 1, 2, 3, 6, 7 } },
          { 1, { 0, 1, 2, 4, 5, 6, 7 } } }
      : std::map<int32_t, std::vector<int64_t>>{ { 0, { 0, 1, 2, 3, 6, 7, 8 } },
          { 1, { 0, 1, 2, 4, 5, 6, 7, 8 } } };
    EXPECT_EQ(StepsByLocation(trace), expected) << (coalesce ? "coalescing" : "not coalescing");
    for (std::size_t m = 0; m < in.Sender.size(); ++m)
    {
      // Only the skewed answer (sent at 35.5 ms, received at 31.5 ms) goes.
      const bool skewed = in.RecvTime[m] < in.SendTime[m];
      EXPECT_EQ(trace.Messages.Dropped[m], skewed ? 1 : 0) << "message " << m;
    }
  }
  Options separate;
  separate.MergeByEnclosingCall = false;
  const LogicalTrace apart = BuildLogicalTrace(in, separate);
  EXPECT_EQ(apart.Phases.size(), 5u);
  EXPECT_EQ(StepsByLocation(apart).at(1), (std::vector<int64_t>{ 0, 1, 2, 4, 5, 6, 7 }));
}

TEST(LogicalTimeSynthesized, TreeGatherSteps)
{
  // tree_gather over 8 ranks (children 2r+1, 2r+2, blocking Recv from each
  // child, then Send up). Steps relative to the phase, worked out in
  // Testing/Core/TestLogicalTime.cxx (TreeGatherSteps): leaves S 0; rank 3
  // R 1, S 3; rank 2 R 1, R 2, S 3; rank 1 R 4, R 5, S 6; rank 0 R 7, R 8.
  ScratchDirectory scratch;
  const SynthRun run = Synthesize(scratch, synth::Pattern::Tree, 2);
  const LogicalTrace& trace = run.Logical;
  ExpectClean(trace);
  // Barrier, (gather, scatter) x 2, Barrier.
  ASSERT_EQ(trace.Phases.size(), 6u);
  const std::map<int32_t, std::vector<int64_t>> expected = {
    { 0, { 7, 8 } },
    { 1, { 4, 5, 6 } },
    { 2, { 1, 2, 3 } },
    { 3, { 1, 3 } },
    { 4, { 0 } },
    { 5, { 0 } },
    { 6, { 0 } },
    { 7, { 0 } },
  };
  for (int32_t p : { 1, 3 })
  {
    EXPECT_EQ(trace.Phases[p].Pattern, ExchangePattern::None);
    std::map<int32_t, std::vector<int64_t>> relative;
    for (const auto& [location, events] : RowsOfPhase(trace, p))
    {
      for (const std::size_t r : events)
      {
        relative[location].push_back(trace.Events.Step[r] - FirstStep(trace, p));
      }
    }
    EXPECT_EQ(relative, expected) << "phase " << p;
    // Rank 0 only receives in the gather.
    EXPECT_EQ(trace.Events.Kind[RowsOfPhase(trace, p).at(0)[0]], EventKind::Receive);
  }
}

TEST(LogicalTimeSynthesized, SlowNodeLatenessPeaksOnItsRanksAndResets)
{
  // One MPI_Allreduce per iteration; node 1 (ranks 2, 3) computes 3 times
  // slower inside the window. The aggregate before each Allreduce (the
  // compute) ends when the rank enters the Allreduce: inside the window the
  // latest is a slow rank's, by about 2 x compute time; outside it the
  // ranks differ by the small imbalance only. Every Allreduce ends at the
  // same time on all ranks: its lateness is 0, the reset of Isaacs et al. 2014 (Ravel) Fig. 3.
  ScratchDirectory scratch;
  synth::PerturbationConfig slow;
  slow.Kind = synth::PerturbationKind::SlowNode;
  slow.Target = 1;
  slow.Factor = 3.0;
  slow.WindowBegin = 3.0e-3;
  slow.WindowEnd = 10.0e-3; // iterations 2 and 3 wholly inside
  const SynthRun run = Synthesize(scratch, synth::Pattern::Allreduce, 8, slow, 0.02);
  const LogicalTrace& trace = run.Logical;
  ExpectClean(trace);
  const std::set<int32_t> slowRanks(
    run.Summary.Truth.AffectedRanks.begin(), run.Summary.Truth.AffectedRanks.end());
  ASSERT_EQ(slowRanks, (std::set<int32_t>{ 2, 3 }));
  const double begin = run.Summary.Truth.WindowBegin;
  const double end = run.Summary.Truth.WindowEnd;
  const double compute = run.Summary.Config.ComputeTime;

  const LogicalEvents& ev = trace.Events;
  std::map<int64_t, std::pair<double, int32_t>> latest; // global step -> (lateness, location)
  std::size_t inWindow = 0, outside = 0, allreduces = 0;
  for (std::size_t r = 1; r < ev.size(); r += 2)
  {
    if (ev.Kind[r] != EventKind::Collective || ev.Receives[r] != 0)
    {
      continue;
    }
    ++allreduces;
    EXPECT_LE(ev.Lateness[r], 1e-9) << "row " << r; // reset
    const std::size_t a = r - 1;                    // the aggregate before it
    auto& top = latest[ev.GlobalStep[a]];
    if (ev.Lateness[a] >= top.first)
    {
      top = { ev.Lateness[a], ev.Location[a] };
    }
  }
  double highest = 0;
  int32_t highestLocation = -1;
  for (const auto& [step, top] : latest)
  {
    const bool overlaps = trace.Spans.Start[step] < end && trace.Spans.End[step] > begin;
    if (overlaps && top.first > 0.5 * compute)
    {
      ++inWindow;
      EXPECT_TRUE(slowRanks.count(top.second)) << "global step " << step;
    }
    if (!overlaps)
    {
      ++outside;
      EXPECT_LT(top.first, 0.2 * compute) << "global step " << step;
    }
    if (top.first > highest)
    {
      highest = top.first;
      highestLocation = top.second;
    }
  }
  EXPECT_GE(inWindow, 2u);
  EXPECT_GE(outside, 3u);
  EXPECT_TRUE(slowRanks.count(highestLocation));
  EXPECT_GT(highest, 1.5 * compute);
  EXPECT_EQ(allreduces, 8u * (8 + 2)); // the iterations' and the two barriers
}

}
