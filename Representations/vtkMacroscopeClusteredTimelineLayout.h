/**
 * @class vtkMacroscopeClusteredTimelineLayout
 * @brief Ravel's clustered logical timeline (Isaacs et al. 2014 (Ravel)
 * §4.2 and §4.2.1, Figs. 6-8) as polydata.
 *
 * Input: the outputs of Logical Time (Logical Events with Phase and
 * Cluster; Logical Messages, Clusters and Phases when present). For each
 * phase, its clusters at the cut are stacked over the phase's steps, as tall
 * as their members, on alternating backgrounds. Per cluster and step, a
 * glyph: a top section as tall as the share of members sending, a bottom
 * one for those receiving, blank for the inactive, each coloured by the
 * average metric of its events; a send line rises from the top and a
 * receive line enters the bottom, as thick as the share. Aggregate steps
 * are a centred box. Phases whose Pattern is ReceivesWaitall get a quarter
 * pie below the receive section (the average receives completed over the
 * phase's MaxReceives, labelled) instead of the receive line; Alternating
 * phases are drawn as a pair timeline (sends above, receives below, a line
 * from a send to the receive two steps later, dashed empty boxes where the
 * phase has an event the cluster lacks). Above the clusters, the logical
 * timelines of the focus processes: the location of the largest metric and
 * those within FocusRadius message hops.
 *
 * Outputs: Marks (cell arrays Mark — 0 band, 1 sends, 2 receives, 3
 * aggregate, 4 send line, 5 receive line, 6 pie background, 7 pie, 8 focus
 * event — Phase, Cluster, GlobalStep (-1 for bands), Metric, Fraction,
 * Location (focus events; -1 otherwise), Color), Lines (focus messages, stubs to undrawn partners,
 * pair lines, dashed boxes), Guides, Labels (cluster and focus names, pie averages, step axis),
 * Legend. Marks' field data: Focus (the focus locations) and FocusCentre.
 */
#ifndef vtkMacroscopeClusteredTimelineLayout_h
#define vtkMacroscopeClusteredTimelineLayout_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkMacroscopeLogicalLayout.h"

#ifndef __VTK_WRAP__
namespace macroscope
{
struct ClusterBand;
struct ClusterGlyph;
}
#endif

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeClusteredTimelineLayout
  : public vtkMacroscopeLogicalLayout
{
public:
  static vtkMacroscopeClusteredTimelineLayout* New();
  vtkTypeMacro(vtkMacroscopeClusteredTimelineLayout, vtkMacroscopeLogicalLayout);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum Marks
  {
    BAND = 0,
    SENDS = 1,
    RECEIVES = 2,
    AGGREGATE = 3,
    SEND_LINE = 4,
    RECEIVE_LINE = 5,
    PIE_BACKGROUND = 6,
    PIE = 7,
    FOCUS_EVENT = 8
  };

  ///@{
  /**
   * Message hops around the location of the largest metric whose locations
   * are drawn as focus timelines (default 1: its direct partners; 0: it
   * alone).
   */
  vtkSetMacro(FocusRadius, int);
  vtkGetMacro(FocusRadius, int);
  ///@}

protected:
  vtkMacroscopeClusteredTimelineLayout();
  ~vtkMacroscopeClusteredTimelineLayout() override;

  int Draw(const Tables& tables, vtkPolyData* outputs[NUMBER_OF_OUTPUTS]) override;

private:
  vtkMacroscopeClusteredTimelineLayout(const vtkMacroscopeClusteredTimelineLayout&) = delete;
  void operator=(const vtkMacroscopeClusteredTimelineLayout&) = delete;

  int FocusRadius = 1;

#ifndef __VTK_WRAP__
  // The stages of Draw (what one stage hands the next is in Run).
  struct Run;
  bool ReadTables(Run& run);
  int Layout(Run& run); ///< 0: failed, 1: aborted, 2: laid out
  void DrawBands(Run& run);
  bool DrawGlyphs(Run& run);
  void DrawPie(
    Run& run, const macroscope::ClusterGlyph& glyph, const macroscope::ClusterBand& band);
  void DrawFocus(Run& run);
  void DrawGuidesAndLegend(Run& run);
#endif
};

#endif
