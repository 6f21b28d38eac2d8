// The clustering of a logical trace, phase by phase (Isaacs et al. 2014
// (Ravel) §3.3): per phase, the series of the metric of the locations with
// events in it over its global steps, CLARA, single linkage, the
// dendrogram cut at the asked number of clusters; and the metric summed
// per global step (Isaacs et al. 2014 (Ravel) §4). What the Logical Time
// filter writes in its Clusters, Dendrogram, Phases and Steps outputs.
#pragma once

#include "LogicalClustering.h"
#include "LogicalTime.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace macroscope::logical
{

/// A vertex of the dendrogram of every phase: the root ("phases"), one
/// vertex per phase, below it its merges and, as leaves, its CLARA clusters.
struct DendrogramVertex
{
  int64_t Parent = -1; // an earlier vertex, -1 for the root
  std::string Name;
  int32_t Phase = -1;
  int32_t Node = -1;   // the cluster (< k) or merge (k + i) of SingleLinkage, -1 above
  double Height = 0.0; // a merge's height
  int32_t Size = 0;    // members below
  int32_t Clara = -1;  // a leaf's CLARA cluster
};

struct PhaseClusterOptions
{
  /// False: every phase is one cluster and has no CLARA clusters.
  bool Cluster = true;
  ClaraOptions Clara;
  /// The clusters shown per phase: the dendrogram is cut at
  /// min(Shown, the CLARA clusters).
  uint32_t Shown = 1;
};

struct PhaseClusters
{
  /// One row per member of a phase, phase by phase, in order of the
  /// members' first event.
  std::vector<int32_t> Phase;
  std::vector<int32_t> Location;
  std::vector<int32_t> ClaraCluster;
  std::vector<int32_t> Cluster;
  std::vector<uint8_t> Medoid;
  /// Parents before children, in the order a depth-first walk adds them
  /// (a merge's left subtree first).
  std::vector<DendrogramVertex> Dendrogram;
  /// The cut cluster of every event of the trace.
  std::vector<int32_t> EventCluster;
  /// Per phase: the clusters shown, and the most receives of one event.
  std::vector<int32_t> PhaseClusterCount;
  std::vector<int32_t> PhaseMaxReceives;
};

/// The series a phase clusters: its members are the locations with events
/// in it, in order of their first event in `ofPhase` (the phase's event
/// rows), the values `metric` per global step of the phase.
PhaseSeries SeriesOfPhase(const LogicalEvents& events, const PhaseInfo& phase,
  const std::vector<std::size_t>& ofPhase, const std::vector<double>& metric);

/// Clusters every phase of `trace`, `metric` being the value of each of its
/// events. `progress` (optional) gets the fraction of phases done before
/// each phase; returning false throws LogicalTimeAborted. A clustering that
/// fails throws std::runtime_error "Clustering phase p failed: why".
PhaseClusters ClusterPhases(const LogicalTrace& trace, const std::vector<double>& metric,
  const PhaseClusterOptions& options, const std::function<bool(double)>& progress = {});

/// Per global step of `trace` (as many as its Spans): the sum of `metric`
/// over its events, and their number.
void SumMetricPerStep(const LogicalTrace& trace, const std::vector<double>& metric,
  std::vector<double>& sum, std::vector<int64_t>& count);

}
