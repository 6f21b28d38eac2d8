#include "vtkMacroscopeChartRepresentation.h"

#include "MacroscopeChart.h"
#include "MacroscopeInputCheck.h"

#include "vtkActor.h"
#include "vtkActor2D.h"
#include "vtkAlgorithm.h"
#include "vtkCommunicator.h"
#include "vtkDataObject.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkIntArray.h"
#include "vtkLabeledDataMapper.h"
#include "vtkMath.h"
#include "vtkMultiProcessController.h"
#include "vtkOpenGLPolyDataMapper.h"
#include "vtkPVRenderView.h"
#include "vtkPolyData.h"
#include "vtkPolyDataMapper.h"
#include "vtkProperty.h"
#include "vtkRenderer.h"
#include "vtkTextProperty.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace
{
using namespace MacroscopeChart;

// True when no output of `layout` holds a point.
bool IsEmpty(vtkAlgorithm* layout, int layers)
{
  for (int layer = 0; layer < layers; ++layer)
  {
    auto* piece = vtkPolyData::SafeDownCast(layout->GetOutputDataObject(layer));
    if (piece && piece->GetNumberOfPoints() > 0)
    {
      return false;
    }
  }
  return true;
}

// x0, x1, y0, y1 of `bounds`: their union over the ranks of the global
// controller, where a rank without bounds (uninitialized) adds nothing.
// Every rank must call this.
void AllReduceBounds(double bounds[6])
{
  vtkMultiProcessController* controller = vtkMultiProcessController::GetGlobalController();
  if (!controller || controller->GetNumberOfProcesses() < 2)
  {
    return;
  }
  const double none = std::numeric_limits<double>::max();
  const bool valid = vtkMath::AreBoundsInitialized(bounds);
  const double mine[4] = { valid ? bounds[0] : none, valid ? -bounds[1] : none,
    valid ? bounds[2] : none, valid ? -bounds[3] : none };
  double all[4];
  controller->AllReduce(mine, all, 4, vtkCommunicator::MIN_OP);
  if (all[0] == none)
  {
    return; // no rank drew anything
  }
  bounds[0] = all[0];
  bounds[1] = -all[1];
  bounds[2] = all[2];
  bounds[3] = -all[3];
  if (!valid)
  {
    bounds[4] = -1.0;
    bounds[5] = 8.0;
  }
}

// The size laid out when neither the property nor a chart view gives one
// (a plain Render View): the former default of ViewSize.
constexpr int FallbackSize[2] = { 1600, 900 };
// The smallest size an automatic layout gets, for tiny views.
constexpr int MinAutoSize = 64;

constexpr int LabelKinds[] = { TICK_LABEL, ROW_LABEL, GROUP_LABEL, AXIS_TITLE, LEGEND_LABEL,
  NODE_LABEL };
}

vtkMacroscopeChartRepresentation::vtkMacroscopeChartRepresentation()
{
  for (int layer = 0; layer < MaxLayers; ++layer)
  {
    this->Mappers[layer]->SetInputDataObject(this->Pieces[layer]);
    this->Mappers[layer]->SetScalarModeToUseCellFieldData();
    this->Mappers[layer]->SelectColorArray("Color");
    this->Mappers[layer]->SetColorModeToDirectScalars();
    this->Actors[layer]->SetMapper(this->Mappers[layer]);
    this->Actors[layer]->GetProperty()->SetLighting(false);
  }

  this->LabelMapper->SetLabelModeToLabelFieldData();
  this->LabelMapper->SetFieldDataName("Label");
  this->LabelMapper->SetInputArrayToProcess(
    0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, "LabelKind");
  for (int kind : LabelKinds)
  {
    vtkNew<vtkTextProperty> text;
    text->SetFontSize(12);
    text->SetBold(kind == GROUP_LABEL);
    text->SetItalic(kind == AXIS_TITLE);
    text->SetJustification(kind == ROW_LABEL       ? VTK_TEXT_RIGHT
        : kind == TICK_LABEL || kind == AXIS_TITLE ? VTK_TEXT_CENTERED
                                                   : VTK_TEXT_LEFT);
    text->SetVerticalJustification(
      kind == ROW_LABEL || kind == LEGEND_LABEL ? VTK_TEXT_CENTERED : VTK_TEXT_TOP);
    if (kind == GROUP_LABEL || kind == NODE_LABEL)
    {
      text->SetBackgroundOpacity(0.7); // drawn over the marks: keep it legible
    }
    text->SetShadow(false);
    this->LabelMapper->SetLabelTextProperty(text, kind);
  }
  this->LabelActor->SetMapper(this->LabelMapper);
}

vtkMacroscopeChartRepresentation::~vtkMacroscopeChartRepresentation() = default;

void vtkMacroscopeChartRepresentation::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "ShowLabels: " << this->ShowLabels << "\n";
  os << indent << "ShowLegend: " << this->ShowLegend << "\n";
  os << indent << "Layers: " << this->LayerCount << "\n";
  os << indent << "TypeColors: " << this->TypeColors.size() / 2 << " pairs\n";
}

void vtkMacroscopeChartRepresentation::ClearTypeColors()
{
  this->TypeColors.clear();
  this->MarkModified();
}

void vtkMacroscopeChartRepresentation::AddTypeColor(const char* entry)
{
  this->TypeColors.emplace_back(entry ? entry : "");
  this->MarkModified();
}

void vtkMacroscopeChartRepresentation::SetViewSize(int width, int height)
{
  if (width != this->RequestedViewSize[0] || height != this->RequestedViewSize[1])
  {
    this->RequestedViewSize[0] = width;
    this->RequestedViewSize[1] = height;
    this->MarkModified();
  }
}

void vtkMacroscopeChartRepresentation::SetViewPixelSize(int width, int height)
{
  if (width != this->ViewPixelSize[0] || height != this->ViewPixelSize[1])
  {
    this->ViewPixelSize[0] = width;
    this->ViewPixelSize[1] = height;
    // Only an automatic size depends on the view's.
    if (this->RequestedViewSize[0] <= 0 || this->RequestedViewSize[1] <= 0)
    {
      this->MarkModified();
    }
  }
}

bool vtkMacroscopeChartRepresentation::GetTraceSpan(double*)
{
  return false;
}

void vtkMacroscopeChartRepresentation::GetChartRegion(double bounds[6])
{
  std::copy(this->Bounds, this->Bounds + 6, bounds);
}

bool vtkMacroscopeChartRepresentation::GetTimeNavigation(double axis[4], double span[2])
{
  vtkDataObject* labels = this->LabelMapper->GetInput();
  if (!labels || this->LabelLayer < 0)
  {
    return false;
  }
  auto* timeAxis = vtkDoubleArray::SafeDownCast(labels->GetFieldData()->GetArray("TimeAxis"));
  auto* traceSpan = vtkDoubleArray::SafeDownCast(labels->GetFieldData()->GetArray("TraceSpan"));
  if (!timeAxis || !traceSpan || timeAxis->GetNumberOfComponents() != 4 ||
    traceSpan->GetNumberOfComponents() != 2 || timeAxis->GetNumberOfTuples() < 1 ||
    traceSpan->GetNumberOfTuples() < 1)
  {
    return false;
  }
  timeAxis->GetTypedTuple(0, axis);
  traceSpan->GetTypedTuple(0, span);
  return axis[1] > axis[0] && axis[3] > axis[2];
}

bool vtkMacroscopeChartRepresentation::GetRowNavigation(int rows[3], double& plotHeight)
{
  vtkDataObject* labels = this->LabelMapper->GetInput();
  if (!labels || this->LabelLayer < 0)
  {
    return false;
  }
  auto* window = vtkIntArray::SafeDownCast(labels->GetFieldData()->GetArray("RowWindow"));
  auto* plot = vtkDoubleArray::SafeDownCast(labels->GetFieldData()->GetArray("PlotSize"));
  if (!window || !plot || window->GetNumberOfComponents() != 3 ||
    plot->GetNumberOfComponents() != 2 || window->GetNumberOfTuples() < 1 ||
    plot->GetNumberOfTuples() < 1)
  {
    return false;
  }
  window->GetTypedTuple(0, rows);
  plotHeight = plot->GetComponent(0, 1);
  return rows[2] > 0 && rows[1] >= rows[0] && plotHeight > 0.0;
}

bool vtkMacroscopeChartRepresentation::GetStepNavigation(double navigation[7])
{
  vtkDataObject* labels = this->LabelMapper->GetInput();
  if (!labels || this->LabelLayer < 0)
  {
    return false;
  }
  auto* steps = vtkDoubleArray::SafeDownCast(labels->GetFieldData()->GetArray("StepNavigation"));
  if (!steps || steps->GetNumberOfComponents() != 7 || steps->GetNumberOfTuples() < 1)
  {
    return false;
  }
  steps->GetTypedTuple(0, navigation);
  return navigation[1] > navigation[0] && navigation[3] >= navigation[2] &&
    navigation[6] >= navigation[5] && navigation[4] >= 1.0;
}

void vtkMacroscopeChartRepresentation::SetLayers(int count, int labels, int legend, int guides)
{
  this->LayerCount = std::min(count, static_cast<int>(MaxLayers));
  this->LabelLayer = labels;
  this->LegendLayer = legend;
  this->GuideLayer = guides;
  this->LabelMapper->SetInputDataObject(this->Pieces[labels]);
  // Axis and frame take the label colour, to read on any background.
  this->Mappers[guides]->ScalarVisibilityOff();
  this->SetLabelColor(1.0, 1.0, 1.0);
}

void vtkMacroscopeChartRepresentation::SetSelectableLayer(int layer)
{
  this->SelectableLayer = layer;
  // The hardware selector reports this array's values instead of the
  // drawn cells' indices: the rows of the input they stand for.
  if (auto* mapper = vtkOpenGLPolyDataMapper::SafeDownCast(this->Mappers[layer]))
  {
    mapper->SetCellIdArrayName("vtkOriginalCellIds");
  }
}

void vtkMacroscopeChartRepresentation::SetLitLayer(int layer)
{
  this->Actors[layer]->GetProperty()->SetLighting(true);
}

void vtkMacroscopeChartRepresentation::SetShowLabels(bool show)
{
  this->ShowLabels = show;
  this->UpdateVisibilities();
}

void vtkMacroscopeChartRepresentation::SetShowLegend(bool show)
{
  this->ShowLegend = show;
  this->UpdateVisibilities();
}

void vtkMacroscopeChartRepresentation::GetLabelColor(double rgb[3])
{
  this->LabelMapper->GetLabelTextProperty(LabelKinds[0])->GetColor(rgb);
}

void vtkMacroscopeChartRepresentation::SetLabelColor(double red, double green, double blue)
{
  for (int kind : LabelKinds)
  {
    this->LabelMapper->GetLabelTextProperty(kind)->SetColor(red, green, blue);
  }
  for (int kind : { GROUP_LABEL, NODE_LABEL })
  {
    this->LabelMapper->GetLabelTextProperty(kind)->SetBackgroundColor(
      1.0 - red, 1.0 - green, 1.0 - blue);
  }
  if (this->GuideLayer >= 0)
  {
    this->Actors[this->GuideLayer]->GetProperty()->SetColor(red, green, blue);
  }
}

void vtkMacroscopeChartRepresentation::SetLabelFontSize(int size)
{
  if (size != this->LabelFontSize)
  {
    this->LabelFontSize = size; // the layouts measure their labels at this size
    this->MarkModified();
  }
  for (int kind : LabelKinds)
  {
    this->LabelMapper->GetLabelTextProperty(kind)->SetFontSize(size);
  }
}

vtkDataObject* vtkMacroscopeChartRepresentation::GetRenderedDataObject(int port)
{
  if (port >= 0 && port == this->LabelLayer && this->Pieces[port]->GetNumberOfPoints() == 0)
  {
    // A client of a server computes no layout: the labels it was delivered.
    if (vtkDataObject* delivered = this->LabelMapper->GetInput())
    {
      return delivered;
    }
  }
  return port >= 0 && port < std::max(this->LayerCount, 1) ? this->Pieces[port].Get() : nullptr;
}

void vtkMacroscopeChartRepresentation::SetVisibility(bool visible)
{
  this->Superclass::SetVisibility(visible);
  this->UpdateVisibilities();
}

void vtkMacroscopeChartRepresentation::UpdateVisibilities()
{
  const bool visible = this->GetVisibility();
  for (int layer = 0; layer < this->LayerCount; ++layer)
  {
    this->Actors[layer]->SetVisibility(visible && this->IsDrawn(layer));
  }
  if (this->LegendLayer >= 0)
  {
    this->Actors[this->LegendLayer]->SetVisibility(visible && this->ShowLegend);
  }
  // Legend names are labels too: they follow ShowLegend, not ShowLabels.
  this->LabelActor->SetVisibility(visible && (this->ShowLabels || this->ShowLegend));
  for (int kind : LabelKinds)
  {
    const bool shown = kind != this->KindDrawnElsewhere &&
      (kind == LEGEND_LABEL ? this->ShowLegend : this->ShowLabels);
    this->LabelMapper->GetLabelTextProperty(kind)->SetOpacity(shown ? 1.0 : 0.0);
  }
  if (this->KindDrawnElsewhere >= 0)
  {
    this->LabelMapper->GetLabelTextProperty(this->KindDrawnElsewhere)->SetBackgroundOpacity(0.0);
  }
}

void vtkMacroscopeChartRepresentation::SetLabelKindDrawnElsewhere(int kind)
{
  this->KindDrawnElsewhere = kind;
  this->UpdateVisibilities();
}

vtkTextProperty* vtkMacroscopeChartRepresentation::GetLabelTextProperty(int kind)
{
  return this->LabelMapper->GetLabelTextProperty(kind);
}

int vtkMacroscopeChartRepresentation::FillInputPortInformation(int, vtkInformation* info)
{
  info->Set(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkTable");
  info->Set(vtkAlgorithm::INPUT_IS_OPTIONAL(), 1);
  return 1;
}

int vtkMacroscopeChartRepresentation::RequestData(
  vtkInformation* request, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  for (auto& piece : this->Pieces)
  {
    piece->Initialize();
  }
  if (inputVector[0]->GetNumberOfInformationObjects() == 1)
  {
    int size[2];
    this->ResolveLayoutSize(size);
    this->SetLayoutSize(size[0], size[1]);
    // Input check (docs/details-on-demand.md): a type that cannot show its
    // input says so and draws nothing, rather than failing in its layout.
    const std::string problem =
      MacroscopeInputProblem(this, vtkDataObject::GetData(inputVector[0], 0));
    if (!problem.empty())
    {
      vtkErrorMacro(<< problem);
      return this->Superclass::RequestData(request, inputVector, outputVector);
    }
    vtkAlgorithm* layout = this->Layout(inputVector);
    if (!layout)
    {
      return 0;
    }
    for (int layer = 0; layer < this->LayerCount; ++layer)
    {
      this->Pieces[layer]->ShallowCopy(layout->GetOutputDataObject(layer));
    }
    this->GetChartSize(size);
    this->GetChartBounds(size, this->Bounds);
    // A layout that placed its labels in a frame (docs/labels.md) says
    // which bounds hold the plot, the labels and the legend: fit those. Its
    // frame is the size it was given, text included, so that a chart laid
    // out for its view fills it (docs/views.md).
    auto* frame = vtkDoubleArray::SafeDownCast(
      this->Pieces[this->LabelLayer]->GetFieldData()->GetArray("ChartBounds"));
    if (frame && frame->GetNumberOfComponents() == 4 && frame->GetNumberOfTuples() == 1)
    {
      frame->GetTypedTuple(0, this->Bounds);
    }
    else if (IsEmpty(layout, this->LayerCount))
    {
      // A rank that draws nothing (the table lives on another rank) must
      // not widen the bounds the drawing rank's frame gives.
      vtkMath::UninitializeBounds(this->Bounds);
    }
    // Every rank knows the region the drawing ranks framed (tests, the
    // navigation fields; the view's camera takes ParaView's own union).
    AllReduceBounds(this->Bounds);
    this->AddNavigationFields();
  }
  return this->Superclass::RequestData(request, inputVector, outputVector);
}

void vtkMacroscopeChartRepresentation::ResolveLayoutSize(int size[2])
{
  if (this->RequestedViewSize[0] > 0 && this->RequestedViewSize[1] > 0)
  {
    std::copy(this->RequestedViewSize, this->RequestedViewSize + 2, size);
  }
  else if (this->ViewPixelSize[0] > 0 && this->ViewPixelSize[1] > 0)
  {
    // The layouts fit their labels, axis and legend inside the size they
    // are given (docs/labels.md): the view's size is the size to lay out.
    size[0] = std::max(this->ViewPixelSize[0], MinAutoSize);
    size[1] = std::max(this->ViewPixelSize[1], MinAutoSize);
  }
  else
  {
    std::copy(FallbackSize, FallbackSize + 2, size);
  }
}

void vtkMacroscopeChartRepresentation::AddNavigationFields()
{
  if (this->LabelLayer < 0)
  {
    return;
  }
  vtkFieldData* fields = this->Pieces[this->LabelLayer]->GetFieldData();
  // The chart region and the view size it was made for (tests, docs/views.md).
  vtkNew<vtkDoubleArray> region;
  region->SetName("ChartRegion");
  region->SetNumberOfComponents(6);
  region->InsertNextTuple(this->Bounds);
  fields->AddArray(region);
  double span[2];
  if (this->GetTraceSpan(span))
  {
    vtkNew<vtkDoubleArray> traceSpan;
    traceSpan->SetName("TraceSpan");
    traceSpan->SetNumberOfComponents(2);
    traceSpan->InsertNextTuple(span);
    fields->AddArray(traceSpan);
  }
}

void vtkMacroscopeChartRepresentation::GetChartBounds(const int size[2], double bounds[6])
{
  const double width = size[0], height = size[1];
  const double chart[6] = { -0.16 * width, width + 260.0, -0.08 * height, 1.01 * height, -1.0,
    8.0 };
  std::copy(chart, chart + 6, bounds);
}

int vtkMacroscopeChartRepresentation::ProcessViewRequest(
  vtkInformationRequestKey* request, vtkInformation* inInfo, vtkInformation* outInfo)
{
  if (!this->Superclass::ProcessViewRequest(request, inInfo, outInfo))
  {
    return 0;
  }
  if (request == vtkPVView::REQUEST_UPDATE())
  {
    for (int layer = 0; layer < this->LayerCount; ++layer)
    {
      vtkPVView::SetPiece(inInfo, this, this->Pieces[layer], 0, layer);
    }
    // Labels are drawn over the composited image, where the client or the
    // first rank renders: deliver them there.
    vtkPVRenderView::SetDeliverToClientAndRenderingProcesses(
      inInfo, this, true, false, this->LabelLayer);
    if (vtkMath::AreBoundsInitialized(this->Bounds))
    {
      vtkPVRenderView::SetGeometryBounds(inInfo, this, this->Bounds);
    }
  }
  else if (request == vtkPVView::REQUEST_RENDER())
  {
    for (int layer = 0; layer < this->LayerCount; ++layer)
    {
      if (this->IsDrawn(layer))
      {
        this->Mappers[layer]->SetInputConnection(
          vtkPVRenderView::GetPieceProducer(inInfo, this, layer));
      }
    }
    this->LabelMapper->SetInputConnection(
      vtkPVRenderView::GetPieceProducer(inInfo, this, this->LabelLayer));
  }
  return 1;
}

bool vtkMacroscopeChartRepresentation::AddToView(vtkView* view)
{
  auto* renderView = vtkPVRenderView::SafeDownCast(view);
  if (!renderView)
  {
    return false;
  }
  for (int layer = 0; layer < this->LayerCount; ++layer)
  {
    if (this->IsDrawn(layer))
    {
      renderView->GetRenderer()->AddActor(this->Actors[layer]);
    }
  }
  renderView->GetNonCompositedRenderer()->AddActor(this->LabelActor);
  if (this->SelectableLayer >= 0)
  {
    renderView->RegisterPropForHardwareSelection(this, this->Actors[this->SelectableLayer]);
  }
  return this->Superclass::AddToView(view);
}

bool vtkMacroscopeChartRepresentation::RemoveFromView(vtkView* view)
{
  auto* renderView = vtkPVRenderView::SafeDownCast(view);
  if (!renderView)
  {
    return false;
  }
  for (int layer = 0; layer < this->LayerCount; ++layer)
  {
    if (this->IsDrawn(layer))
    {
      renderView->GetRenderer()->RemoveActor(this->Actors[layer]);
    }
  }
  renderView->GetNonCompositedRenderer()->RemoveActor(this->LabelActor);
  if (this->SelectableLayer >= 0)
  {
    renderView->UnRegisterPropForHardwareSelection(this, this->Actors[this->SelectableLayer]);
  }
  return this->Superclass::RemoveFromView(view);
}
