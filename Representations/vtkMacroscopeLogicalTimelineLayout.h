/**
 * @class vtkMacroscopeLogicalTimelineLayout
 * @brief Ravel's logical timeline (Isaacs et al. 2014 (Ravel) §3.1 and
 * §4.1, Figs. 2 and 3) as polydata: one row per location, one column per global step,
 * events as equal boxes coloured by their metric, messages as lines.
 *
 * Input: the outputs of Logical Time (Logical Events required, Logical
 * Messages for the lines). Rows are the locations having events, by leaf
 * index, first at the top, named by the events' LocationNames field data.
 * Columns are the global steps of StepWindow, or only the communication
 * steps (odd global steps) without ShowAggregates. Aggregates
 * (non-communication events) take the middle half of their row, so that
 * they read apart from communication events. Boxes are inset and bordered
 * only when at least 8 x 8 pixels. Messages go from the centre of the send's
 * cell to the centre of the receive's; they are omitted when more than
 * MaxMessages meet the window or rows are under 2 pixels tall.
 *
 * Outputs: Marks (quads; cell arrays Event, Location, GlobalStep, Kind,
 * Metric, Color), Lines (messages with their Message row, -1 for borders;
 * field data MessagesInWindow, MessagesOmitted), Guides (frame, step axis),
 * Labels, Legend (the colour bar of the metric and the marks' key). Marks'
 * field data: StepWindow (the first and last global step drawn) and
 * MetricRange (the colour bar's range: every event of the trace).
 */
#ifndef vtkMacroscopeLogicalTimelineLayout_h
#define vtkMacroscopeLogicalTimelineLayout_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkMacroscopeLogicalLayout.h"

#ifndef __VTK_WRAP__
namespace MacroscopeChart
{
struct Labels;
}
#endif

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeLogicalTimelineLayout
  : public vtkMacroscopeLogicalLayout
{
public:
  static vtkMacroscopeLogicalTimelineLayout* New();
  vtkTypeMacro(vtkMacroscopeLogicalTimelineLayout, vtkMacroscopeLogicalLayout);
  void PrintSelf(ostream& os, vtkIndent indent) override;

protected:
  vtkMacroscopeLogicalTimelineLayout();
  ~vtkMacroscopeLogicalTimelineLayout() override;

  int Draw(const Tables& tables, vtkPolyData* outputs[NUMBER_OF_OUTPUTS]) override;

private:
  vtkMacroscopeLogicalTimelineLayout(const vtkMacroscopeLogicalTimelineLayout&) = delete;
  void operator=(const vtkMacroscopeLogicalTimelineLayout&) = delete;

#ifndef __VTK_WRAP__
  // The stages of Draw (what one stage hands the next is in Run).
  struct Run;
  int Layout(Run& run); ///< 0: failed, 1: aborted, 2: laid out
  bool EmitMarks(Run& run);
  void DrawLegend(Run& run, MacroscopeChart::Labels& labels);
#endif
};

#endif
