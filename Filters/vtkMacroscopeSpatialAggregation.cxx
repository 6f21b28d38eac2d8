#include "vtkMacroscopeSpatialAggregation.h"

#include "Aggregation.h"

#include "vtkObjectFactory.h"

vtkStandardNewMacro(vtkMacroscopeSpatialAggregation);

void vtkMacroscopeSpatialAggregation::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
}

std::unique_ptr<macroscope::Aggregation> vtkMacroscopeSpatialAggregation::CreateAggregation(
  const macroscope::ModelView& model, const macroscope::AggregationHierarchy& hierarchy)
{
  return std::make_unique<macroscope::SpatialAggregation>(model, hierarchy);
}
