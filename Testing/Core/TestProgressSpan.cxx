// ProgressSpan (Core/ProgressSpan.h): evenly spread values, whatever
// the loop's length, and an abort heard at the next report.
#include "ProgressSpan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

using macroscope::ProgressSpan;

namespace
{
// Runs a loop of n iterations through a span over [lo, hi] and returns the
// values reported.
std::vector<double> Reported(std::size_t n, double lo, double hi, std::size_t reports)
{
  std::vector<double> values;
  ProgressSpan span(
    [&values](double f)
    {
      values.push_back(f);
      return true;
    },
    lo, hi, n, reports);
  for (std::size_t i = 0; i < n; ++i)
  {
    EXPECT_TRUE(span.At(i));
  }
  EXPECT_TRUE(span.Done());
  return values;
}
}

TEST(ProgressSpan, SameNumberOfEvenValuesWhateverTheLength)
{
  for (std::size_t n : { std::size_t(50), std::size_t(1000), std::size_t(1234567) })
  {
    const std::vector<double> values = Reported(n, 0.2, 0.7, 50);
    // ceil(n / 50) iterations apart: 50 reports (fewer when 50 does not
    // divide n), then the end.
    EXPECT_GE(values.size(), 46u) << n;
    EXPECT_LE(values.size(), 51u) << n;
    EXPECT_TRUE(std::is_sorted(values.begin(), values.end())) << n;
    EXPECT_DOUBLE_EQ(values.front(), 0.2) << n;
    EXPECT_DOUBLE_EQ(values.back(), 0.7) << n;
    for (std::size_t k = 1; k < values.size(); ++k)
    {
      EXPECT_LE(values[k] - values[k - 1], 0.5 / 46 + 1e-12) << n << " at " << k;
    }
  }
}

TEST(ProgressSpan, ShortLoopReportsEveryIteration)
{
  const std::vector<double> values = Reported(4, 0.0, 1.0, 50);
  EXPECT_EQ(values, (std::vector<double>{ 0.0, 0.25, 0.5, 0.75, 1.0 }));
  EXPECT_EQ(Reported(0, 0.3, 0.6, 50), std::vector<double>{ 0.6 });
}

TEST(ProgressSpan, RefusalStopsAtTheNextReport)
{
  int calls = 0;
  ProgressSpan span(
    [&calls](double f)
    {
      ++calls;
      return f < 0.5;
    },
    0.0, 1.0, 100, 10);
  std::size_t stopped = 100;
  for (std::size_t i = 0; i < 100; ++i)
  {
    if (!span.At(i))
    {
      stopped = i;
      break;
    }
  }
  EXPECT_EQ(stopped, 50u); // the report at 0.5 is refused
  EXPECT_EQ(calls, 6);
}

TEST(ProgressSpan, NoCallbackNeverStops)
{
  ProgressSpan span(nullptr, 0.0, 1.0, 10);
  for (std::size_t i = 0; i < 10; ++i)
  {
    EXPECT_TRUE(span.At(i));
  }
  EXPECT_TRUE(span.Done());
}
