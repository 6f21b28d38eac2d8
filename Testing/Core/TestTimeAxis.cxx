#include "TimeAxis.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

using macroscope::ComputeTimeTicks;
using macroscope::FormatSeconds;

TEST(TimeAxis, StepsAreOneTwoOrFiveTimesAPowerOfTen)
{
  for (double span : { 1e-7, 3e-6, 0.00042, 0.013, 0.5, 1.0, 7.3, 640.0 })
  {
    for (int count : { 1, 4, 7, 10 })
    {
      const auto ticks = ComputeTimeTicks(0.25 * span, 1.25 * span, count);
      const double mantissa =
        ticks.Step / std::pow(10.0, std::floor(std::log10(ticks.Step) + 1e-9));
      EXPECT_TRUE(std::abs(mantissa - 1) < 1e-6 || std::abs(mantissa - 2) < 1e-6 ||
        std::abs(mantissa - 5) < 1e-6)
        << span << " " << count << " step " << ticks.Step;
      // The step is the nice number just above span / count, or smaller
      // when that one has no multiple in the window (count 1 only).
      EXPECT_TRUE(ticks.Step >= span / count * (1 - 1e-9) || count == 1);
      EXPECT_LT(ticks.Step, 2.5 * span / count);
      ASSERT_FALSE(ticks.Times.empty());
      EXPECT_GE(ticks.Times.front(), 0.25 * span - 1e-12 * span);
      EXPECT_LE(ticks.Times.back(), 1.25 * span + 1e-12 * span);
      // Every multiple of the step inside the window is a tick.
      EXPECT_LT(ticks.Times.front() - ticks.Step, 0.25 * span);
      EXPECT_GT(ticks.Times.back() + ticks.Step, 1.25 * span);
      for (std::size_t i = 1; i < ticks.Times.size(); ++i)
      {
        EXPECT_NEAR(ticks.Times[i] - ticks.Times[i - 1], ticks.Step, 1e-9 * ticks.Step);
        EXPECT_NE(ticks.Labels[i], ticks.Labels[i - 1]) << ticks.Labels[i];
      }
    }
  }
}

TEST(TimeAxis, HandComputedTicks)
{
  const auto ticks = ComputeTimeTicks(0.0, 0.1, 5);
  EXPECT_DOUBLE_EQ(ticks.Step, 0.02);
  ASSERT_EQ(ticks.Times.size(), 6u);
  EXPECT_EQ(ticks.Labels.front(), "0 ms");
  EXPECT_EQ(ticks.Labels[1], "20 ms");
  EXPECT_EQ(ticks.Labels.back(), "100 ms");
  EXPECT_EQ(ticks.Times.front(), 0.0);
  EXPECT_FALSE(std::signbit(ComputeTimeTicks(-1.0, 1.0, 2).Times[1]));
}

TEST(TimeAxis, LabelsUseTheAxisUnitAndTheStepDecimals)
{
  EXPECT_EQ(FormatSeconds(0.0125, 0.0005, 0.02), "12.5 ms");
  EXPECT_EQ(FormatSeconds(2.0, 1.0, 10.0), "2 s");
  EXPECT_EQ(FormatSeconds(1.25, 0.05, 3.0), "1.25 s");
  EXPECT_EQ(FormatSeconds(10.0001, 0.0001, 10.001), "10.0001 s");
  EXPECT_EQ(FormatSeconds(3e-6, 1e-6, 5e-6), "3 \xC2\xB5s");
  EXPECT_EQ(FormatSeconds(4e-9, 2e-9, 9e-9), "4 ns");
}

TEST(TimeAxis, BadBoundsThrow)
{
  EXPECT_THROW(ComputeTimeTicks(1.0, 1.0, 5), std::invalid_argument);
  EXPECT_THROW(ComputeTimeTicks(2.0, 1.0, 5), std::invalid_argument);
  EXPECT_THROW(ComputeTimeTicks(0.0, NAN, 5), std::invalid_argument);
  EXPECT_THROW(ComputeTimeTicks(-INFINITY, 1.0, 5), std::invalid_argument);
}
