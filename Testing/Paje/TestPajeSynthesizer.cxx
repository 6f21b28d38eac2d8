// Cross-format check: the synthesizer writes one simulated run both as an
// OTF2 archive and as a Pajé trace (SynthPajeWriter); the OTF2 decoder and
// the Pajé parser, two independent readers, must then give the same tables.
// This puts the Pajé parser against injected ground truth at scale.
//
// Compared exactly (times included: the Pajé file holds OTF2's seconds since
// the trace start, see docs/synthesizer.md): hierarchy names and kinds,
// states (leaf path, type name, depth, start, end), messages (sender and
// receiver paths, send and receive times, bytes), instant events (leaf path,
// type name, time) and metric samples (leaf path, variable name, time,
// value). Excluded, because one format does not carry them (listed in
// docs/synthesizer.md): message Tag and Communicator, the events'
// Communicator, Root and Operation, the types' Paradigm and Role, OTF2's
// BufferFlush events (written by OTF2 itself; their count is checked
// against the synthesizer's), and Pajé's extra root vertex.
#include <MacroscopeOTF2.h>
#include <MacroscopePaje.h>
#include <MacroscopeSynthesizer.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include <unistd.h> // getpid: one work directory per test process

namespace
{
namespace fs = std::filesystem;
namespace synth = macroscope::synth;
namespace otf2 = macroscope::otf2;
namespace paje = macroscope::paje;

/// "machine/cluster-0/node-1/MPI Rank 2/Master thread" for every vertex;
/// Pajé's root vertex (kind "root") is not part of the paths.
std::vector<std::string> vertexPaths(const otf2::HierarchyColumns& tree)
{
  std::vector<std::string> paths(tree.size());
  for (std::size_t v = 0; v < tree.size(); ++v)
  {
    const int64_t parent = tree.Parent[v];
    const bool pajeRoot = parent < 0 && tree.Kind[v] == "root";
    if (pajeRoot)
    {
      continue;
    }
    // Parents precede their children (depth-first order).
    const std::string prefix = parent < 0 ? std::string() : paths[std::size_t(parent)];
    paths[v] = prefix.empty() ? tree.Name[v] : prefix + "/" + tree.Name[v];
  }
  return paths;
}

template <typename LeafVector>
std::vector<std::string> leafPaths(const otf2::HierarchyColumns& tree, const LeafVector& leaves)
{
  const std::vector<std::string> paths = vertexPaths(tree);
  std::vector<std::string> result;
  for (const auto& leaf : leaves)
  {
    result.push_back(paths[leaf.Vertex]);
  }
  return result;
}

using StateRow = std::tuple<std::string, std::string, uint32_t, double, double>;
using MessageRow = std::tuple<std::string, std::string, double, double, uint64_t>;
using EventRow = std::tuple<std::string, std::string, double>;
using VariableRow = std::tuple<std::string, std::string, double, double>;

/// Both readers' tables in a format-neutral, sorted form.
struct Canonical
{
  std::vector<std::pair<std::string, std::string>> Vertices; ///< path, kind (depth-first)
  std::vector<std::string> Leaves;
  std::vector<StateRow> States;
  std::vector<MessageRow> Messages;
  std::vector<EventRow> Events;
  std::vector<VariableRow> Variables;
  uint64_t RecvBytesDiffer = 0;
  uint64_t DroppedBufferFlushes = 0;
};

template <typename LeafVector>
Canonical canonical(const otf2::HierarchyColumns& tree, const LeafVector& leaves,
  const otf2::TypeColumns& types, const otf2::StateColumns& states,
  const otf2::MessageColumns& messages, const otf2::EventColumns& events,
  const otf2::VariableColumns& variables)
{
  Canonical c;
  const std::vector<std::string> paths = vertexPaths(tree);
  for (std::size_t v = 0; v < tree.size(); ++v)
  {
    if (!(tree.Parent[v] < 0 && tree.Kind[v] == "root"))
    {
      c.Vertices.emplace_back(paths[v], tree.Kind[v]);
    }
  }
  c.Leaves = leafPaths(tree, leaves);
  for (std::size_t i = 0; i < states.size(); ++i)
  {
    c.States.emplace_back(c.Leaves[states.Location[i]], types.Name[states.Type[i]], states.Depth[i],
      states.Start[i], states.End[i]);
  }
  for (std::size_t i = 0; i < messages.size(); ++i)
  {
    c.Messages.emplace_back(c.Leaves[messages.Sender[i]], c.Leaves[messages.Receiver[i]],
      messages.SendTime[i], messages.RecvTime[i], messages.Bytes[i]);
    c.RecvBytesDiffer += messages.RecvBytes[i] != messages.Bytes[i];
  }
  for (std::size_t i = 0; i < events.size(); ++i)
  {
    const std::string& name = types.Name[events.Type[i]];
    if (name == "BufferFlush")
    {
      ++c.DroppedBufferFlushes; // OTF2's own records, no simulated event
      continue;
    }
    c.Events.emplace_back(c.Leaves[events.Location[i]], name, events.Time[i]);
  }
  for (std::size_t i = 0; i < variables.size(); ++i)
  {
    c.Variables.emplace_back(c.Leaves[variables.Location[i]], types.Name[variables.Variable[i]],
      variables.Time[i], variables.Value[i]);
  }
  std::sort(c.States.begin(), c.States.end());
  std::sort(c.Messages.begin(), c.Messages.end());
  std::sort(c.Events.begin(), c.Events.end());
  std::sort(c.Variables.begin(), c.Variables.end());
  return c;
}

/// Index of the first difference, for a readable failure.
template <typename Row>
void expectSameRows(
  const std::vector<Row>& expected, const std::vector<Row>& actual, const char* table)
{
  ASSERT_EQ(expected.size(), actual.size()) << table;
  const auto mismatch = std::mismatch(expected.begin(), expected.end(), actual.begin());
  EXPECT_TRUE(mismatch.first == expected.end())
    << table << ": first difference at sorted row " << (mismatch.first - expected.begin());
}

uint64_t Count(const synth::SynthesisSummary& summary, synth::EventKind kind)
{
  return summary.Events[static_cast<std::size_t>(kind)];
}

struct Case
{
  synth::Pattern Pattern;
  uint64_t MemoryBudgetMB; ///< small: many passes over the simulation
  synth::PerturbationKind Perturbation;
};

void PrintTo(const Case& c, std::ostream* out)
{
  *out << synth::ToString(c.Pattern) << ", budget " << c.MemoryBudgetMB << " MB, perturbation "
       << synth::ToString(c.Perturbation);
}

class PajeSynthesizer : public ::testing::TestWithParam<Case>
{
};

TEST_P(PajeSynthesizer, BothFormatsGiveTheSameTables)
{
  const Case& param = GetParam();
  const fs::path work = fs::path(::testing::TempDir()) /
    ("paje-synth-" + std::to_string(::getpid()) + "-" +
      std::string(synth::ToString(param.Pattern)) + "-" + std::to_string(param.MemoryBudgetMB));
  fs::remove_all(work);
  synth::SynthConfig config;
  config.OutputDirectory = (work / "run").string();
  config.PajeFile = (work / "run.paje").string();
  config.Clusters = 2;
  config.NodesPerCluster = 2;
  config.RanksPerNode = 2;
  config.ThreadsPerRank = 2;
  config.Iterations = 12;
  config.CommunicationPattern = param.Pattern;
  config.MemoryBudgetMB = param.MemoryBudgetMB;
  config.Perturbation.Kind = param.Perturbation;
  config.Perturbation.Target = 1;
  const synth::SynthesisSummary summary = synth::Synthesize(config);
  ASSERT_EQ(summary.PajeFile, config.PajeFile);

  const otf2::TraceData a = otf2::ReadTrace(summary.AnchorFile);
  const paje::TraceData b = paje::ReadTrace(config.PajeFile);
  const Canonical fromOtf2 = canonical(
    a.Info.Hierarchy, a.Info.Leaves, a.Info.Types, a.States, a.Messages, a.Events, a.Variables);
  const Canonical fromPaje =
    canonical(b.Hierarchy, b.Leaves, b.Types, b.States, b.Messages, b.Events, b.Variables);

  // Both readers saw the whole simulated run: the synthesizer's own counts.
  using K = synth::EventKind;
  EXPECT_EQ(fromOtf2.States.size(), Count(summary, K::Enter));
  EXPECT_EQ(fromOtf2.Messages.size(), Count(summary, K::MpiSend) + Count(summary, K::MpiIsend));
  EXPECT_EQ(fromOtf2.Events.size(),
    Count(summary, K::ProgramBegin) + Count(summary, K::ProgramEnd) +
      Count(summary, K::ThreadFork) + Count(summary, K::ThreadJoin) +
      Count(summary, K::MpiCollectiveBegin) + Count(summary, K::MpiCollectiveEnd));
  EXPECT_EQ(fromOtf2.Variables.size(), Count(summary, K::Metric));
  EXPECT_EQ(fromOtf2.DroppedBufferFlushes, Count(summary, K::BufferFlush));
  EXPECT_GT(fromOtf2.Messages.size() + Count(summary, K::MpiCollectiveEnd), 0u);
  if (param.MemoryBudgetMB < 16)
  {
    EXPECT_GT(summary.Passes, 1u); // the Pajé writer saw each event once anyway
  }

  EXPECT_EQ(fromOtf2.Vertices, fromPaje.Vertices);
  EXPECT_EQ(fromOtf2.Leaves, fromPaje.Leaves);
  expectSameRows(fromOtf2.States, fromPaje.States, "states");
  expectSameRows(fromOtf2.Messages, fromPaje.Messages, "messages");
  expectSameRows(fromOtf2.Events, fromPaje.Events, "events");
  expectSameRows(fromOtf2.Variables, fromPaje.Variables, "variables");
  EXPECT_EQ(fromOtf2.RecvBytesDiffer, 0u);
  EXPECT_EQ(fromPaje.RecvBytesDiffer, 0u);
  EXPECT_EQ(fromPaje.DroppedBufferFlushes, 0u);

  // The Pajé file is clean: everything matched, nothing implicit.
  const paje::Diagnostics& report = b.Report;
  EXPECT_EQ(report.Lines, summary.PajeLines);
  EXPECT_EQ(report.UnmatchedStartLinks, 0u);
  EXPECT_EQ(report.UnmatchedEndLinks, 0u);
  EXPECT_EQ(report.EndsBeforeStarts, 0u);
  EXPECT_EQ(report.StatesLeftOpen, 0u);
  EXPECT_EQ(report.StatesClosedByDestroy, 0u);
  EXPECT_EQ(report.ImplicitValues, 0u);
  EXPECT_EQ(report.SelfLeaves, 0u);
  EXPECT_EQ(report.LastTime, a.Report.LastTime);

  // The Pajé file's colours are kept ("compute" is "0.2 0.4 0.8"), and
  // both formats draw the palette's: the tables agree on Color.
  const auto compute = std::find(b.Types.Name.begin(), b.Types.Name.end(), "compute");
  ASSERT_NE(compute, b.Types.Name.end());
  const std::array<uint8_t, 3> expectedColor{ 51, 102, 204 };
  EXPECT_EQ(b.Types.TraceColor[std::size_t(compute - b.Types.Name.begin())], expectedColor);
  std::size_t shared = 0;
  for (std::size_t i = 0; i < b.Types.size(); ++i)
  {
    const auto& names = a.Info.Types.Name;
    const auto same = std::find(names.begin(), names.end(), b.Types.Name[i]);
    if (same != names.end() && b.Types.Kind[i] == "state")
    {
      ++shared;
      EXPECT_EQ(b.Types.Color[i], a.Info.Types.Color[std::size_t(same - names.begin())])
        << b.Types.Name[i];
    }
  }
  EXPECT_GE(shared, 5u);
  fs::remove_all(work);
}

INSTANTIATE_TEST_SUITE_P(Patterns, PajeSynthesizer,
  ::testing::Values(Case{ synth::Pattern::Ring, 256, synth::PerturbationKind::None },
    Case{ synth::Pattern::Stencil3D, 256, synth::PerturbationKind::SlowNode },
    Case{ synth::Pattern::Tree, 256, synth::PerturbationKind::CongestedCluster },
    Case{ synth::Pattern::Allreduce, 256, synth::PerturbationKind::None },
    Case{ synth::Pattern::Stencil3D, 8, synth::PerturbationKind::CongestedCluster }),
  [](const ::testing::TestParamInfo<Case>& info)
  {
    std::string name = synth::ToString(info.param.Pattern);
    name.erase(std::remove_if(name.begin(), name.end(), [](char c) { return !std::isalnum(c); }),
      name.end());
    return name + "_budget" + std::to_string(info.param.MemoryBudgetMB);
  });

} // namespace
