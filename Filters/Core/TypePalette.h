// Stable categorical colours for trace types.
//
// A type's colour depends on its name only, so the same state, event or
// variable has the same colour in every view, every run and every trace.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace macroscope
{
using RGB = std::array<std::uint8_t, 3>;

class TypePalette
{
public:
  // The colour of the type called `name`.
  static RGB ColorOf(std::string_view name);

  // 64-bit FNV-1a: fixed by definition, unlike std::hash, so colours never
  // change between compilers or library versions.
  static std::uint64_t StableHash(std::string_view text);

  // Hue, saturation and value in [0, 1] to 8-bit RGB.
  static RGB FromHSV(double hue, double saturation, double value);
};
}
