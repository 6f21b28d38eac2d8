/**
 * @class vtkMacroscopeOverviewLayout
 * @brief Base of the layouts of Ocelotl's overviews: a Partition table in,
 * a chart of ViewSize pixels out, on the five outputs the overview display
 * draws.
 *
 * It owns what both overviews share: the output ports, the chart size and
 * its check, and the cleared outputs a subclass draws into (Draw).
 */
#ifndef vtkMacroscopeOverviewLayout_h
#define vtkMacroscopeOverviewLayout_h

#include "MacroscopeRepresentationsModule.h" // for export macro
#include "vtkPolyDataAlgorithm.h"

#include <memory> // for std::unique_ptr
#include <string> // for std::string
#include <vector> // for std::vector

class vtkTable;
namespace macroscope
{
class TypeColorOverrides;
}

class MACROSCOPEREPRESENTATIONS_EXPORT vtkMacroscopeOverviewLayout : public vtkPolyDataAlgorithm
{
public:
  vtkTypeMacro(vtkMacroscopeOverviewLayout, vtkPolyDataAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum OutputPorts
  {
    MARKS = 0,
    MARKING = 1,
    GUIDES = 2,
    LABELS = 3,
    LEGEND = 4,
    NUMBER_OF_OUTPUTS = 5
  };

  ///@{
  /**
   * Width and height, in pixels, of the chart (default 1600 x 900): the
   * time window spans the width; the pixel budgets refer to this size.
   */
  vtkSetVector2Macro(ViewSize, int);
  vtkGetVector2Macro(ViewSize, int);
  ///@}

  ///@{
  /**
   * Font size, in points, at which the labels are measured and placed so
   * that none overlap (default 12; the representation passes its
   * LabelFontSize). See docs/labels.md.
   */
  vtkSetClampMacro(LabelFontSize, int, 1, 512);
  vtkGetMacro(LabelFontSize, int);
  ///@}

  ///@{
  /**
   * Colours chosen for some type names, replacing the colour their data
   * carries, as pairs: name, "#rrggbb", name, "#rrggbb"... (docs/colours.md).
   * Empty (the default) keeps the data's colours; a malformed list is an
   * error naming the entry.
   */
  void ClearTypeColors();
  void AddTypeColor(const char* entry);
  ///@}
#ifndef __VTK_WRAP__
  /// All the entries at once; marks the layout modified only if they change.
  void SetTypeColors(const std::vector<std::string>& entries);
#endif

protected:
  vtkMacroscopeOverviewLayout();
  ~vtkMacroscopeOverviewLayout() override;

  /// Draws `input` (null when no table came) into the cleared `outputs`;
  /// the ViewSize has been checked. Returns 0 after reporting an error.
  virtual int Draw(vtkTable* input, vtkPolyData* outputs[NUMBER_OF_OUTPUTS]) = 0;

  /// The zoom and pan in time from an overview (docs/views.md): puts on
  /// every output the TimeAxis field data the mouse reads (x of the
  /// window's start and end in chart units, then the window) and the
  /// trace's span when `model` carries it (Time Slicing's TraceSpan).
  static void AddTimeNavigation(vtkTable* model, vtkPolyData* outputs[NUMBER_OF_OUTPUTS],
    double width, double begin, double end);

  /// The partition's title (macroscope::PartitionTitle) from its field
  /// data: Parameter, ModelShape and the number of parts (rows); for a
  /// spatiotemporal partition the resources too.
  static std::string PartitionTitleOf(vtkTable* partition, bool withResources);

  int FillInputPortInformation(int port, vtkInformation* info) override;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

#ifndef __VTK_WRAP__
  /// The TypeColors, parsed by RequestData before Draw is called.
  const macroscope::TypeColorOverrides& GetTypeColorOverrides() const;
#endif

  int ViewSize[2] = { 1600, 900 };
  int LabelFontSize = 12;
  std::vector<std::string> TypeColors; ///< see AddTypeColor
  std::unique_ptr<macroscope::TypeColorOverrides> ParsedTypeColors;

private:
  vtkMacroscopeOverviewLayout(const vtkMacroscopeOverviewLayout&) = delete;
  void operator=(const vtkMacroscopeOverviewLayout&) = delete;
};

#endif
