#include "ResourceHierarchy.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace macroscope
{

int DeepestLevel(const std::vector<int64_t>& parent)
{
  std::vector<int> depth(parent.size(), 0);
  int deepest = 0;
  for (std::size_t v = 0; v < parent.size(); ++v)
  {
    if (parent[v] >= static_cast<int64_t>(v))
    {
      throw std::invalid_argument("the hierarchy is not a tree with parents before children");
    }
    depth[v] = parent[v] < 0 ? 0 : depth[static_cast<std::size_t>(parent[v])] + 1;
    deepest = std::max(deepest, depth[v]);
  }
  return deepest;
}

ResourceHierarchy BuildResourceHierarchy(const std::vector<int64_t>& parent,
  const std::vector<int64_t>& leafIndex, int level, const std::vector<bool>& keepLeaf)
{
  const std::size_t n = parent.size();
  if (leafIndex.size() != n)
  {
    throw std::invalid_argument("the hierarchy's LeafIndex has not one entry per vertex");
  }
  std::vector<int> depth(n, 0);
  std::size_t leaves = 0;
  for (std::size_t v = 0; v < n; ++v)
  {
    if (parent[v] >= static_cast<int64_t>(v) || parent[v] < -1 || (v > 0 && parent[v] < 0))
    {
      throw std::invalid_argument("the hierarchy is not a tree with parents before children");
    }
    depth[v] = parent[v] < 0 ? 0 : depth[parent[v]] + 1;
    leaves += leafIndex[v] >= 0 ? 1 : 0;
  }

  // The resource vertex of each vertex: its ancestor at `level`, or itself.
  std::vector<int64_t> resourceVertex(n, -1);
  for (std::size_t v = 0; v < n; ++v)
  {
    if (level >= 0 && depth[v] > level)
    {
      resourceVertex[v] = resourceVertex[parent[v]];
    }
    else
    {
      resourceVertex[v] = static_cast<int64_t>(v);
    }
  }

  if (!keepLeaf.empty() && keepLeaf.size() != leaves)
  {
    throw std::invalid_argument("the leaf selection has " + std::to_string(keepLeaf.size()) +
      " entries, the hierarchy " + std::to_string(leaves) + " leaves");
  }
  ResourceHierarchy result;
  result.ResourceOfLeaf.assign(leaves, keepLeaf.empty() ? 0 : NoResource);
  std::vector<int64_t> node(n, -1); // node of each vertex that is kept
  std::vector<std::pair<int64_t, uint32_t>> leafOrder;
  for (std::size_t v = 0; v < n; ++v)
  {
    if (leafIndex[v] >= 0)
    {
      if (static_cast<std::size_t>(leafIndex[v]) >= leaves)
      {
        throw std::invalid_argument("leaf index " + std::to_string(leafIndex[v]) +
          " is out of range: the hierarchy has " + std::to_string(leaves) + " leaves");
      }
      leafOrder.emplace_back(leafIndex[v], static_cast<uint32_t>(v));
    }
  }
  std::sort(leafOrder.begin(), leafOrder.end());
  // `leaves` indexes below `leaves`, sorted: distinct iff each equals its rank.
  for (std::size_t i = 0; i < leafOrder.size(); ++i)
  {
    if (leafOrder[i].first != static_cast<int64_t>(i))
    {
      throw std::invalid_argument(
        "leaf index " + std::to_string(leafOrder[i].first) + " is used by several vertices");
    }
  }
  // Resources in the order of their first leaf.
  for (const auto& [leaf, vertex] : leafOrder)
  {
    if (!keepLeaf.empty() && !keepLeaf[static_cast<std::size_t>(leaf)])
    {
      continue;
    }
    const int64_t r = resourceVertex[vertex];
    if (node[r] < 0)
    {
      node[r] = static_cast<int64_t>(result.Vertex.size());
      result.Vertex.push_back(r);
    }
    result.ResourceOfLeaf[static_cast<std::size_t>(leaf)] = static_cast<uint32_t>(node[r]);
  }
  result.Resources = static_cast<uint32_t>(result.Vertex.size());

  // Inner nodes: the ancestors of the resources, deepest first, root last.
  std::vector<int64_t> inner;
  for (std::size_t i = 0; i < result.Resources; ++i)
  {
    for (int64_t a = parent[result.Vertex[i]]; a >= 0 && node[a] == -1; a = parent[a])
    {
      node[a] = -2; // seen
      inner.push_back(a);
    }
  }
  std::stable_sort(inner.begin(), inner.end(),
    [&depth](int64_t x, int64_t y)
    { return depth[x] > depth[y] || (depth[x] == depth[y] && x < y); });
  for (int64_t a : inner)
  {
    node[a] = static_cast<int64_t>(result.Vertex.size());
    result.Vertex.push_back(a);
  }
  result.Parent.resize(result.Vertex.size());
  for (std::size_t i = 0; i < result.Vertex.size(); ++i)
  {
    const int64_t p = parent[result.Vertex[i]];
    result.Parent[i] = p < 0 ? -1 : node[p];
  }
  return result;
}

std::vector<double> AggregateHierarchy(const ResourceHierarchy& hierarchy,
  const std::vector<double>& resourceValues, std::size_t width, AggregationFunction function)
{
  const std::size_t nodes = hierarchy.Parent.size();
  if (resourceValues.size() != std::size_t(hierarchy.Resources) * width)
  {
    throw std::invalid_argument("AggregateHierarchy: expected " +
      std::to_string(std::size_t(hierarchy.Resources) * width) + " resource values, got " +
      std::to_string(resourceValues.size()));
  }
  const double start = function == AggregationFunction::Min
    ? std::numeric_limits<double>::infinity()
    : function == AggregationFunction::Max ? -std::numeric_limits<double>::infinity()
                                           : 0.0;
  std::vector<double> values(nodes * width, start);
  std::vector<double> resourcesBelow(nodes, 0.0);
  std::copy(resourceValues.begin(), resourceValues.end(), values.begin());
  std::fill(resourcesBelow.begin(), resourcesBelow.begin() + hierarchy.Resources, 1.0);

  // Children come before their parents: one pass upwards fills every node.
  for (std::size_t n = 0; n < nodes; ++n)
  {
    const int64_t p = hierarchy.Parent[n];
    if (p < 0)
    {
      continue;
    }
    if (static_cast<std::size_t>(p) <= n || static_cast<std::size_t>(p) >= nodes)
    {
      throw std::invalid_argument("AggregateHierarchy: a parent precedes its child or is no node");
    }
    double* mine = &values[n * width];
    double* theirs = &values[static_cast<std::size_t>(p) * width];
    for (std::size_t k = 0; k < width; ++k)
    {
      switch (function)
      {
        case AggregationFunction::Min:
          theirs[k] = std::min(theirs[k], mine[k]);
          break;
        case AggregationFunction::Max:
          theirs[k] = std::max(theirs[k], mine[k]);
          break;
        default:
          theirs[k] += mine[k];
      }
    }
    resourcesBelow[p] += resourcesBelow[n];
  }
  if (function == AggregationFunction::Mean)
  {
    for (std::size_t n = hierarchy.Resources; n < nodes; ++n)
    {
      for (std::size_t k = 0; k < width; ++k)
      {
        values[n * width + k] /= resourcesBelow[n];
      }
    }
  }
  return values;
}

}
