// The HierarchyFile property of Macroscope's trace readers: regroups the
// decoded hierarchy by a JSON tree (Core/HierarchyFile.h) and
// renumbers the leaf columns of the tables to match. Private to Readers/;
// docs/hierarchy-file.md describes the file and the rules.
//
// Both trace readers keep a HierarchyFileTracker: refreshed in
// RequestInformation (it regroups the hierarchy when the file, its
// modification time or the trace changed), it gives the Hierarchy output and
// the Locations paths; RequestData renumbers the rows it outputs with
// RenumberLeaves.
#ifndef MacroscopeHierarchyFile_h
#define MacroscopeHierarchyFile_h

#include "HierarchyFile.h"
#include "OTF2TraceTables.h"

#include "vtkSmartPointer.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

class vtkDataArraySelection;
class vtkFieldData;
class vtkTree;

namespace macroscope
{

/// A hierarchy regrouped by a hierarchy file, and how the leaves moved.
struct HierarchyRegrouping
{
  std::string File;                    ///< the hierarchy file
  otf2::HierarchyColumns Hierarchy;    ///< the new hierarchy (single root, depth-first)
  std::vector<std::size_t> LeafVertex; ///< per new leaf: its row in Hierarchy
  std::vector<uint32_t> NewLeaf;       ///< per trace leaf: its new leaf index
  std::vector<std::string> NewPaths;   ///< per trace leaf: its path in the new hierarchy
  uint64_t UnplacedLeaves = 0;         ///< trace leaves the file does not name
  uint64_t UnmatchedFileLeaves = 0;    ///< file leaves naming nothing in the trace
  /// What did not match, a few lines naming the file; empty when all matched.
  std::string Report;

  /// Adds "HierarchyFileReport" (text) and the two counters
  /// "HierarchyFileUnplacedLeaves", "HierarchyFileUnmatchedLeaves" to `fields`.
  void AddTo(vtkFieldData* fields) const;
};

/// Reads `file` and regroups `hierarchy`, whose leaf l is row `leafVertex[l]`.
/// Throws HierarchyFileError naming the file.
HierarchyRegrouping RegroupTraceHierarchy(const std::string& file,
  const otf2::HierarchyColumns& hierarchy, const std::vector<std::size_t>& leafVertex);

/// Per leaf of `trace` (otf2::TraceInfo, paje::TraceData), its row in the
/// trace's hierarchy.
template <typename Trace>
std::vector<std::size_t> LeafVertices(const Trace& trace)
{
  std::vector<std::size_t> vertices;
  vertices.reserve(trace.Leaves.size());
  for (const auto& leaf : trace.Leaves)
  {
    vertices.push_back(leaf.Vertex);
  }
  return vertices;
}

/// Maps the leaf indexes of Location (States, Events, Variables), Sender,
/// Receiver (Messages) and Root (Events, -1 kept) through `newLeaf`.
void RenumberLeaves(const std::vector<uint32_t>& newLeaf, otf2::StateColumns& states,
  otf2::MessageColumns& messages, otf2::EventColumns& events, otf2::VariableColumns& variables);

/// The HierarchyFile a reader applied to its trace, so that it regroups
/// again only when the file name, the file's modification time or the trace
/// changes. Both trace readers keep one.
class HierarchyFileTracker
{
public:
  /// Regroups `hierarchy` (leaf l is row `leafVertex[l]`) by `file`, or goes
  /// back to the trace's own hierarchy when `file` is empty, unless that was
  /// already done since the last Reset(). Returns true when the regrouping
  /// changed. Throws HierarchyFileError naming the file.
  bool Refresh(const std::string& file, const otf2::HierarchyColumns& hierarchy,
    const std::vector<std::size_t>& leafVertex);
  /// A new trace: the next Refresh regroups again.
  void Reset() { this->Applied = false; }
  /// False before the first Refresh and after one that threw.
  bool IsApplied() const { return this->Applied; }
  /// The regrouping in force; null when the trace's own hierarchy is used.
  const HierarchyRegrouping* Regrouping() const { return this->Current.get(); }
  /// After a Refresh that returned true, what follows the hierarchy in
  /// force: `locations` reset to its leaf paths in the new leaf order, and
  /// `tree` rebuilt (FillHierarchy, a forest named after `traceFile`).
  /// `tracePaths` are the trace's own leaf paths; returns the paths in force
  /// per trace leaf, to look the Locations selection up with.
  std::vector<std::string> Publish(const otf2::HierarchyColumns& traceHierarchy,
    const std::vector<std::string>& tracePaths, const std::string& traceFile,
    vtkDataArraySelection* locations, vtkSmartPointer<vtkTree>& tree) const;

  /// Refresh, then, when the regrouping changed, Publish into `tree` and
  /// `paths`: what a reader's information pass does. Returns the
  /// regrouping's report of mismatches when it changed and has one (for a
  /// warning), else an empty string. Throws as Refresh.
  std::string Apply(const std::string& file, const otf2::HierarchyColumns& hierarchy,
    const std::vector<std::size_t>& leafVertex, const std::vector<std::string>& tracePaths,
    const std::string& traceFile, vtkDataArraySelection* locations, vtkSmartPointer<vtkTree>& tree,
    std::vector<std::string>& paths);

private:
  bool Applied = false;
  std::string File;
  std::filesystem::file_time_type Time{};
  std::unique_ptr<HierarchyRegrouping> Current;
};

}

#endif
