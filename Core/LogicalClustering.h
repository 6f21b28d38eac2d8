// Clustering of logical timelines per phase (Isaacs et al. 2014 (Ravel) section 3.3.1):
// the gap-filling distance of Fig. 4, CLARA (sampled k-medoids), then
// single-linkage hierarchical clustering of the CLARA clusters, a dendrogram
// users can cut at any level. See docs/logical-clustering.md.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

namespace macroscope::logical
{

/// The metric of the processes of one phase over the phase's steps:
/// Values[m * Steps + s] for member m and step s, NaN where the member has no
/// event at that step.
struct PhaseSeries
{
  uint32_t Steps = 0;
  std::vector<int32_t> Members; // location of each row
  std::vector<double> Values;
};

/// Isaacs et al. 2014 (Ravel) Fig. 4. Over the steps where at least one of a, b has an event:
/// a member without one there takes its previous value in the phase (the step
/// is skipped when it has none yet); the distance is the mean of the squared
/// differences over the steps counted, 0 when none is counted.
double TimelineDistance(const double* a, const double* b, uint32_t steps);

/// The rows of a PhaseSeries forward-filled once, so that the distance of two
/// members is a branch-free loop: Values holds the member's last value at or
/// before each step (0 before its first event), Flags bit 0 says it has an
/// event at the step, bit 1 that it has a value (an event at or before it).
struct FilledSeries
{
  uint32_t Steps = 0;
  std::vector<double> Values;
  std::vector<uint8_t> Flags;
};

/// Throws std::invalid_argument when Values does not hold Members x Steps
/// numbers or holds an infinity.
FilledSeries FillSeries(const PhaseSeries& series);

/// TimelineDistance of members a and b, from their filled rows.
double FilledDistance(const FilledSeries& filled, uint32_t a, uint32_t b);

struct ClaraOptions
{
  uint32_t Clusters = 8;   // k, capped at the number of members with distinct rows
  uint32_t Samples = 5;    // CLARA's number of samples
  uint32_t SampleSize = 0; // 0: 40 + 2k (Kaufman and Rousseeuw), capped at the members
  uint64_t Seed = 1;
};

struct ClaraResult
{
  std::vector<uint32_t> Medoids;    // member rows, one per cluster
  std::vector<uint32_t> Assignment; // cluster of each member
  double Cost = 0.0;                // sum of distances to the medoids
};

/// CLARA: PAM (BUILD + SWAP) on random samples of the members, keeping the
/// medoids with the least cost over all members. Deterministic for a seed.
/// Medoids are in increasing row order and have distinct rows; each member
/// goes to its nearest medoid (ties: the lowest cluster), a medoid to its own
/// cluster, so no cluster is empty. No members: an empty result. Throws
/// std::invalid_argument for bad series or options (Clusters or Samples 0,
/// a SampleSize other than 0 below Clusters).
ClaraResult Clara(const PhaseSeries& series, const ClaraOptions& options);

/// A merge of single-linkage clustering, scipy-like: nodes 0..k-1 are the
/// CLARA clusters, merge i creates node k + i from Left and Right.
struct Merge
{
  uint32_t Left = 0;
  uint32_t Right = 0;
  double Height = 0.0; // the single-linkage distance at which they merge
  uint32_t Size = 0;   // members below the new node
};

/// Single linkage over the clusters, the distance of two clusters being the
/// TimelineDistance of their medoids. Heights are non-decreasing; Left is
/// the smaller node. Computed as the minimum spanning tree of the medoids
/// (Prim), its edges taken by increasing length.
std::vector<Merge> SingleLinkage(const PhaseSeries& series, const ClaraResult& clara);

/// Cuts the dendrogram into `count` clusters (1..k) by undoing the last
/// count - 1 merges; returns the cluster (0..count-1) of every member,
/// numbered by their first member. Throws std::invalid_argument when count
/// is not in 1..k or the merges are not a dendrogram of the k clusters.
std::vector<uint32_t> CutDendrogram(
  const ClaraResult& clara, const std::vector<Merge>& merges, uint32_t count);

}
