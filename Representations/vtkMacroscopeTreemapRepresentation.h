/**
 * @class vtkMacroscopeTreemapRepresentation
 * @brief The "Treemap" display of a Resource Treemap table in a Render
 * View: Triva's treemap of the resource hierarchy (Schnorr 2009
 * (Triva) §4.4 and §5.5).
 *
 * Lays the table out with vtkMacroscopeTreemapLayout and draws it like the
 * other Macroscope charts. Picking a rectangle in the view selects the
 * table row of its node: the selection's ids are rows of the Treemap
 * table, whose Name and Path columns identify the resource.
 */
#ifndef vtkMacroscopeTreemapRepresentation_h
#define vtkMacroscopeTreemapRepresentation_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkMacroscopeChartRepresentation.h"
#include "vtkNew.h" // for vtkNew

class vtkMacroscopeTreemapLayout;

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeTreemapRepresentation
  : public vtkMacroscopeChartRepresentation
{
public:
  static vtkMacroscopeTreemapRepresentation* New();
  vtkTypeMacro(vtkMacroscopeTreemapRepresentation, vtkMacroscopeChartRepresentation);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /**
   * Forwarded to the layout (see vtkMacroscopeTreemapLayout): the treemap's
   * size in pixels, its algorithm, the margins and header of inner nodes.
   */
  void SetAlgorithm(int algorithm);
  void SetMargin(double pixels);
  void SetHeader(double pixels);
  ///@}

  /**
   * Also tells the layout, which draws only the names that fit.
   */
  void SetLabelFontSize(int size) override;

  /**
   * The layout filter (for tests).
   */
  vtkMacroscopeTreemapLayout* GetTreemapLayout();

protected:
  vtkMacroscopeTreemapRepresentation();
  ~vtkMacroscopeTreemapRepresentation() override;

  vtkAlgorithm* Layout(vtkInformationVector** inputVector) override;
  void GetChartSize(int size[2]) override;
  void SetLayoutSize(int width, int height) override;
  /// No axes nor row labels: the treemap, its title above, the legend.
  void GetChartBounds(const int size[2], double bounds[6]) override;

private:
  vtkMacroscopeTreemapRepresentation(const vtkMacroscopeTreemapRepresentation&) = delete;
  void operator=(const vtkMacroscopeTreemapRepresentation&) = delete;

  vtkNew<vtkMacroscopeTreemapLayout> TreemapLayout;
};

#endif
