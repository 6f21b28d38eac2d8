// The clustering of a logical trace phase by phase
// (Core/LogicalPhaseClusters.h) on hand-made traces: the series of
// a phase, separated groups split by the cut, the dendrogram's shape, one
// cluster per phase without clustering, an abort, the per-step sums.
#include "LogicalPhaseClusters.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

using namespace macroscope::logical;

namespace
{

// An event of `location` at global step `step` of phase `phase`.
void AddEvent(
  LogicalTrace& trace, int32_t location, int64_t step, int32_t phase, int32_t receives = 0)
{
  LogicalEvents& e = trace.Events;
  e.Location.push_back(location);
  e.Step.push_back(step / 2);
  e.GlobalStep.push_back(step);
  e.Phase.push_back(phase);
  e.Kind.push_back(EventKind::Aggregate);
  e.Enter.push_back(0.0);
  e.Exit.push_back(0.0);
  e.State.push_back(-1);
  e.Type.push_back(-1);
  e.Sends.push_back(0);
  e.Receives.push_back(receives);
  e.Partner.push_back(-1);
  e.Collective.push_back(-1);
  e.Lateness.push_back(0.0);
  e.DifferentialLateness.push_back(0.0);
  e.PhaseLateness.push_back(0.0);
  e.PhaseDifferentialLateness.push_back(0.0);
}

void AddPhase(LogicalTrace& trace, int64_t first, int64_t last)
{
  PhaseInfo info;
  info.FirstGlobalStep = first;
  info.LastGlobalStep = last;
  trace.Phases.push_back(info);
}

// Phase 0: locations 3, 1 (first events in that order) over steps 0-1,
// location 1 missing step 1. Phase 1: locations 0-3 over steps 2-3,
// 0 and 2 near 0, 1 and 3 near 10.
LogicalTrace TwoPhases(std::vector<double>& metric)
{
  LogicalTrace trace;
  AddPhase(trace, 0, 1);
  AddPhase(trace, 2, 3);
  const struct
  {
    int32_t Location;
    int64_t Step;
    int32_t Phase;
    double Value;
    int32_t Receives;
  } rows[] = { { 3, 0, 0, 5.0, 1 }, { 3, 1, 0, 6.0, 4 }, { 1, 0, 0, 7.0, 2 }, { 0, 2, 1, 0.0, 0 },
    { 0, 3, 1, 0.1, 0 }, { 1, 2, 1, 10.0, 3 }, { 1, 3, 1, 10.2, 0 }, { 2, 2, 1, 0.2, 0 },
    { 2, 3, 1, 0.0, 0 }, { 3, 2, 1, 9.9, 0 }, { 3, 3, 1, 10.1, 1 } };
  for (const auto& row : rows)
  {
    AddEvent(trace, row.Location, row.Step, row.Phase, row.Receives);
    metric.push_back(row.Value);
  }
  trace.Spans.Start.assign(4, 0.0);
  trace.Spans.End.assign(4, 1.0);
  return trace;
}

// The cut cluster of `location` in phase `phase`, from the Clusters rows.
int32_t ClusterOf(const PhaseClusters& out, int32_t phase, int32_t location)
{
  for (std::size_t r = 0; r < out.Phase.size(); ++r)
  {
    if (out.Phase[r] == phase && out.Location[r] == location)
    {
      return out.Cluster[r];
    }
  }
  ADD_FAILURE() << "no row for location " << location << " in phase " << phase;
  return -1;
}

}

TEST(LogicalPhaseClusters, SeriesOfAPhaseFollowsFirstEvents)
{
  std::vector<double> metric;
  const LogicalTrace trace = TwoPhases(metric);
  const PhaseSeries series = SeriesOfPhase(trace.Events, trace.Phases[0], { 0, 1, 2 }, metric);
  ASSERT_EQ(series.Steps, 2u);
  EXPECT_EQ(series.Members, (std::vector<int32_t>{ 3, 1 }));
  ASSERT_EQ(series.Values.size(), 4u);
  EXPECT_EQ(series.Values[0], 5.0);
  EXPECT_EQ(series.Values[1], 6.0);
  EXPECT_EQ(series.Values[2], 7.0);
  EXPECT_TRUE(std::isnan(series.Values[3]));
}

TEST(LogicalPhaseClusters, CutSeparatesGroups)
{
  std::vector<double> metric;
  const LogicalTrace trace = TwoPhases(metric);
  PhaseClusterOptions options;
  options.Clara.Clusters = 2;
  options.Shown = 2;
  const PhaseClusters out = ClusterPhases(trace, metric, options);

  ASSERT_EQ(out.Phase.size(), 6u); // 2 members in phase 0, 4 in phase 1
  EXPECT_EQ(out.PhaseClusterCount, (std::vector<int32_t>{ 2, 2 }));
  EXPECT_EQ(out.PhaseMaxReceives, (std::vector<int32_t>{ 4, 3 }));
  EXPECT_EQ(ClusterOf(out, 1, 0), ClusterOf(out, 1, 2));
  EXPECT_EQ(ClusterOf(out, 1, 1), ClusterOf(out, 1, 3));
  EXPECT_NE(ClusterOf(out, 1, 0), ClusterOf(out, 1, 1));
  int medoids = 0;
  for (std::size_t r = 0; r < out.Phase.size(); ++r)
  {
    medoids += out.Phase[r] == 1 && out.Medoid[r];
  }
  EXPECT_EQ(medoids, 2);
  for (std::size_t i = 0; i < trace.Events.size(); ++i)
  {
    EXPECT_EQ(out.EventCluster[i], ClusterOf(out, trace.Events.Phase[i], trace.Events.Location[i]))
      << "event " << i;
  }

  // The dendrogram: the root, per phase its vertex, one merge of its two
  // CLARA clusters and the two clusters; parents come first.
  ASSERT_EQ(out.Dendrogram.size(), 1u + 2u * 4u);
  EXPECT_EQ(out.Dendrogram[0].Name, "phases");
  EXPECT_EQ(out.Dendrogram[0].Parent, -1);
  std::set<std::string> underPhase1;
  for (std::size_t v = 1; v < out.Dendrogram.size(); ++v)
  {
    const DendrogramVertex& vertex = out.Dendrogram[v];
    ASSERT_GE(vertex.Parent, 0);
    EXPECT_LT(vertex.Parent, static_cast<int64_t>(v));
    if (vertex.Phase == 1 && vertex.Name.rfind("Cluster", 0) == 0)
    {
      underPhase1.insert(vertex.Name);
      EXPECT_EQ(vertex.Size, 2); // each group has two members
      EXPECT_EQ(out.Dendrogram[vertex.Parent].Name, "Merge 2");
    }
  }
  EXPECT_EQ(underPhase1, (std::set<std::string>{ "Cluster 0", "Cluster 1" }));
}

TEST(LogicalPhaseClusters, WithoutClusteringEveryPhaseIsOneCluster)
{
  std::vector<double> metric;
  const LogicalTrace trace = TwoPhases(metric);
  PhaseClusterOptions options;
  options.Cluster = false;
  const PhaseClusters out = ClusterPhases(trace, metric, options);
  EXPECT_EQ(out.PhaseClusterCount, (std::vector<int32_t>{ 1, 1 }));
  for (int32_t cluster : out.EventCluster)
  {
    EXPECT_EQ(cluster, 0);
  }
  for (uint8_t medoid : out.Medoid)
  {
    EXPECT_EQ(medoid, 0);
  }
  ASSERT_EQ(out.Dendrogram.size(), 5u); // root, and per phase its vertex and "Cluster 0"
  EXPECT_EQ(out.Dendrogram[2].Name, "Cluster 0");
  EXPECT_EQ(out.Dendrogram[2].Size, 2);
  EXPECT_EQ(out.Dendrogram[4].Size, 4);
}

TEST(LogicalPhaseClusters, ProgressAborts)
{
  std::vector<double> metric;
  const LogicalTrace trace = TwoPhases(metric);
  int calls = 0;
  EXPECT_THROW(
    ClusterPhases(trace, metric, {}, [&calls](double) { return ++calls < 2; }), LogicalTimeAborted);
  EXPECT_EQ(calls, 2);
}

TEST(LogicalPhaseClusters, MetricSummedPerStep)
{
  std::vector<double> metric;
  LogicalTrace trace = TwoPhases(metric);
  AddEvent(trace, 0, 9, 1); // beyond the spans: not counted
  metric.push_back(100.0);
  std::vector<double> sum;
  std::vector<int64_t> count;
  SumMetricPerStep(trace, metric, sum, count);
  ASSERT_EQ(sum.size(), 4u);
  EXPECT_DOUBLE_EQ(sum[0], 12.0);
  EXPECT_DOUBLE_EQ(sum[1], 6.0);
  EXPECT_DOUBLE_EQ(sum[2], 20.1);
  EXPECT_DOUBLE_EQ(sum[3], 20.4);
  EXPECT_EQ(count, (std::vector<int64_t>{ 2, 1, 4, 4 }));
}
