#ifndef pqMacroscopeTimeWindowReaction_h
#define pqMacroscopeTimeWindowReaction_h

#include "pqRenderViewSelectionReaction.h"

/**
 * @class pqMacroscopeTimeWindowReaction
 * @brief Toolbar action "Select Time Window": a rubber band in the active
 * Render View becomes the shared time window of the linked views.
 *
 * ParaView's own selection reaction in its custom-box mode does the
 * interaction (the view's selection interaction mode, the rubber band, the
 * SelectionChangedEvent and its int[4] region, the return to the previous
 * mode, tracking the active view); on release this class hands the region,
 * in display pixels, to `macroscope.select_time_range(view, [x0, y0, x1, y1])`
 * and reports the outcome in the Output Messages.
 */
class pqMacroscopeTimeWindowReaction : public pqRenderViewSelectionReaction
{
  Q_OBJECT
  typedef pqRenderViewSelectionReaction Superclass;

public:
  pqMacroscopeTimeWindowReaction(QAction* parent);

private Q_SLOTS:
  void onRegionSelected(int xmin, int ymin, int xmax, int ymax);

private:
  Q_DISABLE_COPY(pqMacroscopeTimeWindowReaction)
};

#endif
