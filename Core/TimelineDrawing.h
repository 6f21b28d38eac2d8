// What the Timeline draws from a TimelineLayout (TimelineLayout.h), in chart
// pixels, before any VTK array is made: the rows a view of a given height
// shows, where each band and depth lies, the cells of the marks (stacked or
// in the mode's colour), the runs of aggregates to hatch, the time per type
// for the legend, the groups of rows, the clipping of message lines and the
// message density of several ranks. The rules are those of docs/timeline.md;
// the visual aggregation is Dosimont et al. 2014 (VPA) §III-C.
#pragma once

#include "TimelineLayout.h"
#include "TypePalette.h" // RGB

#include <cstddef>
#include <cstdint>
#include <vector>

namespace macroscope
{

/// Which row each leaf is drawn on (NoResource: not drawn), and the
/// hierarchy vertex naming each row.
struct TimelineRowPlan
{
  std::vector<uint32_t> RowOfLeaf;
  std::vector<int64_t> RowVertex;
  int Level = -1; ///< -1: one row per location; k: the vertices of depth k
};

/// The zoom across rows: keeps the locations window[0]..window[1] of those
/// `keep` holds (top to bottom), all when window[1] < window[0]; `drawn`
/// gets the first and last kept and how many there were to choose from.
/// Throws what BuildResourceHierarchy throws on a malformed hierarchy.
void KeepTimelineRowWindow(const std::vector<int64_t>& parent,
  const std::vector<int64_t>& leafIndex, const int window[2], std::vector<bool>& keep,
  int drawn[3]);

/// One row per kept location; when more rows than `viewHeight /
/// minRowHeight` would be drawn, the rows give way to their ancestors, a
/// level at a time from the deepest (rows too thin to be seen are merged,
/// Dosimont et al. 2014 (VPA) §III-C).
TimelineRowPlan PlanTimelineRows(const std::vector<int64_t>& parent,
  const std::vector<int64_t>& leafIndex, double viewHeight, double minRowHeight,
  const std::vector<bool>& keepLeaf);

/// The path from a band's first row's vertex up to the root, for its row
/// label: a level where the band's last row has another ancestor (the band
/// straddles two groups) is -1.
std::vector<int64_t> TimelineBandAncestors(
  const std::vector<int64_t>& parent, int64_t firstVertex, int64_t lastVertex);

/// A run of consecutive rows sharing their ancestor at depth `groupLevel`
/// (or their own vertex when it is not deeper): rows [FirstRow, EndRow).
struct TimelineRowGroup
{
  std::size_t FirstRow = 0;
  std::size_t EndRow = 0;
  int64_t Group = -1;
};
std::vector<TimelineRowGroup> TimelineRowGroups(
  const std::vector<int64_t>& parent, const std::vector<int64_t>& rowVertex, int groupLevel);

/// Where bands and depths lie in a plot `Height` pixels high: band 0 at the
/// top; deeper states inset and in front of shallower ones.
struct TimelineBandGeometry
{
  double Height = 0.0;
  double BandHeight = 0.0;
  uint32_t Shallowest = 0; ///< the depth drawn full height
  uint32_t Deepest = 0;    ///< the deepest depth of a mark
  double Gap = 0.0;        ///< between bands, pixels
  double InsetStep = 0.0;  ///< per depth below Shallowest, pixels

  /// `depth` is the Depth property (-1: every depth).
  TimelineBandGeometry(const TimelineLayout& layout, double height, int depth);
  double Top(uint32_t band) const { return this->Height - band * this->BandHeight; }
  double Middle(uint32_t band) const { return this->Top(band) - 0.5 * this->BandHeight; }
  void MarkRows(uint32_t band, uint32_t depth, double& y0, double& y1) const;
  double Z(uint32_t depth) const { return 1.0 + (depth - this->Shallowest); }
  /// In front of every mark: the message lines and density strip.
  double LineZ() const;
};

/// One drawn cell of a mark: its rectangle, its type and the seconds of
/// that type it holds, their share of the mark's time (Fraction) and of its
/// time and locations (Filled, which lightens a mode cell).
struct TimelineMarkCell
{
  double X0, Y0, X1, Y1, Z;
  std::size_t Mark;
  uint32_t Type;
  double Seconds;
  double Fraction;
  double Filled;
  bool Shaded; ///< drawn in the mode's colour lightened by Filled
};

/// A run of touching aggregates of one band and depth, hatched as one.
struct TimelineHatchSpan
{
  double X0, X1, Y0, Y1, Z;
  uint8_t Flags;
};

struct TimelineMarkDrawing
{
  std::vector<TimelineMarkCell> Cells;
  std::vector<TimelineHatchSpan> Spans;
  /// Seconds drawn per type id (at least `types` entries).
  std::vector<double> TimeOfType;
};

/// The cells of every mark: an aggregate narrower than minMarkWidth is
/// widened to it (never dropped); with `stacked`, an aggregate of several
/// types is split in proportion to their times, otherwise it is one cell
/// of its mode. `rowOfLeaf` counts the locations on each band.
TimelineMarkDrawing DrawTimelineMarks(const TimelineLayout& layout,
  const TimelineBandGeometry& bands, const std::vector<uint32_t>& rowOfLeaf, double t0,
  double width, double minMarkWidth, bool stacked, std::size_t types);

/// The colour of an aggregate drawn in its mode's colour: the mode's share
/// `share` in [0, 1] of the mark's time (1: all of it) keeps that much of
/// the colour, at least 0.35, the rest blended towards a light grey — the
/// transparency by the mode's proportion of Dosimont et al. 2014 (VPA)
/// §III-C without translucent geometry.
RGB TimelineModeShade(RGB color, double share);

/// The grey of a density column holding `share` in [0, 1] of the fullest
/// column's messages (0: lightest).
uint8_t TimelineDensityGrey(double share);

/// Clips the segment (x0, y0)-(x1, y1) to x in [0, width]; false when
/// nothing is left.
bool ClipSegmentToWidth(double& x0, double& y0, double& x1, double& y1, double width);

/// A rank's messages per pixel column of a plot `width` pixels wide: the
/// counts of its density and of its lines (each in the column of its send
/// time), then their bytes (2 * ceil(width) values), to be summed over the
/// ranks.
std::vector<double> TimelineDensityColumns(const TimelineLayout& layout, double t0, double width);

/// The density of the columns `sums` (as TimelineDensityColumns makes them).
TimelineDensity TimelineDensityOfColumns(const std::vector<double>& sums);

/// The type ids with time, the most time first (the smaller id on ties).
std::vector<uint32_t> TypesByTime(const std::vector<double>& timeOfType);

}
