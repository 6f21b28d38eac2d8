#include "TypePalette.h"

#include <cmath>

namespace macroscope
{
std::uint64_t TypePalette::StableHash(std::string_view text)
{
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text)
  {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

RGB TypePalette::FromHSV(double hue, double saturation, double value)
{
  const double h = 6.0 * (hue - std::floor(hue));
  const int sector = static_cast<int>(h) % 6;
  const double f = h - std::floor(h);
  const double p = value * (1.0 - saturation);
  const double q = value * (1.0 - saturation * f);
  const double t = value * (1.0 - saturation * (1.0 - f));
  double r = value, g = t, b = p;
  switch (sector)
  {
    case 1: r = q; g = value; b = p; break;
    case 2: r = p; g = value; b = t; break;
    case 3: r = p; g = q; b = value; break;
    case 4: r = t; g = p; b = value; break;
    case 5: r = value; g = p; b = q; break;
    default: break;
  }
  auto byte = [](double x) { return static_cast<std::uint8_t>(std::lround(x * 255.0)); };
  return { byte(r), byte(g), byte(b) };
}

RGB TypePalette::ColorOf(std::string_view name)
{
  // Mix the hash once more so that names differing in their last character
  // (MPI_Send, MPI_Recv) land far apart in hue.
  std::uint64_t h = StableHash(name);
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;

  // Hue from 16 bits; saturation and value from a few levels each, kept away
  // from grey and from black so every colour reads on white and on black.
  const double hue = static_cast<double>(h & 0xffff) / 65536.0;
  const double saturation = 0.50 + 0.15 * static_cast<double>((h >> 16) % 4);
  const double value = 0.70 + 0.10 * static_cast<double>((h >> 20) % 3);
  return FromHSV(hue, saturation, value);
}
}
