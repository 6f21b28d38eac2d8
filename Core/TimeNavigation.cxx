#include "TimeNavigation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace macroscope
{
namespace
{
void RequireSpan(const TimeWindow& span, const char* caller)
{
  if (!(std::isfinite(span.Start) && std::isfinite(span.End) && span.End > span.Start))
  {
    throw std::invalid_argument(std::string(caller) + ": the trace span is empty or not finite");
  }
}

// `window` moved (not resized) into `span`; clipped to it when wider.
TimeWindow FitInside(TimeWindow window, const TimeWindow& span)
{
  const double width = std::min(window.Width(), span.Width());
  window.Start = std::clamp(window.Start, span.Start, span.End - width);
  window.End = window.Start + width;
  return window;
}
}

double TimeAxisMap::TimeAt(double x) const
{
  return this->Window.Start + (x - this->X0) / this->UnitsPerSecond();
}

double TimeAxisMap::UnitsPerSecond() const
{
  return (this->X1 - this->X0) / this->Window.Width();
}

double MinimumWindowWidth(const TimeWindow& span)
{
  return std::max(span.Width() * 1e-6, 1e-9);
}

TimeWindow ZoomWindow(const TimeWindow& window, const TimeWindow& span, double factor, double pivot)
{
  RequireSpan(span, "ZoomWindow");
  if (!(std::isfinite(factor) && factor > 0.0))
  {
    throw std::invalid_argument("ZoomWindow: the zoom factor must be finite and positive");
  }
  const double width = std::clamp(window.Width() * factor, MinimumWindowWidth(span), span.Width());
  // The pivot keeps its share of the window on each side.
  const double share =
    window.Width() > 0.0 ? std::clamp((pivot - window.Start) / window.Width(), 0.0, 1.0) : 0.5;
  const double at = std::clamp(pivot, window.Start, window.End);
  TimeWindow zoomed;
  zoomed.Start = at - share * width;
  zoomed.End = zoomed.Start + width;
  return FitInside(zoomed, span);
}

TimeWindow PanWindow(const TimeWindow& window, const TimeWindow& span, double offset)
{
  RequireSpan(span, "PanWindow");
  if (!std::isfinite(offset))
  {
    throw std::invalid_argument("PanWindow: the offset must be finite");
  }
  TimeWindow moved{ window.Start + offset, window.End + offset };
  return FitInside(moved, span);
}

TimeWindow AsProperty(const TimeWindow& window, const TimeWindow& span)
{
  const double tolerance = 1e-6 * span.Width();
  if (window.Start <= span.Start + tolerance && window.End >= span.End - tolerance)
  {
    return TimeWindow{ 0.0, 0.0 };
  }
  return window;
}

IndexWindow ZoomIndices(const IndexWindow& window, int64_t total, double factor, double pivot)
{
  if (total < 1 || !std::isfinite(factor) || !(factor > 0.0) || !std::isfinite(pivot))
  {
    throw std::invalid_argument("index zoom: needs indices, a positive factor and a finite pivot");
  }
  const double all = static_cast<double>(total);
  const IndexWindow whole{ 0, total - 1 };
  const IndexWindow from = window.Last < window.First ? whole : window;
  const double first = static_cast<double>(std::clamp<int64_t>(from.First, 0, total - 1));
  const double count = static_cast<double>(std::min(from.Last, total - 1)) - first + 1.0;
  const double share = std::clamp((pivot - first) / count, 0.0, 1.0);
  const double scaled = std::clamp(std::round(count * factor), 1.0, all);
  // A step that rounds back to the same count still moves by one index.
  const double kept = scaled == count && factor != 1.0
    ? std::clamp(count + (factor < 1.0 ? -1.0 : 1.0), 1.0, all)
    : scaled;
  const double start = std::clamp(std::round(pivot - share * kept), 0.0, all - kept);
  return IndexWindow{ static_cast<int64_t>(start), static_cast<int64_t>(start + kept) - 1 };
}

IndexWindow PanIndices(const IndexWindow& window, int64_t total, double offset)
{
  if (total < 1 || !std::isfinite(offset))
  {
    throw std::invalid_argument("index pan: needs indices and a finite offset");
  }
  const IndexWindow from = window.Last < window.First ? IndexWindow{ 0, total - 1 } : window;
  const int64_t first = std::clamp<int64_t>(from.First, 0, total - 1);
  const int64_t count = std::min(from.Last, total - 1) - first + 1;
  const double moved = std::round(static_cast<double>(first) + offset);
  const int64_t start =
    static_cast<int64_t>(std::clamp(moved, 0.0, static_cast<double>(total - count)));
  return IndexWindow{ start, start + count - 1 };
}

IndexWindow AsProperty(const IndexWindow& window, int64_t total)
{
  if (window.Last < window.First || (window.First <= 0 && window.Last >= total - 1))
  {
    return IndexWindow{ 0, -1 };
  }
  return window;
}

}
