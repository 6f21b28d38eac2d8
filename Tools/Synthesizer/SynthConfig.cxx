#include "SynthConfig.h"

#include <cmath>
#include <sstream>

namespace macroscope::synth
{

namespace
{
// Limits that keep location ids (thread << 32 | rank) and the state of the
// simulation (O(ranks)) sensible.
constexpr uint64_t MaxRanks = 1u << 20;
constexpr uint32_t MaxThreadsPerRank = 1024;
// The global clock offset is 10^6 s of ticks; keep it far from 2^64.
constexpr uint64_t MinTimerResolution = 1000;
constexpr uint64_t MaxTimerResolution = 1000000000000ull;
constexpr uint64_t MaxMemoryBudgetMB = 1ull << 30; // 1 PiB

void Require(bool condition, const std::string& message)
{
  if (!condition)
  {
    throw ConfigError(message);
  }
}

bool IsFinitePositive(double value)
{
  return std::isfinite(value) && value > 0.0;
}
} // namespace

void Validate(const SynthConfig& config)
{
  Require(!config.OutputDirectory.empty(), "--output: an output directory is required");
  Require(config.Clusters > 0, "--clusters must be at least 1");
  Require(config.NodesPerCluster > 0, "--nodes-per-cluster must be at least 1");
  Require(config.RanksPerNode > 0, "--ranks-per-node must be at least 1");
  Require(config.ThreadsPerRank > 0, "--threads-per-rank must be at least 1");
  Require(config.ThreadsPerRank <= MaxThreadsPerRank, "--threads-per-rank must be at most 1024");
  const uint64_t ranks = uint64_t(config.Clusters) * config.NodesPerCluster * config.RanksPerNode;
  {
    std::ostringstream message;
    message << "the platform has " << ranks << " ranks; at most " << MaxRanks << " are supported";
    Require(ranks <= MaxRanks, message.str());
  }
  if (config.MinimumEvents)
  {
    Require(*config.MinimumEvents > 0, "--events must be at least 1");
  }
  else
  {
    Require(config.Iterations > 0, "--iterations must be at least 1");
  }
  Require(std::isfinite(config.Imbalance) && config.Imbalance >= 0.0 && config.Imbalance < 1.0,
    "--imbalance must be in [0, 1)");
  Require(
    IsFinitePositive(config.ComputeTime), "--compute-time must be a positive number of seconds");
  Require(std::isfinite(config.Latency) && config.Latency >= 0.0,
    "--latency must be a non-negative number of seconds");
  Require(IsFinitePositive(config.Bandwidth),
    "--bandwidth must be a positive number of bytes per second");
  Require(
    config.TimerResolution >= MinTimerResolution && config.TimerResolution <= MaxTimerResolution,
    "--timer-resolution must be between 1e3 and 1e12 ticks per second");
  Require(config.MemoryBudgetMB >= 1 && config.MemoryBudgetMB <= MaxMemoryBudgetMB,
    "--memory-budget must be between 1 and 2^30 MB");
  Require(
    config.ClockOffsets.size() <= ranks, "--clock-offsets gives more offsets than there are ranks");
  for (double offset : config.ClockOffsets)
  {
    // The archive's global offset is 10^6 s: an hour either way stays clear of it.
    Require(std::isfinite(offset) && offset >= 0.0 && offset <= 3600.0,
      "--clock-offsets must be numbers of seconds in [0, 3600]");
  }

  const PerturbationConfig& perturbation = config.Perturbation;
  if (perturbation.Kind == PerturbationKind::None)
  {
    return;
  }
  Require(IsFinitePositive(perturbation.Factor) && perturbation.Factor >= 1.0,
    "--perturb-factor must be a finite number >= 1");
  Require(std::isfinite(perturbation.WindowBegin) && perturbation.WindowBegin >= 0.0,
    "--perturb-window: the start must be a non-negative number of seconds");
  Require(!std::isnan(perturbation.WindowEnd) && perturbation.WindowEnd > perturbation.WindowBegin,
    "--perturb-window: the end must be greater than the start");
  if (perturbation.Kind == PerturbationKind::SlowNode)
  {
    const uint64_t nodes = uint64_t(config.Clusters) * config.NodesPerCluster;
    std::ostringstream message;
    message << "--perturb-target: node " << perturbation.Target << " does not exist (nodes are 0.."
            << nodes - 1 << ")";
    Require(perturbation.Target < nodes, message.str());
  }
  else
  {
    std::ostringstream message;
    message << "--perturb-target: cluster " << perturbation.Target
            << " does not exist (clusters are 0.." << config.Clusters - 1 << ")";
    Require(perturbation.Target < config.Clusters, message.str());
    Require(config.CommunicationPattern != Pattern::Allreduce,
      "--perturbation congested-cluster slows point-to-point messages, but --pattern allreduce "
      "sends none; choose ring, stencil3d or tree");
  }
}

const char* ToString(Pattern pattern)
{
  switch (pattern)
  {
    case Pattern::Ring:
      return "ring";
    case Pattern::Stencil3D:
      return "stencil3d";
    case Pattern::Tree:
      return "tree";
    case Pattern::Allreduce:
      return "allreduce";
  }
  return "unknown";
}

const char* ToString(PerturbationKind kind)
{
  switch (kind)
  {
    case PerturbationKind::None:
      return "none";
    case PerturbationKind::SlowNode:
      return "slow-node";
    case PerturbationKind::CongestedCluster:
      return "congested-cluster";
  }
  return "unknown";
}

Pattern ParsePattern(const std::string& name)
{
  for (Pattern pattern : { Pattern::Ring, Pattern::Stencil3D, Pattern::Tree, Pattern::Allreduce })
  {
    if (name == ToString(pattern))
    {
      return pattern;
    }
  }
  throw ConfigError(
    "--pattern: unknown pattern '" + name + "' (expected ring, stencil3d, tree or allreduce)");
}

PerturbationKind ParsePerturbationKind(const std::string& name)
{
  for (PerturbationKind kind :
    { PerturbationKind::None, PerturbationKind::SlowNode, PerturbationKind::CongestedCluster })
  {
    if (name == ToString(kind))
    {
      return kind;
    }
  }
  throw ConfigError(
    "--perturbation: unknown kind '" + name + "' (expected none, slow-node or congested-cluster)");
}

} // namespace macroscope::synth
