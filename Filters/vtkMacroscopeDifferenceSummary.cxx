#include "vtkMacroscopeDifferenceSummary.h"

#include "MacroscopeModelInput.h"
#include "MacroscopeTraceColumns.h"
#include "ModelDifference.h"

#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkIntArray.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkStringArray.h"
#include "vtkTable.h"

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

vtkStandardNewMacro(vtkMacroscopeDifferenceSummary);

void vtkMacroscopeDifferenceSummary::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Count: " << this->Count << "\n";
  os << indent << "OnsetFraction: " << this->OnsetFraction << "\n";
}

namespace
{
// The hierarchy's node names, made unique: a name borne by several nodes
// ("Master thread" under every process) becomes the node's path below the
// root ("node-5/MPI Rank 20/Master thread"), from NodeParent.
std::vector<std::string> UniqueNodeNames(vtkFieldData* fields, vtkStringArray* names)
{
  auto* parents = vtkDataArray::SafeDownCast(fields->GetAbstractArray("NodeParent"));
  const vtkIdType nodes = names->GetNumberOfValues();
  std::map<std::string, int> uses;
  for (vtkIdType r = 0; r < nodes; ++r)
  {
    ++uses[names->GetValue(r)];
  }
  std::vector<std::string> unique;
  for (vtkIdType r = 0; r < nodes; ++r)
  {
    std::string name = names->GetValue(r);
    if (parents && parents->GetNumberOfTuples() == nodes && uses[name] > 1)
    {
      vtkIdType up = static_cast<vtkIdType>(parents->GetTuple1(r));
      // Stop below the root (the vertex without a parent); the bound on the
      // walk guards against a cycle in a corrupt hierarchy.
      for (vtkIdType steps = 0; up >= 0 && up < nodes && steps < nodes; ++steps)
      {
        const vtkIdType above = static_cast<vtkIdType>(parents->GetTuple1(up));
        if (above < 0)
        {
          break;
        }
        name = names->GetValue(up) + "/" + name;
        up = above;
      }
    }
    unique.push_back(name);
  }
  return unique;
}

// Field data "Onset" (a sentence), "OnsetResources" and "OnsetWindow": where
// the runs start to differ (macroscope::FirstDifferingPart).
void AddOnset(vtkTable* output, const std::vector<macroscope::DifferencePart>& parts,
  const std::vector<macroscope::RankedPart>& ranked,
  const std::function<std::vector<std::string>(const macroscope::DifferencePart&)>& leafNames,
  const std::vector<std::string>& types, double fraction)
{
  const std::size_t first = macroscope::FirstDifferingPart(parts, ranked, fraction);
  vtkNew<vtkStringArray> onset;
  onset->SetName("Onset");
  vtkNew<vtkStringArray> onsetResources;
  onsetResources->SetName("OnsetResources");
  vtkNew<vtkDoubleArray> onsetWindow;
  onsetWindow->SetName("OnsetWindow");
  if (first < ranked.size())
  {
    const macroscope::DifferencePart& part = parts[ranked[first].Part];
    const std::vector<std::string> leaves = leafNames(part);
    onset->InsertNextValue(macroscope::DescribeOnset(part, ranked[first], leaves, types));
    std::string joined;
    for (const std::string& leaf : leaves)
    {
      joined += (joined.empty() ? "" : ";") + leaf;
    }
    onsetResources->InsertNextValue(joined);
    onsetWindow->InsertNextValue(part.Start);
    onsetWindow->InsertNextValue(part.End);
  }
  else
  {
    onset->InsertNextValue("The runs do not differ.");
  }
  output->GetFieldData()->AddArray(onset);
  output->GetFieldData()->AddArray(onsetResources);
  output->GetFieldData()->AddArray(onsetWindow);
}
}

int vtkMacroscopeDifferenceSummary::RequestData(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  // An abort stops the run it interrupts; VTK leaves the flag set, which
  // would abort every later run too (docs/progress.md).
  this->SetAbortExecute(0);
  if (MacroscopeModelInput::IsLaterPiece(outputVector->GetInformationObject(0)))
  {
    return 1; // piece 0 holds the table, as it holds the partition
  }
  if (this->Count < 1)
  {
    vtkErrorMacro("Count must be at least 1 (got " << this->Count << ").");
    return 0;
  }
  if (!(this->OnsetFraction > 0.0 && this->OnsetFraction <= 1.0))
  {
    vtkErrorMacro("OnsetFraction must be in (0, 1] (got " << this->OnsetFraction << ").");
    return 0;
  }
  vtkTable* partition = vtkTable::GetData(inputVector[0]);
  vtkFieldData* fields = partition ? partition->GetFieldData() : nullptr;
  auto column = [partition](const char* name)
  { return partition ? partition->GetColumnByName(name) : nullptr; };
  auto* nodeName = vtkStringArray::SafeDownCast(column("NodeName"));
  auto* firstLeaf = vtkDataArray::SafeDownCast(column("FirstLeaf"));
  auto* lastLeaf = vtkDataArray::SafeDownCast(column("LastLeaf"));
  auto* start = vtkDataArray::SafeDownCast(column("Start"));
  auto* end = vtkDataArray::SafeDownCast(column("End"));
  auto* mean = vtkDataArray::SafeDownCast(column("Mean"));
  auto* names =
    fields ? vtkStringArray::SafeDownCast(fields->GetAbstractArray("NodeName")) : nullptr;
  auto* typeNames =
    fields ? vtkStringArray::SafeDownCast(fields->GetAbstractArray("TypeName")) : nullptr;
  if (!nodeName || !firstLeaf || !lastLeaf || !start || !end || !mean || !names || !typeNames ||
    mean->GetNumberOfComponents() != typeNames->GetNumberOfValues())
  {
    vtkErrorMacro("The input is not a partition: give it the Partition output of an aggregation "
                  "filter (Temporal, Spatial or Spatiotemporal Aggregation) run on a Model "
                  "Difference.");
    return 0;
  }
  auto* partNode = vtkDataArray::SafeDownCast(column("Node"));
  const std::vector<std::string> nodeNames = UniqueNodeNames(fields, names);
  std::vector<std::string> types;
  for (vtkIdType u = 0; u < typeNames->GetNumberOfValues(); ++u)
  {
    types.push_back(typeNames->GetValue(u));
  }
  std::vector<macroscope::DifferencePart> parts(
    static_cast<std::size_t>(partition->GetNumberOfRows()));
  for (std::size_t i = 0; i < parts.size(); ++i)
  {
    const vtkIdType row = static_cast<vtkIdType>(i);
    macroscope::DifferencePart& part = parts[i];
    const double nodeIndex = partNode ? partNode->GetComponent(row, 0) : -1.0;
    part.NodeName = nodeIndex >= 0 && nodeIndex < static_cast<double>(nodeNames.size())
      ? nodeNames[static_cast<std::size_t>(nodeIndex)]
      : nodeName->GetValue(row);
    const double first = firstLeaf->GetComponent(row, 0);
    const double last = lastLeaf->GetComponent(row, 0);
    if (!(first >= 0 && last >= first && last < names->GetNumberOfValues()))
    {
      vtkErrorMacro("Partition row " << i << " covers resources " << first << " to " << last
                                     << ", outside the " << names->GetNumberOfValues()
                                     << " nodes of its hierarchy.");
      return 0;
    }
    part.FirstResource = static_cast<uint32_t>(first);
    part.LastResource = static_cast<uint32_t>(last);
    part.Start = start->GetComponent(row, 0);
    part.End = end->GetComponent(row, 0);
    for (int u = 0; u < mean->GetNumberOfComponents(); ++u)
    {
      part.Mean.push_back(mean->GetComponent(row, u));
    }
  }
  const std::vector<macroscope::RankedPart> ranked = macroscope::RankDifferenceParts(parts);

  vtkTable* output = vtkTable::GetData(outputVector, 0);
  auto* rank = MacroscopeNewColumn<vtkIntArray>(output, "Rank");
  auto* node = MacroscopeNewColumn<vtkStringArray>(output, "NodeName");
  auto* resources = MacroscopeNewColumn<vtkStringArray>(output, "Resources");
  auto* startColumn = MacroscopeNewColumn<vtkDoubleArray>(output, "Start");
  auto* endColumn = MacroscopeNewColumn<vtkDoubleArray>(output, "End");
  auto* meanDifference = MacroscopeNewColumn<vtkDoubleArray>(output, "MeanDifference");
  auto* modeName = MacroscopeNewColumn<vtkStringArray>(output, "ModeName");
  // Resource rows are the first nodes of the hierarchy (model layout). When
  // two resources share a name ("Master thread" under every process), they
  // are named by their path from below the root instead, so that the
  // summary designates them.
  auto leafNames = [&nodeNames](const macroscope::DifferencePart& part)
  {
    std::vector<std::string> leaves;
    for (uint32_t r = part.FirstResource; r <= part.LastResource && r < nodeNames.size(); ++r)
    {
      leaves.push_back(nodeNames[r]);
    }
    return leaves;
  };
  const std::size_t kept =
    std::min<std::size_t>(ranked.size(), static_cast<std::size_t>(this->Count));
  for (std::size_t k = 0; k < kept; ++k)
  {
    const macroscope::DifferencePart& part = parts[ranked[k].Part];
    std::string joined;
    for (const std::string& leaf : leafNames(part))
    {
      joined += (joined.empty() ? "" : ";") + leaf;
    }
    rank->InsertNextValue(static_cast<int>(k) + 1);
    node->InsertNextValue(part.NodeName);
    resources->InsertNextValue(joined);
    startColumn->InsertNextValue(part.Start);
    endColumn->InsertNextValue(part.End);
    meanDifference->InsertNextValue(ranked[k].MeanDifference);
    modeName->InsertNextValue(ranked[k].Mode < types.size() ? types[ranked[k].Mode] : "");
  }
  vtkNew<vtkStringArray> summary;
  summary->SetName("Summary");
  summary->InsertNextValue(ranked.empty()
      ? std::string("The partition is empty: nothing to compare.")
      : macroscope::DescribeDifference(
          parts[ranked[0].Part], ranked[0], leafNames(parts[ranked[0].Part]), types));
  output->GetFieldData()->AddArray(summary);
  AddOnset(output, parts, ranked, leafNames, types, this->OnsetFraction);
  return 1;
}
