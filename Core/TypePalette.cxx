#include "TypePalette.h"

namespace macroscope
{
namespace
{
// One row per TypeShade, in the enumeration's order; User has 4 colours,
// Other 2, every other shade 1 (the unused entries repeat the first). The
// values come from a search that maximises the smallest CIEDE2000 between
// shades under the families' hue and lightness constraints; the tests in
// Testing/Core/TestTypePalette.cxx check the properties, not the values.
constexpr std::size_t ShadeCount = static_cast<std::size_t>(TypeShade::Other) + 1;
using ShadeTable = std::array<std::array<RGB, 4>, ShadeCount>;

constexpr RGB Rgb(std::uint32_t hex)
{
  return { static_cast<std::uint8_t>(hex >> 16), static_cast<std::uint8_t>(hex >> 8),
    static_cast<std::uint8_t>(hex) };
}

constexpr std::array<RGB, 4> One(std::uint32_t hex)
{
  return { Rgb(hex), Rgb(hex), Rgb(hex), Rgb(hex) };
}

// The default palette.
// One type family a line, its name beside it.
// clang-format off
constexpr ShadeTable DefaultTable = { {
  One(0xe8172b), // MpiWait
  One(0xa54d43), // MpiRecv
  One(0xcb9695), // MpiSend
  One(0x8c2e53), // MpiPost
  One(0xfd7802), // MpiCollective
  One(0xc58263), // MpiBarrier
  One(0x815215), // MpiInit
  One(0xbc9915), // MpiFinalize
  One(0xb8701d), // MpiOther
  One(0xa4b0f8), // ThreadsParallel
  One(0x6097eb), // ThreadsWork
  One(0x4b49a2), // ThreadsWait
  One(0x7671d4), // ThreadsSync
  One(0x128c97), // IoRead
  One(0x146365), // IoWrite
  One(0x1cc5c3), // IoMeta
  One(0x8c5384), // GpuKernel
  One(0x9f06ff), // GpuCopy
  One(0x330bff), // GpuSync
  { Rgb(0x4f8f45), Rgb(0x145f3d), Rgb(0x5fce01), Rgb(0x14c38c) }, // User
  { Rgb(0xb8b4a6), Rgb(0xacb7c3), Rgb(0xb8b4a6), Rgb(0xacb7c3) }, // Other
} };
// clang-format on
// The colour-blind-safe palette: MPI from red through orange to yellow and
// brown, user code blues, threads cyans and teals, I/O reddish purples, GPU
// greens; apart in lightness where dichromats lose the red-green axis.
// One type family a line, its name beside it.
// clang-format off
constexpr ShadeTable ColorBlindTable = { {
  One(0xfb0f31), // MpiWait
  One(0xb8122c), // MpiRecv
  One(0xd28c6f), // MpiSend
  One(0x7d2f13), // MpiPost
  One(0xd3c888), // MpiCollective
  One(0xddbf46), // MpiBarrier
  One(0xe89a00), // MpiInit
  One(0x867118), // MpiFinalize
  One(0xfc5803), // MpiOther
  One(0x359a9e), // ThreadsParallel
  One(0x34c3f2), // ThreadsWork
  One(0x03606f), // ThreadsWait
  One(0x79c1c9), // ThreadsSync
  One(0xeba5fa), // IoRead
  One(0xb214df), // IoWrite
  One(0xb37dd2), // IoMeta
  One(0x408849), // GpuKernel
  One(0x00edd3), // GpuCopy
  One(0x15e7a2), // GpuSync
  { Rgb(0x3e5197), Rgb(0x1d7df5), Rgb(0x00aafe), Rgb(0x682bd8) }, // User
  { Rgb(0x7d757d), Rgb(0xa19b96), Rgb(0x7d757d), Rgb(0xa19b96) }, // Other
} };
// clang-format on
}

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

std::size_t TypePalette::Variants(TypeShade shade)
{
  return shade == TypeShade::User ? 4 : shade == TypeShade::Other ? 2 : 1;
}

std::size_t TypePalette::VariantOf(std::string_view name, TypeShade shade)
{
  // Mix the hash once more so that names differing in their last character
  // spread over the variants.
  std::uint64_t h = StableHash(name);
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return static_cast<std::size_t>(h % Variants(shade));
}

RGB TypePalette::ShadeColor(TypeShade shade, std::size_t variant, PaletteKind palette)
{
  const ShadeTable& table = palette == PaletteKind::ColorBlindSafe ? ColorBlindTable : DefaultTable;
  return table[static_cast<std::size_t>(shade)][variant % Variants(shade)];
}

RGB TypePalette::ColorOf(
  std::string_view name, std::string_view paradigm, std::string_view role, PaletteKind palette)
{
  const TypeShade shade = TypeClassifier::Classify(name, paradigm, role).Shade;
  return ShadeColor(shade, VariantOf(name, shade), palette);
}

const char* TypePalette::Name(PaletteKind palette)
{
  return palette == PaletteKind::ColorBlindSafe ? "colour-blind" : "default";
}

bool TypePalette::Parse(std::string_view text, PaletteKind& palette)
{
  if (text == "default")
  {
    palette = PaletteKind::Default;
    return true;
  }
  for (std::string_view name : { "colour-blind", "color-blind", "colourblind", "colorblind" })
  {
    if (text == name)
    {
      palette = PaletteKind::ColorBlindSafe;
      return true;
    }
  }
  return false;
}
}
