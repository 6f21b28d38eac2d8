/**
 * @class vtkMacroscopeMarkQuery
 * @brief Details on demand for scripts: the client-side object of the
 * "MacroscopeMarkQuery" proxy (misc group), which gathers a
 * vtkPVMacroscopeMarkInformation from the data server for a point of a
 * chart and keeps the answer for the proxy's information properties.
 *
 * Python cannot build a vtkPVMacroscopeMarkInformation (the plugin's VTK
 * classes are not Python-wrapped), but it can set a proxy's properties and
 * read its information properties: macroscope.details_at() does that.
 */
#ifndef vtkMacroscopeMarkQuery_h
#define vtkMacroscopeMarkQuery_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkObject.h"

#include <string> // for std::string
#include <vector> // for std::vector

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeMarkQuery : public vtkObject
{
public:
  static vtkMacroscopeMarkQuery* New();
  vtkTypeMacro(vtkMacroscopeMarkQuery, vtkObject);

  /// The chart point asked about (chart pixels).
  vtkSetVector2Macro(Point, double);
  /// The global id of the representation proxy to ask.
  vtkSetMacro(RepresentationId, vtkTypeUInt32);

  /// Gathers the answer from the data server of the active session.
  void Query();

  int GetFound() { return this->Found ? 1 : 0; }
  const char* GetText() { return this->Text.c_str(); }
  const char* GetKind() { return this->Kind.c_str(); }
  const char* GetRowTable() { return this->RowTable.c_str(); }
  int GetRowsCut() { return this->RowsCut ? 1 : 0; }
  /// The rows, "rank row rank row ..." (a string: the simplest reply a
  /// proxy's information property reads).
  const char* GetRows() { return this->RowText.c_str(); }

protected:
  vtkMacroscopeMarkQuery();
  ~vtkMacroscopeMarkQuery() override;

private:
  vtkMacroscopeMarkQuery(const vtkMacroscopeMarkQuery&) = delete;
  void operator=(const vtkMacroscopeMarkQuery&) = delete;

  double Point[2] = { 0.0, 0.0 };
  vtkTypeUInt32 RepresentationId = 0;
  bool Found = false;
  bool RowsCut = false;
  std::string Text;
  std::string Kind;
  std::string RowTable;
  std::string RowText;
};

#endif
