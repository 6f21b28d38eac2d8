#include "ColorMetrics.h"

#include <gtest/gtest.h>

using macroscope::ColorMetrics;
using macroscope::Dichromacy;
using macroscope::Lab;
using macroscope::RGB;

namespace
{
struct SharmaPair
{
  int Number;
  Lab First, Second;
  double Expected;
};

// Pairs of Table 1 of Sharma, Wu and Dalal (2005), with their ΔE00 to four
// decimals: the hue-angle wrap (1-6, 9-16), neutral colours (7, 8, 33,
// 34), the large differences (17-20) and the published sample pairs (25-32).
const SharmaPair Pairs[] = {
  { 1, { 50.0, 2.6772, -79.7751 }, { 50.0, 0.0, -82.7485 }, 2.0425 },
  { 4, { 50.0, -1.3802, -84.2814 }, { 50.0, 0.0, -82.7485 }, 1.0000 },
  { 7, { 50.0, 0.0, 0.0 }, { 50.0, -1.0, 2.0 }, 2.3669 },
  { 9, { 50.0, 2.4900, -0.0010 }, { 50.0, -2.4900, 0.0009 }, 7.1792 },
  { 11, { 50.0, 2.4900, -0.0010 }, { 50.0, -2.4900, 0.0011 }, 7.2195 },
  { 13, { 50.0, -0.0010, 2.4900 }, { 50.0, 0.0009, -2.4900 }, 4.8045 },
  { 15, { 50.0, -0.0010, 2.4900 }, { 50.0, 0.0011, -2.4900 }, 4.7461 },
  { 16, { 50.0, 2.5, 0.0 }, { 50.0, 0.0, -2.5 }, 4.3065 },
  { 17, { 50.0, 2.5, 0.0 }, { 73.0, 25.0, -18.0 }, 27.1492 },
  { 18, { 50.0, 2.5, 0.0 }, { 61.0, -5.0, 29.0 }, 22.8977 },
  { 19, { 50.0, 2.5, 0.0 }, { 56.0, -27.0, -3.0 }, 31.9030 },
  { 20, { 50.0, 2.5, 0.0 }, { 58.0, 24.0, 15.0 }, 19.4535 },
  { 22, { 50.0, 2.5, 0.0 }, { 50.0, 3.2972, 0.0 }, 1.0000 },
  { 25, { 60.2574, -34.0099, 36.2677 }, { 60.4626, -34.1751, 39.4387 }, 1.2644 },
  { 26, { 63.0109, -31.0961, -5.8663 }, { 62.8187, -29.7946, -4.0864 }, 1.2630 },
  { 28, { 35.0831, -44.1164, 3.7933 }, { 35.0232, -40.0716, 1.5901 }, 1.8645 },
  { 29, { 22.7233, 20.0904, -46.6940 }, { 23.0331, 14.9730, -42.5619 }, 2.0373 },
  { 30, { 36.4612, 47.8580, 18.3852 }, { 36.2715, 50.5065, 21.2231 }, 1.4146 },
  { 31, { 90.8027, -2.0831, 1.4410 }, { 91.1528, -1.6435, 0.0447 }, 1.4441 },
  { 33, { 6.7747, -0.2908, -2.4247 }, { 5.8714, -0.0985, -2.2286 }, 0.6377 },
  { 34, { 2.0776, 0.0795, -1.1350 }, { 0.9033, -0.0636, -0.5514 }, 0.9082 },
};
}

TEST(ColorMetrics, CIEDE2000MatchesSharmaWuDalal)
{
  for (const SharmaPair& pair : Pairs)
  {
    EXPECT_NEAR(ColorMetrics::CIEDE2000(pair.First, pair.Second), pair.Expected, 5e-5)
      << "pair " << pair.Number;
    // The formula is symmetric (their observation 2 shows where other
    // implementations fail it: the mean hue across the 0/360 wrap).
    EXPECT_NEAR(ColorMetrics::CIEDE2000(pair.Second, pair.First), pair.Expected, 5e-5)
      << "pair " << pair.Number << " reversed";
  }
  EXPECT_EQ(ColorMetrics::CIEDE2000(Lab{ 40, 10, -20 }, Lab{ 40, 10, -20 }), 0.0);
}

TEST(ColorMetrics, LabOfReferenceColours)
{
  const Lab white = ColorMetrics::ToLab(RGB{ 255, 255, 255 });
  EXPECT_NEAR(white.L, 100.0, 1e-3);
  EXPECT_NEAR(white.a, 0.0, 1e-2);
  EXPECT_NEAR(white.b, 0.0, 1e-2);
  const Lab black = ColorMetrics::ToLab(RGB{ 0, 0, 0 });
  EXPECT_NEAR(black.L, 0.0, 1e-9);
  // sRGB red: L* 53.24, a* 80.09, b* 67.20 (D65).
  const Lab red = ColorMetrics::ToLab(RGB{ 255, 0, 0 });
  EXPECT_NEAR(red.L, 53.24, 0.01);
  EXPECT_NEAR(red.a, 80.09, 0.02);
  EXPECT_NEAR(red.b, 67.20, 0.02);
}

TEST(ColorMetrics, DichromatsLoseRedGreenNotLightness)
{
  const RGB red{ 200, 40, 40 }, green{ 90, 130, 40 };
  const double seen = ColorMetrics::CIEDE2000(red, green);
  EXPECT_GT(seen, 40.0);
  for (Dichromacy kind : { Dichromacy::Protanopia, Dichromacy::Deuteranopia })
  {
    const double simulated = ColorMetrics::CIEDE2000(
      ColorMetrics::Simulate(red, kind), ColorMetrics::Simulate(green, kind));
    EXPECT_LT(simulated, seen / 3.0) << int(kind);
    // Greys stay greys: each matrix row sums to 1.
    const RGB grey = ColorMetrics::Simulate(RGB{ 128, 128, 128 }, kind);
    for (int c = 0; c < 3; ++c)
    {
      EXPECT_NEAR(grey[c], 128, 1) << int(kind);
    }
    // Blue against yellow survives.
    EXPECT_GT(ColorMetrics::CIEDE2000(ColorMetrics::Simulate(RGB{ 30, 60, 200 }, kind),
                ColorMetrics::Simulate(RGB{ 230, 200, 40 }, kind)),
      40.0);
  }
  // Tritanopes keep red against green, lose blue against green.
  EXPECT_GT(ColorMetrics::CIEDE2000(ColorMetrics::Simulate(red, Dichromacy::Tritanopia),
              ColorMetrics::Simulate(green, Dichromacy::Tritanopia)),
    30.0);
}

TEST(ColorMetrics, ContrastRatio)
{
  EXPECT_NEAR(ColorMetrics::ContrastRatio(RGB{ 255, 255, 255 }, RGB{ 0, 0, 0 }), 21.0, 1e-9);
  EXPECT_NEAR(ColorMetrics::ContrastRatio(RGB{ 0, 0, 0 }, RGB{ 255, 255, 255 }), 21.0, 1e-9);
  EXPECT_NEAR(ColorMetrics::ContrastRatio(RGB{ 90, 90, 90 }, RGB{ 90, 90, 90 }), 1.0, 1e-12);
  // WCAG's example: #777777 on white is about 4.48:1.
  EXPECT_NEAR(
    ColorMetrics::ContrastRatio(RGB{ 0x77, 0x77, 0x77 }, RGB{ 255, 255, 255 }), 4.48, 0.01);
}
