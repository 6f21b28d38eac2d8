// Unit tests of the synthesizer's model: platform mapping, process grids,
// configuration validation, ground-truth description and the perturbation.
#include "MacroscopeSynthesizer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace
{
using namespace macroscope::synth;

SynthConfig smallConfig()
{
  SynthConfig config;
  config.OutputDirectory = "/tmp/unused";
  config.Clusters = 2;
  config.NodesPerCluster = 3;
  config.RanksPerNode = 4;
  config.ThreadsPerRank = 2;
  return config;
}

TEST(SynthPlatform, MapsRanksToNodesAndClustersBlockWise)
{
  const Platform platform(smallConfig());
  EXPECT_EQ(platform.NodeCount(), 6u);
  EXPECT_EQ(platform.RankCount(), 24u);
  EXPECT_EQ(platform.LocationCount(), 48u);
  EXPECT_EQ(platform.NodeOfRank(0), 0u);
  EXPECT_EQ(platform.NodeOfRank(3), 0u);
  EXPECT_EQ(platform.NodeOfRank(4), 1u);
  EXPECT_EQ(platform.NodeOfRank(23), 5u);
  EXPECT_EQ(platform.ClusterOfNode(2), 0u);
  EXPECT_EQ(platform.ClusterOfNode(3), 1u);
  EXPECT_EQ(platform.ClusterOfRank(11), 0u);
  EXPECT_EQ(platform.ClusterOfRank(12), 1u);
  EXPECT_EQ(platform.RanksOfNode(4), (std::vector<uint32_t>{ 16, 17, 18, 19 }));
  EXPECT_EQ(platform.NodesOfCluster(1), (std::vector<uint32_t>{ 3, 4, 5 }));
  std::vector<uint32_t> second(12);
  std::iota(second.begin(), second.end(), 12u);
  EXPECT_EQ(platform.RanksOfCluster(1), second);
}

TEST(SynthPlatform, NamesAndLocationIdsFollowScoreP)
{
  EXPECT_EQ(Platform::ClusterName(1), "cluster-1");
  EXPECT_EQ(Platform::NodeName(3), "node-3");
  EXPECT_EQ(Platform::RankName(7), "MPI Rank 7");
  EXPECT_EQ(Platform::ThreadName(0), "Master thread");
  EXPECT_EQ(Platform::ThreadName(2), "OMP thread 2");
  EXPECT_EQ(Platform::LocationId(5, 0), 5u);
  EXPECT_EQ(Platform::LocationId(5, 2), (uint64_t(2) << 32) | 5u);
  const Platform platform(smallConfig());
  EXPECT_EQ(platform.LocationIndex(3, 1), 7u);
}

TEST(SynthStencilGrid, FactorsAsCubicAsPossible)
{
  auto shape = [](uint32_t ranks)
  {
    const GridShape grid = FactorGrid(ranks);
    return std::vector<uint32_t>{ grid.X, grid.Y, grid.Z };
  };
  EXPECT_EQ(shape(1), (std::vector<uint32_t>{ 1, 1, 1 }));
  EXPECT_EQ(shape(7), (std::vector<uint32_t>{ 7, 1, 1 }));
  EXPECT_EQ(shape(8), (std::vector<uint32_t>{ 2, 2, 2 }));
  EXPECT_EQ(shape(12), (std::vector<uint32_t>{ 3, 2, 2 }));
  EXPECT_EQ(shape(16), (std::vector<uint32_t>{ 4, 2, 2 }));
  EXPECT_EQ(shape(24), (std::vector<uint32_t>{ 4, 3, 2 }));
  EXPECT_EQ(shape(64), (std::vector<uint32_t>{ 4, 4, 4 }));
  EXPECT_EQ(shape(90), (std::vector<uint32_t>{ 6, 5, 3 }));
  for (uint32_t ranks = 1; ranks <= 200; ++ranks)
  {
    const GridShape grid = FactorGrid(ranks);
    EXPECT_EQ(grid.X * grid.Y * grid.Z, ranks);
    EXPECT_GE(grid.X, grid.Y);
    EXPECT_GE(grid.Y, grid.Z);
  }
}

void expectConfigError(const SynthConfig& config, const std::string& fragment)
{
  try
  {
    Validate(config);
    ADD_FAILURE() << "expected a ConfigError mentioning '" << fragment << "'";
  }
  catch (const ConfigError& error)
  {
    EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos)
      << "message: " << error.what();
  }
}

TEST(SynthConfigValidation, AcceptsTheDefaults)
{
  SynthConfig config;
  config.OutputDirectory = "/tmp/x";
  EXPECT_NO_THROW(Validate(config));
}

TEST(SynthConfigValidation, RejectsNonsense)
{
  SynthConfig config = smallConfig();
  config.OutputDirectory.clear();
  expectConfigError(config, "--output");

  config = smallConfig();
  config.RanksPerNode = 0;
  expectConfigError(config, "--ranks-per-node");

  config = smallConfig();
  config.Clusters = 0;
  expectConfigError(config, "--clusters");

  config = smallConfig();
  config.ThreadsPerRank = 0;
  expectConfigError(config, "--threads-per-rank");

  config = smallConfig();
  config.Iterations = 0;
  expectConfigError(config, "--iterations");

  config = smallConfig();
  config.Imbalance = 1.5;
  expectConfigError(config, "--imbalance");

  config = smallConfig();
  config.Bandwidth = 0.0;
  expectConfigError(config, "--bandwidth");

  config = smallConfig();
  config.TimerResolution = 10;
  expectConfigError(config, "--timer-resolution");
}

TEST(SynthConfigValidation, RejectsBadPerturbations)
{
  SynthConfig config = smallConfig();
  config.Perturbation.Kind = PerturbationKind::SlowNode;
  config.Perturbation.Target = 6; // nodes are 0..5
  expectConfigError(config, "node 6 does not exist");

  config.Perturbation.Target = 5;
  config.Perturbation.WindowBegin = 0.2;
  config.Perturbation.WindowEnd = 0.1;
  expectConfigError(config, "--perturb-window");

  config.Perturbation.WindowEnd = 0.3;
  config.Perturbation.Factor = 0.5;
  expectConfigError(config, "--perturb-factor");

  config = smallConfig();
  config.Perturbation.Kind = PerturbationKind::CongestedCluster;
  config.Perturbation.Target = 2; // clusters are 0..1
  expectConfigError(config, "cluster 2 does not exist");

  config.Perturbation.Target = 1;
  config.CommunicationPattern = Pattern::Allreduce;
  expectConfigError(config, "--pattern allreduce");
}

TEST(SynthConfigValidation, ParsesNamesAndRejectsUnknownOnes)
{
  EXPECT_EQ(ParsePattern("stencil3d"), Pattern::Stencil3D);
  EXPECT_EQ(ParsePattern("tree"), Pattern::Tree);
  EXPECT_EQ(ParsePerturbationKind("congested-cluster"), PerturbationKind::CongestedCluster);
  EXPECT_THROW(ParsePattern("mesh"), ConfigError);
  EXPECT_THROW(ParsePerturbationKind("slow"), ConfigError);
}

TEST(SynthGroundTruth, SlowNodeListsExactlyTheRanksOfThatNode)
{
  SynthConfig config = smallConfig();
  config.Perturbation.Kind = PerturbationKind::SlowNode;
  config.Perturbation.Target = 4;
  const Platform platform(config);
  const GroundTruth truth = DescribeGroundTruth(config, platform);
  EXPECT_EQ(truth.TargetName, "node-4");
  EXPECT_EQ(truth.AffectedNodes, (std::vector<std::string>{ "node-4" }));
  EXPECT_TRUE(truth.AffectedClusters.empty());
  EXPECT_EQ(truth.AffectedRanks, (std::vector<uint32_t>{ 16, 17, 18, 19 }));
  // Both threads of each rank compute slower.
  EXPECT_EQ(truth.AffectedLocations.size(), 8u);
  EXPECT_NE(std::find(truth.AffectedLocations.begin(), truth.AffectedLocations.end(),
              Platform::LocationId(19, 1)),
    truth.AffectedLocations.end());
  EXPECT_EQ(truth.AffectedRegions, (std::vector<std::string>{ "compute" }));
}

TEST(SynthGroundTruth, CongestedClusterListsExactlyTheRanksOfThatCluster)
{
  SynthConfig config = smallConfig();
  config.Perturbation.Kind = PerturbationKind::CongestedCluster;
  config.Perturbation.Target = 0;
  const Platform platform(config);
  const GroundTruth truth = DescribeGroundTruth(config, platform);
  EXPECT_EQ(truth.TargetName, "cluster-0");
  EXPECT_EQ(truth.AffectedClusters, (std::vector<std::string>{ "cluster-0" }));
  EXPECT_EQ(truth.AffectedNodes, (std::vector<std::string>{ "node-0", "node-1", "node-2" }));
  std::vector<uint32_t> ranks(12);
  std::iota(ranks.begin(), ranks.end(), 0u);
  EXPECT_EQ(truth.AffectedRanks, ranks);
  EXPECT_EQ(truth.AffectedLocations.size(), 12u); // master threads only
  EXPECT_EQ(truth.AffectedRegions, (std::vector<std::string>{ "MPI_Waitall" }));
}

TEST(SynthGroundTruth, NoneHasAnEmptyAffectedSet)
{
  const SynthConfig config = smallConfig();
  const GroundTruth truth = DescribeGroundTruth(config, Platform(config));
  EXPECT_EQ(truth.Kind, PerturbationKind::None);
  EXPECT_TRUE(truth.AffectedRanks.empty());
  EXPECT_TRUE(truth.AffectedNodes.empty());
  EXPECT_TRUE(truth.AffectedLocations.empty());
  EXPECT_TRUE(truth.AffectedRegions.empty());
}

TEST(SynthPerturbation, StretchesOnlyTheWorkInsideTheWindow)
{
  SynthConfig config = smallConfig();
  config.Perturbation.Kind = PerturbationKind::SlowNode;
  config.Perturbation.Target = 1; // ranks 4..7
  config.Perturbation.WindowBegin = 1.0;
  config.Perturbation.WindowEnd = 2.0;
  config.Perturbation.Factor = 4.0;
  const Perturbation perturbation(config.Perturbation, Platform(config));
  EXPECT_DOUBLE_EQ(perturbation.ComputeEnd(0, 1.0, 0.1), 1.1);   // other node
  EXPECT_DOUBLE_EQ(perturbation.ComputeEnd(5, 0.5, 0.1), 0.6);   // before the window
  EXPECT_DOUBLE_EQ(perturbation.ComputeEnd(5, 1.2, 0.1), 1.6);   // inside: 4x
  EXPECT_DOUBLE_EQ(perturbation.ComputeEnd(5, 0.9, 0.2), 1.4);   // 0.1 before, 0.1 inside
  EXPECT_DOUBLE_EQ(perturbation.ComputeEnd(5, 1.9, 0.1), 2.075); // 0.025 inside, rest after
  EXPECT_DOUBLE_EQ(perturbation.ComputeEnd(5, 2.5, 0.1), 2.6);   // after
}

TEST(SynthPerturbation, CongestsMessagesTouchingTheClusterInTheWindow)
{
  SynthConfig config = smallConfig();
  config.Perturbation.Kind = PerturbationKind::CongestedCluster;
  config.Perturbation.Target = 1; // ranks 12..23
  config.Perturbation.WindowBegin = 1.0;
  config.Perturbation.WindowEnd = 2.0;
  const Perturbation perturbation(config.Perturbation, Platform(config));
  EXPECT_TRUE(perturbation.SlowsMessage(3, 12, 1.5));
  EXPECT_TRUE(perturbation.SlowsMessage(20, 2, 1.0));
  EXPECT_FALSE(perturbation.SlowsMessage(3, 11, 1.5));
  EXPECT_FALSE(perturbation.SlowsMessage(3, 12, 2.0));
  EXPECT_FALSE(perturbation.SlowsMessage(3, 12, 0.5));
}

} // namespace
