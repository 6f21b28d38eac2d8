#ifndef pqMacroscopeSnapshotReaction_h
#define pqMacroscopeSnapshotReaction_h

#include "pqReaction.h"

/**
 * @class pqMacroscopeSnapshotReaction
 * @brief Toolbar action "Snapshot...": the pictures of every view, the state
 * file that reproduces them and their manifest, in a directory the user picks.
 *
 * Asks for a directory (pqFileDialog in directory mode, on the client) and
 * calls `macroscope.snapshot(directory)` (Plugin/macroscope/snapshot.py);
 * the outcome goes to the Output Messages. When the environment variable
 * MACROSCOPE_SNAPSHOT_DIR is set, it is used instead of asking: a scripting
 * and testing aid (docs/snapshot.md).
 */
class pqMacroscopeSnapshotReaction : public pqReaction
{
  Q_OBJECT
  typedef pqReaction Superclass;

public:
  pqMacroscopeSnapshotReaction(QAction* parent);

protected:
  void onTriggered() override;

private:
  Q_DISABLE_COPY(pqMacroscopeSnapshotReaction)
};

#endif
