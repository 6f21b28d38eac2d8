#include "vtkMacroscopeSpatiotemporalAggregation.h"

#include "Aggregation.h"

#include "vtkObjectFactory.h"

#include <utility>

vtkStandardNewMacro(vtkMacroscopeSpatiotemporalAggregation);

void vtkMacroscopeSpatiotemporalAggregation::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
}

std::unique_ptr<macroscope::Aggregation> vtkMacroscopeSpatiotemporalAggregation::CreateAggregation(
  const macroscope::ModelView& model, const macroscope::AggregationHierarchy& hierarchy,
  AggregationProgressHook progress)
{
  return std::make_unique<macroscope::SpatiotemporalAggregation>(
    model, hierarchy, 0u, std::move(progress));
}
