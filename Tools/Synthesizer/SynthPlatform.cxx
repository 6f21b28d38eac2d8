#include "SynthPlatform.h"

#include "SynthConfig.h"

#include <algorithm>

namespace macroscope::synth
{

GridShape FactorGrid(uint32_t ranks)
{
  GridShape best{ std::max(ranks, 1u), 1, 1 };
  uint64_t bestSpread = best.X - 1;
  uint64_t bestSurface = uint64_t(best.X) * 2 + 1;
  for (uint32_t z = 1; uint64_t(z) * z * z <= ranks; ++z)
  {
    if (ranks % z != 0)
    {
      continue;
    }
    const uint32_t rest = ranks / z;
    for (uint32_t y = z; uint64_t(y) * y <= rest; ++y)
    {
      if (rest % y != 0)
      {
        continue;
      }
      const uint32_t x = rest / y;
      const uint64_t spread = x - z;
      const uint64_t surface = uint64_t(x) * y + uint64_t(y) * z + uint64_t(z) * x;
      if (spread < bestSpread || (spread == bestSpread && surface < bestSurface))
      {
        best = GridShape{ x, y, z };
        bestSpread = spread;
        bestSurface = surface;
      }
    }
  }
  return best;
}

Platform::Platform(const SynthConfig& config)
  : Platform(config.Clusters, config.NodesPerCluster, config.RanksPerNode, config.ThreadsPerRank)
{
}

Platform::Platform(
  uint32_t clusters, uint32_t nodesPerCluster, uint32_t ranksPerNode, uint32_t threadsPerRank)
  : Clusters(clusters)
  , NodesPerCluster(nodesPerCluster)
  , RanksPerNode(ranksPerNode)
  , ThreadsPerRank(threadsPerRank)
{
}

std::vector<uint32_t> Platform::RanksOfNode(uint32_t node) const
{
  std::vector<uint32_t> ranks(this->RanksPerNode);
  for (uint32_t i = 0; i < this->RanksPerNode; ++i)
  {
    ranks[i] = node * this->RanksPerNode + i;
  }
  return ranks;
}

std::vector<uint32_t> Platform::RanksOfCluster(uint32_t cluster) const
{
  std::vector<uint32_t> ranks;
  for (uint32_t node : this->NodesOfCluster(cluster))
  {
    for (uint32_t rank : this->RanksOfNode(node))
    {
      ranks.push_back(rank);
    }
  }
  return ranks;
}

std::vector<uint32_t> Platform::NodesOfCluster(uint32_t cluster) const
{
  std::vector<uint32_t> nodes(this->NodesPerCluster);
  for (uint32_t i = 0; i < this->NodesPerCluster; ++i)
  {
    nodes[i] = cluster * this->NodesPerCluster + i;
  }
  return nodes;
}

std::string Platform::ClusterName(uint32_t cluster)
{
  return "cluster-" + std::to_string(cluster);
}

std::string Platform::NodeName(uint32_t node)
{
  return "node-" + std::to_string(node);
}

std::string Platform::RankName(uint32_t rank)
{
  return "MPI Rank " + std::to_string(rank);
}

std::string Platform::ThreadName(uint32_t thread)
{
  return thread == 0 ? std::string("Master thread") : "OMP thread " + std::to_string(thread);
}

} // namespace macroscope::synth
