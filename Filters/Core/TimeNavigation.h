// Zoom and pan of a chart's time window with the mouse (docs/views.md):
// the window narrows or widens around the time under the pointer, or moves
// by a time offset, and always stays inside the trace's span, so that the
// layout re-aggregates the data already read at the new scale.
#pragma once

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
TimeWindow ZoomWindow(const TimeWindow& window, const TimeWindow& span, double factor, double pivot);

/// `window` moved by `offset` seconds, stopped at the span's ends (its width
/// kept, unless wider than the span). Throws std::invalid_argument for a
/// non-finite offset or an empty span.
TimeWindow PanWindow(const TimeWindow& window, const TimeWindow& span, double offset);

/// The window as a TimeWindow property writes it: (0, 0), the whole trace,
/// when it covers the span within a millionth of the span.
TimeWindow AsProperty(const TimeWindow& window, const TimeWindow& span);

/// Rows First..Last (0-based, top to bottom) of the locations a Timeline
/// shows: the window of its zoom across rows.
struct RowWindow
{
  int First = 0;
  int Last = -1;
  int Count() const { return this->Last - this->First + 1; }
};

/// `window` of a chart of `total` rows scaled by `factor` (< 1 zooms in)
/// around `pivot`, a position in rows from the top (row r spans [r, r + 1)),
/// which keeps its relative place; at least one row, at most `total`, and
/// inside [0, total). A window with Last < First stands for every row.
/// Throws std::invalid_argument for a non-positive or non-finite factor or
/// pivot, or total < 1.
RowWindow ZoomRows(const RowWindow& window, int total, double factor, double pivot);

/// The window as a RowWindow property writes it: (0, -1), every row, when
/// it covers all `total`.
RowWindow AsProperty(const RowWindow& window, int total);

}
