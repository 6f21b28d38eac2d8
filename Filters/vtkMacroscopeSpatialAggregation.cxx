#include "vtkMacroscopeSpatialAggregation.h"

#include "Aggregation.h"

#include "vtkObjectFactory.h"

#include <utility>

vtkStandardNewMacro(vtkMacroscopeSpatialAggregation);

void vtkMacroscopeSpatialAggregation::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
}

std::unique_ptr<macroscope::Aggregation> vtkMacroscopeSpatialAggregation::CreateAggregation(
  const macroscope::ModelView& model, const macroscope::AggregationHierarchy& hierarchy,
  AggregationProgressHook progress)
{
  return std::make_unique<macroscope::SpatialAggregation>(model, hierarchy, std::move(progress));
}
