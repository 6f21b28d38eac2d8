#include "TypePalette.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using macroscope::RGB;
using macroscope::TypePalette;

TEST(TypePalette, StableHashIsFnv1a)
{
  // Reference values of 64-bit FNV-1a: the empty string is the offset basis.
  EXPECT_EQ(TypePalette::StableHash(""), 14695981039346656037ull);
  EXPECT_EQ(TypePalette::StableHash("a"), 0xaf63dc4c8601ec8cull);
}

TEST(TypePalette, SameNameSameColour)
{
  EXPECT_EQ(TypePalette::ColorOf("MPI_Send"), TypePalette::ColorOf(std::string("MPI_") + "Send"));
}

TEST(TypePalette, PrimaryHues)
{
  EXPECT_EQ(TypePalette::FromHSV(0.0, 1.0, 1.0), (RGB{ 255, 0, 0 }));
  EXPECT_EQ(TypePalette::FromHSV(1.0 / 3.0, 1.0, 1.0), (RGB{ 0, 255, 0 }));
  EXPECT_EQ(TypePalette::FromHSV(2.0 / 3.0, 1.0, 1.0), (RGB{ 0, 0, 255 }));
  EXPECT_EQ(TypePalette::FromHSV(0.5, 0.0, 0.5), (RGB{ 128, 128, 128 }));
}

TEST(TypePalette, TypicalMpiNamesAreDistinctAndReadable)
{
  const char* names[] = { "MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv", "MPI_Wait",
    "MPI_Waitall", "MPI_Allreduce", "MPI_Barrier", "MPI_Init", "MPI_Finalize", "compute", "main" };
  std::set<RGB> colours;
  for (const char* name : names)
  {
    const RGB c = TypePalette::ColorOf(name);
    colours.insert(c);
    const int brightest = std::max({ c[0], c[1], c[2] });
    const int darkest = std::min({ c[0], c[1], c[2] });
    EXPECT_GE(brightest, 170) << name << " is too dark";
    EXPECT_GE(brightest - darkest, 80) << name << " is too grey";
  }
  EXPECT_EQ(colours.size(), std::size(names));
}
