// Layout of Ocelotl's spatiotemporal overview (Dosimont et al. 2015
// (Ocelotl) §3.5.2, Dosimont et al. 2014 (VPA) §III-C): each part of a
// partition (hierarchy node x slice interval) is a rectangle spanning its time interval and its
// leaves' rows, coloured by its mode type (Ocelotl eq. 5) with an opacity given by the mode's
// proportion. Parts too thin to be seen are replaced by controlled visual
// aggregates: the hierarchy node above them that is tall enough, split at
// the times its resources share, marked by a diagonal line when the parts
// inside share one temporal partition and by a cross otherwise.
//
// Plain structures in and out; the VTK layout filter turns the marks into
// polydata. The rules are in docs/overviews.md.
#pragma once

#include "Aggregation.h" // AggregationHierarchy

#include <cstddef>
#include <cstdint>
#include <vector>

namespace macroscope
{

/// One part of the partition drawn: the leaves below Node over slices
/// [FirstSlice, LastSlice], with the mean value of each type over its cells
/// (the Partition table's Mean: sum / (slices x leaves)).
struct OverviewPart
{
  int64_t Node = -1;
  int FirstSlice = 0;
  int LastSlice = 0;
  std::vector<double> Mean; ///< one value per type
  /// For a difference model (docs/comparison.md): the mean of A - B per
  /// type, signed; empty otherwise. Mean is then |A - B|'s.
  std::vector<double> SignedMean;
};

struct SpatiotemporalOverviewOptions
{
  int Slices = 1;           ///< slices of the model the parts refer to
  double WindowBegin = 0.0; ///< seconds at the start of slice 0
  double WindowEnd = 1.0;   ///< seconds at the end of the last slice
  /// The plot spans [0, PlotWidth] x [0, PlotHeight] pixels, y upwards; leaf
  /// r occupies the r-th row from the top, rows of PlotHeight / leaves.
  double PlotWidth = 1600.0;
  double PlotHeight = 900.0;
  /// A node is visible when its rows are at least this tall in total; 0
  /// shows every part as it is.
  double MinRowHeight = 3.0;
};

enum class OverviewMarkKind : uint8_t
{
  Part = 0,              ///< one part of the partition, drawn as itself
  DiagonalAggregate = 1, ///< visual aggregate whose parts share one temporal partition
  CrossAggregate = 2     ///< visual aggregate whose parts are cut at different times
};

/// A rectangle of the overview.
struct OverviewMark
{
  int64_t Part = -1; ///< index in the parts; -1 for a visual aggregate
  int64_t Node = -1; ///< hierarchy node drawn (the display row of an aggregate)
  uint32_t FirstLeaf = 0;
  uint32_t LeafEnd = 0; ///< leaves [FirstLeaf, LeafEnd)
  int FirstSlice = 0;
  int LastSlice = 0;
  double Start = 0.0; ///< seconds
  double End = 0.0;
  double X0 = 0.0, X1 = 0.0, Y0 = 0.0, Y1 = 0.0; ///< pixels, Y0 < Y1
  uint32_t Mode = 0;           ///< type of the largest value, lowest index on ties
  double ModeProportion = 0.0; ///< value of the mode / sum over types; 0 if all are 0
  double Value =
    0.0; ///< mean of the mode over the mark's cells (Dosimont et al. 2015 (Ocelotl) eq. 5)
  /// The mean of the mode's SignedMean over the mark's cells (0 when the
  /// parts have none): which run had more of the type that differs most.
  double SignedValue = 0.0;
  OverviewMarkKind Kind = OverviewMarkKind::Part;
  uint32_t PartCount = 1; ///< parts the mark stands for
};

/// A node of the display cut: one row of the overview's spatial axis.
struct OverviewRow
{
  int64_t Node = -1;
  uint32_t FirstLeaf = 0;
  uint32_t LeafEnd = 0;
  double Y0 = 0.0, Y1 = 0.0; ///< pixels, Y0 < Y1
};

struct SpatiotemporalOverview
{
  /// Sorted by (FirstLeaf, FirstSlice); they tile the plot exactly once.
  std::vector<OverviewMark> Marks;
  /// The display cut, top row first.
  std::vector<OverviewRow> Rows;
  double LeafHeight = 0.0;    ///< PlotHeight / leaves
  std::size_t Aggregates = 0; ///< marks that are visual aggregates
};

/// The display cut: from the root down, the children of a node are shown
/// instead of it when every one of them is at least `minRowHeight` tall
/// (`leafHeight` pixels per leaf). Returns the nodes where the descent
/// stops, in leaf order; the root alone if it is not tall enough itself.
std::vector<int64_t> OverviewDisplayCut(
  const AggregationHierarchy& hierarchy, double leafHeight, double minRowHeight);

/// Lays out `parts`, which must tile leaves x slices exactly once (any
/// order). Throws std::invalid_argument on bad options (no slices, an empty
/// or infinite window or plot, a negative budget), a part with a node out
/// of range, a slice range outside the model, a Mean that is not `types`
/// finite values >= 0, or parts that overlap or leave a cell uncovered.
SpatiotemporalOverview LayoutSpatiotemporalOverview(const AggregationHierarchy& hierarchy,
  const std::vector<OverviewPart>& parts, uint32_t types,
  const SpatiotemporalOverviewOptions& options);

}
