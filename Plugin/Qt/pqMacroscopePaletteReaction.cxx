#include "pqMacroscopePaletteReaction.h"

#include "pqMacroscopePythonAction.h"

pqMacroscopePaletteReaction::pqMacroscopePaletteReaction(QAction* parentObject)
  : Superclass(parentObject)
{
}

void pqMacroscopePaletteReaction::onTriggered()
{
  // The Python side decides which palette is in use (from the TypeColors
  // entries), so the action also toggles correctly after a state load.
  pqMacroscopePythonAction::run("toggle_palette", QVariantList());
}
