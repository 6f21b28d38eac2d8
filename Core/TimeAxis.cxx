#include "TimeAxis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace macroscope
{

namespace
{
// The smallest of 1, 2, 5 (times a power of ten) not below `value` > 0.
double NiceStepAbove(double value)
{
  const double power = std::pow(10.0, std::floor(std::log10(value)));
  for (double mantissa : { 1.0, 2.0, 5.0, 10.0 })
  {
    // The tolerance keeps an exact 2·10^k from rounding up to 5·10^k.
    if (mantissa * power >= value * (1.0 - 1e-9))
    {
      return mantissa * power;
    }
  }
  return 10.0 * power;
}

// The largest of 1, 2, 5 (times a power of ten) below the nice `step`.
double NiceStepBelow(double step)
{
  const double power = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  const double mantissa = step / power;
  return mantissa > 4.0 ? 2.0 * power : mantissa > 1.5 ? power : 0.5 * power;
}
}

TimeTicks ComputeTimeTicks(double t0, double t1, int approximateCount)
{
  if (!std::isfinite(t0) || !std::isfinite(t1) || !(t0 < t1))
  {
    throw std::invalid_argument("a time axis needs finite bounds t0 < t1");
  }
  TimeTicks ticks;
  ticks.Step = NiceStepAbove((t1 - t0) / std::max(1, approximateCount));
  const double magnitude = std::max(std::abs(t0), std::abs(t1));
  // Index the ticks by integers so that rounding never accumulates.
  double first = std::ceil(t0 / ticks.Step - 1e-9);
  double last = std::floor(t1 / ticks.Step + 1e-9);
  while (first > last) // a step wider than the window may miss it: halve it nicely
  {
    ticks.Step = NiceStepBelow(ticks.Step);
    first = std::ceil(t0 / ticks.Step - 1e-9);
    last = std::floor(t1 / ticks.Step + 1e-9);
  }
  for (double k = first; k <= last; k += 1.0)
  {
    double time = k * ticks.Step;
    if (std::abs(time) < ticks.Step * 1e-9)
    {
      time = 0.0; // no "-0 s"
    }
    ticks.Times.push_back(time);
    ticks.Labels.push_back(FormatSeconds(time, ticks.Step, magnitude));
  }
  return ticks;
}

namespace
{
struct SecondsScale
{
  double Scale;
  const char* Name;
};

// The largest unit in which `magnitude` is at least 1, nanoseconds below.
const SecondsScale& ScaleOf(double magnitude)
{
  static const SecondsScale units[] = { { 1.0, "s" }, { 1e-3, "ms" }, { 1e-6, "\xC2\xB5s" },
    { 1e-9, "ns" } };
  for (const SecondsScale& candidate : units)
  {
    if (std::abs(magnitude) >= candidate.Scale * (1.0 - 1e-9))
    {
      return candidate;
    }
  }
  return units[3];
}
}

std::string FormatSeconds(double seconds, double step, double magnitude)
{
  step = std::abs(step);
  const SecondsScale& unit = ScaleOf(std::max(std::abs(magnitude), step));
  // Decimals: enough for the step's first significant digit in this unit.
  const double scaledStep = step / unit.Scale;
  int decimals = 0;
  if (scaledStep > 0.0 && scaledStep < 1.0)
  {
    decimals = static_cast<int>(std::ceil(-std::log10(scaledStep) - 1e-9));
  }
  decimals = std::min(decimals, 9);
  char text[64];
  std::snprintf(text, sizeof(text), "%.*f %s", decimals, seconds / unit.Scale, unit.Name);
  return text;
}

std::string SecondsUnit(double magnitude)
{
  return ScaleOf(magnitude).Name;
}

}
