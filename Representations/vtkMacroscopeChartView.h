/**
 * @class vtkMacroscopeChartView
 * @brief The Macroscope Chart View: a Render View for 2D charts that never
 * rotates and always shows its charts whole, one chart unit per pixel.
 *
 * Macroscope's 2D charts (Timeline, overviews, treemap, logical views) are
 * laid out in the pixels of the view they are shown in (docs/views.md): the
 * server-manager proxy (vtkSMMacroscopeChartViewProxy) pushes the view's
 * size to their representations, which lay out again when it changes. This
 * view keeps the camera a 2D one: parallel projection looking down -z, fitted
 * before every render to the bounds its representations report, so that a
 * chart made for the view's size fills it exactly. Zoom and pan change the
 * charts' time window instead of the camera (the proxy handles the mouse),
 * so the 3D interaction mode is refused and Reset Camera is the same fit.
 */
#ifndef vtkMacroscopeChartView_h
#define vtkMacroscopeChartView_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkPVRenderView.h"

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeChartView : public vtkPVRenderView
{
public:
  static vtkMacroscopeChartView* New();
  vtkTypeMacro(vtkMacroscopeChartView, vtkPVRenderView);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  /**
   * 3D interaction becomes 2D: a chart never rotates. Selection and zoom to
   * box stay available.
   */
  void SetInteractionMode(int mode) override;

  /**
   * Fits the camera to the charts: what Reset Camera means here, done
   * before every render too.
   */
  void FitCamera();

  /**
   * The region the camera showed at the last render, in chart units (for
   * the proxy's mouse handling and tests).
   */
  void GetFittedRegion(double bounds[6]);

protected:
  vtkMacroscopeChartView();
  ~vtkMacroscopeChartView() override;

  void Render(bool interactive, bool skip_rendering) override;

private:
  vtkMacroscopeChartView(const vtkMacroscopeChartView&) = delete;
  void operator=(const vtkMacroscopeChartView&) = delete;

  double FittedRegion[6] = { 0, 1, 0, 1, 0, 1 };
};

#endif
