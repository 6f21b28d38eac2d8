// Ocelotl's temporal overview (Dosimont et al. 2015 (Ocelotl) §3.4.2): the stacked bar
// chart of a temporal partition. Each aggregated interval T(i, j) is one
// stack spanning its time [Start, End] on the x axis (so its width is
// proportional to its slice count); each type u is one layer of height
// proportional to Q(T(i, j), u), the part's amplitude (Dosimont et al. 2015 (Ocelotl) eq. 4), on
// one y scale for the whole chart. Layers thinner than a pixel budget are merged into one flagged
// layer per stack (visual aggregation) whose height is the sum of theirs: nothing is dropped and
// every stack keeps its true height.
//
// Plain arrays in and out; the VTK layout filter draws the result. The rules
// and the choices behind them are in docs/overviews.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace macroscope
{

/// The parts of a temporal partition: part k spans [Start[k], End[k]] (seconds)
/// and has amplitude Amplitude[k * Types + u] for type u.
struct TemporalOverviewParts
{
  std::vector<double> Start;
  std::vector<double> End;
  uint32_t Types = 0;
  std::vector<double> Amplitude;

  std::size_t Size() const { return this->Start.size(); }
};

struct TemporalOverviewOptions
{
  /// The time window that spans the plot's width (the model's TimeWindow).
  double WindowBegin = 0.0;
  double WindowEnd = 1.0;
  /// Plot size in pixels: x in [0, Width] along the window, y in [0, Height]
  /// with the stacks standing on y = 0; the tallest stack reaches Height.
  double Width = 1000.0;
  double Height = 600.0;
  /// Vertical pixel budget: layers thinner than this (and not empty) merge
  /// into the stack's visual aggregate. 0 keeps every layer.
  double MinLayerHeight = 3.0;
};

/// Bits of TemporalOverviewLayers::Flags.
enum TemporalLayerFlag : uint8_t
{
  TemporalLayerMerged = 1,     ///< the visual aggregate of a stack's thin layers
  TemporalLayerBelowBudget = 2 ///< a merged layer that is itself thinner than the budget
};

/// One rectangle per drawn layer, stack by stack in time order, each stack
/// from bottom to top. Layer i covers [X0, X1] x [Y0, Y1] pixels, belongs to
/// part Part[i] (index in the input) and shows Type[i], or -1 for a merged
/// layer, which holds the types MergedType[MergedOffset[i] ..
/// MergedOffset[i + 1]) (in the chart's type order) and whose Value is the
/// sum of their amplitudes.
struct TemporalOverviewLayers
{
  std::vector<uint32_t> Part;
  std::vector<int32_t> Type;
  std::vector<double> Value;
  std::vector<double> X0;
  std::vector<double> X1;
  std::vector<double> Y0;
  std::vector<double> Y1;
  std::vector<uint8_t> Flags;
  std::vector<std::size_t> MergedOffset{ 0 };
  std::vector<uint32_t> MergedType;

  std::size_t Size() const { return this->Part.size(); }
};

struct TemporalOverview
{
  TemporalOverviewLayers Layers;
  /// Every type, bottom of the stacks first: by decreasing TypeArea, then by
  /// index. The same order in every stack.
  std::vector<uint32_t> TypeOrder;
  /// Per type: Σ over parts of amplitude × duration, the type's area on the
  /// chart in amplitude·seconds (for an extensive metric, its total in the
  /// window times the slice width).
  std::vector<double> TypeArea;
  /// Per type: whether it has a layer of its own in some stack.
  std::vector<uint8_t> TypeDrawn;
  /// Per part (input order): Σ_u amplitude, the stack's total.
  std::vector<double> StackTotal;
  double MaxTotal = 0.0;        ///< the tallest stack's total
  double Scale = 0.0;           ///< pixels per amplitude unit (0: nothing to draw)
  double PixelsPerSecond = 0.0; ///< along x
  /// Nice values (1, 2 or 5 times a power of ten) for the y axis, from 0 to
  /// at most MaxTotal; empty when MaxTotal is 0.
  std::vector<double> ValueTicks;
  double ValueStep = 0.0;
};

/// Throws std::invalid_argument on: a window that is not finite with
/// WindowBegin < WindowEnd; a plot size that is not finite and positive; a
/// MinLayerHeight that is negative or not finite; an Amplitude array whose
/// size is not parts × Types or an End array of another size than Start; a
/// part with End <= Start, a time that is not finite or outside the window;
/// parts that overlap; an amplitude that is negative or not finite.
/// `approximateValueTicks` is the number of y-axis ticks aimed at.
TemporalOverview LayoutTemporalOverview(const TemporalOverviewParts& parts,
  const TemporalOverviewOptions& options, int approximateValueTicks = 5);

/// How the y axis of the chart reads for a model's metric (the Metric,
/// Extensive and SliceWidth field data of Time Slicing): a title naming the
/// quantity and its unit per slice, and whether values are seconds.
struct AmplitudeAxis
{
  std::string Title;
  bool Seconds = false;
};
AmplitudeAxis DescribeAmplitudeAxis(const std::string& metric, bool extensive, double sliceWidth);

/// What an overview shows, for its title: the aggregation's parameter and
/// the number of parts, e.g. "p = 0.3: 14 parts of 100 slices" (temporal) or
/// "p = 0.3: 37 parts of 100 slices × 64 resources" (spatiotemporal, when
/// `resources` > 0). A NaN parameter (a partition without one) is left out.
std::string PartitionTitle(double parameter, int64_t parts, int64_t slices, int64_t resources);

/// The axis title as drawn: for an axis in seconds, the unit its ticks use
/// for `magnitude` (the largest value) in parentheses, e.g. "... (ms)".
std::string AmplitudeTitle(const AmplitudeAxis& axis, double magnitude);

/// A y-axis value: seconds in their SI unit (FormatSeconds) when `seconds`,
/// else a number with the decimals `step` needs and a k, M, G or T prefix
/// chosen from `magnitude`, e.g. (1500000, 500000, 2000000) → "1.5 M".
std::string FormatAmplitude(double value, double step, double magnitude, bool seconds);

}

namespace macroscope
{
/// What layer `layer` of `layers` shows, for its details: its type's name,
/// or the names of the types a merged layer holds, comma separated.
/// `names` has a name per type.
std::string TemporalLayerContents(
  const TemporalOverviewLayers& layers, std::size_t layer, const std::vector<std::string>& names);

/// The legend's text for merged layers: "visually aggregated: layers under
/// <minLayerHeight> px".
std::string MergedLayersKey(double minLayerHeight);
}
