#include "TemporalOverview.h"

#include "TimeAxis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <string>

namespace macroscope
{

namespace
{
bool Finite(double value)
{
  return std::isfinite(value);
}

// "10 ms", "2.5 s": a slice width for an axis title.
std::string ShortSeconds(double seconds)
{
  struct Unit
  {
    double Scale;
    const char* Name;
  };
  static const Unit units[] = { { 1.0, "s" }, { 1e-3, "ms" }, { 1e-6, "\xC2\xB5s" },
    { 1e-9, "ns" } };
  const Unit* unit = &units[3];
  for (const Unit& candidate : units)
  {
    if (std::abs(seconds) >= candidate.Scale * (1.0 - 1e-9))
    {
      unit = &candidate;
      break;
    }
  }
  char text[64];
  std::snprintf(text, sizeof(text), "%.4g %s", seconds / unit->Scale, unit->Name);
  return text;
}
}

TemporalOverview LayoutTemporalOverview(const TemporalOverviewParts& parts,
  const TemporalOverviewOptions& options, int approximateValueTicks)
{
  const double begin = options.WindowBegin;
  const double end = options.WindowEnd;
  if (!Finite(begin) || !Finite(end) || !(begin < end))
  {
    throw std::invalid_argument("the time window must be finite with begin < end");
  }
  if (!Finite(options.Width) || !Finite(options.Height) || !(options.Width > 0.0) ||
    !(options.Height > 0.0))
  {
    throw std::invalid_argument("the plot width and height must be finite and positive");
  }
  if (!Finite(options.MinLayerHeight) || !(options.MinLayerHeight >= 0.0))
  {
    throw std::invalid_argument("MinLayerHeight must be a finite number of pixels >= 0");
  }
  const std::size_t count = parts.Size();
  const std::size_t types = parts.Types;
  if (parts.End.size() != count || parts.Amplitude.size() != count * types)
  {
    throw std::invalid_argument("the parts need one End per Start and Types amplitudes per part");
  }
  // Rounding of Start = origin + slice × width must not reject the model's
  // own parts: a billionth of the window is tolerated at every border.
  const double tolerance = 1e-9 * (end - begin);
  for (std::size_t k = 0; k < count; ++k)
  {
    const double start = parts.Start[k];
    const double stop = parts.End[k];
    if (!Finite(start) || !Finite(stop) || !(start < stop))
    {
      throw std::invalid_argument(
        "part " + std::to_string(k) + " must have finite times with Start < End");
    }
    if (start < begin - tolerance || stop > end + tolerance)
    {
      throw std::invalid_argument("part " + std::to_string(k) + " lies outside the time window");
    }
    for (std::size_t u = 0; u < types; ++u)
    {
      const double a = parts.Amplitude[k * types + u];
      if (!Finite(a) || a < 0.0)
      {
        throw std::invalid_argument("part " + std::to_string(k) + " has an amplitude of type " +
          std::to_string(u) + " that is negative or not finite: stacks need amplitudes >= 0");
      }
    }
  }
  // Stacks in time order, whatever the order of the parts.
  std::vector<std::size_t> order(count);
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(),
    [&parts](std::size_t a, std::size_t b) { return parts.Start[a] < parts.Start[b]; });
  for (std::size_t i = 1; i < count; ++i)
  {
    if (parts.Start[order[i]] < parts.End[order[i - 1]] - tolerance)
    {
      throw std::invalid_argument("parts " + std::to_string(order[i - 1]) + " and " +
        std::to_string(order[i]) + " overlap: a temporal partition's intervals are disjoint");
    }
  }

  TemporalOverview chart;
  chart.PixelsPerSecond = options.Width / (end - begin);
  chart.StackTotal.assign(count, 0.0);
  chart.TypeArea.assign(types, 0.0);
  for (std::size_t k = 0; k < count; ++k)
  {
    const double duration = parts.End[k] - parts.Start[k];
    for (std::size_t u = 0; u < types; ++u)
    {
      const double a = parts.Amplitude[k * types + u];
      chart.StackTotal[k] += a;
      chart.TypeArea[u] += a * duration;
    }
    chart.MaxTotal = std::max(chart.MaxTotal, chart.StackTotal[k]);
  }
  chart.Scale = chart.MaxTotal > 0.0 ? options.Height / chart.MaxTotal : 0.0;
  // One order for every stack, so that a type is found at the same rank
  // everywhere: the largest area at the bottom, where it reads best.
  chart.TypeOrder.resize(types);
  std::iota(chart.TypeOrder.begin(), chart.TypeOrder.end(), 0u);
  std::stable_sort(chart.TypeOrder.begin(), chart.TypeOrder.end(),
    [&chart](uint32_t a, uint32_t b) { return chart.TypeArea[a] > chart.TypeArea[b]; });
  chart.TypeDrawn.assign(types, 0);

  TemporalOverviewLayers& layers = chart.Layers;
  auto xOf = [&](double time)
  { return std::min(options.Width, std::max(0.0, (time - begin) * chart.PixelsPerSecond)); };
  auto add = [&](std::size_t part, int32_t type, double value, double x0, double x1, double y0,
               double y1, uint8_t flags)
  {
    layers.Part.push_back(static_cast<uint32_t>(part));
    layers.Type.push_back(type);
    layers.Value.push_back(value);
    layers.X0.push_back(x0);
    layers.X1.push_back(x1);
    layers.Y0.push_back(y0);
    layers.Y1.push_back(y1);
    layers.Flags.push_back(flags);
    layers.MergedOffset.push_back(layers.MergedType.size());
  };
  for (std::size_t part : order)
  {
    const double x0 = xOf(parts.Start[part]);
    const double x1 = xOf(parts.End[part]);
    double y = 0.0;
    double merged = 0.0;
    std::vector<uint32_t> thin;
    for (uint32_t u : chart.TypeOrder)
    {
      const double a = parts.Amplitude[part * types + u];
      if (a == 0.0)
      {
        continue; // nothing to show, nothing to merge
      }
      const double height = a * chart.Scale;
      if (height < options.MinLayerHeight)
      {
        thin.push_back(u);
        merged += a;
        continue;
      }
      add(part, static_cast<int32_t>(u), a, x0, x1, y, y + height, 0);
      chart.TypeDrawn[u] = 1;
      y += height;
    }
    if (!thin.empty())
    {
      // The merged layer is exactly as tall as the layers it replaces, on
      // top of the stack: the stack's height stays its total.
      const double height = merged * chart.Scale;
      const uint8_t flags = static_cast<uint8_t>(
        TemporalLayerMerged | (height < options.MinLayerHeight ? TemporalLayerBelowBudget : 0));
      layers.MergedType.insert(layers.MergedType.end(), thin.begin(), thin.end());
      add(part, -1, merged, x0, x1, y, y + height, flags);
    }
  }

  if (chart.MaxTotal > 0.0)
  {
    const TimeTicks ticks = ComputeTimeTicks(0.0, chart.MaxTotal, approximateValueTicks);
    chart.ValueTicks = ticks.Times;
    chart.ValueStep = ticks.Step;
  }
  return chart;
}

AmplitudeAxis DescribeAmplitudeAxis(const std::string& metric, bool extensive, double sliceWidth)
{
  const std::string perSlice = Finite(sliceWidth) && sliceWidth > 0.0
    ? " per " + ShortSeconds(sliceWidth) + " slice, all resources"
    : " per slice, all resources";
  if (metric == "state duration")
  {
    return extensive ? AmplitudeAxis{ "state time" + perSlice, true }
                     : AmplitudeAxis{ "state time / slice width, summed over resources", false };
  }
  if (metric == "event count")
  {
    return { "events" + perSlice, false };
  }
  if (metric == "messages sent" || metric == "messages received")
  {
    return { metric + perSlice, false };
  }
  if (metric == "bytes sent per second" || metric == "bytes received per second")
  {
    return { metric + ", all resources (B/s)", false };
  }
  if (metric.empty())
  {
    return { extensive ? "amplitude" + perSlice : "amplitude, summed over resources", false };
  }
  return { extensive ? metric + perSlice : metric + ", summed over resources", false };
}

std::string PartitionTitle(double parameter, int64_t parts, int64_t slices, int64_t resources)
{
  char p[32] = "";
  if (std::isfinite(parameter))
  {
    std::snprintf(p, sizeof(p), "p = %.3g: ", parameter);
  }
  std::string title = p + std::to_string(parts) + (parts == 1 ? " part" : " parts") + " of " +
    std::to_string(slices) + (slices == 1 ? " slice" : " slices");
  if (resources > 0)
  {
    title +=
      " \xC3\x97 " + std::to_string(resources) + (resources == 1 ? " resource" : " resources");
  }
  return title;
}

std::string AmplitudeTitle(const AmplitudeAxis& axis, double magnitude)
{
  return axis.Seconds ? axis.Title + " (" + SecondsUnit(magnitude) + ")" : axis.Title;
}

std::string FormatAmplitude(double value, double step, double magnitude, bool seconds)
{
  if (seconds)
  {
    return FormatSeconds(value, step, magnitude);
  }
  struct Prefix
  {
    double Scale;
    const char* Name;
  };
  static const Prefix prefixes[] = { { 1e12, " T" }, { 1e9, " G" }, { 1e6, " M" }, { 1e3, " k" },
    { 1.0, "" } };
  step = std::abs(step);
  magnitude = std::max(std::abs(magnitude), step);
  const Prefix* prefix = &prefixes[4];
  for (const Prefix& candidate : prefixes)
  {
    if (magnitude >= candidate.Scale * (1.0 - 1e-9))
    {
      prefix = &candidate;
      break;
    }
  }
  const double scaledStep = step / prefix->Scale;
  int decimals = 0;
  if (scaledStep > 0.0 && scaledStep < 1.0)
  {
    decimals = std::min(9, static_cast<int>(std::ceil(-std::log10(scaledStep) - 1e-9)));
  }
  if (step > 0.0 && std::abs(value) < step * 1e-9)
  {
    value = 0.0; // no "-0"
  }
  char text[64];
  std::snprintf(text, sizeof(text), "%.*f%s", decimals, value / prefix->Scale, prefix->Name);
  return text;
}

}

namespace macroscope
{
std::string TemporalLayerContents(
  const TemporalOverviewLayers& layers, std::size_t layer, const std::vector<std::string>& names)
{
  if (!(layers.Flags[layer] & TemporalLayerMerged))
  {
    return names[static_cast<std::size_t>(layers.Type[layer])];
  }
  std::string list;
  for (std::size_t m = layers.MergedOffset[layer]; m < layers.MergedOffset[layer + 1]; ++m)
  {
    list += (list.empty() ? "" : ", ") + names[layers.MergedType[m]];
  }
  return list;
}

std::string MergedLayersKey(double minLayerHeight)
{
  char budget[32];
  std::snprintf(budget, sizeof(budget), "%g", minLayerHeight);
  return std::string("visually aggregated: layers under ") + budget + " px";
}
}
