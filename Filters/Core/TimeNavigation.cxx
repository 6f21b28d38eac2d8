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
  const double width =
    std::clamp(window.Width() * factor, MinimumWindowWidth(span), span.Width());
  // The pivot keeps its share of the window on each side.
  const double share = window.Width() > 0.0
    ? std::clamp((pivot - window.Start) / window.Width(), 0.0, 1.0)
    : 0.5;
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

RowWindow ZoomRows(const RowWindow& window, int total, double factor, double pivot)
{
  if (total < 1 || !std::isfinite(factor) || !(factor > 0.0) || !std::isfinite(pivot))
  {
    throw std::invalid_argument("row zoom: needs rows, a positive factor and a finite pivot");
  }
  const RowWindow whole{ 0, total - 1 };
  const RowWindow from = window.Last < window.First ? whole : window;
  const double first = std::max(0, from.First);
  const double count = std::min(from.Last, total - 1) - first + 1.0;
  const double share = std::clamp((pivot - first) / count, 0.0, 1.0);
  const double scaled = std::clamp(std::round(count * factor), 1.0, double(total));
  // A step that rounds back to the same count still moves by one row.
  const double rows = scaled == count && factor != 1.0
    ? std::clamp(count + (factor < 1.0 ? -1.0 : 1.0), 1.0, double(total))
    : scaled;
  double start = std::round(pivot - share * rows);
  start = std::clamp(start, 0.0, double(total) - rows);
  return RowWindow{ static_cast<int>(start), static_cast<int>(start + rows) - 1 };
}

RowWindow AsProperty(const RowWindow& window, int total)
{
  if (window.Last < window.First || (window.First <= 0 && window.Last >= total - 1))
  {
    return RowWindow{ 0, -1 };
  }
  return window;
}

}
