#ifndef pqMacroscopePythonAction_h
#define pqMacroscopePythonAction_h

#include <QString>
#include <QVariantList>

/**
 * @class pqMacroscopePythonAction
 * @brief Runs one action of the Macroscope toolbar in the embedded Python.
 *
 * Each toolbar action is a thin C++ front for a helper of the plugin's Python
 * package: run() calls `macroscope.gui_actions.run_action(action, *args)`,
 * which never raises and returns (success, message), and prints the message
 * in ParaView's Output Messages (an error when the action failed). The
 * Python side owns the behaviour, so the same code runs from pvpython and the
 * GUI; this class only crosses the language boundary.
 */
class pqMacroscopePythonAction
{
public:
  /// Runs `action` with `args` (QString and int values); returns whether it
  /// succeeded and, in `message`, what it reported.
  static bool run(const char* action, const QVariantList& args, QString* message = nullptr);
};

#endif
