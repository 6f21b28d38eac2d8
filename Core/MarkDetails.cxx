#include "MarkDetails.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace macroscope
{
namespace
{
std::string Printf(const char* format, double value)
{
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

std::string Percent(double share)
{
  return Printf(share >= 0.0995 || share == 0.0 ? "%.0f %%" : "%.1f %%", 100.0 * share);
}

std::string Span(double start, double end)
{
  const double resolution = std::abs(end - start);
  return FormatInstant(start, resolution) + " to " + FormatInstant(end, resolution) + " (" +
    FormatDuration(end - start) + ")";
}

std::string Join(const std::vector<std::string>& lines)
{
  std::string text;
  for (const std::string& line : lines)
  {
    if (!text.empty())
    {
      text += '\n';
    }
    text += line;
  }
  return text;
}
} // namespace

std::string FormatDuration(double seconds)
{
  if (!std::isfinite(seconds))
  {
    return "unknown";
  }
  const double magnitude = std::abs(seconds);
  struct Unit
  {
    double Scale;
    const char* Name;
  };
  // The largest unit in which the value is at least 1 (ns below that).
  constexpr Unit units[] = { { 1.0, "s" }, { 1e-3, "ms" }, { 1e-6, "µs" }, { 1e-9, "ns" } };
  Unit unit = units[3];
  for (const Unit& candidate : units)
  {
    if (magnitude >= candidate.Scale * (1.0 - 5e-5))
    {
      unit = candidate;
      break;
    }
  }
  if (magnitude == 0.0)
  {
    unit = units[0];
  }
  return Printf("%.4g", seconds / unit.Scale) + " " + unit.Name;
}

std::string FormatInstant(double seconds, double resolution)
{
  if (!std::isfinite(seconds))
  {
    return "unknown";
  }
  int decimals = 3;
  if (resolution > 0.0 && std::isfinite(resolution))
  {
    // Three significant digits of the resolution.
    decimals = std::max(decimals, 2 - static_cast<int>(std::floor(std::log10(resolution))));
  }
  decimals = std::min(decimals, 12);
  char format[16];
  std::snprintf(format, sizeof(format), "%%.%df s", decimals);
  return Printf(format, seconds);
}

std::string FormatBytes(double bytes)
{
  const char* prefixes[] = { "", "k", "M", "G", "T" };
  int prefix = 0;
  double value = bytes;
  while (std::abs(value) >= 1000.0 && prefix < 4)
  {
    value /= 1000.0;
    ++prefix;
  }
  return (prefix == 0 ? Printf("%.0f", value) : Printf("%.3g", value)) + " " + prefixes[prefix] +
    "B";
}

std::string ListNames(const std::vector<std::string>& names, std::size_t shown)
{
  if (names.empty())
  {
    return "none";
  }
  std::string text;
  const std::size_t listed = names.size() > shown ? std::max<std::size_t>(shown, 1) : names.size();
  for (std::size_t i = 0; i < listed; ++i)
  {
    text += (i == 0 ? "" : ", ") + names[i];
  }
  if (listed < names.size())
  {
    text += " and " + std::to_string(names.size() - listed) + " more (" +
      std::to_string(names.size()) + ")";
  }
  return text;
}

std::vector<std::string> DescribeComposition(std::vector<TypeShare> types, std::size_t shown)
{
  std::stable_sort(types.begin(), types.end(),
    [](const TypeShare& a, const TypeShare& b)
    { return a.Seconds != b.Seconds ? a.Seconds > b.Seconds : a.Name < b.Name; });
  double total = 0.0;
  for (const TypeShare& type : types)
  {
    total += type.Seconds;
  }
  std::vector<std::string> lines;
  const std::size_t listed = types.size() > shown ? shown - 1 : types.size();
  for (std::size_t i = 0; i < listed; ++i)
  {
    const double share = total > 0.0 ? types[i].Seconds / total : 0.0;
    lines.push_back(
      "  " + types[i].Name + ": " + Percent(share) + " (" + FormatDuration(types[i].Seconds) + ")");
  }
  if (listed < types.size())
  {
    double rest = 0.0;
    for (std::size_t i = listed; i < types.size(); ++i)
    {
      rest += types[i].Seconds;
    }
    lines.push_back("  " + std::to_string(types.size() - listed) + " other types: " +
      Percent(total > 0.0 ? rest / total : 0.0) + " (" + FormatDuration(rest) + ")");
  }
  return lines;
}

std::string DescribeState(const StateDetails& state)
{
  const double resolution = std::abs(state.End - state.Start);
  std::vector<std::string> lines{ "State: " + state.Type, "Resource: " + state.Resource,
    "Start: " + FormatInstant(state.Start, resolution),
    "End: " + FormatInstant(state.End, resolution),
    "Duration: " + FormatDuration(state.End - state.Start) };
  if (state.Depth > 0)
  {
    lines.push_back("Depth: " + std::to_string(state.Depth));
  }
  return Join(lines);
}

std::string DescribeAggregate(const AggregateDetails& aggregate)
{
  std::string what = aggregate.MergedStates && aggregate.MergedRows ? "narrow states on merged rows"
    : aggregate.MergedRows                                          ? "merged rows"
                                                                    : "narrow states";
  std::vector<std::string> lines{ "Aggregate of " + std::to_string(aggregate.StateCount) +
      (aggregate.StateCount == 1 ? " state" : " states") + " (" + what + ")",
    "Time: " + Span(aggregate.Start, aggregate.End),
    (aggregate.Resources.size() == 1 ? "Resource: " : "Resources: ") +
      ListNames(aggregate.Resources) };
  if (!aggregate.Types.empty())
  {
    lines.push_back("Composition:");
    for (std::string& line : DescribeComposition(aggregate.Types))
    {
      lines.push_back(std::move(line));
    }
  }
  return Join(lines);
}

std::string DescribeMessage(const MessageDetails& message)
{
  const bool merged = message.Count > 1;
  const double resolution = std::abs(message.RecvTime - message.SendTime);
  std::vector<std::string> lines;
  lines.push_back(merged ? std::to_string(message.Count) + " messages merged in one pixel column"
                         : std::string("Message"));
  auto end = [](const std::string& name) { return name.empty() ? std::string("?") : name; };
  lines.push_back("From " + end(message.Sender) + " to " + end(message.Receiver));
  lines.push_back(
    (merged ? "First send: " : "Send: ") + FormatInstant(message.SendTime, resolution));
  lines.push_back(
    (merged ? "Last receive: " : "Receive: ") + FormatInstant(message.RecvTime, resolution));
  lines.push_back("Transfer: " + FormatDuration(message.RecvTime - message.SendTime));
  lines.push_back(std::string(merged ? "Bytes (sum): " : "Bytes: ") + FormatBytes(message.Bytes));
  return Join(lines);
}

std::string DescribeOverviewPart(const OverviewPartDetails& part)
{
  std::string title = part.Title;
  if (part.Aggregate != 0)
  {
    title += ": visual aggregate of " + std::to_string(part.PartCount) + " parts (" +
      (part.Aggregate == 1 ? "same temporal partition" : "different temporal partitions") + ")";
  }
  std::vector<std::string> lines{ title, "Time: " + Span(part.Start, part.End),
    "Resources: " + part.Resources };
  if (!part.ModeType.empty())
  {
    lines.push_back("Mode type: " + part.ModeType + " (" + Percent(part.ModeShare) + ")");
  }
  if (!part.Value.empty())
  {
    lines.push_back("Value: " + part.Value);
  }
  if (!part.Composition.empty())
  {
    lines.push_back("Composition:");
    for (std::string& line : DescribeComposition(part.Composition))
    {
      lines.push_back(std::move(line));
    }
  }
  return Join(lines);
}

std::string DescribeGeneric(const GenericDetails& details)
{
  std::vector<std::string> lines{ details.Title };
  for (const auto& field : details.Fields)
  {
    lines.push_back(field.first + ": " + field.second);
  }
  return Join(lines);
}

} // namespace macroscope
