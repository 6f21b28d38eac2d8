#include "DivergingScale.h"

#include "TemporalOverview.h" // FormatAmplitude

#include <algorithm>
#include <cmath>

namespace macroscope
{

std::array<uint8_t, 3> DivergingColor(double fraction)
{
  // The seven classes, from -1 (red) to +1 (blue).
  static const std::array<uint8_t, 3> classes[7] = { { 178, 24, 43 }, { 239, 138, 98 },
    { 253, 219, 199 }, { 247, 247, 247 }, { 209, 229, 240 }, { 103, 169, 207 }, { 33, 102, 172 } };
  const double clamped = std::isnan(fraction) ? 0.0 : std::clamp(fraction, -1.0, 1.0);
  const double position = (clamped + 1.0) * 3.0; // in [0, 6]
  const int low = std::min(5, static_cast<int>(std::floor(position)));
  const double weight = position - low;
  std::array<uint8_t, 3> color{};
  for (int c = 0; c < 3; ++c)
  {
    color[c] = static_cast<uint8_t>(
      std::lround((1.0 - weight) * classes[low][c] + weight * classes[low + 1][c]));
  }
  return color;
}

std::array<uint8_t, 3> DifferenceColor(double signedMean, double absoluteMean, double largest)
{
  if (absoluteMean > 0.0 && std::abs(signedMean) < NetShareOfSign * absoluteMean)
  {
    return MixedColor;
  }
  return DivergingColor(largest > 0.0 ? signedMean / largest : 0.0);
}

std::vector<DivergingLegendEntry> DifferenceLegend(
  double largest, const std::string& runA, const std::string& runB, bool seconds)
{
  const double step = largest / 2.0; // the spacing of the swatches: its decimals
  auto amount = [&](double fraction)
  { return FormatAmplitude(std::abs(fraction) * largest, step, largest, seconds); };
  std::vector<DivergingLegendEntry> entries;
  for (double fraction : { 1.0, 0.5, 0.0, -0.5, -1.0 })
  {
    const std::string text =
      fraction == 0.0 ? "equal" : (fraction > 0.0 ? runA : runB) + " more by " + amount(fraction);
    entries.push_back({ fraction, text });
  }
  entries.push_back({ std::nan(""), "both more, in places" });
  return entries;
}

}
