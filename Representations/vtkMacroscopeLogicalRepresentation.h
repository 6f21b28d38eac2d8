/**
 * @class vtkMacroscopeLogicalRepresentation
 * @brief Ravel's logical views in a Render View: the "Logical Timeline",
 * the "Clustered Logical Timeline" and the "Metric Overview" of the outputs
 * of Logical Time (Isaacs et al. 2014 (Ravel) §4).
 *
 * Shown on the Logical Events output, it finds the other outputs of the
 * same filter beside it (Logical Messages, Clusters, Steps, Phases), lays
 * them out with the layout of its View and draws them like the other
 * Macroscope charts. Shown on a lone Logical Events table, it draws what
 * the events alone give (no messages; sums and clusters from the events).
 */
#ifndef vtkMacroscopeLogicalRepresentation_h
#define vtkMacroscopeLogicalRepresentation_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkMacroscopeChartRepresentation.h"
#include "vtkNew.h" // for vtkNew

class vtkMacroscopeLogicalLayout;
class vtkMacroscopeLogicalTimelineLayout;
class vtkMacroscopeClusteredTimelineLayout;
class vtkMacroscopeMetricOverviewLayout;

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeLogicalRepresentation
  : public vtkMacroscopeChartRepresentation
{
public:
  static vtkMacroscopeLogicalRepresentation* New();
  vtkTypeMacro(vtkMacroscopeLogicalRepresentation, vtkMacroscopeChartRepresentation);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum Views
  {
    LOGICAL_TIMELINE = 0,
    CLUSTERED_TIMELINE = 1,
    METRIC_OVERVIEW = 2
  };

  ///@{
  /**
   * Which view to draw (default LOGICAL_TIMELINE).
   */
  void SetView(int view);
  int GetView() const { return this->View; }
  ///@}

  ///@{
  /**
   * Forwarded to every layout (see vtkMacroscopeLogicalLayout and
   * vtkMacroscopeClusteredTimelineLayout).
   */
  void SetStepWindow(vtkIdType first, vtkIdType last);
  void SetTimeWindow(double start, double end);
  void SetShowAggregates(bool show);
  void SetMaxMessages(vtkIdType count);
  void SetFocusRadius(int radius);
  void AddResource(const char* name);
  void RemoveAllResources();
  void AddType(const char* name);
  void RemoveAllTypes();
  ///@}

  /**
   * The layout of the current View (for tests).
   */
  vtkMacroscopeLogicalLayout* GetLayout();

protected:
  vtkMacroscopeLogicalRepresentation();
  ~vtkMacroscopeLogicalRepresentation() override;

  vtkAlgorithm* Layout(vtkInformationVector** inputVector) override;
  void GetChartSize(int size[2]) override;
  void SetLayoutSize(int width, int height) override;

private:
  vtkMacroscopeLogicalRepresentation(const vtkMacroscopeLogicalRepresentation&) = delete;
  void operator=(const vtkMacroscopeLogicalRepresentation&) = delete;

  int View = LOGICAL_TIMELINE;
  vtkNew<vtkMacroscopeLogicalTimelineLayout> TimelineLayout;
  vtkNew<vtkMacroscopeClusteredTimelineLayout> ClusteredLayout;
  vtkNew<vtkMacroscopeMetricOverviewLayout> OverviewLayout;
};

#endif
