#include "TopologyBase.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/circle_layout.hpp>
#include <boost/graph/fruchterman_reingold.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/graph/topology.hpp>
#include <boost/property_map/dynamic_property_map.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace macroscope
{
namespace
{
using LayoutGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
using Square = boost::square_topology<>;
using Point = Square::point_type;

// Scales the points uniformly into [0,1]², centred, keeping the aspect;
// a single point (or all at one place) goes to the centre.
void Normalise(std::vector<double>& x, std::vector<double>& y)
{
  if (x.empty())
  {
    return;
  }
  const auto [xMin, xMax] = std::minmax_element(x.begin(), x.end());
  const auto [yMin, yMax] = std::minmax_element(y.begin(), y.end());
  const double x0 = *xMin, y0 = *yMin;
  const double w = *xMax - x0, h = *yMax - y0;
  const double extent = std::max(w, h);
  for (std::size_t i = 0; i < x.size(); ++i)
  {
    x[i] = extent > 0.0 ? (x[i] - x0 + (extent - w) / 2.0) / extent : 0.5;
    y[i] = extent > 0.0 ? (y[i] - y0 + (extent - h) / 2.0) / extent : 0.5;
  }
}

// Fruchterman-Reingold from a circle (deterministic), every pair of nodes
// repelling (all_force_pairs: O(n²) per iteration, but no node escapes the
// repulsion as the grid pairs would let far ones), normalised.
void ForceDirectedLayout(std::size_t n, const std::vector<std::pair<int64_t, int64_t>>& edges,
  std::vector<double>& x, std::vector<double>& y)
{
  LayoutGraph g(n);
  for (const auto& e : edges)
  {
    if (e.first != e.second)
    {
      boost::add_edge(static_cast<std::size_t>(e.first), static_cast<std::size_t>(e.second), g);
    }
  }
  std::vector<Point> points(n);
  auto position =
    boost::make_iterator_property_map(points.begin(), boost::get(boost::vertex_index, g));
  const double scaling = 10.0;
  boost::circle_graph_layout(g, position, scaling / 2.0);
  if (n > 1)
  {
    Square topology(scaling);
    boost::fruchterman_reingold_force_directed_layout(g, position, topology,
      boost::force_pairs(boost::all_force_pairs()).cooling(boost::linear_cooling<double>(200)));
  }
  x.resize(n);
  y.resize(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    x[i] = points[i][0];
    y[i] = points[i][1];
  }
  Normalise(x, y);
}

bool Finite(double v)
{
  return std::isfinite(v);
}
}

CommunicationGraph CommunicationEdges(
  std::size_t processes, const std::vector<TopologyMessage>& messages, double t0, double t1)
{
  if (!Finite(t0) || !Finite(t1) || !(t0 < t1))
  {
    throw std::invalid_argument("communication graph: the window [" + std::to_string(t0) + ", " +
      std::to_string(t1) + ") must be finite with start < end");
  }
  // Accumulated per unordered pair, in pair order so that edges come sorted.
  std::map<std::pair<int64_t, int64_t>, std::pair<double, int64_t>> pairs;
  const auto n = static_cast<int64_t>(processes);
  for (std::size_t m = 0; m < messages.size(); ++m)
  {
    const TopologyMessage& msg = messages[m];
    if (msg.Sender < 0 || msg.Sender >= n || msg.Receiver < 0 || msg.Receiver >= n)
    {
      throw std::invalid_argument("communication graph: message " + std::to_string(m) +
        " names a process outside [0, " + std::to_string(n) + ")");
    }
    if (!Finite(msg.SendTime) || !Finite(msg.RecvTime) || !Finite(msg.Bytes) || msg.Bytes < 0.0)
    {
      throw std::invalid_argument("communication graph: message " + std::to_string(m) +
        " has a non-finite time or a negative or non-finite size");
    }
    const double start = std::min(msg.SendTime, msg.RecvTime);
    const double end = std::max(msg.SendTime, msg.RecvTime);
    if (!(start < t1 && end >= t0) || msg.Sender == msg.Receiver)
    {
      continue;
    }
    auto& pair = pairs[std::minmax(msg.Sender, msg.Receiver)];
    pair.first += msg.Bytes;
    pair.second += 1;
  }

  CommunicationGraph graph;
  for (const auto& [ends, traffic] : pairs)
  {
    graph.Source.push_back(ends.first);
    graph.Target.push_back(ends.second);
    graph.Traffic.push_back(traffic.first);
    graph.Messages.push_back(traffic.second);
  }
  return graph;
}

CommunicationGraph LayoutCommunicationGraph(
  std::size_t processes, const std::vector<CommunicationGraph>& parts, bool layout)
{
  std::map<std::pair<int64_t, int64_t>, std::pair<double, int64_t>> pairs;
  const auto n = static_cast<int64_t>(processes);
  for (const CommunicationGraph& part : parts)
  {
    if (part.Target.size() != part.Edges() || part.Traffic.size() != part.Edges() ||
      part.Messages.size() != part.Edges())
    {
      throw std::invalid_argument(
        "communication graph: an edge list has arrays of different sizes");
    }
    for (std::size_t e = 0; e < part.Edges(); ++e)
    {
      const int64_t a = part.Source[e], b = part.Target[e];
      if (a < 0 || a >= n || b < 0 || b >= n || !Finite(part.Traffic[e]) || part.Traffic[e] < 0.0)
      {
        throw std::invalid_argument("communication graph: edge " + std::to_string(e) +
          " names a process outside [0, " + std::to_string(n) + ") or has a bad traffic");
      }
      if (a == b)
      {
        continue;
      }
      auto& pair = pairs[std::minmax(a, b)];
      pair.first += part.Traffic[e];
      pair.second += part.Messages[e];
    }
  }

  CommunicationGraph graph;
  double largest = 0.0;
  std::vector<std::pair<int64_t, int64_t>> edges;
  for (const auto& [ends, traffic] : pairs)
  {
    graph.Source.push_back(ends.first);
    graph.Target.push_back(ends.second);
    graph.Traffic.push_back(traffic.first);
    graph.Messages.push_back(traffic.second);
    largest = std::max(largest, traffic.first);
    edges.push_back(ends);
  }
  for (double t : graph.Traffic)
  {
    graph.Width.push_back(largest > 0.0 ? t / largest : 0.0);
  }
  if (layout)
  {
    ForceDirectedLayout(processes, edges, graph.X, graph.Y);
  }
  return graph;
}

CommunicationGraph BuildCommunicationGraph(
  std::size_t processes, const std::vector<TopologyMessage>& messages, double t0, double t1)
{
  return LayoutCommunicationGraph(processes, { CommunicationEdges(processes, messages, t0, t1) });
}

namespace
{
struct DotNode
{
  std::string Name, Kind, Type, Pos;
};
struct DotLink
{
  std::string Bandwidth, Latency;
};

// A plain number, or NaN for an empty attribute.
double ParseNumber(const std::string& text, const std::string& what)
{
  if (text.empty())
  {
    return std::numeric_limits<double>::quiet_NaN();
  }
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || errno == ERANGE || !Finite(value))
  {
    throw std::invalid_argument("DOT topology: " + what + " '" + text + "' is not a number");
  }
  return value;
}

template <typename Directedness>
NetworkTopology ReadDot(const std::string& dot)
{
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, Directedness, DotNode, DotLink>;
  Graph g;
  boost::dynamic_properties dp(boost::ignore_other_properties);
  dp.property("node_id", boost::get(&DotNode::Name, g));
  dp.property("kind", boost::get(&DotNode::Kind, g));
  dp.property("type", boost::get(&DotNode::Type, g));
  dp.property("pos", boost::get(&DotNode::Pos, g));
  dp.property("bandwidth", boost::get(&DotLink::Bandwidth, g));
  dp.property("latency", boost::get(&DotLink::Latency, g));
  boost::read_graphviz(dot, g, dp, "node_id");

  NetworkTopology topology;
  topology.Directed = boost::is_directed(g);
  const std::size_t n = boost::num_vertices(g);
  if (n == 0)
  {
    throw std::invalid_argument("DOT topology: the graph has no node");
  }
  std::size_t withPos = 0;
  for (std::size_t v = 0; v < n; ++v)
  {
    topology.Names.push_back(g[v].Name);
    topology.Kinds.push_back(!g[v].Kind.empty() ? g[v].Kind : g[v].Type);
    withPos += g[v].Pos.empty() ? 0 : 1;
  }
  std::vector<std::pair<int64_t, int64_t>> edges;
  for (auto [e, eEnd] = boost::edges(g); e != eEnd; ++e)
  {
    const auto s = static_cast<int64_t>(boost::source(*e, g));
    const auto t = static_cast<int64_t>(boost::target(*e, g));
    const std::string link =
      "link " + g[s].Name + (topology.Directed ? " -> " : " -- ") + g[t].Name;
    topology.Source.push_back(s);
    topology.Target.push_back(t);
    topology.Bandwidth.push_back(ParseNumber(g[*e].Bandwidth, link + ": bandwidth"));
    topology.Latency.push_back(ParseNumber(g[*e].Latency, link + ": latency"));
    edges.emplace_back(s, t);
  }

  if (withPos == 0)
  {
    ForceDirectedLayout(n, edges, topology.X, topology.Y);
    return topology;
  }
  for (std::size_t v = 0; v < n; ++v)
  {
    std::string pos = g[v].Pos;
    if (pos.empty())
    {
      throw std::invalid_argument("DOT topology: node " + g[v].Name +
        " has no pos attribute while others have one (give all nodes a pos, or none)");
    }
    if (pos.back() == '!')
    {
      pos.pop_back();
    }
    const std::size_t comma = pos.find(',');
    if (comma == std::string::npos)
    {
      throw std::invalid_argument(
        "DOT topology: node " + g[v].Name + ": pos '" + g[v].Pos + "' is not \"x,y\"");
    }
    const std::string what = "node " + g[v].Name + ": pos";
    topology.X.push_back(ParseNumber(pos.substr(0, comma), what));
    topology.Y.push_back(ParseNumber(pos.substr(comma + 1), what));
    if (std::isnan(topology.X.back()) || std::isnan(topology.Y.back()))
    {
      throw std::invalid_argument(
        "DOT topology: node " + g[v].Name + ": pos '" + g[v].Pos + "' is not \"x,y\"");
    }
  }
  Normalise(topology.X, topology.Y);
  return topology;
}
}

NetworkTopology ParseNetworkTopology(const std::string& dot)
{
  try
  {
    try
    {
      return ReadDot<boost::undirectedS>(dot);
    }
    catch (const boost::directed_graph_error&)
    {
      // A digraph: read it again into a directed graph.
      return ReadDot<boost::directedS>(dot);
    }
  }
  catch (const std::invalid_argument&)
  {
    throw;
  }
  catch (const boost::bad_graphviz_syntax& e)
  {
    throw std::invalid_argument(std::string("DOT topology: malformed DOT: ") + e.what());
  }
  catch (const std::exception& e)
  {
    throw std::invalid_argument(std::string("DOT topology: cannot read the graph: ") + e.what());
  }
}

std::vector<int64_t> PlaceProcesses(
  const std::vector<std::vector<std::string>>& paths, const NetworkTopology& topology)
{
  std::map<std::string, int64_t> byName;
  for (std::size_t v = 0; v < topology.Nodes(); ++v)
  {
    byName.emplace(topology.Names[v], static_cast<int64_t>(v));
  }
  std::vector<int64_t> placement;
  placement.reserve(paths.size());
  for (std::size_t p = 0; p < paths.size(); ++p)
  {
    const auto& path = paths[p];
    int64_t node = -1;
    std::string tried;
    for (auto name = path.rbegin(); name != path.rend() && node < 0; ++name)
    {
      const auto found = byName.find(*name);
      node = found == byName.end() ? -1 : found->second;
      tried += (tried.empty() ? "" : ", ") + *name;
    }
    if (node < 0)
    {
      const std::string process = path.empty() ? "#" + std::to_string(p) : path.back();
      throw std::invalid_argument("topology placement: process " + process +
        " has no host in the network topology (names tried, nearest first: " +
        (tried.empty() ? std::string("none") : tried) + ")");
    }
    placement.push_back(node);
  }
  return placement;
}

std::vector<double> ProcessOffsets(const std::vector<int64_t>& host, double spacing)
{
  if (!Finite(spacing) || spacing < 0.0)
  {
    throw std::invalid_argument("process placement: the spacing must be finite and >= 0");
  }
  std::map<int64_t, int64_t> count;
  for (int64_t h : host)
  {
    ++count[h];
  }
  // Each host's processes fill a near-square grid centred on it, row by
  // row in process order.
  std::map<int64_t, int64_t> seen;
  std::vector<double> offsets(2 * host.size());
  for (std::size_t p = 0; p < host.size(); ++p)
  {
    const int64_t k = count[host[p]];
    const auto columns = static_cast<int64_t>(std::ceil(std::sqrt(static_cast<double>(k))));
    const int64_t rows = (k + columns - 1) / columns;
    const int64_t i = seen[host[p]]++;
    offsets[2 * p] = (static_cast<double>(i % columns) - (columns - 1) / 2.0) * spacing;
    offsets[2 * p + 1] = ((rows - 1) / 2.0 - static_cast<double>(i / columns)) * spacing;
  }
  return offsets;
}

TreemapBase LayoutTreemapBase(const std::vector<int64_t>& parent,
  const std::vector<int64_t>& processNode, const std::vector<double>& processSize, double margin)
{
  if (processNode.size() != processSize.size())
  {
    throw std::invalid_argument("treemap base: one size per process is needed");
  }
  std::vector<double> size(parent.size(), 0.0);
  std::vector<char> isProcess(parent.size(), 0);
  for (std::size_t p = 0; p < processNode.size(); ++p)
  {
    const int64_t node = processNode[p];
    if (node < 0 || node >= static_cast<int64_t>(parent.size()) || isProcess[node])
    {
      throw std::invalid_argument(
        "treemap base: process " + std::to_string(p) + " is not a distinct node of the hierarchy");
    }
    isProcess[node] = 1;
    size[node] = processSize[p];
  }
  for (std::size_t node = 0; node < parent.size(); ++node)
  {
    const int64_t up = parent[node];
    if (up >= 0 && up < static_cast<int64_t>(parent.size()) && isProcess[up])
    {
      throw std::invalid_argument("treemap base: process node " + std::to_string(up) +
        " has children; processes must be leaves");
    }
  }
  TreemapOptions options;
  options.Margin = margin;
  TreemapBase base;
  base.Layout = LayoutTree(parent, size, TreemapRect{ 0.0, 0.0, 1.0, 1.0 }, options);
  for (int64_t node : processNode)
  {
    const TreemapRect& r = base.Layout.Rects[static_cast<std::size_t>(node)];
    base.X.push_back((r.X0 + r.X1) / 2.0);
    base.Y.push_back((r.Y0 + r.Y1) / 2.0);
  }
  return base;
}

std::vector<std::size_t> SpreadLabels(const std::vector<double>& x, const std::vector<double>& y,
  const std::vector<double>& priority, double width, double height)
{
  if (x.size() != y.size() || priority.size() != x.size() || !(width >= 0.0) || !(height >= 0.0))
  {
    throw std::invalid_argument("SpreadLabels: columns of different lengths or a negative box");
  }
  std::vector<std::size_t> order(x.size());
  std::iota(order.begin(), order.end(), std::size_t{ 0 });
  std::stable_sort(order.begin(), order.end(),
    [&priority](std::size_t a, std::size_t b) { return priority[a] > priority[b]; });
  std::vector<std::size_t> kept;
  for (std::size_t i : order)
  {
    const bool clear = std::all_of(kept.begin(), kept.end(),
      [&](std::size_t k)
      { return std::abs(x[i] - x[k]) >= width || std::abs(y[i] - y[k]) >= height; });
    if (clear)
    {
      kept.push_back(i);
    }
  }
  std::sort(kept.begin(), kept.end());
  return kept;
}

}
