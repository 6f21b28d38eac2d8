// Tests of what the topology-time scene draws on its base
// (TopologySceneDrawing.h, docs/topology-scene.md): processes sharing a
// host, the automatic box, the selection of states, the treemap's sizes and
// rectangles, the links' widths and the process names kept. Worked by hand.
#include "TopologySceneDrawing.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

using namespace macroscope;

TEST(TopologySceneDrawing, ClosestPairAndAutomaticBox)
{
  EXPECT_DOUBLE_EQ(ClosestPairDistance({ 0.0, 0.3, 1.0 }, { 0.0, 0.4, 0.0 }), 0.5);
  // Points that coincide do not count; a lone point has no pair.
  EXPECT_DOUBLE_EQ(ClosestPairDistance({ 0.0, 0.0, 0.1 }, { 0.0, 0.0, 0.0 }), 0.1);
  EXPECT_TRUE(std::isinf(ClosestPairDistance({ 0.5 }, { 0.5 })));
  EXPECT_DOUBLE_EQ(AutomaticBoxSize({ 0.0, 0.1 }, { 0.0, 0.0 }), 0.06);
  EXPECT_DOUBLE_EQ(AutomaticBoxSize({ 0.0, 1.0 }, { 0.0, 0.0 }), 0.08);
}

TEST(TopologySceneDrawing, ProcessesOfAHostOnAGridInsideHalfTheGap)
{
  NetworkTopology topology;
  topology.Names = { "a", "b" };
  topology.X = { 0.0, 1.0 };
  topology.Y = { 0.0, 0.0 };
  // Host a holds 4 processes (2 columns), host b 1: the gap is capped at
  // 0.25, the spacing 0.45 * 0.25 / 2.
  const HostPlacement placement = PlaceOnHosts(topology, { 0, 0, 1, 0, 0 });
  const double spacing = 0.45 * 0.25 / 2.0;
  EXPECT_DOUBLE_EQ(placement.HostSide, 2.0 * spacing);
  ASSERT_EQ(placement.X.size(), 5u);
  EXPECT_DOUBLE_EQ(placement.X[2], 1.0); // alone on its host
  EXPECT_DOUBLE_EQ(placement.Y[2], 0.0);
  for (std::size_t p : { 0u, 1u, 3u, 4u })
  {
    EXPECT_NEAR(std::abs(placement.X[p]), 0.5 * spacing, 1e-12);
    EXPECT_NEAR(std::abs(placement.Y[p]), 0.5 * spacing, 1e-12);
  }
}

TEST(TopologySceneDrawing, StateTimeInsideTheWindowOnly)
{
  const std::vector<SceneState> drawn = { { 0, 0, 0.0, 2.0 }, { 1, 0, 1.5, 1.8 },
    { 0, 1, 5.0, 6.0 } };
  // Process 0: 1 s of its first state in [1, 3], nothing of the one after
  // the window (not a negative time); process 1: 0.3 s; process 2: none.
  const std::vector<double> time = StateTimeOfProcesses(drawn, 3, 1.0, 3.0);
  ASSERT_EQ(time.size(), 3u);
  EXPECT_DOUBLE_EQ(time[0], 1.0);
  EXPECT_NEAR(time[1], 0.3, 1e-12);
  EXPECT_DOUBLE_EQ(time[2], 0.0);
}

TEST(TopologySceneDrawing, SelectionKeepsStatesAndRowsTogether)
{
  std::vector<SceneState> drawn = { { 0, 0, 0.0, 1.0 }, { 1, 1, 0.0, 1.0 }, { 1, 2, 0.0, 1.0 },
    { 0, 1, 0.0, 1.0 } };
  std::vector<int64_t> rows = { 10, 11, 12, 13 };
  KeepSelectedStates(drawn, rows, { false, true }, { false, true });
  EXPECT_EQ(rows, (std::vector<int64_t>{ 11 }));
  ASSERT_EQ(drawn.size(), 1u);
  EXPECT_EQ(drawn[0].Type, 1);
  // Nothing selected: all kept.
  std::vector<SceneState> all = { { 0, 5, 0.0, 1.0 } };
  std::vector<int64_t> allRows = { 3 };
  KeepSelectedStates(all, allRows, {}, {});
  EXPECT_EQ(allRows.size(), 1u);
}

TEST(TopologySceneDrawing, LinksWidenWithTheirBandwidth)
{
  NetworkTopology topology;
  topology.Source = { 0, 0, 1 };
  topology.Target = { 1, 2, 2 };
  topology.Bandwidth = { 10.0, 5.0, std::numeric_limits<double>::quiet_NaN() };
  const std::vector<double> widths = LinkWidths(topology, 0.02);
  ASSERT_EQ(widths.size(), 3u);
  EXPECT_DOUBLE_EQ(widths[0], 0.004 + 0.01);
  EXPECT_DOUBLE_EQ(widths[1], 0.004 + 0.005);
  EXPECT_DOUBLE_EQ(widths[2], 0.004);
}

TEST(TopologySceneDrawing, TreemapNamesMachinesNotProcesses)
{
  // root 0 -> machine 1 -> process 2 -> thread 3; root -> machine 4 -> thread 5.
  const std::vector<int64_t> parent = { -1, 0, 1, 2, 0, 4 };
  TreemapLayout layout;
  layout.Rects.assign(6, TreemapRect{ 0.0, 0.0, 0.5, 0.5 });
  layout.Rects[4] = TreemapRect{ 0.5, 0.5, 0.5, 1.0 }; // no area: not drawn
  layout.Depth = { 0, 1, 2, 3, 1, 2 };
  layout.Size.assign(6, 1.0);
  const auto cells = TreemapBaseCells(parent, { 3, 5 }, layout);
  // Drawn: root, machine 1, process 2 (it holds thread 3); threads are the
  // processes here.
  ASSERT_EQ(cells.size(), 3u);
  EXPECT_EQ(cells[0].Node, 0u);
  EXPECT_FALSE(cells[0].Named); // the root
  EXPECT_EQ(cells[1].Node, 1u);
  EXPECT_TRUE(cells[1].Named);
  EXPECT_EQ(cells[1].Shade, 190);
  EXPECT_EQ(cells[2].Node, 2u);
  EXPECT_FALSE(cells[2].Named); // it holds a process
  EXPECT_DOUBLE_EQ(cells[2].Z, -0.0035 + 0.0004);
}

TEST(TopologySceneDrawing, BusiestProcessNamedFirstCloseOnesLeftOut)
{
  CommunicationGraph graph;
  graph.Source = { 0, 1 };
  graph.Target = { 1, 2 };
  graph.Traffic = { 10.0, 50.0 };
  // 0 and 1 are too close for two names; 2 is far. Traffic: 0 = 10,
  // 1 = 60, 2 = 50.
  const std::vector<double> x = { 0.0, 0.1, 0.9 };
  const std::vector<double> y = { 0.0, 0.0, 0.9 };
  EXPECT_EQ(NamedProcesses(x, y, {}, graph), (std::vector<std::size_t>{ 1, 2 }));
  // Process 1 not selected: 0 takes its place.
  EXPECT_EQ(NamedProcesses(x, y, { true, false, true }, graph), (std::vector<std::size_t>{ 2, 0 }));
}
