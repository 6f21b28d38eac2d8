#include "vtkMacroscopeTopologyRepresentation.h"

#include "MacroscopeChart.h"
#include "MacroscopeNameList.h"
#include "MacroscopeTraceLookup.h"
#include "vtkMacroscopeTopologyScene.h"

#include "vtkActor2D.h"
#include "vtkAlgorithm.h"
#include "vtkAlgorithmOutput.h"
#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkDataObject.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkIntArray.h"
#include "vtkLabelPlacementMapper.h"
#include "vtkLegendBoxActor.h"
#include "vtkObjectFactory.h"
#include "vtkPVRenderView.h"
#include "vtkPointData.h"
#include "vtkPointSetToLabelHierarchy.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkRenderer.h"
#include "vtkStringArray.h"
#include "vtkTextProperty.h"
#include "vtkUnsignedCharArray.h"

#include <algorithm>

vtkStandardNewMacro(vtkMacroscopeTopologyRepresentation);

vtkMacroscopeTopologyRepresentation::vtkMacroscopeTopologyRepresentation()
{
  using Scene = vtkMacroscopeTopologyScene;
  this->SetLayers(Scene::NUMBER_OF_OUTPUTS, Scene::LABELS, -1, Scene::GUIDES);
  this->SetSelectableLayer(Scene::STATES);
  // Lit boxes read as solids from any side; the base stays flat.
  this->SetLitLayer(Scene::STATES);
  // The type legend: top right, over the scene, without a frame.
  this->Legend->BorderOff();
  this->Legend->BoxOff();
  this->Legend->ScalarVisibilityOn(); // swatches take their scalars' colour
  this->Legend->SetVisibility(false);
  // The processes' names: placed on screen by VTK, not by the shared mapper.
  this->SetLabelKindDrawnElsewhere(MacroscopeChart::NODE_LABEL);
  this->NodeHierarchy->SetInputData(this->NodeLabels);
  this->NodeHierarchy->SetLabelArrayName("Label");
  this->NodeHierarchy->SetPriorityArrayName("Priority");
  this->NodeHierarchy->SetTextProperty(this->NodeText);
  this->NodePlacer->SetInputConnection(this->NodeHierarchy->GetOutputPort());
  this->NodePlacer->SetShapeToRect();
  this->NodePlacer->SetStyleToFilled();
  this->NodePlacer->SetBackgroundOpacity(0.7);
  this->NodePlacer->SetMargin(2.0);
  this->NodePlacer->UseDepthBufferOff(); // names stay readable in front of the boxes
  this->NodeActor->SetMapper(this->NodePlacer);
  this->NodeActor->SetVisibility(false);
}

vtkMacroscopeTopologyRepresentation::~vtkMacroscopeTopologyRepresentation() = default;

void vtkMacroscopeTopologyRepresentation::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Scene:\n";
  this->Scene->PrintSelf(os, indent.GetNextIndent());
}

vtkMacroscopeTopologyScene* vtkMacroscopeTopologyRepresentation::GetScene()
{
  return this->Scene;
}

#define MACROSCOPE_FORWARD(Setter, Type)                                                           \
  void vtkMacroscopeTopologyRepresentation::Setter(Type value)                                     \
  {                                                                                                \
    this->Scene->Setter(value);                                                                    \
    this->MarkModified();                                                                          \
  }
MACROSCOPE_FORWARD(SetBaseConfiguration, int)
MACROSCOPE_FORWARD(SetTopologyFile, const char*)
MACROSCOPE_FORWARD(SetScale, double)
MACROSCOPE_FORWARD(SetOffset, double)
MACROSCOPE_FORWARD(SetBoxSize, double)
MACROSCOPE_FORWARD(SetDepth, int)
MACROSCOPE_FORWARD(SetTicks, int)
MACROSCOPE_FORWARD(SetShowMessages, bool)
MACROSCOPE_FORWARD(SetShowCommunicationGraph, bool)
MACROSCOPE_FORWARD(SetMaxEdgeWidth, double)
MACROSCOPE_FORWARD(SetTreemapSize, int)
#undef MACROSCOPE_FORWARD

void vtkMacroscopeTopologyRepresentation::SetTimeWindow(double start, double end)
{
  this->Scene->SetTimeWindow(start, end);
  this->MarkModified();
}

#define MACROSCOPE_TO_SCENE(call)                                                                  \
  this->Scene->call;                                                                               \
  this->MarkModified()
MACROSCOPE_FORWARD_RESOURCES_AND_TYPES(vtkMacroscopeTopologyRepresentation, MACROSCOPE_TO_SCENE)
#undef MACROSCOPE_TO_SCENE

void vtkMacroscopeTopologyRepresentation::GetChartSize(int size[2])
{
  size[0] = size[1] = 1; // a 3D scene has no pixel size
}

void vtkMacroscopeTopologyRepresentation::GetChartBounds(const int*, double bounds[6])
{
  this->Scene->GetSceneBounds(bounds);
}

vtkAlgorithm* vtkMacroscopeTopologyRepresentation::Layout(vtkInformationVector**)
{
  vtkNew<vtkInformationVector> trace;
  if (!MacroscopeFindTrace(this->GetInputAlgorithm(0, 0), trace))
  {
    vtkErrorMacro("The Topology-Time 3D representation shows a trace: its input must be an "
                  "output of a Macroscope trace reader (States, usually), whose other outputs "
                  "hold the Hierarchy and, optionally, Messages and Types.");
    return nullptr;
  }
  this->Scene->RemoveAllInputConnections(0);
  for (int i = 0; i < trace->GetNumberOfInformationObjects(); ++i)
  {
    this->Scene->AddInputDataObject(
      0, trace->GetInformationObject(i)->Get(vtkDataObject::DATA_OBJECT()));
  }
  this->Scene->SetTypeColors(this->GetTypeColors());
  this->Scene->Update(); // a failed update reports its error and draws nothing
  return this->Scene;
}

namespace
{
// The swatch of a legend entry: a unit square of `rgb`. The colour rides
// on the square's scalars, so that the entry's text keeps the label colour
// (the legend box colours its text with the entry colour).
vtkSmartPointer<vtkPolyData> Swatch(const unsigned char rgb[3])
{
  auto square = vtkSmartPointer<vtkPolyData>::New();
  vtkNew<vtkPoints> points;
  const double corners[4][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } };
  for (const auto& corner : corners)
  {
    points->InsertNextPoint(corner[0], corner[1], 0.0);
  }
  vtkNew<vtkCellArray> polys;
  const vtkIdType ids[4] = { 0, 1, 2, 3 };
  polys->InsertNextCell(4, ids);
  vtkNew<vtkUnsignedCharArray> color;
  color->SetNumberOfComponents(3);
  color->InsertNextTypedTuple(rgb);
  square->SetPoints(points);
  square->SetPolys(polys);
  square->GetCellData()->SetScalars(color);
  return square;
}
}

bool vtkMacroscopeTopologyRepresentation::FillLegend(vtkDataObject* labels)
{
  vtkFieldData* fields = labels ? labels->GetFieldData() : nullptr;
  auto* names =
    fields ? vtkStringArray::SafeDownCast(fields->GetAbstractArray("LegendTypes")) : nullptr;
  auto* colors =
    fields ? vtkUnsignedCharArray::SafeDownCast(fields->GetArray("LegendColors")) : nullptr;
  if (!names || !colors || colors->GetNumberOfTuples() != names->GetNumberOfValues())
  {
    return false;
  }
  double text[3];
  this->GetLabelColor(text);
  // The longest types first; the rest said in one line.
  constexpr vtkIdType Shown = 12;
  const vtkIdType count = std::min(names->GetNumberOfValues(), Shown);
  const vtkIdType more = names->GetNumberOfValues() - count;
  const int entries = static_cast<int>(count + (more > 0 ? 1 : 0));
  this->Legend->SetNumberOfEntries(entries);
  // About 2 % of the view's height per entry (the legend box scales the text
  // to fit), in the top right corner.
  const double height = std::min(0.9, 0.022 * entries);
  this->Legend->SetPosition(0.81, 0.98 - height);
  this->Legend->SetPosition2(0.17, height);
  for (vtkIdType i = 0; i < count; ++i)
  {
    unsigned char rgb[3];
    colors->GetTypedTuple(i, rgb);
    this->Legend->SetEntry(static_cast<int>(i), Swatch(rgb), names->GetValue(i).c_str(), text);
  }
  if (more > 0)
  {
    this->Legend->SetEntry(static_cast<int>(count), static_cast<vtkPolyData*>(nullptr),
      ("+ " + std::to_string(more) + " more").c_str(), text);
  }
  return count > 0;
}

int vtkMacroscopeTopologyRepresentation::ProcessViewRequest(
  vtkInformationRequestKey* request, vtkInformation* inInfo, vtkInformation* outInfo)
{
  if (!this->Superclass::ProcessViewRequest(request, inInfo, outInfo))
  {
    return 0;
  }
  if (request == vtkPVView::REQUEST_RENDER())
  {
    vtkAlgorithmOutput* producer =
      vtkPVRenderView::GetPieceProducer(inInfo, this, this->GetLabelLayer());
    vtkDataObject* labels = producer && producer->GetProducer()
      ? producer->GetProducer()->GetOutputDataObject(producer->GetIndex())
      : nullptr;
    this->HasLegend = this->FillLegend(labels);
    this->FillNodeLabels(labels);
    this->UpdateVisibilities();
  }
  return 1;
}

bool vtkMacroscopeTopologyRepresentation::AddToView(vtkView* view)
{
  if (auto* renderView = vtkPVRenderView::SafeDownCast(view))
  {
    renderView->GetNonCompositedRenderer()->AddActor(this->Legend);
    renderView->GetNonCompositedRenderer()->AddActor(this->NodeActor);
  }
  return this->Superclass::AddToView(view);
}

bool vtkMacroscopeTopologyRepresentation::RemoveFromView(vtkView* view)
{
  if (auto* renderView = vtkPVRenderView::SafeDownCast(view))
  {
    renderView->GetNonCompositedRenderer()->RemoveActor(this->Legend);
    renderView->GetNonCompositedRenderer()->RemoveActor(this->NodeActor);
  }
  return this->Superclass::RemoveFromView(view);
}

void vtkMacroscopeTopologyRepresentation::UpdateVisibilities()
{
  this->Superclass::UpdateVisibilities();
  this->Legend->SetVisibility(this->GetVisibility() && this->GetShowLegend() && this->HasLegend);
  this->NodeActor->SetVisibility(
    this->GetVisibility() && this->GetShowLabels() && this->NodeLabels->GetNumberOfPoints() > 0);
  // The placer draws with a copy of the names' look (colour, size), its
  // own frame behind the text.
  vtkTextProperty* look = this->GetLabelTextProperty(MacroscopeChart::NODE_LABEL);
  this->NodeText->ShallowCopy(look);
  this->NodeText->SetOpacity(1.0);
  this->NodeText->SetBackgroundOpacity(0.0);
  this->NodeText->SetJustificationToLeft();
  this->NodeText->SetVerticalJustificationToBottom();
  this->NodePlacer->SetBackgroundColor(look->GetBackgroundColor());
}

void vtkMacroscopeTopologyRepresentation::FillNodeLabels(vtkDataObject* labels)
{
  auto* drawn = vtkPolyData::SafeDownCast(labels);
  auto* texts = drawn
    ? vtkStringArray::SafeDownCast(drawn->GetPointData()->GetAbstractArray("Label"))
    : nullptr;
  auto* kinds =
    drawn ? vtkIntArray::SafeDownCast(drawn->GetPointData()->GetArray("LabelKind")) : nullptr;
  vtkNew<vtkPoints> points;
  vtkNew<vtkStringArray> names;
  names->SetName("Label");
  vtkNew<vtkDoubleArray> priority;
  priority->SetName("Priority");
  const vtkIdType count = texts && kinds ? drawn->GetNumberOfPoints() : 0;
  for (vtkIdType i = 0; i < count; ++i)
  {
    if (kinds->GetValue(i) == MacroscopeChart::NODE_LABEL)
    {
      points->InsertNextPoint(drawn->GetPoint(i));
      names->InsertNextValue(texts->GetValue(i));
      priority->InsertNextValue(static_cast<double>(count - i)); // the scene's order
    }
  }
  this->NodeLabels->Initialize();
  this->NodeLabels->SetPoints(points);
  this->NodeLabels->GetPointData()->AddArray(names);
  this->NodeLabels->GetPointData()->AddArray(priority);
  this->NodeLabels->Modified();
}
