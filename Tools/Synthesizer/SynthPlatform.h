// The simulated machine: machine -> clusters -> nodes -> MPI ranks -> threads.
// Ranks are numbered node by node and nodes cluster by cluster, the way a
// block-wise MPI launcher places them.
#ifndef macroscope_synth_SynthPlatform_h
#define macroscope_synth_SynthPlatform_h

#include <cstdint>
#include <string>
#include <vector>

namespace macroscope::synth
{

struct SynthConfig;

/// Dimensions of the process grid of the stencil3d pattern, X >= Y >= Z.
struct GridShape
{
  uint32_t X = 1;
  uint32_t Y = 1;
  uint32_t Z = 1;
};

/// Factors ranks into X * Y * Z as close to a cube as possible (like
/// MPI_Dims_create): the smallest spread max - min, then the smallest surface.
GridShape FactorGrid(uint32_t ranks);

class Platform
{
public:
  explicit Platform(const SynthConfig& config);
  Platform(
    uint32_t clusters, uint32_t nodesPerCluster, uint32_t ranksPerNode, uint32_t threadsPerRank);

  uint32_t ClusterCount() const { return this->Clusters; }
  uint32_t GetNodesPerCluster() const { return this->NodesPerCluster; }
  uint32_t GetRanksPerNode() const { return this->RanksPerNode; }
  uint32_t GetThreadsPerRank() const { return this->ThreadsPerRank; }
  uint32_t NodeCount() const { return this->Clusters * this->NodesPerCluster; }
  uint32_t RankCount() const { return this->NodeCount() * this->RanksPerNode; }
  uint64_t LocationCount() const { return uint64_t(this->RankCount()) * this->ThreadsPerRank; }

  uint32_t NodeOfRank(uint32_t rank) const { return rank / this->RanksPerNode; }
  uint32_t ClusterOfNode(uint32_t node) const { return node / this->NodesPerCluster; }
  uint32_t ClusterOfRank(uint32_t rank) const
  {
    return this->ClusterOfNode(this->NodeOfRank(rank));
  }
  std::vector<uint32_t> RanksOfNode(uint32_t node) const;
  std::vector<uint32_t> RanksOfCluster(uint32_t cluster) const;
  std::vector<uint32_t> NodesOfCluster(uint32_t cluster) const;

  /// OTF2 location id, following Score-P: thread index in the upper 32 bits,
  /// rank in the lower 32 bits; the master thread's id equals its rank.
  static uint64_t LocationId(uint32_t rank, uint32_t thread)
  {
    return (uint64_t(thread) << 32) | rank;
  }
  /// Dense index rank * threadsPerRank + thread, for per-location arrays.
  uint64_t LocationIndex(uint32_t rank, uint32_t thread) const
  {
    return uint64_t(rank) * this->ThreadsPerRank + thread;
  }

  static std::string MachineName() { return "machine"; }
  static std::string ClusterName(uint32_t cluster);
  static std::string NodeName(uint32_t node);
  static std::string RankName(uint32_t rank);
  /// Score-P's names: "Master thread" and "OMP thread N".
  static std::string ThreadName(uint32_t thread);

private:
  uint32_t Clusters;
  uint32_t NodesPerCluster;
  uint32_t RanksPerNode;
  uint32_t ThreadsPerRank;
};

} // namespace macroscope::synth

#endif
