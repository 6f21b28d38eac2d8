#include "pqMacroscopeQualityCurvesRequest.h"

#include "pqActiveObjects.h"
#include "pqApplicationCore.h"
#include "pqObjectBuilder.h"
#include "pqOutputPort.h"
#include "pqPipelineSource.h"
#include "pqUndoStack.h"
#include "pqView.h"
#include "vtkNew.h"
#include "vtkSMParaViewPipelineControllerWithRendering.h"
#include "vtkSMPropertyHelper.h"
#include "vtkSMSourceProxy.h"
#include "vtkSMViewProxy.h"

#include <QObject>

namespace
{
// The aggregations' "Quality Plot" output (Plugin/*Aggregation.xml).
constexpr int QualityPlotPort = 2;
const char* const ChartType = "XYChartView";
}

pqView* pqMacroscopeQualityCurvesRequest::chartFor(pqPipelineSource* source)
{
  for (pqView* view : source->getOutputPort(QualityPlotPort)->getViews())
  {
    if (view->getViewType() == ChartType)
    {
      return view;
    }
  }
  pqActiveObjects& active = pqActiveObjects::instance();
  pqView* current = active.activeView();
  if (current && current->getViewType() == ChartType)
  {
    return current;
  }
  pqView* chart =
    pqApplicationCore::instance()->getObjectBuilder()->createView(ChartType, source->getServer());
  if (!chart)
  {
    return nullptr;
  }
  vtkSMPropertyHelper(chart->getProxy(), "LeftAxisTitle", true).Set("quality");
  vtkSMPropertyHelper(chart->getProxy(), "BottomAxisTitle", true).Set("p");
  chart->getProxy()->UpdateVTKObjects();
  // Next to the view the user works in (its cell is split), not in a layout
  // of its own; the user's active view stays active.
  vtkNew<vtkSMParaViewPipelineControllerWithRendering> controller;
  controller->AssignViewToLayout(
    chart->getViewProxy(), active.activeLayout(), current ? active.activeLayoutLocation() : 0);
  if (current)
  {
    active.setActiveView(current);
  }
  return chart;
}

pqView* pqMacroscopeQualityCurvesRequest::show(pqPipelineSource* source)
{
  if (!source || source->getNumberOfOutputPorts() <= QualityPlotPort)
  {
    return nullptr;
  }
  pqScopedUndoSet undo(QObject::tr("Show Quality Curves"));
  pqView* chart = chartFor(source);
  if (!chart)
  {
    return nullptr;
  }
  vtkNew<vtkSMParaViewPipelineControllerWithRendering> controller;
  vtkSMProxy* display =
    controller->Show(source->getSourceProxy(), QualityPlotPort, chart->getViewProxy());
  if (!display)
  {
    return nullptr;
  }
  // The plot's rows are the steps of the curves in p (two per partition),
  // so p is the x axis and not itself a series.
  vtkSMPropertyHelper(display, "UseIndexForXAxis", true).Set(0);
  vtkSMPropertyHelper(display, "XArrayName", true).Set("p");
  const char* visibility[] = { "p", "0", "Gain", "1", "Loss", "1", "Current p", "1" };
  vtkSMPropertyHelper series(display, "SeriesVisibility", true);
  series.SetNumberOfElements(8);
  for (unsigned int i = 0; i < 8; ++i)
  {
    series.Set(i, visibility[i]);
  }
  // The parameter panel's colours (pqMacroscopeQualityPlot), so that a
  // curve is the same colour in both places.
  const char* colours[] = { "Gain", "0", "0.447", "0.698", "Loss", "0.835", "0.369", "0",
    "Current p", "0", "0", "0" };
  vtkSMPropertyHelper seriesColours(display, "SeriesColor", true);
  seriesColours.SetNumberOfElements(12);
  for (unsigned int i = 0; i < 12; ++i)
  {
    seriesColours.Set(i, colours[i]);
  }
  display->UpdateVTKObjects();
  chart->render();
  return chart;
}
