#include "MacroscopeQualityTables.h"

#include "Aggregation.h"
#include "MacroscopeTraceColumns.h"

#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkIntArray.h"
#include "vtkNew.h"
#include "vtkTable.h"

#include <algorithm>
#include <limits>

namespace MacroscopeQualityTables
{
void FillCurves(vtkTable* curves, const macroscope::PartitionSweep& all)
{
  auto* pStart = MacroscopeNewColumn<vtkDoubleArray>(curves, "PStart");
  auto* pEnd = MacroscopeNewColumn<vtkDoubleArray>(curves, "PEnd");
  auto* curveGain = MacroscopeNewColumn<vtkDoubleArray>(curves, "Gain");
  auto* curveLoss = MacroscopeNewColumn<vtkDoubleArray>(curves, "Loss");
  auto* parts = MacroscopeNewColumn<vtkIntArray>(curves, "Parts");
  for (std::size_t k = 0; k < all.Partitions.size(); ++k)
  {
    pStart->InsertNextValue(all.PStart(k));
    pEnd->InsertNextValue(k + 1 < all.Partitions.size() ? all.PStart(k + 1) : 1.0);
    curveGain->InsertNextValue(all.Partitions[k].Gain);
    curveLoss->InsertNextValue(all.Partitions[k].Loss);
    parts->InsertNextValue(static_cast<int>(all.Partitions[k].Parts.size()));
  }
}

void FillPlot(vtkTable* plot, const macroscope::PartitionSweep& all, double parameter)
{
  // NaN separates the series: a chart draws no segment through it.
  auto* plotP = MacroscopeNewColumn<vtkDoubleArray>(plot, "p");
  auto* plotGain = MacroscopeNewColumn<vtkDoubleArray>(plot, "Gain");
  auto* plotLoss = MacroscopeNewColumn<vtkDoubleArray>(plot, "Loss");
  auto* plotCurrent = MacroscopeNewColumn<vtkDoubleArray>(plot, "Current p");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  double top = 0.0;
  for (std::size_t k = 0; k < all.Partitions.size(); ++k)
  {
    const double gainK = all.Partitions[k].Gain;
    const double lossK = all.Partitions[k].Loss;
    for (double at : { all.PStart(k), k + 1 < all.Partitions.size() ? all.PStart(k + 1) : 1.0 })
    {
      plotP->InsertNextValue(at);
      plotGain->InsertNextValue(gainK);
      plotLoss->InsertNextValue(lossK);
      plotCurrent->InsertNextValue(nan);
    }
    top = std::max({ top, gainK, lossK });
  }
  for (double height : { 0.0, top > 0.0 ? top : 1.0 })
  {
    plotP->InsertNextValue(parameter);
    plotGain->InsertNextValue(nan);
    plotLoss->InsertNextValue(nan);
    plotCurrent->InsertNextValue(height);
  }
  vtkNew<vtkDoubleArray> chosen;
  chosen->SetName("Parameter");
  chosen->InsertNextValue(parameter);
  plot->GetFieldData()->AddArray(chosen);
}
}
