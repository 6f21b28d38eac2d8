// The streamed time slicing of Pajé traces (docs/streaming-model.md, "Pajé
// traces"): the model folded from StreamTrace()'s rows by StreamModel()
// must equal SliceTrace() on the tables ReadTrace() and Select() give for
// the same selection, for every metric and several grids, on synthesized
// runs (injected ground truth, cross-checked against OTF2 elsewhere), on
// the committed hand-written traces and on small traces written here.
#include <MacroscopePaje.h>
#include <MacroscopeSynthesizer.h>
#include <ModelStream.h>
#include <PajeModelStream.h>
#include <PajeSelection.h>
#include <ResourceHierarchy.h>
#include <StreamingTimeSlicing.h>
#include <TimeSlicing.h>
#include <TraceSchema.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h> // getpid: one work directory per test process

namespace
{
namespace fs = std::filesystem;
namespace paje = macroscope::paje;
namespace synth = macroscope::synth;
using namespace macroscope;

const std::string DataDir = MACROSCOPE_SOURCE_DIR "/Testing";

struct Setting
{
  const char* Name;
  SliceMetric Metric;
  int Depth;
  bool Normalize;
};

const Setting Settings[] = {
  { "exclusive", SliceMetric::StateDuration, -1, false },
  { "normalized exclusive", SliceMetric::StateDuration, -1, true },
  { "depth 0", SliceMetric::StateDuration, 0, false },
  { "depth 1", SliceMetric::StateDuration, 1, false },
  { "event count", SliceMetric::EventCount, -1, false },
  { "variable mean", SliceMetric::VariableMean, -1, false },
  { "bytes sent rate", SliceMetric::BytesSentRate, -1, false },
  { "bytes received rate", SliceMetric::BytesReceivedRate, -1, false },
  { "messages sent", SliceMetric::MessagesSent, -1, false },
  { "messages received", SliceMetric::MessagesReceived, -1, false },
};

/// The grids of a trace spanning [first, last]: 1, 7 and 250 slices over
/// it, 40 over a zoom window inside, 33 over a window wider than it.
std::vector<SliceGrid> gridsOf(double first, double last)
{
  const double span = last - first;
  return { { first, last, 1 }, { first, last, 7 }, { first, last, 250 },
    { first + 0.3 * span, first + 0.55 * span, 40 },
    { first - 0.2 * span, last + 0.5 * span, 33 } };
}

/// A table's leaf column renumbered (the reader's RenumberLeaves).
template <typename ColumnT>
std::vector<uint32_t> renumbered(const ColumnT& leaves, const std::vector<uint32_t>& newLeaf)
{
  std::vector<uint32_t> out(leaves.begin(), leaves.end());
  if (!newLeaf.empty())
  {
    for (uint32_t& leaf : out)
    {
      leaf = newLeaf[leaf];
    }
  }
  return out;
}

/// SliceTrace() on the rows the reader's RequestData would output.
MicroscopicModel tableModel(const paje::TraceData& trace, const paje::StreamSelection& streamed,
  const TimeSlicingOptions& options)
{
  paje::Selection selection;
  selection.Leaves = streamed.Leaves;
  selection.StateTypes = streamed.StateTypes;
  selection.Piece = streamed.Piece;
  const paje::SelectedTables rows = paje::Select(trace, selection);
  const std::vector<uint32_t>& map = streamed.OutputLeaf;
  const std::vector<uint32_t> states = renumbered(rows.States.Location, map);
  const std::vector<uint32_t> events = renumbered(rows.Events.Location, map);
  const std::vector<uint32_t> variables = renumbered(rows.Variables.Location, map);
  const std::vector<uint32_t> senders = renumbered(rows.Messages.Sender, map);
  const std::vector<uint32_t> receivers = renumbered(rows.Messages.Receiver, map);
  const std::vector<double> bytes(rows.Messages.Bytes.begin(), rows.Messages.Bytes.end());
  const auto& s = rows.States;
  const auto& e = rows.Events;
  const auto& v = rows.Variables;
  const auto& m = rows.Messages;
  PointRows points;
  if (options.Metric == SliceMetric::VariableMean)
  {
    points = { variables.data(), v.Variable.data(), v.Time.data(), v.Value.data(), v.size() };
  }
  else
  {
    points = { events.data(), e.Type.data(), e.Time.data(), nullptr, e.size() };
  }
  return SliceTrace(options,
    { states.data(), s.Type.data(), s.Depth.data(), s.Start.data(), s.End.data(), s.size() },
    points,
    { senders.data(), receivers.data(), m.SendTime.data(), m.RecvTime.data(), bytes.data(),
      m.size() });
}

MicroscopicModel streamedModel(const std::string& path, const paje::TraceData& scan,
  const paje::StreamSelection& selection, const TimeSlicingOptions& options)
{
  ModelStream stream({}, { options });
  paje::StreamModel(path, scan, selection, stream);
  return std::move(stream.Finish().front());
}

/// Cells equal: exactly, but for the exclusive durations (children
/// subtracted as one sum) and for resources grouping several leaves whose
/// rows interleave in the file (another order of the same additions):
/// 1e-12 of the cell's scale, its value or the slice width.
void expectSameModel(const MicroscopicModel& table, const MicroscopicModel& streamed, bool exact,
  const std::string& what)
{
  ASSERT_EQ(table.Values.size(), streamed.Values.size()) << what;
  const double scale = table.Grid.Width();
  std::size_t differing = 0;
  for (std::size_t i = 0; i < table.Values.size(); ++i)
  {
    const double a = table.Values[i];
    const double b = streamed.Values[i];
    const bool same = exact ? a == b : std::abs(a - b) <= 1e-12 * std::max(std::abs(a), scale);
    if (!same && ++differing <= 5)
    {
      ADD_FAILURE() << what << ": cell " << i << " table " << a << " streamed " << b;
    }
  }
  EXPECT_EQ(differing, 0u) << what;
}

double total(const MicroscopicModel& model)
{
  double sum = 0.0;
  for (double v : model.Values)
  {
    sum += std::abs(v);
  }
  return sum;
}

paje::TraceData scanOf(const std::string& path)
{
  paje::ReadOptions options;
  options.KeepRows = false;
  return paje::ReadTrace(path, options);
}

/// Every setting and grid on `path` with `selection`; returns how many
/// (setting, grid) models had values, so that a caller can require some.
int compareAll(const std::string& path, const paje::StreamSelection& selection,
  const std::vector<uint32_t>& resourceOfLeaf = {}, uint32_t resources = 0)
{
  const paje::TraceData trace = paje::ReadTrace(path);
  const paje::TraceData scan = scanOf(path);
  const uint32_t leaves = selection.OutputLeaf.empty()
    ? uint32_t(trace.Leaves.size())
    : *std::max_element(selection.OutputLeaf.begin(), selection.OutputLeaf.end()) + 1;
  int withValues = 0;
  for (const Setting& setting : Settings)
  {
    for (const SliceGrid& grid : gridsOf(trace.Report.FirstTime, trace.Report.LastTime))
    {
      TimeSlicingOptions options;
      options.Grid = grid;
      options.Metric = setting.Metric;
      options.Depth = setting.Depth;
      options.Normalize = setting.Normalize;
      options.Leaves = leaves;
      options.Types = uint32_t(trace.Types.size());
      options.ResourceOfLeaf = resourceOfLeaf;
      options.Resources = resources;
      options.Threads = 1;
      const std::string what = path + ", " + setting.Name + ", " + std::to_string(grid.Slices) +
        " slices over [" + std::to_string(grid.Begin) + ", " + std::to_string(grid.End) + "]";
      const MicroscopicModel table = tableModel(trace, selection, options);
      const MicroscopicModel streamed = streamedModel(path, scan, selection, options);
      const bool exclusive = setting.Metric == SliceMetric::StateDuration && setting.Depth < 0;
      expectSameModel(table, streamed, !exclusive && resourceOfLeaf.empty(), what);
      withValues += total(table) > 0.0 ? 1 : 0;
    }
  }
  return withValues;
}

/// A synthesized run written as a Pajé trace (docs/synthesizer.md).
std::string Synthesize(synth::Pattern pattern, int threads)
{
  const fs::path work = fs::path(::testing::TempDir()) /
    ("paje-stream-" + std::to_string(::getpid()) + "-" + std::string(synth::ToString(pattern)) +
      "-" + std::to_string(threads));
  fs::remove_all(work);
  synth::SynthConfig config;
  config.OutputDirectory = (work / "run").string();
  config.PajeFile = (work / "run.paje").string();
  config.Clusters = 2;
  config.NodesPerCluster = 2;
  config.RanksPerNode = 2;
  config.ThreadsPerRank = threads;
  config.Iterations = 10;
  config.CommunicationPattern = pattern;
  synth::Synthesize(config);
  return config.PajeFile;
}

std::string writeTrace(const std::string& name, const std::string& body)
{
  const std::string header = R"(%EventDef PajeDefineContainerType 0
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineStateType 1
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeCreateContainer 2
% Time date
% Alias string
% Type string
% Container string
% Name string
%EndEventDef
%EventDef PajePushState 3
% Time date
% Type string
% Container string
% Value string
%EndEventDef
%EventDef PajePopState 4
% Time date
% Type string
% Container string
%EndEventDef
0 P 0 Process
1 A P Calls
1 B P Tasks
2 0 p0 P 0 p0
2 0 p1 P 0 p1
)";
  // Per process: ctest runs the cases in parallel.
  const fs::path path = fs::path(::testing::TempDir()) / (std::to_string(::getpid()) + "-" + name);
  std::ofstream(path) << header << body;
  return path.string();
}

class PajeStreamedSynthetic : public ::testing::TestWithParam<std::pair<synth::Pattern, int>>
{
};

TEST_P(PajeStreamedSynthetic, EqualsSliceTraceOnTheTables)
{
  const std::string path = Synthesize(GetParam().first, GetParam().second);
  // Nearly every (setting, grid) has values (a zoom may hold no event).
  EXPECT_GE(compareAll(path, {}), 30);
}

INSTANTIATE_TEST_SUITE_P(Patterns, PajeStreamedSynthetic,
  ::testing::Values(std::make_pair(synth::Pattern::Ring, 1),
    std::make_pair(synth::Pattern::Stencil3D, 2), std::make_pair(synth::Pattern::Allreduce, 3)),
  [](const auto& info)
  { return std::string(synth::ToString(info.param.first)) + std::to_string(info.param.second); });

TEST(PajeStreamedModel, CommittedTraces)
{
  // Both hold states, links, events and variables; handwritten.paje is
  // ordered per container only, not globally, with a destroyed container.
  for (const std::string& path :
    { DataDir + "/Data/paje/nested.paje", DataDir + "/SMPI/handwritten.paje" })
  {
    EXPECT_GT(compareAll(path, {}), 20) << path;
  }
}

// The rows of a leaf regrouped by a hierarchy file go to its new number;
// leaves grouped into resources (one left out) add up.
TEST(PajeStreamedModel, RegroupedLeavesAndResources)
{
  const std::string path = Synthesize(synth::Pattern::Stencil3D, 2);
  const paje::TraceData scan = scanOf(path);
  const uint32_t leaves = uint32_t(scan.Leaves.size());
  ASSERT_GT(leaves, 4u);
  paje::StreamSelection reversed;
  for (uint32_t leaf = 0; leaf < leaves; ++leaf)
  {
    reversed.OutputLeaf.push_back(leaves - 1 - leaf);
  }
  EXPECT_GT(compareAll(path, reversed), 30);

  std::vector<uint32_t> resourceOfLeaf(leaves);
  for (uint32_t leaf = 0; leaf < leaves; ++leaf)
  {
    resourceOfLeaf[leaf] = leaf == 1 ? NoResource : leaf / 3;
  }
  EXPECT_GT(compareAll(path, {}, resourceOfLeaf, (leaves - 1) / 3 + 1), 30);
}

// The Regions selection: the states of the filtered values become
// DroppedStateType rows, and the model equals SliceTrace() on the tables
// that lack them (their children count in full there).
TEST(PajeStreamedModel, RegionsFilteredAndLocationsSelected)
{
  for (const std::string& path :
    { Synthesize(synth::Pattern::Ring, 2), DataDir + "/Data/paje/nested.paje" })
  {
    const paje::TraceData trace = paje::ReadTrace(path);
    paje::StreamSelection selection;
    selection.StateTypes.assign(trace.Types.size(), 0);
    int kept = 0;
    int dropped = 0;
    for (std::size_t row = 0; row < trace.Types.size(); ++row)
    {
      if (trace.Types.Kind[row] == schema::StateKind)
      {
        // Every other state value: outer and inner ones are both dropped.
        selection.StateTypes[row] = row % 2;
        (row % 2 ? kept : dropped) += 1;
      }
    }
    ASSERT_GT(kept, 0) << path;
    ASSERT_GT(dropped, 0) << path;
    selection.Leaves.assign(trace.Leaves.size(), 1);
    selection.Leaves[0] = 0; // its messages go too, both ways
    EXPECT_GT(compareAll(path, selection), 20) << path;
  }
}

// Each piece folds its share of the leaves (the reader's split); the
// pieces' models add up to the whole one.
TEST(PajeStreamedModel, PiecesAddUp)
{
  const std::string path = Synthesize(synth::Pattern::Stencil3D, 2);
  const paje::TraceData trace = paje::ReadTrace(path);
  const paje::TraceData scan = scanOf(path);
  EXPECT_EQ(scan.RowsOfLeaf, trace.RowsOfLeaf);
  const auto ranges = paje::SplitLeaves(scan, 3);
  const auto fromTables = paje::SplitLeaves(trace, 3);
  for (std::size_t p = 0; p < 3; ++p)
  {
    EXPECT_EQ(ranges[p].Begin, fromTables[p].Begin);
    EXPECT_EQ(ranges[p].End, fromTables[p].End);
  }
  for (const Setting& setting : { Settings[0], Settings[6], Settings[9] })
  {
    TimeSlicingOptions options;
    options.Grid = { trace.Report.FirstTime, trace.Report.LastTime, 50 };
    options.Metric = setting.Metric;
    options.Depth = setting.Depth;
    options.Leaves = uint32_t(trace.Leaves.size());
    options.Types = uint32_t(trace.Types.size());
    const MicroscopicModel whole = streamedModel(path, scan, {}, options);
    std::vector<double> sum(whole.Values.size(), 0.0);
    for (std::size_t p = 0; p < 3; ++p)
    {
      paje::StreamSelection selection;
      selection.Piece = ranges[p];
      const MicroscopicModel part = streamedModel(path, scan, selection, options);
      expectSameModel(tableModel(trace, selection, options), part,
        setting.Metric != SliceMetric::StateDuration, std::string(setting.Name) + ", piece");
      for (std::size_t i = 0; i < sum.size(); ++i)
      {
        sum[i] += part.Values[i];
      }
    }
    MicroscopicModel summed = whole;
    summed.Values = sum;
    expectSameModel(whole, summed, false, std::string(setting.Name) + ", pieces summed");
    EXPECT_GT(total(whole), 0.0);
  }
}

// The definitions-only scan keeps no row but everything else.
TEST(PajeStreamedModel, ScanKeepsNoRows)
{
  const std::string path = DataDir + "/SMPI/handwritten.paje";
  const paje::TraceData trace = paje::ReadTrace(path);
  const paje::TraceData scan = scanOf(path);
  EXPECT_EQ(
    scan.States.size() + scan.Events.size() + scan.Variables.size() + scan.Messages.size(), 0u);
  EXPECT_GT(trace.States.size(), 0u);
  EXPECT_EQ(scan.Hierarchy.Name, trace.Hierarchy.Name);
  EXPECT_EQ(scan.Types.Name, trace.Types.Name);
  EXPECT_EQ(scan.LeafOfContainer, trace.LeafOfContainer);
  EXPECT_EQ(scan.Report.Lines, trace.Report.Lines);
  EXPECT_EQ(scan.Report.UnmatchedEndLinks, trace.Report.UnmatchedEndLinks);
  EXPECT_EQ(scan.Report.LastTime, trace.Report.LastTime);
  // Rows per leaf, counted by hand from the tables.
  std::vector<uint64_t> rows(trace.Leaves.size(), 0);
  for (uint32_t leaf : trace.States.Location)
  {
    ++rows[leaf];
  }
  for (uint32_t leaf : trace.Events.Location)
  {
    ++rows[leaf];
  }
  for (uint32_t leaf : trace.Variables.Location)
  {
    ++rows[leaf];
  }
  for (uint32_t leaf : trace.Messages.Receiver)
  {
    ++rows[leaf];
  }
  EXPECT_EQ(scan.RowsOfLeaf, rows);
}

// Two state types on one container whose states end together: the file
// closes them in an order SliceTrace() sorts (deeper first, then earlier
// start); the stream holds them back to hand them over in that order.
TEST(PajeStreamedModel, SimultaneousEndsOfSeveralStacks)
{
  const std::string path = writeTrace("simultaneous.paje", R"(3 0 A p0 a0
3 1 B p0 b0
3 2 B p0 b1
3 2.5 A p0 a1
4 5 A p0
4 5 B p0
4 5 A p0
4 5 B p0
3 5 A p1 x
3 6 A p1 y
4 6 A p1
4 7 A p1
)");
  EXPECT_GT(compareAll(path, {}), 10);
  // By hand, exclusive durations over one slice [0, 7]: on p0, a1 [2.5, 5]
  // and b1 [2, 5] end first (depth 1); a0 [0, 5] adopts both children
  // inside it (5 - 2.5 - 3 = -0.5, clamped to 0 as rounding), b0 [1, 5]
  // adopts none. On p1, y [6, 6] (zero length) and x [5, 7] minus it.
  const paje::TraceData scan = scanOf(path);
  TimeSlicingOptions options;
  options.Grid = { 0.0, 7.0, 1 };
  options.Leaves = uint32_t(scan.Leaves.size());
  options.Types = uint32_t(scan.Types.size());
  const MicroscopicModel model = streamedModel(path, scan, {}, options);
  auto type = [&](const char* name)
  {
    return uint32_t(
      std::find(scan.Types.Name.begin(), scan.Types.Name.end(), name) - scan.Types.Name.begin());
  };
  EXPECT_DOUBLE_EQ(model.At(0, 0, type("a1")), 2.5);
  EXPECT_DOUBLE_EQ(model.At(0, 0, type("b1")), 3.0);
  EXPECT_DOUBLE_EQ(model.At(0, 0, type("a0")), 0.0);
  EXPECT_DOUBLE_EQ(model.At(0, 0, type("b0")), 4.0);
  EXPECT_DOUBLE_EQ(model.At(1, 0, type("x")), 2.0);
}

// A state ending before one its container already closed (on another state
// type: within one type the scan refuses it, below): the file is not in time
// order, and the stream says where instead of folding a wrong model.
TEST(PajeStreamedModel, OutOfOrderIsAnErrorWithTheLine)
{
  const std::string path = writeTrace("disorder.paje", R"(3 0 A p0 a0
3 1 B p0 b0
4 3 A p0
3 2 A p1 z
4 2.5 A p1
4 2 B p0
)");
  const paje::TraceData scan = scanOf(path); // each type is in order
  TimeSlicingOptions options;
  options.Grid = { 0.0, 3.0, 3 };
  options.Leaves = uint32_t(scan.Leaves.size());
  options.Types = uint32_t(scan.Types.size());
  ModelStream stream({}, { options });
  try
  {
    paje::StreamModel(path, scan, {}, stream);
    ADD_FAILURE() << "no error";
  }
  catch (const paje::ParseError& error)
  {
    EXPECT_EQ(error.GetLine(), 39u) << error.what();
    EXPECT_NE(std::string(error.what()).find("time order"), std::string::npos) << error.what();
    EXPECT_EQ(std::string(error.what()).rfind(path, 0), 0u) << error.what();
  }
}

// Time going backwards on one container and state type is refused as
// pajeng refuses it, from the scan on (docs/paje-reader.md).
TEST(PajeStreamedModel, TimeGoingBackwardsInATypeIsAnErrorWithTheLine)
{
  const std::string path = writeTrace("backwards.paje", R"(3 0 A p0 a0
3 1 A p0 a1
4 3 A p0
4 2 A p0
)");
  try
  {
    scanOf(path);
    ADD_FAILURE() << "no error";
  }
  catch (const paje::ParseError& error)
  {
    EXPECT_EQ(error.GetLine(), 37u) << error.what();
    EXPECT_NE(std::string(error.what()).find("time goes backwards"), std::string::npos)
      << error.what();
    EXPECT_EQ(std::string(error.what()).rfind(path, 0), 0u) << error.what();
  }
}

// A file changed between the scan and the stream is refused.
TEST(PajeStreamedModel, FileChangedSinceTheScan)
{
  const std::string path = writeTrace("changed.paje", "3 0 A p0 a0\n4 1 A p0\n");
  const paje::TraceData scan = scanOf(path);
  std::ofstream(path, std::ios::app) << "2 1 p2 P 0 p2\n3 1 A p2 a0\n";
  TimeSlicingOptions options;
  options.Grid = { 0.0, 1.0, 1 };
  options.Leaves = uint32_t(scan.Leaves.size());
  options.Types = uint32_t(scan.Types.size());
  ModelStream stream({}, { options });
  EXPECT_THROW(paje::StreamModel(path, scan, {}, stream), paje::TraceError);
}

// The progress callback aborts the stream.
TEST(PajeStreamedModel, Abort)
{
  const std::string path = Synthesize(synth::Pattern::Ring, 1);
  const paje::TraceData scan = scanOf(path);
  TimeSlicingOptions options;
  options.Grid = { 0.0, scan.Report.LastTime, 10 };
  options.Leaves = uint32_t(scan.Leaves.size());
  options.Types = uint32_t(scan.Types.size());
  ModelStream stream({}, { options });
  paje::ReadOptions read;
  int calls = 0;
  read.Progress = [&calls](double) { return ++calls < 1; };
  EXPECT_THROW(paje::StreamModel(path, scan, {}, stream, read), paje::ReadAborted);
  EXPECT_EQ(calls, 1);
}

// The slicer's interleaved entry points, by hand: two leaves whose rows
// alternate give SliceTrace()'s model; misuse is refused.
TEST(StreamingTimeSlicerInterleaved, TwoLeavesAlternating)
{
  TimeSlicingOptions options;
  options.Grid = { 0.0, 10.0, 5 };
  options.Leaves = 3;
  options.Types = 2;
  const uint32_t location[] = { 1, 0, 1, 0, 1 };
  const uint32_t type[] = { 1, 1, 0, 0, 0 };
  const uint32_t depth[] = { 1, 1, 0, 0, 0 };
  const double start[] = { 1.0, 2.5, 0.5, 2.0, 8.0 };
  const double end[] = { 3.0, 4.0, 6.0, 7.5, 9.0 };
  const StateRows all{ location, type, depth, start, end, 5 };
  for (int depthSetting : { -1, 0, 1 })
  {
    options.Depth = depthSetting;
    StreamingTimeSlicer slicer(options);
    for (std::size_t i = 0; i < 5; ++i) // one row per call, leaves alternating
    {
      slicer.AddInterleavedStates({ location + i, type + i, depth + i, start + i, end + i, 1 });
    }
    const MicroscopicModel streamed = slicer.Finish();
    const MicroscopicModel table = SliceTrace(options, all, {}, {});
    EXPECT_EQ(streamed.Values, table.Values) << depthSetting;
  }
  options.Depth = -1;
  // By hand: per leaf, the exclusive durations add up to the time traced;
  // in slice 0 ([0, 2)), leaf 1's outer state [0.5, 6] less its child [1, 3].
  StreamingTimeSlicer slicer(options);
  slicer.AddInterleavedStates(all);
  const MicroscopicModel model = slicer.Finish();
  double leaf1 = 0.0;
  double leaf0 = 0.0;
  for (int t = 0; t < 5; ++t)
  {
    leaf1 += model.At(1, t, 0) + model.At(1, t, 1);
    leaf0 += model.At(0, t, 0) + model.At(0, t, 1);
  }
  EXPECT_DOUBLE_EQ(leaf1, (6.0 - 0.5) + (9.0 - 8.0)); // exclusive time = traced time
  EXPECT_DOUBLE_EQ(leaf0, 7.5 - 2.0);
  EXPECT_DOUBLE_EQ(model.At(1, 0, 0), 2.0 - 0.5 - 1.0);

  // Samples of two leaves alternating; the last ones extend to the end.
  options.Metric = SliceMetric::VariableMean;
  const uint32_t sampleLeaf[] = { 0, 2, 0, 2 };
  const uint32_t variable[] = { 1, 1, 1, 0 };
  const double time[] = { 0.0, 1.0, 5.0, 3.0 };
  const double value[] = { 4.0, 2.0, 8.0, 1.0 };
  StreamingTimeSlicer means(options);
  means.AddInterleavedPoints({ sampleLeaf, variable, time, value, 4 });
  means.EndInterleaved();
  const MicroscopicModel mean = means.Finish();
  EXPECT_EQ(
    mean.Values, SliceTrace(options, {}, { sampleLeaf, variable, time, value, 4 }, {}).Values);
  EXPECT_DOUBLE_EQ(mean.At(0, 0, 1), 4.0);
  EXPECT_DOUBLE_EQ(mean.At(0, 4, 1), 8.0);
  EXPECT_DOUBLE_EQ(mean.At(2, 0, 1), 1.0); // 2 over [1, 2): half the slice

  // Misuse.
  options.Metric = SliceMetric::StateDuration;
  StreamingTimeSlicer mixed(options);
  mixed.BeginLeaf(1);
  mixed.EndLeaf();
  EXPECT_THROW(mixed.AddInterleavedStates({ location, type, depth, start, end, 1 }),
    std::invalid_argument); // leaf 1 was given with BeginLeaf
  mixed.AddInterleavedStates({ location + 1, type + 1, depth + 1, start + 1, end + 1, 1 });
  EXPECT_THROW(mixed.BeginLeaf(0), std::invalid_argument); // leaf 0 came interleaved
  mixed.EndInterleaved();
  EXPECT_THROW(
    mixed.AddInterleavedStates({ location + 1, type + 1, depth + 1, start + 1, end + 1, 1 }),
    std::invalid_argument); // after EndInterleaved
  const uint32_t far[] = { 3 };
  EXPECT_THROW(
    mixed.AddInterleavedStates({ far, type, depth, start, end, 1 }), std::invalid_argument);
  const uint32_t badType[] = { 7 };
  EXPECT_THROW(
    mixed.AddInterleavedStates({ location, badType, depth, start, end, 1 }), std::invalid_argument);
}

// Messages in several batches, in any order of leaves: the model of
// SliceTrace() on all of them at once (exactly: per cell the same
// additions in the same order).
TEST(StreamingTimeSlicerInterleaved, MessagesInBatches)
{
  TimeSlicingOptions options;
  options.Grid = { 0.0, 4.0, 4 };
  options.Leaves = 2;
  options.Types = 1;
  const uint32_t sender[] = { 0, 1, 0, 1 };
  const uint32_t receiver[] = { 1, 0, 1, 0 };
  const double sent[] = { 0.5, 1.0, 2.0, 3.0 };
  const double received[] = { 1.5, 1.0, 3.5, 2.5 };
  const double bytes[] = { 100.0, 30.0, 150.0, 10.0 };
  for (SliceMetric metric : { SliceMetric::BytesSentRate, SliceMetric::BytesReceivedRate,
         SliceMetric::MessagesSent, SliceMetric::MessagesReceived })
  {
    options.Metric = metric;
    StreamingTimeSlicer slicer(options);
    slicer.AddMessages({ sender, receiver, sent, received, bytes, 2 });
    slicer.AddMessages({ sender + 2, receiver + 2, sent + 2, received + 2, bytes + 2, 2 });
    const MicroscopicModel streamed = slicer.Finish();
    EXPECT_EQ(streamed.Values,
      SliceTrace(options, {}, {}, { sender, receiver, sent, received, bytes, 4 }).Values);
  }
  options.Metric = SliceMetric::BytesSentRate;
  StreamingTimeSlicer slicer(options);
  slicer.AddMessages({ sender, receiver, sent, received, bytes, 4 });
  const MicroscopicModel model = slicer.Finish();
  EXPECT_DOUBLE_EQ(model.At(0, 0, 0), 50.0); // 100 B over [0.5, 1.5): half in slice 0
  EXPECT_DOUBLE_EQ(model.At(1, 1, 0), 30.0); // instantaneous: all at its send
}

}
