#include "ResourceSelection.h"

#include <algorithm>

namespace macroscope
{

std::vector<std::string> VertexPaths(
  const std::vector<int64_t>& parent, const std::vector<std::string>& names)
{
  if (names.size() != parent.size())
  {
    throw std::invalid_argument("the hierarchy's names are not one per vertex");
  }
  std::vector<std::string> paths(parent.size());
  for (std::size_t v = 0; v < parent.size(); ++v)
  {
    const int64_t p = parent[v];
    if (p >= static_cast<int64_t>(v))
    {
      throw std::invalid_argument("the hierarchy is not a tree with parents before children");
    }
    paths[v] = p < 0 ? names[v] : paths[static_cast<std::size_t>(p)] + PathSeparator + names[v];
  }
  return paths;
}

std::vector<int64_t> FindVertices(const std::vector<std::string>& names,
  const std::vector<std::string>& paths, const std::vector<int64_t>& parent,
  const std::string& query)
{
  std::vector<int64_t> found;
  auto collect = [&found, &query](const std::vector<std::string>& keys, std::size_t skip) {
    for (std::size_t v = 0; v < keys.size(); ++v)
    {
      const std::string& key = keys[v];
      if (key.size() >= skip && key.compare(skip, std::string::npos, query) == 0)
      {
        found.push_back(static_cast<int64_t>(v));
      }
    }
  };
  collect(names, 0);
  if (!found.empty() || query.find(PathSeparator) == std::string::npos)
  {
    return found;
  }
  collect(paths, 0);
  if (!found.empty())
  {
    return found;
  }
  // Paths below the root: skip "<root name>/" of each vertex's own root
  // (a forest has several).
  for (std::size_t v = 0; v < paths.size(); ++v)
  {
    int64_t root = static_cast<int64_t>(v);
    while (parent[static_cast<std::size_t>(root)] >= 0)
    {
      root = parent[static_cast<std::size_t>(root)];
    }
    const std::size_t skip = names[static_cast<std::size_t>(root)].size() + 1;
    if (root != static_cast<int64_t>(v) && paths[v].size() > skip &&
      paths[v].compare(skip, std::string::npos, query) == 0)
    {
      found.push_back(static_cast<int64_t>(v));
    }
  }
  return found;
}

std::vector<bool> SelectLeaves(const std::vector<int64_t>& parent,
  const std::vector<int64_t>& leafIndex, const std::vector<std::string>& names,
  const std::vector<std::string>& queries)
{
  const std::size_t n = parent.size();
  if (leafIndex.size() != n)
  {
    throw std::invalid_argument("the hierarchy's LeafIndex has not one entry per vertex");
  }
  if (queries.empty())
  {
    return {}; // BuildResourceHierarchy's "every leaf"
  }
  const std::vector<std::string> paths = VertexPaths(parent, names);
  std::vector<bool> chosen(n, false);
  std::vector<std::string> unknown;
  for (const std::string& query : queries)
  {
    const std::vector<int64_t> found = FindVertices(names, paths, parent, query);
    if (found.empty())
    {
      unknown.push_back(query);
    }
    for (int64_t v : found)
    {
      chosen[static_cast<std::size_t>(v)] = true;
    }
  }
  if (!unknown.empty())
  {
    std::string message = unknown.size() == 1 ? "no hierarchy vertex is named or has the path "
                                              : "no hierarchy vertex is named or has the paths ";
    for (std::size_t i = 0; i < unknown.size(); ++i)
    {
      message += (i ? ", \"" : "\"") + unknown[i] + "\"";
    }
    throw UnknownResource(message, unknown);
  }

  // A vertex is selected when it or an ancestor is chosen; parents come
  // first, so one pass downwards decides every vertex.
  std::size_t leaves = 0;
  for (std::size_t v = 0; v < n; ++v)
  {
    const int64_t p = parent[v];
    chosen[v] = chosen[v] || (p >= 0 && chosen[static_cast<std::size_t>(p)]);
    leaves += leafIndex[v] >= 0 ? 1 : 0;
  }
  std::vector<bool> keep(leaves, false);
  bool any = false;
  for (std::size_t v = 0; v < n; ++v)
  {
    const int64_t leaf = leafIndex[v];
    if (leaf >= 0 && chosen[v])
    {
      if (static_cast<std::size_t>(leaf) >= leaves)
      {
        throw std::invalid_argument("leaf index " + std::to_string(leaf) +
          " is out of range: the hierarchy has " + std::to_string(leaves) + " leaves");
      }
      keep[static_cast<std::size_t>(leaf)] = true;
      any = true;
    }
  }
  if (!any)
  {
    throw std::invalid_argument("the selected hierarchy vertices have no location below them");
  }
  return keep;
}

}
