// The name lists behind the Resources and Types properties (the shared
// resource/type selection of docs/linked-views.md).
#ifndef MacroscopeNameList_h
#define MacroscopeNameList_h

#include "MacroscopeCommonModule.h" // for export macro
#include "vtkIndent.h"              // for vtkIndent

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
  static void Print(
    std::ostream& os, vtkIndent indent, const char* label, const std::vector<std::string>& names);
};

/// Defines Add<Item>(name) and RemoveAll<List>() of `Class` over its member
/// `List`: adding marks the object modified, clearing only when the list
/// was not empty.
#define MACROSCOPE_NAME_LIST_COMMANDS(Class, Item, List)                                           \
  void Class::Add##Item(const char* name)                                                          \
  {                                                                                                \
    MacroscopeNameList::Add(this->List, name);                                                     \
    this->Modified();                                                                              \
  }                                                                                                \
  void Class::RemoveAll##List()                                                                    \
  {                                                                                                \
    if (MacroscopeNameList::Clear(this->List))                                                     \
    {                                                                                              \
      this->Modified();                                                                            \
    }                                                                                              \
  }

/// Defines AddResource, RemoveAllResources, AddType and RemoveAllTypes of
/// `Class` (the commands of the Resources and Types XML properties) over its
/// members Resources and Types. The class declares the four in its own
/// header, where the client-server wrapping finds them.
#define MACROSCOPE_RESOURCES_AND_TYPES(Class)                                                      \
  MACROSCOPE_NAME_LIST_COMMANDS(Class, Resource, Resources)                                        \
  MACROSCOPE_NAME_LIST_COMMANDS(Class, Type, Types)

/// The same four methods of a representation `Class` that hands them to its
/// layouts: `FORWARD(call)`, a macro of the representation's file, makes
/// `call` on each layout and marks the representation modified.
#define MACROSCOPE_FORWARD_RESOURCES_AND_TYPES(Class, FORWARD)                                     \
  void Class::AddResource(const char* name)                                                        \
  {                                                                                                \
    FORWARD(AddResource(name));                                                                    \
  }                                                                                                \
  void Class::RemoveAllResources()                                                                 \
  {                                                                                                \
    FORWARD(RemoveAllResources());                                                                 \
  }                                                                                                \
  void Class::AddType(const char* name)                                                            \
  {                                                                                                \
    FORWARD(AddType(name));                                                                        \
  }                                                                                                \
  void Class::RemoveAllTypes()                                                                     \
  {                                                                                                \
    FORWARD(RemoveAllTypes());                                                                     \
  }

#endif
