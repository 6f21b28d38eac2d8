// A layered ("tidy") drawing of a rooted tree: leaves on consecutive columns
// in their given order, each parent centred over its children, depth as row.
//
// Trace hierarchies list their leaves in a meaningful order (system-tree
// order), so the layout keeps it: leaf k is drawn in column k.
#pragma once

#include <cstddef>
#include <vector>

namespace macroscope
{
struct TreePosition
{
  double Column = 0.0; // leaves at 0, 1, 2, ...; parents between their children
  int Depth = 0;       // 0 for roots
};

class TreeLayout
{
public:
  // `parents[v]` is the parent of vertex v, or -1 for a root; every parent
  // must precede its children (parents[v] < v), as in a vtkTree. Children are
  // taken in increasing vertex order. Throws std::invalid_argument otherwise.
  static std::vector<TreePosition> Compute(const std::vector<long long>& parents);
};
}
