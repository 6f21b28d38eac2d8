// Ravel's clustered logical timeline as geometry (Isaacs et al. 2014 (Ravel) sections 4.2 and
// 4.2.1, Figs. 6-8): per phase, its clusters of locations stacked with
// heights proportional to their members, a glyph per cluster and global
// step summarising its members' events, and above them the logical
// timelines of the focus processes. See docs/logical-views.md.
#pragma once

#include "LogicalTimelineLayout.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace macroscope
{

/// The exchange flavours of a phase (logical::ExchangePattern's values).
enum class ClusterPattern : int32_t
{
  None = 0,
  Alternating = 1,
  SendsThenReceives = 2,
  ReceivesWaitall = 3
};

struct ClusteredTimelineInput
{
  LogicalEventColumns Events;
  std::vector<int32_t> Phase;    ///< per event
  std::vector<int32_t> Cluster;  ///< per event: its location's cluster in the phase
  std::vector<int32_t> Receives; ///< per event: messages it receives (may be empty)
  LogicalMessageColumns Messages;
  /// The Clusters table (optional): one entry per (phase, member location).
  /// Empty: the members are the locations with events in the phase.
  std::vector<int32_t> MemberPhase;
  std::vector<int32_t> MemberLocation;
  std::vector<int32_t> MemberCluster;
  /// The Phases table (optional): pattern and MaxReceives per phase id.
  std::vector<int32_t> PhaseId;
  std::vector<int32_t> PhasePattern;
  std::vector<int32_t> PhaseMaxReceives;
};

struct ClusteredTimelineOptions
{
  double Width = 1600.0;
  double Height = 900.0;
  int64_t FirstStep = 0; ///< window of global steps; Last < First: every step
  int64_t LastStep = -1;
  bool ShowAggregates = true;
  int FocusRadius = 1;          ///< message hops around the max-metric location
  int64_t MaxMessages = 5000;   ///< for the focus timelines
  double FocusRowHeight = 22.0; ///< pixels per focus row, at most...
  double FocusShare = 0.35;     ///< ...this share of the height in all
  double Gap = 12.0;            ///< between the focus rows and the clusters
  /// Called with the fraction done (docs/progress.md); returning false stops
  /// the layout with LogicalLayoutAborted. Empty: no progress.
  std::function<bool(double)> Progress;
};

/// One cluster of one phase: a horizontal band over the phase's columns.
struct ClusterBand
{
  int32_t Phase = 0;
  int32_t Cluster = 0;
  int32_t Members = 0;
  ClusterPattern Pattern = ClusterPattern::None;
  double X0 = 0, Y0 = 0, X1 = 0, Y1 = 0;
};

/// A rectangle of a glyph, with the average metric of its events.
struct GlyphSection
{
  enum Roles : int32_t
  {
    SENDS = 0,
    RECEIVES = 1,
    AGGREGATES = 2
  };
  int32_t Role = SENDS;
  double X0 = 0, Y0 = 0, X1 = 0, Y1 = 0;
  double Metric = 0.0;
  bool Empty = false; ///< a dashed placeholder (Alternating: absent events)
};

/// The glyph of a cluster at a global step (Fig. 7).
struct ClusterGlyph
{
  std::size_t Band = 0; ///< index in Bands
  int64_t Step = 0;
  bool Aggregate = false;
  /// Shares of the members: sending (Kind 1, 3, 4), receiving (2, 3, 4),
  /// having an aggregate (Kind 0) at this step.
  double SendFraction = 0.0;
  double ReceiveFraction = 0.0;
  double AggregateFraction = 0.0;
  std::vector<GlyphSection> Sections; ///< sends (top), receives (bottom), or the aggregate box
  /// Send and receive lines as quads (x0 y0 x1 y1 x2 y2 x3 y3), thickness
  /// proportional to the fraction.
  std::vector<std::array<double, 8>> Lines;
  /// ReceivesWaitall: the quarter pie below the receive section.
  bool HasPie = false;
  double PieCentreX = 0, PieCentreY = 0, PieRadius = 0;
  double AverageReceives = 0.0;
  double PieFraction = 0.0; ///< AverageReceives / the phase's MaxReceives
};

struct ClusteredTimelineLayout
{
  StepColumns Columns;
  double ColumnWidth = 0.0;
  double ClusterTop = 0.0; ///< the clusters fill [0, ClusterTop]
  std::vector<ClusterBand> Bands;
  std::vector<ClusterGlyph> Glyphs;
  /// Alternating phases: a line from each send section to the receive
  /// section two steps later in the same band (x0 y0 x1 y1).
  std::vector<std::array<double, 4>> PairLines;
  int32_t FocusCentre = -1;            ///< the location of the largest metric
  std::vector<int32_t> Focus;          ///< the focus locations, by leaf index
  LogicalTimelineLayout FocusTimeline; ///< their timeline, y already above the clusters
  /// Messages from a focus location to one not drawn: centre of its cell to
  /// the corner towards the partner (x0 y0 x1 y1).
  std::vector<std::array<double, 4>> FocusStubs;
  std::pair<double, double> MetricRange{ 0.0, 0.0 };
};

/// The focus processes: the location of the event with the largest metric
/// (the first such event) and the locations within `radius` message hops of
/// it, sorted. Empty without a finite metric.
std::vector<int32_t> FocusLocations(const LogicalEventColumns& events,
  const LogicalMessageColumns& messages, int radius, int32_t* centre = nullptr);

/// Lays the clustered view out. Throws std::invalid_argument for columns of
/// different lengths, a negative cluster or a chart without area.
ClusteredTimelineLayout LayoutClusteredTimeline(
  const ClusteredTimelineInput& input, const ClusteredTimelineOptions& options);

/// The names a cluster band may be drawn with, longest first: in words,
/// "phase 3, cluster 1: 12 members" ("1 member"), then "phase 3, cluster 1
/// (12)", then "p3 c1 (12)" for a narrow margin. Every one names the phase,
/// the cluster and the member count.
std::vector<std::string> ClusterBandNames(const ClusterBand& band);

/// The member locations of every (phase, cluster), increasing: from the
/// Clusters table when the input has one, else the locations of the events
/// of each phase and cluster. Columns of different lengths throw
/// std::invalid_argument.
std::map<std::pair<int32_t, int32_t>, std::vector<int32_t>> ClusterMembers(
  const ClusteredTimelineInput& input);

}
