#include "ClusteredTimelineLayout.h"

#include "ProgressSpan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

namespace macroscope
{

namespace
{
bool Sends(int32_t kind)
{
  return kind == 1 || kind == 3 || kind == 4; // a collective both gives and gets
}
bool Receives(int32_t kind)
{
  return kind == 2 || kind == 3 || kind == 4;
}

struct Tally
{
  int32_t Send = 0, Receive = 0, Aggregate = 0;
  double SendMetric = 0.0, ReceiveMetric = 0.0, AggregateMetric = 0.0;
  double ReceivesCompleted = 0.0;
};

// Mean of `sum` over `count` finite values; NaN when there is none.
double Mean(double sum, int32_t count)
{
  return count > 0 ? sum / count : std::numeric_limits<double>::quiet_NaN();
}
}

std::vector<int32_t> FocusLocations(const LogicalEventColumns& events,
  const LogicalMessageColumns& messages, int radius, int32_t* centre)
{
  std::size_t best = events.size();
  for (std::size_t e = 0; e < events.size(); ++e)
  {
    if (std::isfinite(events.Metric[e]) &&
      (best == events.size() || events.Metric[e] > events.Metric[best]))
    {
      best = e;
    }
  }
  if (centre)
  {
    *centre = best < events.size() ? events.Location[best] : -1;
  }
  if (best == events.size())
  {
    return {};
  }
  // Breadth-first over the messages, both directions, `radius` hops.
  std::set<int32_t> reached{ events.Location[best] };
  std::vector<int32_t> frontier{ events.Location[best] };
  for (int hop = 0; hop < radius && !frontier.empty(); ++hop)
  {
    const std::set<int32_t> from(frontier.begin(), frontier.end());
    frontier.clear();
    for (std::size_t k = 0; k < messages.size(); ++k)
    {
      const int32_t ends[2] = { messages.Sender[k], messages.Receiver[k] };
      for (int side = 0; side < 2; ++side)
      {
        if (from.count(ends[side]) && reached.insert(ends[1 - side]).second)
        {
          frontier.push_back(ends[1 - side]);
        }
      }
    }
  }
  return std::vector<int32_t>(reached.begin(), reached.end());
}

ClusteredTimelineLayout LayoutClusteredTimeline(
  const ClusteredTimelineInput& input, const ClusteredTimelineOptions& options)
{
  const LogicalEventColumns& events = input.Events;
  const std::size_t n = events.size();
  if (events.GlobalStep.size() != n || events.Kind.size() != n || events.Metric.size() != n ||
    input.Phase.size() != n || input.Cluster.size() != n ||
    (!input.Receives.empty() && input.Receives.size() != n))
  {
    throw std::invalid_argument("the event columns have different lengths");
  }
  if (input.MemberLocation.size() != input.MemberPhase.size() ||
    input.MemberCluster.size() != input.MemberPhase.size() ||
    input.PhasePattern.size() != input.PhaseId.size() ||
    input.PhaseMaxReceives.size() != input.PhaseId.size())
  {
    throw std::invalid_argument("the cluster or phase columns have different lengths");
  }
  for (std::size_t e = 0; e < n; ++e)
  {
    if (input.Cluster[e] < 0)
    {
      throw std::invalid_argument("event " + std::to_string(e) + " has a negative Cluster");
    }
  }
  if (!(options.Width > 0.0) || !(options.Height > 0.0) || !std::isfinite(options.Width) ||
    !std::isfinite(options.Height))
  {
    throw std::invalid_argument("the chart has no area");
  }

  ClusteredTimelineLayout layout;
  // The columns and colours span the whole trace, like the logical timeline.
  LogicalTimelineOptions whole;
  whole.Width = options.Width;
  whole.Height = options.Height;
  whole.FirstStep = options.FirstStep;
  whole.LastStep = options.LastStep;
  whole.ShowAggregates = options.ShowAggregates;
  whole.MaxMessages = 0;
  // Progress: the grid takes the first 40 % of the bar, the tallies the next 50 %.
  if (options.Progress)
  {
    whole.Progress = [&options](double fraction) { return options.Progress(0.4 * fraction); };
  }
  const LogicalTimelineLayout grid = LayoutLogicalTimeline(events, {}, whole);
  whole.Progress = nullptr; // the focus rows below are few
  layout.Columns = grid.Columns;
  layout.ColumnWidth = grid.ColumnWidth;
  layout.MetricRange = grid.MetricRange;
  const double w = layout.ColumnWidth;

  // Focus processes and their timelines, at the top.
  layout.Focus = FocusLocations(events, input.Messages, options.FocusRadius, &layout.FocusCentre);
  const double focusHeight = layout.Focus.empty()
    ? 0.0
    : std::min(options.FocusRowHeight * static_cast<double>(layout.Focus.size()),
        options.FocusShare * options.Height);
  layout.ClusterTop =
    std::max(0.0, options.Height - focusHeight - (layout.Focus.empty() ? 0.0 : options.Gap));
  if (!layout.Focus.empty() && focusHeight > 0.0) // FocusShare 0: clusters only
  {
    auto inFocus = [&](int32_t location)
    { return std::binary_search(layout.Focus.begin(), layout.Focus.end(), location); };
    LogicalEventColumns focusEvents;
    std::vector<int64_t> eventRow;
    for (std::size_t e = 0; e < n; ++e)
    {
      if (inFocus(events.Location[e]))
      {
        focusEvents.Location.push_back(events.Location[e]);
        focusEvents.GlobalStep.push_back(events.GlobalStep[e]);
        focusEvents.Kind.push_back(events.Kind[e]);
        focusEvents.Metric.push_back(events.Metric[e]);
        eventRow.push_back(static_cast<int64_t>(e));
      }
    }
    LogicalMessageColumns focusMessages;
    std::vector<int64_t> messageRow;
    const LogicalMessageColumns& m = input.Messages;
    for (std::size_t k = 0; k < m.size(); ++k)
    {
      if (inFocus(m.Sender[k]) && inFocus(m.Receiver[k]))
      {
        focusMessages.Sender.push_back(m.Sender[k]);
        focusMessages.Receiver.push_back(m.Receiver[k]);
        focusMessages.SendStep.push_back(m.SendStep[k]);
        focusMessages.RecvStep.push_back(m.RecvStep[k]);
        messageRow.push_back(static_cast<int64_t>(k));
      }
    }
    LogicalTimelineOptions focus = whole;
    focus.Height = focusHeight;
    focus.FirstStep = layout.Columns.First;
    focus.LastStep = layout.Columns.Last;
    focus.MaxMessages = options.MaxMessages;
    layout.FocusTimeline = LayoutLogicalTimeline(focusEvents, focusMessages, focus);
    // Same columns as the clusters (the window is resolved on the whole trace).
    layout.FocusTimeline.Columns = layout.Columns;
    const double lift = options.Height - focusHeight;
    layout.FocusTimeline.Height = options.Height;
    for (LogicalBox& box : layout.FocusTimeline.Boxes)
    {
      box.Event = eventRow[box.Event];
      box.Y0 += lift;
      box.Y1 += lift;
    }
    for (LogicalLine& line : layout.FocusTimeline.Messages)
    {
      line.Message = messageRow[line.Message];
      line.Y0 += lift;
      line.Y1 += lift;
    }
    layout.FocusTimeline.MetricRange = layout.MetricRange;
    // Messages to locations not drawn: centre of the cell to the corner
    // towards the partner (right: a send, left: a receive; top: a partner
    // of lower index, whose row would be above).
    const LogicalTimelineLayout& ft = layout.FocusTimeline;
    for (std::size_t k = 0; k < m.size() && ft.RowHeight > 0.0; ++k)
    {
      const bool sender = inFocus(m.Sender[k]);
      if (sender == inFocus(m.Receiver[k]))
      {
        continue;
      }
      const int32_t self = sender ? m.Sender[k] : m.Receiver[k];
      const int32_t other = sender ? m.Receiver[k] : m.Sender[k];
      const int64_t column = layout.Columns.ColumnOf(sender ? m.SendStep[k] : m.RecvStep[k]);
      if (column < 0)
      {
        continue;
      }
      const double top = ft.RowTop(ft.RowOf(self));
      const double cx = (static_cast<double>(column) + 0.5) * w;
      const double cy = top - 0.5 * ft.RowHeight;
      layout.FocusStubs.push_back(
        { cx, cy, sender ? cx + 0.5 * w : cx - 0.5 * w, other < self ? top : top - ft.RowHeight });
    }
  }

  // The members of every (phase, cluster), the phases' spans and patterns.
  std::map<int32_t, std::map<int32_t, int32_t>> members;
  if (!input.MemberPhase.empty())
  {
    for (std::size_t i = 0; i < input.MemberPhase.size(); ++i)
    {
      if (input.MemberCluster[i] < 0)
      {
        throw std::invalid_argument(
          "a member of phase " + std::to_string(input.MemberPhase[i]) + " has a negative Cluster");
      }
      ++members[input.MemberPhase[i]][input.MemberCluster[i]];
    }
  }
  else
  {
    std::set<std::tuple<int32_t, int32_t, int32_t>> seen;
    for (std::size_t e = 0; e < n; ++e)
    {
      if (seen.insert({ input.Phase[e], events.Location[e], input.Cluster[e] }).second)
      {
        ++members[input.Phase[e]][input.Cluster[e]];
      }
    }
  }
  std::map<int32_t, std::pair<int64_t, int64_t>> span;
  std::map<int32_t, int32_t> maxReceives;
  for (std::size_t e = 0; e < n; ++e)
  {
    auto found = span.find(input.Phase[e]);
    if (found == span.end())
    {
      span[input.Phase[e]] = { events.GlobalStep[e], events.GlobalStep[e] };
    }
    else
    {
      found->second.first = std::min(found->second.first, events.GlobalStep[e]);
      found->second.second = std::max(found->second.second, events.GlobalStep[e]);
    }
    if (!input.Receives.empty())
    {
      maxReceives[input.Phase[e]] = std::max(maxReceives[input.Phase[e]], input.Receives[e]);
    }
  }
  std::map<int32_t, ClusterPattern> pattern;
  for (std::size_t i = 0; i < input.PhaseId.size(); ++i)
  {
    pattern[input.PhaseId[i]] = static_cast<ClusterPattern>(input.PhasePattern[i]);
    if (input.PhaseMaxReceives[i] > 0)
    {
      maxReceives[input.PhaseId[i]] = input.PhaseMaxReceives[i];
    }
  }

  // Bands: the clusters of each phase over its columns, first cluster on top.
  std::map<std::pair<int32_t, int32_t>, std::size_t> bandOf;
  for (const auto& [phase, clusters] : members)
  {
    const auto s = span.find(phase);
    if (s == span.end())
    {
      continue; // members but no event: nothing to draw
    }
    int64_t low = -1, high = -1;
    for (int64_t step = std::max(s->second.first, layout.Columns.First);
         step <= std::min(s->second.second, layout.Columns.Last); ++step)
    {
      const int64_t column = layout.Columns.ColumnOf(step);
      if (column >= 0)
      {
        low = low < 0 ? column : low;
        high = column;
      }
    }
    if (low < 0)
    {
      continue;
    }
    int32_t total = 0;
    for (const auto& entry : clusters)
    {
      total += entry.second;
    }
    double y = layout.ClusterTop;
    for (const auto& [cluster, count] : clusters)
    {
      ClusterBand band;
      band.Phase = phase;
      band.Cluster = cluster;
      band.Members = count;
      const auto p = pattern.find(phase);
      band.Pattern = p == pattern.end() ? ClusterPattern::None : p->second;
      band.X0 = static_cast<double>(low) * w;
      band.X1 = static_cast<double>(high + 1) * w;
      band.Y1 = y;
      y -= layout.ClusterTop * count / total;
      band.Y0 = y;
      bandOf[{ phase, cluster }] = layout.Bands.size();
      layout.Bands.push_back(band);
    }
  }

  // Glyphs: tally the events of every (phase, cluster, step) drawn.
  std::map<std::tuple<int32_t, int32_t, int64_t>, Tally> tallies;
  std::map<std::pair<int32_t, int64_t>, Tally> phaseTallies; // Alternating's placeholders
  ProgressSpan tallying(options.Progress, 0.4, 0.9, n);
  for (std::size_t e = 0; e < n; ++e)
  {
    if (!tallying.At(e))
    {
      throw LogicalLayoutAborted();
    }
    if (layout.Columns.ColumnOf(events.GlobalStep[e]) < 0)
    {
      continue;
    }
    for (Tally* t : { &tallies[{ input.Phase[e], input.Cluster[e], events.GlobalStep[e] }],
           &phaseTallies[{ input.Phase[e], events.GlobalStep[e] }] })
    {
      const int32_t kind = events.Kind[e];
      const double metric = events.Metric[e];
      if (kind == 0)
      {
        ++t->Aggregate;
        t->AggregateMetric += metric;
      }
      if (Sends(kind))
      {
        ++t->Send;
        t->SendMetric += metric;
      }
      if (Receives(kind))
      {
        ++t->Receive;
        t->ReceiveMetric += metric;
        t->ReceivesCompleted += input.Receives.empty() ? 0.0 : input.Receives[e];
      }
    }
  }
  std::map<std::pair<std::size_t, int64_t>, std::size_t> glyphOf;
  for (const auto& [key, tally] : tallies)
  {
    const auto b = bandOf.find({ std::get<0>(key), std::get<1>(key) });
    if (b == bandOf.end())
    {
      continue; // an event of a location outside its phase's clusters
    }
    const ClusterBand& band = layout.Bands[b->second];
    const int64_t step = std::get<2>(key);
    const double members = std::max(1, band.Members);
    ClusterGlyph glyph;
    glyph.Band = b->second;
    glyph.Step = step;
    glyph.Aggregate = tally.Aggregate > 0 && tally.Send == 0 && tally.Receive == 0;
    glyph.SendFraction = tally.Send / members;
    glyph.ReceiveFraction = tally.Receive / members;
    glyph.AggregateFraction = tally.Aggregate / members;
    const double column = static_cast<double>(layout.Columns.ColumnOf(step));
    const double gx0 = (column + 0.15) * w;
    const double gx1 = (column + 0.85) * w;
    const double gc = (column + 0.5) * w;
    const double bandHeight = band.Y1 - band.Y0;
    const double pad = 0.2 * bandHeight;
    const double inner0 = band.Y0 + pad;
    const double inner1 = band.Y1 - pad;
    const double innerHeight = inner1 - inner0;
    if (glyph.Aggregate)
    {
      // The computation before the communication: a box centred in the band.
      const double half = 0.25 * innerHeight * std::min(1.0, glyph.AggregateFraction);
      const double mid = 0.5 * (inner0 + inner1);
      glyph.Sections.push_back({ GlyphSection::AGGREGATES, gx0, mid - half, gx1, mid + half,
        Mean(tally.AggregateMetric, tally.Aggregate), false });
    }
    else if (band.Pattern == ClusterPattern::Alternating)
    {
      // A pair of timelines: the members' sends above, their receives below;
      // an event the phase has at this step but this cluster lacks is a
      // dashed empty box.
      const Tally& phase = phaseTallies[{ band.Phase, step }];
      const double mid = 0.5 * (inner0 + inner1);
      const double gap = 0.05 * innerHeight;
      if (tally.Send > 0 || phase.Send > 0)
      {
        glyph.Sections.push_back({ GlyphSection::SENDS, gx0, mid + gap, gx1, inner1,
          Mean(tally.SendMetric, tally.Send), tally.Send == 0 });
      }
      if (tally.Receive > 0 || phase.Receive > 0)
      {
        glyph.Sections.push_back({ GlyphSection::RECEIVES, gx0, inner0, gx1, mid - gap,
          Mean(tally.ReceiveMetric, tally.Receive), tally.Receive == 0 });
      }
    }
    else
    {
      // Fig. 7: sends on top, receives at the bottom, the inactive members
      // blank between; members that both send and receive share the height.
      const double scale = std::max(1.0, glyph.SendFraction + glyph.ReceiveFraction);
      const double lineWidth = 0.3 * w;
      if (tally.Send > 0)
      {
        const double top = inner1;
        const double bottom = inner1 - glyph.SendFraction / scale * innerHeight;
        glyph.Sections.push_back({ GlyphSection::SENDS, gx0, bottom, gx1, top,
          Mean(tally.SendMetric, tally.Send), false });
        const double t = std::max(1.0, glyph.SendFraction * lineWidth);
        glyph.Lines.push_back({ gc - 0.5 * t, top, gc + 0.5 * t, top, gc + 0.5 * w + 0.5 * t,
          band.Y1, gc + 0.5 * w - 0.5 * t, band.Y1 });
      }
      if (tally.Receive > 0)
      {
        const double bottom = inner0;
        const double top = inner0 + glyph.ReceiveFraction / scale * innerHeight;
        glyph.Sections.push_back({ GlyphSection::RECEIVES, gx0, bottom, gx1, top,
          Mean(tally.ReceiveMetric, tally.Receive), false });
        glyph.AverageReceives = tally.ReceivesCompleted / tally.Receive;
        if (band.Pattern == ClusterPattern::ReceivesWaitall)
        {
          // The receive line becomes a quarter pie of the receives completed.
          const auto most = maxReceives.find(band.Phase);
          glyph.HasPie = true;
          glyph.PieRadius = std::min(pad, 0.35 * w);
          glyph.PieCentreX = gc - 0.5 * glyph.PieRadius;
          glyph.PieCentreY = inner0;
          glyph.PieFraction = most != maxReceives.end() && most->second > 0
            ? std::min(1.0, glyph.AverageReceives / most->second)
            : 0.0;
        }
        else
        {
          const double t = std::max(1.0, glyph.ReceiveFraction * lineWidth);
          glyph.Lines.push_back({ gc - 0.5 * w - 0.5 * t, band.Y0, gc - 0.5 * w + 0.5 * t, band.Y0,
            gc + 0.5 * t, bottom, gc - 0.5 * t, bottom });
        }
      }
    }
    if (glyph.Sections.empty())
    {
      continue;
    }
    glyphOf[{ glyph.Band, step }] = layout.Glyphs.size();
    layout.Glyphs.push_back(std::move(glyph));
  }

  // Alternating: the volley from a send to the receive two steps later.
  for (const ClusterGlyph& glyph : layout.Glyphs)
  {
    const ClusterBand& band = layout.Bands[glyph.Band];
    if (band.Pattern != ClusterPattern::Alternating || glyph.Aggregate)
    {
      continue;
    }
    const auto next = glyphOf.find({ glyph.Band, glyph.Step + 2 });
    if (next == glyphOf.end() || glyph.Sections.empty())
    {
      continue;
    }
    const GlyphSection& send = glyph.Sections.front();
    const GlyphSection& receive = layout.Glyphs[next->second].Sections.back();
    if (send.Role == GlyphSection::SENDS && receive.Role == GlyphSection::RECEIVES && !send.Empty &&
      !receive.Empty)
    {
      layout.PairLines.push_back(
        { send.X1, 0.5 * (send.Y0 + send.Y1), receive.X0, 0.5 * (receive.Y0 + receive.Y1) });
    }
  }
  if (options.Progress && !options.Progress(1.0))
  {
    throw LogicalLayoutAborted();
  }
  return layout;
}

std::vector<std::string> ClusterBandNames(const ClusterBand& band)
{
  const std::string phase = std::to_string(band.Phase);
  const std::string cluster = std::to_string(band.Cluster);
  const std::string members = std::to_string(band.Members);
  return { "phase " + phase + ", cluster " + cluster + ": " + members +
      (band.Members == 1 ? " member" : " members"),
    "phase " + phase + ", cluster " + cluster + " (" + members + ")",
    "p" + phase + " c" + cluster + " (" + members + ")" };
}

std::map<std::pair<int32_t, int32_t>, std::vector<int32_t>> ClusterMembers(
  const ClusteredTimelineInput& input)
{
  std::map<std::pair<int32_t, int32_t>, std::set<int32_t>> found;
  if (!input.MemberPhase.empty())
  {
    if (input.MemberLocation.size() != input.MemberPhase.size() ||
      input.MemberCluster.size() != input.MemberPhase.size())
    {
      throw std::invalid_argument("cluster members: the Clusters columns differ in length");
    }
    for (std::size_t i = 0; i < input.MemberPhase.size(); ++i)
    {
      found[{ input.MemberPhase[i], input.MemberCluster[i] }].insert(input.MemberLocation[i]);
    }
  }
  else
  {
    if (input.Phase.size() != input.Events.size() || input.Cluster.size() != input.Events.size())
    {
      throw std::invalid_argument("cluster members: phases or clusters missing for some events");
    }
    for (std::size_t i = 0; i < input.Events.size(); ++i)
    {
      found[{ input.Phase[i], input.Cluster[i] }].insert(input.Events.Location[i]);
    }
  }
  std::map<std::pair<int32_t, int32_t>, std::vector<int32_t>> members;
  for (const auto& [key, locations] : found)
  {
    members[key].assign(locations.begin(), locations.end());
  }
  return members;
}

}
