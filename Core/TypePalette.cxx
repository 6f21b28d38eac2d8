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

constexpr RGB rgb(std::uint32_t hex)
{
  return { static_cast<std::uint8_t>(hex >> 16), static_cast<std::uint8_t>(hex >> 8),
    static_cast<std::uint8_t>(hex) };
}

constexpr std::array<RGB, 4> one(std::uint32_t hex)
{
  return { rgb(hex), rgb(hex), rgb(hex), rgb(hex) };
}

// The default palette.
constexpr ShadeTable DefaultTable = { {
  one(0xe8172b), // MpiWait
  one(0xa54d43), // MpiRecv
  one(0xcb9695), // MpiSend
  one(0x8c2e53), // MpiPost
  one(0xfd7802), // MpiCollective
  one(0xc58263), // MpiBarrier
  one(0x815215), // MpiInit
  one(0xbc9915), // MpiFinalize
  one(0xb8701d), // MpiOther
  one(0xa4b0f8), // ThreadsParallel
  one(0x6097eb), // ThreadsWork
  one(0x4b49a2), // ThreadsWait
  one(0x7671d4), // ThreadsSync
  one(0x128c97), // IoRead
  one(0x146365), // IoWrite
  one(0x1cc5c3), // IoMeta
  one(0x8c5384), // GpuKernel
  one(0x9f06ff), // GpuCopy
  one(0x330bff), // GpuSync
  { rgb(0x4f8f45), rgb(0x145f3d), rgb(0x5fce01), rgb(0x14c38c) }, // User
  { rgb(0xb8b4a6), rgb(0xacb7c3), rgb(0xb8b4a6), rgb(0xacb7c3) }, // Other
} };
// The colour-blind-safe palette: MPI from red through orange to yellow and
// brown, user code blues, threads cyans and teals, I/O reddish purples, GPU
// greens; apart in lightness where dichromats lose the red-green axis.
constexpr ShadeTable ColorBlindTable = { {
  one(0xfb0f31), // MpiWait
  one(0xb8122c), // MpiRecv
  one(0xd28c6f), // MpiSend
  one(0x7d2f13), // MpiPost
  one(0xd3c888), // MpiCollective
  one(0xddbf46), // MpiBarrier
  one(0xe89a00), // MpiInit
  one(0x867118), // MpiFinalize
  one(0xfc5803), // MpiOther
  one(0x359a9e), // ThreadsParallel
  one(0x34c3f2), // ThreadsWork
  one(0x03606f), // ThreadsWait
  one(0x79c1c9), // ThreadsSync
  one(0xeba5fa), // IoRead
  one(0xb214df), // IoWrite
  one(0xb37dd2), // IoMeta
  one(0x408849), // GpuKernel
  one(0x00edd3), // GpuCopy
  one(0x15e7a2), // GpuSync
  { rgb(0x3e5197), rgb(0x1d7df5), rgb(0x00aafe), rgb(0x682bd8) }, // User
  { rgb(0x7d757d), rgb(0xa19b96), rgb(0x7d757d), rgb(0xa19b96) }, // Other
} };
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
