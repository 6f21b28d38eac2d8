// Zoom and pan of a chart's time window with the mouse (docs/views.md):
// the window narrows or widens around the time under the pointer, or moves
// by a time offset, and always stays inside the trace's span, so that the
// layout re-aggregates the data already read at the new scale.
#pragma once

#include <cstdint>

namespace macroscope
{

struct TimeWindow
{
  double Start = 0.0;
  double End = 0.0;
  double Width() const { return this->End - this->Start; }
};

/// The chart's time axis as drawn: x of the window's start and end in chart
/// units and the window they stand for.
struct TimeAxisMap
{
  double X0 = 0.0;
  double X1 = 1.0;
  TimeWindow Window;

  /// The time at chart abscissa x (extrapolated outside [X0, X1]).
  double TimeAt(double x) const;
  /// Chart units per second. Requires X1 > X0 and a window of width > 0.
  double UnitsPerSecond() const;
};

/// The narrowest window zoom gives: a millionth of the span, and no less
/// than a nanosecond, so that the layout always has a time to draw.
double MinimumWindowWidth(const TimeWindow& span);

/// `window` scaled by `factor` (< 1 zooms in, > 1 out) around `pivot`, which
/// keeps its relative place in the window, then fitted inside `span` (the
/// width at most the span's, at least MinimumWindowWidth). Throws
/// std::invalid_argument for a non-positive or non-finite factor or an empty
/// span.
TimeWindow ZoomWindow(
  const TimeWindow& window, const TimeWindow& span, double factor, double pivot);

/// `window` moved by `offset` seconds, stopped at the span's ends (its width
/// kept, unless wider than the span). Throws std::invalid_argument for a
/// non-finite offset or an empty span.
TimeWindow PanWindow(const TimeWindow& window, const TimeWindow& span, double offset);

/// The window as a TimeWindow property writes it: (0, 0), the whole trace,
/// when it covers the span within a millionth of the span.
TimeWindow AsProperty(const TimeWindow& window, const TimeWindow& span);

/// Indices First..Last of a chart's rows or columns: the locations a
/// Timeline shows (its zoom across rows, 0-based from the top) or the
/// global steps a logical view shows (its zoom along steps).
struct IndexWindow
{
  int64_t First = 0;
  int64_t Last = -1;
  int64_t Count() const { return this->Last - this->First + 1; }
};

/// `window` of a chart of `total` indices scaled by `factor` (< 1 zooms in)
/// around `pivot`, a position in indices (index i spans [i, i + 1)), which
/// keeps its relative place; at least one index, at most `total`, and
/// inside [0, total). A window with Last < First stands for all of them.
/// Throws std::invalid_argument for a non-positive or non-finite factor or
/// pivot, or total < 1.
IndexWindow ZoomIndices(const IndexWindow& window, int64_t total, double factor, double pivot);

/// `window` (Last < First: all) moved by `offset` indices, rounded to the
/// nearest, stopped at 0 and at `total` - 1 with its count kept. Throws
/// std::invalid_argument for a non-finite offset or total < 1.
IndexWindow PanIndices(const IndexWindow& window, int64_t total, double offset);

/// The window as a RowWindow or StepWindow property writes it: (0, -1),
/// all, when it covers all `total`.
IndexWindow AsProperty(const IndexWindow& window, int64_t total);

}
