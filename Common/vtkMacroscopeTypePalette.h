/**
 * @class vtkMacroscopeTypePalette
 * @brief Macroscope's one palette: a stable colour per trace type.
 *
 * The VTK face of macroscope::TypePalette (docs/colours.md): a type's colour
 * depends on its name, paradigm and role only, so it keeps its colour
 * across views, runs and traces. The methods here take the name alone, for
 * data that carries no paradigm (the model's types): names decide the
 * family wherever they are unambiguous (MPI_*, !$omp, pthread_*...), and an
 * unrecognised name is user code, as the readers classify it.
 */
#ifndef vtkMacroscopeTypePalette_h
#define vtkMacroscopeTypePalette_h

#include "MacroscopeCommonModule.h" // for export macro
#include "vtkObject.h"

class vtkLookupTable;
class vtkStringArray;
class vtkUnsignedCharArray;

class MACROSCOPECOMMON_EXPORT vtkMacroscopeTypePalette : public vtkObject
{
public:
  static vtkMacroscopeTypePalette* New();
  vtkTypeMacro(vtkMacroscopeTypePalette, vtkObject);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  /**
   * The 8-bit RGB colour of the type called `name` (no paradigm nor role).
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
