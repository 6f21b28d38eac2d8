// Ravel's phase options and per-phase lateness
// (docs/logical-time.md sections 4 and 7): hand-built traces whose phases,
// steps and lateness are worked out in the comments.
#include "LogicalTime.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

namespace
{
using namespace macroscope::logical;

constexpr int32_t User = 0;      // a user function
constexpr int32_t Mpi = 1;       // a point-to-point MPI call
constexpr int32_t Allreduce = 2; // MPI_Allreduce
constexpr int32_t Barrier = 3;   // MPI_Barrier
constexpr int32_t Exchange = 4;  // a user function around communication
constexpr int32_t Wrapper = 5;   // a user function around one MPI call

struct Trace
{
  TraceInput In;
  explicit Trace(uint32_t locations)
  {
    this->In.Locations = locations;
    this->In.CommunicationType = { false, true, true, true, false, false };
  }
  void State(int32_t location, int32_t type, int32_t depth, double start, double end)
  {
    this->In.StateLocation.push_back(location);
    this->In.StateType.push_back(type);
    this->In.StateDepth.push_back(depth);
    this->In.StateStart.push_back(start);
    this->In.StateEnd.push_back(end);
  }
  void Message(int32_t from, int32_t to, double sent, double received)
  {
    this->In.Sender.push_back(from);
    this->In.Receiver.push_back(to);
    this->In.SendTime.push_back(sent);
    this->In.RecvTime.push_back(received);
  }
  void Collective(int32_t location, int32_t type, int32_t depth, double start, double end)
  {
    this->State(location, type, depth, start, end);
    this->In.CollectiveLocation.push_back(location);
    this->In.CollectiveTime.push_back(end);
    this->In.CollectiveCommunicator.push_back(0);
  }
};

// Per location, a column of its communication events in time order.
template <typename T>
std::vector<T> Column(const LogicalTrace& trace, const std::vector<T>& column, int32_t location)
{
  std::vector<T> values;
  for (std::size_t r = 0; r < trace.Events.size(); ++r)
  {
    if (trace.Events.Location[r] == location && trace.Events.Kind[r] != EventKind::Aggregate)
    {
      values.push_back(column[r]);
    }
  }
  return values;
}
// Per location, a column of all its rows (aggregate, event, aggregate, ...).
std::vector<double> Rows(
  const LogicalTrace& trace, const std::vector<double>& column, int32_t location)
{
  std::vector<double> values;
  for (std::size_t r = 0; r < trace.Events.size(); ++r)
  {
    if (trace.Events.Location[r] == location)
    {
      values.push_back(column[r]);
    }
  }
  return values;
}

TEST(LogicalPhaseOptions, PhaseLatenessComparesWithinThePhase)
{
  // Two unrelated exchanges: P0 -> P1 around t = 0..3, P2 -> P3 ten seconds
  // later. Two phases, both on steps 0 (sends) and 1 (receives).
  // Global lateness (one step, whole trace): P2 and P3 exit 10 s after P0
  // and P1 on every global step, so their rows are all 10. Per phase: each
  // phase's rows are compared with themselves only, so all 0.
  Trace t(4);
  for (int32_t pair = 0; pair < 2; ++pair)
  {
    const double t0 = 10.0 * pair;
    const int32_t from = 2 * pair, to = 2 * pair + 1;
    t.State(from, Mpi, 0, t0, t0 + 1);
    t.State(to, Mpi, 0, t0 + 2, t0 + 3);
    t.Message(from, to, t0 + 0.5, t0 + 2.5);
  }
  const LogicalTrace trace = BuildLogicalTrace(t.In);
  ASSERT_EQ(trace.Phases.size(), 2u);
  EXPECT_EQ(Column(trace, trace.Events.Step, 2), (std::vector<int64_t>{ 0 }));
  EXPECT_EQ(Column(trace, trace.Events.Step, 3), (std::vector<int64_t>{ 1 }));
  for (int32_t p : { 0, 1 })
  {
    EXPECT_EQ(Rows(trace, trace.Events.Lateness, p), (std::vector<double>{ 0, 0 }));
    EXPECT_EQ(Rows(trace, trace.Events.PhaseLateness, p), (std::vector<double>{ 0, 0 }));
  }
  for (int32_t p : { 2, 3 })
  {
    EXPECT_EQ(Rows(trace, trace.Events.Lateness, p), (std::vector<double>{ 10, 10 }));
    EXPECT_EQ(Rows(trace, trace.Events.PhaseLateness, p), (std::vector<double>{ 0, 0 }));
    EXPECT_EQ(
      Rows(trace, trace.Events.PhaseDifferentialLateness, p), (std::vector<double>{ 0, 0 }));
  }
  // Global differential: P2's and P3's first aggregates have no predecessor,
  // so they start the 10 s; their events inherit it.
  EXPECT_EQ(Rows(trace, trace.Events.DifferentialLateness, 2), (std::vector<double>{ 10, 0 }));
  EXPECT_EQ(Rows(trace, trace.Events.DifferentialLateness, 3), (std::vector<double>{ 10, 0 }));
}

TEST(LogicalPhaseOptions, PhaseLatenessEqualsGlobalInOnePhase)
{
  // One phase (the calls share `exchange`): P1 is 2 s late on every row
  // from its first send on. P0: send [0,1], recv [4,5]; P1: send [2,3],
  // recv [4,5]. Steps: both sends 0, both receives 1.
  //   GS 0 (aggregates, exits 0, 2): 0, 2   GS 1 (sends, exits 1, 3): 0, 2
  //   GS 2 (aggregates, exits 4, 4): 0, 0   GS 3 (receives, exits 5, 5): 0, 0
  Trace t(2);
  for (int32_t p = 0; p < 2; ++p)
  {
    t.State(p, User, 0, 0, 5);
    t.State(p, Mpi, 1, 2.0 * p, 2.0 * p + 1);
    t.State(p, Mpi, 1, 4, 5);
    t.Message(p, 1 - p, 2.0 * p + 0.5, 4.5);
  }
  Options merged;
  merged.MergeDepth = 0;
  const LogicalTrace trace = BuildLogicalTrace(t.In, merged);
  ASSERT_EQ(trace.Phases.size(), 1u);
  EXPECT_EQ(Rows(trace, trace.Events.PhaseLateness, 1), (std::vector<double>{ 2, 2, 0, 0 }));
  EXPECT_EQ(trace.Events.PhaseLateness, trace.Events.Lateness);
  EXPECT_EQ(trace.Events.PhaseDifferentialLateness, trace.Events.DifferentialLateness);
}

// A ping-pong of `rounds` round trips directly in main: P0 sends, P1
// receives and sends back, P0 receives.
Trace PingPong(int rounds)
{
  Trace t(2);
  t.State(0, User, 0, 0, 10.0 * rounds);
  t.State(1, User, 0, 0, 10.0 * rounds);
  for (int k = 0; k < rounds; ++k)
  {
    const double t0 = 10.0 * k;
    t.State(0, Mpi, 1, t0, t0 + 1);
    t.State(1, Mpi, 1, t0, t0 + 2);
    t.Message(0, 1, t0 + 0.5, t0 + 1.5);
    t.State(1, Mpi, 1, t0 + 3, t0 + 4);
    t.State(0, Mpi, 1, t0 + 2, t0 + 5);
    t.Message(1, 0, t0 + 3.5, t0 + 4.5);
  }
  return t;
}

TEST(LogicalPhaseOptions, PingPongInMainIsOnePhaseWithRavelsCallerMerge)
{
  // 8 round trips, 16 messages. Main never merges by default: each message
  // is its own phase, 16 phases of 2 steps in a chain. Ravel's caller merge
  // stitches main's consecutive calls: one phase. The steps are the same:
  // P0 sends on 4k, P1 receives on 4k + 1, sends on 4k + 2, P0 receives on 4k + 3.
  const Trace t = PingPong(8);
  const LogicalTrace apart = BuildLogicalTrace(t.In);
  Options ravel;
  ravel.MergeByEnclosingCall = false;
  ravel.MergeByCaller = true;
  const LogicalTrace merged = BuildLogicalTrace(t.In, ravel);
  EXPECT_EQ(apart.Phases.size(), 16u);
  EXPECT_EQ(merged.Phases.size(), 1u);
  std::vector<int64_t> p0, p1;
  for (int64_t k = 0; k < 8; ++k)
  {
    p0.insert(p0.end(), { 4 * k, 4 * k + 3 });
    p1.insert(p1.end(), { 4 * k + 1, 4 * k + 2 });
  }
  for (const LogicalTrace* trace : { &apart, &merged })
  {
    EXPECT_EQ(Column(*trace, trace->Events.Step, 0), p0);
    EXPECT_EQ(Column(*trace, trace->Events.Step, 1), p1);
  }
}

TEST(LogicalPhaseOptions, CallerMergeStitchesConsecutiveCallsOnly)
{
  // main { Barrier; exchange { wrapper { call }; wrapper { call } }; Barrier }
  // on 2 processes: P0's calls are two Sends to P1, P1's two Recvs. The
  // wrappers hold one call each, so the least multiple caller of the calls
  // is `exchange`, and they merge; the nearest enclosing call
  // (MergeByEnclosingCall) is the wrapper, so there each message is a
  // phase: B1 | M1 | M2 | B2, 4 phases. The barriers' caller is main, but
  // the exchange lies between them: Ravel stitches consecutive events only,
  // so B1 | exchange | B2, 3 phases, not 1.
  // Steps with Ravel's merge: B1 0; the exchange from 1: P0's sends are
  // rounds 0, 1 (steps 1, 2), P1's receives one after their senders (2, 3);
  // its 3 local steps put B2 on 4.
  Trace t(2);
  for (int32_t p = 0; p < 2; ++p)
  {
    t.State(p, User, 0, 0, 20);
    t.Collective(p, Barrier, 1, 1, 2);
    t.State(p, Exchange, 1, 3, 10);
    t.State(p, Wrapper, 2, 3, 5);
    t.State(p, Mpi, 3, 4, 5);
    t.State(p, Wrapper, 2, 6, 9);
    t.State(p, Mpi, 3, 7, 8);
    t.Collective(p, Barrier, 1, 11, 12);
  }
  t.Message(0, 1, 4.5, 4.8);
  t.Message(0, 1, 7.5, 7.8);
  Options ravel;
  ravel.MergeByEnclosingCall = false;
  ravel.MergeByCaller = true;
  EXPECT_EQ(BuildLogicalTrace(t.In).Phases.size(), 4u);
  const LogicalTrace trace = BuildLogicalTrace(t.In, ravel);
  ASSERT_EQ(trace.Phases.size(), 3u);
  for (int32_t p = 0; p < 2; ++p)
  {
    EXPECT_EQ(Column(trace, trace.Events.Phase, p), (std::vector<int32_t>{ 0, 1, 1, 2 }));
  }
  EXPECT_EQ(Column(trace, trace.Events.Step, 0), (std::vector<int64_t>{ 0, 1, 2, 4 }));
  EXPECT_EQ(Column(trace, trace.Events.Step, 1), (std::vector<int64_t>{ 0, 2, 3, 4 }));
}

// main { iteration { half { Send; Recv }; half { Send; Recv } } x 3 } on 2
// processes, each Send to the other process.
Trace NestedIterations()
{
  Trace t(2);
  for (int32_t p = 0; p < 2; ++p)
  {
    t.State(p, User, 0, 0, 100);
    for (int i = 0; i < 3; ++i)
    {
      const double t0 = 20.0 * i;
      t.State(p, User, 1, t0, t0 + 19);
      for (int h = 0; h < 2; ++h)
      {
        const double h0 = t0 + 8.0 * h;
        t.State(p, User, 2, h0, h0 + 7);
        t.State(p, Mpi, 3, h0 + 1, h0 + 2);
        t.State(p, Mpi, 3, h0 + 3, h0 + 4);
        t.Message(p, 1 - p, h0 + 1.5, h0 + 3.5);
      }
    }
  }
  return t;
}

TEST(LogicalPhaseOptions, MergeAtACallDepth)
{
  // By default (nearest enclosing call below main) each half is a phase: 6.
  // MergeDepth 1 merges each iteration: 3 phases of steps (0, 1, 2, 3) +
  // 4i. MergeDepth 0 (main): 1 phase. MergeDepth 5 (no call that deep): as
  // the default.
  const Trace t = NestedIterations();
  EXPECT_EQ(BuildLogicalTrace(t.In).Phases.size(), 6u);
  Options o;
  o.MergeDepth = 1;
  const LogicalTrace byIteration = BuildLogicalTrace(t.In, o);
  ASSERT_EQ(byIteration.Phases.size(), 3u);
  EXPECT_EQ(Column(byIteration, byIteration.Events.Phase, 0),
    (std::vector<int32_t>{ 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2 }));
  EXPECT_EQ(Column(byIteration, byIteration.Events.Step, 1),
    (std::vector<int64_t>{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 }));
  o.MergeDepth = 0;
  EXPECT_EQ(BuildLogicalTrace(t.In, o).Phases.size(), 1u);
  o.MergeDepth = 5;
  EXPECT_EQ(BuildLogicalTrace(t.In, o).Phases.size(), 6u);
  // Without the enclosing-call merge and at depth 2, the same 6 halves.
  o.MergeByEnclosingCall = false;
  o.MergeDepth = 2;
  EXPECT_EQ(BuildLogicalTrace(t.In, o).Phases.size(), 6u);
}

// A blocking stencil directly under main on 2 processes: three segments of
// (Send to the other, Recv from it), each closed by a collective:
// Allreduce, Barrier, Allreduce.
Trace BlockingStencil()
{
  Trace t(2);
  const int32_t closing[3] = { Allreduce, Barrier, Allreduce };
  for (int32_t p = 0; p < 2; ++p)
  {
    t.State(p, User, 0, 0, 100);
    for (int j = 0; j < 3; ++j)
    {
      const double t0 = 10.0 * j;
      t.State(p, Mpi, 1, t0, t0 + 1);
      t.State(p, Mpi, 1, t0 + 2, t0 + 3);
      t.Message(p, 1 - p, t0 + 0.5, t0 + 2.5);
      t.Collective(p, closing[j], 1, t0 + 4, t0 + 5);
    }
  }
  return t;
}

TEST(LogicalPhaseOptions, CollectivesBoundPhases)
{
  // Default: the two messages of a segment cross (each process sends, then
  // receives), a cycle that merges them, and each collective is a phase:
  // 6. Every collective a boundary: per process [S R] [AR S R] [B S R] [AR]: 4 phases. Allreduce
  // only: [S R] [AR S R B S R] [AR]: 3. Steps are the same in all: S 0, R 1, AR 2, S 3, R 4, B 5, S
  // 6, R 7, AR 8.
  const Trace t = BlockingStencil();
  const LogicalTrace plain = BuildLogicalTrace(t.In);
  EXPECT_EQ(plain.Phases.size(), 6u);
  Options every;
  every.CollectiveBoundaries = true;
  const LogicalTrace byCollective = BuildLogicalTrace(t.In, every);
  Options allreduce = every;
  allreduce.BoundaryTypes = { false, false, true, false, false, false };
  const LogicalTrace byAllreduce = BuildLogicalTrace(t.In, allreduce);
  ASSERT_EQ(byCollective.Phases.size(), 4u);
  ASSERT_EQ(byAllreduce.Phases.size(), 3u);
  for (int32_t p = 0; p < 2; ++p)
  {
    EXPECT_EQ(Column(byCollective, byCollective.Events.Phase, p),
      (std::vector<int32_t>{ 0, 0, 1, 1, 1, 2, 2, 2, 3 }));
    EXPECT_EQ(Column(byAllreduce, byAllreduce.Events.Phase, p),
      (std::vector<int32_t>{ 0, 0, 1, 1, 1, 1, 1, 1, 2 }));
    for (const LogicalTrace* trace : { &plain, &byCollective, &byAllreduce })
    {
      EXPECT_EQ(
        Column(*trace, trace->Events.Step, p), (std::vector<int64_t>{ 0, 1, 2, 3, 4, 5, 6, 7, 8 }));
    }
  }
  // User boundaries take precedence over every merge option.
  Options both = every;
  both.PhaseBoundaries = { 9.5, 19.5 };
  EXPECT_EQ(BuildLogicalTrace(t.In, both).Phases.size(), 3u);
}

}
