#include "vtkMacroscopeTimelineRepresentation.h"

#include "MacroscopeTraceInputs.h"
#include "vtkMacroscopeTimelineLayout.h"

#include "vtkActor.h"
#include "vtkActor2D.h"
#include "vtkAlgorithmOutput.h"
#include "vtkCellArray.h"
#include "vtkCoordinate.h"
#include "vtkDataObject.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkLabeledDataMapper.h"
#include "vtkObjectFactory.h"
#include "vtkPVRenderView.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkPolyDataMapper.h"
#include "vtkProperty.h"
#include "vtkRenderer.h"
#include "vtkStringArray.h"
#include "vtkTextProperty.h"
#include "vtkUnsignedCharArray.h"

#include <algorithm>
#include <string>

vtkStandardNewMacro(vtkMacroscopeTimelineRepresentation);

namespace
{
using Layout = vtkMacroscopeTimelineLayout;
// The layout's outputs drawn as geometry (Labels is drawn as text).
constexpr int Drawn[] = { Layout::MARKS, Layout::MESSAGES, Layout::HATCHING, Layout::GUIDES,
  Layout::LEGEND };
constexpr int LabelKinds[] = { Layout::TICK_LABEL, Layout::ROW_LABEL, Layout::GROUP_LABEL,
  Layout::AXIS_TITLE, Layout::LEGEND_LABEL };

// The trace a table belongs to: the outputs of the algorithm that produced
// it, or of the nearest algorithm upstream with several outputs (ParaView
// puts pass-through filters between a reader's port and its displays).
bool FindTrace(vtkAlgorithm* producer, vtkInformationVector* found)
{
  for (int hop = 0; producer && hop < 8; ++hop)
  {
    vtkNew<vtkInformationVector> outputs;
    for (int port = 0; port < producer->GetNumberOfOutputPorts(); ++port)
    {
      if (vtkDataObject* data = producer->GetOutputDataObject(port))
      {
        vtkNew<vtkInformation> info;
        info->Set(vtkDataObject::DATA_OBJECT(), data);
        outputs->Append(info);
      }
    }
    MacroscopeTraceInputs trace;
    std::string problem;
    if (trace.Collect(outputs, problem) && trace.States && trace.Hierarchy)
    {
      found->Copy(outputs, 1);
      return true;
    }
    if (producer->GetNumberOfInputPorts() < 1 || producer->GetNumberOfInputConnections(0) != 1)
    {
      return false;
    }
    producer = producer->GetInputAlgorithm(0, 0);
  }
  return false;
}

}

vtkMacroscopeTimelineRepresentation::vtkMacroscopeTimelineRepresentation()
{
  for (int layer : Drawn)
  {
    this->Mappers[layer]->SetInputDataObject(this->Pieces[layer]);
    this->Mappers[layer]->SetScalarModeToUseCellFieldData();
    this->Mappers[layer]->SelectColorArray("Color");
    this->Mappers[layer]->SetColorModeToDirectScalars();
    this->Actors[layer]->SetMapper(this->Mappers[layer]);
    this->Actors[layer]->GetProperty()->SetLighting(false);
  }
  // Axis and frame take the label colour, to read on any background.
  this->Mappers[Layout::GUIDES]->ScalarVisibilityOff();
  this->Mappers[Layout::LABELS]->ScalarVisibilityOff();
  this->Actors[Layout::MESSAGES]->GetProperty()->SetLineWidth(1.0);

  this->LabelMapper->SetInputDataObject(this->Pieces[Layout::LABELS]);
  this->LabelMapper->SetLabelModeToLabelFieldData();
  this->LabelMapper->SetFieldDataName("Label");
  this->LabelMapper->SetInputArrayToProcess(
    0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, "LabelKind");
  for (int kind : LabelKinds)
  {
    vtkNew<vtkTextProperty> text;
    text->SetFontSize(12);
    text->SetBold(kind == Layout::GROUP_LABEL);
    text->SetItalic(kind == Layout::AXIS_TITLE);
    text->SetJustification(kind == Layout::ROW_LABEL ? VTK_TEXT_RIGHT
        : kind == Layout::TICK_LABEL || kind == Layout::AXIS_TITLE ? VTK_TEXT_CENTERED
                                                                   : VTK_TEXT_LEFT);
    text->SetVerticalJustification(
      kind == Layout::ROW_LABEL || kind == Layout::LEGEND_LABEL ? VTK_TEXT_CENTERED : VTK_TEXT_TOP);
    if (kind == Layout::GROUP_LABEL)
    {
      text->SetBackgroundOpacity(0.7); // drawn over the marks: keep it legible
    }
    text->SetShadow(false);
    this->LabelMapper->SetLabelTextProperty(text, kind);
  }
  this->LabelActor->SetMapper(this->LabelMapper);

  this->SetLabelColor(1.0, 1.0, 1.0);
}

vtkMacroscopeTimelineRepresentation::~vtkMacroscopeTimelineRepresentation() = default;

void vtkMacroscopeTimelineRepresentation::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "ShowLabels: " << this->ShowLabels << "\n";
  os << indent << "ShowLegend: " << this->ShowLegend << "\n";
  os << indent << "Layout:\n";
  this->Layout->PrintSelf(os, indent.GetNextIndent());
}

vtkMacroscopeTimelineLayout* vtkMacroscopeTimelineRepresentation::GetLayout()
{
  return this->Layout;
}

#define MACROSCOPE_FORWARD(Setter, Type)                                                           \
  void vtkMacroscopeTimelineRepresentation::Setter(Type value)                                     \
  {                                                                                                \
    this->Layout->Setter(value);                                                                   \
    this->MarkModified();                                                                          \
  }
MACROSCOPE_FORWARD(SetMinMarkWidth, double)
MACROSCOPE_FORWARD(SetMinRowHeight, double)
MACROSCOPE_FORWARD(SetDepth, int)
MACROSCOPE_FORWARD(SetShowMessages, bool)
MACROSCOPE_FORWARD(SetMaxMessagesPerPixel, int)
MACROSCOPE_FORWARD(SetGroupLevel, int)
MACROSCOPE_FORWARD(SetAggregateStyle, int)
#undef MACROSCOPE_FORWARD

void vtkMacroscopeTimelineRepresentation::SetTimeWindow(double start, double end)
{
  this->Layout->SetTimeWindow(start, end);
  this->MarkModified();
}

void vtkMacroscopeTimelineRepresentation::SetViewSize(int width, int height)
{
  this->Layout->SetViewSize(width, height);
  this->MarkModified();
}

void vtkMacroscopeTimelineRepresentation::SetShowLabels(bool show)
{
  this->ShowLabels = show;
  this->UpdateVisibilities();
}

void vtkMacroscopeTimelineRepresentation::SetShowLegend(bool show)
{
  this->ShowLegend = show;
  this->UpdateVisibilities();
}

void vtkMacroscopeTimelineRepresentation::SetLabelColor(double red, double green, double blue)
{
  for (int kind : LabelKinds)
  {
    this->LabelMapper->GetLabelTextProperty(kind)->SetColor(red, green, blue);
  }
  this->LabelMapper->GetLabelTextProperty(Layout::GROUP_LABEL)
    ->SetBackgroundColor(1.0 - red, 1.0 - green, 1.0 - blue);
  this->Actors[Layout::GUIDES]->GetProperty()->SetColor(red, green, blue);
}

void vtkMacroscopeTimelineRepresentation::SetLabelFontSize(int size)
{
  for (int kind : LabelKinds)
  {
    this->LabelMapper->GetLabelTextProperty(kind)->SetFontSize(size);
  }
}

vtkDataObject* vtkMacroscopeTimelineRepresentation::GetRenderedDataObject(int)
{
  return this->Pieces[Layout::MARKS];
}

void vtkMacroscopeTimelineRepresentation::SetVisibility(bool visible)
{
  this->Superclass::SetVisibility(visible);
  this->UpdateVisibilities();
}

void vtkMacroscopeTimelineRepresentation::UpdateVisibilities()
{
  const bool visible = this->GetVisibility();
  for (int layer : Drawn)
  {
    this->Actors[layer]->SetVisibility(visible);
  }
  this->LabelActor->SetVisibility(visible && this->ShowLabels);
  this->Actors[Layout::LEGEND]->SetVisibility(visible && this->ShowLegend);
  // Legend names are labels too: they follow ShowLegend, not ShowLabels.
  this->LabelMapper->GetLabelTextProperty(Layout::LEGEND_LABEL)
    ->SetOpacity(this->ShowLegend ? 1.0 : 0.0);
  if (this->ShowLegend && !this->ShowLabels)
  {
    this->LabelActor->SetVisibility(visible);
    for (int kind : LabelKinds)
    {
      this->LabelMapper->GetLabelTextProperty(kind)->SetOpacity(kind == Layout::LEGEND_LABEL);
    }
  }
  else
  {
    for (int kind : LabelKinds)
    {
      if (kind != Layout::LEGEND_LABEL)
      {
        this->LabelMapper->GetLabelTextProperty(kind)->SetOpacity(1.0);
      }
    }
  }
}

int vtkMacroscopeTimelineRepresentation::FillInputPortInformation(int, vtkInformation* info)
{
  info->Set(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkTable");
  info->Set(vtkAlgorithm::INPUT_IS_OPTIONAL(), 1);
  return 1;
}

int vtkMacroscopeTimelineRepresentation::RequestData(
  vtkInformation* request, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  for (auto& piece : this->Pieces)
  {
    piece->Initialize();
  }
  if (inputVector[0]->GetNumberOfInformationObjects() == 1)
  {
    vtkNew<vtkInformationVector> trace;
    if (!FindTrace(this->GetInputAlgorithm(0, 0), trace))
    {
      vtkErrorMacro("The Timeline representation shows a trace: its input must be an output of "
                    "a Macroscope trace reader (States, usually), whose other outputs hold the "
                    "Hierarchy and, optionally, Messages and Types.");
      return 0;
    }
    this->Layout->RemoveAllInputConnections(0);
    for (int i = 0; i < trace->GetNumberOfInformationObjects(); ++i)
    {
      this->Layout->AddInputDataObject(
        0, trace->GetInformationObject(i)->Get(vtkDataObject::DATA_OBJECT()));
    }
    this->Layout->Update();
    for (int layer = 0; layer < Layers; ++layer)
    {
      this->Pieces[layer]->ShallowCopy(this->Layout->GetOutput(layer));
    }
    // The chart's extent plus room for the labels and the legend.
    const int* size = this->Layout->GetViewSize();
    const double width = size[0], height = size[1];
    const double bounds[6] = { -0.16 * width, width + 260.0, -0.08 * height, 1.01 * height,
      -1.0, 8.0 };
    std::copy(bounds, bounds + 6, this->Bounds);
  }
  return this->Superclass::RequestData(request, inputVector, outputVector);
}

int vtkMacroscopeTimelineRepresentation::ProcessViewRequest(
  vtkInformationRequestKey* request, vtkInformation* inInfo, vtkInformation* outInfo)
{
  if (!this->Superclass::ProcessViewRequest(request, inInfo, outInfo))
  {
    return 0;
  }
  if (request == vtkPVView::REQUEST_UPDATE())
  {
    for (int layer = 0; layer < Layers; ++layer)
    {
      vtkPVView::SetPiece(inInfo, this, this->Pieces[layer], 0, layer);
    }
    // Labels and legend are drawn over the composited image, where the
    // client or the first rank renders: deliver them there.
    vtkPVRenderView::SetDeliverToClientAndRenderingProcesses(
      inInfo, this, true, false, Layout::LABELS);
    vtkPVRenderView::SetGeometryBounds(inInfo, this, this->Bounds);
  }
  else if (request == vtkPVView::REQUEST_RENDER())
  {
    for (int layer : Drawn)
    {
      this->Mappers[layer]->SetInputConnection(
        vtkPVRenderView::GetPieceProducer(inInfo, this, layer));
    }
    this->LabelMapper->SetInputConnection(
      vtkPVRenderView::GetPieceProducer(inInfo, this, Layout::LABELS));
  }
  return 1;
}

bool vtkMacroscopeTimelineRepresentation::AddToView(vtkView* view)
{
  auto* renderView = vtkPVRenderView::SafeDownCast(view);
  if (!renderView)
  {
    return false;
  }
  for (int layer : Drawn)
  {
    renderView->GetRenderer()->AddActor(this->Actors[layer]);
  }
  renderView->GetNonCompositedRenderer()->AddActor(this->LabelActor);
  return this->Superclass::AddToView(view);
}

bool vtkMacroscopeTimelineRepresentation::RemoveFromView(vtkView* view)
{
  auto* renderView = vtkPVRenderView::SafeDownCast(view);
  if (!renderView)
  {
    return false;
  }
  for (int layer : Drawn)
  {
    renderView->GetRenderer()->RemoveActor(this->Actors[layer]);
  }
  renderView->GetNonCompositedRenderer()->RemoveActor(this->LabelActor);
  return this->Superclass::RemoveFromView(view);
}
