// Internal: the timing model. Simulates the run iteration by iteration,
// all ranks in lock step, and streams each event to the TraceWriter as soon
// as its time is known. State is O(locations), never O(events).
#ifndef macroscope_synth_SynthSimulation_h
#define macroscope_synth_SynthSimulation_h

#include "SynthConfig.h"
#include "SynthGroundTruth.h"
#include "SynthPlatform.h"
#include "SynthTraceWriter.h"

#include <cstdint>
#include <vector>

namespace macroscope::synth
{

/// Fixed costs of the model, in seconds.
struct ModelCosts
{
  static constexpr double MpiCall = 0.5e-6;      ///< local part of an MPI call
  static constexpr double ForkLatency = 2.0e-6;  ///< worker start after the fork
  static constexpr double OmpBarrier = 1.0e-6;   ///< implicit barrier release
  static constexpr double StartupSkew = 0.5e-3;  ///< spread of process start
  static constexpr double InitDuration = 1.0e-3; ///< MPI_Init, after the last start
  static constexpr double InitJitter = 10.0e-6;  ///< spread of MPI_Init's exit
  static constexpr double FinalizeDuration = 0.2e-3;
  static constexpr double ComputeNoise = 0.02; ///< per-iteration relative noise
  static constexpr double InstructionsPerSecond = 2.0e9;
  /// Non-allreduce patterns check a residual with an 8-byte MPI_Allreduce
  /// every this many iterations.
  static constexpr uint64_t ResidualInterval = 10;
  static constexpr uint64_t ResidualBytes = 8;
};

/// Point-to-point partners of each rank in the ring and stencil3d patterns.
/// Slot d sends with tag d; the message received in slot d is the one the
/// peer sent in the opposite slot d ^ 1.
class Neighbourhood
{
public:
  Neighbourhood(Pattern pattern, uint32_t ranks);
  uint32_t GetSlots() const { return this->Slots; }
  /// Peer in slot `slot` of `rank`, or -1 (boundary / no partner).
  int64_t Peer(uint32_t rank, uint32_t slot) const
  {
    return this->Peers[uint64_t(rank) * this->Slots + slot];
  }
  uint32_t NeighbourCount(uint32_t rank) const;

private:
  uint32_t Slots = 0;
  std::vector<int64_t> Peers;
};

class Simulation
{
public:
  Simulation(const SynthConfig& config, const Platform& platform, const Perturbation& perturbation,
    TraceWriter& writer);

  void RunPrologue();
  void RunIteration(uint64_t iteration);
  void RunEpilogue();

  /// Ground-truth bookkeeping.
  uint64_t GetAffectedMessages() const { return this->AffectedMessages; }
  uint64_t GetAffectedComputeStates() const { return this->AffectedComputeStates; }

private:
  double ComputeWork(uint32_t rank, uint32_t thread, uint64_t iteration) const;
  void ComputeState(uint32_t rank, uint32_t thread, double begin, double work, double& end);
  void Compute(uint64_t iteration);
  void ExchangeHalo();
  void TreeGather();
  void TreeScatter();
  void RunCollective(Region region, Collective operation, uint64_t bytes);
  void ReduceResidual(uint64_t bytes);
  double TransferTime(uint32_t sender, uint32_t receiver, double sendTime);
  uint64_t Master(uint32_t rank) const { return this->Machine.LocationIndex(rank, 0); }

  const SynthConfig& Config;
  const Platform& Machine;
  const Perturbation& Anomaly;
  TraceWriter& Writer;
  Neighbourhood Neighbours;

  std::vector<double> Clock;          ///< per rank: time of the master thread
  std::vector<uint64_t> Instructions; ///< per location: PAPI_TOT_INS so far
  std::vector<double> LocationBias;   ///< per location: static imbalance in [-1, 1)
  std::vector<uint64_t> NextRequest;  ///< per rank: next MPI request id
  std::vector<double> SendTime;       ///< per rank and slot (or per rank for the tree)
  std::vector<uint64_t> SendRequest;  ///< per rank and slot
  std::vector<uint64_t> RecvRequest;  ///< per rank and slot

  uint64_t AffectedMessages = 0;
  uint64_t AffectedComputeStates = 0;
};

} // namespace macroscope::synth

#endif
