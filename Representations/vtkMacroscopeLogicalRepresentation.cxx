#include "vtkMacroscopeLogicalRepresentation.h"

#include "vtkMacroscopeClusteredTimelineLayout.h"
#include "vtkMacroscopeLogicalTimelineLayout.h"
#include "vtkMacroscopeMetricOverviewLayout.h"

#include "MacroscopeNameList.h"

#include "vtkDataObject.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkObjectFactory.h"
#include "vtkTable.h"

#include <string>

vtkStandardNewMacro(vtkMacroscopeLogicalRepresentation);

namespace
{
// The logical tables among the outputs of the algorithm that produced the
// shown table, or of the nearest one upstream with the Logical Events among
// them (ParaView puts pass-through filters between a filter's port and its
// displays), with its Hierarchy (for the Resources selection). Outputs that
// are none of the layouts' inputs (Logical Time's Logical Variables, Logical
// Types, Dendrogram) are left out.
bool FindLogicalTables(vtkAlgorithm* producer, vtkInformationVector* found)
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
        vtkNew<vtkInformationVector> one;
        one->Append(info);
        vtkMacroscopeLogicalLayout::Tables kind;
        std::string problem;
        if (vtkMacroscopeLogicalLayout::FindTables(one, kind, problem) &&
          (kind.Events || kind.Messages || kind.Clusters || kind.Steps || kind.Phases ||
            kind.Hierarchy))
        {
          outputs->Append(info);
        }
      }
    }
    vtkMacroscopeLogicalLayout::Tables tables;
    std::string problem;
    if (outputs->GetNumberOfInformationObjects() > 1 &&
      vtkMacroscopeLogicalLayout::FindTables(outputs, tables, problem) && tables.Events)
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

vtkMacroscopeLogicalRepresentation::vtkMacroscopeLogicalRepresentation()
{
  using Layout = vtkMacroscopeLogicalLayout;
  this->SetLayers(Layout::NUMBER_OF_OUTPUTS, Layout::LABELS, Layout::LEGEND, Layout::GUIDES);
  // The Logical Timeline's boxes are pickable: a pick selects their rows of
  // Logical Events (the other views' marks stand for no single row).
  this->SetSelectableLayer(Layout::MARKS);
}

vtkMacroscopeLogicalRepresentation::~vtkMacroscopeLogicalRepresentation() = default;

void vtkMacroscopeLogicalRepresentation::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "View: " << this->View << "\n";
}

vtkMacroscopeLogicalLayout* vtkMacroscopeLogicalRepresentation::GetLayout()
{
  switch (this->View)
  {
    case CLUSTERED_TIMELINE:
      return this->ClusteredLayout;
    case METRIC_OVERVIEW:
      return this->OverviewLayout;
    default:
      return this->TimelineLayout;
  }
}

void vtkMacroscopeLogicalRepresentation::SetView(int view)
{
  this->View = view;
  this->MarkModified();
}

#define MACROSCOPE_FORWARD_ALL(call)                                                               \
  this->TimelineLayout->call;                                                                      \
  this->ClusteredLayout->call;                                                                     \
  this->OverviewLayout->call;                                                                      \
  this->MarkModified()

void vtkMacroscopeLogicalRepresentation::SetLayoutSize(int width, int height)
{
  // Called from RequestData: the layouts only, not this representation.
  this->TimelineLayout->SetViewSize(width, height);
  this->ClusteredLayout->SetViewSize(width, height);
  this->OverviewLayout->SetViewSize(width, height);
}

void vtkMacroscopeLogicalRepresentation::SetStepWindow(vtkIdType first, vtkIdType last)
{
  MACROSCOPE_FORWARD_ALL(SetStepWindow(first, last));
}

void vtkMacroscopeLogicalRepresentation::SetTimeWindow(double start, double end)
{
  MACROSCOPE_FORWARD_ALL(SetTimeWindow(start, end));
}

void vtkMacroscopeLogicalRepresentation::SetShowAggregates(bool show)
{
  MACROSCOPE_FORWARD_ALL(SetShowAggregates(show));
}

void vtkMacroscopeLogicalRepresentation::SetMaxMessages(vtkIdType count)
{
  MACROSCOPE_FORWARD_ALL(SetMaxMessages(count));
}
MACROSCOPE_FORWARD_RESOURCES_AND_TYPES(vtkMacroscopeLogicalRepresentation, MACROSCOPE_FORWARD_ALL)
#undef MACROSCOPE_FORWARD_ALL

void vtkMacroscopeLogicalRepresentation::SetFocusRadius(int radius)
{
  this->ClusteredLayout->SetFocusRadius(radius);
  this->MarkModified();
}

void vtkMacroscopeLogicalRepresentation::GetChartSize(int size[2])
{
  this->GetLayout()->GetViewSize(size);
}

vtkAlgorithm* vtkMacroscopeLogicalRepresentation::Layout(vtkInformationVector** inputVector)
{
  if (this->View < LOGICAL_TIMELINE || this->View > METRIC_OVERVIEW)
  {
    vtkErrorMacro("View must be 0 (Logical Timeline), 1 (Clustered Logical Timeline) or 2 "
                  "(Metric Overview), not "
      << this->View << ".");
    return nullptr;
  }
  vtkMacroscopeLogicalLayout* layout = this->GetLayout();
  layout->RemoveAllInputConnections(0);
  vtkNew<vtkInformationVector> tables;
  if (FindLogicalTables(this->GetInputAlgorithm(0, 0), tables))
  {
    for (int i = 0; i < tables->GetNumberOfInformationObjects(); ++i)
    {
      layout->AddInputDataObject(
        0, tables->GetInformationObject(i)->Get(vtkDataObject::DATA_OBJECT()));
    }
  }
  else
  {
    layout->AddInputDataObject(0, vtkTable::GetData(inputVector[0], 0));
  }
  layout->SetLabelFontSize(this->GetLabelFontSize()); // docs/labels.md
  // A layout that cannot draw its input says why and outputs nothing.
  layout->Update();
  return layout;
}
