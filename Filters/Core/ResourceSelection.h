// Naming parts of a trace's resource hierarchy: the paths of its vertices
// and the locations (leaves) below a list of names, so that a model can be
// re-built on a subset of the resources (Ocelotl's spatial zoom, seed 000
// §4.1.3; the producers FrameSoC's filter returns, seed 002 §V-C).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace macroscope
{

/// The separator of the components of a vertex path.
constexpr char PathSeparator = '/';

/// The path of every vertex: the names from the root down to it joined with
/// "/" (the root's path is its name). `parent[v]` is v's parent, -1 for the
/// root, parents before children as in a vtkTree.
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
/// name; else, when there is none, the vertices whose path (VertexPaths) is
/// the name; else those whose path without the root's component is it (the
/// form of the OTF2 reader's Locations property). Empty if none.
std::vector<int64_t> FindVertices(const std::vector<std::string>& names,
  const std::vector<std::string>& paths, const std::vector<int64_t>& parent,
  const std::string& query);

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
