// Drawing pieces shared by Macroscope's chart layouts (the Timeline and the
// Ocelotl overviews): polydata being built cell by cell with a colour per
// cell, labels as points with text, hatching, the time axis and the
// categorical legend. Coordinates are the pixels of the chart: x along time
// from 0 to its width, y from 0 (bottom) to its height; the axis and its
// labels lie below y = 0, the legend right of the width.
//
// Private to the Representations module.
#ifndef MacroscopeChart_h
#define MacroscopeChart_h

#include "TypeColorOverrides.h"
#include "TypePalette.h"

#include "vtkCellArray.h"
#include "vtkIntArray.h"
#include "vtkNew.h"
#include "vtkPoints.h"
#include "vtkStringArray.h"
#include "vtkUnsignedCharArray.h"

#include <cstdint>
#include <string>
#include <vector>

class vtkFieldData;
class vtkPolyData;
class vtkTable;

namespace MacroscopeChart
{
using RGB = macroscope::RGB;

/// Values of the "LabelKind" point array of a Labels output; the
/// representations pick a text style per kind.
enum LabelKind
{
  TICK_LABEL = 0,
  ROW_LABEL = 1,
  GROUP_LABEL = 2,
  AXIS_TITLE = 3,
  LEGEND_LABEL = 4,
  NODE_LABEL = 5 ///< a name at the top left of its rectangle, over the marks
};

constexpr double TickLength = 6.0;
constexpr double LegendMargin = 24.0; ///< pixels between the chart and the legend
constexpr double LegendSwatch = 12.0;
constexpr double LegendRowHeight = 20.0;

/// The cells of one output being built: points, cells, and a "Color" cell
/// array of 3 (RGB) or 4 (RGBA) unsigned chars.
struct Geometry
{
  vtkNew<vtkPoints> Points;
  vtkNew<vtkCellArray> Polys;
  vtkNew<vtkCellArray> Lines;
  vtkNew<vtkCellArray> Verts;
  vtkNew<vtkUnsignedCharArray> Colors;

  explicit Geometry(int colorComponents = 3);
  vtkIdType Point(double x, double y, double z) { return this->Points->InsertNextPoint(x, y, z); }
  void Color(RGB rgb, unsigned char alpha = 255);
  void Quad(double x0, double y0, double x1, double y1, double z, RGB rgb, unsigned char alpha = 255);
  void Line(double x0, double y0, double x1, double y1, double z, RGB rgb, unsigned char alpha = 255);
  /// Moves the cells into `output`. Cell data follow VTK's order (verts,
  /// lines, polys): a Geometry holds one kind of cell, or lines then polys.
  void Into(vtkPolyData* output);
};

/// Type names and colours, by Types row: the user's colour of the name when
/// `overrides` names it, else the Types table's Color column when there is
/// one, else the palette's colour of the name.
struct TypeLook
{
  std::vector<std::string> Names;
  std::vector<RGB> Colors;
  macroscope::TypeColorOverrides Overrides;

  void Fill(vtkTable* types, const macroscope::TypeColorOverrides& overrides = {});
  std::string Name(uint32_t type) const;
  RGB Color(uint32_t type) const;
};

/// Text anchored at points: the "Label" and "LabelKind" point arrays.
struct Labels
{
  Geometry Anchors;
  vtkNew<vtkStringArray> Text;
  vtkNew<vtkIntArray> Kinds;
  double Z = 1.0; ///< in front of everything drawn

  Labels();
  void Add(double x, double y, const std::string& text, int kind);
  /// Text anchored at a point of a 3D scene.
  void AddAt(double x, double y, double z, const std::string& text, int kind);
  void Into(vtkPolyData* output);
};

template <typename Array>
vtkNew<Array> NamedArray(const char* name, vtkIdType reserve = 0)
{
  vtkNew<Array> array;
  array->SetName(name);
  array->Allocate(reserve);
  return array;
}

/// Diagonal hatching of [x0, x1] x [y0, y1]: lines of slope `slope` (+1 or
/// -1) on a grid of `spacing` pixels shared by every rectangle, so that
/// neighbouring hatched marks continue one pattern.
void Hatch(Geometry& hatching, double x0, double y0, double x1, double y1, double z,
  double spacing, int slope, RGB color, unsigned char alpha = 255);

/// The frame of a width x height chart.
void DrawFrame(Geometry& guides, double width, double height, RGB color);

/// The time axis along y = 0 for the window [t0, t1] drawn over `width`
/// pixels: the axis line, ticks at 1, 2 or 5 x 10^k s with their labels,
/// and a title giving the window.
void DrawTimeAxis(Geometry& guides, Labels& labels, double t0, double t1, double width, RGB color);

/// The names and colours of a model's `count` types, from the "TypeName"
/// and "TypeColor" field data of the table being drawn: a missing name is
/// "type u", a missing colour the palette's colour of the name; a name
/// `overrides` lists takes the user's colour.
struct TypeStyles
{
  std::vector<std::string> Names;
  std::vector<RGB> Colors;
};
TypeStyles ReadTypeStyles(
  vtkFieldData* fields, int count, const macroscope::TypeColorOverrides& overrides = {});

/// A layout's TypeColors entries (name, "#rrggbb", ...) parsed; false, with
/// `problem` naming the entry, when they are malformed.
bool ParseTypeColors(const std::vector<std::string>& entries,
  macroscope::TypeColorOverrides& overrides, std::string& problem);

/// A swatch and its name, for the legend.
struct LegendEntry
{
  std::string Name;
  RGB Color;
  unsigned char Alpha = 255;
};

/// Legend rows from the top of the chart downwards, right of `width`: one
/// swatch per entry, at most `maximum` of them, then a "+ n more" line.
/// Returns the y of the next free legend row.
double DrawLegend(Geometry& legend, Labels& labels, const std::vector<LegendEntry>& entries,
  double width, double height, std::size_t maximum);

/// The x of the legend's swatches and the x of their names.
inline double LegendSwatchX(double width)
{
  return width + LegendMargin;
}
inline double LegendTextX(double width)
{
  return width + LegendMargin + LegendSwatch + 6.0;
}
}

#endif
