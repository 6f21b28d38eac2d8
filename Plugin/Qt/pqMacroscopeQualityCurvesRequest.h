#ifndef pqMacroscopeQualityCurvesRequest_h
#define pqMacroscopeQualityCurvesRequest_h

class pqPipelineSource;
class pqView;

/**
 * @class pqMacroscopeQualityCurvesRequest
 * @brief Asks an aggregation for its quality curves the way a user would:
 * by showing its Quality Plot output (port 2) in a Line Chart View.
 *
 * The aggregation filters sweep every p only for a consumer of their curve
 * outputs (docs/aggregation.md), and a representation showing port 2 is the
 * ordinary consumer a user creates by clicking the port's eye. Going through
 * the pipeline controller (not a Fetch) keeps the GUI's own path: the sweep
 * runs with the progress bar and Abort, the chart stays in the layout, the
 * step is undoable, and the curves reach the parameter panel through the
 * filter's information properties once the data are updated.
 */
class pqMacroscopeQualityCurvesRequest
{
public:
  /// Shows `source`'s Quality Plot in a Line Chart View: the chart already
  /// showing it, else the active view when it is a chart, else a new Line
  /// Chart View split from the active view's cell of the active layout. The
  /// curves are drawn against p (Gain, Loss, Current p). Returns the view,
  /// nullptr when the port cannot be shown.
  static pqView* show(pqPipelineSource* source);

private:
  static pqView* chartFor(pqPipelineSource* source);
};

#endif
