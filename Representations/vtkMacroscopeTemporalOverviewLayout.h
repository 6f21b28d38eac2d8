/**
 * @class vtkMacroscopeTemporalOverviewLayout
 * @brief Ocelotl's temporal overview (Dosimont et al. 2015 (Ocelotl)
 * §3.4.2) of a temporal partition as polydata: one stacked bar per
 * aggregated interval.
 *
 * Input: the Partition table of Temporal Aggregation
 * (vtkMacroscopePartitionFilter with Constraint "temporal"). Each part
 * becomes a stack spanning its [Start, End] along x (the model's TimeWindow
 * spans the ViewSize width), with one layer per type of height proportional
 * to its Amplitude, Q(T(i, j), u) of 000 eq. 4, on one scale for the whole
 * chart (the tallest stack fills the height). Types keep one order in every
 * stack, the largest area at the bottom. Layers thinner than MinLayerHeight
 * pixels merge into one grey, hatched layer per stack as tall as their sum,
 * so no layer is lost and every stack keeps its true height.
 *
 * Outputs (the contract shared with the spatiotemporal overview, drawn by
 * the overview representation):
 * - MARKS: one quad per layer with cell arrays Color (RGBA), Part (row of
 *   the Partition table), Type (type plane, -1 for a merged layer),
 *   TypeName, Value (the amplitude, or the sum merged), VisualAggregate
 *   (0, or the TemporalLayerFlag bits: 1 merged, 2 merged and still thinner
 *   than the budget), MergedTypes (how many types a merged layer holds),
 *   Contents (their names), Start, End (seconds) and StackTotal.
 * - MARKING: the hatching of merged layers, or a line across a merged
 *   layer too thin to show its hatching.
 * - GUIDES: the frame, the time axis and the value axis with their ticks.
 * - LABELS: tick labels, the axis titles and the legend's names, as points
 *   with Label and LabelKind (vtkMacroscopeTimelineLayout::LabelKinds).
 * - LEGEND: a swatch per type drawn as a layer (largest area first) and one
 *   for the merged layers; field data LegendName, LegendColor, LegendValue.
 * Every output carries TimeWindow, AmplitudeScale (pixels per amplitude
 * unit) and PixelsPerSecond in its field data.
 *
 * Under MPI the Partition table is on piece 0; the other pieces are empty
 * tables, for which the outputs are empty. See docs/overviews.md.
 */
#ifndef vtkMacroscopeTemporalOverviewLayout_h
#define vtkMacroscopeTemporalOverviewLayout_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkMacroscopeOverviewLayout.h"

class vtkIntArray;
#ifndef __VTK_WRAP__
namespace MacroscopeChart
{
struct Geometry;
struct Labels;
}
#endif

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeTemporalOverviewLayout
  : public vtkMacroscopeOverviewLayout
{
public:
  static vtkMacroscopeTemporalOverviewLayout* New();
  vtkTypeMacro(vtkMacroscopeTemporalOverviewLayout, vtkMacroscopeOverviewLayout);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /**
   * Vertical pixel budget (default 3): layers thinner than this merge into
   * the stack's visual aggregate. 0 draws every layer on its own.
   */
  vtkSetMacro(MinLayerHeight, double);
  vtkGetMacro(MinLayerHeight, double);
  ///@}

protected:
  vtkMacroscopeTemporalOverviewLayout();
  ~vtkMacroscopeTemporalOverviewLayout() override;

  int Draw(vtkTable* input, vtkPolyData* outputs[NUMBER_OF_OUTPUTS]) override;

private:
  vtkMacroscopeTemporalOverviewLayout(const vtkMacroscopeTemporalOverviewLayout&) = delete;
  void operator=(const vtkMacroscopeTemporalOverviewLayout&) = delete;

  double MinLayerHeight = 3.0;

#ifndef __VTK_WRAP__
  // The stages of Draw (what one stage hands the next is in Run).
  struct Run;
  bool ReadPartition(Run& run);
  bool Layout(Run& run);
  bool EmitLayers(Run& run, MacroscopeChart::Geometry& marking, vtkIntArray* markingParts);
  void DrawAxes(Run& run, MacroscopeChart::Labels& labels);
  void DrawLegend(Run& run, bool anyMerged, MacroscopeChart::Geometry& marking,
    vtkIntArray* markingParts, MacroscopeChart::Labels& labels);
#endif
};

#endif
