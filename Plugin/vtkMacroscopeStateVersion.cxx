#include "vtkMacroscopeStateVersion.h"

#include "MacroscopeVersion.h"

#include "vtkCommand.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPVXMLElement.h"
#include "vtkSMProxyManager.h"
#include "vtkSMSessionProxyManager.h"
#include "vtkSmartPointer.h"

#include <algorithm>

vtkStandardNewMacro(vtkMacroscopeStateVersion);

namespace
{
// Started when the plugin's library is loaded: ParaView gives plugins of the
// server-manager kind no other hook that runs in pvpython and pvbatch.
const bool Installed = (vtkMacroscopeStateVersion::Install(), true);
}

void vtkMacroscopeStateVersion::Install()
{
  static vtkSmartPointer<vtkMacroscopeStateVersion> instance;
  if (instance || !vtkSMProxyManager::IsInitialized())
  {
    return;
  }
  instance = vtkSmartPointer<vtkMacroscopeStateVersion>::New();
  // A session opened later (Connect, or the GUI's File > Connect) gets its own
  // proxy manager; the plugin is not loaded again for it.
  vtkSMProxyManager::GetProxyManager()->AddObserver(vtkSMProxyManager::ActiveSessionChanged,
    instance.GetPointer(), &vtkMacroscopeStateVersion::WatchActiveSession);
  instance->WatchActiveSession();
}

void vtkMacroscopeStateVersion::WatchActiveSession()
{
  vtkSMSessionProxyManager* pxm =
    vtkSMProxyManager::GetProxyManager()->GetActiveSessionProxyManager();
  if (!pxm)
  {
    return;
  }
  this->Watched.erase(std::remove_if(this->Watched.begin(), this->Watched.end(),
                        [](const vtkWeakPointer<vtkSMSessionProxyManager>& p) { return !p; }),
    this->Watched.end());
  if (std::find(this->Watched.begin(), this->Watched.end(), pxm) != this->Watched.end())
  {
    return;
  }
  this->Watched.emplace_back(pxm);
  pxm->AddObserver(vtkCommand::SaveStateEvent, this, &vtkMacroscopeStateVersion::OnSaveState);
}

void vtkMacroscopeStateVersion::OnSaveState(vtkObject*, unsigned long, void* data)
{
  auto* info = static_cast<vtkSMProxyManager::LoadStateInformation*>(data);
  if (info)
  {
    vtkMacroscopeStateVersion::AddVersion(info->RootElement);
  }
}

void vtkMacroscopeStateVersion::AddVersion(vtkPVXMLElement* root)
{
  vtkPVXMLElement* state = root ? root->FindNestedElementByName("ServerManagerState") : nullptr;
  if (!state || state->FindNestedElementByName("Macroscope"))
  {
    return;
  }
  vtkNew<vtkPVXMLElement> element;
  element->SetName("Macroscope");
  element->AddAttribute("version", MACROSCOPE_VERSION);
  state->AddNestedElement(element);
}

void vtkMacroscopeStateVersion::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Version: " << MACROSCOPE_VERSION << "\n";
  os << indent << "Watched sessions: " << this->Watched.size() << "\n";
}
