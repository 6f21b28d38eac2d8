/**
 * @class   vtkMacroscopeStateVersion
 * @brief   writes the plugin's version in every saved state file
 *
 * A state file names the ParaView version that wrote it
 * (`<ServerManagerState version="5.11.0">`), not the plugin's. Once the
 * plugin is loaded in a client (pvpython, pvbatch, the GUI), this object
 * watches the proxy manager of every session and, when a state is saved
 * (vtkSMSessionProxyManager::SaveXMLState fires vtkCommand::SaveStateEvent,
 * for Python's SaveState and the GUI's File > Save State alike), adds
 *
 *     <Macroscope version="0.1.0"/>
 *
 * inside ServerManagerState. ParaView's state loader reads only the elements
 * it knows there and skips this one, and the version attribute of
 * ServerManagerState, which its version check reads, is left alone: the
 * state loads in any ParaView 5.11 (docs/installing.md).
 */
#ifndef vtkMacroscopeStateVersion_h
#define vtkMacroscopeStateVersion_h

#include "vtkObject.h"
#include "vtkWeakPointer.h"

#include <vector>

class vtkPVXMLElement;
class vtkSMSessionProxyManager;

class vtkMacroscopeStateVersion : public vtkObject
{
public:
  static vtkMacroscopeStateVersion* New();
  vtkTypeMacro(vtkMacroscopeStateVersion, vtkObject);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  /// Starts watching, once per process; does nothing where there is no
  /// proxy manager (pvserver, or a library loaded without a session).
  static void Install();

  /// Adds the version element to the ServerManagerState of `root` (a saved
  /// state's root element), unless one is already there.
  static void AddVersion(vtkPVXMLElement* root);

protected:
  vtkMacroscopeStateVersion() = default;
  ~vtkMacroscopeStateVersion() override = default;

private:
  vtkMacroscopeStateVersion(const vtkMacroscopeStateVersion&) = delete;
  void operator=(const vtkMacroscopeStateVersion&) = delete;

  void WatchActiveSession();
  void OnSaveState(vtkObject* caller, unsigned long event, void* data);

  std::vector<vtkWeakPointer<vtkSMSessionProxyManager>> Watched;
};

#endif
