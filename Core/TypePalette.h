// Stable categorical colours for trace types, by paradigm family.
//
// A type's colour depends on its name, paradigm and role only (through
// TypeClassifier), so the same type has the same colour in every view,
// every run and every trace. Each family has its hues (MPI warm reds and
// oranges, threads blues, I/O teals, GPU purples, user code greens, other
// greys) and each shade within it a colour of its own, chosen so that the
// shades that take most of a trace's time (computation, MPI waits,
// collectives, sends, receives, setup, thread waits) stay at least 20 apart
// in CIEDE2000 (docs/colours.md, "Design"). A colour-blind-safe palette
// keeps them apart for protanopes and deuteranopes as well.
#pragma once

#include "TypeFamily.h"

#include <array>
#include <cstdint>
#include <string_view>

namespace macroscope
{
using RGB = std::array<std::uint8_t, 3>;

enum class PaletteKind
{
  Default,
  ColorBlindSafe
};

class TypePalette
{
public:
  // The colour of the type `name` of `paradigm` and `role` ("" when the
  // format has none) in `palette`.
  static RGB ColorOf(std::string_view name, std::string_view paradigm = {},
    std::string_view role = {}, PaletteKind palette = PaletteKind::Default);

  // The colours of a shade: most shades have one; user code and other have
  // several, and a type takes the one its name's hash selects.
  static std::size_t Variants(TypeShade shade);
  static RGB ShadeColor(TypeShade shade, std::size_t variant, PaletteKind palette);
  static std::size_t VariantOf(std::string_view name, TypeShade shade);

  // "default" and "colour-blind"; Parse accepts these (and "colorblind",
  // "color-blind", "colourblind"), returns false otherwise.
  static const char* Name(PaletteKind palette);
  static bool Parse(std::string_view text, PaletteKind& palette);

  // 64-bit FNV-1a: fixed by definition, unlike std::hash, so colours never
  // change between compilers or library versions.
  static std::uint64_t StableHash(std::string_view text);
};
}
