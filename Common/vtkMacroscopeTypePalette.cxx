#include "vtkMacroscopeTypePalette.h"

#include "TraceSchema.h"
#include "TypePalette.h"

#include "vtkLookupTable.h"
#include "vtkObjectFactory.h"
#include "vtkStringArray.h"
#include "vtkUnsignedCharArray.h"
#include "vtkVariant.h"

vtkStandardNewMacro(vtkMacroscopeTypePalette);

void vtkMacroscopeTypePalette::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Palette: stable hash of the type name to HSV\n";
}

void vtkMacroscopeTypePalette::GetColor(const char* name, unsigned char rgb[3])
{
  const macroscope::RGB color = macroscope::TypePalette::ColorOf(name ? name : "");
  rgb[0] = color[0];
  rgb[1] = color[1];
  rgb[2] = color[2];
}

void vtkMacroscopeTypePalette::FillColors(vtkStringArray* names, vtkUnsignedCharArray* colors)
{
  if (!names || !colors)
  {
    return;
  }
  colors->SetName(macroscope::schema::Color);
  colors->SetNumberOfComponents(3);
  colors->SetNumberOfTuples(names->GetNumberOfValues());
  for (vtkIdType i = 0; i < names->GetNumberOfValues(); ++i)
  {
    unsigned char rgb[3];
    GetColor(names->GetValue(i).c_str(), rgb);
    colors->SetTypedTuple(i, rgb);
  }
}

void vtkMacroscopeTypePalette::FillLookupTable(vtkStringArray* names, vtkLookupTable* table)
{
  if (!names || !table)
  {
    return;
  }
  const vtkIdType count = names->GetNumberOfValues();
  table->IndexedLookupOn();
  table->ResetAnnotations();
  table->SetNumberOfTableValues(count);
  for (vtkIdType i = 0; i < count; ++i)
  {
    unsigned char rgb[3];
    GetColor(names->GetValue(i).c_str(), rgb);
    table->SetTableValue(i, rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0, 1.0);
    table->SetAnnotation(vtkVariant(names->GetValue(i)), names->GetValue(i));
  }
}
