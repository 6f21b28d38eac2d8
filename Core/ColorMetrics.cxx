#include "ColorMetrics.h"

#include <algorithm>
#include <cmath>

namespace macroscope
{
namespace
{
constexpr double Pi = 3.14159265358979323846;

double Linear(std::uint8_t channel)
{
  const double c = channel / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

std::uint8_t Encoded(double linearValue)
{
  const double x = std::clamp(linearValue, 0.0, 1.0);
  const double c = x <= 0.0031308 ? 12.92 * x : 1.055 * std::pow(x, 1.0 / 2.4) - 0.055;
  return static_cast<std::uint8_t>(std::lround(c * 255.0));
}

double LabF(double t)
{
  constexpr double delta = 6.0 / 29.0;
  return t > delta * delta * delta ? std::cbrt(t) : t / (3.0 * delta * delta) + 4.0 / 29.0;
}

double Degrees(double radians)
{
  return radians * 180.0 / Pi;
}

double Radians(double degreesValue)
{
  return degreesValue * Pi / 180.0;
}

// Hue angle h' in [0, 360) (Sharma et al., eq. 7; 0 for a neutral colour).
double HueAngle(double b, double aPrime)
{
  if (b == 0.0 && aPrime == 0.0)
  {
    return 0.0;
  }
  const double h = Degrees(std::atan2(b, aPrime));
  return h < 0.0 ? h + 360.0 : h;
}
}

Lab ColorMetrics::ToLab(const RGB& rgb)
{
  const double r = Linear(rgb[0]), g = Linear(rgb[1]), b = Linear(rgb[2]);
  const double x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b;
  const double y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b;
  const double z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b;
  const double fx = LabF(x / 0.95047), fy = LabF(y / 1.0), fz = LabF(z / 1.08883);
  return { 116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz) };
}

double ColorMetrics::CIEDE2000(const Lab& first, const Lab& second)
{
  // Step 1: C'i and h'i (eq. 2-7).
  const double c1 = std::hypot(first.a, first.b), c2 = std::hypot(second.a, second.b);
  const double cMean = 0.5 * (c1 + c2);
  const double cMean7 = std::pow(cMean, 7.0);
  const double g = 0.5 * (1.0 - std::sqrt(cMean7 / (cMean7 + std::pow(25.0, 7.0))));
  const double a1 = (1.0 + g) * first.a, a2 = (1.0 + g) * second.a;
  const double cp1 = std::hypot(a1, first.b), cp2 = std::hypot(a2, second.b);
  const double hp1 = HueAngle(first.b, a1), hp2 = HueAngle(second.b, a2);

  // Step 2: ΔL', ΔC', ΔH' (eq. 8-11).
  const double dL = second.L - first.L;
  const double dC = cp2 - cp1;
  double dh = 0.0;
  if (cp1 * cp2 != 0.0)
  {
    dh = hp2 - hp1;
    if (dh > 180.0)
    {
      dh -= 360.0;
    }
    else if (dh < -180.0)
    {
      dh += 360.0;
    }
  }
  const double dH = 2.0 * std::sqrt(cp1 * cp2) * std::sin(Radians(dh / 2.0));

  // Step 3: the weighting functions (eq. 12-22).
  const double lMean = 0.5 * (first.L + second.L);
  const double cpMean = 0.5 * (cp1 + cp2);
  double hMean = hp1 + hp2;
  if (cp1 * cp2 != 0.0)
  {
    if (std::abs(hp1 - hp2) <= 180.0)
    {
      hMean = 0.5 * (hp1 + hp2);
    }
    else
    {
      hMean = hp1 + hp2 < 360.0 ? 0.5 * (hp1 + hp2 + 360.0) : 0.5 * (hp1 + hp2 - 360.0);
    }
  }
  const double t = 1.0 - 0.17 * std::cos(Radians(hMean - 30.0)) +
    0.24 * std::cos(Radians(2.0 * hMean)) + 0.32 * std::cos(Radians(3.0 * hMean + 6.0)) -
    0.20 * std::cos(Radians(4.0 * hMean - 63.0));
  const double dTheta = 30.0 * std::exp(-std::pow((hMean - 275.0) / 25.0, 2.0));
  const double cpMean7 = std::pow(cpMean, 7.0);
  const double rC = 2.0 * std::sqrt(cpMean7 / (cpMean7 + std::pow(25.0, 7.0)));
  const double l50 = (lMean - 50.0) * (lMean - 50.0);
  const double sL = 1.0 + 0.015 * l50 / std::sqrt(20.0 + l50);
  const double sC = 1.0 + 0.045 * cpMean;
  const double sH = 1.0 + 0.015 * cpMean * t;
  const double rT = -std::sin(Radians(2.0 * dTheta)) * rC;
  const double l = dL / sL, c = dC / sC, h = dH / sH;
  return std::sqrt(l * l + c * c + h * h + rT * c * h);
}

double ColorMetrics::CIEDE2000(const RGB& first, const RGB& second)
{
  return CIEDE2000(ToLab(first), ToLab(second));
}

RGB ColorMetrics::Simulate(const RGB& rgb, Dichromacy kind)
{
  // Machado et al. (2009), severity 1.0.
  static const double protanopia[3][3] = { { 0.152286, 1.052583, -0.204868 },
    { 0.114503, 0.786281, 0.099216 }, { -0.003882, -0.048116, 1.051998 } };
  static const double deuteranopia[3][3] = { { 0.367322, 0.860646, -0.227968 },
    { 0.280085, 0.672501, 0.047413 }, { -0.011820, 0.042940, 0.968881 } };
  static const double tritanopia[3][3] = { { 1.255528, -0.076749, -0.178779 },
    { -0.078411, 0.930809, 0.147602 }, { 0.004733, 0.691367, 0.303900 } };
  const double(&m)[3][3] = kind == Dichromacy::Protanopia ? protanopia
    : kind == Dichromacy::Deuteranopia                    ? deuteranopia
                                                          : tritanopia;
  const double in[3] = { Linear(rgb[0]), Linear(rgb[1]), Linear(rgb[2]) };
  RGB out{};
  for (int i = 0; i < 3; ++i)
  {
    out[i] = Encoded(m[i][0] * in[0] + m[i][1] * in[1] + m[i][2] * in[2]);
  }
  return out;
}

double ColorMetrics::RelativeLuminance(const RGB& rgb)
{
  return 0.2126 * Linear(rgb[0]) + 0.7152 * Linear(rgb[1]) + 0.0722 * Linear(rgb[2]);
}

double ColorMetrics::ContrastRatio(const RGB& first, const RGB& second)
{
  const double a = RelativeLuminance(first), b = RelativeLuminance(second);
  return (std::max(a, b) + 0.05) / (std::min(a, b) + 0.05);
}
}
