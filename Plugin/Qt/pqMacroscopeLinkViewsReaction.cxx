#include "pqMacroscopeLinkViewsReaction.h"

#include "pqMacroscopePythonAction.h"

pqMacroscopeLinkViewsReaction::pqMacroscopeLinkViewsReaction(QAction* parentObject)
  : Superclass(parentObject)
{
}

void pqMacroscopeLinkViewsReaction::onTriggered()
{
  pqMacroscopePythonAction::run("link_views", QVariantList());
}
