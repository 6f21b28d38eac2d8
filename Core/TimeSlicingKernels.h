// The pieces of the Time-Slice algorithm that TimeSlicing.cxx (whole tables)
// and StreamingTimeSlicing.cxx (rows as they are read) share, so that both
// fill the model with the same arithmetic. Internal to Core.
#pragma once

#include "TimeSlicing.h"

#include <algorithm>

namespace macroscope
{

// Adds sign × |[a, b) ∩ slice t| to row[t] for every slice the interval meets:
// Triva's eq. 4.1 numerator, clipped at the slice borders.
inline void AddInterval(
  double* row, const SliceGrid& grid, double width, double a, double b, double sign)
{
  a = std::max(a, grid.Begin);
  b = std::min(b, grid.End);
  if (!(b > a))
  {
    return;
  }
  const int last = grid.Slices - 1;
  const int first = std::min(last, static_cast<int>((a - grid.Begin) / width));
  const int final = std::min(last, static_cast<int>((b - grid.Begin) / width));
  if (first == final)
  {
    row[first] += sign * (b - a);
    return;
  }
  row[first] += sign * (grid.SliceBegin(first + 1) - a);
  for (int t = first + 1; t < final; ++t)
  {
    row[t] += sign * width;
  }
  row[final] += sign * (b - grid.SliceBegin(final));
}

// The slice of an instant, or -1 outside [Begin, End] (End belongs to the last slice).
inline int SliceOf(const SliceGrid& grid, double width, double time)
{
  if (!(time >= grid.Begin) || time > grid.End)
  {
    return -1;
  }
  return std::min(grid.Slices - 1, static_cast<int>((time - grid.Begin) / width));
}

// Adds one message to `line`, its resource's row: when `counting`, one at its
// send (`asOrigin`) or receive time; else its bytes as a rate over
// [sent, received], or all at one instant when it has no duration (or the
// clocks drifted).
inline void AddMessage(double* line, const SliceGrid& grid, double width, bool counting,
  bool asOrigin, double sent, double received, double bytes)
{
  if (counting || !(received > sent))
  {
    const int slice = SliceOf(grid, width, asOrigin ? sent : received);
    if (slice >= 0)
    {
      line[slice] += counting ? 1.0 : bytes;
    }
    return;
  }
  AddInterval(line, grid, width, sent, received, bytes / (received - sent));
}

inline bool IsMessageMetric(SliceMetric metric)
{
  return metric == SliceMetric::BytesSentRate || metric == SliceMetric::BytesReceivedRate ||
    metric == SliceMetric::MessagesSent || metric == SliceMetric::MessagesReceived;
}

/// Checks the options and returns the zero model they describe: one type
/// plane for the message metrics. Throws std::invalid_argument.
MicroscopicModel EmptyModel(const TimeSlicingOptions& options);

/// The last pass over the summed model: rounding residue of the exclusive
/// state durations clamped to 0, then the normalization or the division by
/// the slice width that the metric asks for.
void FinishModel(const TimeSlicingOptions& options, MicroscopicModel& model);

}
