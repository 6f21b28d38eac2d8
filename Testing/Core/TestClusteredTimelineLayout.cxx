// The clustered logical timeline's geometry (docs/logical-views.md) on
// hand-computed cases: focus processes, bands proportional to members,
// glyph sections proportional to the shares sending and receiving, line
// thickness, the ReceivesWaitall pie and the Alternating pair timeline.
#include "ClusteredTimelineLayout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace macroscope;

namespace
{
// Phase 0, locations 0-2 in cluster 0, location 3 in cluster 1; steps 0-3.
ClusteredTimelineInput Hand()
{
  ClusteredTimelineInput in;
  auto add = [&](int32_t location, int64_t step, int32_t kind, double metric, int32_t cluster,
               int32_t receives)
  {
    in.Events.Location.push_back(location);
    in.Events.GlobalStep.push_back(step);
    in.Events.Kind.push_back(kind);
    in.Events.Metric.push_back(metric);
    in.Phase.push_back(0);
    in.Cluster.push_back(cluster);
    in.Receives.push_back(receives);
  };
  add(0, 0, 0, 2.0, 0, 0);
  add(0, 1, 1, 1.0, 0, 0);
  add(1, 0, 0, 4.0, 0, 0);
  add(1, 1, 1, 3.0, 0, 0);
  add(2, 3, 2, 6.0, 0, 1);
  add(3, 1, 2, 5.0, 1, 1);
  add(3, 3, 3, 7.0, 1, 2); // a send-receive
  in.Messages.Sender = { 0, 1, 3 };
  in.Messages.Receiver = { 3, 3, 2 };
  in.Messages.SendStep = { 1, 1, 3 };
  in.Messages.RecvStep = { 1, 1, 3 };
  return in;
}

ClusteredTimelineOptions NoFocusRoom()
{
  ClusteredTimelineOptions options;
  options.Width = 400.0;
  options.Height = 300.0;
  options.FocusShare = 0.0; // the clusters get the whole height
  options.Gap = 0.0;
  return options;
}

const ClusterGlyph* Find(const ClusteredTimelineLayout& layout, int32_t cluster, int64_t step)
{
  for (const ClusterGlyph& glyph : layout.Glyphs)
  {
    if (layout.Bands[glyph.Band].Cluster == cluster && glyph.Step == step)
    {
      return &glyph;
    }
  }
  return nullptr;
}
}

TEST(ClusteredTimelineLayout, FocusIsTheMaximumAndItsNeighbourhood)
{
  LogicalEventColumns events;
  events.Location = { 0, 1, 2, 3, 4 };
  events.GlobalStep = { 1, 1, 1, 1, 1 };
  events.Kind = { 1, 1, 1, 1, 1 };
  events.Metric = { 1.0, 9.0, 2.0, NAN, 9.0 }; // the first maximum wins
  LogicalMessageColumns chain;
  chain.Sender = { 0, 1, 2 };
  chain.Receiver = { 1, 2, 3 };
  chain.SendStep = { 1, 1, 1 };
  chain.RecvStep = { 3, 3, 3 };
  int32_t centre = -1;
  EXPECT_EQ(FocusLocations(events, chain, 0, &centre), (std::vector<int32_t>{ 1 }));
  EXPECT_EQ(centre, 1);
  EXPECT_EQ(FocusLocations(events, chain, 1), (std::vector<int32_t>{ 0, 1, 2 }));
  EXPECT_EQ(FocusLocations(events, chain, 2), (std::vector<int32_t>{ 0, 1, 2, 3 }));
  EXPECT_EQ(FocusLocations(events, chain, 9), (std::vector<int32_t>{ 0, 1, 2, 3 }));
}

TEST(ClusteredTimelineLayout, BandsAndGlyphSections)
{
  const auto layout = LayoutClusteredTimeline(Hand(), NoFocusRoom());
  ASSERT_EQ(layout.Bands.size(), 2u);
  EXPECT_EQ(layout.Bands[0].Members, 3);
  EXPECT_DOUBLE_EQ(layout.Bands[0].Y1, 300.0);
  EXPECT_DOUBLE_EQ(layout.Bands[0].Y0, 75.0); // 3 of 4 members
  EXPECT_DOUBLE_EQ(layout.Bands[1].Y0, 0.0);
  EXPECT_DOUBLE_EQ(layout.Bands[0].X0, 0.0);
  EXPECT_DOUBLE_EQ(layout.Bands[0].X1, 400.0);
  EXPECT_DOUBLE_EQ(layout.MetricRange.second, 7.0);

  // Cluster 0, step 1: 2 of 3 send. Band 75-300, pad 45, inner 120-255.
  const ClusterGlyph* sends = Find(layout, 0, 1);
  ASSERT_NE(sends, nullptr);
  EXPECT_DOUBLE_EQ(sends->SendFraction, 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(sends->ReceiveFraction, 0.0);
  ASSERT_EQ(sends->Sections.size(), 1u);
  EXPECT_DOUBLE_EQ(sends->Sections[0].Y1, 255.0);
  EXPECT_DOUBLE_EQ(sends->Sections[0].Y0, 255.0 - 90.0);
  EXPECT_DOUBLE_EQ(sends->Sections[0].X0, 115.0);
  EXPECT_DOUBLE_EQ(sends->Sections[0].X1, 185.0);
  EXPECT_DOUBLE_EQ(sends->Sections[0].Metric, 2.0); // (1 + 3) / 2
  ASSERT_EQ(sends->Lines.size(), 1u);               // thickness 2/3 of 30 pixels
  EXPECT_DOUBLE_EQ(sends->Lines[0][2] - sends->Lines[0][0], 20.0);
  EXPECT_DOUBLE_EQ(sends->Lines[0][7], 300.0); // up to the band's top

  // Cluster 0, step 0: the aggregates of 2 of 3, centred, metric (2 + 4) / 2.
  const ClusterGlyph* aggregate = Find(layout, 0, 0);
  ASSERT_NE(aggregate, nullptr);
  EXPECT_TRUE(aggregate->Aggregate);
  EXPECT_DOUBLE_EQ(aggregate->Sections[0].Y0, 187.5 - 22.5);
  EXPECT_DOUBLE_EQ(aggregate->Sections[0].Y1, 187.5 + 22.5);
  EXPECT_DOUBLE_EQ(aggregate->Sections[0].Metric, 3.0);

  // Cluster 0, step 3: 1 of 3 receives: the bottom third of the inner height.
  const ClusterGlyph* receive = Find(layout, 0, 3);
  ASSERT_NE(receive, nullptr);
  EXPECT_DOUBLE_EQ(receive->Sections[0].Y0, 120.0);
  EXPECT_DOUBLE_EQ(receive->Sections[0].Y1, 165.0);
  EXPECT_DOUBLE_EQ(receive->Lines[0][1], 75.0); // from the band's bottom
  EXPECT_FALSE(receive->HasPie);

  // Cluster 1, step 3: its one member sends and receives: half each.
  const ClusterGlyph* both = Find(layout, 1, 3);
  ASSERT_NE(both, nullptr);
  ASSERT_EQ(both->Sections.size(), 2u);
  EXPECT_EQ(both->Sections[0].Role, GlyphSection::SENDS);
  EXPECT_EQ(both->Sections[1].Role, GlyphSection::RECEIVES);
  EXPECT_DOUBLE_EQ(both->Sections[0].Y0, 37.5);
  EXPECT_DOUBLE_EQ(both->Sections[0].Y1, 60.0);
  EXPECT_DOUBLE_EQ(both->Sections[1].Y0, 15.0);
  EXPECT_DOUBLE_EQ(both->Sections[1].Y1, 37.5);
  EXPECT_EQ(layout.Glyphs.size(), 5u);
}

TEST(ClusteredTimelineLayout, MembersFromTheClustersTable)
{
  ClusteredTimelineInput in = Hand();
  // Location 4 belongs to cluster 1 without an event at these steps.
  in.MemberPhase = { 0, 0, 0, 0, 0 };
  in.MemberLocation = { 0, 1, 2, 3, 4 };
  in.MemberCluster = { 0, 0, 0, 1, 1 };
  const auto layout = LayoutClusteredTimeline(in, NoFocusRoom());
  EXPECT_EQ(layout.Bands[1].Members, 2);
  EXPECT_DOUBLE_EQ(layout.Bands[0].Y0, 120.0); // 3 of 5
  EXPECT_DOUBLE_EQ(Find(layout, 1, 1)->ReceiveFraction, 0.5);
}

TEST(ClusteredTimelineLayout, ReceivesWaitallPie)
{
  ClusteredTimelineInput in = Hand();
  in.PhaseId = { 0 };
  in.PhasePattern = { static_cast<int32_t>(ClusterPattern::ReceivesWaitall) };
  in.PhaseMaxReceives = { 4 };
  const auto layout = LayoutClusteredTimeline(in, NoFocusRoom());
  const ClusterGlyph* both = Find(layout, 1, 3);
  ASSERT_TRUE(both->HasPie);
  EXPECT_DOUBLE_EQ(both->AverageReceives, 2.0);
  EXPECT_DOUBLE_EQ(both->PieFraction, 0.5);
  EXPECT_DOUBLE_EQ(both->PieRadius, 15.0); // the pad of a 75 pixel band
  EXPECT_DOUBLE_EQ(both->PieCentreY, 15.0);
  EXPECT_EQ(both->Lines.size(), 1u); // the send line only: the pie replaces the receive line
  EXPECT_DOUBLE_EQ(Find(layout, 0, 3)->PieFraction, 0.25);
}

TEST(ClusteredTimelineLayout, AlternatingPairTimeline)
{
  ClusteredTimelineInput in;
  auto add = [&](int32_t location, int64_t step, int32_t kind, int32_t cluster)
  {
    in.Events.Location.push_back(location);
    in.Events.GlobalStep.push_back(step);
    in.Events.Kind.push_back(kind);
    in.Events.Metric.push_back(1.0);
    in.Phase.push_back(0);
    in.Cluster.push_back(cluster);
  };
  // Cluster 0 sends first then receives; cluster 1 receives first then sends.
  add(0, 1, 1, 0);
  add(0, 3, 2, 0);
  add(1, 1, 2, 1);
  add(1, 3, 1, 1);
  in.PhaseId = { 0 };
  in.PhasePattern = { static_cast<int32_t>(ClusterPattern::Alternating) };
  in.PhaseMaxReceives = { 1 };
  const auto layout = LayoutClusteredTimeline(in, NoFocusRoom());
  const ClusterGlyph* first = Find(layout, 0, 1);
  ASSERT_NE(first, nullptr);
  ASSERT_EQ(first->Sections.size(), 2u);
  EXPECT_FALSE(first->Sections[0].Empty); // its sends
  EXPECT_TRUE(first->Sections[1].Empty);  // no first receive in this cluster: dashed
  EXPECT_TRUE(std::isnan(first->Sections[1].Metric));
  const ClusterGlyph* second = Find(layout, 0, 3);
  EXPECT_TRUE(second->Sections[0].Empty);
  EXPECT_FALSE(second->Sections[1].Empty);
  // Cluster 0's send at step 1 reaches its receive at step 3; cluster 1 has
  // no send at step 1.
  ASSERT_EQ(layout.PairLines.size(), 1u);
  EXPECT_DOUBLE_EQ(layout.PairLines[0][0], first->Sections[0].X1);
  EXPECT_DOUBLE_EQ(layout.PairLines[0][2], second->Sections[1].X0);
}

TEST(ClusteredTimelineLayout, FocusTimelinesAboveTheClusters)
{
  ClusteredTimelineOptions options;
  options.Width = 400.0;
  options.Height = 300.0;
  options.FocusRadius = 0;
  const auto layout = LayoutClusteredTimeline(Hand(), options);
  // The largest metric, 7, is location 3's; alone at radius 0.
  EXPECT_EQ(layout.FocusCentre, 3);
  EXPECT_EQ(layout.Focus, (std::vector<int32_t>{ 3 }));
  EXPECT_DOUBLE_EQ(layout.ClusterTop, 300.0 - 22.0 - 12.0);
  ASSERT_EQ(layout.FocusTimeline.Boxes.size(), 2u);
  EXPECT_EQ(layout.FocusTimeline.Boxes[0].Event, 5);
  EXPECT_GE(layout.FocusTimeline.Boxes[0].Y0, 278.0);
  EXPECT_LE(layout.FocusTimeline.Boxes[0].Y1, 300.0);
  // Its three messages go to undrawn locations: stubs from the cell centre,
  // receives to the left corner, towards lower indexes at the top.
  ASSERT_EQ(layout.FocusStubs.size(), 3u);
  EXPECT_DOUBLE_EQ(layout.FocusStubs[0][0], 150.0);
  EXPECT_DOUBLE_EQ(layout.FocusStubs[0][2], 100.0);
  EXPECT_DOUBLE_EQ(layout.FocusStubs[0][3], 300.0);
  EXPECT_DOUBLE_EQ(layout.FocusStubs[2][2], 400.0); // the send at step 3: right
  // Radius 1: its partners 0, 1 and 2 join.
  options.FocusRadius = 1;
  EXPECT_EQ(LayoutClusteredTimeline(Hand(), options).Focus, (std::vector<int32_t>{ 0, 1, 2, 3 }));
}

TEST(ClusteredTimelineLayout, WindowAndBadInput)
{
  ClusteredTimelineOptions options = NoFocusRoom();
  options.FirstStep = 2;
  options.LastStep = 3;
  const auto layout = LayoutClusteredTimeline(Hand(), options);
  EXPECT_EQ(Find(layout, 0, 1), nullptr);
  EXPECT_DOUBLE_EQ(layout.Bands[0].X0, 0.0);
  EXPECT_DOUBLE_EQ(layout.ColumnWidth, 200.0);
  ClusteredTimelineInput bad = Hand();
  bad.Cluster[2] = -1;
  EXPECT_THROW(LayoutClusteredTimeline(bad, options), std::invalid_argument);
  bad = Hand();
  bad.Phase.pop_back();
  EXPECT_THROW(LayoutClusteredTimeline(bad, options), std::invalid_argument);
}

TEST(ClusteredTimelineLayout, ProgressAndAbort)
{
  ClusteredTimelineOptions options = NoFocusRoom();
  std::vector<double> reported;
  options.Progress = [&reported](double f)
  {
    reported.push_back(f);
    return true;
  };
  const auto with = LayoutClusteredTimeline(Hand(), options);
  EXPECT_EQ(with.Glyphs.size(), LayoutClusteredTimeline(Hand(), NoFocusRoom()).Glyphs.size());
  ASSERT_FALSE(reported.empty());
  EXPECT_TRUE(std::is_sorted(reported.begin(), reported.end()));
  EXPECT_DOUBLE_EQ(reported.back(), 1.0);
  // The grid's layout reports within the first 40 %, the tallies after.
  EXPECT_TRUE(std::any_of(reported.begin(), reported.end(), [](double f) { return f < 0.4; }));
  EXPECT_TRUE(
    std::any_of(reported.begin(), reported.end(), [](double f) { return f >= 0.4 && f < 1.0; }));

  for (double refuseFrom : { 0.0, 0.4 })
  {
    options.Progress = [refuseFrom](double f) { return f < refuseFrom; };
    EXPECT_THROW(LayoutClusteredTimeline(Hand(), options), LogicalLayoutAborted) << refuseFrom;
  }
}

TEST(ClusteredTimelineLayout, BandsAreNamedInWordsAndTheirMembersListed)
{
  ClusterBand band;
  band.Phase = 3;
  band.Cluster = 1;
  band.Members = 12;
  EXPECT_EQ(ClusterBandNames(band),
    (std::vector<std::string>{
      "phase 3, cluster 1: 12 members", "phase 3, cluster 1 (12)", "p3 c1 (12)" }));
  band.Members = 1;
  EXPECT_EQ(ClusterBandNames(band).front(), "phase 3, cluster 1: 1 member");

  // From the events: cluster 0 holds locations 0-2, cluster 1 location 3.
  ClusteredTimelineInput in = Hand();
  auto members = ClusterMembers(in);
  ASSERT_EQ(members.size(), 2u);
  EXPECT_EQ(members[std::make_pair(0, 0)], (std::vector<int32_t>{ 0, 1, 2 }));
  EXPECT_EQ(members[std::make_pair(0, 1)], (std::vector<int32_t>{ 3 }));
  // From the Clusters table: location 4, without events, counts too; the
  // counts agree with the bands the layout draws.
  in.MemberPhase = { 0, 0, 0, 0, 0 };
  in.MemberLocation = { 4, 1, 2, 3, 0 };
  in.MemberCluster = { 1, 0, 0, 1, 0 };
  members = ClusterMembers(in);
  EXPECT_EQ(members[std::make_pair(0, 1)], (std::vector<int32_t>{ 3, 4 }));
  const auto layout = LayoutClusteredTimeline(in, NoFocusRoom());
  for (const ClusterBand& drawn : layout.Bands)
  {
    const auto key = std::make_pair(drawn.Phase, drawn.Cluster);
    EXPECT_EQ(static_cast<std::size_t>(drawn.Members), members[key].size());
  }
  in.MemberCluster.pop_back();
  EXPECT_THROW(ClusterMembers(in), std::invalid_argument);
}
