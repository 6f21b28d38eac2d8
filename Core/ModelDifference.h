// The difference of two runs' microscopic models: A − B per
// resource, slice and type on a common slice grid, in a layout the pIC
// aggregations read unchanged, and the ranking of an aggregation's parts by
// how much the runs differ there. See docs/comparison.md.
//
// Types are matched by name; resources by rank (row i with row i) or by name
// (the "/"-joined path below the root, as Time Slicing's Resources paths).
// Each model is rebinned onto the common grid with RebinModel
// (ModelCache.h, Dosimont et al. 2015 (Ocelotl) eqs. 6-8), counting 0 outside its own window.
#pragma once

#include "TimeSlicing.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace macroscope
{

/// One run's model with what the comparison needs to match it: the
/// hierarchy in ResourceHierarchy::Parent layout (resources first, in leaf
/// order, the root last) with a name and kind per node, and a name per type.
struct NamedModel
{
  MicroscopicModel Model;
  std::vector<int64_t> Parent;
  std::vector<std::string> NodeName;
  std::vector<std::string> NodeKind; ///< may be empty (no kinds)
  std::vector<std::string> TypeName;
  /// Values add up over time (durations, counts): split by overlap when
  /// rebinned; otherwise (rates, means) overlap-weighted averages.
  bool Extensive = true;
};

enum class ResourceMatching
{
  ByRank = 0, ///< row i of A with row i of B
  ByName = 1  ///< rows with the same path below the root
};

struct DifferenceOptions
{
  ResourceMatching Matching = ResourceMatching::ByRank;
  /// Slices of the common grid; 0: the larger slice count of the two.
  int Slices = 0;
};

/// The difference model. Every value array has the MicroscopicModel layout
/// of Grid × Resources × Types.
struct ModelDifference
{
  SliceGrid Grid;
  uint32_t Resources = 0;
  uint32_t Types = 0;
  std::vector<double> Difference; ///< A − B
  std::vector<double> A;          ///< run A rebinned (0 where A has no such row, type or time)
  std::vector<double> B;          ///< run B rebinned
  std::vector<double> Value;      ///< |A − B|: what the pIC aggregation measures
  /// The output hierarchy, NamedModel layout.
  std::vector<int64_t> Parent;
  std::vector<std::string> NodeName;
  std::vector<std::string> NodeKind;
  std::vector<std::string> TypeName;
  /// Where each output type and node comes from in A and in B (-1: absent).
  std::vector<int64_t> TypeOfA, TypeOfB;
  std::vector<int64_t> NodeOfA, NodeOfB;
  /// Rows of A (of B) that have no counterpart in the other run.
  uint32_t UnmatchedA = 0;
  uint32_t UnmatchedB = 0;

  std::size_t Index(uint32_t resource, int slice, uint32_t type) const
  {
    return static_cast<std::size_t>(slice) +
      static_cast<std::size_t>(this->Grid.Slices) *
      (resource + std::size_t(this->Resources) * type);
  }
};

/// The difference of `a` and `b`. Throws std::invalid_argument naming the
/// problem when a model's arrays disagree with its sizes, the two differ in
/// extensiveness, Slices is negative, or, by name, a path is a resource in
/// one run and has resources below it in the other.
ModelDifference DiffModels(
  const NamedModel& a, const NamedModel& b, const DifferenceOptions& options);

/// `model` on `grid`, counting 0 outside its own window (RebinModel on the
/// model padded with empty slices of its width). A grid equal to the model's
/// returns its values exactly.
MicroscopicModel RebinOnto(const MicroscopicModel& model, const SliceGrid& grid, bool extensive);

/// One part of an aggregation of a difference model (a row of a Partition
/// table): resource rows [FirstResource, LastResource], a time interval,
/// and the per-type mean of Value (|A − B|) per resource per slice.
struct DifferencePart
{
  std::string NodeName;
  uint32_t FirstResource = 0;
  uint32_t LastResource = 0;
  double Start = 0.0;
  double End = 0.0;
  std::vector<double> Mean;
};

struct RankedPart
{
  std::size_t Part = 0;        ///< index in the parts given
  double MeanDifference = 0.0; ///< Σ_types Mean: mean |A − B| per resource per slice
  std::size_t Mode = 0;        ///< the type of largest Mean (first on ties)
};

/// The parts ranked by MeanDifference, descending (ties: the earlier part
/// first).
std::vector<RankedPart> RankDifferenceParts(const std::vector<DifferencePart>& parts);

/// One sentence naming where and when the runs differ most, e.g. "Runs
/// differ most on node-1 (rank 2, rank 3) from 0.17 s to 0.84 s: mean
/// |A − B| 0.61 (type computing)". `leafNames` are the part's resource
/// names; more than eight are abbreviated.
std::string DescribeDifference(const DifferencePart& part, const RankedPart& ranked,
  const std::vector<std::string>& leafNames, const std::vector<std::string>& typeNames);

/// Where the runs start to differ: among the ranked parts whose
/// MeanDifference is at least `fraction` of the largest (and not 0), the
/// one that starts first (on equal starts, the more different). A
/// perturbation that delays a synchronised program makes every later slice
/// differ, so the part of largest mean is often a consequence; the first
/// differing part points at the cause. Returns an index into `ranked`, or
/// ranked.size() when no part differs.
std::size_t FirstDifferingPart(
  const std::vector<DifferencePart>& parts, const std::vector<RankedPart>& ranked, double fraction);

/// One sentence for FirstDifferingPart, e.g. "The runs first differ at
/// 0.0183 s, on node-5 (rank 20, rank 21), until 0.0203 s: mean |A − B|
/// 0.0041 (type compute)".
std::string DescribeOnset(const DifferencePart& part, const RankedPart& ranked,
  const std::vector<std::string>& leafNames, const std::vector<std::string>& typeNames);

}
