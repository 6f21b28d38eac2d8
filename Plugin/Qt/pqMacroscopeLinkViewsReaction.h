#ifndef pqMacroscopeLinkViewsReaction_h
#define pqMacroscopeLinkViewsReaction_h

#include "pqReaction.h"

/**
 * @class pqMacroscopeLinkViewsReaction
 * @brief Toolbar action "Link Views": one time window and selection for
 * every Macroscope view of the session.
 *
 * Calls `macroscope.link_views()` (docs/linked-views.md);
 * the outcome, or the absence of the helper in this build, goes to the
 * Output Messages.
 */
class pqMacroscopeLinkViewsReaction : public pqReaction
{
  Q_OBJECT
  typedef pqReaction Superclass;

public:
  pqMacroscopeLinkViewsReaction(QAction* parent);

protected:
  void onTriggered() override;

private:
  Q_DISABLE_COPY(pqMacroscopeLinkViewsReaction)
};

#endif
