#include "pqMacroscopeSnapshotReaction.h"

#include "pqCoreUtilities.h"
#include "pqFileDialog.h"
#include "pqMacroscopePythonAction.h"

#include <QtGlobal>

pqMacroscopeSnapshotReaction::pqMacroscopeSnapshotReaction(QAction* parentObject)
  : Superclass(parentObject)
{
}

void pqMacroscopeSnapshotReaction::onTriggered()
{
  QString directory = qEnvironmentVariable("MACROSCOPE_SNAPSHOT_DIR");
  if (directory.isEmpty())
  {
    // The pictures are written by the client (SaveScreenshot), so the dialog
    // browses the client's file system (no server given).
    pqFileDialog dialog(nullptr, pqCoreUtilities::mainWidget(),
      tr("Snapshot: directory for the pictures, state and manifest"));
    dialog.setObjectName("MacroscopeSnapshotDialog");
    dialog.setFileMode(pqFileDialog::Directory);
    if (dialog.exec() != QDialog::Accepted || dialog.getSelectedFiles().isEmpty())
    {
      return;
    }
    directory = dialog.getSelectedFiles().first();
  }
  pqMacroscopePythonAction::run("snapshot", QVariantList{ directory });
}
