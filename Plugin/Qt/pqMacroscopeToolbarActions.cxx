#include "pqMacroscopeToolbarActions.h"

#include "pqMacroscopeLinkViewsReaction.h"
#include "pqMacroscopeOverviewReaction.h"
#include "pqMacroscopePaletteReaction.h"
#include "pqMacroscopeSnapshotReaction.h"
#include "pqMacroscopeTimeWindowReaction.h"

#include <QAction>
#include <QIcon>

pqMacroscopeToolbarActions::pqMacroscopeToolbarActions(QObject* parentObject)
  : Superclass(parentObject)
{
  // Several actions may be checked at once (the selection mode is a toggle
  // of its own), so the group is not exclusive.
  this->setExclusive(false);

  // First: the path a user opening a large trace is led on.
  QAction* overview = new QAction(QIcon(":/Macroscope/Icons/overview.svg"), tr("Overview"), this);
  overview->setObjectName("actionMacroscopeOverview");
  overview->setToolTip(tr("Ocelotl's overview of the active trace (an OTF2 or Paje reader, "
                          "applied or not): Streamed Time Slicing and an aggregation at their "
                          "defaults, shown in a view of its own; the trace's tables are not read"));
  new pqMacroscopeOverviewReaction(overview);

  QAction* snapshot =
    new QAction(QIcon(":/Macroscope/Icons/snapshot.svg"), tr("Snapshot..."), this);
  snapshot->setObjectName("actionMacroscopeSnapshot");
  snapshot->setToolTip(tr("Save a picture of every view, the state file that reproduces them "
                          "and a manifest into a directory"));
  new pqMacroscopeSnapshotReaction(snapshot);

  QAction* link = new QAction(QIcon(":/Macroscope/Icons/link.svg"), tr("Link Views"), this);
  link->setObjectName("actionMacroscopeLinkViews");
  link->setToolTip(tr("Share one time window and selection between the Macroscope views"));
  new pqMacroscopeLinkViewsReaction(link);

  QAction* window =
    new QAction(QIcon(":/Macroscope/Icons/window.svg"), tr("Select Time Window"), this);
  window->setObjectName("actionMacroscopeSelectTimeWindow");
  window->setToolTip(tr("Drag a rubber band in the active Render View to choose the shared "
                        "time window"));
  window->setCheckable(true);
  new pqMacroscopeTimeWindowReaction(window);

  QAction* palette =
    new QAction(QIcon(":/Macroscope/Icons/palette.svg"), tr("Colour-Blind Palette"), this);
  palette->setObjectName("actionMacroscopeColourBlindPalette");
  palette->setToolTip(tr("Switch every trace's type colours between the default palette and a "
                         "colour-blind-safe one (your own colours are kept; saved in state "
                         "files)"));
  new pqMacroscopePaletteReaction(palette);
}
