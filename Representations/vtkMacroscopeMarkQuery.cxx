#include "vtkMacroscopeMarkQuery.h"

#include "vtkPVMacroscopeMarkInformation.h"

#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPVSession.h"
#include "vtkSMProxyManager.h"
#include "vtkSMSession.h"

#include <string>

vtkStandardNewMacro(vtkMacroscopeMarkQuery);

vtkMacroscopeMarkQuery::vtkMacroscopeMarkQuery() = default;
vtkMacroscopeMarkQuery::~vtkMacroscopeMarkQuery() = default;

void vtkMacroscopeMarkQuery::Query()
{
  this->Found = false;
  this->RowsCut = false;
  this->Text.clear();
  this->Kind.clear();
  this->RowTable.clear();
  this->RowText.clear();
  vtkSMSession* session = vtkSMProxyManager::GetProxyManager()->GetActiveSession();
  if (!session || this->RepresentationId == 0)
  {
    vtkErrorMacro("MacroscopeMarkQuery: no session or no representation to ask.");
    return;
  }
  vtkNew<vtkPVMacroscopeMarkInformation> info;
  info->SetPoint(this->Point);
  session->GatherInformation(vtkPVSession::DATA_SERVER, info, this->RepresentationId);
  this->Found = info->GetFound();
  this->Text = info->GetText();
  this->Kind = info->GetKind();
  this->RowTable = info->GetRowTable();
  this->RowsCut = info->GetRowsCut();
  for (int i = 0; i < info->GetNumberOfRows(); ++i)
  {
    this->RowText +=
      (i ? " " : "") + std::to_string(info->GetRowRank(i)) + " " + std::to_string(info->GetRow(i));
  }
}
