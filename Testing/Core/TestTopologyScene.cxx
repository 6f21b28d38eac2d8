// Tests of the 3D scene's geometry (Schnorr 2009 (Triva), sections 3.6 and 5.4.3): box
// heights are durations times the scale, boxes and messages are clipped to
// the window, segment ends sit above their processes at the right heights,
// and the ticks follow the time axis. Expectations worked out by hand.
#include "TopologyScene.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

using macroscope::BuildTopologyScene;
using macroscope::SceneMessage;
using macroscope::SceneOptions;
using macroscope::SceneState;
using macroscope::TopologySceneGeometry;

namespace
{
// Three processes at (0,0), (1,0), (1,1); window [10, 20), offset 2,
// scale 0.5: z(t) = 2 + 0.5 (t - 10).
const std::vector<double> X = { 0.0, 1.0, 1.0 };
const std::vector<double> Y = { 0.0, 0.0, 1.0 };

SceneOptions Options()
{
  SceneOptions o;
  o.WindowStart = 10.0;
  o.WindowEnd = 20.0;
  o.Offset = 2.0;
  o.Scale = 0.5;
  o.BoxSize = 0.2;
  o.Ticks = 5;
  return o;
}
}

TEST(TopologyScene, BoxesAreDurationsTimesScale)
{
  // (process, type, start, end):
  //  0: p0 [11, 15]  inside, height 4 * 0.5 = 2, z 2.5..4.5
  //  1: p1 [ 5, 12]  clipped to [10, 12]: z 2..3
  //  2: p2 [18, 30]  clipped to [18, 20]: z 6..7
  //  3: p0 [ 0, 10]  ends at the window start: no box
  //  4: p1 [20, 21]  starts at the window end: no box
  //  5: p2 [ 0, 40]  covers the window: z 2..7
  //  6: p0 [13, 13]  zero length: no box
  const std::vector<SceneState> states = { { 0, 1, 11, 15 }, { 1, 2, 5, 12 }, { 2, 3, 18, 30 },
    { 0, 4, 0, 10 }, { 1, 5, 20, 21 }, { 2, 6, 0, 40 }, { 0, 7, 13, 13 } };
  const TopologySceneGeometry scene = BuildTopologyScene(X, Y, states, {}, Options());
  ASSERT_EQ(scene.Boxes.size(), 4u);
  const std::vector<int64_t> expectedState = { 0, 1, 2, 5 };
  const std::vector<double> zmin = { 2.5, 2.0, 6.0, 2.0 }, zmax = { 4.5, 3.0, 7.0, 7.0 };
  for (std::size_t i = 0; i < 4; ++i)
  {
    const auto& box = scene.Boxes[i];
    const SceneState& s = states[expectedState[i]];
    EXPECT_EQ(box.State, expectedState[i]);
    EXPECT_EQ(box.Process, s.Process);
    EXPECT_EQ(box.Type, s.Type);
    EXPECT_DOUBLE_EQ(box.Bounds[4], zmin[i]) << i;
    EXPECT_DOUBLE_EQ(box.Bounds[5], zmax[i]) << i;
    // Square footprint of side 0.2 centred on the process.
    EXPECT_DOUBLE_EQ(box.Bounds[0], X[s.Process] - 0.1);
    EXPECT_DOUBLE_EQ(box.Bounds[1], X[s.Process] + 0.1);
    EXPECT_DOUBLE_EQ(box.Bounds[2], Y[s.Process] - 0.1);
    EXPECT_DOUBLE_EQ(box.Bounds[3], Y[s.Process] + 0.1);
  }
  // Unclipped: height = duration * scale.
  EXPECT_DOUBLE_EQ(scene.Boxes[0].Bounds[5] - scene.Boxes[0].Bounds[4], (15.0 - 11.0) * 0.5);
}

TEST(TopologyScene, SegmentsEndAboveTheirProcesses)
{
  // (sender, receiver, send, recv):
  //  0: p0 -> p1 [12, 14]  inside: (0,0,3) -> (1,0,4)
  //  1: p1 -> p2 [ 6, 14]  send before: cut at t=10, u = 4/8 = 0.5,
  //                        (1, 0.5, 2) -> (1,1,4)
  //  2: p2 -> p0 [16, 26]  recv after: cut at t=20, u = 4/10 = 0.4,
  //                        (1,1,5) -> (0.6,0.6,7)
  //  3: p0 -> p2 [ 1,  9]  before: none
  //  4: p1 -> p0 [22, 12]  recv before send (skewed clocks): the flight
  //                        [12, 22] overlaps; the send end is cut at t=20,
  //                        u = (20-22)/(12-22) = 0.2: (0.8,0,7) -> (0,0,3)
  const std::vector<SceneMessage> messages = { { 0, 1, 12, 14 }, { 1, 2, 6, 14 }, { 2, 0, 16, 26 },
    { 0, 2, 1, 9 }, { 1, 0, 22, 12 } };
  const TopologySceneGeometry scene = BuildTopologyScene(X, Y, {}, messages, Options());
  ASSERT_EQ(scene.Segments.size(), 4u);
  using P = std::array<double, 3>;
  const std::vector<int64_t> id = { 0, 1, 2, 4 };
  const std::vector<P> from = { { 0, 0, 3 }, { 1, 0.5, 2 }, { 1, 1, 5 }, { 0.8, 0, 7 } };
  const std::vector<P> to = { { 1, 0, 4 }, { 1, 1, 4 }, { 0.6, 0.6, 7 }, { 0, 0, 3 } };
  const std::vector<bool> clipped = { false, true, true, true };
  for (std::size_t i = 0; i < id.size(); ++i)
  {
    const auto& s = scene.Segments[i];
    EXPECT_EQ(s.Message, id[i]);
    EXPECT_EQ(s.Clipped, clipped[i]) << i;
    for (int c = 0; c < 3; ++c)
    {
      EXPECT_NEAR(s.From[c], from[i][c], 1e-12) << i << " " << c;
      EXPECT_NEAR(s.To[c], to[i][c], 1e-12) << i << " " << c;
    }
  }
}

TEST(TopologyScene, Ticks)
{
  // [10, 20) with about 5 ticks: step 2, ticks 10, 12, ..., 20 at
  // z = 2, 3, ..., 7; the first tick sits at the offset.
  const TopologySceneGeometry scene = BuildTopologyScene(X, Y, {}, {}, Options());
  ASSERT_EQ(scene.Ticks.size(), 6u);
  for (std::size_t i = 0; i < scene.Ticks.size(); ++i)
  {
    EXPECT_DOUBLE_EQ(scene.Ticks[i].Time, 10.0 + 2.0 * i);
    EXPECT_DOUBLE_EQ(scene.Ticks[i].Z, 2.0 + 1.0 * i);
    EXPECT_FALSE(scene.Ticks[i].Label.empty());
  }
  EXPECT_EQ(scene.Ticks[1].Label, "12 s");
  EXPECT_DOUBLE_EQ(scene.Axis.Z(10.0), 2.0);
}

TEST(TopologyScene, BadInput)
{
  SceneOptions o = Options();
  o.Scale = 0.0;
  EXPECT_THROW(BuildTopologyScene(X, Y, {}, {}, o), std::invalid_argument);
  o = Options();
  o.WindowEnd = o.WindowStart;
  EXPECT_THROW(BuildTopologyScene(X, Y, {}, {}, o), std::invalid_argument);
  o = Options();
  o.BoxSize = -1.0;
  EXPECT_THROW(BuildTopologyScene(X, Y, {}, {}, o), std::invalid_argument);
  o = Options();
  o.Ticks = 0;
  EXPECT_THROW(BuildTopologyScene(X, Y, {}, {}, o), std::invalid_argument);
  EXPECT_THROW(BuildTopologyScene(X, { 0.0 }, {}, {}, Options()), std::invalid_argument);
  EXPECT_THROW(
    BuildTopologyScene(X, Y, { { 3, 0, 11, 12 } }, {}, Options()), std::invalid_argument);
  EXPECT_THROW(
    BuildTopologyScene(X, Y, { { 0, 0, 12, 11 } }, {}, Options()), std::invalid_argument);
  EXPECT_THROW(
    BuildTopologyScene(X, Y, {}, { { 0, -1, 11, 12 } }, Options()), std::invalid_argument);
  EXPECT_THROW(
    BuildTopologyScene(X, Y, {}, { { 0, 1, NAN, 12 } }, Options()), std::invalid_argument);
}
