#include "MacroscopeColumnRanges.h"

#include "vtkDataArray.h"
#include "vtkDataObject.h"
#include "vtkDataSetAttributes.h"
#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationDoubleVectorKey.h"
#include "vtkInformationInformationVectorKey.h"
#include "vtkInformationVector.h"
#include "vtkNew.h"

#include <utility>

void MacroscopeSeedRanges(vtkDataArray* array, const double range[2], const double finite[2])
{
  if (array->GetNumberOfComponents() != 1)
  {
    return;
  }
  const std::pair<vtkInformationInformationVectorKey*, const double*> caches[] = {
    { vtkDataArray::PER_COMPONENT(), range }, { vtkDataArray::PER_FINITE_COMPONENT(), finite }
  };
  for (const auto& [key, values] : caches)
  {
    vtkNew<vtkInformationVector> perComponent;
    perComponent->SetNumberOfInformationObjects(1);
    perComponent->GetInformationObject(0)->Set(vtkDataArray::COMPONENT_RANGE(), values, 2);
    array->GetInformation()->Set(key, perComponent);
  }
}

namespace
{
template <typename T>
void cacheArray(vtkDataArray* array)
{
  double range[2];
  double finite[2];
  const auto* values = static_cast<const T*>(array->GetVoidPointer(0));
  if (MacroscopeColumnRanges(
        values, static_cast<std::size_t>(array->GetNumberOfTuples()), range, finite))
  {
    MacroscopeSeedRanges(array, range, finite);
  }
}

void cacheFields(vtkFieldData* fields)
{
  for (int i = 0; fields && i < fields->GetNumberOfArrays(); ++i)
  {
    vtkDataArray* array = fields->GetArray(i);
    // Small arrays cost VTK nothing; the others must be plain memory
    // (GetVoidPointer of another layout would copy them).
    if (!array || array->GetNumberOfComponents() != 1 || array->GetNumberOfTuples() < 4096 ||
      !array->HasStandardMemoryLayout() ||
      array->GetInformation()->Has(vtkDataArray::PER_FINITE_COMPONENT()))
    {
      continue;
    }
    switch (array->GetDataType())
    {
      vtkTemplateMacro(cacheArray<VTK_TT>(array));
    }
  }
}
}

void MacroscopeCacheRanges(vtkDataObject* data)
{
  if (!data)
  {
    return;
  }
  for (int kind : { vtkDataObject::POINT, vtkDataObject::CELL, vtkDataObject::VERTEX,
         vtkDataObject::EDGE, vtkDataObject::ROW })
  {
    cacheFields(data->GetAttributesAsFieldData(kind)); // null when `data` has none of the kind
  }
}
