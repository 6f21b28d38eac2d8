// The streamed model (StreamTrace + StreamingTimeSlicer) against the table
// model (ReadTrace + SliceTrace) on synthesized archives: every metric,
// several slice counts and windows, read windows, region filters and
// resource groupings. Plus the streaming slicer's own checks on small
// hand-made rows.
#include "OTF2ModelSink.h"
#include "OTF2TestArchives.h"

#include <MacroscopeOTF2.h>
#include <ResourceHierarchy.h>
#include <StreamingTimeSlicing.h>
#include <TimeSlicing.h>

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace
{
using namespace macroscope;
using namespace macroscope::otf2;
using macroscope::otf2::testing::ModelSink;
using macroscope::otf2::testing::ScratchDirectory;
namespace synth = macroscope::synth;

MicroscopicModel tableModel(const TraceData& trace, TimeSlicingOptions options)
{
  options.Leaves = uint32_t(trace.Info.Leaves.size());
  options.Types = uint32_t(trace.Info.Types.size());
  const StateColumns& s = trace.States;
  const EventColumns& e = trace.Events;
  const VariableColumns& v = trace.Variables;
  const MessageColumns& m = trace.Messages;
  const std::vector<double> bytes(m.Bytes.begin(), m.Bytes.end());
  PointRows points;
  if (options.Metric == SliceMetric::VariableMean)
  {
    points = { v.Location.data(), v.Variable.data(), v.Time.data(), v.Value.data(), v.size() };
  }
  else
  {
    points = { e.Location.data(), e.Type.data(), e.Time.data(), nullptr, e.size() };
  }
  return SliceTrace(options,
    { s.Location.data(), s.Type.data(), s.Depth.data(), s.Start.data(), s.End.data(), s.size() },
    points,
    { m.Sender.data(), m.Receiver.data(), m.SendTime.data(), m.RecvTime.data(), bytes.data(),
      m.size() });
}

// Equal cells: exactly, but for the exclusive durations, whose children are
// subtracted as one sum instead of one by one: 1e-12 of the cell's scale
// (its value, or the slice width it is a part of).
void expectSameModel(const MicroscopicModel& table, const MicroscopicModel& streamed, double scale,
  const std::string& what, bool requireValues = true)
{
  ASSERT_EQ(table.Values.size(), streamed.Values.size()) << what;
  ASSERT_EQ(table.Resources, streamed.Resources) << what;
  ASSERT_EQ(table.Types, streamed.Types) << what;
  double total = 0.0;
  std::size_t differing = 0;
  for (std::size_t i = 0; i < table.Values.size(); ++i)
  {
    const double a = table.Values[i];
    const double b = streamed.Values[i];
    total += std::abs(a);
    if (!(std::abs(a - b) <= 1e-12 * std::max(std::abs(a), scale)))
    {
      if (++differing <= 5)
      {
        ADD_FAILURE() << what << ": cell " << i << " table " << a << " streamed " << b;
      }
    }
  }
  EXPECT_EQ(differing, 0u) << what;
  if (requireValues)
  {
    EXPECT_GT(total, 0.0) << what << ": an empty model compares nothing";
  }
}

struct Case
{
  const char* Name;
  SliceMetric Metric;
  int Depth;
  bool Normalize;
};

const Case Cases[] = {
  { "exclusive state duration", SliceMetric::StateDuration, -1, false },
  { "normalized exclusive state duration", SliceMetric::StateDuration, -1, true },
  { "state duration at depth 0", SliceMetric::StateDuration, 0, false },
  { "state duration at depth 1", SliceMetric::StateDuration, 1, false },
  { "event count", SliceMetric::EventCount, -1, false },
  { "variable mean", SliceMetric::VariableMean, -1, false },
  { "bytes sent rate", SliceMetric::BytesSentRate, -1, false },
  { "messages received", SliceMetric::MessagesReceived, -1, false },
};

struct Shape
{
  synth::Pattern Pattern;
  uint32_t Threads;
};

class StreamedModel : public ::testing::TestWithParam<Shape>
{
};

TEST_P(StreamedModel, EqualsTheTableModel)
{
  ScratchDirectory scratch;
  const synth::SynthesisSummary summary = macroscope::otf2::testing::Synthesize(
    scratch.path(), GetParam().Pattern, GetParam().Threads, 6);
  const TraceData trace = ReadTrace(summary.AnchorFile);
  ASSERT_GT(trace.States.size(), 0u);
  const double duration = trace.Info.Clock.Duration();
  ASSERT_GT(duration, 0.0);

  const SliceGrid grids[] = { { 0.0, duration, 1 }, { 0.0, duration, 7 }, { 0.0, duration, 250 },
    { 0.3 * duration, 0.55 * duration, 40 }, { -0.1 * duration, 1.2 * duration, 33 } };
  for (const Case& c : Cases)
  {
    const bool messages =
      c.Metric == SliceMetric::BytesSentRate || c.Metric == SliceMetric::MessagesReceived;
    // The whole trace has values for the metric, unless the pattern sends
    // no point-to-point message (Allreduce); a window may have none.
    const bool hasRows = !messages || trace.Messages.size() > 0;
    for (const SliceGrid& grid : grids)
    {
      TimeSlicingOptions options;
      options.Grid = grid;
      options.Metric = c.Metric;
      options.Depth = c.Depth;
      options.Normalize = c.Normalize;
      ModelSink sink(options);
      const TraceData streamed = StreamTrace(summary.AnchorFile, sink);
      const std::string what = std::string(c.Name) + ", " + std::to_string(grid.Slices) +
        " slices over [" + std::to_string(grid.Begin) + ", " + std::to_string(grid.End) + "]";
      // Nothing kept but the messages the metric needs.
      EXPECT_EQ(streamed.States.size() + streamed.Events.size() + streamed.Variables.size(), 0u);
      EXPECT_EQ(streamed.Messages.size(), sink.WantsMessages() ? trace.Messages.size() : 0u);
      EXPECT_EQ(sink.StateRowsSeen, trace.States.size()) << what;
      EXPECT_EQ(streamed.Report.EventsRead, trace.Report.EventsRead);
      const double scale = c.Normalize ? 1.0 : grid.Width();
      expectSameModel(tableModel(trace, options), sink.finish(streamed), scale, what,
        hasRows && &grid == &grids[0]);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Patterns, StreamedModel,
  ::testing::Values(Shape{ synth::Pattern::Ring, 1 }, Shape{ synth::Pattern::Stencil3D, 3 },
    Shape{ synth::Pattern::Tree, 2 }, Shape{ synth::Pattern::Allreduce, 2 }));

// Read windows, region filters (whose dropped parents the rows mark) and
// resources grouping leaves go through both paths alike.
TEST(StreamedModel, ReadOptionsAndResourcesAsTheTables)
{
  ScratchDirectory scratch;
  const synth::SynthesisSummary summary =
    macroscope::otf2::testing::Synthesize(scratch.path(), synth::Pattern::Stencil3D, 2, 6);
  const TraceInfo info = ReadTraceInfo(summary.AnchorFile);
  const double duration = info.Clock.Duration();

  // Keep every state type but those of depth 0, so that the depth-1 states
  // lose their parent.
  const TraceData whole = ReadTrace(summary.AnchorFile);
  std::set<uint32_t> outer;
  std::set<uint32_t> stateTypes;
  for (std::size_t row = 0; row < whole.States.size(); ++row)
  {
    stateTypes.insert(whole.States.Type[row]);
    if (whole.States.Depth[row] == 0)
    {
      outer.insert(whole.States.Type[row]);
    }
  }
  std::vector<std::string> inner;
  for (uint32_t type : stateTypes)
  {
    if (outer.count(type) == 0)
    {
      inner.push_back(info.Types.Name[type]);
    }
  }
  ASSERT_FALSE(inner.empty());
  ASSERT_FALSE(outer.empty());

  // Two leaves per resource, the last leaf left out.
  const uint32_t leaves = uint32_t(info.Leaves.size());
  std::vector<uint32_t> resourceOf(leaves);
  for (uint32_t leaf = 0; leaf < leaves; ++leaf)
  {
    resourceOf[leaf] = leaf / 2;
  }
  resourceOf[leaves - 1] = NoResource;

  struct Variant
  {
    const char* Name;
    ReadOptions Read;
    bool Group;
  };
  std::vector<Variant> variants(4);
  variants[0].Name = "read window";
  variants[0].Read.WindowBegin = 0.2 * duration;
  variants[0].Read.WindowEnd = 0.7 * duration;
  variants[1].Name = "read window, states clipped";
  variants[1].Read = variants[0].Read;
  variants[1].Read.ClipStatesToWindow = true;
  variants[2].Name = "outer regions filtered out";
  variants[2].Read.Regions = inner;
  variants[3].Name = "resources of two leaves";
  variants[3].Group = true;
  for (const Variant& variant : variants)
  {
    const TraceData trace = ReadTrace(summary.AnchorFile, variant.Read);
    for (int depth : { -1, 1 })
    {
      TimeSlicingOptions options;
      options.Grid = { 0.1 * duration, 0.9 * duration, 64 };
      options.Depth = depth;
      if (variant.Group)
      {
        options.ResourceOfLeaf = resourceOf;
        options.Resources = (leaves + 1) / 2;
      }
      ModelSink sink(options);
      const TraceData streamed = StreamTrace(summary.AnchorFile, sink, variant.Read);
      expectSameModel(tableModel(trace, options), sink.finish(streamed), options.Grid.Width(),
        std::string(variant.Name) + ", depth " + std::to_string(depth));
    }
  }
}

// The rows arrive in several batches per location when a location has more
// records than one batch of the decoder.
TEST(StreamedModel, LongLocationsComeInSeveralBatches)
{
  ScratchDirectory scratch;
  synth::SynthConfig config;
  config.OutputDirectory = scratch.path().string();
  config.Clusters = 1;
  config.NodesPerCluster = 1;
  config.RanksPerNode = 2;
  config.ThreadsPerRank = 1;
  config.Iterations = 40000;
  config.CommunicationPattern = synth::Pattern::Ring;
  config.Overwrite = true;
  const synth::SynthesisSummary summary = synth::Synthesize(config);
  const TraceData trace = ReadTrace(summary.AnchorFile);
  TimeSlicingOptions options;
  options.Grid = { 0.0, trace.Info.Clock.Duration(), 500 };
  ModelSink sink(options);
  const TraceData streamed = StreamTrace(summary.AnchorFile, sink);
  EXPECT_GT(sink.Calls, 2 * trace.Info.Leaves.size());
  EXPECT_LT(sink.LargestBatch, trace.States.size() / 2);
  expectSameModel(
    tableModel(trace, options), sink.finish(streamed), options.Grid.Width(), "several batches");
}

// Hand-made rows: one leaf, main [0, 10) with children f [1, 3) and g [4, 8),
// g with child h [5, 6); 5 slices of 2 s.
TEST(StreamingTimeSlicer, ExclusiveDurationsByHand)
{
  TimeSlicingOptions options;
  options.Grid = { 0.0, 10.0, 5 };
  options.Leaves = 1;
  options.Types = 4; // main 0, f 1, g 2, h 3
  StreamingTimeSlicer slicer(options);
  const uint32_t location[] = { 0, 0, 0, 0 };
  const uint32_t type[] = { 1, 3, 2, 0 };
  const uint32_t depth[] = { 1, 2, 1, 0 };
  const double start[] = { 1, 5, 4, 0 };
  const double end[] = { 3, 6, 8, 10 };
  slicer.BeginLeaf(0);
  slicer.AddStates({ location, type, depth, start, end, 2 }); // two batches
  slicer.AddStates({ location + 2, type + 2, depth + 2, start + 2, end + 2, 2 });
  slicer.EndLeaf();
  const MicroscopicModel model = slicer.Finish();
  const double mainTime[] = { 1, 1, 0, 0, 2 };
  const double f[] = { 1, 1, 0, 0, 0 };
  const double g[] = { 0, 0, 1, 2, 0 };
  const double h[] = { 0, 0, 1, 0, 0 };
  for (int t = 0; t < 5; ++t)
  {
    EXPECT_DOUBLE_EQ(model.At(0, t, 0), mainTime[t]) << t;
    EXPECT_DOUBLE_EQ(model.At(0, t, 1), f[t]) << t;
    EXPECT_DOUBLE_EQ(model.At(0, t, 2), g[t]) << t;
    EXPECT_DOUBLE_EQ(model.At(0, t, 3), h[t]) << t;
  }
}

TEST(StreamingTimeSlicer, RejectsWhatItCannotStream)
{
  TimeSlicingOptions options;
  options.Grid = { 0.0, 10.0, 5 };
  options.Leaves = 2;
  options.Types = 2;
  const uint32_t leaf0[] = { 0, 0 };
  const uint32_t types[] = { 0, 1 };
  const uint32_t depths[] = { 0, 0 };
  const double start[] = { 5, 1 };
  const double end[] = { 6, 2 }; // second ends before the first: not Leave order
  {
    StreamingTimeSlicer slicer(options);
    slicer.BeginLeaf(0);
    EXPECT_THROW(slicer.AddStates({ leaf0, types, depths, start, end, 2 }), std::invalid_argument);
  }
  {
    StreamingTimeSlicer slicer(options);
    slicer.BeginLeaf(1); // rows of leaf 0 while leaf 1 streams
    EXPECT_THROW(slicer.AddStates({ leaf0, types, depths, start, end, 1 }), std::invalid_argument);
  }
  {
    StreamingTimeSlicer slicer(options);
    slicer.BeginLeaf(0);
    slicer.EndLeaf();
    EXPECT_THROW(slicer.BeginLeaf(0), std::invalid_argument); // each leaf once
    EXPECT_THROW(slicer.BeginLeaf(2), std::invalid_argument); // out of range
  }
  {
    StreamingTimeSlicer slicer(options);
    slicer.BeginLeaf(0);
    const uint32_t badType[] = { 2 };
    EXPECT_THROW(
      slicer.AddStates({ leaf0, badType, depths, start, end, 1 }), std::invalid_argument);
  }
  options.Grid.Slices = 0;
  EXPECT_THROW(StreamingTimeSlicer{ options }, std::invalid_argument);
}

// A child whose parent the rows lack (no DroppedStateType row) is not
// subtracted from the next state of its parent's depth, as in SliceTrace.
TEST(StreamingTimeSlicer, OrphansAsSliceTrace)
{
  TimeSlicingOptions options;
  options.Grid = { 0.0, 10.0, 10 };
  options.Leaves = 1;
  options.Types = 2;
  const uint32_t location[] = { 0, 0, 0 };
  const uint32_t type[] = { 1, 1, 0 };
  const uint32_t depth[] = { 1, 1, 0 };
  const double start[] = { 0.5, 2.0, 4.0 };
  const double end[] = { 1.5, 3.5, 9.0 }; // both children end before the parent starts
  StreamingTimeSlicer slicer(options);
  slicer.BeginLeaf(0);
  slicer.AddStates({ location, type, depth, start, end, 3 });
  slicer.EndLeaf();
  const MicroscopicModel streamed = slicer.Finish();
  const MicroscopicModel table =
    SliceTrace(options, { location, type, depth, start, end, 3 }, {}, {});
  EXPECT_EQ(streamed.Values, table.Values);
  EXPECT_DOUBLE_EQ(streamed.At(0, 4, 0), 1.0); // the parent's time, nothing subtracted
}
}
