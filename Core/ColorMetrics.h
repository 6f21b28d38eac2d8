// Colour science for the type palette's tests and design (VTK-free): CIELAB,
// the CIEDE2000 colour difference, dichromacy simulation and WCAG contrast.
//
// CIEDE2000 follows Sharma, Wu and Dalal, "The CIEDE2000 color-difference
// formula: implementation notes, supplementary test data, and mathematical
// observations" (2005), equations (1)-(22), with kL = kC = kH = 1.
// Dichromacy is simulated with the severity-1 matrices of Machado, Oliveira
// and Fernandes, "A physiologically-based model for simulation of color
// vision deficiency" (2009), applied to linear RGB.
#pragma once

#include "TypePalette.h"

namespace macroscope
{
struct Lab
{
  double L = 0.0, a = 0.0, b = 0.0;
};

enum class Dichromacy
{
  Protanopia,
  Deuteranopia,
  Tritanopia
};

class ColorMetrics
{
public:
  // sRGB (8 bits, D65) to CIELAB (D65 white).
  static Lab ToLab(const RGB& rgb);

  // ΔE00 between two CIELAB colours (symmetric, 0 for equal colours).
  static double CIEDE2000(const Lab& first, const Lab& second);
  static double CIEDE2000(const RGB& first, const RGB& second);

  // The colour a dichromat of the given kind sees instead of `rgb`.
  static RGB Simulate(const RGB& rgb, Dichromacy kind);

  // WCAG 2 relative luminance in [0, 1] and contrast ratio in [1, 21].
  static double RelativeLuminance(const RGB& rgb);
  static double ContrastRatio(const RGB& first, const RGB& second);
};
}
