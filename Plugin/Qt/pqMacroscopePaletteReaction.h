#ifndef pqMacroscopePaletteReaction_h
#define pqMacroscopePaletteReaction_h

#include "pqReaction.h"

/**
 * @class pqMacroscopePaletteReaction
 * @brief Toolbar action "Colour-Blind Palette": switches every type of the
 * session's traces between the default palette and the colour-blind-safe
 * one (docs/colours.md).
 *
 * Calls `macroscope.use_palette(...)` through the toolbar's Python helper;
 * the colours go to the displays' linked `TypeColors`, so they reach every
 * view and are saved in state files; the user's own colours are kept. The
 * outcome goes to the Output Messages.
 */
class pqMacroscopePaletteReaction : public pqReaction
{
  Q_OBJECT
  typedef pqReaction Superclass;

public:
  pqMacroscopePaletteReaction(QAction* parent);

protected:
  void onTriggered() override;

private:
  Q_DISABLE_COPY(pqMacroscopePaletteReaction)
};

#endif
