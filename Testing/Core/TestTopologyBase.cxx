// Tests of the 3D scene's bases (Schnorr 2009 (Triva), sections 3.5.1-3.5.2): the
// communication graph of a window and its layout, and the DOT network
// topology with the processes placed on their hosts. Expectations worked
// out by hand in the comments.
#include "TopologyBase.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using macroscope::BuildCommunicationGraph;
using macroscope::CommunicationGraph;
using macroscope::NetworkTopology;
using macroscope::ParseNetworkTopology;
using macroscope::PlaceProcesses;
using macroscope::TopologyMessage;

namespace
{
double Distance(const std::vector<double>& x, const std::vector<double>& y, int64_t a, int64_t b)
{
  return std::hypot(x[a] - x[b], y[a] - y[b]);
}

void ExpectInUnitSquare(const std::vector<double>& x, const std::vector<double>& y)
{
  ASSERT_EQ(x.size(), y.size());
  for (std::size_t i = 0; i < x.size(); ++i)
  {
    EXPECT_TRUE(std::isfinite(x[i]) && std::isfinite(y[i])) << i;
    EXPECT_GE(x[i], 0.0) << i;
    EXPECT_LE(x[i], 1.0) << i;
    EXPECT_GE(y[i], 0.0) << i;
    EXPECT_LE(y[i], 1.0) << i;
  }
}

std::string Message(const std::string& dot)
{
  try
  {
    ParseNetworkTopology(dot);
  }
  catch (const std::invalid_argument& e)
  {
    return e.what();
  }
  return "no exception";
}
}

// Window [10, 20). Messages (sender, receiver, bytes, send, recv):
//  0->1 100 [11,12]  inside                         counts
//  1->0  50 [ 5,10]  ends at the window start       counts (end >= t0)
//  1->2  70 [20,21]  starts at the window end       out (start < t1 fails)
//  2->1  30 [ 8, 9]  before                         out
//  3->1  20 [19,25]  overlaps the end               counts
//  2->2 999 [12,13]  a process to itself            no edge
//  0->2  10 [25,15]  recv before send, flight [15,25] counts
// Edges: (0,1) 150 in 2 messages, (0,2) 10, (1,3) 20. Widths /150.
TEST(CommunicationGraph, HandGraph)
{
  const std::vector<TopologyMessage> messages = { { 0, 1, 100, 11, 12 }, { 1, 0, 50, 5, 10 },
    { 1, 2, 70, 20, 21 }, { 2, 1, 30, 8, 9 }, { 3, 1, 20, 19, 25 }, { 2, 2, 999, 12, 13 },
    { 0, 2, 10, 25, 15 } };
  const CommunicationGraph g = BuildCommunicationGraph(5, messages, 10.0, 20.0);
  ASSERT_EQ(g.Edges(), 3u);
  EXPECT_EQ(g.Source, (std::vector<int64_t>{ 0, 0, 1 }));
  EXPECT_EQ(g.Target, (std::vector<int64_t>{ 1, 2, 3 }));
  EXPECT_EQ(g.Traffic, (std::vector<double>{ 150, 10, 20 }));
  EXPECT_EQ(g.Messages, (std::vector<int64_t>{ 2, 1, 1 }));
  EXPECT_DOUBLE_EQ(g.Width[0], 1.0);
  EXPECT_DOUBLE_EQ(g.Width[1], 10.0 / 150.0);
  EXPECT_DOUBLE_EQ(g.Width[2], 20.0 / 150.0);
  // Process 4 is isolated, still placed.
  ASSERT_EQ(g.X.size(), 5u);
  ExpectInUnitSquare(g.X, g.Y);
}

TEST(CommunicationGraph, DeterministicAndDistinctPositions)
{
  std::vector<TopologyMessage> messages;
  for (int64_t p = 0; p < 8; ++p)
  {
    messages.push_back({ p, (p + 1) % 8, 1.0 + p, 0.0, 1.0 });
  }
  const CommunicationGraph a = BuildCommunicationGraph(10, messages, 0.0, 2.0);
  const CommunicationGraph b = BuildCommunicationGraph(10, messages, 0.0, 2.0);
  EXPECT_EQ(a.X, b.X);
  EXPECT_EQ(a.Y, b.Y);
  ExpectInUnitSquare(a.X, a.Y);
  for (int64_t i = 0; i < 10; ++i)
  {
    for (int64_t j = i + 1; j < 10; ++j)
    {
      EXPECT_GT(Distance(a.X, a.Y, i, j), 1e-3) << i << " " << j;
    }
  }
}

// Two cliques of 6, interleaved in the process order (even / odd) so that
// the initial circle does not already separate them: linked processes end
// closer on average than unlinked ones, and every process is nearer its own
// clique's centroid than the other's.
TEST(CommunicationGraph, TwoClustersGiveTwoGroups)
{
  const int n = 12;
  std::vector<TopologyMessage> messages;
  for (int i = 0; i < n; ++i)
  {
    for (int j = i + 1; j < n; ++j)
    {
      if (i % 2 == j % 2)
      {
        messages.push_back({ i, j, 1.0, 0.0, 0.5 });
      }
    }
  }
  const CommunicationGraph g = BuildCommunicationGraph(n, messages, 0.0, 1.0);
  ExpectInUnitSquare(g.X, g.Y);
  double linked = 0.0, unlinked = 0.0;
  int linkedCount = 0, unlinkedCount = 0;
  for (int i = 0; i < n; ++i)
  {
    for (int j = i + 1; j < n; ++j)
    {
      if (i % 2 == j % 2)
      {
        linked += Distance(g.X, g.Y, i, j);
        ++linkedCount;
      }
      else
      {
        unlinked += Distance(g.X, g.Y, i, j);
        ++unlinkedCount;
      }
    }
  }
  EXPECT_LT(linked / linkedCount, unlinked / unlinkedCount);
  double cx[2] = { 0, 0 }, cy[2] = { 0, 0 };
  for (int i = 0; i < n; ++i)
  {
    cx[i % 2] += g.X[i] / (n / 2);
    cy[i % 2] += g.Y[i] / (n / 2);
  }
  for (int i = 0; i < n; ++i)
  {
    const double own = std::hypot(g.X[i] - cx[i % 2], g.Y[i] - cy[i % 2]);
    const double other = std::hypot(g.X[i] - cx[1 - i % 2], g.Y[i] - cy[1 - i % 2]);
    EXPECT_LT(own, other) << i;
  }
}

TEST(CommunicationGraph, BadInput)
{
  EXPECT_THROW(BuildCommunicationGraph(2, {}, 1.0, 1.0), std::invalid_argument);
  EXPECT_THROW(BuildCommunicationGraph(2, {}, 0.0, NAN), std::invalid_argument);
  EXPECT_THROW(BuildCommunicationGraph(2, { { 0, 2, 1, 0, 1 } }, 0.0, 1.0), std::invalid_argument);
  EXPECT_THROW(BuildCommunicationGraph(2, { { 0, 1, -1, 0, 1 } }, 0.0, 1.0), std::invalid_argument);
  EXPECT_THROW(
    BuildCommunicationGraph(2, { { 0, 1, 1, NAN, 1 } }, 0.0, 1.0), std::invalid_argument);
  // No process: an empty graph, no crash.
  const CommunicationGraph empty = BuildCommunicationGraph(0, {}, 0.0, 1.0);
  EXPECT_TRUE(empty.X.empty());
  EXPECT_EQ(empty.Edges(), 0u);
  // One process: at the centre.
  const CommunicationGraph one = BuildCommunicationGraph(1, {}, 0.0, 1.0);
  EXPECT_EQ(one.X, (std::vector<double>{ 0.5 }));
  EXPECT_EQ(one.Y, (std::vector<double>{ 0.5 }));
}

// A switch and two hosts, bandwidth and latency on the links (one without).
// DOT numerals have no exponent: 1.25e9 must be quoted.
const char* const StarDot = R"(graph platform {
  switch [kind="switch"];
  host1 [type="host"];
  host2 [kind="host"];
  switch -- host1 [bandwidth="1.25e9", latency="5e-05"];
  switch -- host2 [bandwidth="125000000"];
})";

TEST(NetworkTopology, HandDot)
{
  const NetworkTopology t = ParseNetworkTopology(StarDot);
  EXPECT_FALSE(t.Directed);
  ASSERT_EQ(t.Nodes(), 3u);
  // Nodes in name order: host1 0, host2 1, switch 2.
  EXPECT_EQ(t.Names, (std::vector<std::string>{ "host1", "host2", "switch" }));
  EXPECT_EQ(t.Kinds, (std::vector<std::string>{ "host", "host", "switch" }));
  ASSERT_EQ(t.Links(), 2u);
  EXPECT_EQ(t.Source, (std::vector<int64_t>{ 2, 2 }));
  EXPECT_EQ(t.Target, (std::vector<int64_t>{ 0, 1 }));
  EXPECT_DOUBLE_EQ(t.Bandwidth[0], 1.25e9);
  EXPECT_DOUBLE_EQ(t.Latency[0], 5e-5);
  EXPECT_DOUBLE_EQ(t.Bandwidth[1], 1.25e8);
  EXPECT_TRUE(std::isnan(t.Latency[1]));
  ExpectInUnitSquare(t.X, t.Y);
  // The layout separates the nodes, and is the same on every parse.
  EXPECT_GT(Distance(t.X, t.Y, 0, 1), 1e-3);
  EXPECT_EQ(ParseNetworkTopology(StarDot).X, t.X);

  // Processes placed on their hosts by the nearest matching ancestor name:
  // p0 under host1; p1 under host2 (the cluster name "switch" is farther);
  // p2 is itself named like a node.
  const std::vector<std::vector<std::string>> paths = { { "grid", "host1", "p0" },
    { "switch", "host2", "rank1" }, { "grid", "host2" } };
  EXPECT_EQ(PlaceProcesses(paths, t), (std::vector<int64_t>{ 0, 1, 1 }));
}

TEST(NetworkTopology, Digraph)
{
  const NetworkTopology t = ParseNetworkTopology("digraph { a -> b [latency=2]; b -> c; }");
  EXPECT_TRUE(t.Directed);
  EXPECT_EQ(t.Names, (std::vector<std::string>{ "a", "b", "c" }));
  ASSERT_EQ(t.Links(), 2u);
  EXPECT_DOUBLE_EQ(t.Latency[0], 2.0);
  EXPECT_TRUE(std::isnan(t.Bandwidth[0]));
}

// pos "x,y" honoured: (0,0), (4,0), (4,2), the "!" pin suffix accepted.
// Normalised by the extent 4, centred vertically: y offset (4 - 2) / 2 = 1.
TEST(NetworkTopology, PosAttributesHonoured)
{
  const NetworkTopology t = ParseNetworkTopology(
    R"(graph { a [pos="0,0"]; b [pos="4,0!"]; c [pos="4,2"]; a -- b; b -- c; })");
  EXPECT_EQ(t.X, (std::vector<double>{ 0.0, 1.0, 1.0 }));
  EXPECT_EQ(t.Y, (std::vector<double>{ 0.25, 0.25, 0.75 }));
}

TEST(NetworkTopology, ClearErrors)
{
  const std::string syntax = Message("graph { a -- ; }");
  EXPECT_NE(syntax.find("malformed DOT"), std::string::npos) << syntax;
  const std::string noBrace = Message("graph { a -- b");
  EXPECT_NE(noBrace.find("DOT topology"), std::string::npos) << noBrace;
  EXPECT_NE(Message("graph { }").find("no node"), std::string::npos);
  const std::string bandwidth = Message("graph { a -- b [bandwidth=fast]; }");
  EXPECT_NE(bandwidth.find("bandwidth 'fast' is not a number"), std::string::npos) << bandwidth;
  EXPECT_NE(bandwidth.find("a -- b"), std::string::npos) << bandwidth;
  const std::string partial = Message(R"(graph { a [pos="0,0"]; b; a -- b; })");
  EXPECT_NE(partial.find("node b has no pos"), std::string::npos) << partial;
  const std::string badPos = Message(R"(graph { a [pos="0;0"]; })");
  EXPECT_NE(badPos.find("pos '0;0'"), std::string::npos) << badPos;
}

TEST(NetworkTopology, UnknownHost)
{
  const NetworkTopology t = ParseNetworkTopology(StarDot);
  try
  {
    PlaceProcesses({ { "grid", "host1", "p0" }, { "grid", "host9", "p1" } }, t);
    FAIL() << "an unknown host must throw";
  }
  catch (const std::invalid_argument& e)
  {
    const std::string what = e.what();
    EXPECT_NE(what.find("process p1"), std::string::npos) << what;
    EXPECT_NE(what.find("p1, host9, grid"), std::string::npos) << what;
  }
}

TEST(TopologyBase, SpreadLabelsKeepsNoTwoOverlapping)
{
  // Three labels in a heap, one apart: the heap keeps its highest priority.
  const std::vector<double> x{ 0.50, 0.51, 0.52, 0.90 };
  const std::vector<double> y{ 0.50, 0.50, 0.51, 0.10 };
  EXPECT_EQ(macroscope::SpreadLabels(x, y, { 1.0, 3.0, 2.0, 0.0 }, 0.1, 0.05),
    (std::vector<std::size_t>{ 1, 3 }));
  // Boxes of no size: all kept; ties keep the first.
  EXPECT_EQ(macroscope::SpreadLabels(x, y, { 0, 0, 0, 0 }, 0.0, 0.0).size(), 4u);
  EXPECT_EQ(
    macroscope::SpreadLabels(x, y, { 0, 0, 0, 0 }, 0.1, 0.05), (std::vector<std::size_t>{ 0, 3 }));
  // Random heaps: every pair kept is apart, every label dropped meets a kept one.
  std::mt19937 random(7);
  std::uniform_real_distribution<double> at(0.0, 1.0);
  std::vector<double> rx(64), ry(64), rp(64);
  for (std::size_t i = 0; i < 64; ++i)
  {
    rx[i] = at(random);
    ry[i] = at(random);
    rp[i] = at(random);
  }
  const auto kept = macroscope::SpreadLabels(rx, ry, rp, 0.14, 0.06);
  EXPECT_LT(kept.size(), 64u);
  for (std::size_t a = 0; a < kept.size(); ++a)
  {
    for (std::size_t b = a + 1; b < kept.size(); ++b)
    {
      EXPECT_TRUE(
        std::abs(rx[kept[a]] - rx[kept[b]]) >= 0.14 || std::abs(ry[kept[a]] - ry[kept[b]]) >= 0.06);
    }
  }
  for (std::size_t i = 0; i < 64; ++i)
  {
    if (std::find(kept.begin(), kept.end(), i) == kept.end())
    {
      EXPECT_TRUE(std::any_of(kept.begin(), kept.end(),
        [&](std::size_t k)
        { return std::abs(rx[i] - rx[k]) < 0.14 && std::abs(ry[i] - ry[k]) < 0.06; }));
    }
  }
  EXPECT_THROW(macroscope::SpreadLabels(x, y, { 1.0 }, 0.1, 0.1), std::invalid_argument);
}
