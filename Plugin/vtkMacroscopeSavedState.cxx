#include "vtkMacroscopeSavedState.h"

#include "MacroscopeVersion.h"

#include "vtkCommand.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPVXMLElement.h"
#include "vtkSMProxyManager.h"
#include "vtkSMSessionProxyManager.h"
#include "vtkSmartPointer.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

vtkStandardNewMacro(vtkMacroscopeSavedState);

namespace
{
// Started when the plugin's library is loaded: ParaView gives plugins of the
// server-manager kind no other hook that runs in pvpython and pvbatch.
const bool Installed = (vtkMacroscopeSavedState::Install(), true);
}

void vtkMacroscopeSavedState::Install()
{
  static vtkSmartPointer<vtkMacroscopeSavedState> instance;
  if (instance || !vtkSMProxyManager::IsInitialized())
  {
    return;
  }
  instance = vtkSmartPointer<vtkMacroscopeSavedState>::New();
  // A session opened later (Connect, or the GUI's File > Connect) gets its own
  // proxy manager; the plugin is not loaded again for it.
  vtkSMProxyManager::GetProxyManager()->AddObserver(vtkSMProxyManager::ActiveSessionChanged,
    instance.GetPointer(), &vtkMacroscopeSavedState::WatchActiveSession);
  instance->WatchActiveSession();
}

void vtkMacroscopeSavedState::WatchActiveSession()
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
  pxm->AddObserver(vtkCommand::SaveStateEvent, this, &vtkMacroscopeSavedState::OnSaveState);
}

void vtkMacroscopeSavedState::OnSaveState(vtkObject*, unsigned long, void* data)
{
  auto* info = static_cast<vtkSMProxyManager::LoadStateInformation*>(data);
  if (info)
  {
    vtkMacroscopeSavedState::AddVersion(info->RootElement);
    vtkMacroscopeSavedState::OrderLayoutsByCreation(info->RootElement);
  }
}

void vtkMacroscopeSavedState::AddVersion(vtkPVXMLElement* root)
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

void vtkMacroscopeSavedState::OrderLayoutsByCreation(vtkPVXMLElement* root)
{
  vtkPVXMLElement* state = root ? root->FindNestedElementByName("ServerManagerState") : nullptr;
  vtkPVXMLElement* layouts = nullptr;
  for (unsigned int i = 0; state && i < state->GetNumberOfNestedElements(); ++i)
  {
    vtkPVXMLElement* child = state->GetNestedElement(i);
    const char* name = child->GetAttribute("name");
    if (child->GetName() && std::string(child->GetName()) == "ProxyCollection" && name &&
      std::string(name) == "layouts")
    {
      layouts = child;
    }
  }
  if (!layouts)
  {
    return;
  }
  std::vector<std::pair<int, vtkSmartPointer<vtkPVXMLElement>>> items;
  for (unsigned int i = 0; i < layouts->GetNumberOfNestedElements(); ++i)
  {
    vtkPVXMLElement* item = layouts->GetNestedElement(i);
    int id = 0;
    if (!item->GetScalarAttribute("id", &id))
    {
      return; // not the collection this code knows: leave it as ParaView wrote it
    }
    items.emplace_back(id, item);
  }
  std::stable_sort(
    items.begin(), items.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  layouts->RemoveAllNestedElements();
  for (const auto& item : items)
  {
    layouts->AddNestedElement(item.second);
  }
}

void vtkMacroscopeSavedState::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Version: " << MACROSCOPE_VERSION << "\n";
  os << indent << "Watched sessions: " << this->Watched.size() << "\n";
}
