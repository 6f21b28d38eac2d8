// Public entry point of the trace synthesizer: writes a Score-P-shaped OTF2
// archive of a simulated MPI+OpenMP run, with a known injected perturbation.
//
//   macroscope::synth::SynthConfig config;
//   config.OutputDirectory = "/tmp/run";
//   auto summary = macroscope::synth::Synthesize(config, [](double f) { return true; });
//
// The library is VTK-free; it links OTF2 privately.
#ifndef macroscope_synth_MacroscopeSynthesizer_h
#define macroscope_synth_MacroscopeSynthesizer_h

#include "SynthConfig.h"
#include "SynthGroundTruth.h"
#include "SynthPlatform.h"
#include "SynthSummary.h"

#include <functional>
#include <ostream>
#include <stdexcept>

namespace macroscope::synth
{

/// Thrown when the progress callback asked to stop. Synthesize() has then
/// removed everything it had written (archive and side files).
class SynthesisAborted : public std::runtime_error
{
public:
  SynthesisAborted();
};

/// Receives the completed fraction in [0, 1]; returning false aborts.
using ProgressCallback = std::function<bool(double fraction)>;

/// Writes OutputDirectory/traces.otf2 (+ traces.def, traces/), then
/// ground_truth.json, summary.json and, if WriteDot, topology.dot and
/// network.dot.
/// Throws ConfigError for an invalid configuration, std::runtime_error when
/// the directory is unusable, an archive exists and Overwrite is false, or
/// OTF2 fails, and SynthesisAborted when `progress` returns false. On any
/// failure the partial archive is removed.
SynthesisSummary Synthesize(const SynthConfig& config, const ProgressCallback& progress = {});

/// Number of iterations that Synthesize() runs for `config`: Iterations, or
/// the smallest count whose archive holds at least MinimumEvents events.
uint64_t ResolveIterations(const SynthConfig& config);

/// Locations whose event files Synthesize() keeps open at once: as many as
/// MemoryBudgetMB holds (at least one), at most all. Synthesize() makes
/// ceil(locations / LocationsPerPass) passes over the simulation.
uint64_t LocationsPerPass(const SynthConfig& config);

/// Events Synthesize() writes for `iterations` iterations, per kind, not
/// counting the BufferFlush records OTF2 adds (zero in the result).
EventCounts PredictEventCounts(const SynthConfig& config, uint64_t iterations);

/// Side files, as Synthesize() writes them.
void WriteGroundTruthJson(const SynthesisSummary& summary, std::ostream& out);
void WriteSummaryJson(const SynthesisSummary& summary, std::ostream& out);
/// The "configuration" object of summary.json alone, for `config`.
void WriteConfigurationJson(const SynthConfig& config, std::ostream& out);
/// GraphViz: machine -> clusters -> nodes -> ranks, perturbed resources filled.
void WriteTopologyDot(const Platform& platform, const GroundTruth& truth, std::ostream& out);
/// GraphViz undirected graph of the simulated interconnect (docs/synthesizer.md):
/// a switch per cluster (kind "switch"), a core switch joining them when
/// there are several clusters, and every node (kind "host", named like the
/// trace's nodes) linked to its cluster's switch. Links carry the network
/// model's "bandwidth" and "latency" (uplinks: NetworkUplinkBandwidth); every
/// node has a "pos"; perturbed resources have perturbed="1" and are filled.
void WriteNetworkDot(
  const SynthConfig& config, const Platform& platform, const GroundTruth& truth, std::ostream& out);
/// Names of network.dot's switches: "switch-C" for cluster C, "core-switch".
std::string NetworkSwitchName(uint32_t cluster);
std::string NetworkCoreName();
/// Bandwidth of a cluster switch's uplink to the core: the bandwidth of all
/// its hosts' links together (no oversubscription).
double NetworkUplinkBandwidth(const SynthConfig& config);

} // namespace macroscope::synth

#endif
