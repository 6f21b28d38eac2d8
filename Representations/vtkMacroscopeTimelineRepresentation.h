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
#include "vtkMacroscopeChartRepresentation.h"
#include "vtkNew.h" // for vtkNew

class vtkMacroscopeTimelineLayout;

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeTimelineRepresentation
  : public vtkMacroscopeChartRepresentation
{
public:
  static vtkMacroscopeTimelineRepresentation* New();
  vtkTypeMacro(vtkMacroscopeTimelineRepresentation, vtkMacroscopeChartRepresentation);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /**
   * Forwarded to vtkMacroscopeTimelineLayout (see there).
   */
  void SetTimeWindow(double start, double end);
  void SetRowWindow(int first, int last);
  void SetMinMarkWidth(double pixels);
  void SetMinRowHeight(double pixels);
  void SetDepth(int depth);
  void SetShowMessages(bool show);
  void SetMaxMessagesPerPixel(int count);
  void SetGroupLevel(int level);
  void SetAggregateStyle(int style);
  void SetTitle(const char* title);
  void AddResource(const char* name);
  void RemoveAllResources();
  void AddType(const char* name);
  void RemoveAllTypes();
  ///@}

  /**
   * The layout filter drawing this representation (for tests).
   */
  vtkMacroscopeTimelineLayout* GetLayout();

protected:
  vtkMacroscopeTimelineRepresentation();
  ~vtkMacroscopeTimelineRepresentation() override;

  vtkAlgorithm* Layout(vtkInformationVector** inputVector) override;
  void GetChartSize(int size[2]) override;
  void SetLayoutSize(int width, int height) override;
  bool GetTraceSpan(double span[2]) override;

private:
  vtkMacroscopeTimelineRepresentation(const vtkMacroscopeTimelineRepresentation&) = delete;
  void operator=(const vtkMacroscopeTimelineRepresentation&) = delete;

  vtkNew<vtkMacroscopeTimelineLayout> TimelineLayout;
  double TraceSpan[2] = { 0.0, 0.0 };
  bool HasTraceSpan = false;
};

#endif
