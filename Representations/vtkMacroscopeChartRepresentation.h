/**
 * @class vtkMacroscopeChartRepresentation
 * @brief Base of Macroscope's chart representations (Timeline, Temporal and
 * Spatiotemporal Overview): draws the polydata outputs of a layout filter in
 * a Render View.
 *
 * A subclass lays its input out with a layout filter whose outputs are
 * polydata in the pixels of a chart: coloured marks, lines, guides, a
 * legend, and labels (points with "Label" and "LabelKind" arrays, see
 * MacroscopeChart.h). This class delivers every output through the view
 * like any ParaView representation's geometry (so it composites under
 * MPI), draws each with its "Color" cell array, the guides in the label
 * colour, and the labels as text over the composited image.
 */
#ifndef vtkMacroscopeChartRepresentation_h
#define vtkMacroscopeChartRepresentation_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkNew.h"                          // for vtkNew
#include "vtkPVDataRepresentation.h"

#include <string> // for std::string
#include <vector> // for std::vector

class vtkActor;
class vtkActor2D;
class vtkAlgorithm;
class vtkLabeledDataMapper;
class vtkPolyData;
class vtkPolyDataMapper;
class vtkTextProperty;

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeChartRepresentation
  : public vtkPVDataRepresentation
{
public:
  vtkTypeMacro(vtkMacroscopeChartRepresentation, vtkPVDataRepresentation);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  int ProcessViewRequest(
    vtkInformationRequestKey* request, vtkInformation* inInfo, vtkInformation* outInfo) override;
  void SetVisibility(bool visible) override;

  /**
   * The layout's output `port` as this process computed it: port 0, the
   * marks, for the Information panel; the others (legend, labels...) for
   * tests, which read the colours drawn. Null for a port out of range. On a
   * client of a server, which lays nothing out, the labels port gives the
   * labels delivered for drawing (with the ChartRegion, TimeAxis and
   * TraceSpan field data scripts navigate with).
   */
  vtkDataObject* GetRenderedDataObject(int port) override;

  ///@{
  /**
   * Show the axis, row and tick labels (default on) and the legend (default
   * on).
   */
  void SetShowLabels(bool show);
  void SetShowLegend(bool show);
  ///@}

  /**
   * Colour of the labels, axis and frame (default white, ParaView's text
   * colour on its default background).
   */
  void SetLabelColor(double red, double green, double blue);

  /**
   * Font size of the labels in points (default 12). The layouts measure
   * their labels at this size so that none overlap (docs/labels.md).
   */
  virtual void SetLabelFontSize(int size);
  int GetLabelFontSize() const { return this->LabelFontSize; }

  ///@{
  /**
   * Colours chosen for some type names, as pairs: name, "#rrggbb"...
   * (docs/colours.md). A subclass whose layout colours marks by type hands
   * them to its layout, which reports a malformed list; empty (the default)
   * keeps the colours the data carries.
   */
  void ClearTypeColors();
  void AddTypeColor(const char* entry);
  ///@}

  /**
   * The size in pixels the chart is laid out for, as an explicit override
   * (scripted pictures, old state files). 0 0, the default, means "the
   * view's": the size the Macroscope Chart View pushes (SetViewPixelSize),
   * or 1600 x 900 in a view that pushes none (a plain Render View).
   * docs/views.md.
   */
  void SetViewSize(int width, int height);

  /**
   * The pixel size of the view the representation is shown in, pushed by
   * vtkSMMacroscopeChartViewProxy before every update (a property, so that
   * it reaches every rank and re-runs the layout when it changes).
   */
  void SetViewPixelSize(int width, int height);

  /**
   * The size the last layout was made for (the layout's ViewSize), and the
   * region the camera must show (chart plus labels, legend and axis).
   */
  void GetLaidOutChartSize(int size[2]) { this->GetChartSize(size); }
  void GetChartRegion(double bounds[6]);

  /**
   * Time navigation of the chart as last drawn on this process (the
   * client, or the first rank): x of the window start and end in chart
   * units, the window [t0, t1] and the trace's span [s0, s1], read from the
   * delivered labels' field data (TimeAxis, TraceSpan). False when the
   * chart has no time axis (overviews, treemap, logical views) or nothing
   * was drawn yet.
   */
  bool GetTimeNavigation(double axis[4], double span[2]);

  /**
   * Row navigation of the chart as last drawn on this process: the first
   * and last location drawn of how many (the RowWindow field data) and the
   * plot's height in chart units (PlotSize; the plot starts at y = 0).
   * False when the chart has no zoom across rows (all but the Timeline).
   */
  bool GetRowNavigation(int rows[3], double& plotHeight);

  /**
   * Step navigation of a logical view as last drawn on this process (the
   * StepNavigation field data): x of the first column's left and of the
   * last column's right, the first and last global step drawn, the steps
   * per column, the trace's first and last global step. False when the
   * chart has no step axis of its own (all but the logical and clustered
   * timelines).
   */
  bool GetStepNavigation(double navigation[7]);

protected:
  vtkMacroscopeChartRepresentation();
  ~vtkMacroscopeChartRepresentation() override;

  /// The layout's output ports: which hold text, the legend and the guides.
  /// Subclasses call this once, in their constructor.
  void SetLayers(int count, int labels, int legend, int guides);

  /// Makes a layer pickable: a pick in the view selects the input rows
  /// named by the layer's "vtkOriginalCellIds" cell array.
  void SetSelectableLayer(int layer);
  /// Lights a layer (the others are drawn flat, as charts are): what a 3D
  /// scene's solids need to show their faces.
  void SetLitLayer(int layer);

  /// Lays the input out and returns the layout whose outputs are drawn, or
  /// nullptr after reporting an error.
  virtual vtkAlgorithm* Layout(vtkInformationVector** inputVector) = 0;

  /// The chart's size in pixels (the layout's ViewSize).
  virtual void GetChartSize(int size[2]) = 0;

  /// Hands the size the chart is laid out for to the subclass's layouts.
  virtual void SetLayoutSize(int width, int height) = 0;

  /// The trace's time span [s0, s1] in seconds, for charts along time
  /// (collective: every rank calls it in RequestData). False by default.
  virtual bool GetTraceSpan(double span[2]);

  /// The region the camera fits: the chart of `size` pixels plus room for
  /// what lies around it (by default row labels at the left, the time axis
  /// below and the legend at the right).
  virtual void GetChartBounds(const int size[2], double bounds[6]);

#ifndef __VTK_WRAP__
  /// The TypeColors entries, for the subclass's layout.
  const std::vector<std::string>& GetTypeColors() const
  {
    return this->TypeColors;
  }
#endif

  /// Shows or hides the layers after a change of visibility or of
  /// ShowLabels/ShowLegend; subclasses with overlays of their own extend it.
  virtual void UpdateVisibilities();
  bool GetShowLegend() const
  {
    return this->ShowLegend;
  }
  bool GetShowLabels() const
  {
    return this->ShowLabels;
  }
  /// Labels of `kind` are drawn by the subclass (e.g. placed in screen
  /// space): the shared label mapper hides them.
  void SetLabelKindDrawnElsewhere(int kind);
  /// The text property labels of `kind` are drawn with (colour, size...).
  vtkTextProperty* GetLabelTextProperty(int kind);
  /// The colour labels are drawn in (LabelColor).
  void GetLabelColor(double rgb[3]);
  /// The layer of the labels (delivered to the process that renders).
  int GetLabelLayer() const
  {
    return this->LabelLayer;
  }

  int FillInputPortInformation(int port, vtkInformation* info) override;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
  bool AddToView(vtkView* view) override;
  bool RemoveFromView(vtkView* view) override;

private:
  vtkMacroscopeChartRepresentation(const vtkMacroscopeChartRepresentation&) = delete;
  void operator=(const vtkMacroscopeChartRepresentation&) = delete;

  /// The size to lay out for: the explicit ViewSize, else the view's, else
  /// the fallback.
  void ResolveLayoutSize(int size[2]);
  /// ChartRegion and TraceSpan on the labels, which reach the client.
  void AddNavigationFields();
  bool IsDrawn(int layer) const
  {
    return layer < this->LayerCount && layer != this->LabelLayer;
  }

  static constexpr int MaxLayers = 8;
  int LayerCount = 0;
  int LabelLayer = -1;
  int LegendLayer = -1;
  int GuideLayer = -1;
  int SelectableLayer = -1;
  vtkNew<vtkPolyData> Pieces[MaxLayers];
  vtkNew<vtkPolyDataMapper> Mappers[MaxLayers];
  vtkNew<vtkActor> Actors[MaxLayers];
  vtkNew<vtkLabeledDataMapper> LabelMapper;
  vtkNew<vtkActor2D> LabelActor;
  double Bounds[6] = { 0, 1, 0, 1, 0, 1 };
  bool ShowLabels = true;
  bool ShowLegend = true;
  int LabelFontSize = 12;
  int KindDrawnElsewhere = -1;
  std::vector<std::string> TypeColors;
  int RequestedViewSize[2] = { 0, 0 };
  int ViewPixelSize[2] = { 0, 0 };
};

#endif
