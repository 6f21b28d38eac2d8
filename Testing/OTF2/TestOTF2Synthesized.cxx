// Cross-checks the decoder against the synthesizer's summary (whose counts
// another test checks against otf2-print), for every pattern and with
// threads, and checks that reading disjoint parts adds up to the full read.
#include "OTF2TestArchives.h"

#include <MacroscopeOTF2.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <tuple>

namespace
{
using namespace macroscope::otf2;
using macroscope::otf2::testing::ScratchDirectory;
namespace synth = macroscope::synth;

uint64_t summaryCount(const synth::SynthesisSummary& summary, synth::EventKind kind)
{
  return summary.Events[std::size_t(kind)];
}

RecordKind recordKindNamed(const char* name)
{
  for (std::size_t kind = 0; kind < RecordKindCount; ++kind)
  {
    if (std::strcmp(RecordKindName(RecordKind(kind)), name) == 0)
    {
      return RecordKind(kind);
    }
  }
  throw std::invalid_argument(std::string("no record kind ") + name);
}

struct Shape
{
  synth::Pattern Pattern;
  uint32_t Threads;
};

class SynthesizedArchive : public ::testing::TestWithParam<Shape>
{
};

TEST_P(SynthesizedArchive, CountsMatchTheSynthesizerSummary)
{
  ScratchDirectory scratch;
  const synth::SynthesisSummary summary =
    macroscope::otf2::testing::Synthesize(scratch.path(), GetParam().Pattern, GetParam().Threads);
  const TraceData trace = ReadTrace(summary.AnchorFile);
  const Diagnostics& report = trace.Report;
  using K = synth::EventKind;

  // Every record kind the synthesizer writes is decoded, with its count.
  for (std::size_t kind = 0; kind < synth::EventKindCount; ++kind)
  {
    const char* name = synth::ToString(K(kind));
    EXPECT_EQ(report.Count(recordKindNamed(name)), summary.Events[kind]) << name;
  }
  EXPECT_EQ(report.EventsRead, summary.TotalEvents);
  EXPECT_EQ(report.OtherRecords, 0u);

  // Enter/Leave pairs -> states.
  EXPECT_EQ(summaryCount(summary, K::Enter), summaryCount(summary, K::Leave));
  EXPECT_EQ(trace.States.size(), summaryCount(summary, K::Enter));
  EXPECT_EQ(report.StatesLeftOpen, 0u);
  EXPECT_EQ(report.LeavesWithoutEnter, 0u);

  // Matched messages = sends = receives.
  const uint64_t sends = summaryCount(summary, K::MpiSend) + summaryCount(summary, K::MpiIsend);
  const uint64_t receives = summaryCount(summary, K::MpiRecv) + summaryCount(summary, K::MpiIrecv);
  EXPECT_EQ(sends, receives);
  EXPECT_EQ(trace.Messages.size(), sends);
  EXPECT_EQ(report.UnmatchedSends, 0u);
  EXPECT_EQ(report.UnmatchedReceives, 0u);
  EXPECT_EQ(report.UnknownPeers, 0u);
  EXPECT_EQ(report.ReceivesBeforeSends, 0u); // the synthesizer's clocks do not drift
  EXPECT_EQ(report.IsendsNotCompleted + report.IrecvRequestsNotCompleted, 0u);
  for (std::size_t row = 0; row < trace.Messages.size(); ++row)
  {
    ASSERT_EQ(trace.Messages.Bytes[row], trace.Messages.RecvBytes[row]) << "row " << row;
  }

  // One metric member -> one sample per Metric record.
  EXPECT_EQ(trace.Variables.size(), summaryCount(summary, K::Metric));

  // Collective, program, thread (and flush) records -> events.
  const uint64_t instants = summaryCount(summary, K::ProgramBegin) +
    summaryCount(summary, K::ProgramEnd) + summaryCount(summary, K::ThreadFork) +
    summaryCount(summary, K::ThreadJoin) + summaryCount(summary, K::MpiCollectiveBegin) +
    summaryCount(summary, K::MpiCollectiveEnd) + summaryCount(summary, K::BufferFlush);
  EXPECT_EQ(trace.Events.size(), instants);
  EXPECT_EQ(report.CollectiveBeginsWithoutEnd + report.CollectiveEndsWithoutBegin, 0u);

  // Leaves: one per location, in rank-then-thread order, with their counts.
  ASSERT_EQ(trace.Info.Leaves.size(), summary.Locations.size());
  for (std::size_t leaf = 0; leaf < summary.Locations.size(); ++leaf)
  {
    EXPECT_EQ(trace.Info.Leaves[leaf].LocationId, summary.Locations[leaf].Id);
    EXPECT_EQ(trace.Info.Leaves[leaf].Events, summary.Locations[leaf].Events);
  }
  EXPECT_EQ(trace.Info.Clock.GlobalOffset, summary.GlobalOffset);
  EXPECT_DOUBLE_EQ(trace.Info.Clock.Duration(), summary.TraceLengthSeconds);
  EXPECT_GE(report.FirstTime, 0.0);
  EXPECT_LE(report.LastTime, summary.TraceLengthSeconds);
  for (std::size_t row = 0; row < trace.States.size(); ++row)
  {
    ASSERT_LE(trace.States.Start[row], trace.States.End[row]) << "row " << row;
  }
}

TEST_P(SynthesizedArchive, DefinitionsOnlyReadGivesBoundsCountsAndLeaves)
{
  ScratchDirectory scratch;
  const synth::SynthesisSummary summary =
    macroscope::otf2::testing::Synthesize(scratch.path(), GetParam().Pattern, GetParam().Threads);
  const TraceInfo info = ReadTraceInfo(summary.AnchorFile);
  EXPECT_EQ(info.TotalEvents, summary.TotalEvents);
  EXPECT_EQ(info.Leaves.size(), summary.Locations.size());
  EXPECT_EQ(info.Clock.Resolution, summary.TimerResolution);
  EXPECT_DOUBLE_EQ(info.Clock.Duration(), summary.TraceLengthSeconds);
  // machine -> clusters -> nodes -> ranks -> threads
  const std::size_t ranks = summary.Locations.size() / GetParam().Threads;
  EXPECT_EQ(info.Hierarchy.size(), 1 + 2 + 4 + ranks + summary.Locations.size());
  EXPECT_EQ(info.Hierarchy.Kind[0], "machine");
  EXPECT_EQ(info.Hierarchy.Kind[1], "cluster");
  EXPECT_EQ(info.Hierarchy.Kind[2], "node");
  EXPECT_EQ(info.Hierarchy.Kind[3], "process");
  EXPECT_EQ(info.Hierarchy.Kind[4], "thread");
}

INSTANTIATE_TEST_SUITE_P(Patterns, SynthesizedArchive,
  ::testing::Values(Shape{ synth::Pattern::Ring, 1 }, Shape{ synth::Pattern::Ring, 3 },
    Shape{ synth::Pattern::Stencil3D, 1 }, Shape{ synth::Pattern::Stencil3D, 3 },
    Shape{ synth::Pattern::Tree, 1 }, Shape{ synth::Pattern::Tree, 3 },
    Shape{ synth::Pattern::Allreduce, 1 }, Shape{ synth::Pattern::Allreduce, 3 }),
  [](const ::testing::TestParamInfo<Shape>& info)
  {
    return std::string(synth::ToString(info.param.Pattern)) + "Threads" +
      std::to_string(info.param.Threads);
  });

// Rows as sortable tuples, to compare tables regardless of row order.
using StateRow = std::tuple<uint32_t, uint32_t, uint32_t, double, double>;
using MessageRow = std::tuple<uint32_t, uint32_t, double, double, uint64_t, uint32_t, uint32_t>;
using EventRow = std::tuple<uint32_t, uint32_t, double, int64_t, int64_t, int32_t>;
using SampleRow = std::tuple<uint32_t, uint32_t, double, double>;

struct Rows
{
  std::vector<StateRow> States;
  std::vector<MessageRow> Messages;
  std::vector<EventRow> Events;
  std::vector<SampleRow> Samples;

  void Add(const TraceData& trace)
  {
    const StateColumns& s = trace.States;
    for (std::size_t i = 0; i < s.size(); ++i)
      this->States.emplace_back(s.Location[i], s.Type[i], s.Depth[i], s.Start[i], s.End[i]);
    this->addMessages(trace.Messages);
    const EventColumns& e = trace.Events;
    for (std::size_t i = 0; i < e.size(); ++i)
      this->Events.emplace_back(
        e.Location[i], e.Type[i], e.Time[i], e.Communicator[i], e.Root[i], e.Operation[i]);
    const VariableColumns& v = trace.Variables;
    for (std::size_t i = 0; i < v.size(); ++i)
      this->Samples.emplace_back(v.Location[i], v.Variable[i], v.Time[i], v.Value[i]);
  }
  void addMessages(const MessageColumns& m)
  {
    for (std::size_t i = 0; i < m.size(); ++i)
      this->Messages.emplace_back(m.Sender[i], m.Receiver[i], m.SendTime[i], m.RecvTime[i],
        m.Bytes[i], m.Tag[i], m.Communicator[i]);
  }
  void sort()
  {
    std::sort(this->States.begin(), this->States.end());
    std::sort(this->Messages.begin(), this->Messages.end());
    std::sort(this->Events.begin(), this->Events.end());
    std::sort(this->Samples.begin(), this->Samples.end());
  }
};

TEST(OTF2SelectiveReading, UnionOfPartsEqualsTheFullRead)
{
  ScratchDirectory scratch;
  const synth::SynthesisSummary summary =
    macroscope::otf2::testing::Synthesize(scratch.path(), synth::Pattern::Stencil3D, 2);
  const TraceData full = ReadTrace(summary.AnchorFile);
  Rows expected;
  expected.Add(full);
  expected.sort();

  const std::vector<LeafRange> parts = SplitLeaves(full.Info, 3);
  ASSERT_EQ(parts.size(), 3u);
  Rows joined;
  UnresolvedMessages crossing;
  uint64_t sendsOut = 0;
  uint64_t receivesIn = 0;
  for (const LeafRange& part : parts)
  {
    ReadOptions options;
    options.Leaves = part.Leaves();
    ASSERT_FALSE(options.Leaves.empty());
    const TraceData trace = ReadTrace(summary.AnchorFile, options);
    for (uint32_t location : trace.States.Location)
    {
      ASSERT_TRUE(location >= part.Begin && location < part.End);
    }
    joined.Add(trace);
    crossing.Sends.insert(
      crossing.Sends.end(), trace.Unresolved.Sends.begin(), trace.Unresolved.Sends.end());
    crossing.Receives.insert(
      crossing.Receives.end(), trace.Unresolved.Receives.begin(), trace.Unresolved.Receives.end());
    sendsOut += trace.Report.SendsToUnselected;
    receivesIn += trace.Report.ReceivesFromUnselected;
    EXPECT_EQ(trace.Report.UnmatchedSends + trace.Report.UnmatchedReceives, 0u);
  }
  EXPECT_GT(sendsOut, 0u) << "the parts should exchange messages";
  EXPECT_EQ(sendsOut, receivesIn);

  // The messages between parts match once their records are put together.
  MessageColumns between;
  Diagnostics report;
  MatchMessages(crossing.Sends, crossing.Receives, between, report);
  EXPECT_EQ(between.size(), sendsOut);
  EXPECT_EQ(report.UnmatchedSends + report.UnmatchedReceives, 0u);
  joined.addMessages(between);
  joined.sort();

  EXPECT_EQ(joined.States, expected.States);
  EXPECT_EQ(joined.Messages, expected.Messages);
  EXPECT_EQ(joined.Events, expected.Events);
  EXPECT_EQ(joined.Samples, expected.Samples);
}

TEST(OTF2SelectiveReading, PartsAreBalancedByEventCount)
{
  ScratchDirectory scratch;
  // Masters hold the MPI records, so locations have unequal counts.
  const synth::SynthesisSummary summary =
    macroscope::otf2::testing::Synthesize(scratch.path(), synth::Pattern::Stencil3D, 2);
  const TraceInfo info = ReadTraceInfo(summary.AnchorFile);
  for (uint32_t count : { 1u, 2u, 3u, 5u, 16u })
  {
    const std::vector<LeafRange> parts = SplitLeaves(info, count);
    ASSERT_EQ(parts.size(), count);
    uint64_t largest = 0;
    uint32_t next = 0;
    for (const LeafRange& part : parts)
    {
      EXPECT_EQ(part.Begin, next);
      EXPECT_LT(part.Begin, part.End);
      next = part.End;
      uint64_t events = 0;
      for (uint32_t leaf = part.Begin; leaf < part.End; ++leaf)
        events += info.Leaves[leaf].Events;
      largest = std::max(largest, events);
    }
    EXPECT_EQ(next, info.Leaves.size());
    // Within one location of the ideal share.
    uint64_t biggestLocation = 0;
    for (const LeafInfo& leaf : info.Leaves)
      biggestLocation = std::max(biggestLocation, leaf.Events);
    EXPECT_LE(largest, info.TotalEvents / count + biggestLocation) << count << " parts";
  }
}

} // namespace
