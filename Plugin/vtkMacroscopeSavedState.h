/**
 * @class   vtkMacroscopeSavedState
 * @brief   what Macroscope adds to every saved state file: its version, and
 * the layout tabs in the order they were made
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
 *
 * The proxy manager lists the layouts of a state by name, and the GUI makes
 * one tab per layout in the order the file lists them, so a state used to
 * come back with its tabs in alphabetical order. The layouts' collection is
 * therefore put in the order the layouts were made (their proxy ids rise in
 * that order), the order a script or the GUI showed them in
 * (docs/state-files.md).
 */
#ifndef vtkMacroscopeSavedState_h
#define vtkMacroscopeSavedState_h

#include "vtkObject.h"
#include "vtkWeakPointer.h"

#include <vector>

class vtkPVXMLElement;
class vtkSMSessionProxyManager;

class vtkMacroscopeSavedState : public vtkObject
{
public:
  static vtkMacroscopeSavedState* New();
  vtkTypeMacro(vtkMacroscopeSavedState, vtkObject);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  /// Starts watching, once per process; does nothing where there is no
  /// proxy manager (pvserver, or a library loaded without a session).
  static void Install();

  /// Adds the version element to the ServerManagerState of `root` (a saved
  /// state's root element), unless one is already there.
  static void AddVersion(vtkPVXMLElement* root);

  /// Puts the items of the "layouts" proxy collection of `root` (a saved
  /// state's root element) in the order of their ids, the order the layouts
  /// were made in.
  static void OrderLayoutsByCreation(vtkPVXMLElement* root);

protected:
  vtkMacroscopeSavedState() = default;
  ~vtkMacroscopeSavedState() override = default;

private:
  vtkMacroscopeSavedState(const vtkMacroscopeSavedState&) = delete;
  void operator=(const vtkMacroscopeSavedState&) = delete;

  void WatchActiveSession();
  void OnSaveState(vtkObject* caller, unsigned long event, void* data);

  std::vector<vtkWeakPointer<vtkSMSessionProxyManager>> Watched;
};

#endif
