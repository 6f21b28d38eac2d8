// Tests of what the clustered logical timeline draws from its layout
// (ClusteredTimelineDrawing.h, docs/logical-views.md). Worked by hand.
#include "ClusteredTimelineDrawing.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace macroscope;

TEST(ClusteredTimelineDrawing, BandsOfAPhaseAlternate)
{
  std::vector<ClusterBand> bands(5);
  const int32_t phases[5] = { 0, 0, 0, 1, 1 };
  for (std::size_t b = 0; b < bands.size(); ++b)
  {
    bands[b].Phase = phases[b];
  }
  EXPECT_EQ(ClusterBandShades(bands), (std::vector<int>{ 0, 1, 0, 0, 1 }));
}

TEST(ClusteredTimelineDrawing, SectionsStandForTheirRolesShare)
{
  ClusterGlyph glyph;
  glyph.SendFraction = 0.25;
  glyph.ReceiveFraction = 0.5;
  glyph.AggregateFraction = 0.75;
  GlyphSection section;
  section.Role = GlyphSection::RECEIVES;
  EXPECT_DOUBLE_EQ(SectionFraction(glyph, section), 0.5);
  section.Role = GlyphSection::AGGREGATES;
  EXPECT_DOUBLE_EQ(SectionFraction(glyph, section), 0.75);
  section.Role = GlyphSection::SENDS;
  EXPECT_DOUBLE_EQ(SectionFraction(glyph, section), 0.25);
}

TEST(ClusteredTimelineDrawing, DashesOfFourEverySeven)
{
  // 16 px along x: dashes at 0-4, 7-11, 14-16.
  const auto dashes = DashSegments(0.0, 2.0, 16.0, 2.0);
  ASSERT_EQ(dashes.size(), 3u);
  EXPECT_DOUBLE_EQ(dashes[1][0], 7.0);
  EXPECT_DOUBLE_EQ(dashes[1][2], 11.0);
  EXPECT_DOUBLE_EQ(dashes[2][2], 16.0);
  EXPECT_DOUBLE_EQ(dashes[2][3], 2.0);
  EXPECT_TRUE(DashSegments(1.0, 1.0, 1.0, 1.0).empty());
}

TEST(ClusteredTimelineDrawing, QuarterSectorIsTheCentreAndAnArc)
{
  const double pi = std::acos(-1.0);
  // A quarter turn: 90 / 7.5 = 12 steps, 13 points on the arc.
  const std::vector<double> xy = SectorPolygon(1.0, 2.0, 3.0, -0.5 * pi, 0.0);
  ASSERT_EQ(xy.size(), 2u * 14u);
  EXPECT_DOUBLE_EQ(xy[0], 1.0);
  EXPECT_DOUBLE_EQ(xy[1], 2.0);
  EXPECT_NEAR(xy[2], 1.0, 1e-12); // straight down first
  EXPECT_NEAR(xy[3], -1.0, 1e-12);
  EXPECT_NEAR(xy[26], 4.0, 1e-12); // to the right last
  EXPECT_NEAR(xy[27], 2.0, 1e-12);
  for (std::size_t k = 1; k < xy.size() / 2; ++k)
  {
    EXPECT_NEAR(std::hypot(xy[2 * k] - 1.0, xy[2 * k + 1] - 2.0), 3.0, 1e-12);
  }
}
