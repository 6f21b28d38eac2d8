#include "vtkMacroscopeTimelineRepresentation.h"

#include "MacroscopeTraceInputs.h"
#include "vtkMacroscopeTimelineLayout.h"

#include "vtkDataObject.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkObjectFactory.h"

#include <string>

vtkStandardNewMacro(vtkMacroscopeTimelineRepresentation);

namespace
{
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
#undef MACROSCOPE_FORWARD

void vtkMacroscopeTimelineRepresentation::SetTimeWindow(double start, double end)
{
  this->TimelineLayout->SetTimeWindow(start, end);
  this->MarkModified();
}

void vtkMacroscopeTimelineRepresentation::SetViewSize(int width, int height)
{
  this->TimelineLayout->SetViewSize(width, height);
  this->MarkModified();
}

void vtkMacroscopeTimelineRepresentation::GetChartSize(int size[2])
{
  this->TimelineLayout->GetViewSize(size);
}

vtkAlgorithm* vtkMacroscopeTimelineRepresentation::Layout(vtkInformationVector**)
{
  vtkNew<vtkInformationVector> trace;
  if (!FindTrace(this->GetInputAlgorithm(0, 0), trace))
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
  this->TimelineLayout->Update();
  return this->TimelineLayout;
}
