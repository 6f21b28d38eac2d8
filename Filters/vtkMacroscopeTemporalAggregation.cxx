#include "vtkMacroscopeTemporalAggregation.h"

#include "Aggregation.h"

#include "vtkObjectFactory.h"

#include <utility>

vtkStandardNewMacro(vtkMacroscopeTemporalAggregation);

void vtkMacroscopeTemporalAggregation::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
}

std::unique_ptr<macroscope::Aggregation> vtkMacroscopeTemporalAggregation::CreateAggregation(
  const macroscope::ModelView& model, const macroscope::AggregationHierarchy&,
  AggregationProgressHook progress)
{
  return std::make_unique<macroscope::TemporalAggregation>(model, 0u, std::move(progress));
}
