// Pieces shared by the layouts of Ravel's logical views: reading the Logical
// Time tables into the cores' columns, the metric's colour and colour bar,
// and the axis of global steps. Private to the Representations module.
#ifndef MacroscopeLogicalChart_h
#define MacroscopeLogicalChart_h

#include "LogicalTimelineLayout.h"
#include "MacroscopeChart.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

class vtkTable;

namespace MacroscopeLogicalChart
{
using MacroscopeChart::RGB;

/// The Logical Events columns the views use; optional columns missing from
/// the table are left empty.
struct Events
{
  macroscope::LogicalEventColumns Core;
  std::vector<int32_t> Phase;
  std::vector<int32_t> Cluster;
  std::vector<int32_t> Sends;
  std::vector<int32_t> Receives;
};

/// Reads the events; false, with `problem` set, when a required column
/// (Location, GlobalStep, Kind, Metric) is missing or not numeric.
/// `progress`, when given, hears the fraction of the columns read after each
/// one (a tenth of a second each on millions of events: the layouts report
/// it, docs/progress.md).
bool ReadEvents(vtkTable* table, Events& events, std::string& problem,
  const std::function<void(double)>& progress = {});

/// Reads the messages' ends (Sender, Receiver, SendGlobalStep,
/// RecvGlobalStep); an empty result when `table` is null or lacks them.
macroscope::LogicalMessageColumns ReadMessages(vtkTable* table);

/// The "MetricName" field data of the events ("Metric" when absent).
std::string MetricName(vtkTable* events);

/// `value` of the metric called `metric` as a label: Logical Time's
/// metrics are times, written in the unit of `magnitude` (the largest
/// value shown) as the time axes are ("689.1 µs"); others with 4
/// significant digits.
std::string MetricValueText(const std::string& metric, double value, double magnitude);

/// The name of a location: "LocationNames" field data, or "location l".
std::string LocationName(vtkTable* events, int location);

/// The colour of a metric value in [range.first, range.second].
RGB ColorOf(double metric, std::pair<double, double> range);

/// The colour bar right of the chart: the metric's name, a vertical ramp
/// and its range. Returns the y of the next free legend row.
double DrawColorBar(MacroscopeChart::Geometry& legend, MacroscopeChart::Labels& labels,
  const std::string& name, std::pair<double, double> range, const MacroscopeChart::Frame& frame,
  const MacroscopeChart::TextMeasure& measure);

/// The frame of a logical chart in a view of `viewSize` pixels
/// (docs/labels.md): location names at the left, the step axis below, the
/// colour bar and the key (`keys`) at the right. Row labels may also show
/// `moreRowNames`, and location names followed by `rowSuffix`.
MacroscopeChart::Frame LogicalFrame(const int viewSize[2], vtkTable* events,
  const std::vector<std::string>& keys, const MacroscopeChart::TextMeasure& measure,
  const std::vector<std::string>& moreRowNames = {}, const std::string& rowSuffix = {});

/// The axis of global steps along y = 0: a tick and label at the centre of
/// every ticked column, and a title with the window.
void DrawStepAxis(MacroscopeChart::Geometry& guides, MacroscopeChart::Labels& labels,
  const macroscope::StepColumns& columns, const MacroscopeChart::Frame& frame,
  const MacroscopeChart::TextMeasure& measure);
}

#endif
