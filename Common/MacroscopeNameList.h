// The name lists behind the Resources and Types properties (the shared
// resource/type selection of docs/linked-views.md).
#ifndef MacroscopeNameList_h
#define MacroscopeNameList_h

#include "MacroscopeCommonModule.h" // for export macro
#include "vtkIndent.h"               // for vtkIndent

#include <ostream>
#include <string>
#include <vector>


/// The name lists behind the Resources and Types properties of the filters
/// and layouts that honour the shared selection (empty = all): one
/// behaviour for adding, clearing and printing them.
struct MACROSCOPECOMMON_EXPORT MacroscopeNameList
{
  /// Appends `name` (null as ""); the caller marks itself modified.
  static void Add(std::vector<std::string>& names, const char* name);
  /// Empties `names`; true when that changed them (then mark modified).
  static bool Clear(std::vector<std::string>& names);
  /// `label: "a" "b"`, or `label: (all)` when empty, on one line.
  static void Print(std::ostream& os, vtkIndent indent, const char* label,
    const std::vector<std::string>& names);
};

#endif
