#include "vtkMacroscopeTraceKeys.h"

#include "vtkInformationDataObjectMetaDataKey.h"
#include "vtkInformationStringKey.h"
#include "vtkObjectFactory.h"

vtkStandardNewMacro(vtkMacroscopeTraceKeys);
vtkInformationKeyMacro(vtkMacroscopeTraceKeys, DEFINITIONS, DataObjectMetaData);
vtkInformationKeyMacro(vtkMacroscopeTraceKeys, TRACE_FILE, String);

void vtkMacroscopeTraceKeys::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
}
