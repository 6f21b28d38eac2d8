#include "vtkMacroscopeTraceKeys.h"

#include "vtkInformationDataObjectMetaDataKey.h"
#include "vtkObjectFactory.h"

vtkStandardNewMacro(vtkMacroscopeTraceKeys);
vtkInformationKeyMacro(vtkMacroscopeTraceKeys, DEFINITIONS, DataObjectMetaData);

void vtkMacroscopeTraceKeys::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
}
