#include "TreeLayout.h"

#include <stdexcept>
#include <string>

namespace macroscope
{
std::vector<TreePosition> TreeLayout::Compute(const std::vector<long long>& parents)
{
  const std::size_t n = parents.size();
  std::vector<TreePosition> positions(n);
  std::vector<std::size_t> childCount(n, 0);

  for (std::size_t v = 0; v < n; ++v)
  {
    const long long p = parents[v];
    if (p >= static_cast<long long>(v) || p < -1)
    {
      throw std::invalid_argument("TreeLayout: vertex " + std::to_string(v) + " has parent " +
        std::to_string(p) + "; parents must precede their children");
    }
    if (p >= 0)
    {
      positions[v].Depth = positions[p].Depth + 1;
      ++childCount[p];
    }
  }

  // Child lists in compressed form (children in increasing vertex order).
  std::vector<std::size_t> firstChild(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v)
  {
    firstChild[v + 1] = firstChild[v] + childCount[v];
  }
  std::vector<std::size_t> children(firstChild[n]);
  std::vector<std::size_t> filled(n, 0);
  for (std::size_t v = 0; v < n; ++v)
  {
    if (parents[v] >= 0)
    {
      const auto p = static_cast<std::size_t>(parents[v]);
      children[firstChild[p] + filled[p]++] = v;
    }
  }

  // Iterative post-order walk from every root, so deep trees cannot overflow
  // the call stack.
  double nextLeafColumn = 0.0;
  std::vector<std::pair<std::size_t, std::size_t>> stack; // vertex, next child
  for (std::size_t root = 0; root < n; ++root)
  {
    if (parents[root] != -1)
    {
      continue;
    }
    stack.emplace_back(root, 0);
    while (!stack.empty())
    {
      auto& [v, next] = stack.back();
      if (next < childCount[v])
      {
        const std::size_t child = children[firstChild[v] + next++];
        stack.emplace_back(child, 0);
        continue;
      }
      if (childCount[v] == 0)
      {
        positions[v].Column = nextLeafColumn++;
      }
      else
      {
        const std::size_t first = children[firstChild[v]];
        const std::size_t last = children[firstChild[v] + childCount[v] - 1];
        positions[v].Column = 0.5 * (positions[first].Column + positions[last].Column);
      }
      stack.pop_back();
    }
  }
  return positions;
}
}
