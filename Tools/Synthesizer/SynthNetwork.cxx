// network.dot: the simulated interconnect as an undirected GraphViz graph,
// the network topology base of Triva's 3D scene (Schnorr 2009 (Triva) §3.5.2, §5.4.2).
#include "MacroscopeSynthesizer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <string>
#include <system_error>

namespace macroscope::synth
{

namespace
{

constexpr double Pi = 3.14159265358979323846;
/// Smallest distance between two nodes, in GraphViz points (1/72 inch), so
/// that `neato -n2` draws the graph as written with room for the labels.
constexpr double Spacing = 100.0;
/// Widest arc of a cluster's hosts when an uplink leaves the switch towards
/// the core: three quarters of a turn, the quarter facing the core left free
/// for the uplink.
constexpr double ArcAngle = 1.5 * Pi;
/// Largest angle between neighbouring hosts on that arc, so that a few
/// hosts fan out away from the core instead of spreading over the arc.
constexpr double MaxHostStep = Pi / 4.0;

const char* const HotNode = " style=filled fillcolor=\"#f4a582\" color=\"#b2182b\" penwidth=2";
const char* const HotLink = " color=\"#b2182b\" penwidth=2";

std::string quoted(const std::string& text)
{
  return "\"" + text + "\"";
}

/// The shortest text that reads back as the same double.
std::string number(double value)
{
  char text[64];
  const auto result = std::to_chars(text, text + sizeof(text), value);
  return result.ec == std::errc() ? std::string(text, result.ptr) : std::string("nan");
}

/// Rounded to a thousandth of a point: positions stay readable and exact
/// enough (nodes are Spacing points apart).
std::string coordinate(double value)
{
  const double rounded = std::round(value * 1000.0) / 1000.0;
  return number(rounded == 0.0 ? 0.0 : rounded); // no "-0"
}

std::string position(double x, double y)
{
  return quoted(coordinate(x) + "," + coordinate(y));
}

/// Where the switches and hosts go: the core at the origin, the cluster
/// switches on a circle of radius ClusterRadius, each cluster's hosts on an
/// arc of radius HostRadius around its switch, centred on the direction away
/// from the core.
struct NetworkLayout
{
  uint32_t Clusters;
  uint32_t Hosts; // per cluster
  double HostRadius = Spacing;
  double ClusterRadius = 0.0;

  NetworkLayout(uint32_t clusters, uint32_t hosts)
    : Clusters(clusters)
    , Hosts(hosts)
  {
    // Neighbouring hosts are one chord apart: 2 r sin(step / 2) >= Spacing.
    if (this->Hosts > 1)
    {
      this->HostRadius =
        std::max(Spacing, Spacing / (2.0 * std::sin(this->hostStep() / 2.0)));
    }
    if (this->Clusters > 1)
    {
      // The disks of radius r + Spacing/2 around neighbouring switches must
      // not meet (so no host is near another cluster's switch or hosts), and
      // the arc must stay farther from the core than from its own switch:
      // with the arc spanning +-135 degrees around the outward direction,
      // R > sqrt(2) r suffices.
      const double r = this->HostRadius;
      this->ClusterRadius = std::max(
        1.5 * r + Spacing, (2.0 * r + Spacing) / (2.0 * std::sin(Pi / this->Clusters)));
    }
  }

  /// Angle between neighbouring hosts of a cluster.
  double hostStep() const
  {
    // One cluster has no uplink: its hosts go round the whole circle.
    return this->Clusters == 1 ? 2.0 * Pi / this->Hosts
                               : std::min(MaxHostStep, ArcAngle / (this->Hosts - 1));
  }

  /// Direction of cluster c from the core: cluster 0 on top, then clockwise.
  double clusterAngle(uint32_t cluster) const
  {
    return Pi / 2.0 - 2.0 * Pi * cluster / this->Clusters;
  }

  void switchAt(uint32_t cluster, double& x, double& y) const
  {
    const double angle = this->clusterAngle(cluster);
    x = this->ClusterRadius * std::cos(angle);
    y = this->ClusterRadius * std::sin(angle);
  }

  /// Host `index` (0-based within its cluster) of cluster c.
  void hostAt(uint32_t cluster, uint32_t index, double& x, double& y) const
  {
    this->switchAt(cluster, x, y);
    double angle = this->clusterAngle(cluster);
    if (this->Clusters > 1 && this->Hosts > 1)
    {
      angle += (index - 0.5 * (this->Hosts - 1)) * this->hostStep(); // centred outwards
    }
    else if (this->Clusters == 1)
    {
      angle += index * this->hostStep();
    }
    x += this->HostRadius * std::cos(angle);
    y += this->HostRadius * std::sin(angle);
  }
};

} // namespace

std::string networkSwitchName(uint32_t cluster)
{
  return "switch-" + std::to_string(cluster);
}

std::string networkCoreName()
{
  return "core-switch";
}

double networkUplinkBandwidth(const SynthConfig& config)
{
  return config.Bandwidth * config.NodesPerCluster;
}

void writeNetworkDot(
  const SynthConfig& config, const Platform& platform, const GroundTruth& truth, std::ostream& out)
{
  const std::set<std::string> hotNodes(truth.AffectedNodes.begin(), truth.AffectedNodes.end());
  const std::set<std::string> hotClusters(
    truth.AffectedClusters.begin(), truth.AffectedClusters.end());
  const NetworkLayout layout(platform.clusterCount(), platform.nodesPerCluster());
  const bool withCore = platform.clusterCount() > 1;
  const std::string hostLink =
    " [bandwidth=" + quoted(number(config.Bandwidth)) + " latency=" + quoted(number(config.Latency));
  const std::string uplink = " [bandwidth=" + quoted(number(networkUplinkBandwidth(config))) +
    " latency=" + quoted(number(config.Latency));

  out << "graph network {\n"
      << "  // The simulated interconnect: one switch per cluster"
      << (withCore ? ", joined by a core switch" : "")
      << "; hosts named like the trace's nodes.\n"
      << "  // bandwidth in bytes/s, latency in s; pos in points (neato -n2); filled: perturbed ("
      << toString(truth.Kind) << ")\n"
      << "  node [fontname=\"Helvetica\"];\n";
  if (withCore)
  {
    out << "  " << quoted(networkCoreName()) << " [kind=\"switch\" shape=doubleoctagon pos="
        << position(0.0, 0.0) << "];\n";
  }
  for (uint32_t cluster = 0; cluster < platform.clusterCount(); ++cluster)
  {
    const std::string name = networkSwitchName(cluster);
    const bool hot = hotClusters.count(Platform::clusterName(cluster)) > 0;
    double x = 0.0, y = 0.0;
    layout.switchAt(cluster, x, y);
    out << "  " << quoted(name) << " [kind=\"switch\" shape=octagon pos=" << position(x, y)
        << " cluster=" << quoted(Platform::clusterName(cluster))
        << (hot ? std::string(" perturbed=\"1\"") + HotNode : "") << "];\n";
    if (withCore)
    {
      out << "  " << quoted(networkCoreName()) << " -- " << quoted(name) << uplink
          << (hot ? std::string(" perturbed=\"1\"") + HotLink : "") << "];\n";
    }
    const std::vector<uint32_t> nodes = platform.nodesOfCluster(cluster);
    for (uint32_t index = 0; index < nodes.size(); ++index)
    {
      const std::string host = Platform::nodeName(nodes[index]);
      const bool hotHost = hotNodes.count(host) > 0;
      layout.hostAt(cluster, index, x, y);
      out << "  " << quoted(host) << " [kind=\"host\" shape=box pos=" << position(x, y)
          << (hotHost ? std::string(" perturbed=\"1\"") + HotNode : "") << "];\n";
      out << "  " << quoted(name) << " -- " << quoted(host) << hostLink
          << (hot ? std::string(" perturbed=\"1\"") + HotLink : "") << "];\n";
    }
  }
  out << "}\n";
}

} // namespace macroscope::synth
