#include "TopologySceneDrawing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace macroscope
{
namespace
{
constexpr double MaxAutoBox = 0.08; // largest automatic box side
}

double ClosestPairDistance(const std::vector<double>& x, const std::vector<double>& y)
{
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < x.size(); ++i)
  {
    for (std::size_t j = i + 1; j < x.size(); ++j)
    {
      const double d = std::hypot(x[i] - x[j], y[i] - y[j]);
      if (d > 0.0)
      {
        best = std::min(best, d);
      }
    }
  }
  return best;
}

double AutomaticBoxSize(const std::vector<double>& x, const std::vector<double>& y)
{
  return std::min(MaxAutoBox, 0.6 * ClosestPairDistance(x, y));
}

HostPlacement PlaceOnHosts(const NetworkTopology& topology, const std::vector<int64_t>& host)
{
  std::map<int64_t, int> perHost;
  int most = 1;
  for (int64_t h : host)
  {
    most = std::max(most, ++perHost[h]);
  }
  const double gap = std::min(ClosestPairDistance(topology.X, topology.Y), 0.25);
  const auto columns = std::ceil(std::sqrt(static_cast<double>(most)));
  const double spacing = 0.45 * gap / columns;
  HostPlacement placement;
  placement.HostSide = std::max(columns * spacing, 0.6 * spacing);
  const std::vector<double> offsets = ProcessOffsets(host, spacing);
  for (std::size_t p = 0; p < host.size(); ++p)
  {
    placement.X.push_back(topology.X[host[p]] + offsets[2 * p]);
    placement.Y.push_back(topology.Y[host[p]] + offsets[2 * p + 1]);
  }
  return placement;
}

std::vector<double> StateTimeOfProcesses(
  const std::vector<SceneState>& drawn, std::size_t processes, double t0, double t1)
{
  std::vector<double> time(processes, 0.0);
  for (const auto& state : drawn)
  {
    time[state.Process] += std::max(0.0, std::min(state.End, t1) - std::max(state.Start, t0));
  }
  return time;
}

void KeepSelectedStates(std::vector<SceneState>& drawn, std::vector<int64_t>& rows,
  const std::vector<bool>& keepProcess, const std::vector<bool>& keepType)
{
  if (keepProcess.empty() && keepType.empty())
  {
    return;
  }
  std::vector<SceneState> kept;
  std::vector<int64_t> keptRows;
  for (std::size_t i = 0; i < drawn.size(); ++i)
  {
    const auto& state = drawn[i];
    const bool typed = keepType.empty() ||
      (state.Type >= 0 && static_cast<std::size_t>(state.Type) < keepType.size() &&
        keepType[static_cast<std::size_t>(state.Type)]);
    if (typed && (keepProcess.empty() || keepProcess[static_cast<std::size_t>(state.Process)]))
    {
      kept.push_back(state);
      keptRows.push_back(rows[i]);
    }
  }
  drawn.swap(kept);
  rows.swap(keptRows);
}

std::vector<double> LinkWidths(const NetworkTopology& topology, double maxEdgeWidth)
{
  double widest = 0.0;
  for (double b : topology.Bandwidth)
  {
    widest = std::isfinite(b) ? std::max(widest, b) : widest;
  }
  std::vector<double> widths;
  for (std::size_t l = 0; l < topology.Links(); ++l)
  {
    const double bandwidth = topology.Bandwidth[l];
    widths.push_back(0.004 +
      (std::isfinite(bandwidth) && widest > 0.0 ? 0.5 * maxEdgeWidth * bandwidth / widest : 0.0));
  }
  return widths;
}

std::vector<TreemapBaseCell> TreemapBaseCells(const std::vector<int64_t>& parent,
  const std::vector<int64_t>& processNode, const TreemapLayout& layout)
{
  std::vector<char> isProcess(parent.size(), 0), holdsProcess(parent.size(), 0);
  for (int64_t node : processNode)
  {
    isProcess[node] = 1;
    if (parent[node] >= 0)
    {
      holdsProcess[parent[node]] = 1;
    }
  }
  std::vector<TreemapBaseCell> cells;
  for (std::size_t n = 0; n < parent.size(); ++n)
  {
    if (isProcess[n] || !(layout.Rects[n].Area() > 0.0))
    {
      continue;
    }
    const int d = layout.Depth[n];
    TreemapBaseCell cell;
    cell.Node = n;
    cell.Z = -0.0035 + 0.0002 * std::min(d, 10);
    cell.Shade = static_cast<uint8_t>(std::max(110, 215 - 25 * d));
    cell.Named = d > 0 && !holdsProcess[n];
    cells.push_back(cell);
  }
  return cells;
}

std::vector<std::size_t> NamedProcesses(const std::vector<double>& x, const std::vector<double>& y,
  const std::vector<bool>& keepProcess, const CommunicationGraph& graph)
{
  std::vector<double> trafficOf(x.size(), 0.0);
  for (std::size_t e = 0; e < graph.Edges(); ++e)
  {
    trafficOf[static_cast<std::size_t>(graph.Source[e])] += graph.Traffic[e];
    trafficOf[static_cast<std::size_t>(graph.Target[e])] += graph.Traffic[e];
  }
  std::vector<double> lx, ly, traffic;
  std::vector<std::size_t> process;
  for (std::size_t p = 0; p < x.size(); ++p)
  {
    if (keepProcess.empty() || keepProcess[p])
    {
      process.push_back(p);
      lx.push_back(x[p]);
      ly.push_back(y[p]);
      traffic.push_back(trafficOf[p]);
    }
  }
  std::vector<std::size_t> kept = SpreadLabels(lx, ly, traffic, 0.3, 0.15);
  std::stable_sort(kept.begin(), kept.end(),
    [&traffic](std::size_t a, std::size_t b) { return traffic[a] > traffic[b]; });
  for (std::size_t& i : kept)
  {
    i = process[i];
  }
  return kept;
}

}
