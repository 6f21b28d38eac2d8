#include "MacroscopeSynthesizer.h"
#include "SynthPajeWriter.h"
#include "SynthSimulation.h"
#include "SynthTraceWriter.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>

namespace macroscope::synth
{

namespace
{
namespace fs = std::filesystem;

const char* const ArchiveEntries[] = { "traces.otf2", "traces.def", "traces" };
const char* const SideFiles[] = { "ground_truth.json", "summary.json", "topology.dot",
  "network.dot" };

/// Progress share of the passes (simulating, then closing the event files);
/// the rest is definitions and side files.
constexpr double SimulationShare = 0.95;
/// Share of a pass that closing its event files takes: each close writes
/// the location's last chunk out, a quarter to a third of a run's time on
/// the development machine (docs/progress.md).
constexpr double ClosingShare = 0.25;
/// Report at most about a thousand times, whatever the iteration count.
constexpr double ProgressStep = 0.001;

void RemoveOutputs(const fs::path& directory)
{
  std::error_code ignored;
  for (const char* entry : ArchiveEntries)
  {
    fs::remove_all(directory / entry, ignored);
  }
  for (const char* entry : SideFiles)
  {
    fs::remove(directory / entry, ignored);
  }
}

void PreparePajeFile(const std::string& path, bool overwrite)
{
  std::error_code error;
  if (fs::exists(fs::symlink_status(path, error)) && !overwrite)
  {
    throw std::runtime_error(
      "Pajé output '" + path + "' already exists; use --force to replace it");
  }
  if (fs::is_directory(path, error))
  {
    throw std::runtime_error("Pajé output '" + path + "' is a directory");
  }
}

void PrepareDirectory(const fs::path& directory, bool overwrite)
{
  std::error_code error;
  if (fs::exists(directory, error) && !fs::is_directory(directory, error))
  {
    throw std::runtime_error("output path '" + directory.string() + "' is not a directory");
  }
  fs::create_directories(directory, error);
  if (error)
  {
    throw std::runtime_error(
      "cannot create output directory '" + directory.string() + "': " + error.message());
  }
  if (::access(directory.c_str(), W_OK | X_OK) != 0)
  {
    throw std::runtime_error("output directory '" + directory.string() + "' is not writable");
  }
  const bool archiveExists = std::any_of(std::begin(ArchiveEntries), std::end(ArchiveEntries),
    [&](const char* entry) { return fs::exists(fs::symlink_status(directory / entry)); });
  if (archiveExists && !overwrite)
  {
    throw std::runtime_error("output directory '" + directory.string() +
      "' already holds an OTF2 archive (traces.otf2); use --force to replace it");
  }
  // Also drop the side files of an earlier run: they describe the old archive.
  RemoveOutputs(directory);
}

void WriteFile(const fs::path& path, const std::function<void(std::ostream&)>& write)
{
  std::ofstream out(path, std::ios::binary);
  if (out)
  {
    write(out);
    out.close();
  }
  if (!out)
  {
    throw std::runtime_error("cannot write '" + path.string() + "'");
  }
}

uint64_t ToTimestamp(const SynthesisSummary& summary, double seconds)
{
  return summary.GlobalOffset + uint64_t(std::llround(seconds * double(summary.TimerResolution)));
}

/// Clips the window to the trace and records it as timestamps.
void CompleteGroundTruth(SynthesisSummary& summary, const Simulation& simulation)
{
  GroundTruth& truth = summary.Truth;
  truth.AffectedMessages = simulation.GetAffectedMessages();
  truth.AffectedComputeStates = simulation.GetAffectedComputeStates();
  if (truth.Kind == PerturbationKind::None)
  {
    return;
  }
  truth.WindowBegin = std::min(truth.WindowBegin, summary.TraceLengthSeconds);
  truth.WindowEnd = std::min(truth.WindowEnd, summary.TraceLengthSeconds);
  truth.WindowBeginTimestamp = ToTimestamp(summary, truth.WindowBegin);
  truth.WindowEndTimestamp = ToTimestamp(summary, truth.WindowEnd);
}
} // namespace

SynthesisAborted::SynthesisAborted()
  : std::runtime_error("trace synthesis aborted; the partial archive was removed")
{
}

uint64_t LocationsPerPass(const SynthConfig& config)
{
  Validate(config);
  const Platform platform(config);
  const uint64_t budget = config.MemoryBudgetMB << 20;
  // One buffer of the budget is kept for closing a file (see
  // TraceWriter::BytesPerOpenLocation); the rest holds open event writers.
  const uint64_t perLocation = TraceWriter::BytesPerOpenLocation();
  const uint64_t fitting = budget > perLocation ? budget / perLocation - 1 : 0;
  return std::clamp<uint64_t>(fitting, 1, platform.LocationCount());
}

SynthesisSummary Synthesize(const SynthConfig& config, const ProgressCallback& progress)
{
  Validate(config);
  SynthesisSummary summary;
  summary.Config = config;
  summary.Iterations = ResolveIterations(config);
  summary.Config.Iterations = summary.Iterations;
  const Platform platform(config);
  const fs::path directory(config.OutputDirectory);
  if (!config.PajeFile.empty())
  {
    // Before PrepareDirectory(), which removes an earlier run's files.
    PreparePajeFile(config.PajeFile, config.Overwrite);
  }
  PrepareDirectory(directory, config.Overwrite);
  summary.AnchorFile = (directory / "traces.otf2").string();
  summary.LocationsPerPass = LocationsPerPass(config);
  summary.Passes =
    (platform.LocationCount() + summary.LocationsPerPass - 1) / summary.LocationsPerPass;
  summary.Truth = DescribeGroundTruth(config, platform);

  double reported = -1.0;
  auto report = [&](double fraction)
  {
    if (progress && fraction - reported >= ProgressStep)
    {
      reported = fraction;
      if (!progress(fraction))
      {
        throw SynthesisAborted();
      }
    }
  };

  try
  {
    const Perturbation perturbation(config.Perturbation, platform);
    {
      TraceWriter writer(directory.string(), platform, config.TimerResolution);
      writer.SetClockOffsets(config.ClockOffsets);
      std::unique_ptr<PajeWriter> paje;
      if (!config.PajeFile.empty())
      {
        paje = std::make_unique<PajeWriter>(config.PajeFile, platform, config.TimerResolution);
        writer.AttachPaje(paje.get());
      }
      // The simulation is deterministic and keeps O(locations) state, so it
      // is replayed once per batch of locations; each pass writes only the
      // events of its batch, bounding the open event files (see
      // SynthConfig::MemoryBudgetMB).
      const uint64_t locations = platform.LocationCount();
      const uint64_t batch = summary.LocationsPerPass;
      const double passShare = SimulationShare / double(summary.Passes);
      const double iterations = double(summary.Iterations);
      report(0.0);
      for (uint64_t pass = 0; pass < summary.Passes; ++pass)
      {
        const uint64_t first = pass * batch;
        writer.BeginPass(first, std::min(first + batch, locations));
        Simulation simulation(summary.Config, platform, perturbation, writer);
        simulation.RunPrologue();
        const double passBegin = double(pass) * passShare;
        for (uint64_t iteration = 0; iteration < summary.Iterations; ++iteration)
        {
          simulation.RunIteration(iteration);
          report(passBegin + passShare * (1.0 - ClosingShare) * double(iteration + 1) / iterations);
        }
        simulation.RunEpilogue();
        writer.EndPass(
          [&](uint64_t closed, uint64_t count)
          {
            report(passBegin +
              passShare * (1.0 - ClosingShare + ClosingShare * double(closed) / double(count)));
          });
        if (pass + 1 == summary.Passes)
        {
          writer.Finish(summary);
          CompleteGroundTruth(summary, simulation);
        }
      }
      if (paje)
      {
        summary.PajeFile = config.PajeFile;
        summary.PajeLines = paje->Finish();
      }
    }
    WriteFile(directory / "ground_truth.json",
      [&](std::ostream& out) { WriteGroundTruthJson(summary, out); });
    WriteFile(
      directory / "summary.json", [&](std::ostream& out) { WriteSummaryJson(summary, out); });
    if (config.WriteDot)
    {
      WriteFile(directory / "topology.dot",
        [&](std::ostream& out) { WriteTopologyDot(platform, summary.Truth, out); });
      WriteFile(directory / "network.dot",
        [&](std::ostream& out) { WriteNetworkDot(config, platform, summary.Truth, out); });
    }
  }
  catch (...)
  {
    RemoveOutputs(directory);
    if (!config.PajeFile.empty())
    {
      std::error_code ignored;
      fs::remove(config.PajeFile, ignored);
    }
    throw;
  }
  if (progress)
  {
    // The archive is complete; a late "stop" has nothing left to abort.
    progress(1.0);
  }
  return summary;
}

} // namespace macroscope::synth
