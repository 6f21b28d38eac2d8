/**
 * @class vtkMacroscopeMetricOverviewLayout
 * @brief Ravel's metric overview (Isaacs et al. 2014 (Ravel) §4.4) as
 * polydata: a bar per global step of the trace, as tall as the metric
 * summed over the step's events relative to the largest sum, with
 * StepWindow highlighted.
 *
 * Input: the outputs of Logical Time. The sums are the Steps table's
 * MetricSum; without a Steps table they are summed from the Logical Events'
 * Metric. Every global step of the trace is drawn, whatever the window;
 * sums <= 0 draw no bar. The bars inside StepWindow are drawn darker, over a
 * band marking the window.
 *
 * Outputs: Marks (the band, then one quad per step with a height; cell
 * arrays GlobalStep (-1 for the band), Value, InWindow and Color), Lines
 * (empty), Guides (frame, step axis), Labels (axis, largest sum), Legend.
 */
#ifndef vtkMacroscopeMetricOverviewLayout_h
#define vtkMacroscopeMetricOverviewLayout_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkMacroscopeLogicalLayout.h"

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeMetricOverviewLayout
  : public vtkMacroscopeLogicalLayout
{
public:
  static vtkMacroscopeMetricOverviewLayout* New();
  vtkTypeMacro(vtkMacroscopeMetricOverviewLayout, vtkMacroscopeLogicalLayout);
  void PrintSelf(ostream& os, vtkIndent indent) override;

protected:
  vtkMacroscopeMetricOverviewLayout();
  ~vtkMacroscopeMetricOverviewLayout() override;

  int Draw(const Tables& tables, vtkPolyData* outputs[NUMBER_OF_OUTPUTS]) override;

private:
  vtkMacroscopeMetricOverviewLayout(const vtkMacroscopeMetricOverviewLayout&) = delete;
  void operator=(const vtkMacroscopeMetricOverviewLayout&) = delete;
};

#endif
