// Where a chart's text may go so that no two labels pile up, at any chart
// size: a greedy placement by priority, and the rules that keep the
// thinning regular (every k-th row, fewer ticks when their text is wide, a
// legend that fits its room or says "+ n more"). VTK-free: sizes are
// pixels measured by the caller (the VTK layer measures with
// vtkTextRenderer, docs/labels.md). Coordinates are a chart's pixels, y
// upwards.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace macroscope
{

/// An axis-aligned box in pixels, [X0, X1] x [Y0, Y1].
struct LabelRect
{
  double X0 = 0.0, Y0 = 0.0, X1 = 0.0, Y1 = 0.0;
  double Width() const { return X1 - X0; }
  double Height() const { return Y1 - Y0; }
};

/// Where the anchor lies on the text's box.
enum class LabelAlign
{
  Start,  ///< the anchor is the box's left (or bottom) edge
  Centre, ///< the anchor is the box's centre
  End     ///< the anchor is the box's right (or top) edge
};

/// A label the chart would like to draw: its anchor, the size of its text
/// and how the text sits on the anchor; a higher Priority is placed first.
struct LabelCandidate
{
  double X = 0.0, Y = 0.0;
  double Width = 0.0, Height = 0.0;
  LabelAlign Horizontal = LabelAlign::Start;
  LabelAlign Vertical = LabelAlign::Centre;
  int Priority = 0;
};

/// The box a candidate's text covers.
LabelRect LabelBox(const LabelCandidate& label);

/// True when the boxes, each grown by `gap / 2` on every side, share an
/// interior point: boxes closer than `gap` pixels overlap, boxes exactly
/// `gap` apart do not.
bool BoxesOverlap(const LabelRect& a, const LabelRect& b, double gap);

/// True when `box` lies in `bounds` (edges included).
bool BoxInside(const LabelRect& box, const LabelRect& bounds);

/// The labels to draw: by decreasing priority, ties in input order (so the
/// result is deterministic), a label is kept when its box lies in `bounds`
/// and is at least `gap` pixels from every label kept before it. Returns a
/// flag per candidate. No two kept boxes overlap; a label alone in the
/// bounds is always kept.
std::vector<bool> PlaceLabels(
  const std::vector<LabelCandidate>& labels, const LabelRect& bounds, double gap);

/// Every how many rows a row label fits: the smallest k >= 1 such that k
/// rows of `rowPitch` pixels hold a label of `labelHeight` plus `gap`.
/// Labelling rows 0, k, 2k... gives evenly spaced labels that never touch.
/// A pitch <= 0 gives the number of rows (`rows`, at least 1): one label.
std::size_t RowLabelStride(double rowPitch, double labelHeight, double gap, std::size_t rows);

/// Consecutive rows named by one label: rows First..Last (from the top),
/// all below Node of the hierarchy (the rows' own node at level 0).
struct RowGroup
{
  std::size_t First = 0;
  std::size_t Last = 0;
  int64_t Node = -1;
};

/// Row labels when rows are too thin for one label each: rather than name
/// every k-th row (and leave the others unnamed), name the groups of the
/// coarsest level needed, so that every row lies under a label. Rows run
/// from the top; `ancestors[r]` lists row r's node, its parent, ... up to
/// the root (a negative id marks a level the row has no single node at, a
/// band of merged rows straddling two groups: it never joins a group);
/// `heights[r]` is its height in pixels. At level L a row's group is its
/// L-th ancestor (its last one when the path is shorter); the groups are
/// the runs of consecutive rows with the same group. The result is the
/// runs of the lowest level whose every run is at least `labelPitch`
/// pixels tall (level 0: a label per row), or the runs of the top level
/// when no level gets there. Labels centred on these runs never overlap.
std::vector<RowGroup> GroupRowsForLabels(const std::vector<std::vector<int64_t>>& ancestors,
  const std::vector<double>& heights, double labelPitch);

/// How many tick labels of at most `widestLabel` pixels fit side by side,
/// centred on evenly spaced ticks, along `axisLength` pixels with `gap`
/// pixels between neighbours: at least 1.
int TickLabelBudget(double axisLength, double widestLabel, double gap);

/// True when labels of `widths`, centred on the increasing `positions`,
/// leave at least `gap` pixels between neighbours.
bool TickLabelsFit(
  const std::vector<double>& positions, const std::vector<double>& widths, double gap);

/// A legend laid out in its room: entries fill columns top to bottom, then
/// the next column to the right.
struct LegendFit
{
  std::size_t Shown = 0;    ///< entries drawn (the first ones)
  std::size_t Columns = 0;  ///< columns used
  std::size_t Rows = 0;     ///< rows per column
  bool More = false;        ///< a "+ n more" line follows the shown entries
  double ColumnWidth = 0.0; ///< pixels of a column (its widest item)
  double Width = 0.0;       ///< pixels used across
  double Height = 0.0;      ///< pixels used down
};

/// Fits a legend of entries `itemWidths` pixels wide (swatch and text) and
/// `rowHeight` tall into `roomWidth` x `roomHeight`: as many rows as fit,
/// then as many columns (each as wide as the widest item, `columnGap`
/// between them) as the entries need and the room holds. When the entries
/// do not all fit, the last slot shows "+ n more" (`moreWidth` pixels)
/// instead of an entry. Items wider than the room are counted at the
/// room's width (the caller elides their text). A room without a single
/// row shows nothing.
LegendFit FitLegend(const std::vector<double>& itemWidths, double moreWidth, double rowHeight,
  double roomWidth, double roomHeight, double columnGap);

/// The margins of a chart of `viewWidth` x `viewHeight` pixels around its
/// plot: what the labels ask for, shrunk when they would leave the plot
/// less than `minPlotFraction` of the view along an axis (each margin
/// loses the same share). The plot is what remains, at least 1 pixel.
struct ChartMargins
{
  double Left = 0.0, Right = 0.0, Bottom = 0.0, Top = 0.0;
  double PlotWidth = 1.0, PlotHeight = 1.0;
};
ChartMargins FitChartMargins(
  double viewWidth, double viewHeight, ChartMargins wanted, double minPlotFraction);

/// Row names without the leading path components every one of them shares
/// ("cluster / node 3 / rank 0" and "cluster / node 3 / rank 1" become
/// "rank 0" and "rank 1"): what no row differs in tells no row apart, and
/// the room it took goes to what does. Components are separated by
/// `separator`; a name keeps at least its last component. A lone name
/// stays whole.
std::vector<std::string> DropCommonLeadingPath(
  const std::vector<std::string>& names, const std::string& separator);

}
