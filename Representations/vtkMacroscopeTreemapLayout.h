/**
 * @class vtkMacroscopeTreemapLayout
 * @brief Lays a Resource Treemap table out as Triva's treemap (Schnorr
 * 2009 (Triva) §4.4 and §5.5): nested rectangles of ViewSize pixels, one per
 * hierarchy node, each node of the cut divided among its types.
 *
 * Input: the Treemap output of Resource Treemap (rows root first, with
 * Parent, Size, Cut, Values, Name...). The tree is laid out with the
 * squarified algorithm (or slice-and-dice, for comparison) of
 * Core/Treemap.h: a node's area is proportional to its Size, and
 * each inner node keeps Margin pixels on every side and a Header band on top
 * for its name, which shows the hierarchy. The rectangle of a node of the
 * cut is tiled by its types (squarified, areas proportional to the node's
 * per-type values) in the types' colours: an aggregated node shows the
 * proportions of all its resources.
 *
 * Outputs (the ports of vtkMacroscopeOverviewLayout):
 * - Marks: the quads of the types of the cut nodes (z = 0) and of the
 *   inner nodes' frames (behind, shaded by depth), with cell arrays Row
 *   (the input row), "vtkOriginalCellIds" (the same: the id a pick in the
 *   view returns), Name, Path, Type, TypeName, Value, Share and RGBA Color;
 * - Marking: a diagonal across every node of the cut that aggregates
 *   several resources, so that aggregates read as such (Dosimont et al.
 *   2014 (VPA) §III-C);
 * - Guides: the outline of every node;
 * - Labels: a node's name where it fits (inner nodes in their header,
 *   nodes of the cut at their top), and the title;
 * - Legend: the types drawn, largest total area first.
 */
#ifndef vtkMacroscopeTreemapLayout_h
#define vtkMacroscopeTreemapLayout_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkMacroscopeOverviewLayout.h"

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeTreemapLayout
  : public vtkMacroscopeOverviewLayout
{
public:
  static vtkMacroscopeTreemapLayout* New();
  vtkTypeMacro(vtkMacroscopeTreemapLayout, vtkMacroscopeOverviewLayout);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum Algorithms
  {
    SQUARIFIED = 0,
    SLICE_AND_DICE = 1,
    ORDERED_SQUARIFIED = 2
  };

  ///@{
  /**
   * The treemap algorithm (default SQUARIFIED).
   */
  vtkSetMacro(Algorithm, int);
  vtkGetMacro(Algorithm, int);
  ///@}

  ///@{
  /**
   * Pixels kept free inside every inner node on each side (default 3): the
   * nesting that shows the hierarchy. 0 fills the view with the leaves.
   */
  vtkSetMacro(Margin, double);
  vtkGetMacro(Margin, double);
  ///@}

  ///@{
  /**
   * Height in pixels of the band kept at the top of every inner node for
   * its name (default 16; 0 for none).
   */
  vtkSetMacro(Header, double);
  vtkGetMacro(Header, double);
  ///@}

  ///@{
  /**
   * Font size in points the labels will be drawn with (default 12): a name
   * is drawn only where a text of this size fits in its rectangle.
   */
  vtkSetMacro(LabelFontSize, int);
  vtkGetMacro(LabelFontSize, int);
  ///@}

protected:
  vtkMacroscopeTreemapLayout();
  ~vtkMacroscopeTreemapLayout() override;

  int Draw(vtkTable* input, vtkPolyData* outputs[NUMBER_OF_OUTPUTS]) override;

private:
  vtkMacroscopeTreemapLayout(const vtkMacroscopeTreemapLayout&) = delete;
  void operator=(const vtkMacroscopeTreemapLayout&) = delete;

  int Algorithm = SQUARIFIED;
  double Margin = 3.0;
  double Header = 16.0;
  int LabelFontSize = 12;

#ifndef __VTK_WRAP__
  // The stages of Draw (what one stage hands the next is in Run).
  struct Run;
  bool CheckProperties();
  bool ReadTable(Run& run);
  bool Layout(Run& run);
  void DrawNode(Run& run, vtkIdType row);
  void DrawTitle(Run& run);
  void DrawLegend(Run& run);
#endif
};

#endif
