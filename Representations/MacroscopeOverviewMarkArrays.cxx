#include "MacroscopeOverviewMarkArrays.h"

#include "SpatiotemporalOverview.h"

#include "vtkCellData.h"

#include <initializer_list>

namespace
{
void Name(vtkAbstractArray* array, const char* name, vtkIdType count)
{
  array->SetName(name);
  array->Allocate(count);
}
}

MacroscopeOverviewMarkArrays::MacroscopeOverviewMarkArrays(vtkIdType count)
{
  Name(this->PartIds, "Part", count);
  Name(this->NodeIds, "Node", count);
  Name(this->Names, "NodeName", count);
  Name(this->Modes, "Type", count);
  Name(this->ModeNames, "TypeName", count);
  Name(this->Values, "Value", count);
  Name(this->SignedValues, "SignedValue", count);
  Name(this->Proportions, "ModeProportion", count);
  Name(this->Kinds, "VisualAggregate", count);
  Name(this->PartCounts, "PartCount", count);
  Name(this->FirstLeaves, "FirstLeaf", count);
  Name(this->LastLeaves, "LastLeaf", count);
  Name(this->FirstSlices, "FirstSlice", count);
  Name(this->LastSlices, "LastSlice", count);
  Name(this->Starts, "Start", count);
  Name(this->Ends, "End", count);
}

void MacroscopeOverviewMarkArrays::Add(
  const macroscope::OverviewMark& m, const std::string& node, const std::string& mode)
{
  this->PartIds->InsertNextValue(static_cast<int>(m.Part));
  this->NodeIds->InsertNextValue(m.Node);
  this->Names->InsertNextValue(node);
  this->Modes->InsertNextValue(static_cast<int>(m.Mode));
  this->ModeNames->InsertNextValue(mode);
  this->Values->InsertNextValue(m.Value);
  this->SignedValues->InsertNextValue(m.SignedValue);
  this->Proportions->InsertNextValue(m.ModeProportion);
  this->Kinds->InsertNextValue(static_cast<unsigned char>(m.Kind));
  this->PartCounts->InsertNextValue(static_cast<int>(m.PartCount));
  this->FirstLeaves->InsertNextValue(static_cast<int>(m.FirstLeaf));
  this->LastLeaves->InsertNextValue(static_cast<int>(m.LeafEnd) - 1);
  this->FirstSlices->InsertNextValue(m.FirstSlice);
  this->LastSlices->InsertNextValue(m.LastSlice);
  this->Starts->InsertNextValue(m.Start);
  this->Ends->InsertNextValue(m.End);
}

void MacroscopeOverviewMarkArrays::Into(vtkCellData* cells, bool signedScale)
{
  if (signedScale)
  {
    cells->AddArray(this->SignedValues);
  }
  for (vtkAbstractArray* array : std::initializer_list<vtkAbstractArray*>{ this->PartIds,
         this->NodeIds, this->Names, this->Modes, this->ModeNames, this->Values, this->Proportions,
         this->Kinds, this->PartCounts, this->FirstLeaves, this->LastLeaves, this->FirstSlices,
         this->LastSlices, this->Starts, this->Ends })
  {
    cells->AddArray(array);
  }
}
