// Logical time (Core/LogicalTime.h) on the calls that make one
// logical event or one step out of several: runs of Isends coalesced (Ravel's
// option), MPI_Sendrecv exchanges whose partners share a step, and runs
// made of collectives only. The expected steps are worked out by hand in the
// comments (docs/logical-time.md, sections 1, 2 and 5).
#include "LogicalTime.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace
{
using namespace macroscope::logical;

constexpr int32_t Compute = 0; // a user function
constexpr int32_t Mpi = 1;     // an MPI call that is no Isend
constexpr int32_t Isend = 2;   // MPI_Isend

struct Trace
{
  TraceInput In;

  explicit Trace(uint32_t locations)
  {
    this->In.Locations = locations;
    this->In.CommunicationType = { false, true, true };
    this->In.IsendType = { false, false, true };
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
  int64_t Message(int32_t from, int32_t to, double sent, double received)
  {
    this->In.Sender.push_back(from);
    this->In.Receiver.push_back(to);
    this->In.SendTime.push_back(sent);
    this->In.RecvTime.push_back(received);
    return int64_t(this->In.Sender.size()) - 1;
  }
  void Collective(int32_t location, double t)
  {
    this->In.CollectiveLocation.push_back(location);
    this->In.CollectiveTime.push_back(t);
    this->In.CollectiveCommunicator.push_back(0);
  }
};

// The communication rows of a location, in time order.
std::vector<std::size_t> Rows(const LogicalTrace& trace, int32_t location)
{
  std::vector<std::size_t> rows;
  for (std::size_t r = 0; r < trace.Events.size(); ++r)
  {
    if (trace.Events.Location[r] == location && trace.Events.Kind[r] != EventKind::Aggregate)
    {
      rows.push_back(r);
    }
  }
  return rows;
}
std::vector<int64_t> Steps(const LogicalTrace& trace, int32_t location)
{
  std::vector<int64_t> steps;
  for (const std::size_t r : Rows(trace, location))
  {
    steps.push_back(trace.Events.Step[r]);
  }
  return steps;
}

Options Coalescing(bool on)
{
  Options options;
  options.CoalesceIsends = on;
  return options;
}

// A halo exchange among 3 processes, each a neighbour of the two others,
// inside `exchange` (one phase): two Irecv postings, an Isend to p + 1 and
// one to p + 2, a Waitall completing both receives. With `interrupted`,
// process 0 posts an Irecv between its two Isends.
Trace Halo(bool interrupted)
{
  Trace t(3);
  for (int32_t p = 0; p < 3; ++p)
  {
    t.State(p, Compute, 0, 0, 20);
    t.State(p, Compute, 1, 0, 10);
    t.State(p, Mpi, 2, 0, 0.5); // Irecv
    t.State(p, Mpi, 2, 0.5, 1);
    t.State(p, Isend, 2, 1, 2);
    t.Message(p, (p + 1) % 3, 1.5, 3.5);
    if (interrupted && p == 0)
    {
      t.State(p, Mpi, 2, 2, 2.5); // Irecv
    }
    t.State(p, Isend, 2, interrupted && p == 0 ? 2.5 : 2, 3);
    t.Message(p, (p + 2) % 3, 2.7, 3.6);
    t.State(p, Mpi, 2, 3, 4); // Waitall
  }
  return t;
}

TEST(LogicalCalls, CoalescedIsendsAreOneSendAtOneStep)
{
  // Off (Isaacs et al. 2014 (Ravel)'s stepping on the calls as they are): the skeleton of each
  // process is Isend -> Isend (rounds 0 and 1, steps 0 and 1); the Waitall
  // receives from both neighbours' Isends, the later at step 1: step 2.
  const Trace halo = Halo(false);
  const LogicalTrace off = BuildLogicalTrace(halo.In, Coalescing(false));
  EXPECT_EQ(off.Report.CoalescedIsends, 0u);
  for (int32_t p = 0; p < 3; ++p)
  {
    EXPECT_EQ(Steps(off, p), (std::vector<int64_t>{ 0, 1, 2 })) << "process " << p;
  }
  // On (the default): each process's two Isends are one Send event [1, 3]
  // with 2 sends, at step 0; every Waitall receives from step 0: step 1.
  const LogicalTrace on = BuildLogicalTrace(halo.In);
  EXPECT_EQ(on.Report.CoalescedIsends, 3u);
  EXPECT_EQ(on.Report.DroppedMessages, 0u);
  ASSERT_EQ(on.Phases.size(), 1u);
  EXPECT_EQ(on.Phases[0].Pattern, ExchangePattern::ReceivesWaitall);
  for (int32_t p = 0; p < 3; ++p)
  {
    EXPECT_EQ(Steps(on, p), (std::vector<int64_t>{ 0, 1 })) << "process " << p;
    const std::size_t send = Rows(on, p)[0];
    EXPECT_EQ(on.Events.Kind[send], EventKind::Send);
    EXPECT_EQ(on.Events.Sends[send], 2);
    EXPECT_EQ(on.Events.Enter[send], 1.0);
    EXPECT_EQ(on.Events.Exit[send], 3.0);
    EXPECT_EQ(on.Events.Type[send], Isend);
    EXPECT_EQ(on.Events.State[send], 7 * p + 4);     // the first Isend's row (7 states a process)
    EXPECT_EQ(on.Events.Partner[send], (p + 1) % 3); // its earliest message
    EXPECT_EQ(on.Events.Exit[send - 1], 1.0);        // the aggregate ends at the first Isend
  }
  ASSERT_EQ(on.Messages.size(), 6u);
  for (std::size_t m = 0; m < 6; ++m)
  {
    EXPECT_EQ(on.Events.Step[on.Messages.SendEvent[m]], 0);
    EXPECT_EQ(on.Events.Step[on.Messages.RecvEvent[m]], 1);
  }
  // Without IsendType nothing is known to be an Isend: nothing coalesces.
  Trace unknown = Halo(false);
  unknown.In.IsendType.clear();
  EXPECT_EQ(BuildLogicalTrace(unknown.In).Report.CoalescedIsends, 0u);
}

TEST(LogicalCalls, ACallBetweenIsendsEndsTheRun)
{
  // Process 0 posts an Irecv between its Isends: two Send events. Rounds:
  // P0's first Isend and the others' coalesced sends 0, P0's second Isend 1.
  // Waitalls, one after their latest input: P0 1 + max(own 1, P1 0, P2 0) = 2;
  // P1 1 + max(own 0, P0's first (to 1) 0, P2 0) = 1; P2 1 + max(own 0,
  // P0's second (to 2) 1, P1 0) = 2.
  const LogicalTrace trace = BuildLogicalTrace(Halo(true).In);
  EXPECT_EQ(trace.Report.CoalescedIsends, 2u);
  EXPECT_EQ(Steps(trace, 0), (std::vector<int64_t>{ 0, 1, 2 }));
  EXPECT_EQ(Steps(trace, 1), (std::vector<int64_t>{ 0, 1 }));
  EXPECT_EQ(Steps(trace, 2), (std::vector<int64_t>{ 0, 2 }));
}

TEST(LogicalCalls, IsendTypeMustDescribeEveryType)
{
  Trace t = Halo(false);
  t.In.IsendType = { false, true };
  EXPECT_THROW(BuildLogicalTrace(t.In), std::invalid_argument);
}

TEST(LogicalCalls, CollectiveOnlyRunGivesEachCollectiveOneStep)
{
  // Three Allreduces on 3 processes, no message at all. Each operation is
  // one node and its own phase; the phases follow each other along every
  // timeline: steps 0, 1, 2 for every member. Process p enters Allreduce k
  // at 5k + 1 + p / 2 and all leave at 5k + 3: the Allreduces have lateness
  // 0, the computation before them (aggregates, ending at the enter) p / 2.
  Trace t(3);
  for (int32_t p = 0; p < 3; ++p)
  {
    t.State(p, Compute, 0, 0, 20);
    for (int k = 0; k < 3; ++k)
    {
      t.State(p, Mpi, 1, 5 * k + 1 + 0.5 * p, 5 * k + 3);
      t.Collective(p, 5 * k + 3);
    }
  }
  const LogicalTrace trace = BuildLogicalTrace(t.In);
  EXPECT_EQ(trace.Messages.size(), 0u);
  EXPECT_EQ(trace.Report.IncompleteCollectives, 0u);
  ASSERT_EQ(trace.Phases.size(), 3u);
  for (int32_t p = 0; p < 3; ++p)
  {
    EXPECT_EQ(Steps(trace, p), (std::vector<int64_t>{ 0, 1, 2 })) << "process " << p;
    for (const std::size_t r : Rows(trace, p))
    {
      EXPECT_EQ(trace.Events.Kind[r], EventKind::Collective);
      EXPECT_EQ(trace.Events.Lateness[r], 0.0);
      EXPECT_EQ(trace.Events.GlobalStep[r - 1], 2 * trace.Events.Step[r]);
      EXPECT_DOUBLE_EQ(trace.Events.Lateness[r - 1], 0.5 * p);
    }
  }
}

// Two processes exchanging three times with MPI_Sendrecv under main (depth
// 0, so each exchange is its own phase). Process 1's calls start and end
// 0.5 later; each message ends inside its receiver's call.
Trace SendrecvPair()
{
  Trace t(2);
  for (int32_t p = 0; p < 2; ++p)
  {
    t.State(p, Compute, 0, 0, 30);
  }
  for (int k = 0; k < 3; ++k)
  {
    const double at = 10.0 * k;
    t.State(0, Mpi, 1, at + 1, at + 3);
    t.State(1, Mpi, 1, at + 1.5, at + 3.5);
    t.Message(0, 1, at + 1.2, at + 3.2);
    t.Message(1, 0, at + 1.6, at + 2.8);
  }
  return t;
}

TEST(LogicalCalls, SendrecvPartnersShareOneStep)
{
  // Each call sends and receives (SendReceive); the partners' calls receive
  // from each other, a cycle A -> B -> A that used to cost one message per
  // exchange (steps 0, 2, 4 against 1, 3, 5). Contracted, each exchange is
  // one node and one phase: steps 0, 1, 2 on both, no message dropped, each
  // message sent and received at the same step (like a collective's).
  const LogicalTrace trace = BuildLogicalTrace(SendrecvPair().In);
  EXPECT_EQ(trace.Report.DroppedMessages, 0u);
  EXPECT_EQ(trace.Report.SendrecvExchanges, 3u);
  EXPECT_EQ(trace.Report.SplitExchanges, 0u);
  ASSERT_EQ(trace.Phases.size(), 3u);
  for (int32_t p = 0; p < 2; ++p)
  {
    EXPECT_EQ(Steps(trace, p), (std::vector<int64_t>{ 0, 1, 2 })) << "process " << p;
    for (const std::size_t r : Rows(trace, p))
    {
      EXPECT_EQ(trace.Events.Kind[r], EventKind::SendReceive);
      EXPECT_EQ(trace.Events.Partner[r], 1 - p);
    }
  }
  ASSERT_EQ(trace.Messages.size(), 6u);
  for (std::size_t m = 0; m < 6; ++m)
  {
    EXPECT_EQ(trace.Messages.Dropped[m], 0);
    EXPECT_EQ(trace.Events.Step[trace.Messages.SendEvent[m]],
      trace.Events.Step[trace.Messages.RecvEvent[m]]);
  }
  // Lateness: process 1 leaves each exchange 0.5 after process 0.
  EXPECT_DOUBLE_EQ(trace.Events.Lateness[Rows(trace, 1)[1]], 0.5);
  EXPECT_DOUBLE_EQ(trace.Events.Lateness[Rows(trace, 0)[1]], 0.0);
}

TEST(LogicalCalls, SendrecvRingSharesOneStep)
{
  // A shift on a ring of 4: p sends to p + 1 and receives from p - 1 in one
  // Sendrecv. The messages make the cycle 0 -> 1 -> 2 -> 3 -> 0: one
  // exchange, one step for all four calls.
  Trace t(4);
  for (int32_t p = 0; p < 4; ++p)
  {
    t.State(p, Mpi, 0, 1 + 0.1 * p, 3 + 0.1 * p);
    t.Message(p, (p + 1) % 4, 1.05 + 0.1 * p, 2.9 + 0.1 * ((p + 1) % 4));
  }
  const LogicalTrace trace = BuildLogicalTrace(t.In);
  EXPECT_EQ(trace.Report.SendrecvExchanges, 1u);
  EXPECT_EQ(trace.Report.DroppedMessages, 0u);
  for (int32_t p = 0; p < 4; ++p)
  {
    EXPECT_EQ(Steps(trace, p), (std::vector<int64_t>{ 0 })) << "process " << p;
  }
}

TEST(LogicalCalls, ExchangeContradictedByAnotherPathIsSplit)
{
  // A and B exchange with Sendrecv, but A's call also sends to C, which
  // receives it and then sends to B's call: A -> C.R -> C.S -> B, so B's
  // call comes after C's send, which comes after A's call. One step for A
  // and B would contradict that: the exchange is split, and the cycles left
  // are broken as before by dropping the tightest messages: A -> C (slack 1),
  // then, on A <-> B, A -> B (7 against 8). Remaining edges: C.S -> B.SR ->
  // A.SR; C.R has no input (its message dropped): 0; C.S 1 (round 0, after
  // C.R); B 2; A 3.
  Trace t(3);
  t.State(0, Mpi, 0, 0, 10);
  t.State(1, Mpi, 0, 0, 10);
  t.State(2, Mpi, 0, 2, 3);
  t.State(2, Mpi, 0, 4, 5);
  t.Message(0, 1, 1, 8);
  t.Message(1, 0, 1, 9);
  const int64_t toC = t.Message(0, 2, 1.5, 2.5);
  t.Message(2, 1, 4.5, 9);
  const LogicalTrace trace = BuildLogicalTrace(t.In);
  EXPECT_EQ(trace.Report.SendrecvExchanges, 1u);
  EXPECT_EQ(trace.Report.SplitExchanges, 1u);
  EXPECT_EQ(trace.Report.DroppedMessages, 2u);
  EXPECT_EQ(trace.Messages.Dropped[toC], 1);
  EXPECT_EQ(trace.Messages.Dropped[0], 1);
  EXPECT_EQ(Steps(trace, 0), (std::vector<int64_t>{ 3 }));
  EXPECT_EQ(Steps(trace, 1), (std::vector<int64_t>{ 2 }));
  EXPECT_EQ(Steps(trace, 2), (std::vector<int64_t>{ 0, 1 }));
}

} // namespace
