#include "MacroscopeQualityTables.h"

#include "Aggregation.h"

#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkIntArray.h"
#include "vtkNew.h"
#include "vtkTable.h"

#include <algorithm>
#include <limits>

namespace
{
template <typename Array>
Array* NewColumn(vtkTable* table, const char* name)
{
  vtkNew<Array> array;
  array->SetName(name);
  table->AddColumn(array);
  return array;
}
}

namespace MacroscopeQualityTables
{
void FillCurves(vtkTable* curves, const macroscope::PartitionSweep& all)
{
  auto* pStart = NewColumn<vtkDoubleArray>(curves, "PStart");
  auto* pEnd = NewColumn<vtkDoubleArray>(curves, "PEnd");
  auto* curveGain = NewColumn<vtkDoubleArray>(curves, "Gain");
  auto* curveLoss = NewColumn<vtkDoubleArray>(curves, "Loss");
  auto* parts = NewColumn<vtkIntArray>(curves, "Parts");
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
  auto* plotP = NewColumn<vtkDoubleArray>(plot, "p");
  auto* plotGain = NewColumn<vtkDoubleArray>(plot, "Gain");
  auto* plotLoss = NewColumn<vtkDoubleArray>(plot, "Loss");
  auto* plotCurrent = NewColumn<vtkDoubleArray>(plot, "Current p");
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
