/**
 * @class vtkMacroscopeSpatialAggregation
 * @brief Viva's spatial aggregation: parts are a cut of the resource hierarchy, over the model's
 * whole window.
 *
 * The partition that maximises pIC = p gain - (1 - p) loss for the
 * Parameter p, and the quality curves; see vtkMacroscopePartitionFilter and
 * docs/aggregation.md.
 */
#ifndef vtkMacroscopeSpatialAggregation_h
#define vtkMacroscopeSpatialAggregation_h

#include "MacroscopeFiltersModule.h" // for export macro
#include "vtkMacroscopePartitionFilter.h"

class MACROSCOPEFILTERS_EXPORT vtkMacroscopeSpatialAggregation : public vtkMacroscopePartitionFilter
{
public:
  static vtkMacroscopeSpatialAggregation* New();
  vtkTypeMacro(vtkMacroscopeSpatialAggregation, vtkMacroscopePartitionFilter);
  void PrintSelf(ostream& os, vtkIndent indent) override;

protected:
  vtkMacroscopeSpatialAggregation() = default;
  ~vtkMacroscopeSpatialAggregation() override = default;

  const char* GetConstraintName() const override { return "spatial"; }
  /// A walk over the hierarchy's nodes, against qualities over every cell.
  double GetPartitionCost() const override { return 0.01; }
  std::unique_ptr<macroscope::Aggregation> CreateAggregation(const macroscope::ModelView& model,
    const macroscope::AggregationHierarchy& hierarchy, AggregationProgressHook progress) override;

private:
  vtkMacroscopeSpatialAggregation(const vtkMacroscopeSpatialAggregation&) = delete;
  void operator=(const vtkMacroscopeSpatialAggregation&) = delete;
};

#endif
