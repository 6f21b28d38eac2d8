/**
 * @class vtkPVMacroscopeMarkInformation
 * @brief Details on demand: what the mark under a point of a Macroscope
 * chart stands for, gathered from where the chart was laid out.
 *
 * Set the point in chart coordinates (the layout's pixels: x along time,
 * y from the bottom; DisplayToChart converts a pixel of the view), then
 * gather this information on a MacroscopeTraceRepresentation (or one of the
 * Macroscope representations) with the session's GatherInformation on the
 * data server. Every rank looks at the marks it laid out; the mark in front
 * (largest z) wins. The answer is a text (Core/MarkDetails.h), the
 * kind of mark, and the input rows it stands for (rank, row pairs of the
 * table named by RowTable: "States", "Messages", "Partition", or the
 * representation's input), for ParaView's selection.
 * See docs/details-on-demand.md.
 */
#ifndef vtkPVMacroscopeMarkInformation_h
#define vtkPVMacroscopeMarkInformation_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkPVInformation.h"

#include <string> // for std::string
#include <vector> // for std::vector

class vtkRenderer;

class MACROSCOPEREPRESENTATIONS_EXPORT vtkPVMacroscopeMarkInformation : public vtkPVInformation
{
public:
  static vtkPVMacroscopeMarkInformation* New();
  vtkTypeMacro(vtkPVMacroscopeMarkInformation, vtkPVInformation);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  /// The point asked about, in chart coordinates.
  vtkSetVector2Macro(Point, double);
  vtkGetVector2Macro(Point, double);

  /// Whether a mark lies under the point.
  bool GetFound() const { return this->Found; }
  /// What the mark is, a few lines (empty when nothing was found).
  const char* GetText() const { return this->Text.c_str(); }
  /// "state", "aggregate", "message", "part", "aggregate-part", "layer",
  /// "cell" (any other chart's mark), or "" when nothing was found.
  const char* GetKind() const { return this->Kind.c_str(); }
  /// The table the rows are in: "States", "Messages" (rows of the trace
  /// reader's outputs) or "Input" (the representation's input).
  const char* GetRowTable() const { return this->RowTable.c_str(); }
  /// The rows the mark stands for, as (rank, row) pairs: 2 x
  /// GetNumberOfRows() values. At most MaxRows rows are kept (RowsCut says
  /// when more were found).
  int GetNumberOfRows() const { return static_cast<int>(this->Rows.size() / 2); }
  long long GetRowRank(int i) const { return this->Rows[2 * i]; }
  long long GetRow(int i) const { return this->Rows[2 * i + 1]; }
  bool GetRowsCut() const { return this->RowsCut; }
  static constexpr int MaxRows = 100000;

  /// A pixel of a view (VTK display coordinates: origin at the bottom
  /// left) to chart coordinates, where the line of sight meets the chart's
  /// plane z = 0. False when the renderer has no camera.
  static bool DisplayToChart(vtkRenderer* renderer, double x, double y, double chart[2]);

  void CopyFromObject(vtkObject* object) override;
  void AddInformation(vtkPVInformation* other) override;
  void CopyToStream(vtkClientServerStream*) override;
  void CopyFromStream(const vtkClientServerStream*) override;
  void CopyParametersToStream(vtkMultiProcessStream&) override;
  void CopyParametersFromStream(vtkMultiProcessStream&) override;

#ifndef __VTK_WRAP__
  /// What a describer found (used by the per-chart code).
  struct Answer
  {
    bool Found = false;
    double Depth = 0.0; ///< z of the mark: the one in front wins
    std::string Text;
    std::string Kind;
    std::string RowTable;
    std::vector<long long> Rows; ///< rows of this rank
  };
#endif

protected:
  vtkPVMacroscopeMarkInformation();
  ~vtkPVMacroscopeMarkInformation() override;

private:
  vtkPVMacroscopeMarkInformation(const vtkPVMacroscopeMarkInformation&) = delete;
  void operator=(const vtkPVMacroscopeMarkInformation&) = delete;

  double Point[2] = { 0.0, 0.0 };
  bool Found = false;
  double Depth = 0.0;
  std::string Text;
  std::string Kind;
  std::string RowTable;
  std::vector<long long> Rows; ///< rank, row, rank, row...
  bool RowsCut = false;
};

#endif
