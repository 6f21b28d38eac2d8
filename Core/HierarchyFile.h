// A hierarchy file: a JSON tree whose leaves name a trace's resources, to
// regroup a flat trace (SimGrid's SMPI puts every rank under the root) into
// platform levels. Dosimont et al. 2014 (VPA) §III-A: the hierarchy is "hard-coded in the
// trace, or added by the user". docs/hierarchy-file.md gives the format and
// the matching rules.
//
//   {"name": "grid", "children": [
//     {"name": "cl0", "kind": "cluster", "children": [{"name": "rank-0"}, {"name": "rank-1"}]}]}
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace macroscope
{

/// A hierarchy file that cannot be used: the message names the file and the
/// problem (with line and column for invalid JSON).
class HierarchyFileError : public std::runtime_error
{
public:
  using std::runtime_error::runtime_error;
};

/// A rooted tree in depth-first order (a parent precedes its children,
/// children in order). Used for the file's tree, the trace's and the result.
struct HierarchyTree
{
  std::vector<int64_t> Parent; ///< -1 for a root
  std::vector<std::string> Name;
  std::vector<std::string> Kind;

  std::size_t size() const { return this->Parent.size(); }
};

/// Parses the JSON text of a hierarchy file; `source` names it in errors.
/// Nodes are objects with a string "name", an optional array "children"
/// and an optional string "kind" ("group" when absent); a node without
/// children (or with an empty array) is a leaf. Throws HierarchyFileError
/// on invalid JSON, a node that is no object, a missing or non-string name,
/// "children" not an array, "kind" not a string, two leaves of one name, or
/// an empty file.
HierarchyTree ParseHierarchyFile(std::string_view text, const std::string& source);

/// Reads and parses the file at `path`.
HierarchyTree ReadHierarchyFile(const std::string& path);

/// The kind of the vertex that collects the trace leaves the file does not
/// place, below the new root.
constexpr const char* UnplacedKind = "unplaced";

/// The regrouped hierarchy and how the trace's leaves moved.
struct RegroupedHierarchy
{
  HierarchyTree Tree;                  ///< the new hierarchy, depth-first
  std::vector<int64_t> LeafIndex;      ///< per vertex of Tree: its new leaf index, -1 for inner
  std::vector<std::size_t> LeafVertex; ///< per new leaf: its vertex in Tree
  /// Per old leaf: its new leaf index. New leaves are numbered in the
  /// depth-first order of Tree, as the data contract wants.
  std::vector<uint32_t> NewLeafOfOldLeaf;

  /// Trace leaves the file does not cover (their ShortPath in the trace, at
  /// most 200 bytes each), kept below a vertex of kind UnplacedKind under the root.
  std::vector<std::string> UnplacedLeaves;
  /// File leaves that match no trace vertex (names of at most 200 bytes): left out of Tree.
  std::vector<std::string> UnmatchedFileLeaves;

  /// One line per kind of mismatch, with counts and the first names; empty
  /// when the file and the trace agree.
  std::string Describe() const;
};

/// Paths longer than this are shortened (ShortPath): a path costs memory
/// and work in the names of its vertex's ancestors, so full paths of every
/// leaf of a deep hierarchy (40,000 nested containers) would cost its depth
/// squared; shortened, the cost stays linear in the hierarchy.
constexpr std::size_t MaxPathBytes = 1024;

/// The path of vertex `v` as the readers' Locations selection shows it: the
/// names from below the root down to `v`, joined by '/'; a root's path is
/// its own name. A path over MaxPathBytes keeps its first names (up to a
/// quarter of that) and its last names (up to half), with
/// "/...(N levels).../" between: distinct leaves keep distinct paths unless
/// their first and last names and their depth agree. Walks up from `v`
/// (no recursion); `parent` lists parents before children.
std::string ShortPath(
  const std::vector<int64_t>& parent, const std::vector<std::string>& name, std::size_t v);

/// ShortPath of each vertex of `vertices` (e.g. the leaves), in that order.
std::vector<std::string> ShortPaths(const std::vector<int64_t>& parent,
  const std::vector<std::string>& name, const std::vector<std::size_t>& vertices);

/// ShortPath of every vertex of `tree` (small trees and tests: the memory
/// is that of all the paths).
std::vector<std::string> HierarchyPaths(const HierarchyTree& tree);

/// A name quoted for an error message: whole when short, else its first
/// bytes and its length, so that a message never carries a huge name.
std::string QuotedExcerpt(std::string_view text);

/// Regroups `trace` (whose leaf l is vertex `leafVertex[l]`) by `file`. A
/// file leaf matches the trace vertex whose path equals it, or else the one
/// vertex of that name; the matched vertex's subtree (e.g. a rank with its
/// threads) takes the file leaf's place. Trace leaves no file leaf covers
/// keep their topmost wholly-uncovered ancestor's subtree below an
/// "unplaced" vertex under the root. Throws HierarchyFileError (naming
/// `source`) when a name matches several vertices or two file leaves cover
/// one trace leaf; std::invalid_argument when `trace` is malformed.
RegroupedHierarchy RegroupHierarchy(const HierarchyTree& trace,
  const std::vector<std::size_t>& leafVertex, const HierarchyTree& file, const std::string& source);

}
