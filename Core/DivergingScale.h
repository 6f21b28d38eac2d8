// Colours for a signed quantity, such as the A - B of a run comparison
// (docs/comparison.md): a diverging scale whose hue tells the sign and
// whose depth tells the size, white at zero. The scheme is ColorBrewer's
// red-blue one (C. A. Brewer, G. W. Hatchard, M. A. Harrower, "ColorBrewer
// in Print: A Catalog of Color Schemes for Maps", 2003), chosen because
// its two hues stay apart for colour-blind readers and in grey.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace macroscope
{

/// The colour of `fraction` in [-1, 1] (clamped; NaN is 0): +1 deep blue,
/// 0 near-white, -1 deep red, interpolated between the scheme's seven
/// classes.
std::array<uint8_t, 3> DivergingColor(double fraction);

/// The colour of a run comparison's mark: `signedMean` (A - B) and
/// `absoluteMean` (|A - B|) of its mode type over its cells, scaled by
/// `largest` (> 0). Where the runs differ both ways inside the mark (the
/// net |A - B| less than half the absolute one, which the aggregation of
/// |A - B| may group), MixedColor: grey, not the pale colour of "equal"
/// that the net value alone would give.
std::array<uint8_t, 3> DifferenceColor(double signedMean, double absoluteMean, double largest);
constexpr std::array<uint8_t, 3> MixedColor{ { 150, 150, 150 } };
/// The share of the absolute difference the net one must reach for a mark
/// to take its sign's colour (DifferenceColor).
constexpr double NetShareOfSign = 0.5;

/// One swatch of a diverging legend: its place on the scale and its text.
struct DivergingLegendEntry
{
  double Fraction = 0.0;
  std::string Text;
};

/// The legend of a comparison coloured by A - B scaled by `largest` (the
/// largest |A - B| drawn, > 0): five swatches from "<A> more by <largest>"
/// through "equal" to "<B> more by <largest>", then "both, in places" in
/// MixedColor (Fraction NaN); values written in seconds' units when
/// `seconds` (FormatAmplitude).
std::vector<DivergingLegendEntry> DifferenceLegend(
  double largest, const std::string& runA, const std::string& runB, bool seconds);

}
