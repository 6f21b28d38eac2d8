// What the spatiotemporal overview draws from its layout
// (SpatiotemporalOverview.h), before any VTK array is made: the mode colour
// with its proportion as opacity (Dosimont et al. 2015 (Ocelotl) §3.5.2,
// eq. 5; Dosimont et al. 2014 (VPA) §III-C), the borders and the diagonal
// and cross lines of the visual aggregates, the area of each mode type for
// the legend, the groups shown and the marks named on a comparison
// (docs/overviews.md, docs/comparison.md).
#pragma once

#include "SpatiotemporalOverview.h"
#include "TypePalette.h" // RGB

#include <cstdint>
#include <vector>

namespace macroscope
{

/// The colour `pure` with opacity `proportion` (clamped to [0, 1]) over the
/// white of the chart, blended and opaque: translucent geometry would need
/// depth sorting, and is lost by depth compositing under MPI.
RGB OverOpaqueWhite(RGB pure, double proportion);

/// The largest |A - B| of the marks' modes, the end of the diverging scale
/// (1 when every mark is equal, so that all are white).
double LargestSignedValue(const std::vector<OverviewMark>& marks);

/// Whether a difference's mark is named by its mode type: where the runs
/// (nearly) agree, under 5 % of the largest |A - B|, no type differs most.
bool NamesDifferingType(const OverviewMark& mark, double largestSigned);

/// A line marking a mark: a border (every edge between two marks is the
/// left or the top edge of one of them; the chart's own edges are the
/// frame's), the diagonal of a visual aggregate, the second line of the
/// cross of one whose parts are cut at different times.
enum class OverviewMarkingKind : uint8_t
{
  Border = 0,
  Diagonal = 1,
  Cross = 2
};
struct OverviewMarkingLine
{
  double X0, Y0, X1, Y1;
  OverviewMarkingKind Kind;
};
std::vector<OverviewMarkingLine> MarkingLines(const OverviewMark& mark, double plotHeight);

/// The pixel area of the marks whose mode is each type (`types` entries).
std::vector<double> ModeAreaOfTypes(const std::vector<OverviewMark>& marks, std::size_t types);

/// The nodes at depth `groupLevel` drawn as groups: only where the display
/// rows show them, at or above the cut, never inside a row standing for
/// several groups. In node order.
std::vector<int64_t> ShownGroups(
  const std::vector<int64_t>& parent, const std::vector<OverviewRow>& rows, int groupLevel);

}
