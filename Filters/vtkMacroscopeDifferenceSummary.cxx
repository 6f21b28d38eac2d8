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
#include <string>
#include <vector>

vtkStandardNewMacro(vtkMacroscopeDifferenceSummary);

void vtkMacroscopeDifferenceSummary::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Count: " << this->Count << "\n";
}

int vtkMacroscopeDifferenceSummary::RequestData(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  if (MacroscopeModelInput::IsLaterPiece(outputVector->GetInformationObject(0)))
  {
    return 1; // piece 0 holds the table, as it holds the partition
  }
  if (this->Count < 1)
  {
    vtkErrorMacro("Count must be at least 1 (got " << this->Count << ").");
    return 0;
  }
  vtkTable* partition = vtkTable::GetData(inputVector[0]);
  vtkFieldData* fields = partition ? partition->GetFieldData() : nullptr;
  auto column = [partition](const char* name) {
    return partition ? partition->GetColumnByName(name) : nullptr;
  };
  auto* nodeName = vtkStringArray::SafeDownCast(column("NodeName"));
  auto* firstLeaf = vtkDataArray::SafeDownCast(column("FirstLeaf"));
  auto* lastLeaf = vtkDataArray::SafeDownCast(column("LastLeaf"));
  auto* start = vtkDataArray::SafeDownCast(column("Start"));
  auto* end = vtkDataArray::SafeDownCast(column("End"));
  auto* mean = vtkDataArray::SafeDownCast(column("Mean"));
  auto* names = fields ? vtkStringArray::SafeDownCast(fields->GetAbstractArray("NodeName")) : nullptr;
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
  std::vector<std::string> types;
  for (vtkIdType u = 0; u < typeNames->GetNumberOfValues(); ++u)
  {
    types.push_back(typeNames->GetValue(u));
  }
  std::vector<macroscope::DifferencePart> parts(static_cast<std::size_t>(partition->GetNumberOfRows()));
  for (std::size_t i = 0; i < parts.size(); ++i)
  {
    const vtkIdType row = static_cast<vtkIdType>(i);
    macroscope::DifferencePart& part = parts[i];
    part.NodeName = nodeName->GetValue(row);
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
  // Resource rows are the first nodes of the hierarchy (model layout).
  auto leafNames = [&names](const macroscope::DifferencePart& part) {
    std::vector<std::string> leaves;
    for (uint32_t r = part.FirstResource; r <= part.LastResource; ++r)
    {
      leaves.push_back(names->GetValue(r));
    }
    return leaves;
  };
  const std::size_t kept = std::min<std::size_t>(ranked.size(), static_cast<std::size_t>(this->Count));
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
  return 1;
}
