/**
 * @class vtkMacroscopeSpatiotemporalOverviewLayout
 * @brief Ocelotl's spatiotemporal overview of a partition as polydata, with
 * controlled visual aggregation.
 *
 * Takes the Partition table of a Temporal, Spatial or Spatiotemporal
 * Aggregation filter and draws, in the pixels of a ViewSize view (x along
 * the partition's TimeWindow from 0 to the width, y from 0 at the bottom to
 * the height, leaf 0 on the top row):
 *
 * - output 0, Marks: one quad per part, spanning its time interval and its
 *   resources' rows, coloured by its mode type with alpha = 255 × the mode's
 *   proportion (Dosimont et al. 2015 (Ocelotl) §3.5.2, eq. 5); parts too
 *   thin for MinRowHeight are replaced by visual aggregates of the hierarchy
 *   node drawn instead (Dosimont et al. 2014 (VPA) §III-C). Cell arrays: Color (RGBA), Part (-1 for
 * an aggregate), Node, NodeName, Type (mode), TypeName, Value (mean of the mode over the mark),
 * ModeProportion, VisualAggregate (0 part, 1 diagonal, 2 cross), PartCount, FirstLeaf, LastLeaf,
 * FirstSlice, LastSlice, Start, End.
 * - output 1, Marking: a thin border on the left and top edges of every mark
 *   inside the chart (neighbours with one mode stay distinct), the diagonal
 *   of a visual aggregate whose parts share one temporal partition and the
 *   cross of one whose parts do not (cell arrays Color, Mark, MarkingKind).
 * - output 2, Guides: frame, time axis and ticks, and the separators of the
 *   groups of GroupLevel.
 * - output 3, Labels: points with "Label" and "LabelKind" (the values of
 *   vtkMacroscopeTimelineLayout::LabelKinds): tick labels, the axis title,
 *   display-row names where they fit, group names, legend text.
 * - output 4, Legend: a swatch per mode type drawn (largest area first),
 *   then the two visual-aggregation marks; field data LegendName,
 *   LegendColor and LegendArea (pixels of marks of that mode).
 *
 * Every output carries the field data TimeWindow, DisplayRows and
 * VisualAggregates. Rows and aggregates follow the rules of
 * docs/overviews.md, computed by macroscope::LayoutSpatiotemporalOverview.
 * Only the first piece of a Partition holds rows; an empty table gives empty
 * outputs without an error.
 */
#ifndef vtkMacroscopeSpatiotemporalOverviewLayout_h
#define vtkMacroscopeSpatiotemporalOverviewLayout_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkMacroscopeOverviewLayout.h"

#ifndef __VTK_WRAP__
namespace MacroscopeChart
{
struct Geometry;
struct Labels;
}
#endif

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeSpatiotemporalOverviewLayout
  : public vtkMacroscopeOverviewLayout
{
public:
  static vtkMacroscopeSpatiotemporalOverviewLayout* New();
  vtkTypeMacro(vtkMacroscopeSpatiotemporalOverviewLayout, vtkMacroscopeOverviewLayout);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  /// Values of the "VisualAggregate" cell array of Marks.
  enum MarkKinds
  {
    PART = 0,               ///< a part of the partition drawn as itself
    DIAGONAL_AGGREGATE = 1, ///< its parts share one temporal partition
    CROSS_AGGREGATE = 2     ///< its parts are cut at different times
  };

  /// Values of the "MarkingKind" cell array of Marking.
  enum MarkingKinds
  {
    BORDER = 0,
    DIAGONAL = 1,
    CROSS = 2
  };

  ///@{
  /**
   * Vertical pixel budget (default 3): a hierarchy node whose rows are less
   * tall than this is not shown; its parent is drawn instead. 0 draws every
   * part as it is.
   */
  vtkSetMacro(MinRowHeight, double);
  vtkGetMacro(MinRowHeight, double);
  ///@}

  ///@{
  /**
   * Depth of the hierarchy level whose nodes are separated and named in
   * the chart (e.g. 1 for the clusters of a Score-P system tree); 0
   * (default) draws no groups.
   */
  vtkSetMacro(GroupLevel, int);
  vtkGetMacro(GroupLevel, int);
  ///@}

  ///@{
  /**
   * On the partition of a difference model (its SignedMean column, Model
   * Difference), colour each part by A - B of its mode type on a diverging
   * scale (blue: run A had more, red: run B had more, white: equal), named
   * by the runs' RunNames, and write the mode type in the parts wide enough
   * for it. Default on; off, or on any other partition, parts are coloured
   * by their mode type as usual.
   */
  vtkSetMacro(SignedDifference, bool);
  vtkGetMacro(SignedDifference, bool);
  ///@}

protected:
  vtkMacroscopeSpatiotemporalOverviewLayout();
  ~vtkMacroscopeSpatiotemporalOverviewLayout() override;

  int Draw(vtkTable* input, vtkPolyData* outputs[NUMBER_OF_OUTPUTS]) override;

private:
  vtkMacroscopeSpatiotemporalOverviewLayout(
    const vtkMacroscopeSpatiotemporalOverviewLayout&) = delete;
  void operator=(const vtkMacroscopeSpatiotemporalOverviewLayout&) = delete;

  double MinRowHeight = 3.0;
  int GroupLevel = 0;
  bool SignedDifference = true;

#ifndef __VTK_WRAP__
  // The stages of Draw (what one stage hands the next is in Run).
  struct Run;
  bool ReadPartition(Run& run);
  bool Layout(Run& run);
  bool EmitMarks(Run& run, MacroscopeChart::Labels& labels);
  void DrawGuides(Run& run, MacroscopeChart::Geometry& guides, MacroscopeChart::Labels& labels);
  void DrawLegend(Run& run, MacroscopeChart::Labels& labels);
#endif
};

#endif
