#ifndef pqMacroscopeOverviewReaction_h
#define pqMacroscopeOverviewReaction_h

#include "pqReaction.h"

/**
 * @class pqMacroscopeOverviewReaction
 * @brief Toolbar action "Overview": Ocelotl's overview of the active trace
 * through the streamed model, the fast path for large traces.
 *
 * Calls `macroscope.overview()` (Plugin/macroscope/overview.py) on the
 * active source: for an OTF2 or Pajé reader (applied or not: File > Open
 * is enough) or a Streamed Time Slicing, it builds Streamed Time Slicing at
 * its defaults and an aggregation, and shows the overview in a Render View
 * of its own, fitted to it. The outcome (the model's shape, the times, or
 * why nothing was done) goes to the Output Messages. The reader's tables
 * are not read: applying the reader still gives its Timeline and details.
 */
class pqMacroscopeOverviewReaction : public pqReaction
{
  Q_OBJECT
  typedef pqReaction Superclass;

public:
  pqMacroscopeOverviewReaction(QAction* parent);

protected:
  void onTriggered() override;

private:
  Q_DISABLE_COPY(pqMacroscopeOverviewReaction)
};

#endif
