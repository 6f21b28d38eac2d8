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

std::string Quoted(const std::string& text)
{
  return "\"" + text + "\"";
}

/// The shortest text that reads back as the same double.
std::string Number(double value)
{
  char text[64];
  const auto result = std::to_chars(text, text + sizeof(text), value);
  return result.ec == std::errc() ? std::string(text, result.ptr) : std::string("nan");
}

/// Rounded to a thousandth of a point: positions stay readable and exact
/// enough (nodes are Spacing points apart).
std::string Coordinate(double value)
{
  const double rounded = std::round(value * 1000.0) / 1000.0;
  return Number(rounded == 0.0 ? 0.0 : rounded); // no "-0"
}

std::string Position(double x, double y)
{
  return Quoted(Coordinate(x) + "," + Coordinate(y));
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
      this->HostRadius = std::max(Spacing, Spacing / (2.0 * std::sin(this->HostStep() / 2.0)));
    }
    if (this->Clusters > 1)
    {
      // The disks of radius r + Spacing/2 around neighbouring switches must
      // not meet (so no host is near another cluster's switch or hosts), and
      // the arc must stay farther from the core than from its own switch:
      // with the arc spanning +-135 degrees around the outward direction,
      // R > sqrt(2) r suffices.
      const double r = this->HostRadius;
      this->ClusterRadius =
        std::max(1.5 * r + Spacing, (2.0 * r + Spacing) / (2.0 * std::sin(Pi / this->Clusters)));
    }
  }

  /// Angle between neighbouring hosts of a cluster.
  double HostStep() const
  {
    // One cluster has no uplink: its hosts go round the whole circle.
    return this->Clusters == 1 ? 2.0 * Pi / this->Hosts
                               : std::min(MaxHostStep, ArcAngle / (this->Hosts - 1));
  }

  /// Direction of cluster c from the core: cluster 0 on top, then clockwise.
  double ClusterAngle(uint32_t cluster) const
  {
    return Pi / 2.0 - 2.0 * Pi * cluster / this->Clusters;
  }

  void SwitchAt(uint32_t cluster, double& x, double& y) const
  {
    const double angle = this->ClusterAngle(cluster);
    x = this->ClusterRadius * std::cos(angle);
    y = this->ClusterRadius * std::sin(angle);
  }

  /// Host `index` (0-based within its cluster) of cluster c.
  void HostAt(uint32_t cluster, uint32_t index, double& x, double& y) const
  {
    this->SwitchAt(cluster, x, y);
    double angle = this->ClusterAngle(cluster);
    if (this->Clusters > 1 && this->Hosts > 1)
    {
      angle += (index - 0.5 * (this->Hosts - 1)) * this->HostStep(); // centred outwards
    }
    else if (this->Clusters == 1)
    {
      angle += index * this->HostStep();
    }
    x += this->HostRadius * std::cos(angle);
    y += this->HostRadius * std::sin(angle);
  }
};

} // namespace

std::string NetworkSwitchName(uint32_t cluster)
{
  return "switch-" + std::to_string(cluster);
}

std::string NetworkCoreName()
{
  return "core-switch";
}

double NetworkUplinkBandwidth(const SynthConfig& config)
{
  return config.Bandwidth * config.NodesPerCluster;
}

void WriteNetworkDot(
  const SynthConfig& config, const Platform& platform, const GroundTruth& truth, std::ostream& out)
{
  const std::set<std::string> hotNodes(truth.AffectedNodes.begin(), truth.AffectedNodes.end());
  const std::set<std::string> hotClusters(
    truth.AffectedClusters.begin(), truth.AffectedClusters.end());
  const NetworkLayout layout(platform.ClusterCount(), platform.GetNodesPerCluster());
  const bool withCore = platform.ClusterCount() > 1;
  const std::string hostLink = " [bandwidth=" + Quoted(Number(config.Bandwidth)) +
    " latency=" + Quoted(Number(config.Latency));
  const std::string uplink = " [bandwidth=" + Quoted(Number(NetworkUplinkBandwidth(config))) +
    " latency=" + Quoted(Number(config.Latency));

  out << "graph network {\n"
      << "  // The simulated interconnect: one switch per cluster"
      << (withCore ? ", joined by a core switch" : "") << "; hosts named like the trace's nodes.\n"
      << "  // bandwidth in bytes/s, latency in s; pos in points (neato -n2); filled: perturbed ("
      << ToString(truth.Kind) << ")\n"
      << "  node [fontname=\"Helvetica\"];\n";
  if (withCore)
  {
    out << "  " << Quoted(NetworkCoreName())
        << " [kind=\"switch\" shape=doubleoctagon pos=" << Position(0.0, 0.0) << "];\n";
  }
  for (uint32_t cluster = 0; cluster < platform.ClusterCount(); ++cluster)
  {
    const std::string name = NetworkSwitchName(cluster);
    const bool hot = hotClusters.count(Platform::ClusterName(cluster)) > 0;
    double x = 0.0, y = 0.0;
    layout.SwitchAt(cluster, x, y);
    out << "  " << Quoted(name) << " [kind=\"switch\" shape=octagon pos=" << Position(x, y)
        << " cluster=" << Quoted(Platform::ClusterName(cluster))
        << (hot ? std::string(" perturbed=\"1\"") + HotNode : "") << "];\n";
    if (withCore)
    {
      out << "  " << Quoted(NetworkCoreName()) << " -- " << Quoted(name) << uplink
          << (hot ? std::string(" perturbed=\"1\"") + HotLink : "") << "];\n";
    }
    const std::vector<uint32_t> nodes = platform.NodesOfCluster(cluster);
    for (uint32_t index = 0; index < nodes.size(); ++index)
    {
      const std::string host = Platform::NodeName(nodes[index]);
      const bool hotHost = hotNodes.count(host) > 0;
      layout.HostAt(cluster, index, x, y);
      out << "  " << Quoted(host) << " [kind=\"host\" shape=box pos=" << Position(x, y)
          << (hotHost ? std::string(" perturbed=\"1\"") + HotNode : "") << "];\n";
      out << "  " << Quoted(name) << " -- " << Quoted(host) << hostLink
          << (hot ? std::string(" perturbed=\"1\"") + HotLink : "") << "];\n";
    }
  }
  out << "}\n";
}

} // namespace macroscope::synth
