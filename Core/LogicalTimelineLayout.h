// Ravel's logical timeline and metric overview as geometry (Isaacs et al. 2014 (Ravel)
// sections 4.1 and 4.4): logical events as equal boxes on a grid of
// locations x global steps, messages as lines between them, and the bars of
// the metric summed per step. Coordinates are the pixels of a chart of
// Width x Height: x along the steps from 0, y from 0 (bottom) up; the first
// location is the top row, as in Ravel. See docs/logical-views.md.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace macroscope
{

/// The columns of the Logical Events table a logical view draws (one entry
/// per event). Kind follows logical::EventKind: 0 aggregate, 1 send, 2
/// receive, 3 send-receive, 4 collective.
struct LogicalEventColumns
{
  std::vector<int32_t> Location;
  std::vector<int64_t> GlobalStep;
  std::vector<int32_t> Kind;
  std::vector<double> Metric;
  std::size_t size() const { return this->Location.size(); }
};

/// The messages as their ends: locations and global steps.
struct LogicalMessageColumns
{
  std::vector<int32_t> Sender;
  std::vector<int32_t> Receiver;
  std::vector<int64_t> SendStep;
  std::vector<int64_t> RecvStep;
  std::size_t size() const { return this->Sender.size(); }
};

/// The global steps drawn, as columns: a window [First, Last] of global
/// steps, every step or (Aggregates false) the odd ones only, the steps of
/// communication events (an aggregate's global step is 2 Step, its
/// communication event's 2 Step + 1).
struct StepColumns
{
  int64_t First = 0; ///< the first step drawn
  int64_t Last = -1; ///< the last step drawn
  bool Aggregates = true;

  /// Makes the columns of [first, last] (clamped to the steps of the trace
  /// by the caller); without aggregates, First and Last move to odd steps.
  static StepColumns Make(int64_t first, int64_t last, bool aggregates);
  int64_t Count() const;
  /// The column of a global step, or -1 when the step is not drawn.
  int64_t ColumnOf(int64_t step) const;
  /// The global step of a column.
  int64_t StepOf(int64_t column) const;
};

struct LogicalTimelineOptions
{
  double Width = 1600.0;
  double Height = 900.0;
  int64_t FirstStep = 0; ///< window of global steps; Last < First means every step
  int64_t LastStep = -1;
  bool ShowAggregates = true;
  /// Messages are drawn when at most this many have an end in the window
  /// (0 draws none)...
  int64_t MaxMessages = 5000;
  /// ...and the rows are at least this tall: thinner rows make a hairball.
  double MinMessageRowHeight = 2.0;
  /// Boxes at least this wide and tall (pixels) are drawn with spacing and
  /// a border; smaller ones fill their cell.
  double MinSpacedBox = 8.0;
  /// Share of the row height an aggregate's box takes (centred), so that
  /// aggregates read apart from communication events.
  double AggregateHeight = 0.5;
  /// Called with the fraction done (docs/progress.md); returning false stops
  /// the layout with LogicalLayoutAborted. Empty: no progress.
  std::function<bool(double)> Progress;
};

/// Thrown when a Progress callback asked a logical layout to stop.
struct LogicalLayoutAborted : std::runtime_error
{
  LogicalLayoutAborted()
    : std::runtime_error("the logical layout was aborted")
  {
  }
};

struct LogicalBox
{
  int64_t Event = 0; ///< its row in the events
  double X0 = 0, Y0 = 0, X1 = 0, Y1 = 0;
};

struct LogicalLine
{
  int64_t Message = 0; ///< its row in the messages
  double X0 = 0, Y0 = 0, X1 = 0, Y1 = 0;
};

struct LogicalTimelineLayout
{
  std::vector<int32_t> RowLocation; ///< the location of every row, top row first
  double RowHeight = 0.0;
  double ColumnWidth = 0.0;
  StepColumns Columns;
  bool Spaced = false; ///< boxes inset by Inset and bordered
  double Inset = 0.0;
  std::vector<LogicalBox> Boxes;
  std::vector<LogicalLine> Messages;
  uint64_t MessagesInWindow = 0;                     ///< messages with an end in the window
  bool MessagesOmitted = false;                      ///< over a budget: none drawn
  std::pair<int64_t, int64_t> TraceSteps{ 0, -1 };   ///< first and last global step of the trace
  std::pair<double, double> MetricRange{ 0.0, 0.0 }; ///< over every event of the trace

  double Height = 0.0; ///< of the chart

  /// The row of a location, -1 if it has none.
  int RowOf(int32_t location) const;
  /// The top y of a row (its bottom is RowTop(row) - RowHeight).
  double RowTop(int row) const { return this->Height - row * this->RowHeight; }
  /// The left x of a column.
  double ColumnLeft(int64_t column) const { return column * this->ColumnWidth; }
};

/// Lays the events and messages out. Rows are the locations having at least
/// one event, by increasing leaf index. Throws std::invalid_argument for
/// columns of different lengths or a chart without area.
LogicalTimelineLayout LayoutLogicalTimeline(const LogicalEventColumns& events,
  const LogicalMessageColumns& messages, const LogicalTimelineOptions& options);

/// The labelled ticks of a step axis over `columns` drawn across `width`
/// pixels: every k-th step, k in 1, 2, 5 x 10^j, the smallest keeping labels
/// at least `spacing` pixels apart. Returns the global steps ticked.
std::vector<int64_t> StepTicks(const StepColumns& columns, double width, double spacing);

/// One bar of the metric overview.
struct MetricBar
{
  int64_t Step = 0;
  double Value = 0.0;
  double X0 = 0, X1 = 0, Height = 0;
};

/// Isaacs et al. 2014 (Ravel) §4.4: a bar per global step of [first, last], as tall
/// as its sum relative to the largest sum (steps with a sum <= 0 or NaN get
/// no height). `sums[k]` is the sum of step first + k.
std::vector<MetricBar> LayoutMetricBars(
  const std::vector<double>& sums, int64_t first, double width, double height);

/// A sequential colour map for the metric (pale yellow to dark red, three
/// stops): t in [0, 1], clamped; NaN gives grey.
std::array<unsigned char, 3> MetricColor(double t);

}
