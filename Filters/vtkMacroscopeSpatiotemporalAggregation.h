/**
 * @class vtkMacroscopeSpatiotemporalAggregation
 * @brief Ocelotl's spatiotemporal aggregation: parts are a hierarchy node times an interval of
 * slices (the Cartesian-product constraint).
 *
 * The partition that maximises pIC = p gain - (1 - p) loss for the
 * Parameter p, and the quality curves; see vtkMacroscopePartitionFilter and
 * docs/aggregation.md.
 */
#ifndef vtkMacroscopeSpatiotemporalAggregation_h
#define vtkMacroscopeSpatiotemporalAggregation_h

#include "MacroscopeFiltersModule.h" // for export macro
#include "vtkMacroscopePartitionFilter.h"

class MACROSCOPEFILTERS_EXPORT vtkMacroscopeSpatiotemporalAggregation
  : public vtkMacroscopePartitionFilter
{
public:
  static vtkMacroscopeSpatiotemporalAggregation* New();
  vtkTypeMacro(vtkMacroscopeSpatiotemporalAggregation, vtkMacroscopePartitionFilter);
  void PrintSelf(ostream& os, vtkIndent indent) override;

protected:
  vtkMacroscopeSpatiotemporalAggregation() = default;
  ~vtkMacroscopeSpatiotemporalAggregation() override = default;

  const char* GetConstraintName() const override { return "spatiotemporal"; }
  std::unique_ptr<macroscope::Aggregation> CreateAggregation(const macroscope::ModelView& model,
    const macroscope::AggregationHierarchy& hierarchy, AggregationProgressHook progress) override;

private:
  vtkMacroscopeSpatiotemporalAggregation(const vtkMacroscopeSpatiotemporalAggregation&) = delete;
  void operator=(const vtkMacroscopeSpatiotemporalAggregation&) = delete;
};

#endif
