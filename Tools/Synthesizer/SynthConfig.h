// Configuration of a synthetic trace: machine shape, application pattern,
// timing model, injected perturbation and output options.
#ifndef macroscope_synth_SynthConfig_h
#define macroscope_synth_SynthConfig_h

#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace macroscope::synth
{

/// Thrown for a configuration that cannot describe a run (zero ranks, an
/// empty perturbation window, an out-of-range target, ...).
class ConfigError : public std::runtime_error
{
public:
  using std::runtime_error::runtime_error;
};

enum class Pattern
{
  Ring,      ///< Isend/Irecv to both ring neighbours, then MPI_Waitall.
  Stencil3D, ///< Non-blocking halo exchange with up to 6 face neighbours.
  Tree,      ///< Blocking binary-tree gather to rank 0, then scatter back.
  Allreduce  ///< One MPI_Allreduce per iteration.
};

enum class PerturbationKind
{
  None,
  SlowNode,        ///< Compute on one node runs Factor times slower.
  CongestedCluster ///< Messages touching one cluster transfer Factor times slower.
};

struct PerturbationConfig
{
  PerturbationKind Kind = PerturbationKind::None;
  /// Global node index (SlowNode) or cluster index (CongestedCluster).
  uint32_t Target = 0;
  /// Window in seconds since trace start; the default covers the whole run.
  double WindowBegin = 0.0;
  double WindowEnd = std::numeric_limits<double>::infinity();
  double Factor = 3.0;
};

struct SynthConfig
{
  /// Directory that receives traces.otf2 and the side files.
  std::string OutputDirectory;

  uint32_t Clusters = 2;
  uint32_t NodesPerCluster = 2;
  uint32_t RanksPerNode = 4;
  /// Thread 0 is the MPI master; threads > 0 are OpenMP-like workers.
  uint32_t ThreadsPerRank = 2;

  uint64_t Iterations = 50;
  /// When set, overrides Iterations with the smallest count whose archive
  /// holds at least this many events.
  std::optional<uint64_t> MinimumEvents;

  Pattern CommunicationPattern = Pattern::Stencil3D;
  /// Relative spread of compute time across ranks and threads (0 = none).
  double Imbalance = 0.2;
  /// Mean compute phase per iteration, in seconds.
  double ComputeTime = 1.0e-3;
  uint64_t MessageBytes = 64 * 1024;
  /// Network model: arrival = send + Latency + bytes / Bandwidth.
  double Latency = 2.0e-6;
  double Bandwidth = 10.0e9;

  PerturbationConfig Perturbation;

  uint64_t Seed = 42;
  uint64_t TimerResolution = 1000000000;

  /// Memory budget for OTF2's event buffers, in MiB (2^20 bytes). Each open
  /// event file holds a 4 MiB chunk, and one more 4 MiB buffer is needed
  /// while a file is closed; when not all locations fit, the archive is
  /// written in several passes over the deterministic simulation, each with
  /// a batch of locations open. The output does not depend on it.
  uint64_t MemoryBudgetMB = 256;

  /// When set, also write the same run as a Pajé trace to this file
  /// (docs/synthesizer.md, "Pajé output"). Its lines are held in memory
  /// until the end of the run.
  std::string PajeFile;

  /// Also write topology.dot and network.dot (GraphViz).
  bool WriteDot = false;
  /// Replace an existing archive in OutputDirectory (and PajeFile) instead
  /// of refusing.
  bool Overwrite = false;

  /// Unsynchronised clocks: seconds added to every timestamp of
  /// rank r's locations in the OTF2 archive (ranks beyond the list: 0), as
  /// when each process has its own time origin. The simulation, the Pajé
  /// output and the ground truth's times are unchanged; ground_truth.json
  /// lists the offsets.
  std::vector<double> ClockOffsets;
};

/// Throws ConfigError with a message naming the offending option.
void Validate(const SynthConfig& config);

const char* ToString(Pattern pattern);
const char* ToString(PerturbationKind kind);
/// Inverse of toString; throws ConfigError for unknown names.
Pattern ParsePattern(const std::string& name);
PerturbationKind ParsePerturbationKind(const std::string& name);

} // namespace macroscope::synth

#endif
