#include "ResourceSelection.h"

#include <algorithm>

namespace macroscope
{

namespace
{
// Throws unless `names` has one entry per vertex and every parent comes
// before its child (which also rules out cycles).
void CheckTree(const std::vector<int64_t>& parent, const std::vector<std::string>& names)
{
  if (names.size() != parent.size())
  {
    throw std::invalid_argument("the hierarchy's names are not one per vertex");
  }
  for (std::size_t v = 0; v < parent.size(); ++v)
  {
    if (parent[v] >= static_cast<int64_t>(v))
    {
      throw std::invalid_argument("the hierarchy is not a tree with parents before children");
    }
  }
}

// Appends to `found` the vertices whose path is `query` or, with
// `belowRoot`, whose path without its root's name and separator is. One
// pass downwards: `end[v]` is where v's path ends in `query` when that path
// is a prefix of it (NoMatch otherwise), so a vertex compares only its own
// name, at its parent's end: linear in the names and vertices, whatever the
// depth (building every path would cost the depth squared).
void MatchPaths(const std::vector<std::string>& names, const std::vector<int64_t>& parent,
  const std::string& query, bool belowRoot, std::vector<int64_t>& found)
{
  constexpr std::size_t NoMatch = std::string::npos;
  constexpr std::size_t EmptyPath = std::string::npos - 1; // a root left out of the path
  std::vector<std::size_t> end(parent.size(), NoMatch);
  for (std::size_t v = 0; v < parent.size(); ++v)
  {
    const int64_t p = parent[v];
    std::size_t start = 0;
    if (p < 0 && belowRoot)
    {
      end[v] = EmptyPath;
      continue;
    }
    if (p >= 0)
    {
      const std::size_t above = end[static_cast<std::size_t>(p)];
      if (above == NoMatch)
      {
        continue;
      }
      if (above != EmptyPath)
      {
        if (above >= query.size() || query[above] != PathSeparator)
        {
          continue;
        }
        start = above + 1;
      }
    }
    const std::string& name = names[v];
    if (query.size() - start < name.size() || query.compare(start, name.size(), name) != 0)
    {
      continue;
    }
    end[v] = start + name.size();
    if (end[v] == query.size())
    {
      found.push_back(static_cast<int64_t>(v));
    }
  }
}
}

std::string VertexPath(
  const std::vector<int64_t>& parent, const std::vector<std::string>& names, std::size_t v)
{
  if (names.size() != parent.size() || v >= parent.size())
  {
    throw std::invalid_argument("VertexPath: no vertex " + std::to_string(v) + " among " +
      std::to_string(parent.size()) + " (with " + std::to_string(names.size()) + " names)");
  }
  // The vertices from v up to its root, then their names root first: no
  // string is copied more than once.
  std::vector<std::size_t> chain{ v };
  std::size_t bytes = names[v].size();
  for (int64_t u = parent[v]; u >= 0; u = parent[static_cast<std::size_t>(u)])
  {
    if (u >= static_cast<int64_t>(chain.back()))
    {
      throw std::invalid_argument("the hierarchy is not a tree with parents before children");
    }
    chain.push_back(static_cast<std::size_t>(u));
    bytes += 1 + names[static_cast<std::size_t>(u)].size();
  }
  std::string path;
  path.reserve(bytes);
  for (auto u = chain.rbegin(); u != chain.rend(); ++u)
  {
    if (u != chain.rbegin())
    {
      path += PathSeparator;
    }
    path += names[*u];
  }
  return path;
}

std::vector<std::string> VertexPaths(
  const std::vector<int64_t>& parent, const std::vector<std::string>& names)
{
  CheckTree(parent, names);
  std::vector<std::string> paths(parent.size());
  for (std::size_t v = 0; v < parent.size(); ++v)
  {
    const int64_t p = parent[v];
    paths[v] = p < 0 ? names[v] : paths[static_cast<std::size_t>(p)] + PathSeparator + names[v];
  }
  return paths;
}

std::vector<int64_t> FindVertices(const std::vector<std::string>& names,
  const std::vector<int64_t>& parent, const std::string& query)
{
  CheckTree(parent, names);
  std::vector<int64_t> found;
  for (std::size_t v = 0; v < names.size(); ++v)
  {
    if (names[v] == query)
    {
      found.push_back(static_cast<int64_t>(v));
    }
  }
  if (!found.empty() || query.find(PathSeparator) == std::string::npos)
  {
    return found;
  }
  MatchPaths(names, parent, query, false, found);
  if (!found.empty())
  {
    return found;
  }
  // Paths below the root: without "<root name>/" of each vertex's own root
  // (a forest has several).
  MatchPaths(names, parent, query, true, found);
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
  CheckTree(parent, names);
  std::vector<bool> chosen(n, false);
  std::vector<std::string> unknown;
  for (const std::string& query : queries)
  {
    const std::vector<int64_t> found = FindVertices(names, parent, query);
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
