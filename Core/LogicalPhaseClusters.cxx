#include "LogicalPhaseClusters.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace macroscope::logical
{
namespace
{

int64_t AddVertex(PhaseClusters& out, int64_t parent, std::string name, int32_t phase, int32_t node,
  double height, int32_t size, int32_t clara)
{
  out.Dendrogram.push_back({ parent, std::move(name), phase, node, height, size, clara });
  return static_cast<int64_t>(out.Dendrogram.size()) - 1;
}

// The dendrogram of one phase below `phaseVertex`: its leaves are the
// CLARA clusters, merge i is node k + i; walked from the top merge down.
void AddPhaseDendrogram(PhaseClusters& out, int64_t phaseVertex, int32_t phase,
  const ClaraResult& result, const std::vector<Merge>& merges)
{
  const uint32_t k = static_cast<uint32_t>(result.Medoids.size());
  std::vector<int32_t> size(k + merges.size(), 0);
  for (uint32_t cluster : result.Assignment)
  {
    ++size[cluster];
  }
  std::vector<std::pair<uint32_t, int64_t>> pending;
  const uint32_t top = merges.empty() ? 0 : static_cast<uint32_t>(k + merges.size() - 1);
  pending.emplace_back(top, phaseVertex);
  while (!pending.empty())
  {
    const auto [node, above] = pending.back();
    pending.pop_back();
    if (node < k)
    {
      AddVertex(out, above, "Cluster " + std::to_string(node), phase, static_cast<int32_t>(node),
        0.0, size[node], static_cast<int32_t>(node));
      continue;
    }
    const Merge& merge = merges[node - k];
    const int64_t v = AddVertex(out, above, "Merge " + std::to_string(node), phase,
      static_cast<int32_t>(node), merge.Height, static_cast<int32_t>(merge.Size), -1);
    pending.emplace_back(merge.Right, v);
    pending.emplace_back(merge.Left, v);
  }
}

// CLARA, single linkage and the cut of one phase; the clusters shown.
uint32_t ClusterPhase(PhaseClusters& out, int64_t phaseVertex, int32_t phase,
  const PhaseSeries& series, const PhaseClusterOptions& options, std::vector<uint32_t>& clara,
  std::vector<uint32_t>& cut, std::vector<uint8_t>& medoid)
{
  try
  {
    const ClaraResult result = Clara(series, options.Clara);
    const std::vector<Merge> merges = SingleLinkage(series, result);
    const uint32_t k = static_cast<uint32_t>(result.Medoids.size());
    const uint32_t shown = std::min(options.Shown, k);
    clara = result.Assignment;
    cut = CutDendrogram(result, merges, shown);
    for (uint32_t m : result.Medoids)
    {
      medoid[m] = 1;
    }
    AddPhaseDendrogram(out, phaseVertex, phase, result, merges);
    return shown;
  }
  catch (const std::exception& error)
  {
    throw std::runtime_error(
      "Clustering phase " + std::to_string(phase) + " failed: " + error.what());
  }
}

}

PhaseSeries SeriesOfPhase(const LogicalEvents& events, const PhaseInfo& phase,
  const std::vector<std::size_t>& ofPhase, const std::vector<double>& metric)
{
  PhaseSeries series;
  series.Steps = static_cast<uint32_t>(phase.LastGlobalStep - phase.FirstGlobalStep + 1);
  std::vector<int32_t> row; // per location, its row in the series
  for (std::size_t i : ofPhase)
  {
    const auto location = static_cast<std::size_t>(events.Location[i]);
    if (location >= row.size())
    {
      row.resize(location + 1, -1);
    }
    if (row[location] < 0)
    {
      row[location] = static_cast<int32_t>(series.Members.size());
      series.Members.push_back(events.Location[i]);
    }
  }
  series.Values.assign(series.Members.size() * series.Steps, std::nan(""));
  for (std::size_t i : ofPhase)
  {
    const auto r = static_cast<std::size_t>(row[static_cast<std::size_t>(events.Location[i])]);
    series.Values[r * series.Steps +
      static_cast<std::size_t>(events.GlobalStep[i] - phase.FirstGlobalStep)] = metric[i];
  }
  return series;
}

PhaseClusters ClusterPhases(const LogicalTrace& trace, const std::vector<double>& metric,
  const PhaseClusterOptions& options, const std::function<bool(double)>& progress)
{
  const LogicalEvents& events = trace.Events;
  const std::size_t phases = trace.Phases.size();
  std::vector<std::vector<std::size_t>> eventsOfPhase(phases);
  for (std::size_t i = 0; i < events.size(); ++i)
  {
    eventsOfPhase[static_cast<std::size_t>(events.Phase[i])].push_back(i);
  }
  PhaseClusters out;
  out.EventCluster.assign(events.size(), 0);
  out.PhaseClusterCount.assign(phases, 0);
  out.PhaseMaxReceives.assign(phases, 0);
  const int64_t root = AddVertex(out, -1, "phases", -1, -1, 0.0, 0, -1);
  for (std::size_t p = 0; p < phases; ++p)
  {
    if (progress && !progress(static_cast<double>(p) / static_cast<double>(phases)))
    {
      throw LogicalTimeAborted();
    }
    const auto phase = static_cast<int32_t>(p);
    const PhaseSeries series = SeriesOfPhase(events, trace.Phases[p], eventsOfPhase[p], metric);
    const std::size_t members = series.Members.size();
    std::vector<uint32_t> clara(members, 0);
    std::vector<uint32_t> cut(members, 0);
    std::vector<uint8_t> medoid(members, 0);
    const int64_t phaseVertex = AddVertex(
      out, root, "Phase " + std::to_string(p), phase, -1, 0.0, static_cast<int32_t>(members), -1);
    if (options.Cluster && members > 0)
    {
      out.PhaseClusterCount[p] = static_cast<int32_t>(
        ClusterPhase(out, phaseVertex, phase, series, options, clara, cut, medoid));
    }
    else if (members > 0)
    {
      out.PhaseClusterCount[p] = 1;
      AddVertex(out, phaseVertex, "Cluster 0", phase, 0, 0.0, static_cast<int32_t>(members), 0);
    }
    for (std::size_t m = 0; m < members; ++m)
    {
      out.Phase.push_back(phase);
      out.Location.push_back(series.Members[m]);
      out.ClaraCluster.push_back(static_cast<int32_t>(clara[m]));
      out.Cluster.push_back(static_cast<int32_t>(cut[m]));
      out.Medoid.push_back(medoid[m]);
    }
    std::vector<int32_t> cutOfLocation;
    for (std::size_t m = 0; m < members; ++m)
    {
      const auto location = static_cast<std::size_t>(series.Members[m]);
      if (location >= cutOfLocation.size())
      {
        cutOfLocation.resize(location + 1, 0);
      }
      cutOfLocation[location] = static_cast<int32_t>(cut[m]);
    }
    for (std::size_t i : eventsOfPhase[p])
    {
      out.PhaseMaxReceives[p] = std::max(out.PhaseMaxReceives[p], events.Receives[i]);
      out.EventCluster[i] = cutOfLocation[static_cast<std::size_t>(events.Location[i])];
    }
  }
  if (progress && !progress(1.0))
  {
    throw LogicalTimeAborted();
  }
  return out;
}

void SumMetricPerStep(const LogicalTrace& trace, const std::vector<double>& metric,
  std::vector<double>& sum, std::vector<int64_t>& count)
{
  const std::size_t steps = trace.Spans.Start.size();
  sum.assign(steps, 0.0);
  count.assign(steps, 0);
  for (std::size_t i = 0; i < trace.Events.size(); ++i)
  {
    const auto g = static_cast<std::size_t>(trace.Events.GlobalStep[i]);
    if (g < steps)
    {
      sum[g] += metric[i];
      ++count[g];
    }
  }
}

}
