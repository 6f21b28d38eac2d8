#include "vtkMacroscopeChartRepresentation.h"

#include "MacroscopeChart.h"

#include "vtkActor.h"
#include "vtkActor2D.h"
#include "vtkAlgorithm.h"
#include "vtkDataObject.h"
#include "vtkDoubleArray.h"
#include "vtkPointData.h"
#include "vtkStringArray.h"
#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkLabeledDataMapper.h"
#include "vtkMultiProcessController.h"
#include "vtkCommunicator.h"
#include "vtkOpenGLPolyDataMapper.h"
#include "vtkPVRenderView.h"
#include "vtkPolyData.h"
#include "vtkPolyDataMapper.h"
#include "vtkProperty.h"
#include "vtkRenderer.h"
#include "vtkTextProperty.h"

#include <algorithm>
#include <cmath>

namespace
{
using namespace MacroscopeChart;
// The size laid out when neither the property nor a chart view gives one
// (a plain Render View): the former default of ViewSize.
constexpr int FallbackSize[2] = { 1600, 900 };
// The smallest chart an automatic size yields, for tiny views.
constexpr int MinAutoSize = 64;

// x0, x1, y0, y1 of `bounds`: the union over the ranks of the global
// controller (every rank must call this).
void AllReduceBounds(double bounds[6])
{
  vtkMultiProcessController* controller = vtkMultiProcessController::GetGlobalController();
  if (!controller || controller->GetNumberOfProcesses() < 2)
  {
    return;
  }
  const double mine[4] = { bounds[0], -bounds[1], bounds[2], -bounds[3] };
  double all[4];
  controller->AllReduce(mine, all, 4, vtkCommunicator::MIN_OP);
  bounds[0] = all[0];
  bounds[1] = -all[1];
  bounds[2] = all[2];
  bounds[3] = -all[3];
}
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
    text->SetJustification(kind == ROW_LABEL ? VTK_TEXT_RIGHT
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

void vtkMacroscopeChartRepresentation::ChartSizeForView(const int view[2], int size[2])
{
  // Inverse of the default GetChartBounds: width 1.16 w + 260, height 1.09 h.
  size[0] = static_cast<int>((view[0] - 260.0) / 1.16);
  size[1] = static_cast<int>(view[1] / 1.09);
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
  this->FontSize = size;
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
    const bool shown = kind == LEGEND_LABEL ? this->ShowLegend : this->ShowLabels;
    this->LabelMapper->GetLabelTextProperty(kind)->SetOpacity(shown ? 1.0 : 0.0);
  }
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
    const bool automatic = this->ResolveLayoutSize(size);
    // An automatic size fills the view: the chart gets what the labels,
    // axis and legend of the last layout left (ResolveLayoutSize); when they
    // need more room now, the chart shrinks by the excess and is laid out
    // again (at most twice more). One layout is the rule after the first.
    this->LayoutPasses = 0;
    for (int pass = 0; pass < 3; ++pass)
    {
      ++this->LayoutPasses;
      this->SetLayoutSize(size[0], size[1]);
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
      if (!automatic)
      {
        break; // an explicit or fallback size keeps its former framing (image tests)
      }
      // Automatic: the chart and what is drawn around it, with a small
      // border, instead of GetChartBounds' proportional guess.
      const double border = 8.0;
      this->Bounds[0] = -border;
      this->Bounds[1] = size[0] + border;
      this->Bounds[2] = -border;
      this->Bounds[3] = size[1] + border;
      this->AddContentBounds(this->Bounds);
      // Every rank draws its piece of the marks: the union of the ranks'
      // bounds, so that all decide alike to lay out again (the layouts are
      // collective) and keep the same margins.
      AllReduceBounds(this->Bounds);
      const int excess[2] = { static_cast<int>(std::ceil(this->Bounds[1] - this->Bounds[0])) -
          this->ViewPixelSize[0],
        static_cast<int>(std::ceil(this->Bounds[3] - this->Bounds[2])) - this->ViewPixelSize[1] };
      if ((excess[0] <= 0 && excess[1] <= 0) || pass == 2)
      {
        break;
      }
      for (int axis = 0; axis < 2; ++axis)
      {
        size[axis] = std::max(size[axis] - std::max(excess[axis], 0), MinAutoSize);
      }
    }
    if (automatic)
    {
      this->GetChartSize(size);
      const double margins[4] = { -this->Bounds[0], this->Bounds[1] - size[0], -this->Bounds[2],
        this->Bounds[3] - size[1] };
      std::copy(margins, margins + 4, this->Margins);
      this->HasMargins = true;
      // The region is the view: the room left over goes right and up.
      this->Bounds[1] = std::max(this->Bounds[1], this->Bounds[0] + this->ViewPixelSize[0]);
      this->Bounds[3] = std::max(this->Bounds[3], this->Bounds[2] + this->ViewPixelSize[1]);
    }
    this->AddNavigationFields();
  }
  return this->Superclass::RequestData(request, inputVector, outputVector);
}

bool vtkMacroscopeChartRepresentation::ResolveLayoutSize(int size[2])
{
  if (this->RequestedViewSize[0] > 0 && this->RequestedViewSize[1] > 0)
  {
    std::copy(this->RequestedViewSize, this->RequestedViewSize + 2, size);
    return false;
  }
  if (this->ViewPixelSize[0] > 0 && this->ViewPixelSize[1] > 0)
  {
    if (this->HasMargins)
    {
      // What the last layout drew around its chart, in pixels (row labels,
      // axis, legend): the room left for the chart in a view of this size.
      size[0] = static_cast<int>(this->ViewPixelSize[0] - this->Margins[0] - this->Margins[1]);
      size[1] = static_cast<int>(this->ViewPixelSize[1] - this->Margins[2] - this->Margins[3]);
    }
    else
    {
      this->ChartSizeForView(this->ViewPixelSize, size);
    }
    size[0] = std::max(size[0], MinAutoSize);
    size[1] = std::max(size[1], MinAutoSize);
    return true;
  }
  std::copy(FallbackSize, FallbackSize + 2, size);
  return false;
}

void vtkMacroscopeChartRepresentation::AddContentBounds(double bounds[6]) const
{
  auto grow = [bounds](double x0, double x1, double y0, double y1) {
    bounds[0] = std::min(bounds[0], x0);
    bounds[1] = std::max(bounds[1], x1);
    bounds[2] = std::min(bounds[2], y0);
    bounds[3] = std::max(bounds[3], y1);
  };
  for (int layer = 0; layer < this->LayerCount; ++layer)
  {
    vtkPolyData* piece = this->Pieces[layer];
    if (layer == this->LabelLayer || piece->GetNumberOfPoints() == 0)
    {
      continue;
    }
    const double* b = piece->GetBounds();
    grow(b[0], b[1], b[2], b[3]);
  }
  // Text is drawn in pixels around its anchor: an estimate of each label's
  // box (average glyph 0.6 em wide, lines 1.2 em high), placed as the text
  // properties of the constructor justify it.
  vtkPolyData* labels = this->LabelLayer >= 0 ? this->Pieces[this->LabelLayer].Get() : nullptr;
  auto* texts = labels ? vtkStringArray::SafeDownCast(labels->GetPointData()->GetAbstractArray("Label")) : nullptr;
  auto* kinds = labels ? vtkDataArray::SafeDownCast(labels->GetPointData()->GetAbstractArray("LabelKind")) : nullptr;
  if (!texts || !kinds)
  {
    return;
  }
  const double em = this->FontSize;
  for (vtkIdType i = 0; i < labels->GetNumberOfPoints(); ++i)
  {
    double at[3];
    labels->GetPoint(i, at);
    const int kind = static_cast<int>(kinds->GetTuple1(i));
    const double width = 0.6 * em * texts->GetValue(i).size();
    const double height = 1.2 * em;
    const double x0 = kind == ROW_LABEL ? at[0] - width
      : kind == TICK_LABEL || kind == AXIS_TITLE ? at[0] - 0.5 * width
                                                 : at[0];
    const double y1 =
      kind == ROW_LABEL || kind == LEGEND_LABEL ? at[1] + 0.5 * height : at[1];
    grow(x0, x0 + width, y1 - height, y1);
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
  // How many layouts the last update made (1 unless labels needed room).
  vtkNew<vtkDoubleArray> passes;
  passes->SetName("LayoutPasses");
  passes->InsertNextValue(this->LayoutPasses);
  fields->AddArray(passes);
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
    vtkPVRenderView::SetGeometryBounds(inInfo, this, this->Bounds);
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
