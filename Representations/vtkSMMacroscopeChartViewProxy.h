/**
 * @class vtkSMMacroscopeChartViewProxy
 * @brief Server-manager proxy of the Macroscope Chart View: pushes the
 * view's pixel size to its charts and turns the mouse into time zoom and pan.
 *
 * vtkSMViewProxy::Update runs a representation's pipeline only when a
 * property change marked it dirty, so a resize alone would never lay a
 * chart out again. Before every update this proxy copies the view's
 * ViewSize into the ViewPixelSize property of each representation that has
 * one: a property push, which reaches the representation on every rank
 * (client/server, pvbatch under MPI) and re-runs its layout only when the
 * size changed (docs/views.md).
 *
 * Mouse (when the view is in 2D interaction mode): the wheel zooms the time
 * window around the time under the pointer, a left drag pans it, a right
 * drag zooms it (up: in), always inside the trace's span
 * (Core/TimeNavigation.h). The window is the TimeWindow property of
 * the Timeline displays shown, and of the Time Slicing an overview is
 * computed from (the model is sliced again in the new window, as Ocelotl
 * does), so linked views (macroscope.links) follow and state files keep it.
 * Over a logical view the same gestures move its StepWindow; Ctrl + wheel
 * and the vertical part of a left drag move a Timeline's RowWindow.
 * ZoomTime, PanTime, ZoomSteps, PanSteps, ZoomRows and PanRows do the same
 * from scripts.
 */
#ifndef vtkSMMacroscopeChartViewProxy_h
#define vtkSMMacroscopeChartViewProxy_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkSMRenderViewProxy.h"

#include "vtkSmartPointer.h" // for vtkSmartPointer

#include <memory> // for std::unique_ptr
#include <vector> // for std::vector

class vtkCallbackCommand;

class MACROSCOPEREPRESENTATIONS_EXPORT vtkSMMacroscopeChartViewProxy : public vtkSMRenderViewProxy
{
public:
  static vtkSMMacroscopeChartViewProxy* New();
  vtkTypeMacro(vtkSMMacroscopeChartViewProxy, vtkSMRenderViewProxy);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  void Update() override;
  void SetupInteractor(vtkRenderWindowInteractor* iren) override;

  /**
   * Pushes the view's size to the representations now (Update does it).
   */
  void PushViewSize();

  /**
   * Zooms the time window of the charts shown by `factor` (< 1 in, > 1
   * out) around the time under display abscissa `displayX` (pixels from the
   * view's left; negative: the window's centre). False, with nothing
   * changed, when the view shows no chart along time or none was drawn yet.
   */
  bool ZoomTime(double factor, double displayX);

  /**
   * Moves the time window by the time `displayDx` pixels stand for
   * (positive: the chart follows the mouse to the right, showing earlier
   * times). False as ZoomTime.
   */
  bool PanTime(double displayDx);

  /**
   * The time window [t0, t1] the first chart along time drew, and the
   * trace's span (for scripts and tests). False as ZoomTime.
   */
  bool GetDrawnTimeWindow(double window[2]);
  bool GetTraceSpan(double span[2]);

  /**
   * The zoom across rows: the RowWindow of the Timelines shown scaled by
   * `factor` (< 1: fewer locations, taller rows) around the row under
   * display ordinate `displayY` (pixels from the view's bottom; negative:
   * the window's middle). False, with nothing changed, when no Timeline was
   * drawn. Ctrl + wheel does this.
   */
  bool ZoomRows(double factor, double displayY);

  /**
   * Moves the RowWindow of the Timelines shown by the rows `displayDy`
   * pixels stand for (positive: the rows follow the pointer up, showing
   * rows further down). False when no Timeline was drawn.
   */
  bool PanRows(double displayDy);

  /**
   * The zoom along steps: the StepWindow of the logical views shown scaled
   * by `factor` around the step under display abscissa `displayX`
   * (negative: the window's middle). A logical view that follows a shared
   * TimeWindow (whose steps override its StepWindow) is freed from it: its
   * own TimeWindow becomes (0, 0), the linked views keep theirs. False, with
   * nothing changed, when no logical view was drawn. The wheel does this.
   */
  bool ZoomSteps(double factor, double displayX);

  /**
   * Moves the StepWindow of the logical views shown by the steps
   * `displayDx` pixels stand for (positive: earlier steps). False as
   * ZoomSteps.
   */
  bool PanSteps(double displayDx);

  /**
   * Chart abscissa under display abscissa x, ordinate under display y.
   */
  double ChartXAt(double displayX);
  double ChartYAt(double displayY);

protected:
  vtkSMMacroscopeChartViewProxy();
  ~vtkSMMacroscopeChartViewProxy() override;

  void CreateVTKObjects() override;

private:
  vtkSMMacroscopeChartViewProxy(const vtkSMMacroscopeChartViewProxy&) = delete;
  void operator=(const vtkSMMacroscopeChartViewProxy&) = delete;

  struct Navigation;
  /// The time axis of the first visible chart along time; false if none.
  bool FindNavigation(Navigation& navigation);
  /// Writes `window` (whole span: (0, 0)) into every chart along time shown.
  void ApplyWindow(const Navigation& navigation, double start, double end);

  struct IndexAxis;
  /// The row axes ("RowWindow": the Timelines) or step axes ("StepWindow":
  /// the logical views) of the visible displays.
  std::vector<IndexAxis> FindIndexAxes(const char* property);
  /// Zooms every axis by `factor` around chart coordinate `pivot` (NaN:
  /// the middle of its window); true when one was drawn.
  static bool ZoomIndexAxes(const std::vector<IndexAxis>& axes, double factor, double pivot);
  /// Pans every axis by `delta` chart units; true when one was drawn.
  static bool PanIndexAxes(const std::vector<IndexAxis>& axes, double delta);
  static void OnMouse(vtkObject* caller, unsigned long event, void* self, void* data);
  void HandleMouse(unsigned long event);
  /// A press of the left (pan) or right (zoom) button: keeps the axes as
  /// drawn, which the drag then moves from; nothing when none is drawn.
  void StartDrag(bool zoom, const int position[2]);
  void MoveDrag(const int position[2]);
  /// Renders this view and every other view whose displays a link changed.
  void RenderChangedViews();

  struct Drag;
  std::unique_ptr<Drag> Dragging;
  vtkSmartPointer<vtkCallbackCommand> MouseCommand;
  unsigned long ObserverTags[8] = {};
  vtkRenderWindowInteractor* ObservedInteractor = nullptr;
};

#endif
