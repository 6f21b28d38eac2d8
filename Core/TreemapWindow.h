// The time window a treemap of a model shows, and what its areas and
// qualities come from (Schnorr 2009 (Triva) §4.2, §4.4; Dosimont et al.
// 2014 (VPA)): a fixed window or, animated, a run of slices that moves
// slice by slice; areas from the window's integral; each cut node's pIC
// gain and loss. What the Resource Treemap filter computes between its
// model and its rows.
#pragma once

#include "Aggregation.h"
#include "ResourceTreemap.h"
#include "WindowIntegration.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace macroscope
{

/// The animation's time steps: the start of every run of `windowSlices`
/// slices of a model of `slices` slices, one slice apart. Empty when no
/// run fits (or `windowSlices` < 1, or the axis has no width).
std::vector<double> AnimationTimes(const SliceAxis& axis, int slices, int windowSlices);

/// The window of the animation frame at time `requested` (a time step):
/// the run of `windowSlices` slices starting with the slice that holds it,
/// moved back so that it fits; the first run when `requested` is not finite.
/// Needs 1 <= windowSlices <= slices.
std::pair<double, double> AnimationWindow(
  const SliceAxis& axis, int slices, int windowSlices, double requested);

/// Whether [begin, end) is a finite, non-empty window overlapping the
/// model's [Origin, Origin + slices Width].
bool WindowOverlapsModel(const SliceAxis& axis, int slices, double begin, double end);

/// What a resource's area measures.
enum class TreemapSizing
{
  Total,     ///< the sum of its values
  Resources, ///< 1: every resource alike
  Type       ///< its value of one type
};

/// The area value of every resource of `integral`; `type` is the type of
/// TreemapSizing::Type.
std::vector<double> ResourceSizes(
  const WindowIntegral& integral, TreemapSizing sizing, uint32_t type = 0);

/// The pIC gain and loss of every row of a treemap (0 for the rows above
/// the cut), divided, when `normalize`, by the full aggregation's as
/// Aggregation::Best divides them; and their sums over the cut.
struct TreemapQualities
{
  std::vector<double> Gain;
  std::vector<double> Loss;
  double CutGain = 0.0;
  double CutLoss = 0.0;
};

TreemapQualities RowQualities(
  const TreemapRows& rows, const SpatialAggregation& aggregation, bool normalize);

}
