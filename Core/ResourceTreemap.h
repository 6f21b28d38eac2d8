// What a treemap of the resource hierarchy draws for one time window
// (Schnorr 2009 (Triva) §4.3-4.4 and §5.5; Dosimont et al. 2014 (VPA),
// Viva): the nodes of a cut of the
// hierarchy, each subdivided by its per-type values, nested in the frames of
// their ancestors. A cut node aggregates the resources below it: its values
// are their sums, so the leaves' information is summarised, never dropped
// (Triva's aggregation model).
//
// The cut is either a level (Triva: every node at one depth, or a leaf that
// ends above it) or any set of nodes covering each resource once, such as
// the optimal cut of Viva's pIC spatial aggregation (Aggregation.h).
#pragma once

#include "Aggregation.h"

#include <cstdint>
#include <string>
#include <vector>

namespace macroscope
{

/// The depth of every node of `hierarchy` (the root 0).
std::vector<int> NodeDepths(const AggregationHierarchy& hierarchy);

/// Triva's level cut: the nodes at depth `level`, and the leaves that end
/// above it; -1 gives the leaves (the model's resources). In node order.
/// Throws std::invalid_argument for a level below -1 or deeper than the
/// hierarchy's deepest node, naming both depths.
std::vector<int64_t> LevelCut(const AggregationHierarchy& hierarchy, int level);

/// The path of every node as the Resources property of Time Slicing accepts
/// it: the names from just below the root down to the node, joined with
/// "/"; the root's path is its name. `names` has one entry per node.
std::vector<std::string> NodePaths(
  const AggregationHierarchy& hierarchy, const std::vector<std::string>& names);

/// The rows of a treemap: the root, then depth first the nodes down to the
/// cut, parents before children, children in leaf order.
struct TreemapRows
{
  uint32_t Types = 0;
  std::vector<int64_t> Node;      ///< hierarchy node
  std::vector<int64_t> ParentRow; ///< row of the parent, -1 for the root
  std::vector<int> Depth;         ///< the root 0
  std::vector<char> Cut;          ///< 1 for the cut's nodes, 0 for their ancestors
  std::vector<double> Size;       ///< the area: the sum over the resources below
  std::vector<double> Values;     ///< per row and type, row-major: Values[row * Types + u]
  std::vector<double> Total;      ///< sum of the row's Values
  std::vector<int> Mode;          ///< type of the largest value (lowest on ties), -1 if Total is 0
  std::vector<double> ModeProportion; ///< Values[Mode] / Total, 0 if Total is 0

  std::size_t Rows() const { return this->Node.size(); }
};

/// The treemap of `cut` (nodes that together cover every resource exactly
/// once, in any order). `resourceValues` holds each resource's value per
/// type (resource-major, `types` per resource), `resourceSizes` its area
/// value; a row's values and size are the sums over the resources below it,
/// an inner row's being the sums of its children's rows. Throws
/// std::invalid_argument when the cut leaves a resource uncovered or covers
/// one twice, a node is out of range, or the arrays have the wrong size.
TreemapRows BuildTreemap(const AggregationHierarchy& hierarchy, const std::vector<int64_t>& cut,
  const std::vector<double>& resourceValues, uint32_t types,
  const std::vector<double>& resourceSizes);

}
