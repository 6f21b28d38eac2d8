#include "LogicalTimelineLayout.h"

#include "ProgressSpan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace macroscope
{

namespace
{
bool IsOdd(int64_t step)
{
  return ((step % 2) + 2) % 2 == 1;
}
}

StepColumns StepColumns::Make(int64_t first, int64_t last, bool aggregates)
{
  StepColumns columns;
  columns.Aggregates = aggregates;
  if (!aggregates)
  {
    // Communication events have odd global steps: the window keeps those.
    first += IsOdd(first) ? 0 : 1;
    last -= IsOdd(last) ? 0 : 1;
  }
  columns.First = first;
  columns.Last = last;
  return columns;
}

int64_t StepColumns::Count() const
{
  if (this->Last < this->First)
  {
    return 0;
  }
  return this->Aggregates ? this->Last - this->First + 1 : (this->Last - this->First) / 2 + 1;
}

int64_t StepColumns::ColumnOf(int64_t step) const
{
  if (step < this->First || step > this->Last)
  {
    return -1;
  }
  if (this->Aggregates)
  {
    return step - this->First;
  }
  return IsOdd(step) ? (step - this->First) / 2 : -1;
}

int64_t StepColumns::StepOf(int64_t column) const
{
  return this->First + (this->Aggregates ? column : 2 * column);
}

int LogicalTimelineLayout::RowOf(int32_t location) const
{
  const auto found = std::lower_bound(this->RowLocation.begin(), this->RowLocation.end(), location);
  return found != this->RowLocation.end() && *found == location
    ? static_cast<int>(found - this->RowLocation.begin())
    : -1;
}

LogicalTimelineLayout LayoutLogicalTimeline(const LogicalEventColumns& events,
  const LogicalMessageColumns& messages, const LogicalTimelineOptions& options)
{
  const std::size_t n = events.size();
  if (events.GlobalStep.size() != n || events.Kind.size() != n || events.Metric.size() != n)
  {
    throw std::invalid_argument("the event columns have different lengths");
  }
  const std::size_t m = messages.size();
  if (messages.Receiver.size() != m || messages.SendStep.size() != m ||
    messages.RecvStep.size() != m)
  {
    throw std::invalid_argument("the message columns have different lengths");
  }
  if (!(options.Width > 0.0) || !(options.Height > 0.0) || !std::isfinite(options.Width) ||
    !std::isfinite(options.Height))
  {
    throw std::invalid_argument("the chart has no area");
  }

  LogicalTimelineLayout layout;
  layout.Height = options.Height;
  layout.RowLocation = events.Location;
  std::sort(layout.RowLocation.begin(), layout.RowLocation.end());
  layout.RowLocation.erase(
    std::unique(layout.RowLocation.begin(), layout.RowLocation.end()), layout.RowLocation.end());

  // Progress: a third of the bar to the scan, the rest to the boxes.
  auto check = [](bool going)
  {
    if (!going)
    {
      throw LogicalLayoutAborted();
    }
  };
  ProgressSpan scanning(options.Progress, 0.0, 0.3, n);
  double low = std::numeric_limits<double>::infinity();
  double high = -low;
  for (std::size_t e = 0; e < n; ++e)
  {
    check(scanning.At(e));
    if (e == 0)
    {
      layout.TraceSteps = { events.GlobalStep[e], events.GlobalStep[e] };
    }
    layout.TraceSteps.first = std::min(layout.TraceSteps.first, events.GlobalStep[e]);
    layout.TraceSteps.second = std::max(layout.TraceSteps.second, events.GlobalStep[e]);
    if (std::isfinite(events.Metric[e]))
    {
      low = std::min(low, events.Metric[e]);
      high = std::max(high, events.Metric[e]);
    }
  }
  if (low <= high)
  {
    layout.MetricRange = { low, high };
  }

  // The window: the whole trace, or the asked steps clamped to it.
  int64_t first = layout.TraceSteps.first;
  int64_t last = layout.TraceSteps.second;
  if (options.LastStep >= options.FirstStep)
  {
    first = std::max(first, options.FirstStep);
    last = std::min(last, options.LastStep);
  }
  layout.Columns = StepColumns::Make(first, last, options.ShowAggregates);
  const int64_t columns = layout.Columns.Count();
  layout.ColumnWidth = options.Width / static_cast<double>(std::max<int64_t>(1, columns));
  layout.RowHeight =
    options.Height / static_cast<double>(std::max<std::size_t>(1, layout.RowLocation.size()));
  const double w = layout.ColumnWidth;
  const double h = layout.RowHeight;
  layout.Spaced = w >= options.MinSpacedBox && h >= options.MinSpacedBox;
  layout.Inset = layout.Spaced ? std::clamp(0.1 * std::min(w, h), 1.0, 3.0) : 0.0;

  ProgressSpan boxing(options.Progress, 0.3, 0.95, n);
  for (std::size_t e = 0; e < n; ++e)
  {
    check(boxing.At(e));
    const int64_t column = layout.Columns.ColumnOf(events.GlobalStep[e]);
    if (column < 0)
    {
      continue;
    }
    const int row = layout.RowOf(events.Location[e]);
    LogicalBox box;
    box.Event = static_cast<int64_t>(e);
    box.X0 = layout.ColumnLeft(column) + layout.Inset;
    box.X1 = layout.ColumnLeft(column + 1) - layout.Inset;
    box.Y1 = layout.RowTop(row) - layout.Inset;
    box.Y0 = layout.RowTop(row) - h + layout.Inset;
    if (events.Kind[e] == 0)
    {
      const double centre = 0.5 * (box.Y0 + box.Y1);
      const double half = 0.5 * options.AggregateHeight * (box.Y1 - box.Y0);
      box.Y0 = centre - half;
      box.Y1 = centre + half;
    }
    layout.Boxes.push_back(box);
  }

  // Messages: those whose span of steps meets the window, from the centre of
  // the send's cell to the centre of the receive's, cut at the chart's sides.
  if (columns > 0)
  {
    const StepColumns& c = layout.Columns;
    const double perStep = c.Aggregates ? w : 0.5 * w;
    auto xOf = [&](int64_t step)
    { return static_cast<double>(step - c.First) * perStep + 0.5 * w; };
    std::vector<std::size_t> shown;
    for (std::size_t k = 0; k < m; ++k)
    {
      const int64_t a = std::min(messages.SendStep[k], messages.RecvStep[k]);
      const int64_t b = std::max(messages.SendStep[k], messages.RecvStep[k]);
      if (a <= c.Last && b >= c.First && layout.RowOf(messages.Sender[k]) >= 0 &&
        layout.RowOf(messages.Receiver[k]) >= 0)
      {
        shown.push_back(k);
      }
    }
    layout.MessagesInWindow = shown.size();
    layout.MessagesOmitted = !shown.empty() &&
      (options.MaxMessages <= 0 || static_cast<int64_t>(shown.size()) > options.MaxMessages ||
        h < options.MinMessageRowHeight);
    if (!layout.MessagesOmitted)
    {
      for (std::size_t k : shown)
      {
        LogicalLine line;
        line.Message = static_cast<int64_t>(k);
        line.X0 = xOf(messages.SendStep[k]);
        line.X1 = xOf(messages.RecvStep[k]);
        line.Y0 = layout.RowTop(layout.RowOf(messages.Sender[k])) - 0.5 * h;
        line.Y1 = layout.RowTop(layout.RowOf(messages.Receiver[k])) - 0.5 * h;
        // Clip to [0, Width]: the part of the line over the window.
        auto clip = [&](double& x, double& y, double xo, double yo)
        {
          const double bound = x < 0.0 ? 0.0 : x > options.Width ? options.Width : x;
          if (bound != x && xo != x)
          {
            y += (yo - y) * (bound - x) / (xo - x);
            x = bound;
          }
        };
        clip(line.X0, line.Y0, line.X1, line.Y1);
        clip(line.X1, line.Y1, line.X0, line.Y0);
        layout.Messages.push_back(line);
      }
    }
  }
  if (options.Progress)
  {
    check(options.Progress(1.0));
  }
  return layout;
}

std::vector<int64_t> StepTicks(const StepColumns& columns, double width, double spacing)
{
  std::vector<int64_t> ticks;
  const int64_t count = columns.Count();
  if (count <= 0 || !(width > 0.0))
  {
    return ticks;
  }
  const double w = width / static_cast<double>(count);
  int64_t every = 1;
  for (int64_t magnitude = 1; every * w < spacing && magnitude < (int64_t(1) << 60);
       magnitude *= 10)
  {
    for (int64_t factor : { 1, 2, 5 })
    {
      every = factor * magnitude;
      if (every * w >= spacing)
      {
        break;
      }
    }
  }
  for (int64_t column = 0; column < count; column += every)
  {
    ticks.push_back(columns.StepOf(column));
  }
  return ticks;
}

std::vector<MetricBar> LayoutMetricBars(
  const std::vector<double>& sums, int64_t first, double width, double height)
{
  std::vector<MetricBar> bars;
  if (sums.empty())
  {
    return bars;
  }
  double largest = 0.0;
  for (double sum : sums)
  {
    if (std::isfinite(sum))
    {
      largest = std::max(largest, sum);
    }
  }
  const double w = width / static_cast<double>(sums.size());
  for (std::size_t k = 0; k < sums.size(); ++k)
  {
    MetricBar bar;
    bar.Step = first + static_cast<int64_t>(k);
    bar.Value = sums[k];
    bar.X0 = static_cast<double>(k) * w;
    bar.X1 = static_cast<double>(k + 1) * w;
    bar.Height =
      largest > 0.0 && std::isfinite(sums[k]) && sums[k] > 0.0 ? sums[k] / largest * height : 0.0;
    bars.push_back(bar);
  }
  return bars;
}

std::array<unsigned char, 3> MetricColor(double t)
{
  if (std::isnan(t))
  {
    return { { 160, 160, 160 } };
  }
  static constexpr double Stops[3][3] = { { 255, 255, 204 }, { 253, 141, 60 }, { 189, 0, 38 } };
  t = std::clamp(t, 0.0, 1.0);
  const int segment = t < 0.5 ? 0 : 1;
  const double u = t < 0.5 ? 2.0 * t : 2.0 * t - 1.0;
  std::array<unsigned char, 3> rgb{};
  for (int c = 0; c < 3; ++c)
  {
    rgb[c] = static_cast<unsigned char>(
      std::lround(Stops[segment][c] + u * (Stops[segment + 1][c] - Stops[segment][c])));
  }
  return rgb;
}

}
