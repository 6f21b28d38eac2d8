#include "TypeColorOverrides.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

using macroscope::RGB;
using macroscope::TypeColorOverrides;
using macroscope::TypePalette;

namespace
{
// The message of the std::invalid_argument `pairs` raise ("" if none).
std::string ProblemOf(const std::vector<std::string>& pairs)
{
  try
  {
    TypeColorOverrides::Parse(pairs);
  }
  catch (const std::invalid_argument& error)
  {
    return error.what();
  }
  return "";
}
}

TEST(TypeColorOverrides, ParsesHexadecimalInEitherCase)
{
  EXPECT_EQ(TypeColorOverrides::ParseColor("#ff8000"), (RGB{ 255, 128, 0 }));
  EXPECT_EQ(TypeColorOverrides::ParseColor("#0A0b1C"), (RGB{ 10, 11, 28 }));
  EXPECT_EQ(TypeColorOverrides::ParseColor("#000000"), (RGB{ 0, 0, 0 }));
}

TEST(TypeColorOverrides, FormatIsTheInverseOfParse)
{
  for (int v = 0; v < 256; v += 17)
  {
    const RGB color{ static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(255 - v),
      static_cast<std::uint8_t>(v / 2) };
    EXPECT_EQ(TypeColorOverrides::ParseColor(TypeColorOverrides::FormatColor(color)), color);
  }
  EXPECT_EQ(TypeColorOverrides::FormatColor(RGB{ 255, 128, 0 }), "#ff8000");
}

TEST(TypeColorOverrides, RejectsMalformedColours)
{
  for (const char* bad :
    { "", "ff8000", "#ff800", "#ff80000", "#gg8000", "red", "#ff 800", "1 0 0" })
  {
    EXPECT_THROW(TypeColorOverrides::ParseColor(bad), std::invalid_argument) << bad;
  }
}

TEST(TypeColorOverrides, ResolvesNamedTypesAndFallsBackForOthers)
{
  const auto overrides = TypeColorOverrides::Parse({ "MPI_Send", "#ff0000", "compute", "#00ff00" });
  EXPECT_EQ(overrides.Size(), 2u);
  EXPECT_EQ(overrides.Resolve("MPI_Send"), (RGB{ 255, 0, 0 }));
  EXPECT_EQ(overrides.Resolve("compute", RGB{ 1, 2, 3 }), (RGB{ 0, 255, 0 }));
  // Not named: the data's colour when given, else the palette's.
  EXPECT_EQ(overrides.Resolve("MPI_Recv", RGB{ 1, 2, 3 }), (RGB{ 1, 2, 3 }));
  EXPECT_EQ(overrides.Resolve("MPI_Recv"), TypePalette::ColorOf("MPI_Recv"));
  EXPECT_EQ(overrides.Find("MPI_Recv"), nullptr);
  // Names are matched exactly (case and spaces count).
  EXPECT_EQ(overrides.Find("mpi_send"), nullptr);
  EXPECT_EQ(overrides.Find("MPI_Send "), nullptr);
}

TEST(TypeColorOverrides, EmptyListIsThePalette)
{
  const auto overrides = TypeColorOverrides::Parse({});
  EXPECT_TRUE(overrides.Empty());
  EXPECT_EQ(overrides.Resolve("MPI_Wait"), TypePalette::ColorOf("MPI_Wait"));
}

TEST(TypeColorOverrides, ErrorsNameTheEntry)
{
  const std::string odd = ProblemOf({ "MPI_Send", "#ff0000", "compute" });
  EXPECT_NE(odd.find("3 entries"), std::string::npos) << odd;
  EXPECT_NE(odd.find("\"compute\""), std::string::npos) << odd;

  const std::string colour = ProblemOf({ "MPI_Send", "#ff0000", "compute", "#12345z" });
  EXPECT_NE(colour.find("type colour 2 (\"compute\")"), std::string::npos) << colour;
  EXPECT_NE(colour.find("\"#12345z\""), std::string::npos) << colour;

  const std::string twice = ProblemOf({ "compute", "#ff0000", "compute", "#00ff00" });
  EXPECT_NE(twice.find("twice"), std::string::npos) << twice;
  EXPECT_NE(twice.find("\"compute\""), std::string::npos) << twice;

  const std::string empty = ProblemOf({ "", "#ff0000" });
  EXPECT_NE(empty.find("empty"), std::string::npos) << empty;
}
