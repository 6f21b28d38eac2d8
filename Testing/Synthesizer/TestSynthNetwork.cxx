// network.dot: read back with Macroscope's topology parser (the one the 3D
// scene uses) and, for attributes that parser does not keep, with Boost's
// GraphViz reader; checked against the platform and the ground truth.
#include "MacroscopeSynthesizer.h"
#include "TopologyBase.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphviz.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <utility>

namespace
{
using namespace macroscope::synth;

SynthConfig shape(uint32_t clusters, uint32_t nodesPerCluster)
{
  SynthConfig config;
  config.Clusters = clusters;
  config.NodesPerCluster = nodesPerCluster;
  config.RanksPerNode = 3;
  config.ThreadsPerRank = 1;
  return config;
}

std::string networkDot(const SynthConfig& config)
{
  const Platform platform(config);
  std::ostringstream out;
  WriteNetworkDot(config, platform, DescribeGroundTruth(config, platform), out);
  return out.str();
}

/// What Boost's reader sees of each node and link, by name.
struct RawNetwork
{
  std::map<std::string, std::pair<double, double>> Pos; // GraphViz points
  std::set<std::string> PerturbedNodes;
  std::set<std::pair<std::string, std::string>> PerturbedLinks; // names in order
};

struct RawNode
{
  std::string Name, Pos, Perturbed;
};
struct RawLink
{
  std::string Perturbed;
};

RawNetwork readRaw(const std::string& dot)
{
  using Graph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, RawNode, RawLink>;
  Graph g;
  boost::dynamic_properties dp(boost::ignore_other_properties);
  dp.property("node_id", boost::get(&RawNode::Name, g));
  dp.property("pos", boost::get(&RawNode::Pos, g));
  dp.property("perturbed", boost::get(&RawNode::Perturbed, g));
  dp.property("perturbed", boost::get(&RawLink::Perturbed, g));
  boost::read_graphviz(dot, g, dp, "node_id");
  RawNetwork raw;
  for (std::size_t v = 0; v < boost::num_vertices(g); ++v)
  {
    const std::string& pos = g[v].Pos;
    const std::size_t comma = pos.find(',');
    EXPECT_NE(comma, std::string::npos) << g[v].Name << ": pos " << pos;
    raw.Pos[g[v].Name] = { std::stod(pos.substr(0, comma)), std::stod(pos.substr(comma + 1)) };
    if (g[v].Perturbed == "1")
    {
      raw.PerturbedNodes.insert(g[v].Name);
    }
  }
  for (auto [e, end] = boost::edges(g); e != end; ++e)
  {
    if (g[*e].Perturbed == "1")
    {
      std::string a = g[boost::source(*e, g)].Name, b = g[boost::target(*e, g)].Name;
      raw.PerturbedLinks.insert(std::minmax(a, b));
    }
  }
  return raw;
}

/// Links of a parsed topology as sorted name pairs.
std::multiset<std::pair<std::string, std::string>> linkNames(
  const macroscope::NetworkTopology& topology)
{
  std::multiset<std::pair<std::string, std::string>> links;
  for (std::size_t l = 0; l < topology.Links(); ++l)
  {
    links.insert(
      std::minmax(topology.Names[topology.Source[l]], topology.Names[topology.Target[l]]));
  }
  return links;
}

double distance(const std::pair<double, double>& a, const std::pair<double, double>& b)
{
  return std::hypot(a.first - b.first, a.second - b.second);
}

TEST(SynthNetwork, SwitchesHostsAndLinksForSeveralShapes)
{
  for (auto [clusters, nodes] :
    std::vector<std::pair<uint32_t, uint32_t>>{ { 1, 1 }, { 1, 4 }, { 2, 2 }, { 3, 5 }, { 4, 1 } })
  {
    SCOPED_TRACE(std::to_string(clusters) + " x " + std::to_string(nodes));
    const SynthConfig config = shape(clusters, nodes);
    const macroscope::NetworkTopology topology =
      macroscope::ParseNetworkTopology(networkDot(config));
    const bool core = clusters > 1;
    EXPECT_FALSE(topology.Directed);
    ASSERT_EQ(topology.Nodes(), clusters * nodes + clusters + (core ? 1 : 0));
    ASSERT_EQ(topology.Links(), clusters * nodes + (core ? clusters : 0));

    // The expected graph, built from the platform's numbering.
    std::map<std::string, std::string> kinds;
    std::multiset<std::pair<std::string, std::string>> links;
    if (core)
    {
      kinds["core-switch"] = "switch";
    }
    for (uint32_t c = 0; c < clusters; ++c)
    {
      const std::string sw = "switch-" + std::to_string(c);
      kinds[sw] = "switch";
      if (core)
      {
        links.insert(std::minmax(std::string("core-switch"), sw));
      }
      for (uint32_t n = 0; n < nodes; ++n)
      {
        const std::string host = "node-" + std::to_string(c * nodes + n);
        kinds[host] = "host";
        links.insert(std::minmax(sw, host));
      }
    }
    std::map<std::string, std::string> parsed;
    for (std::size_t v = 0; v < topology.Nodes(); ++v)
    {
      parsed[topology.Names[v]] = topology.Kinds[v];
    }
    EXPECT_EQ(parsed, kinds);
    EXPECT_EQ(linkNames(topology), links);
  }
}

TEST(SynthNetwork, EveryProcessIsPlacedOnItsNodesHost)
{
  for (auto [clusters, nodes] :
    std::vector<std::pair<uint32_t, uint32_t>>{ { 1, 1 }, { 2, 2 }, { 3, 5 } })
  {
    SCOPED_TRACE(std::to_string(clusters) + " x " + std::to_string(nodes));
    const SynthConfig config = shape(clusters, nodes);
    const Platform platform(config);
    const macroscope::NetworkTopology topology =
      macroscope::ParseNetworkTopology(networkDot(config));
    // Hierarchy paths as the OTF2 reader builds them from the system tree.
    std::vector<std::vector<std::string>> paths;
    for (uint32_t rank = 0; rank < platform.RankCount(); ++rank)
    {
      const uint32_t node = platform.NodeOfRank(rank);
      paths.push_back({ "machine", "cluster-" + std::to_string(platform.ClusterOfNode(node)),
        "node-" + std::to_string(node), "MPI Rank " + std::to_string(rank) });
    }
    const std::vector<int64_t> placement = macroscope::PlaceProcesses(paths, topology);
    ASSERT_EQ(placement.size(), platform.RankCount());
    for (uint32_t rank = 0; rank < platform.RankCount(); ++rank)
    {
      EXPECT_EQ(topology.Names[placement[rank]], paths[rank][2]) << "rank " << rank;
      EXPECT_EQ(topology.Kinds[placement[rank]], "host");
    }
  }
}

TEST(SynthNetwork, LinksCarryTheNetworkModel)
{
  SynthConfig config = shape(3, 4);
  config.Bandwidth = 1.25e9;
  config.Latency = 3.7e-6;
  const std::string dot = networkDot(config);
  // Quoted, so that Boost's DOT lexer does not split the exponent off.
  EXPECT_NE(dot.find("bandwidth=\"1.25e+09\""), std::string::npos) << dot;
  const macroscope::NetworkTopology topology = macroscope::ParseNetworkTopology(dot);
  ASSERT_EQ(topology.Links(), 15u);
  std::size_t uplinks = 0;
  for (std::size_t l = 0; l < topology.Links(); ++l)
  {
    const bool uplink = topology.Names[topology.Source[l]] == "core-switch" ||
      topology.Names[topology.Target[l]] == "core-switch";
    uplinks += uplink ? 1 : 0;
    // Written as the shortest text of the same double: equal, not close.
    EXPECT_EQ(topology.Bandwidth[l], uplink ? 4 * 1.25e9 : 1.25e9) << l;
    EXPECT_EQ(topology.Latency[l], 3.7e-6) << l;
  }
  EXPECT_EQ(uplinks, 3u);
  EXPECT_EQ(NetworkUplinkBandwidth(config), 5.0e9);
}

TEST(SynthNetwork, PositionsAreDistinctAndHostsSitByTheirSwitch)
{
  // Every shape up to 8 clusters x 24 nodes: nodes at least 100 points
  // apart, and each host nearer its own switch than any other switch.
  for (uint32_t clusters = 1; clusters <= 8; ++clusters)
  {
    for (uint32_t nodes = 1; nodes <= 24; ++nodes)
    {
      SCOPED_TRACE(std::to_string(clusters) + " x " + std::to_string(nodes));
      const SynthConfig config = shape(clusters, nodes);
      const RawNetwork raw = readRaw(networkDot(config));
      ASSERT_EQ(raw.Pos.size(), clusters * nodes + clusters + (clusters > 1 ? 1 : 0));
      double closest = INFINITY;
      for (auto a = raw.Pos.begin(); a != raw.Pos.end(); ++a)
      {
        for (auto b = std::next(a); b != raw.Pos.end(); ++b)
        {
          closest = std::min(closest, distance(a->second, b->second));
        }
      }
      EXPECT_GE(closest, 100.0 - 0.01);
      for (uint32_t node = 0; node < clusters * nodes; ++node)
      {
        const auto& host = raw.Pos.at("node-" + std::to_string(node));
        const std::string own = "switch-" + std::to_string(node / nodes);
        for (const auto& [name, pos] : raw.Pos)
        {
          if (name.find("switch") != std::string::npos && name != own)
          {
            EXPECT_LT(distance(host, raw.Pos.at(own)), distance(host, pos))
              << "node-" << node << " is nearer " << name << " than " << own;
          }
        }
      }
      if (clusters > 1)
      {
        EXPECT_EQ(raw.Pos.at("core-switch"), std::make_pair(0.0, 0.0));
      }
      // The parser keeps the layout: positions stay distinct once normalised.
      const macroscope::NetworkTopology topology =
        macroscope::ParseNetworkTopology(networkDot(config));
      std::set<std::pair<double, double>> normalised;
      for (std::size_t v = 0; v < topology.Nodes(); ++v)
      {
        normalised.emplace(topology.X[v], topology.Y[v]);
      }
      EXPECT_EQ(normalised.size(), topology.Nodes());
    }
  }
}

TEST(SynthNetwork, PerturbedResourcesAreMarkedLikeTheGroundTruth)
{
  {
    SCOPED_TRACE("none");
    const RawNetwork raw = readRaw(networkDot(shape(2, 2)));
    EXPECT_TRUE(raw.PerturbedNodes.empty());
    EXPECT_TRUE(raw.PerturbedLinks.empty());
  }
  {
    SCOPED_TRACE("slow node 3");
    SynthConfig config = shape(2, 2);
    config.Perturbation.Kind = PerturbationKind::SlowNode;
    config.Perturbation.Target = 3;
    const RawNetwork raw = readRaw(networkDot(config));
    EXPECT_EQ(raw.PerturbedNodes, std::set<std::string>{ "node-3" });
    EXPECT_TRUE(raw.PerturbedLinks.empty()); // compute, not the network, is slow
  }
  {
    SCOPED_TRACE("congested cluster 1");
    SynthConfig config = shape(3, 2);
    config.Perturbation.Kind = PerturbationKind::CongestedCluster;
    config.Perturbation.Target = 1;
    const Platform platform(config);
    const GroundTruth truth = DescribeGroundTruth(config, platform);
    const RawNetwork raw = readRaw(networkDot(config));
    std::set<std::string> expected(truth.AffectedNodes.begin(), truth.AffectedNodes.end());
    ASSERT_EQ(expected, (std::set<std::string>{ "node-2", "node-3" }));
    expected.insert("switch-1");
    EXPECT_EQ(raw.PerturbedNodes, expected);
    using Link = std::pair<std::string, std::string>;
    EXPECT_EQ(raw.PerturbedLinks,
      (std::set<Link>{
        { "core-switch", "switch-1" }, { "node-2", "switch-1" }, { "node-3", "switch-1" } }));
  }
}

}
