// Tests of BuildLogicalTrace (Ravel's logical time, Isaacs et al. 2014 (Ravel) sections 3.1,
// 3.2, 3.3.2, 4.3). The small traces below have their steps, phases and
// lateness worked out by hand in the comments; the randomized test at the end
// checks the defining properties, and lateness against a brute force, on
// causal traces made by a small forward simulation.
#include "LogicalTime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

namespace
{
using namespace macroscope::logical;

constexpr int32_t Compute = 0; // a user function
constexpr int32_t Mpi = 1;     // an MPI call

// A trace under construction: states, messages, collective records.
struct Trace
{
  TraceInput In;

  explicit Trace(uint32_t locations)
  {
    this->In.Locations = locations;
    this->In.CommunicationType = { false, true };
  }
  int64_t State(int32_t location, int32_t type, int32_t depth, double start, double end)
  {
    this->In.StateLocation.push_back(location);
    this->In.StateType.push_back(type);
    this->In.StateDepth.push_back(depth);
    this->In.StateStart.push_back(start);
    this->In.StateEnd.push_back(end);
    return int64_t(this->In.StateLocation.size()) - 1;
  }
  int64_t Call(int32_t location, double start, double end, int32_t depth = 1)
  {
    return this->State(location, Mpi, depth, start, end);
  }
  int64_t Message(int32_t from, int32_t to, double sent, double received)
  {
    this->In.Sender.push_back(from);
    this->In.Receiver.push_back(to);
    this->In.SendTime.push_back(sent);
    this->In.RecvTime.push_back(received);
    return int64_t(this->In.Sender.size()) - 1;
  }
  void Collective(int32_t location, double t, int64_t communicator = 0)
  {
    this->In.CollectiveLocation.push_back(location);
    this->In.CollectiveTime.push_back(t);
    this->In.CollectiveCommunicator.push_back(communicator);
  }
};

// The row of the communication event of `location` that covers time t.
std::size_t RowAt(const LogicalTrace& trace, int32_t location, double t)
{
  const LogicalEvents& ev = trace.Events;
  for (std::size_t r = 0; r < ev.size(); ++r)
  {
    if (ev.Location[r] == location && ev.Kind[r] != EventKind::Aggregate && ev.Enter[r] <= t &&
      t <= ev.Exit[r])
    {
      return r;
    }
  }
  ADD_FAILURE() << "no communication event of location " << location << " at " << t;
  return 0;
}
int64_t StepAt(const LogicalTrace& trace, int32_t location, double t)
{
  return trace.Events.Step[RowAt(trace, location, t)];
}
// The steps of a location's communication events, in time order.
std::vector<int64_t> Steps(const LogicalTrace& trace, int32_t location)
{
  std::vector<int64_t> steps;
  for (std::size_t r = 0; r < trace.Events.size(); ++r)
  {
    if (trace.Events.Location[r] == location && trace.Events.Kind[r] != EventKind::Aggregate)
    {
      steps.push_back(trace.Events.Step[r]);
    }
  }
  return steps;
}

// Fig. 2 style: 4 processes, a pairwise exchange with p^1 then with p^2,
// each a blocking send then a receive; optionally inside a function
// `exchange` (depth 1) that holds the four calls.
Trace PairwiseExchange(bool enclosed)
{
  Trace t(4);
  for (int p = 0; p < 4; ++p)
  {
    if (enclosed)
    {
      t.State(p, Compute, 1, 0, 7);
    }
    t.Call(p, 0, 1);
    t.Call(p, 2, 3);
    t.Call(p, 4, 5);
    t.Call(p, 6, 7);
    t.Message(p, p ^ 1, 0.5, 2.5);
    t.Message(p, p ^ 2, 4.5, 6.5);
  }
  return t;
}

TEST(LogicalTime, PairwiseExchangeAlternatesSendsAndReceives)
{
  // Inside `exchange`, one phase. Skeleton: the two sends of each process;
  // the first send of p's partner leads to p's second send, so the rounds
  // are 0 and 1. Sends of round 0: step 0; receives: 1; sends of round 1:
  // one after the receives, 2; receives: 3.
  const LogicalTrace trace = BuildLogicalTrace(PairwiseExchange(true).In);
  ASSERT_EQ(trace.Phases.size(), 1u);
  EXPECT_EQ(trace.Report.MergedPhaseCycles, 0u);
  for (int p = 0; p < 4; ++p)
  {
    EXPECT_EQ(Steps(trace, p), (std::vector<int64_t>{ 0, 1, 2, 3 })) << "process " << p;
    EXPECT_EQ(trace.Events.Kind[RowAt(trace, p, 0.5)], EventKind::Send);
    EXPECT_EQ(trace.Events.Kind[RowAt(trace, p, 2.5)], EventKind::Receive);
    EXPECT_EQ(trace.Events.Partner[RowAt(trace, p, 2.5)], p ^ 1);
    EXPECT_EQ(trace.Events.Partner[RowAt(trace, p, 6.5)], p ^ 2);
  }
  EXPECT_EQ(trace.Phases[0].Pattern, ExchangePattern::Alternating);
  EXPECT_EQ(trace.Phases[0].Locations, 4u);
  EXPECT_EQ(trace.Phases[0].Events, 32u); // 16 calls and their aggregates
  EXPECT_EQ(trace.Phases[0].FirstGlobalStep, 0);
  EXPECT_EQ(trace.Phases[0].LastGlobalStep, 7);
  // Rows: by location, aggregate before each call, GlobalStep 2s and 2s + 1.
  ASSERT_EQ(trace.Events.size(), 32u);
  for (std::size_t r = 0; r < 32; ++r)
  {
    EXPECT_EQ(trace.Events.Location[r], int32_t(r / 8));
    EXPECT_EQ(trace.Events.Kind[r] == EventKind::Aggregate, r % 2 == 0);
    EXPECT_EQ(trace.Events.GlobalStep[r], 2 * trace.Events.Step[r] + int64_t(r % 2));
  }
  // The aggregate between the calls at [0, 1] and [2, 3].
  const std::size_t receive = RowAt(trace, 2, 2.5);
  EXPECT_EQ(trace.Events.Enter[receive - 1], 1.0);
  EXPECT_EQ(trace.Events.Exit[receive - 1], 2.0);
  ASSERT_EQ(trace.Messages.size(), 8u);
  EXPECT_EQ(trace.Messages.SendEvent[0], int64_t(RowAt(trace, 0, 0.5)));
  EXPECT_EQ(trace.Messages.RecvEvent[0], int64_t(RowAt(trace, 1, 2.5)));
}

TEST(LogicalTime, PairwiseExchangePhasesAreMergedComponents)
{
  // Without an enclosing call each message starts as its own phase; the
  // two messages of a pair form a cycle through the processes' timelines
  // (0.S1 -> 0.R1 is phase a -> b, 1.S1 -> 1.R1 is b -> a) and merge: four
  // phases, two pairs per stage, 4 merges. The stage-2 phases follow both
  // stage-1 phases (span 2), so the steps are those of the single phase.
  const LogicalTrace trace = BuildLogicalTrace(PairwiseExchange(false).In);
  ASSERT_EQ(trace.Phases.size(), 4u);
  EXPECT_EQ(trace.Report.MergedPhaseCycles, 4u);
  for (int p = 0; p < 4; ++p)
  {
    EXPECT_EQ(Steps(trace, p), (std::vector<int64_t>{ 0, 1, 2, 3 })) << "process " << p;
    EXPECT_EQ(
      trace.Events.Phase[RowAt(trace, p, 0.5)], trace.Events.Phase[RowAt(trace, p ^ 1, 2.5)]);
    EXPECT_EQ(trace.Events.Phase[RowAt(trace, p, 0.5)], trace.Events.Phase[RowAt(trace, p, 2.5)]);
    EXPECT_EQ(
      trace.Events.Phase[RowAt(trace, p, 4.5)], trace.Events.Phase[RowAt(trace, p ^ 2, 6.5)]);
    // Stage-1 phases are 0 and 1 (topological order), stage-2 ones 2 and 3.
    EXPECT_LT(trace.Events.Phase[RowAt(trace, p, 0.5)], 2);
    EXPECT_GE(trace.Events.Phase[RowAt(trace, p, 4.5)], 2);
  }
  for (const PhaseInfo& phase : trace.Phases)
  {
    EXPECT_EQ(phase.Locations, 2u);
    EXPECT_EQ(phase.Events, 8u);
    EXPECT_EQ(phase.Pattern, ExchangePattern::Alternating);
  }
}

// A ring of 4: exchange_halo ⊃ Irecv, Irecv, Isend left, Isend right,
// Waitall, for `iterations` iterations of length 10 with a compute call.
Trace Ring(int iterations, bool blockingReceives = false)
{
  Trace t(4);
  for (int p = 0; p < 4; ++p)
  {
    t.State(p, Compute, 0, 0, 10.0 * iterations); // main
    for (int i = 0; i < iterations; ++i)
    {
      const double o = 10.0 * i;
      t.State(p, Compute, 1, o, o + 4);     // compute
      t.State(p, Compute, 1, o + 4, o + 9); // exchange_halo
      if (!blockingReceives)
      {
        t.Call(p, o + 4.0, o + 4.2, 2); // Irecv postings: no endpoint
        t.Call(p, o + 4.2, o + 4.4, 2);
      }
      t.Call(p, o + 5, o + 5.5, 2); // Isend left
      t.Call(p, o + 6, o + 6.5, 2); // Isend right
      if (blockingReceives)
      {
        t.Call(p, o + 7, o + 7.5, 2); // Recv from the right neighbour's left send
        t.Call(p, o + 8, o + 8.5, 2); // Recv from the left neighbour's right send
        t.Message(p, (p + 3) % 4, o + 5.2, o + 8.2);
        t.Message(p, (p + 1) % 4, o + 6.2, o + 7.2);
      }
      else
      {
        t.Call(p, o + 7, o + 8, 2); // Waitall
        t.Message(p, (p + 3) % 4, o + 5.2, o + 7.4);
        t.Message(p, (p + 1) % 4, o + 6.2, o + 7.6);
      }
    }
  }
  return t;
}

TEST(LogicalTime, RingIsendIsendWaitall)
{
  // Per iteration one phase: Isend, Isend (rounds 0, 1), the Waitall one
  // after the later of its Isend and its senders: 0, 1, 2; the second
  // iteration starts after the first: 3, 4, 5.
  const LogicalTrace trace = BuildLogicalTrace(Ring(2).In);
  ASSERT_EQ(trace.Phases.size(), 2u);
  for (int p = 0; p < 4; ++p)
  {
    EXPECT_EQ(Steps(trace, p), (std::vector<int64_t>{ 0, 1, 2, 3, 4, 5 })) << "process " << p;
    const std::size_t waitall = RowAt(trace, p, 7.5);
    EXPECT_EQ(trace.Events.Kind[waitall], EventKind::Receive);
    EXPECT_EQ(trace.Events.Receives[waitall], 2);
    EXPECT_EQ(trace.Events.Phase[waitall], 0);
    EXPECT_EQ(trace.Events.Phase[RowAt(trace, p, 15.2)], 1);
  }
  EXPECT_EQ(trace.Report.InstantEndpoints, 0u);
  for (const PhaseInfo& phase : trace.Phases)
  {
    EXPECT_EQ(phase.Pattern, ExchangePattern::ReceivesWaitall);
  }
  EXPECT_EQ(trace.Phases[1].FirstGlobalStep, 6);
  // The first aggregate runs from main's start to the first Isend.
  EXPECT_EQ(trace.Events.Enter[0], 0.0);
  EXPECT_EQ(trace.Events.Exit[0], 5.0);
  EXPECT_EQ(trace.Phases[0].Start, 0.0);
  EXPECT_EQ(trace.Phases[0].End, 8.0);
}

TEST(LogicalTime, RingSendsThenReceives)
{
  // Isend, Isend, then one blocking receive per message: steps 0, 1, then
  // the receives at 2 (after the second Isend) and 3.
  const LogicalTrace trace = BuildLogicalTrace(Ring(1, true).In);
  ASSERT_EQ(trace.Phases.size(), 1u);
  EXPECT_EQ(trace.Phases[0].Pattern, ExchangePattern::SendsThenReceives);
  for (int p = 0; p < 4; ++p)
  {
    EXPECT_EQ(Steps(trace, p), (std::vector<int64_t>{ 0, 1, 2, 3 }));
  }
}

// Binary tree gather to rank 0 over 8 ranks (children of r: 2r+1, 2r+2),
// blocking Recv from each child in order, then Send to the parent.
Trace TreeGather()
{
  Trace t(8);
  for (int r = 0; r < 8; ++r)
  {
    t.State(r, Compute, 1, 0, 9); // tree_gather
  }
  // Level times: leaves 4..7 send at [0, 1]; rank 3 receives from 7 at
  // [1, 2] and sends at [2, 3]; ranks 1, 2 receive at [3, 4], [4, 5] and
  // send at [5, 6]; rank 0 receives at [6, 7], [7, 8].
  const double receiveAt[8][2] = { { 6, 7 }, { 3, 4 }, { 3, 4 }, { 1, -1 } };
  const double sendAt[8] = { -1, 5, 5, 2, 0, 0, 0, 0 };
  for (int r = 0; r < 8; ++r)
  {
    for (int c = 0; c < 2; ++c)
    {
      const int child = 2 * r + 1 + c;
      if (child < 8)
      {
        const double at = receiveAt[r][c];
        t.Call(r, at, at + 1);
        t.Message(child, r, sendAt[child] + 0.5, at + 0.5);
      }
    }
    if (r > 0)
    {
      t.Call(r, sendAt[r], sendAt[r] + 1);
    }
  }
  return t;
}

TEST(LogicalTime, TreeGatherSteps)
{
  // Rounds of the sends: leaves 0; ranks 3 and 2 (after receives from round
  // 0 senders) 1; rank 1 (after rank 3) 2. Steps:
  //   leaves 4..7: S 0
  //   rank 3: R(7) 1, S at round 1
  //   rank 2: R(5) 1, R(6) 2, S at round 1 -> A(1) = max(1, 2, 3) = 3
  //   rank 1: R(3) 4, R(4) 5, S 6 (round 2)
  //   rank 0: R(1) 7, R(2) 8
  const LogicalTrace trace = BuildLogicalTrace(TreeGather().In);
  ASSERT_EQ(trace.Phases.size(), 1u);
  EXPECT_EQ(trace.Phases[0].Pattern, ExchangePattern::None);
  EXPECT_EQ(Steps(trace, 0), (std::vector<int64_t>{ 7, 8 }));
  EXPECT_EQ(Steps(trace, 1), (std::vector<int64_t>{ 4, 5, 6 }));
  EXPECT_EQ(Steps(trace, 2), (std::vector<int64_t>{ 1, 2, 3 }));
  EXPECT_EQ(Steps(trace, 3), (std::vector<int64_t>{ 1, 3 }));
  for (int r = 4; r < 8; ++r)
  {
    EXPECT_EQ(Steps(trace, r), (std::vector<int64_t>{ 0 }));
  }
}

TEST(LogicalTime, SendsAlignWhereLamportWouldNot)
{
  // A: S1, R, S2; B: S1, S2; C receives A.S1, B.S2, A.S2. B.S1 -> A.R.
  // Lamport: B.S2 = B.S1 + 1 = 1 but A.S2 = A.R + 1 = 2. Send alignment:
  // both second sends are round 1 and share step 2. One phase: each
  // process's calls are inside one function.
  Trace t(3);
  for (int p = 0; p < 3; ++p)
  {
    t.State(p, Compute, 1, 0, 12);
  }
  t.Call(0, 0, 1);
  t.Call(0, 2, 3);
  t.Call(0, 4, 5);
  t.Call(1, 0, 1);
  t.Call(1, 4, 5);
  t.Call(2, 6, 7);
  t.Call(2, 8, 9);
  t.Call(2, 10, 11);
  t.Message(0, 2, 0.5, 6.5);
  t.Message(1, 0, 0.5, 2.5);
  t.Message(1, 2, 4.5, 8.5);
  t.Message(0, 2, 4.6, 10.5);
  const LogicalTrace trace = BuildLogicalTrace(t.In);
  EXPECT_EQ(Steps(trace, 0), (std::vector<int64_t>{ 0, 1, 2 }));
  EXPECT_EQ(Steps(trace, 1), (std::vector<int64_t>{ 0, 2 }));
  // C: 0 + 1, then max(1, B.S2 = 2) + 1, then max(3, 2) + 1.
  EXPECT_EQ(Steps(trace, 2), (std::vector<int64_t>{ 1, 3, 4 }));
}

TEST(LogicalTime, BarrierExchangeBarrierMakeThreePhasesInOrder)
{
  // main (depth 0) holds both barriers: they do not merge. Barrier 1 is
  // phase 0 (step 0), the exchange phase 1 (steps 1, 2), barrier 2 phase 2 (3).
  Trace t(2);
  for (int p = 0; p < 2; ++p)
  {
    t.State(p, Compute, 0, 0, 10);
    t.Call(p, 1, 2);
    t.Collective(p, 1.9);
    t.Call(p, 3, 4);
    t.Call(p, 5, 6);
    t.Message(p, 1 - p, 3.5, 5.5);
    t.Call(p, 7, 8);
    t.Collective(p, 7.9);
  }
  const LogicalTrace trace = BuildLogicalTrace(t.In);
  ASSERT_EQ(trace.Phases.size(), 3u);
  for (int p = 0; p < 2; ++p)
  {
    EXPECT_EQ(Steps(trace, p), (std::vector<int64_t>{ 0, 1, 2, 3 }));
    EXPECT_EQ(trace.Events.Phase[RowAt(trace, p, 1.5)], 0);
    EXPECT_EQ(trace.Events.Phase[RowAt(trace, p, 3.5)], 1);
    EXPECT_EQ(trace.Events.Phase[RowAt(trace, p, 7.5)], 2);
    EXPECT_EQ(trace.Events.Kind[RowAt(trace, p, 1.5)], EventKind::Collective);
  }
  EXPECT_EQ(
    trace.Events.Collective[RowAt(trace, 0, 7.5)], trace.Events.Collective[RowAt(trace, 1, 7.5)]);
  EXPECT_NE(
    trace.Events.Collective[RowAt(trace, 0, 1.5)], trace.Events.Collective[RowAt(trace, 0, 7.5)]);
  EXPECT_EQ(trace.Phases[0].FirstGlobalStep, 0);
  EXPECT_EQ(trace.Phases[0].LastGlobalStep, 1);
  EXPECT_EQ(trace.Phases[1].FirstGlobalStep, 2);
  EXPECT_EQ(trace.Phases[1].LastGlobalStep, 5);
  EXPECT_EQ(trace.Phases[2].FirstGlobalStep, 6);
  EXPECT_EQ(trace.Phases[2].LastGlobalStep, 7);
  EXPECT_EQ(trace.Phases[1].Pattern, ExchangePattern::Alternating);
  EXPECT_EQ(trace.Phases[0].Pattern, ExchangePattern::None);
  EXPECT_EQ(trace.Report.IncompleteCollectives, 0u);
}

TEST(LogicalTime, CollectiveMembersShareOneStep)
{
  // solve (depth 1) on each process: P0 sends to P1, then all three meet in
  // an Allreduce. One phase: P0.S round 0 (step 0), P1.R step 1, the
  // Allreduce round 1: one after P1.R, 2, for all three, though P2 has
  // nothing before it (Lamport would give it 0).
  Trace t(3);
  for (int p = 0; p < 3; ++p)
  {
    t.State(p, Compute, 1, 0, 10);
    t.Call(p, 5, 6, 2);
    t.Collective(p, 5.9);
  }
  t.Call(0, 1, 2, 2);
  t.Call(1, 3, 4, 2);
  t.Message(0, 1, 1.5, 3.5);
  const LogicalTrace trace = BuildLogicalTrace(t.In);
  ASSERT_EQ(trace.Phases.size(), 1u);
  EXPECT_EQ(Steps(trace, 0), (std::vector<int64_t>{ 0, 2 }));
  EXPECT_EQ(Steps(trace, 1), (std::vector<int64_t>{ 1, 2 }));
  EXPECT_EQ(Steps(trace, 2), (std::vector<int64_t>{ 2 }));

  // Without merging by enclosing call: the message and the Allreduce are two
  // phases; the Allreduce still follows the message phase (span 2).
  Options o;
  o.MergeByEnclosingCall = false;
  const LogicalTrace split = BuildLogicalTrace(t.In, o);
  ASSERT_EQ(split.Phases.size(), 2u);
  EXPECT_EQ(Steps(split, 2), (std::vector<int64_t>{ 2 }));
  EXPECT_EQ(Steps(split, 0), (std::vector<int64_t>{ 0, 2 }));
}

TEST(LogicalTime, IncompleteCollectivesAreKeptAndCounted)
{
  Trace t(3);
  for (int p = 0; p < 3; ++p)
  {
    t.Call(p, 0, 1);
    t.Collective(p, 0.5);
  }
  t.Call(0, 2, 3); // a second operation where P2 has no record
  t.Collective(0, 2.5);
  t.Call(1, 2, 4);
  t.Collective(1, 3.5);
  const LogicalTrace trace = BuildLogicalTrace(t.In);
  EXPECT_EQ(trace.Report.IncompleteCollectives, 1u);
  EXPECT_EQ(Steps(trace, 0), (std::vector<int64_t>{ 0, 1 }));
  EXPECT_EQ(Steps(trace, 1), (std::vector<int64_t>{ 0, 1 }));
}

TEST(LogicalTime, MergeByEnclosingCall)
{
  // A: F ⊃ {S -> B, S -> C}; B and C receive. Without merging, the two
  // messages are two phases: A.S1 0, B.R 1 | A.S2 2, C.R 3. With merging
  // (F at depth 1): one phase, A.S1 0, A.S2 1, B.R 1, C.R 2.
  const auto build = [](int32_t depth)
  {
    Trace t(3);
    t.State(0, Compute, depth, 0, 10);
    t.Call(0, 1, 2, depth + 1);
    t.Call(0, 3, 4, depth + 1);
    t.Call(1, 5, 6);
    t.Call(2, 5, 6);
    t.Message(0, 1, 1.5, 5.5);
    t.Message(0, 2, 3.5, 5.5);
    return t;
  };
  Options off;
  off.MergeByEnclosingCall = false;
  const LogicalTrace apart = BuildLogicalTrace(build(1).In, off);
  ASSERT_EQ(apart.Phases.size(), 2u);
  EXPECT_EQ(Steps(apart, 0), (std::vector<int64_t>{ 0, 2 }));
  EXPECT_EQ(Steps(apart, 1), (std::vector<int64_t>{ 1 }));
  EXPECT_EQ(Steps(apart, 2), (std::vector<int64_t>{ 3 }));

  const LogicalTrace merged = BuildLogicalTrace(build(1).In);
  ASSERT_EQ(merged.Phases.size(), 1u);
  EXPECT_EQ(Steps(merged, 0), (std::vector<int64_t>{ 0, 1 }));
  EXPECT_EQ(Steps(merged, 1), (std::vector<int64_t>{ 1 }));
  EXPECT_EQ(Steps(merged, 2), (std::vector<int64_t>{ 2 }));

  // An outermost call (main, depth 0) never merges.
  EXPECT_EQ(BuildLogicalTrace(build(0).In).Phases.size(), 2u);
}

TEST(LogicalTime, UserPhaseBoundaries)
{
  // Two processes exchange (S, R) at 0, 10, 20. Boundary 15: the first two
  // exchanges are phase 0 (steps 0, 1, then 2, 3: the second sends wait for
  // the first receives), the third phase 1 (4, 5). An enter equal to a
  // boundary belongs to the interval after it.
  Trace t(2);
  for (int p = 0; p < 2; ++p)
  {
    for (int i = 0; i < 3; ++i)
    {
      const double o = 10.0 * i + (i == 2 ? -5 : 0); // third at 15
      t.Call(p, o + 0, o + 1);
      t.Call(p, o + 2, o + 3);
      t.Message(p, 1 - p, o + 0.5, o + 2.5);
    }
  }
  Options o;
  o.PhaseBoundaries = { 15.0 };
  const LogicalTrace trace = BuildLogicalTrace(t.In, o);
  ASSERT_EQ(trace.Phases.size(), 2u);
  for (int p = 0; p < 2; ++p)
  {
    EXPECT_EQ(Steps(trace, p), (std::vector<int64_t>{ 0, 1, 2, 3, 4, 5 }));
    EXPECT_EQ(trace.Events.Phase[RowAt(trace, p, 12.5)], 0);
    EXPECT_EQ(trace.Events.Phase[RowAt(trace, p, 15.5)], 1);
  }
  // Without boundaries each exchange is its own phase, with the same steps.
  const LogicalTrace components = BuildLogicalTrace(t.In);
  EXPECT_EQ(components.Phases.size(), 3u);
  EXPECT_EQ(Steps(components, 0), (std::vector<int64_t>{ 0, 1, 2, 3, 4, 5 }));

  // A receive entered before boundary 5 completes a message sent after it:
  // causal, but phases 0 and 1 then form a cycle and merge.
  //   loc 0: a0 [1, 2] (phase 0) sends to b2; a1 [12, 13] (phase 1) sends to b1
  //   loc 1: b1 [4, 13] (phase 0) receives at 12.8; b2 [16, 17] (phase 2)
  // Merged phase: a0 0, a1 1 (rounds), b1 2; phase 2 starts at 3.
  Trace back(2);
  back.Call(0, 1, 2);
  back.Call(0, 12, 13);
  back.Call(1, 4, 13);
  back.Call(1, 16, 17);
  back.Message(0, 1, 1.5, 16.5);
  back.Message(0, 1, 12.5, 12.8);
  o.PhaseBoundaries = { 5.0, 15.0 };
  const LogicalTrace cycle = BuildLogicalTrace(back.In, o);
  EXPECT_EQ(cycle.Report.DroppedMessages, 0u);
  EXPECT_EQ(cycle.Report.MergedPhaseCycles, 1u);
  ASSERT_EQ(cycle.Phases.size(), 2u);
  EXPECT_EQ(Steps(cycle, 0), (std::vector<int64_t>{ 0, 1 }));
  EXPECT_EQ(Steps(cycle, 1), (std::vector<int64_t>{ 2, 3 }));
  EXPECT_EQ(cycle.Events.Phase[RowAt(cycle, 1, 16.5)], 1);
}

TEST(LogicalTime, SkewedMessageIsDroppedNotHung)
{
  // A.S1 -> B.R; B.S2 -> A, but its receive time (1.5, clock skew) falls in
  // A.S1's call: A.S1 becomes a SendReceive and the graph a cycle
  // A.S1 -> B.R -> B.S2 -> A.S1. The skewed message is dropped.
  Trace t(2);
  t.Call(0, 1, 2);
  t.Call(1, 3, 4);
  t.Call(1, 5, 6);
  const int64_t kept = t.Message(0, 1, 1.2, 3.5);
  const int64_t skewed = t.Message(1, 0, 5.5, 1.5);
  const LogicalTrace trace = BuildLogicalTrace(t.In);
  EXPECT_EQ(trace.Report.DroppedMessages, 1u);
  EXPECT_EQ(trace.Messages.Dropped[skewed], 1);
  EXPECT_EQ(trace.Messages.Dropped[kept], 0);
  EXPECT_EQ(trace.Events.Kind[RowAt(trace, 0, 1.5)], EventKind::SendReceive);
  EXPECT_EQ(Steps(trace, 0), (std::vector<int64_t>{ 0 }));
  EXPECT_EQ(Steps(trace, 1), (std::vector<int64_t>{ 1, 2 }));

  // No skew, but a Sendrecv against a receive-then-send partner still makes
  // a cycle: the message with the least slack goes (A -> B, 1 time unit).
  Trace s(2);
  s.Call(0, 0, 10); // Sendrecv: sends at 1, receives at 9
  s.Call(1, 2, 3);
  s.Call(1, 4, 5);
  const int64_t tight = s.Message(0, 1, 1, 2.5);
  s.Message(1, 0, 4.5, 9);
  const LogicalTrace sendrecv = BuildLogicalTrace(s.In);
  EXPECT_EQ(sendrecv.Report.DroppedMessages, 1u);
  EXPECT_EQ(sendrecv.Messages.Dropped[tight], 1);
  EXPECT_EQ(Steps(sendrecv, 1), (std::vector<int64_t>{ 0, 1 }));
  EXPECT_EQ(Steps(sendrecv, 0), (std::vector<int64_t>{ 2 }));
}

TEST(LogicalTime, CollectivesMetInOppositeOrdersAreSplit)
{
  // A: comm 1 then comm 2; B: comm 2 then comm 1: no order of the two
  // operations fits both. They are stepped per member, never hanging.
  Trace t(2);
  t.Call(0, 0, 1);
  t.Collective(0, 0.5, 1);
  t.Call(0, 2, 3);
  t.Collective(0, 2.5, 2);
  t.Call(1, 0, 1);
  t.Collective(1, 0.5, 2);
  t.Call(1, 2, 3);
  t.Collective(1, 2.5, 1);
  const LogicalTrace trace = BuildLogicalTrace(t.In);
  EXPECT_GE(trace.Report.SplitCollectives, 1u);
  for (int p = 0; p < 2; ++p)
  {
    const std::vector<int64_t> steps = Steps(trace, p);
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_LT(steps[0], steps[1]);
  }
}

TEST(LogicalTime, InstantEndpoints)
{
  // A send outside any MPI call becomes an instant event at its time; an
  // MPI call holding no endpoint is aggregated time.
  Trace t(2);
  t.State(0, Compute, 0, 0, 10);
  t.Call(0, 1, 2); // MPI_Init-like, no endpoint
  t.Call(1, 3, 4);
  t.Message(0, 1, 2.5, 3.5);
  const LogicalTrace trace = BuildLogicalTrace(t.In);
  EXPECT_EQ(trace.Report.InstantEndpoints, 1u);
  const std::size_t send = RowAt(trace, 0, 2.5);
  EXPECT_EQ(trace.Events.Enter[send], 2.5);
  EXPECT_EQ(trace.Events.Exit[send], 2.5);
  EXPECT_EQ(trace.Events.State[send], -1);
  EXPECT_EQ(trace.Events.Type[send], -1);
  EXPECT_EQ(trace.Events.Enter[send - 1], 0.0); // from main's start
  EXPECT_EQ(Steps(trace, 0), (std::vector<int64_t>{ 0 }));
  EXPECT_EQ(Steps(trace, 1), (std::vector<int64_t>{ 1 }));
  EXPECT_EQ(trace.Events.State[RowAt(trace, 1, 3.5)], 2);
  EXPECT_EQ(trace.Events.Type[RowAt(trace, 1, 3.5)], Mpi);
}

TEST(LogicalTime, EndpointsAtCallBoundaries)
{
  // Traces written with equal timestamps (the synthesizer's): a receive
  // completion at the time one call ends and the next starts belongs to the
  // ending call (MPI_Recv writes it before its leave), unless that call
  // holds a send (Isend then Waitall: the Waitall's). A send belongs to the
  // starting call (written after its enter); a collective end to the
  // ending call, even when a non-MPI or MPI call starts at that time.
  Trace t(2);
  t.State(0, Compute, 0, 0, 10);
  t.Call(0, 0, 1); // Recv, completes at 1
  t.Call(0, 1, 2); // Recv, completes at 2
  t.Call(0, 2, 3); // Send at 2
  t.Call(0, 3, 4); // Barrier, ends at 4
  t.Call(0, 4, 5); // Finalize: no endpoint
  t.State(0, Compute, 1, 4, 5);
  t.Collective(0, 4);
  t.Call(1, 0, 0.5);   // Send at 0
  t.Call(1, 0.5, 0.8); // Send at 0.5
  t.Call(1, 2, 3);     // Recv, completes at 3
  t.Call(1, 3, 4);     // Barrier
  t.Collective(1, 4);
  t.Message(1, 0, 0, 1);
  t.Message(1, 0, 0.5, 2);
  t.Message(0, 1, 2, 3);
  // Isend [6, 7] then Waitall [7, 8] on both, each receiving at 7.
  for (int p = 0; p < 2; ++p)
  {
    t.Call(p, 6, 7);
    t.Call(p, 7, 8);
    t.Message(p, 1 - p, 6, 7);
  }
  const LogicalTrace trace = BuildLogicalTrace(t.In);
  EXPECT_EQ(trace.Report.InstantEndpoints, 0u);
  std::vector<EventKind> kinds;
  std::vector<int32_t> receives;
  for (std::size_t r = 1; r < trace.Events.size(); r += 2)
  {
    if (trace.Events.Location[r] == 0)
    {
      kinds.push_back(trace.Events.Kind[r]);
      receives.push_back(trace.Events.Receives[r]);
    }
  }
  using K = EventKind;
  EXPECT_EQ(
    kinds, (std::vector<K>{ K::Receive, K::Receive, K::Send, K::Collective, K::Send, K::Receive }));
  EXPECT_EQ(receives, (std::vector<int32_t>{ 1, 1, 0, 0, 0, 1 }));
  EXPECT_EQ(trace.Events.Enter[RowAt(trace, 0, 3.5)], 3.0);
  EXPECT_EQ(trace.Events.Enter[RowAt(trace, 0, 7.5)], 7.0);
  EXPECT_EQ(trace.Events.Enter[RowAt(trace, 1, 7.5)], 7.0);
}

// Three processes send to the next (mod 3), then receive from the previous;
// P2 starts 5 late. Then an Allreduce, then the same exchange undelayed.
Trace DelayedRing()
{
  Trace t(3);
  for (int p = 0; p < 3; ++p)
  {
    t.State(p, Compute, 0, 0, 20);
    const double d = p == 2 ? 5 : 0;
    t.Call(p, d + 0, d + 1);               // S
    t.Message(p, (p + 1) % 3, d + 0.5, 0); // receive time set below
    t.Call(p, d + 1, p == 0 ? 6 : d + 2);  // R: P0 waits for P2
    t.Call(p, p == 0 ? 6.5 : d + 2.5, 8);  // Allreduce, all leave at 8
    t.Collective(p, 7.9);
    t.Call(p, 9, 10);
    t.Message(p, (p + 1) % 3, 9.5, 10.5);
    t.Call(p, 10, 11);
  }
  // Receive times of the first exchange: inside each receiver's R.
  t.In.RecvTime[0] = 1.5; // P0 -> P1
  t.In.RecvTime[2] = 6.5; // P1 -> P2
  t.In.RecvTime[4] = 5.8; // P2 -> P0
  return t;
}

TEST(LogicalTime, LatenessPropagatesAndResets)
{
  // One phase per exchange, one for the Allreduce: S 0, R 1, Allreduce 2,
  // S 3, R 4. Lateness by hand (exit minus the earliest exit of the step):
  //   GS 0 (aggregates to S, exits 0, 0, 5):   0, 0, 5
  //   GS 1 (S, exits 1, 1, 6):                  0, 0, 5
  //   GS 2 (aggregates to R, exits 1, 1, 6):    0, 0, 5
  //   GS 3 (R, exits 6, 2, 7):                  4, 0, 5   <- P2's delay reached P0
  //   GS 4 (aggregates to Allreduce, exits 6.5, 2.5, 7.5): 4, 0, 5
  //   GS 5 (Allreduce, all exit 8):             0, 0, 0   <- reset
  //   GS 6..9 (second exchange):                all 0
  const LogicalTrace trace = BuildLogicalTrace(DelayedRing().In);
  ASSERT_EQ(trace.Phases.size(), 3u);
  // Rows of a location: agg S, S, agg R, R, agg A, A, agg S, S, agg R, R.
  const std::vector<double> expected[3] = {
    { 0, 0, 0, 4, 4, 0, 0, 0, 0, 0 },
    { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    { 5, 5, 5, 5, 5, 0, 0, 0, 0, 0 },
  };
  // Differential lateness: what the event adds over its predecessors. P2's
  // first aggregate (no predecessor) is where the delay starts; P0's R
  // inherits P2's 5 through the message, so it adds nothing.
  const std::vector<double> differential[3] = {
    { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    { 5, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
  };
  for (int p = 0; p < 3; ++p)
  {
    std::vector<double> got, gotDifferential;
    std::vector<int64_t> globalSteps;
    for (std::size_t r = 0; r < trace.Events.size(); ++r)
    {
      if (trace.Events.Location[r] == p)
      {
        got.push_back(trace.Events.Lateness[r]);
        gotDifferential.push_back(trace.Events.DifferentialLateness[r]);
        globalSteps.push_back(trace.Events.GlobalStep[r]);
      }
    }
    EXPECT_EQ(globalSteps, (std::vector<int64_t>{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 }));
    EXPECT_EQ(got, expected[p]) << "process " << p;
    EXPECT_EQ(gotDifferential, differential[p]) << "process " << p;
  }
}

TEST(LogicalTime, StepSpansMapStepsAndTime)
{
  const LogicalTrace trace = BuildLogicalTrace(DelayedRing().In);
  const StepSpans& spans = trace.Spans;
  ASSERT_EQ(spans.Start.size(), 10u);
  // GS 1, the first sends: enters 0, 0, 5; exits 1, 1, 6.
  EXPECT_EQ(spans.Start[1], 0.0);
  EXPECT_EQ(spans.End[1], 6.0);
  // GS 4, aggregates before the Allreduce: [6, 6.5], [2, 2.5], [7, 7.5].
  EXPECT_EQ(spans.Start[4], 2.0);
  EXPECT_EQ(spans.End[4], 7.5);
  // The largest span over steps 1..3: min enter 0, max exit 7.
  EXPECT_EQ(spans.TimeOfSteps(1, 3), std::make_pair(0.0, 7.0));
  EXPECT_EQ(spans.TimeOfSteps(-5, 0), std::make_pair(0.0, 5.0)); // clamped to step 0
  EXPECT_TRUE(std::isnan(spans.TimeOfSteps(20, 30).first));
  // [7.6, 7.9]: GS 5 (the Allreduce, [2.5, 8]) only; GS 6 starts at 8.
  EXPECT_EQ(spans.StepsOfTime(7.6, 7.9), std::make_pair(int64_t(5), int64_t(5)));
  // [8.5, 9.5]: GS 6 (aggregates [8, 9]) and GS 7 (sends [9, 10]).
  EXPECT_EQ(spans.StepsOfTime(8.5, 9.5), std::make_pair(int64_t(6), int64_t(7)));
  EXPECT_EQ(spans.StepsOfTime(100, 200), std::make_pair(int64_t(0), int64_t(-1)));
}

TEST(LogicalTime, InvalidInputThrows)
{
  const auto throws = [](const TraceInput& in, const Options& o = {})
  { EXPECT_THROW(BuildLogicalTrace(in, o), std::invalid_argument); };
  Trace lengths(2);
  lengths.Call(0, 0, 1);
  lengths.In.StateEnd.push_back(3);
  throws(lengths.In);
  Trace location(2);
  location.Call(2, 0, 1);
  throws(location.In);
  Trace backwards(2);
  backwards.Call(0, 2, 1);
  throws(backwards.In);
  Trace type(2);
  type.State(0, 5, 0, 0, 1);
  throws(type.In);
  Trace message(2);
  message.Message(0, -1, 0, 1);
  throws(message.In);
  Trace nan(2);
  nan.Message(0, 1, std::nan(""), 1);
  throws(nan.In);
  Trace collective(2);
  collective.Collective(7, 0);
  throws(collective.In);
  Options unsorted;
  unsorted.PhaseBoundaries = { 2.0, 1.0 };
  throws(Trace(2).In, unsorted);
  // The message names the problem.
  try
  {
    BuildLogicalTrace(backwards.In);
  }
  catch (const std::invalid_argument& e)
  {
    EXPECT_NE(std::string(e.what()).find("ends"), std::string::npos) << e.what();
  }
  // Empty input is valid and empty.
  const LogicalTrace empty = BuildLogicalTrace(Trace(3).In);
  EXPECT_EQ(empty.Events.size(), 0u);
  EXPECT_EQ(empty.Phases.size(), 0u);
}

TEST(LogicalTime, ProgressAndAbort)
{
  std::vector<double> reported;
  BuildLogicalTrace(Ring(2).In, {},
    [&](double f)
    {
      reported.push_back(f);
      return true;
    });
  ASSERT_FALSE(reported.empty());
  EXPECT_TRUE(std::is_sorted(reported.begin(), reported.end()));
  EXPECT_EQ(reported.back(), 1.0);
  // Refusing at any report aborts.
  for (std::size_t stop = 0; stop < reported.size(); ++stop)
  {
    std::size_t calls = 0;
    EXPECT_THROW(BuildLogicalTrace(Ring(2).In, {}, [&](double) { return calls++ < stop; }),
      LogicalTimeAborted);
  }
}

TEST(LogicalTime, ExchangeNeedsMatchingNeighbourhoods)
{
  // Every process sends to both neighbours, but P0 receives from one only:
  // not an exchange.
  Trace t = Ring(1);
  t.In.RecvTime.pop_back();
  t.In.SendTime.pop_back();
  t.In.Sender.pop_back();
  t.In.Receiver.pop_back();
  const LogicalTrace trace = BuildLogicalTrace(t.In);
  ASSERT_EQ(trace.Phases.size(), 1u);
  EXPECT_EQ(trace.Phases[0].Pattern, ExchangePattern::None);
}

// ---------------------------------------------------------------------------
// Random causal traces: rounds in which every process may send to random
// partners, then receives (one call each, or one Waitall for several) some of
// the messages sent to it in earlier rounds; some rounds are a barrier.
Trace RandomTrace(std::mt19937_64& rng, uint32_t processes, int rounds)
{
  Trace t(processes);
  std::vector<double> clock(processes, 0.0);
  struct Pending
  {
    int32_t From;
    double Sent;
  };
  std::vector<std::vector<Pending>> inbox(processes);
  std::uniform_real_distribution<double> work(0.1, 2.0);
  std::uniform_int_distribution<int> partner(0, int(processes) - 1);
  std::bernoulli_distribution coin(0.5), rare(0.15);
  for (uint32_t p = 0; p < processes; ++p)
  {
    t.State(int32_t(p), Compute, 0, 0, 1e9);
  }
  for (int round = 0; round < rounds; ++round)
  {
    if (rare(rng))
    {
      double last = 0;
      for (uint32_t p = 0; p < processes; ++p)
      {
        clock[p] += work(rng);
        last = std::max(last, clock[p]);
      }
      for (uint32_t p = 0; p < processes; ++p)
      {
        t.Call(int32_t(p), clock[p], last + 0.1);
        t.Collective(int32_t(p), last + 0.05, 0);
        clock[p] = last + 0.1;
      }
      continue;
    }
    std::vector<std::vector<Pending>> sent(processes);
    for (uint32_t p = 0; p < processes; ++p)
    {
      const int sends = std::uniform_int_distribution<int>(0, 2)(rng);
      for (int s = 0; s < sends; ++s)
      {
        clock[p] += work(rng);
        const int32_t to = int32_t(partner(rng));
        if (rare(rng))
        {
          sent[to].push_back({ int32_t(p), clock[p] }); // instant endpoint
          continue;
        }
        t.Call(int32_t(p), clock[p], clock[p] + 0.2);
        sent[to].push_back({ int32_t(p), clock[p] + 0.1 });
        clock[p] += 0.2;
      }
      if (rare(rng))
      {
        clock[p] += work(rng);
        t.Call(int32_t(p), clock[p], clock[p] + 0.1); // no endpoint
        clock[p] += 0.1;
      }
    }
    for (uint32_t p = 0; p < processes; ++p)
    {
      std::vector<Pending>& box = inbox[p];
      std::shuffle(box.begin(), box.end(), rng);
      std::size_t take = std::uniform_int_distribution<std::size_t>(0, box.size())(rng);
      const bool waitall = coin(rng);
      std::size_t i = 0;
      while (i < take)
      {
        const std::size_t group = waitall ? take - i : 1;
        clock[p] += work(rng);
        const double enter = clock[p];
        double done = enter;
        for (std::size_t k = i; k < i + group; ++k)
        {
          done = std::max(done, box[k].Sent + 0.3) + 0.01;
          t.Message(box[k].From, int32_t(p), box[k].Sent, done);
        }
        t.Call(int32_t(p), enter, done + 0.01);
        clock[p] = done + 0.01;
        i += group;
      }
      box.erase(box.begin(), box.begin() + take);
      box.insert(box.end(), sent[p].begin(), sent[p].end());
    }
  }
  return t;
}

void CheckProperties(const Trace& t, const LogicalTrace& trace)
{
  const LogicalEvents& ev = trace.Events;
  const std::size_t n = ev.size();
  EXPECT_EQ(trace.Report.DroppedMessages, 0u);
  ASSERT_EQ(trace.Messages.size(), t.In.Sender.size());
  // Rows: grouped by location, aggregates before events, time order.
  int64_t sends = 0, receives = 0;
  for (std::size_t r = 0; r < n; ++r)
  {
    ASSERT_EQ(ev.Kind[r] == EventKind::Aggregate, r % 2 == 0);
    ASSERT_EQ(ev.GlobalStep[r], 2 * ev.Step[r] + int64_t(r % 2));
    ASSERT_LE(ev.Enter[r], ev.Exit[r]);
    if (r % 2 == 1)
    {
      ASSERT_EQ(ev.Step[r], ev.Step[r - 1]);
      ASSERT_EQ(ev.Phase[r], ev.Phase[r - 1]);
      ASSERT_EQ(ev.Exit[r - 1], ev.Enter[r]);
      sends += ev.Sends[r];
      receives += ev.Receives[r];
    }
    if (r >= 2 && r % 2 == 1 && ev.Location[r] == ev.Location[r - 2])
    {
      // Happened-before along a location; phases in topological order.
      ASSERT_LT(ev.Step[r - 2], ev.Step[r]);
      ASSERT_LE(ev.Enter[r - 2], ev.Enter[r]);
      ASSERT_LE(ev.Phase[r - 2], ev.Phase[r]);
    }
    if (r > 0)
    {
      ASSERT_LE(ev.Location[r - 1], ev.Location[r]);
    }
  }
  EXPECT_EQ(sends, int64_t(t.In.Sender.size()));
  EXPECT_EQ(receives, int64_t(t.In.Sender.size()));
  // Happened-before along messages.
  for (std::size_t m = 0; m < trace.Messages.size(); ++m)
  {
    const int64_t s = trace.Messages.SendEvent[m], r = trace.Messages.RecvEvent[m];
    ASSERT_EQ(ev.Location[s], t.In.Sender[m]);
    ASSERT_EQ(ev.Location[r], t.In.Receiver[m]);
    ASSERT_EQ(ev.Phase[s], ev.Phase[r]);
    if (s != r)
    {
      ASSERT_LT(ev.Step[s], ev.Step[r]) << "message " << m;
    }
  }
  // Collective members share one step.
  std::map<int64_t, std::set<int64_t>> collectiveSteps;
  for (std::size_t r = 1; r < n; r += 2)
  {
    if (ev.Collective[r] >= 0)
    {
      collectiveSteps[ev.Collective[r]].insert(ev.Step[r]);
    }
  }
  for (const auto& [operation, steps] : collectiveSteps)
  {
    ASSERT_EQ(steps.size(), 1u) << "collective " << operation;
  }
  // Phases strictly ordered along the phase DAG: where a location moves from
  // phase p to q, every event of p is before every event of q.
  const std::size_t phases = trace.Phases.size();
  std::vector<int64_t> lowest(phases, INT64_MAX), highest(phases, INT64_MIN);
  for (std::size_t r = 0; r < n; ++r)
  {
    lowest[ev.Phase[r]] = std::min(lowest[ev.Phase[r]], ev.Step[r]);
    highest[ev.Phase[r]] = std::max(highest[ev.Phase[r]], ev.Step[r]);
  }
  for (std::size_t r = 3; r < n; r += 2)
  {
    if (ev.Location[r] == ev.Location[r - 2] && ev.Phase[r] != ev.Phase[r - 2])
    {
      ASSERT_LT(highest[ev.Phase[r - 2]], lowest[ev.Phase[r]]);
    }
  }
  for (std::size_t p = 0; p < phases; ++p)
  {
    EXPECT_EQ(trace.Phases[p].FirstGlobalStep, 2 * lowest[p]);
    EXPECT_EQ(trace.Phases[p].LastGlobalStep, 2 * highest[p] + 1);
  }
  // A receive is one step after its latest predecessor in its phase (or at
  // the phase's first step).
  for (std::size_t r = 1; r < n; r += 2)
  {
    if (ev.Kind[r] != EventKind::Receive)
    {
      continue;
    }
    int64_t step = lowest[ev.Phase[r]];
    if (r >= 2 && ev.Location[r - 2] == ev.Location[r] && ev.Phase[r - 2] == ev.Phase[r])
    {
      step = std::max(step, ev.Step[r - 2] + 1);
    }
    for (std::size_t m = 0; m < trace.Messages.size(); ++m)
    {
      if (trace.Messages.RecvEvent[m] == int64_t(r))
      {
        step = std::max(step, ev.Step[trace.Messages.SendEvent[m]] + 1);
      }
    }
    ASSERT_EQ(ev.Step[r], step) << "row " << r;
  }
  // Lateness and spans by brute force.
  for (std::size_t r = 0; r < n; ++r)
  {
    double earliest = INFINITY, start = INFINITY, end = -INFINITY;
    for (std::size_t q = 0; q < n; ++q)
    {
      if (ev.GlobalStep[q] == ev.GlobalStep[r])
      {
        earliest = std::min(earliest, ev.Exit[q]);
        start = std::min(start, ev.Enter[q]);
        end = std::max(end, ev.Exit[q]);
      }
    }
    ASSERT_EQ(ev.Lateness[r], ev.Exit[r] - earliest);
    ASSERT_GE(ev.Lateness[r], 0.0);
    ASSERT_EQ(trace.Spans.Start[ev.GlobalStep[r]], start);
    ASSERT_EQ(trace.Spans.End[ev.GlobalStep[r]], end);
    // Differential lateness against the predecessors.
    double inherited = 0;
    if (r % 2 == 1)
    {
      inherited = ev.Lateness[r - 1];
      for (std::size_t m = 0; m < trace.Messages.size(); ++m)
      {
        if (trace.Messages.RecvEvent[m] == int64_t(r))
        {
          inherited = std::max(inherited, ev.Lateness[trace.Messages.SendEvent[m]]);
        }
      }
    }
    else if (r >= 1 && ev.Location[r - 1] == ev.Location[r])
    {
      inherited = ev.Lateness[r - 1];
    }
    ASSERT_EQ(ev.DifferentialLateness[r], std::max(0.0, ev.Lateness[r] - inherited));
  }
  // Some event of every occupied global step has lateness 0.
  std::map<int64_t, double> least;
  for (std::size_t r = 0; r < n; ++r)
  {
    auto it = least.find(ev.GlobalStep[r]);
    least[ev.GlobalStep[r]] =
      it == least.end() ? ev.Lateness[r] : std::min(it->second, ev.Lateness[r]);
  }
  for (const auto& [step, value] : least)
  {
    ASSERT_EQ(value, 0.0) << "global step " << step;
  }
}

TEST(LogicalTime, RandomCausalTracesKeepTheProperties)
{
  std::mt19937_64 rng(2024);
  // What the traces exercised, so that the test cannot pass vacuously.
  std::size_t collectives = 0, waitalls = 0, instants = 0, multiPhase = 0, events = 0;
  for (int trial = 0; trial < 200; ++trial)
  {
    const uint32_t processes = 2 + uint32_t(trial % 7);
    const Trace t = RandomTrace(rng, processes, 4 + trial % 17);
    SCOPED_TRACE("trial " + std::to_string(trial));
    Options o;
    o.MergeByEnclosingCall = trial % 2 == 0;
    const LogicalTrace trace = BuildLogicalTrace(t.In, o);
    CheckProperties(t, trace);
    collectives += t.In.CollectiveLocation.size();
    instants += trace.Report.InstantEndpoints;
    multiPhase += trace.Phases.size() > 1 ? 1 : 0;
    events += trace.Events.size();
    for (std::size_t r = 1; r < trace.Events.size(); r += 2)
    {
      waitalls += trace.Events.Receives[r] > 1 ? 1 : 0;
    }
  }
  EXPECT_GT(collectives, 20u);
  EXPECT_GT(waitalls, 20u);
  EXPECT_GT(instants, 5u);
  EXPECT_GT(multiPhase, 100u);
  EXPECT_GT(events, 10000u);
}

TEST(LogicalTime, RandomTracesWithUserBoundaries)
{
  // Boundaries split the rounds anywhere; messages may cross them forward.
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 30; ++trial)
  {
    const Trace t = RandomTrace(rng, 3 + uint32_t(trial % 4), 8);
    double last = 0;
    for (double e : t.In.StateEnd)
    {
      last = e < 1e8 ? std::max(last, e) : last;
    }
    Options o;
    for (int b = 1; b <= 3; ++b)
    {
      o.PhaseBoundaries.push_back(last * b / 4);
    }
    SCOPED_TRACE("trial " + std::to_string(trial));
    const LogicalTrace trace = BuildLogicalTrace(t.In, o);
    const LogicalEvents& ev = trace.Events;
    EXPECT_EQ(trace.Report.DroppedMessages, 0u);
    for (std::size_t m = 0; m < trace.Messages.size(); ++m)
    {
      const int64_t s = trace.Messages.SendEvent[m], r = trace.Messages.RecvEvent[m];
      if (s != r)
      {
        ASSERT_LT(ev.Step[s], ev.Step[r]);
        ASSERT_LE(ev.Phase[s], ev.Phase[r]);
      }
    }
    for (std::size_t r = 3; r < ev.size(); r += 2)
    {
      if (ev.Location[r] == ev.Location[r - 2])
      {
        ASSERT_LT(ev.Step[r - 2], ev.Step[r]);
      }
    }
    ASSERT_LE(trace.Phases.size(), 4u);
  }
}

}
