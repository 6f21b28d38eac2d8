// Naming parts of a trace's resource hierarchy: the paths of its vertices
// and the locations (leaves) below a list of names, so that a model can be
// re-built on a subset of the resources (Ocelotl's spatial zoom, Dosimont et al. 2015 (Ocelotl)
// §4.1.3; the producers FrameSoC's filter returns, Pagano et al. 2013 (FrameSoC) §V-C).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace macroscope
{

/// The separator of the components of a vertex path.
constexpr char PathSeparator = '/';

/// The path of vertex `v`: the names from its root down to it joined with
/// "/" (a root's path is its name). `parent[u]` is u's parent, -1 for a
/// root, parents before children as in a vtkTree. Costs the path's length
/// and v's depth: build the paths of the vertices shown, not of all.
std::string VertexPath(
  const std::vector<int64_t>& parent, const std::vector<std::string>& names, std::size_t v);

/// The path (VertexPath) of every vertex. Their total length grows with the
/// square of the depth (a 40,000-deep chain holds gigabytes of paths): for
/// small trees and tests only; FindVertices and SelectLeaves never build
/// them.
std::vector<std::string> VertexPaths(
  const std::vector<int64_t>& parent, const std::vector<std::string>& names);

/// Thrown by SelectLeaves when names match no vertex; what() names them all.
class UnknownResource : public std::invalid_argument
{
public:
  UnknownResource(const std::string& message, std::vector<std::string> unknown)
    : std::invalid_argument(message)
    , Unknown(std::move(unknown))
  {
  }
  std::vector<std::string> Unknown;
};

/// The vertices a name designates, in vertex order: every vertex of that
/// name; else, when there is none, the vertices whose path (VertexPath) is
/// the name; else those whose path without the root's component is it (the
/// form of the readers' Locations property). Empty if none. Builds no path:
/// one pass down the tree compares each vertex's name with the query where
/// its parent's path ends, so time and memory stay linear in the hierarchy
/// and the query. Throws std::invalid_argument when `names` is not one per
/// vertex or a parent does not come before its child.
std::vector<int64_t> FindVertices(const std::vector<std::string>& names,
  const std::vector<int64_t>& parent, const std::string& query);

/// Which leaves (by leaf index, as BuildResourceHierarchy numbers them) lie
/// below — or are — a vertex designated by one of `queries`. Throws
/// UnknownResource when a query designates no vertex, and
/// std::invalid_argument when the queries designate only vertices without
/// leaves below them (the model would be empty). No queries: an empty
/// vector, which BuildResourceHierarchy reads as every leaf.
std::vector<bool> SelectLeaves(const std::vector<int64_t>& parent,
  const std::vector<int64_t>& leafIndex, const std::vector<std::string>& names,
  const std::vector<std::string>& queries);

}
