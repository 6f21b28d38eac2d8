// The streamed model read on several threads (OTF2ParallelRead.h, the forks
// of ModelStream) against the same model read on one thread: bit for bit,
// for every state metric, with a fine model and a model grouping leaves into
// resources built from the same read; the shares keep groups whole; abort
// and errors stop every thread.
#include "OTF2TestArchives.h"

#include <MacroscopeOTF2.h>
#include <ModelStream.h>
#include <OTF2ParallelRead.h>
#include <ResourceHierarchy.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

namespace
{
using namespace macroscope;
using namespace macroscope::otf2;
using macroscope::otf2::testing::ScratchDirectory;
namespace synth = macroscope::synth;

// The reader's glue, without the leaf renumbering: rows to a ModelStream.
class StreamSink : public RowSink
{
public:
  explicit StreamSink(ModelStream& stream)
    : Stream(stream)
  {
  }
  void BeginLocation(uint32_t leaf) override { this->Stream.BeginLeaf(leaf); }
  void Rows(const StateColumns& states, const EventColumns& events,
    const VariableColumns& variables) override
  {
    this->Stream.AddStates({ states.Location.data(), states.Type.data(), states.Depth.data(),
      states.Start.data(), states.End.data(), states.size() });
    if (this->Stream.WantsEvents())
    {
      this->Stream.AddPoints(
        { events.Location.data(), events.Type.data(), events.Time.data(), nullptr, events.size() });
    }
    if (this->Stream.WantsVariables())
    {
      this->Stream.AddPoints({ variables.Location.data(), variables.Variable.data(),
        variables.Time.data(), variables.Value.data(), variables.size() });
    }
    if (this->FailAfter > 0 && --this->FailAfter == 0)
    {
      throw std::runtime_error("sink failure on purpose");
    }
  }
  void EndLocation(uint32_t) override { this->Stream.EndLeaf(); }
  bool WantsMessages() const override { return this->Stream.WantsMessages(); }

  int FailAfter = 0; ///< throw in the n-th Rows() call (0: never)

private:
  ModelStream& Stream;
};

struct ReadSetup
{
  TraceInfo Info;
  std::vector<uint32_t> Leaves;
  std::vector<TimeSlicingOptions> Models;
};

// Two models from one read, as the streamed source builds with its cache:
// a fine one (a row per leaf) and one of three leaves per resource, the
// last leaf in none.
ReadSetup ModelsOf(const std::string& anchor, SliceMetric metric, int depth)
{
  ReadSetup setup;
  setup.Info = ReadTraceInfo(anchor);
  const uint32_t leaves = uint32_t(setup.Info.Leaves.size());
  for (uint32_t leaf = 0; leaf < leaves; ++leaf)
  {
    setup.Leaves.push_back(leaf);
  }
  const double duration = setup.Info.Clock.Duration();
  TimeSlicingOptions fine;
  fine.Grid = { 0.0, duration, 250 };
  fine.Metric = metric;
  fine.Depth = depth;
  fine.Leaves = leaves;
  fine.Types = uint32_t(setup.Info.Types.size());
  fine.Resources = leaves;
  TimeSlicingOptions grouped = fine;
  grouped.Grid = { 0.1 * duration, 0.8 * duration, 37 };
  grouped.ResourceOfLeaf.resize(leaves);
  for (uint32_t leaf = 0; leaf < leaves; ++leaf)
  {
    // Resources interleave in leaf order: leaves 0, 3, 6... are not
    // neighbours of one resource, as a regrouping may make them.
    grouped.ResourceOfLeaf[leaf] = leaf % ((leaves + 2) / 3);
  }
  grouped.ResourceOfLeaf[leaves - 1] = NoResource;
  grouped.Resources = (leaves + 2) / 3;
  setup.Models = { fine, grouped };
  return setup;
}

std::vector<MicroscopicModel> ReadOnOneThread(const std::string& anchor, const ReadSetup& setup)
{
  ModelStream stream({}, setup.Models);
  StreamSink sink(stream);
  StreamTrace(anchor, sink);
  return stream.Finish();
}

std::vector<MicroscopicModel> ReadOnThreads(const std::string& anchor, const ReadSetup& setup,
  uint32_t threads, Diagnostics* report = nullptr)
{
  ModelStream stream({}, setup.Models);
  const std::vector<std::vector<uint32_t>> leaves =
    ShareLeaves(setup.Info, setup.Leaves, stream.LeafGroups(), threads);
  EXPECT_LE(leaves.size(), threads);
  EXPECT_GE(leaves.size(), 2u);
  std::vector<ModelStream> forks;
  forks.reserve(leaves.size());
  std::vector<std::unique_ptr<StreamSink>> sinks;
  std::vector<StreamShare> shares;
  for (const std::vector<uint32_t>& share : leaves)
  {
    forks.push_back(stream.Fork());
    sinks.push_back(std::make_unique<StreamSink>(forks.back()));
    shares.push_back({ share, sinks.back().get() });
  }
  const Diagnostics read = StreamShares(anchor, shares, {});
  if (report)
  {
    *report = read;
  }
  for (ModelStream& fork : forks)
  {
    stream.Absorb(std::move(fork));
  }
  EXPECT_EQ(stream.LeavesStreamed(), setup.Leaves.size());
  return stream.Finish();
}

TEST(ParallelStream, ThreadsGiveTheModelsOfOneThreadBitForBit)
{
  ScratchDirectory scratch;
  const synth::SynthesisSummary summary =
    macroscope::otf2::testing::Synthesize(scratch.path(), synth::Pattern::Stencil3D, 3, 6);
  const std::string anchor = summary.AnchorFile;
  const TraceData whole = ReadTrace(anchor);
  struct Case
  {
    SliceMetric Metric;
    int Depth;
  };
  for (const Case c :
    { Case{ SliceMetric::StateDuration, -1 }, Case{ SliceMetric::StateDuration, 1 },
      Case{ SliceMetric::EventCount, -1 }, Case{ SliceMetric::VariableMean, -1 } })
  {
    const ReadSetup setup = ModelsOf(anchor, c.Metric, c.Depth);
    const std::vector<MicroscopicModel> one = ReadOnOneThread(anchor, setup);
    for (uint32_t threads : { 2u, 3u, 7u })
    {
      Diagnostics report;
      const std::vector<MicroscopicModel> many = ReadOnThreads(anchor, setup, threads, &report);
      EXPECT_EQ(report.EventsRead, whole.Report.EventsRead);
      EXPECT_EQ(report.FirstTime, whole.Report.FirstTime);
      EXPECT_EQ(report.LastTime, whole.Report.LastTime);
      ASSERT_EQ(one.size(), many.size());
      for (std::size_t m = 0; m < one.size(); ++m)
      {
        const std::string what = "metric " + std::to_string(int(c.Metric)) + ", depth " +
          std::to_string(c.Depth) + ", " + std::to_string(threads) + " threads, model " +
          std::to_string(m);
        ASSERT_EQ(one[m].Values.size(), many[m].Values.size()) << what;
        double total = 0.0;
        for (double value : one[m].Values)
        {
          total += value;
        }
        EXPECT_GT(total, 0.0) << what << ": the test needs values";
        // Bit for bit, not within a tolerance.
        EXPECT_EQ(0,
          std::memcmp(
            one[m].Values.data(), many[m].Values.data(), one[m].Values.size() * sizeof(double)))
          << what;
      }
    }
  }
}

TEST(ParallelStream, SharesKeepGroupsWholeInLeafOrderAndBalanceEvents)
{
  TraceInfo info;
  const uint64_t events[] = { 100, 5, 100, 5, 50, 50, 0, 40 };
  for (uint64_t count : events)
  {
    LeafInfo leaf;
    leaf.Events = count;
    info.Leaves.push_back(leaf);
  }
  const std::vector<uint32_t> leaves = { 0, 1, 2, 3, 4, 5, 6, 7 };
  // Groups {0, 2}, {1, 3}, {4}, {5, 7}, {6}.
  const std::vector<uint32_t> group = { 0, 1, 0, 1, 2, 3, 4, 3 };
  const auto shares = ShareLeaves(info, leaves, group, 2);
  ASSERT_EQ(shares.size(), 2u);
  std::set<uint32_t> seen;
  std::map<uint32_t, std::size_t> shareOfGroup;
  uint64_t load[2] = { 0, 0 };
  for (std::size_t s = 0; s < shares.size(); ++s)
  {
    EXPECT_TRUE(std::is_sorted(shares[s].begin(), shares[s].end()));
    for (uint32_t leaf : shares[s])
    {
      EXPECT_TRUE(seen.insert(leaf).second) << "leaf " << leaf << " in two shares";
      const auto [it, added] = shareOfGroup.try_emplace(group[leaf], s);
      EXPECT_EQ(it->second, s) << "group " << group[leaf] << " split";
      load[s] += std::max<uint64_t>(events[leaf], 1);
    }
  }
  EXPECT_EQ(seen.size(), leaves.size());
  // Groups of 200, 10, 50, 90 and 1 (the empty leaf counts 1): 200 alone,
  // the rest (151) together; no split of the groups is closer.
  EXPECT_EQ(std::max(load[0], load[1]), 200u);
  // More parts than groups: one share per group; no groups: a share per leaf.
  EXPECT_EQ(ShareLeaves(info, leaves, group, 9).size(), 5u);
  EXPECT_EQ(ShareLeaves(info, leaves, {}, 9).size(), 8u);
  EXPECT_THROW(ShareLeaves(info, { 8 }, {}, 2), std::invalid_argument);
}

TEST(ParallelStream, AbortAndErrorsStopEveryThread)
{
  ScratchDirectory scratch;
  const synth::SynthesisSummary summary =
    macroscope::otf2::testing::Synthesize(scratch.path(), synth::Pattern::Ring, 2, 400);
  const std::string anchor = summary.AnchorFile;
  const ReadSetup setup = ModelsOf(anchor, SliceMetric::StateDuration, -1);
  auto run = [&](const ReadOptions& options, int failAfter)
  {
    ModelStream stream({}, { setup.Models.front() });
    const auto leaves = ShareLeaves(setup.Info, setup.Leaves, {}, 2);
    std::vector<ModelStream> forks;
    forks.reserve(leaves.size());
    std::vector<std::unique_ptr<StreamSink>> sinks;
    std::vector<StreamShare> shares;
    for (const auto& share : leaves)
    {
      forks.push_back(stream.Fork());
      sinks.push_back(std::make_unique<StreamSink>(forks.back()));
      shares.push_back({ share, sinks.back().get() });
    }
    sinks.back()->FailAfter = failAfter;
    StreamShares(anchor, shares, options);
  };
  // The progress seen on this thread rises to the end.
  std::vector<double> seen;
  ReadOptions watched;
  watched.Progress = [&seen](double fraction)
  {
    seen.push_back(fraction);
    return true;
  };
  run(watched, 0);
  ASSERT_FALSE(seen.empty());
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_DOUBLE_EQ(seen.back(), 1.0);

  ReadOptions aborting;
  aborting.Progress = [](double) { return false; };
  EXPECT_THROW(run(aborting, 0), ReadAborted);
  // A sink's error is the one thrown, not the stop it caused elsewhere.
  try
  {
    run({}, 1);
    FAIL() << "the sink's error was not thrown";
  }
  catch (const std::runtime_error& error)
  {
    EXPECT_STREQ(error.what(), "sink failure on purpose");
  }
  // Messages cannot be split.
  TimeSlicingOptions messages = setup.Models.front();
  messages.Metric = SliceMetric::MessagesSent;
  ModelStream stream({}, { messages });
  StreamSink sink(stream);
  EXPECT_THROW(StreamShares(anchor, { { setup.Leaves, &sink } }, {}), std::invalid_argument);
}

TEST(ParallelStream, AbsorbRefusesOtherModelsAndLeavesGivenTwice)
{
  TimeSlicingOptions options;
  options.Grid = { 0.0, 1.0, 4 };
  options.Leaves = 2;
  options.Types = 1;
  options.Resources = 2;
  ModelStream stream({}, { options });
  ModelStream fork = stream.Fork();
  stream.BeginLeaf(0);
  stream.EndLeaf();
  fork.BeginLeaf(0);
  fork.EndLeaf();
  EXPECT_THROW(stream.Absorb(std::move(fork)), std::invalid_argument);
  TimeSlicingOptions other = options;
  other.Grid.Slices = 5;
  ModelStream stranger({}, { other });
  EXPECT_THROW(stream.Absorb(std::move(stranger)), std::invalid_argument);
}
}
