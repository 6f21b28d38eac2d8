// Tests of what places and selects the scene's objects (Schnorr 2009 (Triva), sections
// 3.5 and 5.4): the treemap base, processes sharing a host, the states
// stacked above a process (innermost at each moment, or one depth), and the
// communication graph merged from several ranks' edge lists.
#include "TopologyBase.h"
#include "TopologyScene.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

using macroscope::CommunicationEdges;
using macroscope::CommunicationGraph;
using macroscope::DrawnStates;
using macroscope::LayoutCommunicationGraph;
using macroscope::LayoutTreemapBase;
using macroscope::ProcessOffsets;
using macroscope::SceneState;
using macroscope::TopologyMessage;
using macroscope::TracedState;

TEST(ProcessOffsets, GridCentredOnHost)
{
  // Host 0 holds processes 0, 2, 3, 5 (a 2 x 2 grid), host 7 holds 1 and 4
  // (2 columns, 1 row), host 9 holds 6 alone (at the host itself).
  const std::vector<int64_t> host = { 0, 7, 0, 0, 7, 0, 9 };
  const std::vector<double> o = ProcessOffsets(host, 0.5);
  const std::vector<double> expected = { -0.25, 0.25, -0.25, 0.0, 0.25, 0.25, -0.25, -0.25, 0.25,
    0.0, 0.25, -0.25, 0.0, 0.0 };
  ASSERT_EQ(o.size(), expected.size());
  for (std::size_t i = 0; i < o.size(); ++i)
  {
    EXPECT_DOUBLE_EQ(o[i], expected[i]) << i;
  }
  EXPECT_THROW(ProcessOffsets(host, -1.0), std::invalid_argument);
  EXPECT_THROW(ProcessOffsets(host, NAN), std::invalid_argument);
}

TEST(TreemapBase, ProcessesInsideTheirMachines)
{
  // root 0 -> machines 1, 2; machine 1 -> processes 3, 4; machine 2 -> 5.
  const std::vector<int64_t> parent = { -1, 0, 0, 1, 1, 2 };
  const std::vector<int64_t> node = { 3, 4, 5 };
  const auto base = LayoutTreemapBase(parent, node, { 1.0, 1.0, 2.0 }, 0.0);
  ASSERT_EQ(base.X.size(), 3u);
  // Areas follow the sizes: each machine holds half of the unit square.
  EXPECT_NEAR(base.Layout.Rects[1].Area(), 0.5, 1e-12);
  EXPECT_NEAR(base.Layout.Rects[2].Area(), 0.5, 1e-12);
  EXPECT_NEAR(base.Layout.Rects[3].Area(), 0.25, 1e-12);
  for (std::size_t p = 0; p < 3; ++p)
  {
    const auto& machine = base.Layout.Rects[static_cast<std::size_t>(parent[node[p]])];
    EXPECT_GT(base.X[p], machine.X0);
    EXPECT_LT(base.X[p], machine.X1);
    EXPECT_GT(base.Y[p], machine.Y0);
    EXPECT_LT(base.Y[p], machine.Y1);
    const auto& own = base.Layout.Rects[static_cast<std::size_t>(node[p])];
    EXPECT_DOUBLE_EQ(base.X[p], (own.X0 + own.X1) / 2.0);
    EXPECT_DOUBLE_EQ(base.Y[p], (own.Y0 + own.Y1) / 2.0);
  }
  // A margin keeps the processes off their machine's border.
  const auto framed = LayoutTreemapBase(parent, node, { 1.0, 1.0, 2.0 }, 0.05);
  for (std::size_t p = 0; p < 3; ++p)
  {
    const auto& machine = framed.Layout.Rects[static_cast<std::size_t>(parent[node[p]])];
    const auto& own = framed.Layout.Rects[static_cast<std::size_t>(node[p])];
    EXPECT_GE(own.X0, machine.X0 + 0.05 - 1e-12);
    EXPECT_LE(own.Y1, machine.Y1 - 0.05 + 1e-12);
  }
  EXPECT_THROW(LayoutTreemapBase(parent, { 3, 3, 5 }, { 1, 1, 1 }, 0.0), std::invalid_argument);
  EXPECT_THROW(LayoutTreemapBase(parent, { 1, 4, 5 }, { 1, 1, 1 }, 0.0), std::invalid_argument);
  EXPECT_THROW(LayoutTreemapBase(parent, { 3, 4 }, { 1, 1, 1 }, 0.0), std::invalid_argument);
  EXPECT_THROW(LayoutTreemapBase(parent, { 3, 4, 9 }, { 1, 1, 1 }, 0.0), std::invalid_argument);
  EXPECT_THROW(LayoutTreemapBase(parent, node, { 1, -1, 1 }, 0.0), std::invalid_argument);
}

TEST(DrawnStates, HandStack)
{
  // Process 0: main [0,10) calls a [1,4) which calls b [2,3), then c [6,8).
  // Process 1: x [0,5) alone; a zero-length y [7,7).
  const std::vector<TracedState> states = { { 10, 0, 0, 0, 0.0, 10.0 }, { 11, 0, 1, 1, 1.0, 4.0 },
    { 12, 0, 2, 2, 2.0, 3.0 }, { 13, 0, 3, 1, 6.0, 8.0 }, { 20, 1, 4, 0, 0.0, 5.0 },
    { 21, 1, 5, 0, 7.0, 7.0 } };
  std::vector<int64_t> rows;
  std::vector<SceneState> drawn = DrawnStates(states, -1, rows);
  struct Piece
  {
    int64_t Row;
    double Start, End;
  };
  std::vector<Piece> got;
  for (std::size_t i = 0; i < drawn.size(); ++i)
  {
    got.push_back({ rows[i], drawn[i].Start, drawn[i].End });
  }
  std::sort(got.begin(), got.end(),
    [](const Piece& a, const Piece& b)
    { return a.Row != b.Row ? a.Row < b.Row : a.Start < b.Start; });
  const std::vector<Piece> expected = { { 10, 0, 1 }, { 10, 4, 6 }, { 10, 8, 10 }, { 11, 1, 2 },
    { 11, 3, 4 }, { 12, 2, 3 }, { 13, 6, 8 }, { 20, 0, 5 } };
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i)
  {
    EXPECT_EQ(got[i].Row, expected[i].Row) << i;
    EXPECT_DOUBLE_EQ(got[i].Start, expected[i].Start) << i;
    EXPECT_DOUBLE_EQ(got[i].End, expected[i].End) << i;
  }

  // One depth: the states of that depth as they are.
  drawn = DrawnStates(states, 1, rows);
  ASSERT_EQ(rows, (std::vector<int64_t>{ 11, 13 }));
  EXPECT_DOUBLE_EQ(drawn[0].Start, 1.0);
  EXPECT_DOUBLE_EQ(drawn[1].End, 8.0);
  EXPECT_EQ(drawn[1].Type, 3);
  EXPECT_THROW(DrawnStates(states, -2, rows), std::invalid_argument);
}

TEST(DrawnStates, InnermostMatchesBruteForce)
{
  // Random properly nested stacks on three processes: at every probe time
  // exactly one piece covers it, the deepest state containing the time.
  std::mt19937 random(11);
  for (int trial = 0; trial < 40; ++trial)
  {
    std::vector<TracedState> states;
    int64_t row = 0;
    for (int64_t process = 0; process < 3; ++process)
    {
      // Recursively split [0, 100) into nested intervals.
      struct Span
      {
        double Start, End;
        int Depth;
      };
      std::vector<Span> todo = { { 0.0, 100.0, 0 } };
      while (!todo.empty())
      {
        const Span span = todo.back();
        todo.pop_back();
        states.push_back(
          { row++, process, static_cast<int>(random() % 5), span.Depth, span.Start, span.End });
        if (span.Depth < 4 && span.End - span.Start > 4.0)
        {
          std::uniform_real_distribution<double> cut(span.Start, span.End);
          double a = cut(random), b = cut(random);
          if (a > b)
            std::swap(a, b);
          todo.push_back({ a, b, span.Depth + 1 });
        }
      }
    }
    std::shuffle(states.begin(), states.end(), random);
    std::vector<int64_t> rows;
    const std::vector<SceneState> drawn = DrawnStates(states, -1, rows);
    for (double t = 0.05; t < 100.0; t += 0.1)
    {
      for (int64_t process = 0; process < 3; ++process)
      {
        int64_t deepest = -1;
        int depth = -1;
        for (const TracedState& s : states)
        {
          if (s.Process == process && s.Start <= t && t < s.End && s.Depth > depth)
          {
            deepest = s.Row;
            depth = s.Depth;
          }
        }
        int covering = 0;
        int64_t shown = -1;
        for (std::size_t i = 0; i < drawn.size(); ++i)
        {
          if (drawn[i].Process == process && drawn[i].Start <= t && t < drawn[i].End)
          {
            ++covering;
            shown = rows[i];
          }
        }
        ASSERT_EQ(covering, 1) << "trial " << trial << " t " << t;
        ASSERT_EQ(shown, deepest) << "trial " << trial << " t " << t;
      }
    }
  }
}

TEST(CommunicationGraph, RankPartsMergeToTheWholeGraph)
{
  // The messages split over two "ranks" give the graph of all of them.
  std::vector<TopologyMessage> all;
  std::mt19937 random(5);
  for (int m = 0; m < 200; ++m)
  {
    all.push_back({ static_cast<int64_t>(random() % 12), static_cast<int64_t>(random() % 12),
      static_cast<double>(random() % 1000), (random() % 100) / 10.0, (random() % 100) / 10.0 });
  }
  const std::vector<TopologyMessage> first(all.begin(), all.begin() + 77);
  const std::vector<TopologyMessage> second(all.begin() + 77, all.end());
  const CommunicationGraph whole = macroscope::BuildCommunicationGraph(12, all, 2.0, 7.0);
  const CommunicationGraph merged = LayoutCommunicationGraph(
    12, { CommunicationEdges(12, first, 2.0, 7.0), CommunicationEdges(12, second, 2.0, 7.0) });
  EXPECT_EQ(merged.Source, whole.Source);
  EXPECT_EQ(merged.Target, whole.Target);
  EXPECT_EQ(merged.Messages, whole.Messages);
  EXPECT_EQ(merged.Traffic, whole.Traffic);
  EXPECT_EQ(merged.Width, whole.Width);
  EXPECT_EQ(merged.X, whole.X);
  EXPECT_EQ(merged.Y, whole.Y);
  CommunicationGraph bad;
  bad.Source = { 0 };
  bad.Target = { 12 };
  bad.Traffic = { 1.0 };
  bad.Messages = { 1 };
  EXPECT_THROW(LayoutCommunicationGraph(12, { bad }), std::invalid_argument);
  bad.Target = { 1 };
  bad.Traffic = { -1.0 };
  EXPECT_THROW(LayoutCommunicationGraph(12, { bad }), std::invalid_argument);
  bad.Messages = {};
  EXPECT_THROW(LayoutCommunicationGraph(12, { bad }), std::invalid_argument);
}
