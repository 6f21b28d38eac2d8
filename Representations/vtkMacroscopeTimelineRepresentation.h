/**
 * @class vtkMacroscopeTimelineRepresentation
 * @brief The "Timeline" representation: a trace shown as a Gantt chart in a
 * Render View.
 *
 * Shown on a trace table (the States output of a Macroscope reader,
 * usually), it finds the rest of the trace beside that table, on the other
 * outputs of the same reader, lays it out with vtkMacroscopeTimelineLayout
 * and draws marks, hatching, messages, the time axis, row labels and a
 * categorical legend of the types drawn. The layout's properties are
 * forwarded, so a TimeWindow change redraws only what the new window holds.
 *
 * Geometry is computed where the data is (each rank lays out its own
 * locations) and delivered through the view like any ParaView
 * representation's; labels and the legend are drawn once, over the
 * composited image.
 */
#ifndef vtkMacroscopeTimelineRepresentation_h
#define vtkMacroscopeTimelineRepresentation_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkNew.h"                          // for vtkNew
#include "vtkPVDataRepresentation.h"

class vtkActor;
class vtkActor2D;
class vtkLabeledDataMapper;
class vtkMacroscopeTimelineLayout;
class vtkPolyData;
class vtkPolyDataMapper;

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeTimelineRepresentation
  : public vtkPVDataRepresentation
{
public:
  static vtkMacroscopeTimelineRepresentation* New();
  vtkTypeMacro(vtkMacroscopeTimelineRepresentation, vtkPVDataRepresentation);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  int ProcessViewRequest(vtkInformationRequestKey* request, vtkInformation* inInfo,
    vtkInformation* outInfo) override;
  void SetVisibility(bool visible) override;

  /**
   * The marks drawn (the layout's first output), for the Information panel.
   */
  vtkDataObject* GetRenderedDataObject(int port) override;

  ///@{
  /**
   * Forwarded to vtkMacroscopeTimelineLayout (see there).
   */
  void SetTimeWindow(double start, double end);
  void SetViewSize(int width, int height);
  void SetMinMarkWidth(double pixels);
  void SetMinRowHeight(double pixels);
  void SetDepth(int depth);
  void SetShowMessages(bool show);
  void SetMaxMessagesPerPixel(int count);
  void SetGroupLevel(int level);
  void SetAggregateStyle(int style);
  ///@}

  ///@{
  /**
   * Show the row and tick labels (default on) and the legend (default on).
   */
  void SetShowLabels(bool show);
  void SetShowLegend(bool show);
  ///@}

  /**
   * Colour of the labels, axis and frame (default white, ParaView's text
   * colour on its default background).
   */
  void SetLabelColor(double red, double green, double blue);

  /**
   * Font size of the labels in points (default 12).
   */
  void SetLabelFontSize(int size);

  /**
   * The layout filter drawing this representation (for tests).
   */
  vtkMacroscopeTimelineLayout* GetLayout();

protected:
  vtkMacroscopeTimelineRepresentation();
  ~vtkMacroscopeTimelineRepresentation() override;

  int FillInputPortInformation(int port, vtkInformation* info) override;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
  bool AddToView(vtkView* view) override;
  bool RemoveFromView(vtkView* view) override;

private:
  vtkMacroscopeTimelineRepresentation(const vtkMacroscopeTimelineRepresentation&) = delete;
  void operator=(const vtkMacroscopeTimelineRepresentation&) = delete;

  void UpdateVisibilities();

  static constexpr int Layers = 6; // the layout's outputs
  vtkNew<vtkMacroscopeTimelineLayout> Layout;
  vtkNew<vtkPolyData> Pieces[Layers];
  vtkNew<vtkPolyDataMapper> Mappers[Layers]; // Labels has none: text below
  vtkNew<vtkActor> Actors[Layers];
  vtkNew<vtkLabeledDataMapper> LabelMapper;
  vtkNew<vtkActor2D> LabelActor;
  double Bounds[6] = { 0, 1, 0, 1, 0, 1 };
  bool ShowLabels = true;
  bool ShowLegend = true;
};

#endif
