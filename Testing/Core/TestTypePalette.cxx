#include "ColorMetrics.h"
#include "TypePalette.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using macroscope::ColorMetrics;
using macroscope::Dichromacy;
using macroscope::PaletteKind;
using macroscope::RGB;
using macroscope::TypeClassifier;
using macroscope::TypeFamily;
using macroscope::TypePalette;
using macroscope::TypeShade;

namespace
{
const PaletteKind Palettes[] = { PaletteKind::Default, PaletteKind::ColorBlindSafe };

struct Entry
{
  TypeShade Shade;
  std::size_t Variant;
  RGB Color;
};

std::vector<Entry> allColours(PaletteKind palette)
{
  std::vector<Entry> out;
  for (int s = 0; s <= int(TypeShade::Other); ++s)
  {
    const auto shade = TypeShade(s);
    for (std::size_t v = 0; v < TypePalette::Variants(shade); ++v)
    {
      out.push_back({ shade, v, TypePalette::ShadeColor(shade, v, palette) });
    }
  }
  return out;
}

// The shades that take most of the time of MPI+threads programs: user
// code, MPI waits, collectives, sends, posted receives, setup and
// teardown, thread regions and thread waits (docs/colours.md, "Design").
bool isKey(TypeShade shade)
{
  switch (shade)
  {
    case TypeShade::User:
    case TypeShade::MpiWait:
    case TypeShade::MpiCollective:
    case TypeShade::MpiSend:
    case TypeShade::MpiPost:
    case TypeShade::MpiInit:
    case TypeShade::MpiFinalize:
    case TypeShade::ThreadsParallel:
    case TypeShade::ThreadsWait:
      return true;
    default:
      return false;
  }
}

double hueDegrees(const RGB& c)
{
  const auto lab = ColorMetrics::ToLab(c);
  const double h = std::atan2(lab.b, lab.a) * 180.0 / 3.14159265358979323846;
  return h < 0 ? h + 360.0 : h;
}
}

TEST(TypePalette, StableHashIsFnv1a)
{
  // Reference values of 64-bit FNV-1a.
  EXPECT_EQ(TypePalette::StableHash(""), 14695981039346656037ull);
  EXPECT_EQ(TypePalette::StableHash("a"), 0xaf63dc4c8601ec8cull);
}

TEST(TypePalette, SameTypeSameColour)
{
  EXPECT_EQ(TypePalette::ColorOf("MPI_Send", "MPI", "point2point"),
    TypePalette::ColorOf(std::string("MPI_") + "Send", "MPI", "point2point"));
  // The colour depends on the type only, not on what was asked before.
  const RGB first = TypePalette::ColorOf("compute", "user", "function");
  for (const char* other : { "a", "b", "MPI_Wait", "iteration" })
  {
    TypePalette::ColorOf(other, "user", "loop");
  }
  EXPECT_EQ(TypePalette::ColorOf("compute", "user", "function"), first);
  // One shade, one colour: every MPI wait looks the same.
  EXPECT_EQ(TypePalette::ColorOf("MPI_Wait"), TypePalette::ColorOf("PMPI_Waitall", "MPI_STATE"));
}

TEST(TypePalette, PaletteNames)
{
  PaletteKind kind = PaletteKind::Default;
  EXPECT_TRUE(TypePalette::Parse("colour-blind", kind));
  EXPECT_EQ(kind, PaletteKind::ColorBlindSafe);
  EXPECT_TRUE(TypePalette::Parse("default", kind));
  EXPECT_EQ(kind, PaletteKind::Default);
  EXPECT_FALSE(TypePalette::Parse("rainbow", kind));
  EXPECT_STREQ(TypePalette::Name(PaletteKind::ColorBlindSafe), "colour-blind");
}

TEST(TypePalette, MpiIsWarmAndWaitIsRed)
{
  // Default palette: every MPI shade between crimson and amber (CIELAB hue
  // 345-360 and 0-90 degrees), the wait shade the most saturated.
  const RGB wait = TypePalette::ShadeColor(TypeShade::MpiWait, 0, PaletteKind::Default);
  for (int s = int(TypeShade::MpiWait); s <= int(TypeShade::MpiOther); ++s)
  {
    const RGB c = TypePalette::ShadeColor(TypeShade(s), 0, PaletteKind::Default);
    EXPECT_TRUE(hueDegrees(c) <= 90.0 || hueDegrees(c) >= 345.0) << s << ": " << hueDegrees(c);
    const auto lab = ColorMetrics::ToLab(c);
    EXPECT_LE(std::hypot(lab.a, lab.b),
      std::hypot(ColorMetrics::ToLab(wait).a, ColorMetrics::ToLab(wait).b) + 1e-9)
      << s;
  }
  EXPECT_LE(hueDegrees(wait), 40.0);
  // User code is green (hue 100-170), threads blue-violet (250-310).
  for (std::size_t v = 0; v < 4; ++v)
  {
    const double h = hueDegrees(TypePalette::ShadeColor(TypeShade::User, v, PaletteKind::Default));
    EXPECT_GE(h, 100.0) << v;
    EXPECT_LE(h, 170.0) << v;
  }
  for (int s = int(TypeShade::ThreadsParallel); s <= int(TypeShade::ThreadsSync); ++s)
  {
    const double h = hueDegrees(TypePalette::ShadeColor(TypeShade(s), 0, PaletteKind::Default));
    EXPECT_GE(h, 250.0) << s;
    EXPECT_LE(h, 310.0) << s;
  }
}

TEST(TypePalette, ShadesAreDistinct)
{
  // Two different colours of a palette differ by at least 12 (CIEDE2000;
  // 9.5 in the colour-blind-safe palette, which also keeps them apart for
  // dichromats); the key shades (and user code's variants against every
  // key shade) by at least 20; user code's variants among themselves by at
  // least 15.
  for (PaletteKind palette : Palettes)
  {
    const auto colours = allColours(palette);
    for (std::size_t i = 0; i < colours.size(); ++i)
    {
      for (std::size_t j = i + 1; j < colours.size(); ++j)
      {
        const Entry& a = colours[i];
        const Entry& b = colours[j];
        if (a.Shade == TypeShade::Other && b.Shade == TypeShade::Other && a.Color == b.Color)
        {
          continue; // Other's 4 entries repeat its 2 colours
        }
        const double d = ColorMetrics::CIEDE2000(a.Color, b.Color);
        const bool bothUser = a.Shade == TypeShade::User && b.Shade == TypeShade::User;
        const double least = palette == PaletteKind::Default ? 12.0 : 9.5;
        const double needed = bothUser ? 15.0 : isKey(a.Shade) && isKey(b.Shade) ? 20.0 : least;
        EXPECT_GE(d, needed) << TypePalette::Name(palette) << ": shade " << int(a.Shade) << "/"
                             << a.Variant << " against " << int(b.Shade) << "/" << b.Variant;
      }
    }
  }
}

TEST(TypePalette, ColourBlindSafeKeepsKeyShadesApart)
{
  // Simulated protanopia and deuteranopia (Machado et al. 2009): the key
  // shades of the colour-blind-safe palette stay at least 9 apart, user
  // code's variants at least 7; the default palette does not (it is the
  // reason the other exists).
  double defaultWorst = 1e9;
  for (Dichromacy kind : { Dichromacy::Protanopia, Dichromacy::Deuteranopia })
  {
    for (PaletteKind palette : Palettes)
    {
      const auto colours = allColours(palette);
      for (std::size_t i = 0; i < colours.size(); ++i)
      {
        for (std::size_t j = i + 1; j < colours.size(); ++j)
        {
          const Entry& a = colours[i];
          const Entry& b = colours[j];
          if (!isKey(a.Shade) || !isKey(b.Shade) || a.Color == b.Color)
          {
            continue;
          }
          const double d = ColorMetrics::CIEDE2000(
            ColorMetrics::Simulate(a.Color, kind), ColorMetrics::Simulate(b.Color, kind));
          if (palette == PaletteKind::Default)
          {
            defaultWorst = std::min(defaultWorst, d);
            continue;
          }
          const bool bothUser = a.Shade == TypeShade::User && b.Shade == TypeShade::User;
          EXPECT_GE(d, bothUser ? 7.0 : 9.0)
            << int(kind) << ": shade " << int(a.Shade) << "/" << a.Variant << " against "
            << int(b.Shade) << "/" << b.Variant;
        }
      }
    }
  }
  EXPECT_LT(defaultWorst, 9.0);
}

TEST(TypePalette, ReadableOnWhiteAndDark)
{
  // WCAG contrast of every colour against white and against a dark
  // background (#202020, dark themes; black gives more): the default
  // palette keeps CIELAB lightness within 34-74, hence at least 2:1 on
  // both; the colour-blind-safe one spends lightness on separation (30-85)
  // and keeps 1.45:1 on white and 1.7:1 on dark.
  const RGB white{ 255, 255, 255 }, dark{ 0x20, 0x20, 0x20 };
  for (PaletteKind palette : Palettes)
  {
    const double onWhite = palette == PaletteKind::Default ? 2.0 : 1.45;
    const double onDark = palette == PaletteKind::Default ? 2.0 : 1.7;
    for (const Entry& e : allColours(palette))
    {
      EXPECT_GE(ColorMetrics::ContrastRatio(e.Color, white), onWhite)
        << TypePalette::Name(palette) << " shade " << int(e.Shade) << "/" << e.Variant;
      EXPECT_GE(ColorMetrics::ContrastRatio(e.Color, dark), onDark)
        << TypePalette::Name(palette) << " shade " << int(e.Shade) << "/" << e.Variant;
    }
  }
}

TEST(TypePalette, VariantsSpreadUserCode)
{
  // The hash spreads names over user code's variants: of 64 names, each
  // variant gets some.
  std::vector<int> counts(TypePalette::Variants(TypeShade::User), 0);
  for (int i = 0; i < 64; ++i)
  {
    ++counts[TypePalette::VariantOf("function_" + std::to_string(i), TypeShade::User)];
  }
  for (int count : counts)
  {
    EXPECT_GE(count, 6);
  }
  EXPECT_EQ(TypePalette::Variants(TypeShade::MpiWait), 1u);
}
