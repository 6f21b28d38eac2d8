#include "vtkMacroscopeTopologyRepresentation.h"

#include "MacroscopeTraceLookup.h"
#include "vtkMacroscopeTopologyScene.h"

#include "vtkDataObject.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkObjectFactory.h"

vtkStandardNewMacro(vtkMacroscopeTopologyRepresentation);

vtkMacroscopeTopologyRepresentation::vtkMacroscopeTopologyRepresentation()
{
  using Scene = vtkMacroscopeTopologyScene;
  this->SetLayers(Scene::NUMBER_OF_OUTPUTS, Scene::LABELS, -1, Scene::GUIDES);
  this->SetSelectableLayer(Scene::STATES);
  // Lit boxes read as solids from any side; the base stays flat.
  this->SetLitLayer(Scene::STATES);
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

void vtkMacroscopeTopologyRepresentation::AddResource(const char* name)
{
  this->Scene->AddResource(name);
  this->MarkModified();
}

void vtkMacroscopeTopologyRepresentation::RemoveAllResources()
{
  this->Scene->RemoveAllResources();
  this->MarkModified();
}

void vtkMacroscopeTopologyRepresentation::AddType(const char* name)
{
  this->Scene->AddType(name);
  this->MarkModified();
}

void vtkMacroscopeTopologyRepresentation::RemoveAllTypes()
{
  this->Scene->RemoveAllTypes();
  this->MarkModified();
}

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
