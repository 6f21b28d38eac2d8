#include "MacroscopeClusterMarkArrays.h"

#include "vtkCellData.h"

#include <initializer_list>

MacroscopeClusterMarkArrays::MacroscopeClusterMarkArrays()
{
  this->Kinds->SetName("Mark");
  this->Phases->SetName("Phase");
  this->Clusters->SetName("Cluster");
  this->Steps->SetName("GlobalStep");
  this->Metrics->SetName("Metric");
  this->Fractions->SetName("Fraction");
  this->Locations->SetName("Location");
  this->Members->SetName("Members");
}

void MacroscopeClusterMarkArrays::Add(int mark, int phase, int cluster, vtkIdType step,
  double metric, double fraction, int location, const std::string& members)
{
  this->Members->InsertNextValue(members);
  this->Locations->InsertNextValue(location);
  this->Kinds->InsertNextValue(mark);
  this->Phases->InsertNextValue(phase);
  this->Clusters->InsertNextValue(cluster);
  this->Steps->InsertNextValue(step);
  this->Metrics->InsertNextValue(metric);
  this->Fractions->InsertNextValue(fraction);
}

void MacroscopeClusterMarkArrays::Into(vtkCellData* cells)
{
  for (vtkAbstractArray* array :
    std::initializer_list<vtkAbstractArray*>{ this->Kinds, this->Phases, this->Clusters,
      this->Steps, this->Metrics, this->Fractions, this->Locations, this->Members })
  {
    cells->AddArray(array);
  }
}
