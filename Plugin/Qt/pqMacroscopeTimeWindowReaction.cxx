#include "pqMacroscopeTimeWindowReaction.h"

#include "pqActiveObjects.h"
#include "pqMacroscopePythonAction.h"
#include "pqView.h"
#include "vtkSMProxy.h"

pqMacroscopeTimeWindowReaction::pqMacroscopeTimeWindowReaction(QAction* parentObject)
  : Superclass(parentObject, nullptr, SELECT_CUSTOM_BOX)
{
  QObject::connect(this,
    static_cast<void (Superclass::*)(int, int, int, int)>(&Superclass::selectedCustomBox), this,
    &pqMacroscopeTimeWindowReaction::onRegionSelected);
}

void pqMacroscopeTimeWindowReaction::onRegionSelected(int xmin, int ymin, int xmax, int ymax)
{
  // The reaction follows the active view, so the region is the active view's.
  pqView* view = pqActiveObjects::instance().activeView();
  if (!view)
  {
    return;
  }
  pqMacroscopePythonAction::run("select_time_range",
    QVariantList{
      static_cast<qlonglong>(view->getProxy()->GetGlobalID()), xmin, ymin, xmax, ymax });
}
