/**
 * @class vtkMacroscopeTypePalette
 * @brief Macroscope's one palette: a stable colour per trace type name.
 *
 * Every Macroscope view colours states, events and variables through this
 * class, so a type keeps its colour across views, runs and traces. The colour
 * depends on the name only (see macroscope::TypePalette).
 */
#ifndef vtkMacroscopeTypePalette_h
#define vtkMacroscopeTypePalette_h

#include "MacroscopeFiltersModule.h" // for export macro
#include "vtkObject.h"

class vtkLookupTable;
class vtkStringArray;
class vtkUnsignedCharArray;

class MACROSCOPEFILTERS_EXPORT vtkMacroscopeTypePalette : public vtkObject
{
public:
  static vtkMacroscopeTypePalette* New();
  vtkTypeMacro(vtkMacroscopeTypePalette, vtkObject);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  /**
   * The 8-bit RGB colour of the type called `name`.
   */
  static void GetColor(const char* name, unsigned char rgb[3]);

  /**
   * A 3-component colour array (named "Color"), one tuple per name.
   */
  static void FillColors(vtkStringArray* names, vtkUnsignedCharArray* colors);

  /**
   * Makes `table` a categorical lookup table over `names`: one annotated
   * entry per name with its stable colour, for categorical legends.
   */
  static void FillLookupTable(vtkStringArray* names, vtkLookupTable* table);

protected:
  vtkMacroscopeTypePalette() = default;
  ~vtkMacroscopeTypePalette() override = default;

private:
  vtkMacroscopeTypePalette(const vtkMacroscopeTypePalette&) = delete;
  void operator=(const vtkMacroscopeTypePalette&) = delete;
};

#endif
