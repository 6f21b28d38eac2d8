/**
 * @class vtkMacroscopeOverviewRepresentation
 * @brief Ocelotl's overviews in a Render View: the "Temporal Overview"
 * (stacked bars over time) and the "Spatiotemporal Overview" (aggregates as
 * resources × time rectangles) of a Partition table.
 *
 * Shown on the Partition output of a Macroscope aggregation filter, it lays
 * the parts out with vtkMacroscopeTemporalOverviewLayout or
 * vtkMacroscopeSpatiotemporalOverviewLayout (the Overview property) and
 * draws them with their visual aggregation marks, axes, labels and legend.
 * Changing p on the aggregation filter re-runs only its optimisation (the
 * qualities are kept) and this layout: a new p redraws without recomputing.
 */
#ifndef vtkMacroscopeOverviewRepresentation_h
#define vtkMacroscopeOverviewRepresentation_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkMacroscopeChartRepresentation.h"
#include "vtkNew.h" // for vtkNew

class vtkMacroscopeSpatiotemporalOverviewLayout;
class vtkMacroscopeTemporalOverviewLayout;

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeOverviewRepresentation
  : public vtkMacroscopeChartRepresentation
{
public:
  static vtkMacroscopeOverviewRepresentation* New();
  vtkTypeMacro(vtkMacroscopeOverviewRepresentation, vtkMacroscopeChartRepresentation);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum Overviews
  {
    TEMPORAL = 0,
    SPATIOTEMPORAL = 1
  };

  ///@{
  /**
   * Which overview to draw (default TEMPORAL).
   */
  void SetOverview(int overview);
  int GetOverview() const { return this->Overview; }
  ///@}

  ///@{
  /**
   * Forwarded to the layouts (see there): the chart's size in pixels, the
   * temporal overview's layer budget, and the spatiotemporal overview's row
   * budget and group level.
   */
  void SetMinLayerHeight(double pixels);
  void SetMinRowHeight(double pixels);
  void SetGroupLevel(int level);
  void SetSignedDifference(bool signedDifference);
  ///@}

  ///@{
  /**
   * The layout filters (for tests).
   */
  vtkMacroscopeTemporalOverviewLayout* GetTemporalLayout();
  vtkMacroscopeSpatiotemporalOverviewLayout* GetSpatiotemporalLayout();
  ///@}

protected:
  vtkMacroscopeOverviewRepresentation();
  ~vtkMacroscopeOverviewRepresentation() override;

  vtkAlgorithm* Layout(vtkInformationVector** inputVector) override;
  void GetChartSize(int size[2]) override;
  void SetLayoutSize(int width, int height) override;

private:
  vtkMacroscopeOverviewRepresentation(const vtkMacroscopeOverviewRepresentation&) = delete;
  void operator=(const vtkMacroscopeOverviewRepresentation&) = delete;

  int Overview = TEMPORAL;
  vtkNew<vtkMacroscopeTemporalOverviewLayout> TemporalLayout;
  vtkNew<vtkMacroscopeSpatiotemporalOverviewLayout> SpatiotemporalLayout;
};

#endif
