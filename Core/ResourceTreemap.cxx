#include "ResourceTreemap.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace macroscope
{

std::vector<int> NodeDepths(const AggregationHierarchy& hierarchy)
{
  // Parents follow their children: walking down from the root fills depths.
  std::vector<int> depth(hierarchy.Nodes(), 0);
  for (int64_t n = hierarchy.Root() - 1; n >= 0; --n)
  {
    depth[n] = depth[hierarchy.ParentOf(n)] + 1;
  }
  return depth;
}

std::vector<int64_t> LevelCut(const AggregationHierarchy& hierarchy, int level)
{
  if (level < -1)
  {
    throw std::invalid_argument("level " + std::to_string(level) +
      " is not a depth (0 the root, 1 its children...) nor -1 (the resources)");
  }
  std::vector<int64_t> cut;
  if (level < 0)
  {
    for (uint32_t s = 0; s < hierarchy.Leaves(); ++s)
    {
      cut.push_back(s);
    }
    return cut;
  }
  const std::vector<int> depth = NodeDepths(hierarchy);
  const int deepest = depth.empty() ? 0 : *std::max_element(depth.begin(), depth.end());
  if (level > deepest)
  {
    throw std::invalid_argument("level " + std::to_string(level) +
      " is deeper than the model's hierarchy, whose deepest level is " + std::to_string(deepest) +
      " (0 the root, -1 the resources)");
  }
  for (int64_t n = 0; n < static_cast<int64_t>(hierarchy.Nodes()); ++n)
  {
    const bool leaf = n < static_cast<int64_t>(hierarchy.Leaves());
    if (depth[n] == level || (leaf && depth[n] < level))
    {
      cut.push_back(n);
    }
  }
  return cut;
}

std::vector<std::string> NodePaths(
  const AggregationHierarchy& hierarchy, const std::vector<std::string>& names)
{
  if (names.size() != hierarchy.Nodes())
  {
    throw std::invalid_argument("node paths: " + std::to_string(names.size()) + " names for " +
      std::to_string(hierarchy.Nodes()) + " nodes");
  }
  const int64_t root = hierarchy.Root();
  std::vector<std::string> paths(names.size());
  paths[root] = names[root];
  for (int64_t n = root - 1; n >= 0; --n)
  {
    const int64_t parent = hierarchy.ParentOf(n);
    paths[n] = parent == root ? names[n] : paths[parent] + "/" + names[n];
  }
  return paths;
}

TreemapRows BuildTreemap(const AggregationHierarchy& hierarchy, const std::vector<int64_t>& cut,
  const std::vector<double>& resourceValues, uint32_t types,
  const std::vector<double>& resourceSizes)
{
  const uint32_t leaves = hierarchy.Leaves();
  const std::size_t nodes = hierarchy.Nodes();
  if (resourceValues.size() != static_cast<std::size_t>(leaves) * types ||
    resourceSizes.size() != leaves)
  {
    throw std::invalid_argument("treemap: " + std::to_string(resourceValues.size()) +
      " values and " + std::to_string(resourceSizes.size()) + " sizes for " +
      std::to_string(leaves) + " resources of " + std::to_string(types) + " types");
  }
  std::vector<char> inCut(nodes, 0);
  std::vector<uint32_t> covered(leaves, 0);
  for (int64_t n : cut)
  {
    if (n < 0 || n >= static_cast<int64_t>(nodes))
    {
      throw std::invalid_argument("treemap: cut node " + std::to_string(n) + " is not a node");
    }
    inCut[n] = 1;
    for (uint32_t s = hierarchy.LeafBegin(n); s < hierarchy.LeafEnd(n); ++s)
    {
      ++covered[s];
    }
  }
  for (uint32_t s = 0; s < leaves; ++s)
  {
    if (covered[s] != 1)
    {
      throw std::invalid_argument("treemap: the cut covers resource " + std::to_string(s) + " " +
        std::to_string(covered[s]) + " times instead of once");
    }
  }

  const std::vector<int> depth = NodeDepths(hierarchy);
  TreemapRows rows;
  rows.Types = types;
  // Depth first from the root, stopping at the cut; every resource being
  // covered once, the walk meets each cut node exactly once.
  std::vector<std::pair<int64_t, int64_t>> pending{ { hierarchy.Root(), -1 } };
  while (!pending.empty())
  {
    const auto [n, parentRow] = pending.back();
    pending.pop_back();
    const int64_t row = static_cast<int64_t>(rows.Node.size());
    rows.Node.push_back(n);
    rows.ParentRow.push_back(parentRow);
    rows.Depth.push_back(depth[n]);
    rows.Cut.push_back(inCut[n]);
    if (!inCut[n])
    {
      const auto& children = hierarchy.Children(n);
      for (auto child = children.rbegin(); child != children.rend(); ++child)
      {
        pending.emplace_back(*child, row);
      }
    }
  }

  const std::size_t count = rows.Node.size();
  rows.Size.assign(count, 0.0);
  rows.Values.assign(count * types, 0.0);
  for (std::size_t r = 0; r < count; ++r)
  {
    if (!rows.Cut[r])
    {
      continue;
    }
    const int64_t n = rows.Node[r];
    for (uint32_t s = hierarchy.LeafBegin(n); s < hierarchy.LeafEnd(n); ++s)
    {
      rows.Size[r] += resourceSizes[s];
      for (uint32_t u = 0; u < types; ++u)
      {
        rows.Values[r * types + u] += resourceValues[static_cast<std::size_t>(s) * types + u];
      }
    }
  }
  // Children come after their parent: in reverse, a row is complete when it
  // is added to its parent, whose values are then exactly its rows' sums.
  for (std::size_t r = count; r-- > 1;)
  {
    const std::size_t p = static_cast<std::size_t>(rows.ParentRow[r]);
    rows.Size[p] += rows.Size[r];
    for (uint32_t u = 0; u < types; ++u)
    {
      rows.Values[p * types + u] += rows.Values[r * types + u];
    }
  }
  rows.Total.assign(count, 0.0);
  rows.Mode.assign(count, -1);
  rows.ModeProportion.assign(count, 0.0);
  for (std::size_t r = 0; r < count; ++r)
  {
    double best = 0.0;
    for (uint32_t u = 0; u < types; ++u)
    {
      const double v = rows.Values[r * types + u];
      rows.Total[r] += v;
      if (v > best)
      {
        best = v;
        rows.Mode[r] = static_cast<int>(u);
      }
    }
    rows.ModeProportion[r] = rows.Total[r] > 0.0 && rows.Mode[r] >= 0 ? best / rows.Total[r] : 0.0;
    if (!(rows.Total[r] > 0.0))
    {
      rows.Mode[r] = -1;
    }
  }
  return rows;
}

}
