// Tests of the diverging scale of run comparisons (DivergingScale.h).
#include "ColorMetrics.h"
#include "DivergingScale.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using macroscope::ColorMetrics;
using macroscope::DivergingColor;
using macroscope::RGB;

namespace
{
RGB ToRGB(const std::array<uint8_t, 3>& color)
{
  return { color[0], color[1], color[2] };
}
}

TEST(DivergingScale, EndsAndMiddleAreTheSchemesClasses)
{
  EXPECT_EQ(DivergingColor(1.0), (std::array<uint8_t, 3>{ 33, 102, 172 }));
  EXPECT_EQ(DivergingColor(-1.0), (std::array<uint8_t, 3>{ 178, 24, 43 }));
  EXPECT_EQ(DivergingColor(0.0), (std::array<uint8_t, 3>{ 247, 247, 247 }));
  // Clamped beyond the ends; NaN is "equal".
  EXPECT_EQ(DivergingColor(7.0), DivergingColor(1.0));
  EXPECT_EQ(DivergingColor(-7.0), DivergingColor(-1.0));
  EXPECT_EQ(DivergingColor(std::numeric_limits<double>::quiet_NaN()), DivergingColor(0.0));
  // Halfway between the classes at 1/3 (103,169,207) and 2/3 (209,229,240)
  // of the blue side... is 0.5: (156, 199, 223.5 -> 224).
  EXPECT_EQ(DivergingColor(0.5), (std::array<uint8_t, 3>{ 156, 199, 224 }));
}

TEST(DivergingScale, DepthGrowsWithTheSizeOnBothSidesAndSidesStayApart)
{
  // Lightness falls as |fraction| grows, on either side: a larger
  // difference is a deeper colour.
  for (double sign : { -1.0, 1.0 })
  {
    double previous = 101.0;
    for (int k = 0; k <= 20; ++k)
    {
      const double L = ColorMetrics::ToLab(ToRGB(DivergingColor(sign * k / 20.0))).L;
      EXPECT_LT(L, previous) << "fraction " << sign * k / 20.0;
      previous = L;
    }
  }
  // The two sides at equal size are told apart by every reader, dichromats
  // included (CIEDE2000 >= 20 from half the scale on).
  for (double size : { 0.5, 0.75, 1.0 })
  {
    const RGB blue = ToRGB(DivergingColor(size));
    const RGB red = ToRGB(DivergingColor(-size));
    EXPECT_GE(ColorMetrics::CIEDE2000(blue, red), 20.0) << size;
    for (auto kind : { macroscope::Dichromacy::Protanopia, macroscope::Dichromacy::Deuteranopia,
           macroscope::Dichromacy::Tritanopia })
    {
      EXPECT_GE(ColorMetrics::CIEDE2000(
                  ColorMetrics::Simulate(blue, kind), ColorMetrics::Simulate(red, kind)),
        20.0)
        << size;
    }
  }
}

TEST(DivergingScale, LegendNamesTheRunsAndTheAmounts)
{
  const auto seconds = macroscope::DifferenceLegend(0.0012, "normal", "perturbed", true);
  ASSERT_EQ(seconds.size(), 6u);
  EXPECT_EQ(seconds[0].Fraction, 1.0);
  EXPECT_EQ(seconds[0].Text, "normal more by 1.2 ms");
  EXPECT_EQ(seconds[1].Text, "normal more by 0.6 ms");
  EXPECT_EQ(seconds[2].Text, "equal");
  EXPECT_EQ(seconds[3].Text, "perturbed more by 0.6 ms");
  EXPECT_EQ(seconds[4].Fraction, -1.0);
  EXPECT_EQ(seconds[4].Text, "perturbed more by 1.2 ms");
  EXPECT_TRUE(std::isnan(seconds[5].Fraction));
  EXPECT_EQ(seconds[5].Text, "both more, in places");
  const auto counts = macroscope::DifferenceLegend(40.0, "A", "B", false);
  EXPECT_EQ(counts[0].Text, "A more by 40");
  EXPECT_EQ(counts[3].Text, "B more by 20");
}

TEST(DivergingScale, MarksThatDifferBothWaysAreGreyNotEqual)
{
  using macroscope::DifferenceColor;
  // Net A - B of +0.6 of an absolute 1.0, scale 1: the sign's colour.
  EXPECT_EQ(DifferenceColor(0.6, 1.0, 1.0), DivergingColor(0.6));
  EXPECT_EQ(DifferenceColor(-0.5, 0.5, 2.0), DivergingColor(-0.25));
  // Net +0.1 of an absolute 1.0: A more in some cells, B in others.
  EXPECT_EQ(DifferenceColor(0.1, 1.0, 1.0), macroscope::MixedColor);
  EXPECT_EQ(DifferenceColor(-0.49, 1.0, 1.0), macroscope::MixedColor);
  // Equal everywhere: the scale's white, not the mixed grey.
  EXPECT_EQ(DifferenceColor(0.0, 0.0, 1.0), DivergingColor(0.0));
  // Grey stays apart from white ("equal") and from both ends.
  for (double fraction : { -1.0, 0.0, 1.0 })
  {
    EXPECT_GE(ColorMetrics::CIEDE2000(macroscope::MixedColor, DivergingColor(fraction)), 20.0);
  }
}
