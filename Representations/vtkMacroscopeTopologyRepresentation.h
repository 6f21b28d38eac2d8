/**
 * @class vtkMacroscopeTopologyRepresentation
 * @brief The "Topology-Time 3D" representation: Triva's 3D scene of a trace
 * (Schnorr 2009 (Triva), ch. 3 and §5.4) in a Render View.
 *
 * Shown on a trace table (a reader's States, usually), it finds the rest of
 * the trace beside that table, lays it out with vtkMacroscopeTopologyScene
 * and draws the base flat, the state boxes lit (their faces shade as the
 * camera turns), the messages, the time axis and the labels. Every
 * standard interaction of the Render View applies: rotate, pan, zoom, and
 * picking a box selects its States row.
 */
#ifndef vtkMacroscopeTopologyRepresentation_h
#define vtkMacroscopeTopologyRepresentation_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkMacroscopeChartRepresentation.h"
#include "vtkNew.h" // for vtkNew

class vtkActor2D;
class vtkLabelPlacementMapper;
class vtkLegendBoxActor;
class vtkPointSetToLabelHierarchy;
class vtkPolyData;
class vtkTextProperty;
class vtkMacroscopeTopologyScene;

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeTopologyRepresentation
  : public vtkMacroscopeChartRepresentation
{
public:
  static vtkMacroscopeTopologyRepresentation* New();
  vtkTypeMacro(vtkMacroscopeTopologyRepresentation, vtkMacroscopeChartRepresentation);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /**
   * Forwarded to vtkMacroscopeTopologyScene (see there).
   */
  void SetBaseConfiguration(int configuration);
  void SetTopologyFile(const char* fileName);
  void SetTimeWindow(double start, double end);
  void AddResource(const char* name);
  void RemoveAllResources();
  void AddType(const char* name);
  void RemoveAllTypes();
  void SetScale(double scale);
  void SetOffset(double offset);
  void SetBoxSize(double size);
  void SetDepth(int depth);
  void SetTicks(int ticks);
  void SetShowMessages(bool show);
  void SetShowCommunicationGraph(bool show);
  void SetMaxEdgeWidth(double width);
  void SetTreemapSize(int size);
  ///@}

  /**
   * The scene filter drawing this representation (for tests).
   */
  vtkMacroscopeTopologyScene* GetScene();

protected:
  vtkMacroscopeTopologyRepresentation();
  ~vtkMacroscopeTopologyRepresentation() override;

  vtkAlgorithm* Layout(vtkInformationVector** inputVector) override;

  ///@{
  /**
   * The type legend, drawn over the 3D view in its top right corner (the
   * scene's LegendTypes and LegendColors, on the delivered labels), shown
   * with ShowLegend.
   */
  int ProcessViewRequest(
    vtkInformationRequestKey* request, vtkInformation* inInfo, vtkInformation* outInfo) override;
  bool AddToView(vtkView* view) override;
  bool RemoveFromView(vtkView* view) override;
  void UpdateVisibilities() override;
  ///@}
  void GetChartSize(int size[2]) override;
  void SetLayoutSize(int, int) override {} // a 3D scene has no pixel size
  /// The scene's own bounds: the base, the axis and the window's height.
  void GetChartBounds(const int size[2], double bounds[6]) override;

private:
  vtkMacroscopeTopologyRepresentation(const vtkMacroscopeTopologyRepresentation&) = delete;
  void operator=(const vtkMacroscopeTopologyRepresentation&) = delete;

  vtkNew<vtkMacroscopeTopologyScene> Scene;
  vtkNew<vtkLegendBoxActor> Legend;
  /// Fills Legend from the labels drawn; false when they carry no legend.
  bool FillLegend(vtkDataObject* labels);
  bool HasLegend = false;

  /// The processes' names, placed in screen space at every render (VTK's
  /// label placement): of the names the scene keeps, those that would
  /// overlap on screen from the current camera give way to the ones of
  /// more traffic, so that no two names pile up however the scene turns.
  vtkNew<vtkPolyData> NodeLabels;
  vtkNew<vtkPointSetToLabelHierarchy> NodeHierarchy;
  vtkNew<vtkLabelPlacementMapper> NodePlacer;
  vtkNew<vtkActor2D> NodeActor;
  vtkNew<vtkTextProperty> NodeText; // the look of NODE_LABEL, always opaque
  /// Copies the process names (NODE_LABEL) of the labels drawn into
  /// NodeLabels, their priority decreasing in the scene's order.
  void FillNodeLabels(vtkDataObject* labels);
};

#endif
