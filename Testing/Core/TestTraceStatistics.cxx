// Tests of the trace statistics (Pagano et al. 2013 (FrameSoC), sections III-B and V-C). The
// expectations of the small trace below are worked out by hand in the
// comments; the randomized tests check invariants (merging, row order,
// the density adding up to the producers' records).
#include "TraceRowsBuilders.h"
#include "TraceStatistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

using macroscope::EventRecord;
using macroscope::ProducerSummary;
using macroscope::ReceiveRecord;
using macroscope::RecordKinds;
using macroscope::SendRecord;
using macroscope::StateRecord;
using macroscope::TraceStatisticsAborted;
using macroscope::TraceStatisticsOptions;
using macroscope::TraceTally;
using macroscope::TypeStatistics;

namespace
{
using macroscope::testing::Messages;
using macroscope::testing::Points;
using macroscope::testing::States;

// Types rows: 0 state A, 1 state B, 2 event E, 3 variable V.
enum
{
  A = 0,
  B = 1,
  E = 2,
  V = 3
};
const std::vector<bool> IsState = { true, true, false, false };

// Three leaves over [0, 10]:
//   leaf 0: A [0, 4) depth 0, B [1, 2) depth 1, event at 3, sends at 1
//   leaf 1: A [2, 10) depth 0, events at 9 and 10, receives at 3, sends at 8
//   leaf 2: B [5, 5] (zero length) depth 0, samples at 0 and 6, receives at 10
struct SmallTrace
{
  States S;
  Points Ev, Var;
  Messages M;
  SmallTrace()
  {
    S.Add(0, A, 0, 0.0, 4.0);
    S.Add(0, B, 1, 1.0, 2.0);
    S.Add(1, A, 0, 2.0, 10.0);
    S.Add(2, B, 0, 5.0, 5.0);
    Ev.Add(0, E, 3.0);
    Ev.Add(1, E, 9.0);
    Ev.Add(1, E, 10.0);
    Var.Add(2, V, 0.0, 1.5);
    Var.Add(2, V, 6.0, 2.5);
    M.Add(0, 1, 1.0, 3.0, 64);
    M.Add(1, 2, 8.0, 10.0, 64);
  }
  TraceTally Tally(const TraceStatisticsOptions& o) const
  {
    return macroscope::TallyTrace(o, S.Rows(), Ev.Rows(), Var.Rows(), M.Rows());
  }
};

TraceStatisticsOptions Options(double begin, double end, bool closed, int bins)
{
  TraceStatisticsOptions o;
  o.Begin = begin;
  o.End = end;
  o.ClosedEnd = closed;
  o.Bins = bins;
  o.Leaves = 3;
  o.Types = 4;
  return o;
}

int64_t At(const TraceTally& t, uint32_t producer, int kind)
{
  return t.ProducerRecords[producer * RecordKinds + kind];
}
int64_t Bin(const TraceTally& t, int bin, int kind)
{
  return t.Density[bin * RecordKinds + kind];
}
}

TEST(TraceStatistics, WholeTraceByHand)
{
  const TraceTally t = SmallTrace().Tally(Options(0.0, 10.0, true, 5));
  // leaf 0: 2 states, 1 event, 1 send; leaf 1: 1 state, 2 events (10 counts:
  // the end is closed), 1 send, 1 receive; leaf 2: the zero-length state,
  // 2 samples, 1 receive (at 10).
  const int64_t expected[3][4] = { { 2, 1, 1, 0 }, { 1, 2, 1, 1 }, { 1, 2, 0, 1 } };
  for (uint32_t p = 0; p < 3; ++p)
  {
    for (int k = 0; k < RecordKinds; ++k)
    {
      EXPECT_EQ(At(t, p, k), expected[p][k]) << "producer " << p << " kind " << k;
    }
  }
  // Outermost states only: B [1, 2) is nested in A [0, 4).
  EXPECT_DOUBLE_EQ(t.ProducerStateTime[0], 4.0);
  EXPECT_DOUBLE_EQ(t.ProducerStateTime[1], 8.0);
  EXPECT_DOUBLE_EQ(t.ProducerStateTime[2], 0.0);

  EXPECT_EQ(t.TypeCount, (std::vector<int64_t>{ 2, 2, 3, 2 }));
  EXPECT_DOUBLE_EQ(t.TypeDuration[A], 12.0);
  EXPECT_DOUBLE_EQ(t.TypeMinDuration[A], 4.0);
  EXPECT_DOUBLE_EQ(t.TypeMaxDuration[A], 8.0);
  EXPECT_DOUBLE_EQ(t.TypeDuration[B], 1.0);
  EXPECT_DOUBLE_EQ(t.TypeMinDuration[B], 0.0);
  EXPECT_DOUBLE_EQ(t.TypeMaxDuration[B], 1.0);

  // Bins of width 2; the records at 10 fall in the last bin.
  const int64_t states[5] = { 2, 1, 1, 0, 0 };   // starts 0, 1 | 2 | 5
  const int64_t events[5] = { 1, 1, 0, 1, 2 };   // 0 | 3 | - | 6 | 9, 10
  const int64_t sends[5] = { 1, 0, 0, 0, 1 };    // 1 | 8
  const int64_t receives[5] = { 0, 1, 0, 0, 1 }; // 3 | 10
  for (int b = 0; b < 5; ++b)
  {
    EXPECT_EQ(Bin(t, b, StateRecord), states[b]) << "bin " << b;
    EXPECT_EQ(Bin(t, b, EventRecord), events[b]) << "bin " << b;
    EXPECT_EQ(Bin(t, b, SendRecord), sends[b]) << "bin " << b;
    EXPECT_EQ(Bin(t, b, ReceiveRecord), receives[b]) << "bin " << b;
  }

  // Producers by records: leaf 1 (5), then leaf 0 and leaf 2 (4 each, in
  // leaf order). Cumulative 5/13, 9/13, 13/13: 80% needs all three.
  const ProducerSummary s = macroscope::SummarizeProducers(t);
  ASSERT_EQ(s.Rows.size(), 3u);
  EXPECT_EQ(s.Rows[0].Producer, 1u);
  EXPECT_EQ(s.Rows[1].Producer, 0u);
  EXPECT_EQ(s.Rows[2].Producer, 2u);
  EXPECT_EQ(s.TotalRecords, 13);
  EXPECT_DOUBLE_EQ(s.TotalStateTime, 12.0);
  EXPECT_EQ(s.Totals[StateRecord], 4);
  EXPECT_EQ(s.Totals[EventRecord], 5);
  EXPECT_EQ(s.Totals[SendRecord], 2);
  EXPECT_EQ(s.Totals[ReceiveRecord], 2);
  EXPECT_DOUBLE_EQ(s.Rows[0].RecordShare, 5.0 / 13);
  EXPECT_DOUBLE_EQ(s.Rows[1].CumulativeShare, 9.0 / 13);
  EXPECT_DOUBLE_EQ(s.Rows[2].CumulativeShare, 1.0);
  EXPECT_DOUBLE_EQ(s.Rows[1].ProducerShare, 2.0 / 3);
  EXPECT_EQ(s.ProducersFor80Percent, 3u);
  EXPECT_DOUBLE_EQ(s.ProducerShareFor80Percent, 1.0);

  // Types: E (3), then A, B, V and the messages (2 each) by duration 12,
  // 1, 0, 0, the messages last among equals. Shares of 11.
  const std::vector<TypeStatistics> types =
    macroscope::SummarizeTypes(t, { A, B, E, V }, IsState, true);
  ASSERT_EQ(types.size(), 5u);
  const uint32_t order[5] = { E, A, B, V, TypeStatistics::MessageType };
  for (int i = 0; i < 5; ++i)
  {
    EXPECT_EQ(types[i].Type, order[i]) << "line " << i;
  }
  EXPECT_EQ(types[0].Count, 3);
  EXPECT_DOUBLE_EQ(types[0].Share, 3.0 / 11);
  EXPECT_EQ(types[4].Count, 2);
  EXPECT_DOUBLE_EQ(types[1].MeanDuration, 6.0);
  EXPECT_DOUBLE_EQ(types[2].MeanDuration, 0.5);
  EXPECT_DOUBLE_EQ(types[2].MinDuration, 0.0);
  EXPECT_DOUBLE_EQ(types[0].TotalDuration, 0.0);
  EXPECT_TRUE(std::isnan(types[0].MeanDuration));
  EXPECT_TRUE(std::isnan(types[4].MaxDuration));
}

TEST(TraceStatistics, WindowClipsAndExcludes)
{
  // [2, 6), 2 bins of 2 s. A [0, 4) clipped to [2, 4) (placed in bin 0,
  // where the window starts); B [1, 2) ends where the window starts: out;
  // A [2, 10) clipped to [2, 6); B [5, 5] in. Event 3 in, 9 and 10 out;
  // samples 0 and 6 out (open end); receive at 3 in, the rest out.
  const TraceTally t = SmallTrace().Tally(Options(2.0, 6.0, false, 2));
  const int64_t expected[3][4] = { { 1, 1, 0, 0 }, { 1, 0, 0, 1 }, { 1, 0, 0, 0 } };
  for (uint32_t p = 0; p < 3; ++p)
  {
    for (int k = 0; k < RecordKinds; ++k)
    {
      EXPECT_EQ(At(t, p, k), expected[p][k]) << "producer " << p << " kind " << k;
    }
  }
  EXPECT_DOUBLE_EQ(t.ProducerStateTime[0], 2.0);
  EXPECT_DOUBLE_EQ(t.ProducerStateTime[1], 4.0);
  EXPECT_EQ(t.TypeCount, (std::vector<int64_t>{ 2, 1, 1, 0 }));
  EXPECT_DOUBLE_EQ(t.TypeDuration[A], 6.0);
  EXPECT_DOUBLE_EQ(t.TypeMinDuration[A], 2.0);
  EXPECT_DOUBLE_EQ(t.TypeMaxDuration[A], 4.0);
  EXPECT_EQ(Bin(t, 0, StateRecord), 2);
  EXPECT_EQ(Bin(t, 1, StateRecord), 1);
  EXPECT_EQ(Bin(t, 0, EventRecord), 1);
  EXPECT_EQ(Bin(t, 0, ReceiveRecord), 1);
  EXPECT_EQ(Bin(t, 1, EventRecord), 0);

  // Records 2, 2, 1: cumulative 0.4, 0.8 exactly: 2 of 3 producers.
  const ProducerSummary s = macroscope::SummarizeProducers(t);
  EXPECT_EQ(s.TotalRecords, 5);
  EXPECT_EQ(s.Rows[0].Producer, 0u);
  EXPECT_EQ(s.Rows[1].Producer, 1u);
  EXPECT_EQ(s.ProducersFor80Percent, 2u);
  EXPECT_DOUBLE_EQ(s.ProducerShareFor80Percent, 2.0 / 3);

  // The same window closed at 6 takes the sample at 6 (last bin).
  const TraceTally closed = SmallTrace().Tally(Options(2.0, 6.0, true, 2));
  EXPECT_EQ(At(closed, 2, EventRecord), 1);
  EXPECT_EQ(Bin(closed, 1, EventRecord), 1);
  EXPECT_EQ(closed.TypeCount[V], 1);
}

TEST(TraceStatistics, ProducersFoldLeaves)
{
  // Leaves 0 and 1 make producer 0 (4 + 5 records), leaf 2 producer 1 (4).
  TraceStatisticsOptions o = Options(0.0, 10.0, true, 5);
  o.ProducerOfLeaf = { 0, 0, 1 };
  o.Producers = 2;
  const TraceTally t = SmallTrace().Tally(o);
  EXPECT_EQ(At(t, 0, StateRecord), 3);
  EXPECT_EQ(At(t, 0, SendRecord), 2);
  EXPECT_EQ(At(t, 1, ReceiveRecord), 1);
  EXPECT_DOUBLE_EQ(t.ProducerStateTime[0], 12.0);
  const ProducerSummary s = macroscope::SummarizeProducers(t);
  EXPECT_EQ(s.Rows[0].Total, 9);
  EXPECT_EQ(s.Rows[1].Total, 4);
  EXPECT_EQ(s.ProducersFor80Percent, 2u); // 9/13 < 0.8
}

TEST(TraceStatistics, ParetoCount)
{
  // Five leaves with 1, 2, 3, 4 and 10 events (20): sorted 10, 4, 3, ...;
  // cumulative 10, 14, 17: 17/20 = 0.85 is the first >= 0.8, 3 of 5.
  Points ev;
  const int counts[5] = { 1, 2, 3, 4, 10 };
  for (uint32_t leaf = 0; leaf < 5; ++leaf)
  {
    for (int i = 0; i < counts[leaf]; ++i)
    {
      ev.Add(leaf, 0, 0.5);
    }
  }
  TraceStatisticsOptions o;
  o.Leaves = 5;
  o.Types = 1;
  o.Bins = 1;
  ProducerSummary s =
    macroscope::SummarizeProducers(macroscope::TallyTrace(o, {}, ev.Rows(), {}, {}));
  EXPECT_EQ(s.Rows[0].Producer, 4u);
  EXPECT_EQ(s.Rows[4].Producer, 0u);
  EXPECT_EQ(s.ProducersFor80Percent, 3u);
  EXPECT_DOUBLE_EQ(s.ProducerShareFor80Percent, 0.6);
  for (std::size_t i = 1; i < s.Rows.size(); ++i)
  {
    EXPECT_GE(s.Rows[i].CumulativeShare, s.Rows[i - 1].CumulativeShare);
  }

  // 8, 1, 1: the first producer makes exactly 80%.
  Points exact;
  for (int i = 0; i < 8; ++i)
  {
    exact.Add(0, 0, 0.1);
  }
  exact.Add(1, 0, 0.2);
  exact.Add(2, 0, 0.3);
  o.Leaves = 3;
  s = macroscope::SummarizeProducers(macroscope::TallyTrace(o, {}, exact.Rows(), {}, {}));
  EXPECT_EQ(s.ProducersFor80Percent, 1u);
  EXPECT_DOUBLE_EQ(s.Rows[0].CumulativeShare, 0.8);

  // No record at all: no producer is needed, shares are 0.
  s = macroscope::SummarizeProducers(macroscope::TallyTrace(o, {}, {}, {}, {}));
  EXPECT_EQ(s.ProducersFor80Percent, 0u);
  EXPECT_EQ(s.Rows[0].CumulativeShare, 0.0);
}

TEST(TraceStatistics, MergedPiecesEqualTheWhole)
{
  // Random rows split in two pieces by leaf, as MPI ranks get them: the
  // merged tallies equal the tally of all rows, and shuffling rows changes
  // nothing.
  std::mt19937 random(7);
  std::uniform_real_distribution<double> time(0.0, 20.0);
  std::uniform_int_distribution<uint32_t> leaf(0, 5), type(0, 3);
  States s, s0, s1;
  Points ev, ev0, ev1;
  Messages m, m0, m1;
  for (int i = 0; i < 500; ++i)
  {
    const uint32_t l = leaf(random);
    const double a = time(random), b = a + time(random) / 4;
    s.Add(l, type(random) % 2, i % 3, a, b);
    (l < 3 ? s0 : s1).Add(l, s.Type.back(), s.Depth.back(), a, b);
    const double t = time(random);
    ev.Add(l, E, t);
    (l < 3 ? ev0 : ev1).Add(l, E, t);
    const uint32_t to = leaf(random);
    const double sent = time(random), received = sent + 0.5;
    m.Add(l, to, sent, received, 8);
    (to < 3 ? m0 : m1).Add(l, to, sent, received, 8); // a message goes with its receiver
  }
  TraceStatisticsOptions o;
  o.Begin = 3.0;
  o.End = 15.0;
  o.Bins = 7;
  o.Leaves = 6;
  o.Types = 4;
  TraceTally whole = macroscope::TallyTrace(o, s.Rows(), ev.Rows(), {}, m.Rows());
  TraceTally merged = macroscope::TallyTrace(o, s0.Rows(), ev0.Rows(), {}, m0.Rows());
  merged.Merge(macroscope::TallyTrace(o, s1.Rows(), ev1.Rows(), {}, m1.Rows()));
  EXPECT_EQ(merged.ProducerRecords, whole.ProducerRecords);
  EXPECT_EQ(merged.TypeCount, whole.TypeCount);
  EXPECT_EQ(merged.Density, whole.Density);
  EXPECT_EQ(merged.TypeMinDuration, whole.TypeMinDuration);
  EXPECT_EQ(merged.TypeMaxDuration, whole.TypeMaxDuration);
  for (uint32_t p = 0; p < 6; ++p)
  {
    EXPECT_NEAR(merged.ProducerStateTime[p], whole.ProducerStateTime[p], 1e-9);
  }

  std::vector<std::size_t> order(s.Size());
  for (std::size_t i = 0; i < order.size(); ++i)
  {
    order[i] = order.size() - 1 - i;
  }
  const TraceTally reversed =
    macroscope::TallyTrace(o, s.Permuted(order).Rows(), ev.Rows(), {}, m.Rows());
  EXPECT_EQ(reversed.ProducerRecords, whole.ProducerRecords);

  // Every kind's density adds up to the producers' records of that kind.
  for (int k = 0; k < RecordKinds; ++k)
  {
    int64_t byProducer = 0, byBin = 0;
    for (uint32_t p = 0; p < 6; ++p)
    {
      byProducer += At(whole, p, k);
    }
    for (int b = 0; b < o.Bins; ++b)
    {
      byBin += Bin(whole, b, k);
    }
    EXPECT_EQ(byProducer, byBin) << "kind " << k;
    EXPECT_GT(byBin, 0) << "kind " << k;
  }
}

TEST(TraceStatistics, BadInputThrows)
{
  SmallTrace trace;
  EXPECT_THROW(trace.Tally(Options(5.0, 5.0, false, 3)), std::invalid_argument);
  EXPECT_THROW(trace.Tally(Options(0.0, NAN, false, 3)), std::invalid_argument);
  EXPECT_THROW(trace.Tally(Options(0.0, 10.0, false, 0)), std::invalid_argument);
  TraceStatisticsOptions o = Options(0.0, 10.0, false, 3);
  o.Leaves = 2; // leaf 2 is out of range
  EXPECT_THROW(trace.Tally(o), std::invalid_argument);
  o = Options(0.0, 10.0, false, 3);
  o.Types = 3; // the samples' type 3 is out of range
  EXPECT_THROW(trace.Tally(o), std::invalid_argument);
  o = Options(0.0, 10.0, false, 3);
  o.ProducerOfLeaf = { 0, 1, 2 };
  o.Producers = 2;
  EXPECT_THROW(trace.Tally(o), std::invalid_argument);
  SmallTrace backwards;
  backwards.S.Add(0, A, 0, 3.0, 2.0);
  EXPECT_THROW(backwards.Tally(Options(0.0, 10.0, false, 3)), std::invalid_argument);
}

TEST(TraceStatistics, ProgressAndAbort)
{
  Points ev;
  for (int i = 0; i < 200000; ++i)
  {
    ev.Add(i % 4, 0, i * 1e-5);
  }
  TraceStatisticsOptions o;
  o.Begin = 0.0;
  o.End = 2.0;
  o.Leaves = 4;
  o.Types = 1;
  std::vector<double> reported;
  o.Progress = [&reported](double f)
  {
    reported.push_back(f);
    return true;
  };
  macroscope::TallyTrace(o, {}, ev.Rows(), {}, {});
  ASSERT_GE(reported.size(), 3u); // every 65536 rows, and at the end
  EXPECT_DOUBLE_EQ(reported.back(), 1.0);
  for (std::size_t i = 1; i < reported.size(); ++i)
  {
    EXPECT_GT(reported[i], reported[i - 1]);
  }
  int calls = 0;
  o.Progress = [&calls](double) { return ++calls < 2; };
  EXPECT_THROW(macroscope::TallyTrace(o, {}, ev.Rows(), {}, {}), TraceStatisticsAborted);
  EXPECT_EQ(calls, 2); // stopped at the second chunk, not at the end
}
