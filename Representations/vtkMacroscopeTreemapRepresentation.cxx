#include "vtkMacroscopeTreemapRepresentation.h"

#include "vtkMacroscopeTreemapLayout.h"

#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkObjectFactory.h"
#include "vtkTable.h"

#include <algorithm>

vtkStandardNewMacro(vtkMacroscopeTreemapRepresentation);

vtkMacroscopeTreemapRepresentation::vtkMacroscopeTreemapRepresentation()
{
  using Layout = vtkMacroscopeTreemapLayout;
  this->SetLayers(Layout::NUMBER_OF_OUTPUTS, Layout::LABELS, Layout::LEGEND, Layout::GUIDES);
  this->SetSelectableLayer(Layout::MARKS);
}

vtkMacroscopeTreemapRepresentation::~vtkMacroscopeTreemapRepresentation() = default;

void vtkMacroscopeTreemapRepresentation::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "TreemapLayout: " << this->TreemapLayout.GetPointer() << "\n";
}

void vtkMacroscopeTreemapRepresentation::SetLayoutSize(int width, int height)
{
  this->TreemapLayout->SetViewSize(width, height);
}

void vtkMacroscopeTreemapRepresentation::SetAlgorithm(int algorithm)
{
  this->TreemapLayout->SetAlgorithm(algorithm);
  this->MarkModified();
}

void vtkMacroscopeTreemapRepresentation::SetMargin(double pixels)
{
  this->TreemapLayout->SetMargin(pixels);
  this->MarkModified();
}

void vtkMacroscopeTreemapRepresentation::SetHeader(double pixels)
{
  this->TreemapLayout->SetHeader(pixels);
  this->MarkModified();
}

void vtkMacroscopeTreemapRepresentation::SetLabelFontSize(int size)
{
  this->Superclass::SetLabelFontSize(size);
  this->TreemapLayout->SetLabelFontSize(size);
  this->MarkModified();
}

vtkMacroscopeTreemapLayout* vtkMacroscopeTreemapRepresentation::GetTreemapLayout()
{
  return this->TreemapLayout;
}

void vtkMacroscopeTreemapRepresentation::GetChartSize(int size[2])
{
  this->TreemapLayout->GetViewSize(size);
}

void vtkMacroscopeTreemapRepresentation::GetChartBounds(const int size[2], double bounds[6])
{
  const double chart[6] = { -10.0, size[0] + 260.0, -10.0, size[1] + 34.0, -1.0, 8.0 };
  std::copy(chart, chart + 6, bounds);
}

vtkAlgorithm* vtkMacroscopeTreemapRepresentation::Layout(vtkInformationVector** inputVector)
{
  this->TreemapLayout->SetInputDataObject(0, vtkTable::GetData(inputVector[0], 0));
  this->TreemapLayout->SetTypeColors(this->GetTypeColors());
  // A layout that cannot draw its input says why and outputs nothing.
  this->TreemapLayout->Update();
  return this->TreemapLayout;
}
