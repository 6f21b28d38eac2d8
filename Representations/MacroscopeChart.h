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

#include "LabelPlacement.h"
#include "TypeColorOverrides.h"
#include "TypePalette.h"

#include "vtkCellArray.h"
#include "vtkIntArray.h"
#include "vtkNew.h"
#include "vtkPoints.h"
#include "vtkSmartPointer.h"
#include "vtkStringArray.h"
#include "vtkUnsignedCharArray.h"

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

class vtkFieldData;
class vtkPolyData;
class vtkTable;
class vtkTextProperty;

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
constexpr int LabelKindCount = 6;

/// How the representation sets a label of `kind` on its anchor (the
/// justification of vtkMacroscopeChartRepresentation's text properties).
macroscope::LabelAlign HorizontalAlign(int kind);
macroscope::LabelAlign VerticalAlign(int kind);
/// Which labels stay when space runs out: axis title and legend first,
/// then ticks, group names, row names and node names.
int LabelPriority(int kind);

/// Pixels between two labels, and between a label and the view's edge.
constexpr double LabelGap = 2.0;
/// Pixels at least between two tick labels, so that they read as separate
/// numbers.
constexpr double TickLabelGap = 16.0;

/// Sizes of text in pixels as the representation draws it: the font size
/// of its LabelFontSize, bold group names, italic axis titles, at `dpi`
/// (ParaView's render view draws text at 72 DPI unless told otherwise).
/// Measured by vtkTextRenderer, the engine vtkLabeledDataMapper draws with.
class TextMeasure
{
public:
  explicit TextMeasure(int fontSize = 12, int dpi = 72);
  ~TextMeasure();
  TextMeasure(const TextMeasure&) = delete;
  TextMeasure& operator=(const TextMeasure&) = delete;

  double Width(const std::string& text, int kind) const;
  /// The height of a line of text of `kind` (ascent to descent of "Ag").
  double Height(int kind) const;
  /// `text`, or its longest start followed by "…" that is at most
  /// `maxWidth` pixels wide ("" when not even "…" fits).
  std::string Elide(const std::string& text, int kind, double maxWidth) const;
  /// `text`, or its start and end around "…", as many characters of each
  /// (the end's count within one of the start's) as fit in `maxWidth`:
  /// row names differ at their end as often as at their start.
  std::string ElideMiddle(const std::string& text, int kind, double maxWidth) const;
  int FontSize() const { return this->Size; }
  int Dpi() const { return this->DotsPerInch; }

private:
  void Measure(const std::string& text, int kind, double& width, double& height) const;
  int Size;
  int DotsPerInch;
  vtkSmartPointer<vtkTextProperty> Properties[LabelKindCount];
  // Measuring costs a FreeType layout of the string: charts repeat their
  // texts (tick values, pie counts), so widths are kept per kind.
  mutable std::unordered_map<std::string, double> Widths[LabelKindCount];
  double Heights[LabelKindCount];
};

/// A chart in a view of ViewSize pixels: the plot spans [0, Width] x
/// [0, Height]; the margins around it hold the labels, axis and legend,
/// and plot plus margins are the view, [-Left, Width + Right] x [-Bottom,
/// Height + Top].
struct Frame
{
  double Width = 1.0, Height = 1.0;
  double Left = 0.0, Right = 0.0, Bottom = 0.0, Top = 0.0;
  macroscope::LabelRect Bounds() const
  {
    return { -this->Left, -this->Bottom, this->Width + this->Right, this->Height + this->Top };
  }
};

/// The frame of a view of `view` pixels whose labels ask for these margins;
/// margins shrink evenly to leave the plot at least half of each side.
Frame FitFrame(const int view[2], double left, double right, double bottom, double top);

/// The margins the time axis needs below the plot: ticks, their labels and
/// the axis title.
double TimeAxisMargin(const TextMeasure& measure);
/// The margin of row names at the left of the plot: the widest name, at
/// most 30% of the view's width (longer names are elided).
double RowLabelMargin(
  const std::vector<std::string>& names, const TextMeasure& measure, double viewWidth);
/// The margin of a legend right of the plot listing `names`: one column as
/// wide as the widest, at most a quarter of the view's width.
double LegendMarginFor(
  const std::vector<std::string>& names, const TextMeasure& measure, double viewWidth);
/// The widest name a row label or legend may show in a margin of `margin`.
double RowLabelRoom(const Frame& frame);
/// The widest title centred on the plot that stays in the view.
double TitleRoom(const Frame& frame);
double LegendTextRoom(const Frame& frame);

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
  void Quad(
    double x0, double y0, double x1, double y1, double z, RGB rgb, unsigned char alpha = 255);
  void Line(
    double x0, double y0, double x1, double y1, double z, RGB rgb, unsigned char alpha = 255);
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
  struct Entry
  {
    double X, Y, Z;
    std::string Text;
    int Kind;
    macroscope::LabelRect Box; ///< set by Fit
  };
  std::vector<Entry> Entries;
  double Z = 1.0; ///< in front of everything drawn
  bool Fitted = false;
  macroscope::LabelRect ChartBounds;
  double PlotWidth = 0.0, PlotHeight = 0.0;
  int FontSize = 0, Dpi = 0;

  void Add(double x, double y, const std::string& text, int kind);
  /// Text anchored at a point of a 3D scene.
  void AddAt(double x, double y, double z, const std::string& text, int kind);
  /// Keeps the labels that lie in `frame` and overlap no label of a higher
  /// priority (macroscope::PlaceLabels), measured by `measure`; the output
  /// then carries each label's box ("LabelBox": x0, y0, x1, y1) and the
  /// frame's bounds (field data "ChartBounds": x0, x1, y0, y1), which the
  /// representation fits in the view, and "PlotSize" (width, height).
  void Fit(const TextMeasure& measure, const Frame& frame);
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
void Hatch(Geometry& hatching, double x0, double y0, double x1, double y1, double z, double spacing,
  int slope, RGB color, unsigned char alpha = 255);

/// The frame of a width x height chart.
void DrawFrame(Geometry& guides, double width, double height, RGB color);

/// The time axis along y = 0 for the window [t0, t1] drawn over the
/// frame's width: the axis line, ticks at 1, 2 or 5 x 10^k s with their
/// labels (fewer ticks when their text would touch), and a title giving
/// the window, elided to the view's width.
void DrawTimeAxis(Geometry& guides, Labels& labels, double t0, double t1, const Frame& frame,
  const TextMeasure& measure, RGB color);

/// The y of the axis title under a time (or step) axis, and its text
/// elided to the frame.
double AxisTitleY(const TextMeasure& measure);

/// Row names at the left of the plot, centred on `centres` (one per row,
/// from the top): every k-th row when the rows are thinner than the text
/// (macroscope::RowLabelStride), without the leading path all share
/// (macroscope::DropCommonLeadingPath), elided to the margin at their end,
/// or in their middle when that keeps more of them apart.
void DrawRowLabels(Labels& labels, const std::vector<std::string>& names,
  const std::vector<double>& centres, double pitch, const Frame& frame, const TextMeasure& measure);

/// One row of a chart for its row labels: where it lies (chart y, Top >
/// Bottom), its label of its own, and its node and the node's ancestors up
/// to the root (a negative id where a band of merged rows has no single
/// node).
struct LabelledRow
{
  double Top = 0.0, Bottom = 0.0;
  std::string Name;
  std::vector<int64_t> Ancestors;
};

/// Row labels that name every row: each row its own name when the rows are
/// tall enough (as DrawRowLabels), otherwise the groups of the lowest
/// hierarchy level tall enough for a label (macroscope::GroupRowsForLabels),
/// each named by `nodeName` (with its parent's name when two groups share
/// a name) and marked by a bracket along its rows in `guides`.
void DrawGroupedRowLabels(Labels& labels, Geometry& guides, const std::vector<LabelledRow>& rows,
  const std::function<std::string(int64_t)>& nodeName, const Frame& frame,
  const TextMeasure& measure, RGB color);

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

/// Legend rows from the top of the plot downwards, right of it, within the
/// frame's right margin (macroscope::FitLegend): one swatch per entry, at
/// most `maximum` of them and what the room holds after `reserved` rows
/// the caller adds below, then a "+ n more" line. Names are elided to the
/// room. Returns the y of the next free legend row.
double DrawLegend(Geometry& legend, Labels& labels, const std::vector<LegendEntry>& entries,
  const Frame& frame, const TextMeasure& measure, std::size_t maximum, std::size_t reserved = 0);

/// Rows of the legend the frame holds (from the top of the plot to its
/// bottom).
std::size_t LegendRows(const Frame& frame);

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
