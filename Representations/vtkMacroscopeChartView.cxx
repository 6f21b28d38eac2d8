#include "vtkMacroscopeChartView.h"

#include "vtkCamera.h"
#include "vtkObjectFactory.h"
#include "vtkRenderWindow.h"
#include "vtkRenderer.h"

#include <algorithm>

vtkStandardNewMacro(vtkMacroscopeChartView);

vtkMacroscopeChartView::vtkMacroscopeChartView()
{
  this->Superclass::SetInteractionMode(INTERACTION_MODE_2D);
}

vtkMacroscopeChartView::~vtkMacroscopeChartView() = default;

void vtkMacroscopeChartView::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "FittedRegion: " << this->FittedRegion[0] << " " << this->FittedRegion[1] << " "
     << this->FittedRegion[2] << " " << this->FittedRegion[3] << "\n";
}

void vtkMacroscopeChartView::SetInteractionMode(int mode)
{
  this->Superclass::SetInteractionMode(mode == INTERACTION_MODE_3D ? INTERACTION_MODE_2D : mode);
}

void vtkMacroscopeChartView::GetFittedRegion(double bounds[6])
{
  std::copy(this->FittedRegion, this->FittedRegion + 6, bounds);
}

void vtkMacroscopeChartView::FitCamera()
{
  if (!this->GeometryBounds.IsValid() || this->Size[0] < 1 || this->Size[1] < 1)
  {
    return;
  }
  double bounds[6];
  this->GeometryBounds.GetBounds(bounds);
  const double width = std::max(bounds[1] - bounds[0], 1e-9);
  const double height = std::max(bounds[3] - bounds[2], 1e-9);
  const double aspect = static_cast<double>(this->Size[0]) / this->Size[1];
  // Half the height shown: the chart's, or more when the view is wider
  // than the chart in proportion, so that both fit (centred).
  const double scale = std::max(0.5 * height, 0.5 * width / aspect);
  const double center[3] = { 0.5 * (bounds[0] + bounds[1]), 0.5 * (bounds[2] + bounds[3]),
    0.5 * (bounds[4] + bounds[5]) };
  const double depth = std::max(bounds[5] - bounds[4], 1.0);

  vtkCamera* camera = this->GetActiveCamera();
  camera->ParallelProjectionOn();
  camera->SetFocalPoint(center);
  camera->SetPosition(center[0], center[1], bounds[5] + 10.0 * depth + 1.0);
  camera->SetViewUp(0.0, 1.0, 0.0);
  camera->SetParallelScale(scale);
  camera->SetClippingRange(1.0, 20.0 * depth + 2.0 + (bounds[5] - bounds[4]));

  this->FittedRegion[0] = center[0] - scale * aspect;
  this->FittedRegion[1] = center[0] + scale * aspect;
  this->FittedRegion[2] = center[1] - scale;
  this->FittedRegion[3] = center[1] + scale;
  this->FittedRegion[4] = bounds[4];
  this->FittedRegion[5] = bounds[5];
}

void vtkMacroscopeChartView::Render(bool interactive, bool skip_rendering)
{
  int tiles[2] = { 1, 1 };
  if (vtkRenderWindow* window = this->GetRenderWindow())
  {
    window->GetTileScale(tiles);
  }
  // A screenshot larger than the window renders tiles, each through a
  // camera the capture derives from the fitted one: keep it (the proxy
  // keeps the layout too, so both stay those of the last plain render).
  if (tiles[0] <= 1 && tiles[1] <= 1)
  {
    this->FitCamera();
  }
  this->Superclass::Render(interactive, skip_rendering);
}
