// End-to-end tests: synthesize archives, read them back with the OTF2
// reader API, and check determinism, the time model's invariants and that
// the ground truth is really injected.
#include "ArchiveReadback.h"
#include "MacroscopeSynthesizer.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

namespace
{
using namespace macroscope::synth;
using macroscope::synth::testing::MatchedMessage;
using macroscope::synth::testing::readArchive;
using macroscope::synth::testing::Readback;
namespace fs = std::filesystem;

/// A fresh directory per test, removed afterwards.
class ScratchDirectory
{
public:
  ScratchDirectory()
  {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string(test->test_suite_name()) + "-" + test->name();
    std::replace(name.begin(), name.end(), '/', '_');
    this->Path =
      fs::temp_directory_path() / ("macroscope-synth-" + std::to_string(::getpid()) + "-" + name);
    fs::remove_all(this->Path);
  }
  ~ScratchDirectory() { fs::remove_all(this->Path); }
  std::string operator/(const std::string& leaf) const { return (this->Path / leaf).string(); }

private:
  fs::path Path;
};

SynthConfig smallRun(const std::string& directory)
{
  SynthConfig config;
  config.OutputDirectory = directory;
  config.Clusters = 2;
  config.NodesPerCluster = 2;
  config.RanksPerNode = 3;
  config.ThreadsPerRank = 2;
  config.Iterations = 30;
  return config;
}

std::string readBytes(const fs::path& path)
{
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// Concatenated bytes of traces.def and every file under traces/, by name.
std::string archiveBytes(const std::string& directory)
{
  std::set<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(directory) / "traces"))
  {
    files.insert(entry.path());
  }
  std::string bytes = readBytes(fs::path(directory) / "traces.def");
  for (const fs::path& file : files)
  {
    bytes += file.filename().string() + ":" + readBytes(file);
  }
  return bytes;
}

std::string summaryText(SynthesisSummary summary)
{
  summary.AnchorFile.clear();
  summary.Config.OutputDirectory.clear();
  std::ostringstream out;
  WriteSummaryJson(summary, out);
  WriteGroundTruthJson(summary, out);
  return out.str();
}

bool archiveExists(const std::string& directory)
{
  return fs::exists(fs::path(directory) / "traces.otf2") ||
    fs::exists(fs::path(directory) / "traces.def") || fs::exists(fs::path(directory) / "traces");
}

TEST(SynthDeterminism, SameSeedGivesIdenticalBytesAndSummary)
{
  ScratchDirectory scratch;
  SynthConfig first = smallRun(scratch / "a");
  first.Perturbation.Kind = PerturbationKind::SlowNode;
  first.Perturbation.Target = 1;
  first.Perturbation.WindowBegin = 0.005;
  first.Perturbation.WindowEnd = 0.02;
  SynthConfig second = first;
  second.OutputDirectory = scratch / "b";
  const SynthesisSummary a = Synthesize(first);
  const SynthesisSummary b = Synthesize(second);
  EXPECT_EQ(summaryText(a), summaryText(b));
  // The anchor file is left out: OTF2 stamps it with a random trace id.
  EXPECT_EQ(archiveBytes(scratch / "a"), archiveBytes(scratch / "b"));
}

TEST(SynthDeterminism, DifferentSeedGivesDifferentEvents)
{
  ScratchDirectory scratch;
  SynthConfig first = smallRun(scratch / "a");
  SynthConfig second = first;
  second.OutputDirectory = scratch / "b";
  second.Seed = first.Seed + 1;
  const SynthesisSummary a = Synthesize(first);
  const SynthesisSummary b = Synthesize(second);
  // Same structure, different times.
  EXPECT_EQ(a.Events, b.Events);
  EXPECT_NE(archiveBytes(scratch / "a"), archiveBytes(scratch / "b"));
  EXPECT_NE(a.TraceLengthTicks, b.TraceLengthTicks);
}

TEST(SynthOutput, RefusesAnExistingArchiveUnlessOverwriting)
{
  ScratchDirectory scratch;
  SynthConfig config = smallRun(scratch / "run");
  Synthesize(config);
  try
  {
    Synthesize(config);
    ADD_FAILURE() << "a second run into the same directory must fail";
  }
  catch (const std::runtime_error& error)
  {
    EXPECT_NE(std::string(error.what()).find("already holds an OTF2 archive"), std::string::npos)
      << error.what();
  }
  EXPECT_TRUE(readArchive(scratch / "run/traces.otf2").Violations.empty());
  config.Overwrite = true;
  config.Seed = 7;
  const SynthesisSummary summary = Synthesize(config);
  const Readback readback = readArchive(scratch / "run/traces.otf2");
  EXPECT_TRUE(readback.Violations.empty());
  EXPECT_EQ(readback.Counts, summary.Events);
}

TEST(SynthOutput, ReportsAnUnusableDirectory)
{
  ScratchDirectory scratch;
  fs::create_directories(scratch / "");
  std::ofstream(scratch / "file") << "not a directory";
  SynthConfig config = smallRun(scratch / "file/below");
  try
  {
    Synthesize(config);
    ADD_FAILURE() << "writing below a regular file must fail";
  }
  catch (const std::runtime_error& error)
  {
    EXPECT_NE(std::string(error.what()).find("cannot create output directory"), std::string::npos)
      << error.what();
  }
}

TEST(SynthOutput, InvalidConfigurationThrowsConfigError)
{
  ScratchDirectory scratch;
  SynthConfig config = smallRun(scratch / "run");
  config.RanksPerNode = 0;
  EXPECT_THROW(Synthesize(config), ConfigError);
  EXPECT_FALSE(archiveExists(scratch / "run"));
}

TEST(SynthOutput, AbortRemovesThePartialArchive)
{
  ScratchDirectory scratch;
  SynthConfig config = smallRun(scratch / "run");
  config.Iterations = 200;
  double last = 0.0;
  EXPECT_THROW(Synthesize(config,
                 [&](double fraction)
                 {
                   last = fraction;
                   return fraction < 0.3;
                 }),
    SynthesisAborted);
  EXPECT_GE(last, 0.3);
  EXPECT_LT(last, 0.9);
  EXPECT_FALSE(archiveExists(scratch / "run"));
  EXPECT_FALSE(fs::exists(scratch / "run/summary.json"));
}

TEST(SynthOutput, ProgressRisesToOne)
{
  ScratchDirectory scratch;
  std::vector<double> fractions;
  Synthesize(smallRun(scratch / "run"),
    [&](double fraction)
    {
      fractions.push_back(fraction);
      return true;
    });
  ASSERT_FALSE(fractions.empty());
  EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
  EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
}

TEST(SynthOutput, ReportsWhileClosingTheEventFilesAndStopsThere)
{
  // 24 locations in one pass: closing each file (which writes its last
  // chunk out) moves the bar through the pass's last quarter.
  ScratchDirectory scratch;
  std::vector<double> fractions;
  Synthesize(smallRun(scratch / "run"),
    [&](double fraction)
    {
      fractions.push_back(fraction);
      return true;
    });
  const double closingBegins = 0.95 * 0.75 + 1e-9;
  const auto closing = std::count_if(fractions.begin(), fractions.end(),
    [&](double fraction) { return fraction > closingBegins && fraction <= 0.95; });
  EXPECT_EQ(closing, 24);
  // Stopping there leaves nothing behind.
  EXPECT_THROW(
    Synthesize(smallRun(scratch / "stopped"), [&](double fraction) { return fraction < 0.85; }),
    SynthesisAborted);
  EXPECT_FALSE(fs::exists(scratch / "stopped/traces.otf2"));
  EXPECT_FALSE(fs::exists(scratch / "stopped/traces"));
}

TEST(SynthOutput, WritesTheSideFiles)
{
  ScratchDirectory scratch;
  SynthConfig config = smallRun(scratch / "run");
  config.WriteDot = true;
  config.Perturbation.Kind = PerturbationKind::CongestedCluster;
  config.Perturbation.Target = 1;
  Synthesize(config);
  const std::string truth = readBytes(scratch / "run/ground_truth.json");
  EXPECT_NE(truth.find("\"perturbation\": \"congested-cluster\""), std::string::npos);
  EXPECT_NE(truth.find("\"name\": \"cluster-1\""), std::string::npos);
  EXPECT_NE(truth.find("\"ranks\": [6, 7, 8, 9, 10, 11]"), std::string::npos) << truth;
  const std::string summary = readBytes(scratch / "run/summary.json");
  EXPECT_NE(summary.find("\"MpiIsendComplete\""), std::string::npos);
  const std::string dot = readBytes(scratch / "run/topology.dot");
  EXPECT_NE(dot.find("\"cluster-1\" [shape=folder style=filled"), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"node-3\" -> \"rank-9\""), std::string::npos);
  // network.dot is what WriteNetworkDot gives for the run's platform and truth.
  const Platform platform(config);
  std::ostringstream network;
  WriteNetworkDot(config, platform, DescribeGroundTruth(config, platform), network);
  EXPECT_EQ(readBytes(scratch / "run/network.dot"), network.str());
  EXPECT_NE(network.str().find("\"switch-1\" [kind=\"switch\""), std::string::npos);
}

TEST(SynthOutput, ReplacingOrFailingRemovesTheDotFiles)
{
  ScratchDirectory scratch;
  SynthConfig config = smallRun(scratch / "run");
  config.WriteDot = true;
  Synthesize(config);
  ASSERT_TRUE(fs::exists(scratch / "run/network.dot"));
  ASSERT_TRUE(fs::exists(scratch / "run/topology.dot"));
  // A replacement without --dot must not leave the old run's graphs behind.
  config.WriteDot = false;
  config.Overwrite = true;
  Synthesize(config);
  EXPECT_FALSE(fs::exists(scratch / "run/network.dot"));
  EXPECT_FALSE(fs::exists(scratch / "run/topology.dot"));
  // Neither must an aborted replacement.
  config.WriteDot = true;
  Synthesize(config);
  ASSERT_TRUE(fs::exists(scratch / "run/network.dot"));
  EXPECT_THROW(
    Synthesize(config, [](double fraction) { return fraction < 0.5; }), SynthesisAborted);
  EXPECT_FALSE(fs::exists(scratch / "run/network.dot"));
  EXPECT_FALSE(archiveExists(scratch / "run"));
}

TEST(SynthEventTarget, RunsTheFewestIterationsReachingTheTarget)
{
  ScratchDirectory scratch;
  SynthConfig config = smallRun(scratch / "run");
  config.MinimumEvents = 25000;
  const SynthesisSummary summary = Synthesize(config);
  EXPECT_GE(summary.TotalEvents, 25000u);
  EXPECT_LT(TotalOf(PredictEventCounts(config, summary.Iterations - 1)), 25000u);
  EventCounts predicted = PredictEventCounts(config, summary.Iterations);
  predicted[static_cast<std::size_t>(EventKind::BufferFlush)] =
    summary.Events[static_cast<std::size_t>(EventKind::BufferFlush)];
  EXPECT_EQ(predicted, summary.Events);
}

struct ArchiveCase
{
  Pattern CommunicationPattern;
  PerturbationKind Kind;
  uint32_t Threads;
};

void PrintTo(const ArchiveCase& param, std::ostream* out)
{
  *out << ToString(param.CommunicationPattern) << ", " << ToString(param.Kind) << ", "
       << param.Threads << " threads";
}

std::string caseName(const ::testing::TestParamInfo<ArchiveCase>& info)
{
  std::string name = std::string(ToString(info.param.CommunicationPattern)) + "_" +
    ToString(info.param.Kind) + "_" + std::to_string(info.param.Threads) + "threads";
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

class SynthArchiveInvariants : public ::testing::TestWithParam<ArchiveCase>
{
};

TEST_P(SynthArchiveInvariants, ReadBackMatchesTheSummaryAndTheModel)
{
  const ArchiveCase& param = GetParam();
  ScratchDirectory scratch;
  SynthConfig config = smallRun(scratch / "run");
  config.CommunicationPattern = param.CommunicationPattern;
  config.ThreadsPerRank = param.Threads;
  config.Perturbation.Kind = param.Kind;
  config.Perturbation.Target = 1;
  config.Perturbation.WindowBegin = 0.008;
  config.Perturbation.WindowEnd = 0.02;
  const SynthesisSummary summary = Synthesize(config);
  const Readback readback = readArchive(summary.AnchorFile);

  for (const std::string& violation : readback.Violations)
  {
    ADD_FAILURE() << violation;
  }
  EXPECT_EQ(readback.TimerResolution, config.TimerResolution);
  EXPECT_EQ(readback.GlobalOffset, summary.GlobalOffset);
  EXPECT_GT(readback.GlobalOffset, 0u);
  EXPECT_EQ(readback.TraceLength, summary.TraceLengthTicks);
  EXPECT_EQ(readback.Counts, summary.Events);
  EXPECT_EQ(TotalOf(readback.Counts), summary.TotalEvents);
  ASSERT_EQ(readback.DeclaredEvents.size(), summary.Locations.size());
  for (const LocationSummary& location : summary.Locations)
  {
    EXPECT_EQ(readback.DeclaredEvents.at(location.Id), location.Events);
    EXPECT_EQ(readback.EventsPerLocation.at(location.Id), location.Events);
    EXPECT_EQ(readback.RankOfLocation.at(location.Id), location.Rank);
  }
  // Every rank hangs below the node the platform puts it on.
  const Platform platform(config);
  for (uint32_t rank = 0; rank < platform.RankCount(); ++rank)
  {
    EXPECT_EQ(readback.NodeOfRank.at(rank), Platform::NodeName(platform.NodeOfRank(rank)));
  }
  const uint64_t pointToPoint = summary.Events[static_cast<std::size_t>(EventKind::MpiSend)] +
    summary.Events[static_cast<std::size_t>(EventKind::MpiIsend)];
  EXPECT_EQ(readback.Messages.size(), pointToPoint);
  if (config.CommunicationPattern != Pattern::Allreduce)
  {
    EXPECT_GT(pointToPoint, 0u);
  }
  // Ground truth names the resources the archive places those ranks on.
  for (uint32_t rank : summary.Truth.AffectedRanks)
  {
    const std::string node = readback.NodeOfRank.at(rank);
    if (param.Kind == PerturbationKind::SlowNode)
    {
      EXPECT_EQ(node, summary.Truth.TargetName);
    }
    else
    {
      EXPECT_NE(
        std::find(summary.Truth.AffectedNodes.begin(), summary.Truth.AffectedNodes.end(), node),
        summary.Truth.AffectedNodes.end());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllPatterns, SynthArchiveInvariants,
  ::testing::Values(ArchiveCase{ Pattern::Ring, PerturbationKind::None, 1 },
    ArchiveCase{ Pattern::Ring, PerturbationKind::SlowNode, 3 },
    ArchiveCase{ Pattern::Ring, PerturbationKind::CongestedCluster, 2 },
    ArchiveCase{ Pattern::Stencil3D, PerturbationKind::None, 2 },
    ArchiveCase{ Pattern::Stencil3D, PerturbationKind::SlowNode, 1 },
    ArchiveCase{ Pattern::Stencil3D, PerturbationKind::CongestedCluster, 3 },
    ArchiveCase{ Pattern::Tree, PerturbationKind::None, 3 },
    ArchiveCase{ Pattern::Tree, PerturbationKind::SlowNode, 2 },
    ArchiveCase{ Pattern::Tree, PerturbationKind::CongestedCluster, 1 },
    ArchiveCase{ Pattern::Allreduce, PerturbationKind::None, 2 },
    ArchiveCase{ Pattern::Allreduce, PerturbationKind::SlowNode, 3 }),
  caseName);

TEST(SynthArchiveInvariants, TwoRankRingMatchesBothDirections)
{
  ScratchDirectory scratch;
  SynthConfig config = smallRun(scratch / "run");
  config.Clusters = 1;
  config.NodesPerCluster = 1;
  config.RanksPerNode = 2;
  config.CommunicationPattern = Pattern::Ring;
  const SynthesisSummary summary = Synthesize(config);
  const Readback readback = readArchive(summary.AnchorFile);
  EXPECT_TRUE(readback.Violations.empty());
  EXPECT_EQ(readback.Messages.size(), 4 * config.Iterations);
}

TEST(SynthArchiveInvariants, BufferFlushesKeepTheArchiveValid)
{
  // Enough events that the master locations flush several 4 MiB chunks.
  ScratchDirectory scratch;
  SynthConfig config = smallRun(scratch / "run");
  config.Clusters = 1;
  config.NodesPerCluster = 1;
  config.RanksPerNode = 2;
  config.ThreadsPerRank = 1;
  config.MinimumEvents = 3000000;
  const SynthesisSummary summary = Synthesize(config);
  EXPECT_GT(summary.Events[static_cast<std::size_t>(EventKind::BufferFlush)], 0u);
  const Readback readback = readArchive(summary.AnchorFile);
  EXPECT_TRUE(readback.Violations.empty());
  EXPECT_EQ(readback.Counts, summary.Events);
}

/// A side file of `directory` with that directory's name replaced by `as`,
/// so that files of runs into different directories compare equal.
std::string sideFileAs(const std::string& directory, const std::string& name, const std::string& as)
{
  std::string text = readBytes(fs::path(directory) / name);
  for (std::size_t at = text.find(directory); at != std::string::npos;
       at = text.find(directory, at + as.size()))
  {
    text.replace(at, directory.size(), as);
  }
  return text;
}

/// Writes `config` into a and b, b with a budget of `budgetMB`, and checks
/// that the archives (but the anchor file's trace id) and side files agree.
/// Returns the summary of the run with several passes.
SynthesisSummary expectSameOutputWithBudget(
  SynthConfig config, uint64_t budgetMB, uint64_t expectedPasses, const ScratchDirectory& scratch)
{
  config.OutputDirectory = scratch / "a";
  const SynthesisSummary single = Synthesize(config);
  config.OutputDirectory = scratch / "b";
  config.MemoryBudgetMB = budgetMB;
  const SynthesisSummary several = Synthesize(config);
  EXPECT_EQ(single.Passes, 1u);
  EXPECT_EQ(several.Passes, expectedPasses);
  EXPECT_EQ(summaryText(single), summaryText(several));
  EXPECT_EQ(single.Locations.size(), several.Locations.size());
  for (std::size_t index = 0; index < std::min(single.Locations.size(), several.Locations.size());
       ++index)
  {
    EXPECT_EQ(single.Locations[index].Events, several.Locations[index].Events) << index;
  }
  // The anchor file is left out: OTF2 stamps it with a random trace id.
  EXPECT_EQ(archiveBytes(scratch / "a"), archiveBytes(scratch / "b"));
  for (const char* name : { "ground_truth.json", "summary.json", "topology.dot", "network.dot" })
  {
    EXPECT_EQ(readBytes(scratch / ("a/" + std::string(name))),
      sideFileAs(scratch / "b", name, scratch / "a"))
      << name;
  }
  const Readback readback = readArchive(several.AnchorFile);
  EXPECT_TRUE(readback.Violations.empty());
  EXPECT_EQ(readback.Counts, several.Events);
  return several;
}

TEST(SynthPasses, LocationsPerPassFollowTheBudget)
{
  SynthConfig config = smallRun("unused");  // 12 ranks x 2 threads = 24 locations
  EXPECT_EQ(LocationsPerPass(config), 24u); // default budget: everything fits
  config.MemoryBudgetMB = 1;
  EXPECT_EQ(LocationsPerPass(config), 1u); // never fewer than one
  config.MemoryBudgetMB = 4;
  EXPECT_EQ(LocationsPerPass(config), 1u);
  config.MemoryBudgetMB = 12;
  EXPECT_EQ(LocationsPerPass(config), 2u); // 4 MiB per open file, 4 MiB for closing one
  config.MemoryBudgetMB = 39;
  EXPECT_EQ(LocationsPerPass(config), 8u);
  config.MemoryBudgetMB = 100;
  EXPECT_EQ(LocationsPerPass(config), 24u);
  config.MemoryBudgetMB = 0;
  EXPECT_THROW(LocationsPerPass(config), ConfigError);
  config.OutputDirectory = fs::temp_directory_path() / "macroscope-synth-unused-budget";
  EXPECT_THROW(Synthesize(config), ConfigError);
}

TEST(SynthPasses, SeveralPassesWriteTheSameArchive)
{
  ScratchDirectory scratch;
  SynthConfig config = smallRun("");
  config.WriteDot = true;
  config.Perturbation.Kind = PerturbationKind::SlowNode;
  config.Perturbation.Target = 1;
  config.Perturbation.WindowBegin = 0.005;
  config.Perturbation.WindowEnd = 0.02;
  // 24 locations, 5 per pass: the last pass is a partial batch.
  expectSameOutputWithBudget(config, 24, 5, scratch);
}

TEST(SynthPasses, SeveralPassesWriteTheSameArchiveForEveryPattern)
{
  for (Pattern pattern : { Pattern::Ring, Pattern::Tree, Pattern::Allreduce })
  {
    SCOPED_TRACE(ToString(pattern));
    ScratchDirectory scratch;
    SynthConfig config = smallRun("");
    config.CommunicationPattern = pattern;
    config.ThreadsPerRank = 3;
    config.Iterations = 12;
    if (pattern != Pattern::Allreduce)
    {
      config.Perturbation.Kind = PerturbationKind::CongestedCluster;
      config.Perturbation.Target = 0;
    }
    expectSameOutputWithBudget(config, 1, 36, scratch);
  }
}

TEST(SynthPasses, SeveralPassesKeepBufferFlushes)
{
  // Several 4 MiB chunks per master location, one location per pass.
  ScratchDirectory scratch;
  SynthConfig config = smallRun("");
  config.Clusters = 1;
  config.NodesPerCluster = 1;
  config.RanksPerNode = 2;
  config.ThreadsPerRank = 2;
  config.MinimumEvents = 2000000;
  const SynthesisSummary summary = expectSameOutputWithBudget(config, 1, 4, scratch);
  EXPECT_GT(summary.Events[static_cast<std::size_t>(EventKind::BufferFlush)], 0u);
}

TEST(SynthPasses, ProgressCoversAllPasses)
{
  ScratchDirectory scratch;
  SynthConfig config = smallRun(scratch / "run");
  config.MemoryBudgetMB = 1; // 24 passes
  std::vector<double> fractions;
  const SynthesisSummary summary = Synthesize(config,
    [&](double fraction)
    {
      fractions.push_back(fraction);
      return true;
    });
  EXPECT_EQ(summary.Passes, 24u);
  ASSERT_GT(fractions.size(), 24u * config.Iterations / 2);
  EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
  EXPECT_DOUBLE_EQ(fractions.front(), 0.0);
  EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
  // Half way through the passes, the simulation share is half done.
  EXPECT_NE(std::find_if(fractions.begin(), fractions.end(),
              [](double fraction) { return fraction > 0.44 && fraction < 0.46; }),
    fractions.end());
}

TEST(SynthPasses, AbortInALaterPassRemovesThePartialArchive)
{
  ScratchDirectory scratch;
  SynthConfig config = smallRun(scratch / "run");
  config.MemoryBudgetMB = 1;
  double last = 0.0;
  EXPECT_THROW(Synthesize(config,
                 [&](double fraction)
                 {
                   last = fraction;
                   return fraction < 0.6;
                 }),
    SynthesisAborted);
  EXPECT_GE(last, 0.6);
  EXPECT_LT(last, 0.9);
  EXPECT_FALSE(archiveExists(scratch / "run"));
  EXPECT_FALSE(fs::exists(scratch / "run/summary.json"));
}

TEST(SynthInjection, SlowNodeComputeIsLongerInsideTheWindow)
{
  ScratchDirectory scratch;
  SynthConfig config = smallRun(scratch / "run");
  config.Iterations = 60;
  config.Perturbation.Kind = PerturbationKind::SlowNode;
  config.Perturbation.Target = 2; // ranks 6..8
  config.Perturbation.WindowBegin = 0.015;
  config.Perturbation.WindowEnd = 0.045;
  config.Perturbation.Factor = 3.0;
  const SynthesisSummary summary = Synthesize(config);
  const Readback readback = readArchive(summary.AnchorFile);
  ASSERT_TRUE(readback.Violations.empty());

  const uint64_t begin = summary.Truth.WindowBeginTimestamp;
  const uint64_t end = summary.Truth.WindowEndTimestamp;
  const std::set<uint32_t> slowRanks(
    summary.Truth.AffectedRanks.begin(), summary.Truth.AffectedRanks.end());
  double slowSum = 0.0, otherSum = 0.0, outsideSum = 0.0;
  uint64_t slowCount = 0, otherCount = 0, outsideCount = 0, touching = 0;
  for (const auto& state : readback.ComputeStates)
  {
    const double duration = double(state.End - state.Begin);
    const bool inside = state.Begin >= begin && state.End <= end;
    const bool slow = slowRanks.count(state.Rank) > 0;
    touching += slow && state.Begin < end && state.End > begin ? 1 : 0;
    if (inside && slow)
    {
      slowSum += duration;
      ++slowCount;
    }
    else if (inside)
    {
      otherSum += duration;
      ++otherCount;
    }
    else if (slow && state.End < begin)
    {
      outsideSum += duration;
      ++outsideCount;
    }
  }
  ASSERT_GT(slowCount, 0u);
  ASSERT_GT(otherCount, 0u);
  ASSERT_GT(outsideCount, 0u);
  const double slowMean = slowSum / double(slowCount);
  // Imbalance is +-20 %, so a 3x slowdown stands far above it.
  EXPECT_GT(slowMean, 2.0 * otherSum / double(otherCount));
  EXPECT_GT(slowMean, 2.0 * outsideSum / double(outsideCount));
  EXPECT_EQ(touching, summary.Truth.AffectedComputeStates);
}

TEST(SynthInjection, CongestedClusterMessagesTakeLongerInsideTheWindow)
{
  ScratchDirectory scratch;
  SynthConfig config = smallRun(scratch / "run");
  config.CommunicationPattern = Pattern::Ring;
  config.Iterations = 60;
  config.Perturbation.Kind = PerturbationKind::CongestedCluster;
  config.Perturbation.Target = 0; // ranks 0..5
  config.Perturbation.WindowBegin = 0.015;
  config.Perturbation.WindowEnd = 0.045;
  config.Perturbation.Factor = 20.0;
  const SynthesisSummary summary = Synthesize(config);
  const Readback readback = readArchive(summary.AnchorFile);
  ASSERT_TRUE(readback.Violations.empty());

  const double nominal = config.Latency + double(config.MessageBytes) / config.Bandwidth;
  const double ticksPerSecond = double(config.TimerResolution);
  const uint64_t begin = summary.Truth.WindowBeginTimestamp;
  const uint64_t end = summary.Truth.WindowEndTimestamp;
  const std::set<uint32_t> congested(
    summary.Truth.AffectedRanks.begin(), summary.Truth.AffectedRanks.end());
  uint64_t affected = 0, fastOthers = 0;
  for (const MatchedMessage& message : readback.Messages)
  {
    const double seconds = double(message.ReceiveTime - message.SendTime) / ticksPerSecond;
    const bool touches = congested.count(message.Sender) || congested.count(message.Receiver);
    if (touches && message.SendTime >= begin && message.SendTime < end)
    {
      ++affected;
      // No receive can complete before the slowed transfer is over.
      EXPECT_GE(seconds, config.Perturbation.Factor * nominal * 0.999);
    }
    else
    {
      EXPECT_GE(seconds, nominal * 0.999);
      fastOthers += seconds < config.Perturbation.Factor * nominal * 0.5 ? 1 : 0;
    }
  }
  EXPECT_GT(affected, 0u);
  EXPECT_GT(fastOthers, 0u);
  EXPECT_EQ(affected, summary.Truth.AffectedMessages);
}

} // namespace
