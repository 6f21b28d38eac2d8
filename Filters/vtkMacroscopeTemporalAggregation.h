/**
 * @class vtkMacroscopeTemporalAggregation
 * @brief Ocelotl's temporal aggregation: parts are contiguous intervals of slices over all
 * resources.
 *
 * The partition that maximises pIC = p gain - (1 - p) loss for the
 * Parameter p, and the quality curves; see vtkMacroscopePartitionFilter and
 * docs/aggregation.md.
 */
#ifndef vtkMacroscopeTemporalAggregation_h
#define vtkMacroscopeTemporalAggregation_h

#include "MacroscopeFiltersModule.h" // for export macro
#include "vtkMacroscopePartitionFilter.h"

class MACROSCOPEFILTERS_EXPORT vtkMacroscopeTemporalAggregation
  : public vtkMacroscopePartitionFilter
{
public:
  static vtkMacroscopeTemporalAggregation* New();
  vtkTypeMacro(vtkMacroscopeTemporalAggregation, vtkMacroscopePartitionFilter);
  void PrintSelf(ostream& os, vtkIndent indent) override;

protected:
  vtkMacroscopeTemporalAggregation() = default;
  ~vtkMacroscopeTemporalAggregation() override = default;

  const char* GetConstraintName() const override { return "temporal"; }
  std::unique_ptr<macroscope::Aggregation> CreateAggregation(const macroscope::ModelView& model,
    const macroscope::AggregationHierarchy& hierarchy, AggregationProgressHook progress) override;

private:
  vtkMacroscopeTemporalAggregation(const vtkMacroscopeTemporalAggregation&) = delete;
  void operator=(const vtkMacroscopeTemporalAggregation&) = delete;
};

#endif
