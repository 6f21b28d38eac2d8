#include "MacroscopeLogicalChart.h"

#include "TimeAxis.h"

#include "vtkDataArray.h"
#include "vtkFieldData.h"
#include "vtkStringArray.h"
#include "vtkTable.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

namespace MacroscopeLogicalChart
{
namespace
{
template <typename T>
bool ReadColumn(vtkTable* table, const char* name, std::vector<T>& values)
{
  auto* array = vtkDataArray::SafeDownCast(table->GetColumnByName(name));
  if (!array || array->GetNumberOfComponents() != 1)
  {
    return false;
  }
  const vtkIdType n = array->GetNumberOfTuples();
  values.resize(static_cast<std::size_t>(n));
  for (vtkIdType i = 0; i < n; ++i)
  {
    values[i] = static_cast<T>(array->GetComponent(i, 0));
  }
  return true;
}
}

bool ReadEvents(vtkTable* table, Events& events, std::string& problem,
  const std::function<void(double)>& progress)
{
  constexpr double Columns = 8.0;
  double read = 0.0;
  auto report = [&](bool ok)
  {
    if (progress)
    {
      progress(++read / Columns);
    }
    return ok;
  };
  macroscope::LogicalEventColumns& core = events.Core;
  const char* missing = !report(ReadColumn(table, "Location", core.Location)) ? "Location"
    : !report(ReadColumn(table, "GlobalStep", core.GlobalStep))               ? "GlobalStep"
    : !report(ReadColumn(table, "Kind", core.Kind))                           ? "Kind"
    : !report(ReadColumn(table, "Metric", core.Metric))                       ? "Metric"
                                                                              : nullptr;
  if (missing)
  {
    problem = std::string("the Logical Events table has no numeric column ") + missing;
    return false;
  }
  for (std::size_t e = 0; e < core.size(); ++e)
  {
    if (core.Location[e] < 0 || core.GlobalStep[e] < 0 || core.Kind[e] < 0 || core.Kind[e] > 4)
    {
      problem = "event row " + std::to_string(e) +
        " has a negative Location or GlobalStep, or a "
        "Kind outside 0..4";
      return false;
    }
  }
  report(ReadColumn(table, "Phase", events.Phase));
  report(ReadColumn(table, "Cluster", events.Cluster));
  report(ReadColumn(table, "Sends", events.Sends));
  report(ReadColumn(table, "Receives", events.Receives));
  return true;
}

macroscope::LogicalMessageColumns ReadMessages(vtkTable* table)
{
  macroscope::LogicalMessageColumns messages;
  if (!table || !ReadColumn(table, "Sender", messages.Sender) ||
    !ReadColumn(table, "Receiver", messages.Receiver) ||
    !ReadColumn(table, "SendGlobalStep", messages.SendStep) ||
    !ReadColumn(table, "RecvGlobalStep", messages.RecvStep))
  {
    return {};
  }
  return messages;
}

std::string MetricName(vtkTable* events)
{
  auto* name = vtkStringArray::SafeDownCast(events->GetFieldData()->GetAbstractArray("MetricName"));
  return name && name->GetNumberOfValues() > 0 ? name->GetValue(0) : std::string("Metric");
}

std::string MetricValueText(const std::string& metric, double value, double magnitude)
{
  static const char* const timeMetrics[] = { "Lateness", "Differential Lateness", "Exit Time",
    "Enter Time", "Duration", "Phase Lateness", "Phase Differential Lateness" };
  const bool seconds =
    std::find(std::begin(timeMetrics), std::end(timeMetrics), metric) != std::end(timeMetrics);
  magnitude = std::max(std::abs(magnitude), std::abs(value));
  if (seconds && value == 0.0)
  {
    return "0 " + macroscope::SecondsUnit(magnitude);
  }
  if (seconds && magnitude > 0.0 && std::isfinite(magnitude))
  {
    // A thousandth of the largest value: three or four significant digits.
    return macroscope::FormatSeconds(value, 1e-3 * magnitude, magnitude);
  }
  char text[64];
  std::snprintf(text, sizeof(text), "%.4g", value);
  return text;
}

std::string LocationName(vtkTable* events, int location)
{
  auto* names =
    vtkStringArray::SafeDownCast(events->GetFieldData()->GetAbstractArray("LocationNames"));
  return names && location >= 0 && location < names->GetNumberOfValues()
    ? names->GetValue(location)
    : "location " + std::to_string(location);
}

RGB ColorOf(double metric, std::pair<double, double> range)
{
  const double span = range.second - range.first;
  return macroscope::MetricColor(std::isnan(metric) ? metric
      : span > 0.0                                  ? (metric - range.first) / span
                                                    : 0.0);
}

MacroscopeChart::Frame LogicalFrame(const int viewSize[2], vtkTable* events,
  const std::vector<std::string>& keys, const MacroscopeChart::TextMeasure& measure,
  const std::vector<std::string>& moreRowNames, const std::string& rowSuffix)
{
  using namespace MacroscopeChart;
  std::vector<std::string> rowNames = moreRowNames;
  auto* names =
    vtkStringArray::SafeDownCast(events->GetFieldData()->GetAbstractArray("LocationNames"));
  for (vtkIdType i = 0; names && i < names->GetNumberOfValues(); ++i)
  {
    rowNames.push_back(names->GetValue(i) + rowSuffix);
  }
  if (rowNames.empty())
  {
    rowNames.push_back("location 00000");
  }
  std::vector<std::string> legendNames = keys;
  legendNames.push_back(MetricName(events));
  legendNames.push_back("-8.888e+88"); // the widest bound "%.4g" writes
  return FitFrame(viewSize, RowLabelMargin(rowNames, measure, viewSize[0]),
    LegendMarginFor(legendNames, measure, viewSize[0]), TimeAxisMargin(measure),
    0.5 * measure.Height(ROW_LABEL) + 2.0 * LabelGap);
}

double DrawColorBar(MacroscopeChart::Geometry& legend, MacroscopeChart::Labels& labels,
  const std::string& name, std::pair<double, double> range, const MacroscopeChart::Frame& frame,
  const MacroscopeChart::TextMeasure& measure)
{
  using namespace MacroscopeChart;
  const double width = frame.Width;
  const double height = frame.Height;
  const double x = LegendSwatchX(width);
  double y = height - LegendRowHeight;
  labels.Add(x, y + 0.5 * LegendSwatch,
    measure.Elide(name, LEGEND_LABEL, frame.Width + frame.Right - x - 2.0 * LabelGap),
    LEGEND_LABEL);
  const double top = y - 6.0;
  // The bar gives way to the key below it in a short chart.
  const double bar = std::min(160.0, std::max(40.0, 0.4 * height - 3.0 * LegendRowHeight));
  constexpr int Steps = 32;
  for (int k = 0; k < Steps; ++k)
  {
    const double t = (k + 0.5) / Steps;
    legend.Quad(x, top - bar * (k + 1) / Steps, x + LegendSwatch, top - bar * k / Steps, 0.5,
      macroscope::MetricColor(1.0 - t));
  }
  const double magnitude = std::max(std::abs(range.first), std::abs(range.second));
  labels.Add(LegendTextX(width), top - 0.5 * LegendSwatch,
    MetricValueText(name, range.second, magnitude), LEGEND_LABEL);
  labels.Add(LegendTextX(width), top - bar + 0.5 * LegendSwatch,
    MetricValueText(name, range.first, magnitude), LEGEND_LABEL);
  return top - bar - LegendRowHeight - 4.0;
}

void DrawStepAxis(MacroscopeChart::Geometry& guides, MacroscopeChart::Labels& labels,
  const macroscope::StepColumns& columns, const MacroscopeChart::Frame& frame,
  const MacroscopeChart::TextMeasure& measure)
{
  using namespace MacroscopeChart;
  const double width = frame.Width;
  const double titleRoom = TitleRoom(frame);
  guides.Line(0.0, 0.0, width, 0.0, 0.5, RGB{ { 0, 0, 0 } });
  const int64_t count = columns.Count();
  if (count <= 0)
  {
    labels.Add(0.5 * width, AxisTitleY(measure),
      measure.Elide("no global step in the window", AXIS_TITLE, titleRoom), AXIS_TITLE);
    return;
  }
  const double w = width / static_cast<double>(count);
  // Ticks at least as far apart as the widest step number and a gap.
  const double widest = std::max(measure.Width(std::to_string(columns.First), TICK_LABEL),
    measure.Width(std::to_string(columns.Last), TICK_LABEL));
  for (int64_t step :
    macroscope::StepTicks(columns, width, std::max(48.0, widest + 4.0 * LabelGap)))
  {
    const double x = (static_cast<double>(columns.ColumnOf(step)) + 0.5) * w;
    guides.Line(x, 0.0, x, -TickLength, 0.5, RGB{ { 0, 0, 0 } });
    labels.Add(x, -TickLength - 3.0, std::to_string(step), TICK_LABEL);
  }
  labels.Add(0.5 * width, AxisTitleY(measure),
    measure.Elide("global logical step, " + std::to_string(columns.First) + " to " +
        std::to_string(columns.Last) + (columns.Aggregates ? "" : " (communication steps only)"),
      AXIS_TITLE, titleRoom),
    AXIS_TITLE);
}
}
