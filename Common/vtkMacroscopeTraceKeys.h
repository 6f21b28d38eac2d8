/**
 * @class vtkMacroscopeTraceKeys
 * @brief Pipeline information keys shared by Macroscope's readers and filters.
 *
 * DEFINITIONS carries, in a trace reader's output information, the small
 * data object that its port will hold once read: the Hierarchy tree on the
 * Hierarchy port, the Types table on the Types port. Readers know them after
 * reading the definitions only, and the key travels downstream during
 * REQUEST_INFORMATION, so filters whose output extent depends on the
 * resources and types (Time Slicing's image) can announce it before any
 * event is read, as structured outputs must.
 */
#ifndef vtkMacroscopeTraceKeys_h
#define vtkMacroscopeTraceKeys_h

#include "MacroscopeCommonModule.h" // for export macro
#include "vtkObject.h"

class vtkInformationDataObjectMetaDataKey;
class vtkInformationStringKey;

class MACROSCOPECOMMON_EXPORT vtkMacroscopeTraceKeys : public vtkObject
{
public:
  static vtkMacroscopeTraceKeys* New();
  vtkTypeMacro(vtkMacroscopeTraceKeys, vtkObject);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  static vtkInformationDataObjectMetaDataKey* DEFINITIONS();

  /// The trace file a reader's outputs come from, in each output port's
  /// information, so that filters name it in their messages (Logical Time's
  /// clock warning). Not data: a moved trace gives the same outputs.
  static vtkInformationStringKey* TRACE_FILE();

protected:
  vtkMacroscopeTraceKeys() = default;
  ~vtkMacroscopeTraceKeys() override = default;

private:
  vtkMacroscopeTraceKeys(const vtkMacroscopeTraceKeys&) = delete;
  void operator=(const vtkMacroscopeTraceKeys&) = delete;
};

#endif
