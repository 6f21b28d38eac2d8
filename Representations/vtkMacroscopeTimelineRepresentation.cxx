#include "vtkMacroscopeTimelineRepresentation.h"

#include "MacroscopeNameList.h"
#include "MacroscopeTraceInputs.h"
#include "MacroscopeTraceLookup.h"
#include "vtkMacroscopeTimelineLayout.h"

#include "vtkDataObject.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkMultiProcessController.h"
#include "vtkObjectFactory.h"

#include <string>

vtkStandardNewMacro(vtkMacroscopeTimelineRepresentation);

vtkMacroscopeTimelineRepresentation::vtkMacroscopeTimelineRepresentation()
{
  using Layout = vtkMacroscopeTimelineLayout;
  this->SetLayers(6, Layout::LABELS, Layout::LEGEND, Layout::GUIDES);
}

vtkMacroscopeTimelineRepresentation::~vtkMacroscopeTimelineRepresentation() = default;

void vtkMacroscopeTimelineRepresentation::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Layout:\n";
  this->TimelineLayout->PrintSelf(os, indent.GetNextIndent());
}

vtkMacroscopeTimelineLayout* vtkMacroscopeTimelineRepresentation::GetLayout()
{
  return this->TimelineLayout;
}

#define MACROSCOPE_FORWARD(Setter, Type)                                                           \
  void vtkMacroscopeTimelineRepresentation::Setter(Type value)                                     \
  {                                                                                                \
    this->TimelineLayout->Setter(value);                                                           \
    this->MarkModified();                                                                          \
  }
MACROSCOPE_FORWARD(SetMinMarkWidth, double)
MACROSCOPE_FORWARD(SetMinRowHeight, double)
MACROSCOPE_FORWARD(SetDepth, int)
MACROSCOPE_FORWARD(SetShowMessages, bool)
MACROSCOPE_FORWARD(SetMaxMessagesPerPixel, int)
MACROSCOPE_FORWARD(SetGroupLevel, int)
MACROSCOPE_FORWARD(SetAggregateStyle, int)
MACROSCOPE_FORWARD(SetTitle, const char*)
#undef MACROSCOPE_FORWARD

#define MACROSCOPE_TO_LAYOUT(call)                                                                 \
  this->TimelineLayout->call;                                                                      \
  this->MarkModified()
MACROSCOPE_FORWARD_RESOURCES_AND_TYPES(vtkMacroscopeTimelineRepresentation, MACROSCOPE_TO_LAYOUT)
#undef MACROSCOPE_TO_LAYOUT

void vtkMacroscopeTimelineRepresentation::SetTimeWindow(double start, double end)
{
  this->TimelineLayout->SetTimeWindow(start, end);
  this->MarkModified();
}

void vtkMacroscopeTimelineRepresentation::SetRowWindow(int first, int last)
{
  this->TimelineLayout->SetRowWindow(first, last);
  this->MarkModified();
}

void vtkMacroscopeTimelineRepresentation::SetLayoutSize(int width, int height)
{
  this->TimelineLayout->SetViewSize(width, height);
}

bool vtkMacroscopeTimelineRepresentation::GetTraceSpan(double span[2])
{
  span[0] = this->TraceSpan[0];
  span[1] = this->TraceSpan[1];
  return this->HasTraceSpan;
}

void vtkMacroscopeTimelineRepresentation::GetChartSize(int size[2])
{
  this->TimelineLayout->GetViewSize(size);
}

vtkAlgorithm* vtkMacroscopeTimelineRepresentation::Layout(vtkInformationVector**)
{
  vtkNew<vtkInformationVector> trace;
  if (!MacroscopeFindTrace(this->GetInputAlgorithm(0, 0), trace))
  {
    vtkErrorMacro("The Timeline representation shows a trace: its input must be an output of "
                  "a Macroscope trace reader (States, usually), whose other outputs hold the "
                  "Hierarchy and, optionally, Messages and Types.");
    return nullptr;
  }
  this->TimelineLayout->RemoveAllInputConnections(0);
  for (int i = 0; i < trace->GetNumberOfInformationObjects(); ++i)
  {
    this->TimelineLayout->AddInputDataObject(
      0, trace->GetInformationObject(i)->Get(vtkDataObject::DATA_OBJECT()));
  }
  this->TimelineLayout->SetTypeColors(this->GetTypeColors());
  this->TimelineLayout->SetLabelFontSize(this->GetLabelFontSize()); // docs/labels.md
  this->TimelineLayout->Update();
  // The span zoom and pan stay in (docs/views.md); collective, as the
  // layout's own window resolution.
  MacroscopeTraceInputs inputs;
  std::string problem;
  this->HasTraceSpan = inputs.Collect(trace, problem);
  if (this->HasTraceSpan)
  {
    inputs.TimeBounds(this->TraceSpan, this->TimelineLayout->GetController());
  }
  return this->TimelineLayout;
}
