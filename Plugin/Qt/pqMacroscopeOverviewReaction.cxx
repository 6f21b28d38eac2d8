#include "pqMacroscopeOverviewReaction.h"

#include "pqMacroscopePythonAction.h"

#include <QApplication>
#include <QCursor>

pqMacroscopeOverviewReaction::pqMacroscopeOverviewReaction(QAction* parentObject)
  : Superclass(parentObject)
{
}

void pqMacroscopeOverviewReaction::onTriggered()
{
  // The read and the aggregation take seconds on large traces; the
  // progress bar shows them, the cursor says the click was taken.
  QApplication::setOverrideCursor(QCursor(Qt::WaitCursor));
  pqMacroscopePythonAction::run("overview", QVariantList());
  QApplication::restoreOverrideCursor();
}
