// Tests of IntegrateWindow: a model's values over one time window, weighted
// by the overlap of each slice (Schnorr 2009 (Triva) §4.2). Expectations worked
// out by hand below.
#include "WindowIntegration.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

using macroscope::IntegrateWindow;
using macroscope::ModelView;
using macroscope::SliceAxis;
using macroscope::WindowIntegral;

namespace
{
// 3 slices of 2 s from t = 10 s, 2 resources, 2 types; Value(s, t, u) at
// t + 3 (s + 2 u).
const std::vector<double> Values = {
  1, 2, 4,    // s0, u0
  8, 16, 32,  // s1, u0
  3, 5, 7,    // s0, u1
  0, 10, 100, // s1, u1
};
const ModelView Model{ Values.data(), 3, 2, 2 };
const SliceAxis Axis{ 10.0, 2.0 };
}

TEST(WindowIntegration, WholeWindowSumsTheSlices)
{
  const WindowIntegral all = IntegrateWindow(Model, Axis, 10.0, 16.0, true);
  EXPECT_DOUBLE_EQ(all.Covered, 3.0);
  EXPECT_DOUBLE_EQ(all.At(0, 0), 7.0);
  EXPECT_DOUBLE_EQ(all.At(1, 0), 56.0);
  EXPECT_DOUBLE_EQ(all.At(0, 1), 15.0);
  EXPECT_DOUBLE_EQ(all.At(1, 1), 110.0);
  // A window wider than the model takes it all, and no more.
  const WindowIntegral wider = IntegrateWindow(Model, Axis, 0.0, 100.0, true);
  EXPECT_EQ(wider.Values, all.Values);
}

TEST(WindowIntegration, PartialSlicesWeighByOverlap)
{
  // [11, 14): half of slice 0 ([10, 12)), all of slice 1 ([12, 14)).
  const WindowIntegral sum = IntegrateWindow(Model, Axis, 11.0, 14.0, true);
  EXPECT_DOUBLE_EQ(sum.Covered, 1.5);
  EXPECT_DOUBLE_EQ(sum.At(0, 0), 0.5 * 1 + 2);
  EXPECT_DOUBLE_EQ(sum.At(1, 0), 0.5 * 8 + 16);
  EXPECT_DOUBLE_EQ(sum.At(0, 1), 0.5 * 3 + 5);
  EXPECT_DOUBLE_EQ(sum.At(1, 1), 0.5 * 0 + 10);
  // Rates and means: the overlap-weighted mean.
  const WindowIntegral mean = IntegrateWindow(Model, Axis, 11.0, 14.0, false);
  EXPECT_DOUBLE_EQ(mean.At(0, 0), (0.5 * 1 + 2) / 1.5);
  EXPECT_DOUBLE_EQ(mean.At(1, 1), 10 / 1.5);
  // Inside one slice: a quarter of slice 2.
  const WindowIntegral inside = IntegrateWindow(Model, Axis, 14.5, 15.0, true);
  EXPECT_DOUBLE_EQ(inside.Covered, 0.25);
  EXPECT_DOUBLE_EQ(inside.At(1, 1), 25.0);
  EXPECT_DOUBLE_EQ(IntegrateWindow(Model, Axis, 14.5, 15.0, false).At(1, 1), 100.0);
}

TEST(WindowIntegration, OneSliceModelIsTheModelLayout)
{
  const WindowIntegral all = IntegrateWindow(Model, Axis, 10.0, 16.0, true);
  const std::vector<double> one = macroscope::OneSliceModel(all);
  const ModelView view{ one.data(), 1, 2, 2 };
  for (uint32_t s = 0; s < 2; ++s)
  {
    for (uint32_t u = 0; u < 2; ++u)
    {
      EXPECT_EQ(view.At(s, 0, u), all.At(s, u)) << "s " << s << " u " << u;
    }
  }
}

TEST(WindowIntegration, WindowsOutsideTheModelAreErrors)
{
  EXPECT_THROW(IntegrateWindow(Model, Axis, 16.0, 20.0, true), std::invalid_argument);
  EXPECT_THROW(IntegrateWindow(Model, Axis, 0.0, 10.0, true), std::invalid_argument);
  EXPECT_THROW(IntegrateWindow(Model, Axis, 12.0, 12.0, true), std::invalid_argument);
  EXPECT_THROW(IntegrateWindow(Model, Axis, 13.0, 12.0, true), std::invalid_argument);
  EXPECT_THROW(IntegrateWindow(Model, Axis, 11.0, 1.0 / 0.0, true), std::invalid_argument);
}

TEST(WindowIntegration, ProgressCanAbort)
{
  int calls = 0;
  EXPECT_THROW(IntegrateWindow(Model, Axis, 10.0, 16.0, true,
                 [&calls](double)
                 {
                   ++calls;
                   return false;
                 }),
    macroscope::WindowIntegrationAborted);
  EXPECT_EQ(calls, 1);
}
