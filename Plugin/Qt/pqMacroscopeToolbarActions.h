#ifndef pqMacroscopeToolbarActions_h
#define pqMacroscopeToolbarActions_h

#include <QActionGroup>

/**
 * @class pqMacroscopeToolbarActions
 * @brief The actions of the plugin's "Macroscope" toolbar: Snapshot...,
 * Link Views and Select Time Window.
 *
 * Registered with paraview_plugin_add_action_group under the group name
 * "ToolBar/Macroscope", so the GUI puts them in a toolbar of that name. Each
 * action is driven by a pqReaction of its own; the work is done by the
 * plugin's Python package (docs/snapshot.md).
 */
class pqMacroscopeToolbarActions : public QActionGroup
{
  Q_OBJECT
  typedef QActionGroup Superclass;

public:
  pqMacroscopeToolbarActions(QObject* parent);

private:
  Q_DISABLE_COPY(pqMacroscopeToolbarActions)
};

#endif
