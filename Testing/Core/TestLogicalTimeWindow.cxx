// A time window mapped to global steps (docs/linked-views.md): hand-computed
// edges (half-open window, instants, the open end) and a brute force over
// random events and windows.
#include "LogicalTimeWindow.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

using namespace macroscope;

namespace
{
const double Inf = std::numeric_limits<double>::infinity();

// Step 0: [0, 1]; step 1: [1, 2]; step 2: the instant 2; step 3: [3, 5] on
// one location and [6, 7] on another (a gap inside the step's span).
struct Hand
{
  std::vector<int64_t> Step{ 0, 1, 2, 3, 3 };
  std::vector<double> Enter{ 0.0, 1.0, 2.0, 3.0, 6.0 };
  std::vector<double> Exit{ 1.0, 2.0, 2.0, 5.0, 7.0 };
};
}

TEST(LogicalTimeWindow, HalfOpenEdges)
{
  Hand h;
  using P = std::pair<int64_t, int64_t>;
  // An event ending at the window start, or starting at its end, is out.
  EXPECT_EQ(StepsOfTimeWindow(h.Step, h.Enter, h.Exit, 1.0, 1.5), P(1, 1));
  EXPECT_EQ(StepsOfTimeWindow(h.Step, h.Enter, h.Exit, 0.5, 1.0), P(0, 0));
  // The instant 2 is in [2, 2.5) but not in [1.5, 2).
  EXPECT_EQ(StepsOfTimeWindow(h.Step, h.Enter, h.Exit, 2.0, 2.5), P(2, 2));
  EXPECT_EQ(StepsOfTimeWindow(h.Step, h.Enter, h.Exit, 1.5, 2.0), P(1, 1));
  // Inside the gap of step 3's span no event is: no step.
  EXPECT_EQ(StepsOfTimeWindow(h.Step, h.Enter, h.Exit, 5.2, 5.8), P(0, -1));
  EXPECT_EQ(StepsOfTimeWindow(h.Step, h.Enter, h.Exit, 0.5, 3.5), P(0, 3));
  // An open end reaches the last instant inclusively.
  std::vector<int64_t> step{ 0, 1 };
  std::vector<double> at{ 0.0, 4.0 };
  EXPECT_EQ(StepsOfTimeWindow(step, at, at, 1.0, Inf), P(1, 1));
  EXPECT_EQ(StepsOfTimeWindow(step, at, at, 1.0, 4.0), P(0, -1));
}

TEST(LogicalTimeWindow, BadArguments)
{
  Hand h;
  EXPECT_THROW(StepsOfTimeWindow(h.Step, h.Enter, {}, 0.0, 1.0), std::invalid_argument);
  EXPECT_THROW(StepsOfTimeWindow(h.Step, h.Enter, h.Exit, 1.0, 1.0), std::invalid_argument);
  EXPECT_THROW(StepsOfTimeWindow(h.Step, h.Enter, h.Exit, NAN, 1.0), std::invalid_argument);
  // Non-finite events are skipped, not errors.
  std::vector<int64_t> step{ 4, 5 };
  std::vector<double> enter{ NAN, 0.0 };
  std::vector<double> exit{ 1.0, 1.0 };
  EXPECT_EQ(StepsOfTimeWindow(step, enter, exit, 0.0, 1.0), (std::pair<int64_t, int64_t>(5, 5)));
}

TEST(LogicalTimeWindow, BruteForce)
{
  std::mt19937 random(13);
  std::uniform_real_distribution<double> time(0.0, 10.0);
  std::uniform_int_distribution<int64_t> stepOf(0, 40);
  for (int trial = 0; trial < 200; ++trial)
  {
    std::vector<int64_t> step;
    std::vector<double> enter, exit;
    for (int e = 0; e < 30; ++e)
    {
      const double a = std::round(time(random));
      const double b = (e % 5 == 0) ? a : a + std::round(time(random) / 3.0);
      step.push_back(stepOf(random));
      enter.push_back(a);
      exit.push_back(b);
    }
    const double t0 = std::round(time(random));
    const double t1 = (trial % 7 == 0) ? Inf : t0 + 1.0 + std::round(time(random) / 2.0);
    // Brute force: sample the window finely; an event is in when a sample
    // of [t0, t1) falls inside it (or on its instant).
    int64_t first = 0, last = -1;
    bool any = false;
    for (std::size_t e = 0; e < step.size(); ++e)
    {
      bool in = false;
      const double stop = std::isinf(t1) ? 1e9 : t1;
      for (double t = t0; t < stop && t <= 20.0 && !in; t += 0.25)
      {
        in = enter[e] == exit[e] ? (t == enter[e]) : (t + 0.125 > enter[e] && t + 0.125 < exit[e]);
      }
      if (in)
      {
        first = any ? std::min(first, step[e]) : step[e];
        last = any ? std::max(last, step[e]) : step[e];
        any = true;
      }
    }
    EXPECT_EQ(StepsOfTimeWindow(step, enter, exit, t0, t1), std::make_pair(first, last))
      << "trial " << trial;
  }
}
