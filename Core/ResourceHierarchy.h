// The resources of a microscopic model and the hierarchy above them.
//
// A trace's hierarchy (system tree → processes → threads) has the locations
// as leaves. The model's resources are the locations, or the vertices of one
// level of the tree (processes, nodes...); the hierarchy above them is kept,
// the part below is folded into them.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace macroscope
{

/// ResourceOfLeaf value of a leaf left out of the model (see keepLeaf below).
constexpr uint32_t NoResource = std::numeric_limits<uint32_t>::max();

struct ResourceHierarchy
{
  /// Nodes: the resources first (0 .. Resources-1, in leaf order), then the
  /// inner nodes, deepest first, the root last. Parent[n] > n, -1 for the root.
  std::vector<int64_t> Parent;
  /// The vertex of the input tree each node stands for.
  std::vector<int64_t> Vertex;
  uint32_t Resources = 0;
  /// The resource each leaf (location) folds into; NoResource when the leaf
  /// was left out.
  std::vector<uint32_t> ResourceOfLeaf;
};

/// `parent[v]` is v's parent (-1 for the root, parents before children, as
/// in a vtkTree); `leafIndex[v]` is v's leaf index, -1 for inner vertices,
/// leaf indexes 0..L-1 in depth-first order. `level` -1 makes every leaf a
/// resource; level k >= 0 makes the vertices of depth k resources (a leaf
/// shallower than k stays its own resource). Throws std::invalid_argument on
/// a malformed tree.
///
/// `keepLeaf` (by leaf index; empty = every leaf) restricts the model to
/// some leaves: the others map to NoResource, a resource exists only if it
/// keeps a leaf, and the inner nodes are the ancestors of the resources, so
/// a vertex with no kept leaf below disappears (one left with a single
/// child stays).
ResourceHierarchy BuildResourceHierarchy(const std::vector<int64_t>& parent,
  const std::vector<int64_t>& leafIndex, int level, const std::vector<bool>& keepLeaf = {});

/// The depth of the deepest vertex of the tree `parent` describes (parents
/// before children, -1 for the root): 0 for a lone root. A level deeper than
/// this is a request the hierarchy cannot meet. Throws
/// std::invalid_argument when a parent comes after its child.
int DeepestLevel(const std::vector<int64_t>& parent);

enum class AggregationFunction
{
  Sum,
  Min,
  Max,
  Mean ///< mean over the resources below a node
};

/// Triva's aggregation model (Schnorr 2009 (Triva) §4.3): the values of every
/// node of `hierarchy`, `width` values per node, from the values of its
/// resources (`resourceValues[r * width + k]`), by `function`.
std::vector<double> AggregateHierarchy(const ResourceHierarchy& hierarchy,
  const std::vector<double>& resourceValues, std::size_t width, AggregationFunction function);

}
