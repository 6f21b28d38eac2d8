#include "vtkMacroscopeOverviewRepresentation.h"

#include "vtkMacroscopeSpatiotemporalOverviewLayout.h"
#include "vtkMacroscopeTemporalOverviewLayout.h"

#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkObjectFactory.h"
#include "vtkTable.h"

vtkStandardNewMacro(vtkMacroscopeOverviewRepresentation);

vtkMacroscopeOverviewRepresentation::vtkMacroscopeOverviewRepresentation()
{
  using Layout = vtkMacroscopeOverviewLayout; // both overviews' outputs
  this->SetLayers(Layout::NUMBER_OF_OUTPUTS, Layout::LABELS, Layout::LEGEND, Layout::GUIDES);
}

vtkMacroscopeOverviewRepresentation::~vtkMacroscopeOverviewRepresentation() = default;

void vtkMacroscopeOverviewRepresentation::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Overview: " << (this->Overview == TEMPORAL ? "temporal" : "spatiotemporal")
     << "\n";
}

void vtkMacroscopeOverviewRepresentation::SetOverview(int overview)
{
  if (overview != TEMPORAL && overview != SPATIOTEMPORAL)
  {
    vtkErrorMacro("Overview must be 0 (temporal) or 1 (spatiotemporal), not " << overview << ".");
    return;
  }
  if (overview != this->Overview)
  {
    this->Overview = overview;
    this->MarkModified();
  }
}

void vtkMacroscopeOverviewRepresentation::SetLayoutSize(int width, int height)
{
  this->TemporalLayout->SetViewSize(width, height);
  this->SpatiotemporalLayout->SetViewSize(width, height);
}

void vtkMacroscopeOverviewRepresentation::SetMinLayerHeight(double pixels)
{
  this->TemporalLayout->SetMinLayerHeight(pixels);
  this->MarkModified();
}

void vtkMacroscopeOverviewRepresentation::SetMinRowHeight(double pixels)
{
  this->SpatiotemporalLayout->SetMinRowHeight(pixels);
  this->MarkModified();
}

void vtkMacroscopeOverviewRepresentation::SetGroupLevel(int level)
{
  this->SpatiotemporalLayout->SetGroupLevel(level);
  this->MarkModified();
}

void vtkMacroscopeOverviewRepresentation::SetSignedDifference(bool signedDifference)
{
  this->SpatiotemporalLayout->SetSignedDifference(signedDifference);
  this->MarkModified();
}

vtkMacroscopeTemporalOverviewLayout* vtkMacroscopeOverviewRepresentation::GetTemporalLayout()
{
  return this->TemporalLayout;
}

vtkMacroscopeSpatiotemporalOverviewLayout*
vtkMacroscopeOverviewRepresentation::GetSpatiotemporalLayout()
{
  return this->SpatiotemporalLayout;
}

void vtkMacroscopeOverviewRepresentation::GetChartSize(int size[2])
{
  this->TemporalLayout->GetViewSize(size);
}

vtkAlgorithm* vtkMacroscopeOverviewRepresentation::Layout(vtkInformationVector** inputVector)
{
  vtkTable* partition = vtkTable::GetData(inputVector[0], 0);
  vtkMacroscopeOverviewLayout* layout = this->Overview == TEMPORAL
    ? static_cast<vtkMacroscopeOverviewLayout*>(this->TemporalLayout)
    : static_cast<vtkMacroscopeOverviewLayout*>(this->SpatiotemporalLayout);
  layout->SetInputDataObject(0, partition);
  layout->SetTypeColors(this->GetTypeColors());
  layout->SetLabelFontSize(this->GetLabelFontSize()); // docs/labels.md
  // A layout that cannot draw its input says why and outputs nothing.
  layout->Update();
  return layout;
}
