// The injected perturbation: how the timing model applies it (Perturbation)
// and what a detector should find (GroundTruth).
#ifndef macroscope_synth_SynthGroundTruth_h
#define macroscope_synth_SynthGroundTruth_h

#include "SynthConfig.h"
#include "SynthPlatform.h"

#include <cstdint>
#include <string>
#include <vector>

namespace macroscope::synth
{

class Perturbation
{
public:
  Perturbation(const PerturbationConfig& config, const Platform& platform);

  PerturbationKind Kind() const { return this->Config.Kind; }
  const PerturbationConfig& GetConfig() const { return this->Config; }

  /// Ranks whose compute (slow node) or messages (congested cluster) suffer.
  const std::vector<uint32_t>& GetAffectedRanks() const { return this->AffectedRanks; }
  bool IsRankAffected(uint32_t rank) const;

  /// End of a compute phase that starts at `start` (seconds) and needs
  /// `work` seconds at nominal speed; on a slow node, the part of the work
  /// that falls into the window runs Factor times slower.
  double ComputeEnd(uint32_t rank, double start, double work) const;
  /// True if [begin, end) intersects the window.
  bool OverlapsWindow(double begin, double end) const;

  /// True if a point-to-point message sent at `sendTime` is congested: it is
  /// sent or received by a rank of the target cluster inside the window.
  bool SlowsMessage(uint32_t sender, uint32_t receiver, double sendTime) const;
  double Factor() const { return this->Config.Factor; }

private:
  PerturbationConfig Config;
  std::vector<uint32_t> AffectedRanks;
  std::vector<bool> RankAffected;
};

/// What was injected, in terms a detector can be scored against.
struct GroundTruth
{
  PerturbationKind Kind = PerturbationKind::None;
  Pattern CommunicationPattern = Pattern::Stencil3D;
  uint32_t Target = 0;
  std::string TargetName;
  std::vector<std::string> AffectedNodes;
  std::vector<std::string> AffectedClusters;
  std::vector<uint32_t> AffectedRanks;
  std::vector<uint64_t> AffectedLocations; ///< OTF2 location ids
  /// Window in seconds since trace start, clipped to the trace length.
  double WindowBegin = 0.0;
  double WindowEnd = 0.0;
  /// The same window as archive timestamps (global offset included).
  uint64_t WindowBeginTimestamp = 0;
  uint64_t WindowEndTimestamp = 0;
  double Factor = 1.0;
  /// Regions whose states are lengthened directly by the perturbation.
  std::vector<std::string> AffectedRegions;
  /// Which messages are affected, in words, and how many there were.
  std::string MessageCriterion;
  uint64_t AffectedMessages = 0;
  /// Compute states (on affected locations) that overlap the window.
  uint64_t AffectedComputeStates = 0;
};

/// The static part of the ground truth (everything but the window in
/// timestamps and the counts, which synthesize() fills in).
GroundTruth DescribeGroundTruth(const SynthConfig& config, const Platform& platform);

} // namespace macroscope::synth

#endif
