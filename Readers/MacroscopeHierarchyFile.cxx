#include "MacroscopeHierarchyFile.h"

#include "MacroscopeReaderOutputs.h"

#include "vtkDataArraySelection.h"
#include "vtkFieldData.h"
#include "vtkIdTypeArray.h"
#include "vtkNew.h"
#include "vtkStringArray.h"
#include "vtkTree.h"

#include <type_traits>
#include <utility>

namespace macroscope
{

void HierarchyRegrouping::AddTo(vtkFieldData* fields) const
{
  vtkNew<vtkStringArray> text;
  text->SetName("HierarchyFileReport");
  text->InsertNextValue(this->Report);
  fields->AddArray(text);
  const std::pair<const char*, uint64_t> counters[] = {
    { "HierarchyFileUnplacedLeaves", this->UnplacedLeaves },
    { "HierarchyFileUnmatchedLeaves", this->UnmatchedFileLeaves },
  };
  for (const auto& [name, value] : counters)
  {
    vtkNew<vtkIdTypeArray> array;
    array->SetName(name);
    array->InsertNextValue(static_cast<vtkIdType>(value));
    fields->AddArray(array);
  }
}

HierarchyRegrouping RegroupTraceHierarchy(const std::string& file,
  const otf2::HierarchyColumns& hierarchy, const std::vector<std::size_t>& leafVertex)
{
  const HierarchyTree tree = ReadHierarchyFile(file);
  const HierarchyTree trace{ hierarchy.Parent, hierarchy.Name, hierarchy.Kind };
  RegroupedHierarchy result = RegroupHierarchy(trace, leafVertex, tree, file);

  HierarchyRegrouping regrouping;
  regrouping.File = file;
  // The leaves' paths only: those of every vertex would cost the square of
  // the depth of a deep file.
  regrouping.NewPaths.reserve(leafVertex.size());
  for (std::size_t l = 0; l < leafVertex.size(); ++l)
  {
    regrouping.NewPaths.push_back(ShortPath(
      result.Tree.Parent, result.Tree.Name, result.LeafVertex[result.NewLeafOfOldLeaf[l]]));
  }
  regrouping.UnplacedLeaves = result.UnplacedLeaves.size();
  regrouping.UnmatchedFileLeaves = result.UnmatchedFileLeaves.size();
  const std::string mismatches = result.Describe();
  regrouping.Report = mismatches.empty() ? "" : "Hierarchy file " + file + ":\n" + mismatches;
  regrouping.Hierarchy.Parent = std::move(result.Tree.Parent);
  regrouping.Hierarchy.Name = std::move(result.Tree.Name);
  regrouping.Hierarchy.Kind = std::move(result.Tree.Kind);
  regrouping.Hierarchy.LeafIndex = std::move(result.LeafIndex);
  regrouping.LeafVertex = std::move(result.LeafVertex);
  regrouping.NewLeaf = std::move(result.NewLeafOfOldLeaf);
  return regrouping;
}

bool HierarchyFileTracker::Refresh(const std::string& file, const otf2::HierarchyColumns& hierarchy,
  const std::vector<std::size_t>& leafVertex)
{
  std::filesystem::file_time_type modified{};
  if (!file.empty())
  {
    std::error_code unknown; // a missing file is reported by the read below
    modified = std::filesystem::last_write_time(file, unknown);
  }
  if (this->Applied && this->File == file && this->Time == modified)
  {
    return false;
  }
  this->Applied = false;
  this->Current.reset();
  if (!file.empty())
  {
    this->Current =
      std::make_unique<HierarchyRegrouping>(RegroupTraceHierarchy(file, hierarchy, leafVertex));
  }
  this->Applied = true;
  this->File = file;
  this->Time = modified;
  return true;
}

std::vector<std::string> HierarchyFileTracker::Publish(const otf2::HierarchyColumns& traceHierarchy,
  const std::vector<std::string>& tracePaths, const std::string& traceFile,
  vtkDataArraySelection* locations, vtkSmartPointer<vtkTree>& tree) const
{
  const HierarchyRegrouping* regrouping = this->Current.get();
  tree = vtkSmartPointer<vtkTree>::New();
  readers::FillHierarchy(regrouping ? regrouping->Hierarchy : traceHierarchy, tree, traceFile);
  if (!regrouping)
  {
    readers::ResetSelection(locations, tracePaths);
    return tracePaths;
  }
  // The readers keep addressing leaves by their index in the trace; the
  // selection lists them in the new (depth-first) order.
  std::vector<std::string> ordered(regrouping->NewPaths.size());
  for (std::size_t l = 0; l < ordered.size(); ++l)
  {
    ordered[regrouping->NewLeaf[l]] = regrouping->NewPaths[l];
  }
  readers::ResetSelection(locations, ordered);
  return regrouping->NewPaths;
}

namespace
{
template <typename T>
void Renumber(const std::vector<uint32_t>& newLeaf, otf2::Column<T>& column)
{
  for (T& leaf : column)
  {
    // Negative (no leaf, e.g. Root of a non-collective) and unknown values stay.
    if ((!std::is_signed<T>::value || leaf >= T(0)) &&
      static_cast<std::size_t>(leaf) < newLeaf.size())
    {
      leaf = static_cast<T>(newLeaf[static_cast<std::size_t>(leaf)]);
    }
  }
}
}

void RenumberLeaves(const std::vector<uint32_t>& newLeaf, otf2::StateColumns& states,
  otf2::MessageColumns& messages, otf2::EventColumns& events, otf2::VariableColumns& variables)
{
  Renumber(newLeaf, states.Location);
  Renumber(newLeaf, messages.Sender);
  Renumber(newLeaf, messages.Receiver);
  Renumber(newLeaf, events.Location);
  Renumber(newLeaf, events.Root);
  Renumber(newLeaf, variables.Location);
}

std::string HierarchyFileTracker::Apply(const std::string& file,
  const otf2::HierarchyColumns& hierarchy, const std::vector<std::size_t>& leafVertex,
  const std::vector<std::string>& tracePaths, const std::string& traceFile,
  vtkDataArraySelection* locations, vtkSmartPointer<vtkTree>& tree, std::vector<std::string>& paths)
{
  if (!this->Refresh(file, hierarchy, leafVertex))
  {
    return {};
  }
  paths = this->Publish(hierarchy, tracePaths, traceFile, locations, tree);
  return this->Current ? this->Current->Report : std::string();
}

}
