// Tests of BuildResourceHierarchy and AggregateHierarchy (Triva's aggregation
// model, Schnorr 2009 (Triva) §4.3). Expectations worked out by hand below.
#include "ResourceHierarchy.h"
#include "TimeSlicing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

using macroscope::AggregateHierarchy;
using macroscope::AggregationFunction;
using macroscope::BuildResourceHierarchy;
using macroscope::DeepestLevel;
using macroscope::ResourceHierarchy;

namespace
{
// machine -> cluster -> node -> process -> thread (depths 0..4):
//
//  v0 machine
//  ├─ v1 cluster c0
//  │  ├─ v2 node n0
//  │  │  ├─ v3 process p0
//  │  │  │  ├─ v4 thread      leaf 0
//  │  │  │  └─ v5 thread      leaf 1
//  │  │  └─ v6 process p1     leaf 2 (no threads: a leaf at depth 3)
//  │  └─ v7 node n1
//  │     └─ v8 process p2
//  │        └─ v9 thread      leaf 3
//  └─ v10 cluster c1
//     ├─ v11 node n2          leaf 4 (a leaf at depth 2)
//     └─ v12 node n3
//        └─ v13 process p3
//           ├─ v14 thread     leaf 5
//           └─ v15 thread     leaf 6
const std::vector<int64_t> MachineParent = { -1, 0, 1, 2, 3, 3, 2, 1, 7, 8, 0, 10, 10, 12, 13, 13 };
const std::vector<int64_t> MachineLeaf = { -1, -1, -1, -1, 0, 1, 2, -1, -1, 3, -1, 4, -1, -1, 5,
  6 };

// Structural checks that hold for every hierarchy: resources first, one
// root, last; every parent after its child; each vertex at most once; every
// leaf folds into a resource that is the leaf or one of its ancestors.
void ExpectWellFormed(const ResourceHierarchy& h, const std::vector<int64_t>& parent,
  const std::vector<int64_t>& leafIndex)
{
  const std::size_t nodes = h.Parent.size();
  ASSERT_EQ(h.Vertex.size(), nodes);
  ASSERT_GE(nodes, std::size_t(h.Resources));
  ASSERT_GT(nodes, 0u);
  EXPECT_EQ(h.Parent.back(), -1);
  for (std::size_t n = 0; n + 1 < nodes; ++n)
  {
    EXPECT_GT(h.Parent[n], static_cast<int64_t>(n)) << "node " << n;
    EXPECT_LT(h.Parent[n], static_cast<int64_t>(nodes));
    EXPECT_GE(h.Parent[n], static_cast<int64_t>(h.Resources))
      << "a resource has no resource parent";
    EXPECT_EQ(parent[h.Vertex[n]], h.Vertex[h.Parent[n]]) << "node " << n;
  }
  EXPECT_EQ(std::set<int64_t>(h.Vertex.begin(), h.Vertex.end()).size(), nodes);
  for (std::size_t v = 0; v < leafIndex.size(); ++v)
  {
    if (leafIndex[v] < 0)
    {
      continue;
    }
    const uint32_t r = h.ResourceOfLeaf.at(static_cast<std::size_t>(leafIndex[v]));
    ASSERT_LT(r, h.Resources);
    bool ancestor = false;
    for (int64_t a = static_cast<int64_t>(v); a >= 0; a = parent[a])
    {
      ancestor = ancestor || a == h.Vertex[r];
    }
    EXPECT_TRUE(ancestor) << "leaf " << leafIndex[v];
  }
}
}

TEST(ResourceHierarchy, LevelMinusOneMakesEveryLeafAResource)
{
  const ResourceHierarchy h = BuildResourceHierarchy(MachineParent, MachineLeaf, -1);
  ExpectWellFormed(h, MachineParent, MachineLeaf);
  // Resources: the leaves in leaf order. Inner nodes deepest first, then by
  // vertex: depth 3 {v3, v8, v13}, depth 2 {v2, v7, v12}, depth 1 {v1,
  // v10}, the root v0.
  EXPECT_EQ(h.Resources, 7u);
  EXPECT_EQ(
    h.Vertex, (std::vector<int64_t>{ 4, 5, 6, 9, 11, 14, 15, 3, 8, 13, 2, 7, 12, 1, 10, 0 }));
  // v4,v5 -> v3 (7); v6 -> v2 (10); v9 -> v8 (8); v11 -> v10 (14);
  // v14,v15 -> v13 (9); v3 -> v2; v8 -> v7 (11); v13 -> v12 (12);
  // v2, v7 -> v1 (13); v12 -> v10; v1, v10 -> v0 (15).
  EXPECT_EQ(
    h.Parent, (std::vector<int64_t>{ 7, 7, 10, 8, 14, 9, 9, 10, 11, 12, 13, 13, 14, 15, 15, -1 }));
  EXPECT_EQ(h.ResourceOfLeaf, (std::vector<uint32_t>{ 0, 1, 2, 3, 4, 5, 6 }));
}

TEST(ResourceHierarchy, LevelZeroIsTheRootAlone)
{
  const ResourceHierarchy h = BuildResourceHierarchy(MachineParent, MachineLeaf, 0);
  ExpectWellFormed(h, MachineParent, MachineLeaf);
  EXPECT_EQ(h.Resources, 1u);
  EXPECT_EQ(h.Vertex, (std::vector<int64_t>{ 0 }));
  EXPECT_EQ(h.Parent, (std::vector<int64_t>{ -1 }));
  EXPECT_EQ(h.ResourceOfLeaf, (std::vector<uint32_t>(7, 0)));
}

TEST(ResourceHierarchy, LevelOneFoldsIntoClusters)
{
  const ResourceHierarchy h = BuildResourceHierarchy(MachineParent, MachineLeaf, 1);
  ExpectWellFormed(h, MachineParent, MachineLeaf);
  EXPECT_EQ(h.Resources, 2u);
  EXPECT_EQ(h.Vertex, (std::vector<int64_t>{ 1, 10, 0 }));
  EXPECT_EQ(h.Parent, (std::vector<int64_t>{ 2, 2, -1 }));
  // Leaves 0..3 under c0, 4..6 under c1.
  EXPECT_EQ(h.ResourceOfLeaf, (std::vector<uint32_t>{ 0, 0, 0, 0, 1, 1, 1 }));
}

TEST(ResourceHierarchy, LevelTwoFoldsIntoNodesAndKeepsShallowerLeaves)
{
  const ResourceHierarchy h = BuildResourceHierarchy(MachineParent, MachineLeaf, 2);
  ExpectWellFormed(h, MachineParent, MachineLeaf);
  // Nodes n0 (leaves 0-2), n1 (3), n2 (itself leaf 4), n3 (5, 6); then the
  // clusters v1, v10 and the root.
  EXPECT_EQ(h.Resources, 4u);
  EXPECT_EQ(h.Vertex, (std::vector<int64_t>{ 2, 7, 11, 12, 1, 10, 0 }));
  EXPECT_EQ(h.Parent, (std::vector<int64_t>{ 4, 4, 5, 5, 6, 6, -1 }));
  EXPECT_EQ(h.ResourceOfLeaf, (std::vector<uint32_t>{ 0, 0, 0, 1, 2, 3, 3 }));
}

TEST(ResourceHierarchy, LevelThreeKeepsLeavesShallowerThanTheLevel)
{
  const ResourceHierarchy h = BuildResourceHierarchy(MachineParent, MachineLeaf, 3);
  ExpectWellFormed(h, MachineParent, MachineLeaf);
  // Processes p0 (leaves 0, 1), p1 (leaf 2 itself), p2 (3), node n2 (leaf 4
  // at depth 2 < 3 stays its own resource), p3 (5, 6). Inner: depth 2 {v2,
  // v7, v12}, depth 1 {v1, v10}, root.
  EXPECT_EQ(h.Resources, 5u);
  EXPECT_EQ(h.Vertex, (std::vector<int64_t>{ 3, 6, 8, 11, 13, 2, 7, 12, 1, 10, 0 }));
  // v3, v6 -> v2 (5); v8 -> v7 (6); v11 -> v10 (9); v13 -> v12 (7);
  // v2, v7 -> v1 (8); v12 -> v10 (9); v1, v10 -> root (10).
  EXPECT_EQ(h.Parent, (std::vector<int64_t>{ 5, 5, 6, 9, 7, 8, 8, 9, 10, 10, -1 }));
  EXPECT_EQ(h.ResourceOfLeaf, (std::vector<uint32_t>{ 0, 0, 1, 2, 3, 4, 4 }));
}

TEST(ResourceHierarchy, LevelBelowEveryLeafIsLevelMinusOne)
{
  const ResourceHierarchy deep = BuildResourceHierarchy(MachineParent, MachineLeaf, 10);
  const ResourceHierarchy leaves = BuildResourceHierarchy(MachineParent, MachineLeaf, -1);
  EXPECT_EQ(deep.Vertex, leaves.Vertex);
  EXPECT_EQ(deep.Parent, leaves.Parent);
  EXPECT_EQ(deep.ResourceOfLeaf, leaves.ResourceOfLeaf);
}

TEST(ResourceHierarchy, ResourcesInLeafOrderWhateverTheVertexOrder)
{
  // Breadth-first numbering: root 0 -> {1, 2}; 1 -> {3, 4}; 2 -> {5}, with
  // v4 holding leaf 0 and v3 leaf 1: resources follow the leaf indexes, not
  // the vertex ids.
  const std::vector<int64_t> parent = { -1, 0, 0, 1, 1, 2 };
  const std::vector<int64_t> leafIndex = { -1, -1, -1, 1, 0, 2 };
  const ResourceHierarchy h = BuildResourceHierarchy(parent, leafIndex, -1);
  ExpectWellFormed(h, parent, leafIndex);
  EXPECT_EQ(h.Vertex, (std::vector<int64_t>{ 4, 3, 5, 1, 2, 0 }));
  EXPECT_EQ(h.Parent, (std::vector<int64_t>{ 3, 3, 4, 5, 5, -1 }));
  // Level 1: v1 holds leaves 0 and 1, v2 leaf 2.
  const ResourceHierarchy l1 = BuildResourceHierarchy(parent, leafIndex, 1);
  EXPECT_EQ(l1.Vertex, (std::vector<int64_t>{ 1, 2, 0 }));
  EXPECT_EQ(l1.ResourceOfLeaf, (std::vector<uint32_t>{ 0, 0, 1 }));
}

TEST(ResourceHierarchy, MalformedTreesThrow)
{
  // LeafIndex of the wrong size.
  EXPECT_THROW(BuildResourceHierarchy({ -1, 0 }, { -1 }, -1), std::invalid_argument);
  // A parent after its child; a parent out of range; two roots.
  EXPECT_THROW(BuildResourceHierarchy({ -1, 2, 0 }, { -1, 0, -1 }, -1), std::invalid_argument);
  EXPECT_THROW(BuildResourceHierarchy({ -1, -7 }, { -1, 0 }, -1), std::invalid_argument);
  EXPECT_THROW(BuildResourceHierarchy({ -1, 0, -1 }, { -1, 0, 1 }, -1), std::invalid_argument);
  // The root with a parent (itself).
  EXPECT_THROW(BuildResourceHierarchy({ 0, 0 }, { -1, 0 }, -1), std::invalid_argument);
  // A leaf index beyond the number of leaves, and a leaf index used twice.
  EXPECT_THROW(BuildResourceHierarchy({ -1, 0, 0 }, { -1, 0, 2 }, -1), std::invalid_argument);
  EXPECT_THROW(BuildResourceHierarchy({ -1, 0, 0 }, { -1, 1, 1 }, -1), std::invalid_argument);
  // A well-formed one does not throw.
  EXPECT_NO_THROW(BuildResourceHierarchy({ -1, 0, 0 }, { -1, 1, 0 }, -1));
}

namespace
{
// Triva's Figure 4.7 / Table 4.2 entities A..E (leaves 0..4) under grid G.
//   grouping 1 (the brief's): M1 = {A, B}, M2 = {C}, M3 = {D, E};
//                            C1 = {M1, M2}, C2 = {M3}.
// Vertices: v0 G, v1 C1, v2 C2, v3 M1, v4 M2, v5 M3, v6..v10 A..E.
const std::vector<int64_t> TrivaParent = { -1, 0, 0, 1, 1, 2, 3, 3, 4, 5, 5 };
const std::vector<int64_t> TrivaLeaf = { -1, -1, -1, -1, -1, -1, 0, 1, 2, 3, 4 };
// Two values per entity: Blocked, Executing (Table 4.2).
const std::vector<double> TrivaValues = { 5, 4, 2, 7, 6, 3, 0, 9, 5, 4 };

std::size_t NodeOf(const ResourceHierarchy& h, int64_t vertex)
{
  const auto it = std::find(h.Vertex.begin(), h.Vertex.end(), vertex);
  EXPECT_NE(it, h.Vertex.end()) << "vertex " << vertex;
  return static_cast<std::size_t>(it - h.Vertex.begin());
}

void ExpectNode(const ResourceHierarchy& h, const std::vector<double>& values, int64_t vertex,
  double blocked, double executing, const char* what)
{
  const std::size_t n = NodeOf(h, vertex);
  EXPECT_NEAR(values.at(2 * n), blocked, 1e-12) << what << " Blocked";
  EXPECT_NEAR(values.at(2 * n + 1), executing, 1e-12) << what << " Executing";
}
}

TEST(ResourceHierarchy, TrivaAggregationSum)
{
  const ResourceHierarchy h = BuildResourceHierarchy(TrivaParent, TrivaLeaf, -1);
  ExpectWellFormed(h, TrivaParent, TrivaLeaf);
  const auto v = AggregateHierarchy(h, TrivaValues, 2, AggregationFunction::Sum);
  ASSERT_EQ(v.size(), 2 * h.Parent.size());
  // Resources keep their values.
  ExpectNode(h, v, 6, 5, 4, "A");
  ExpectNode(h, v, 10, 5, 4, "E");
  // M1 = A + B = 5 + 2, 4 + 7; M2 = C; M3 = D + E = 0 + 5, 9 + 4.
  ExpectNode(h, v, 3, 7, 11, "M1");
  ExpectNode(h, v, 4, 6, 3, "M2");
  ExpectNode(h, v, 5, 5, 13, "M3");
  // C1 = M1 + M2 = 13, 14; C2 = M3 = 5, 13; G = 18, 27 (every entity spends
  // the 9 seconds of the slice in one of the two states: 5 × 9 = 45 = 18 + 27).
  ExpectNode(h, v, 1, 13, 14, "C1");
  ExpectNode(h, v, 2, 5, 13, "C2");
  ExpectNode(h, v, 0, 18, 27, "G");
}

TEST(ResourceHierarchy, TrivaTextClusterC1)
{
  // The seed's text reads "the cluster C1 stayed 7 seconds in the Blocked
  // state and 11 seconds in the Executing state": that is the grouping
  // C1 = {M1}, C2 = {M2, M3}, under which C1 = A + B = 7, 11 and
  // C2 = C + D + E = 6 + 0 + 5, 3 + 9 + 4 = 11, 16.
  // Vertices: v0 G, v1 C1, v2 C2, v3 M1, v4 M2, v5 M3, v6..v10 A..E.
  const std::vector<int64_t> parent = { -1, 0, 0, 1, 2, 2, 3, 3, 4, 5, 5 };
  const ResourceHierarchy h = BuildResourceHierarchy(parent, TrivaLeaf, -1);
  const auto v = AggregateHierarchy(h, TrivaValues, 2, AggregationFunction::Sum);
  ExpectNode(h, v, 1, 7, 11, "C1");
  ExpectNode(h, v, 2, 11, 16, "C2");
  ExpectNode(h, v, 0, 18, 27, "G");
}

TEST(ResourceHierarchy, TrivaAggregationMinMaxMean)
{
  const ResourceHierarchy h = BuildResourceHierarchy(TrivaParent, TrivaLeaf, -1);
  const auto mn = AggregateHierarchy(h, TrivaValues, 2, AggregationFunction::Min);
  // Blocked A5 B2 C6 D0 E5, Executing A4 B7 C3 D9 E4.
  ExpectNode(h, mn, 3, 2, 4, "min M1"); // min(5, 2), min(4, 7)
  ExpectNode(h, mn, 4, 6, 3, "min M2");
  ExpectNode(h, mn, 5, 0, 4, "min M3"); // min(0, 5), min(9, 4)
  ExpectNode(h, mn, 1, 2, 3, "min C1"); // min over A, B, C
  ExpectNode(h, mn, 2, 0, 4, "min C2");
  ExpectNode(h, mn, 0, 0, 3, "min G");
  ExpectNode(h, mn, 7, 2, 7, "min B"); // a resource keeps its value
  const auto mx = AggregateHierarchy(h, TrivaValues, 2, AggregationFunction::Max);
  ExpectNode(h, mx, 3, 5, 7, "max M1");
  ExpectNode(h, mx, 4, 6, 3, "max M2");
  ExpectNode(h, mx, 5, 5, 9, "max M3");
  ExpectNode(h, mx, 1, 6, 7, "max C1");
  ExpectNode(h, mx, 2, 5, 9, "max C2");
  ExpectNode(h, mx, 0, 6, 9, "max G");
  // Mean over the resources below (not the mean of the children's means):
  // C1 = (5 + 2 + 6) / 3, (4 + 7 + 3) / 3; G = 18 / 5, 27 / 5.
  const auto avg = AggregateHierarchy(h, TrivaValues, 2, AggregationFunction::Mean);
  ExpectNode(h, avg, 3, 3.5, 5.5, "mean M1");
  ExpectNode(h, avg, 4, 6, 3, "mean M2");
  ExpectNode(h, avg, 5, 2.5, 6.5, "mean M3");
  ExpectNode(h, avg, 1, 13.0 / 3, 14.0 / 3, "mean C1");
  ExpectNode(h, avg, 2, 2.5, 6.5, "mean C2");
  ExpectNode(h, avg, 0, 3.6, 5.4, "mean G");
  ExpectNode(h, avg, 8, 6, 3, "mean C (entity)");
}

TEST(ResourceHierarchy, TrivaExampleFromStatesThroughSliceTrace)
{
  // Table 4.2's states, sliced (one 9-second slice) into the model with the
  // hierarchy at the machine level (depth 2): M1 = 7, 11; M2 = 6, 3;
  // M3 = 5, 13, then aggregated: C1 = 13, 14; C2 = 5, 13; G = 18, 27.
  // Each entity: Blocked (type 0) first, then Executing (type 1).
  const double blocked[5] = { 5, 2, 6, 0, 5 };
  std::vector<uint32_t> location, type, depth;
  std::vector<double> start, end;
  for (uint32_t e = 0; e < 5; ++e)
  {
    for (uint32_t u = 0; u < 2; ++u)
    {
      location.push_back(e);
      type.push_back(u);
      depth.push_back(0);
      start.push_back(u == 0 ? 0.0 : blocked[e]);
      end.push_back(u == 0 ? blocked[e] : 9.0);
    }
  }
  macroscope::StateRows rows;
  rows.Location = location.data();
  rows.Type = type.data();
  rows.Depth = depth.data();
  rows.Start = start.data();
  rows.End = end.data();
  rows.Count = location.size();

  const ResourceHierarchy h = BuildResourceHierarchy(TrivaParent, TrivaLeaf, 2);
  ASSERT_EQ(h.Resources, 3u);
  macroscope::TimeSlicingOptions o;
  o.Grid.Begin = 0;
  o.Grid.End = 9;
  o.Grid.Slices = 1;
  o.Leaves = 5;
  o.Types = 2;
  o.ResourceOfLeaf = h.ResourceOfLeaf;
  o.Resources = h.Resources;
  const macroscope::MicroscopicModel m = macroscope::SliceTrace(o, rows, {}, {});
  // One slice: Value(s, 0, u) at s + resources * u; regroup as (s, u).
  std::vector<double> perResource(2 * h.Resources);
  for (uint32_t s = 0; s < h.Resources; ++s)
  {
    for (uint32_t u = 0; u < 2; ++u)
    {
      perResource[2 * s + u] = m.At(s, 0, u);
    }
  }
  const auto v = AggregateHierarchy(h, perResource, 2, AggregationFunction::Sum);
  ExpectNode(h, v, 3, 7, 11, "M1");
  ExpectNode(h, v, 4, 6, 3, "M2");
  ExpectNode(h, v, 5, 5, 13, "M3");
  ExpectNode(h, v, 1, 13, 14, "C1");
  ExpectNode(h, v, 2, 5, 13, "C2");
  ExpectNode(h, v, 0, 18, 27, "G");
}

TEST(ResourceHierarchy, RandomValuesRootSumAndOrdering)
{
  // On the machine tree at every level: the root's sum is the sum of the
  // resources; at every node min <= mean <= max, and the mean times the
  // number of resources below is the sum.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> value(-10.0, 10.0);
  constexpr std::size_t width = 3;
  for (int level : { -1, 0, 1, 2, 3 })
  {
    const ResourceHierarchy h = BuildResourceHierarchy(MachineParent, MachineLeaf, level);
    std::vector<double> resources(h.Resources * width);
    for (double& x : resources)
    {
      x = value(rng);
    }
    const auto sum = AggregateHierarchy(h, resources, width, AggregationFunction::Sum);
    const auto mn = AggregateHierarchy(h, resources, width, AggregationFunction::Min);
    const auto mx = AggregateHierarchy(h, resources, width, AggregationFunction::Max);
    const auto avg = AggregateHierarchy(h, resources, width, AggregationFunction::Mean);
    const std::size_t nodes = h.Parent.size();
    // Resources below each node, counted by walking up from each resource.
    std::vector<double> below(nodes, 0.0);
    std::vector<std::vector<double>> bruteSum(nodes, std::vector<double>(width, 0.0));
    for (std::size_t r = 0; r < h.Resources; ++r)
    {
      for (int64_t n = static_cast<int64_t>(r); n >= 0; n = h.Parent[n])
      {
        below[n] += 1;
        for (std::size_t k = 0; k < width; ++k)
        {
          bruteSum[n][k] += resources[r * width + k];
        }
      }
    }
    for (std::size_t n = 0; n < nodes; ++n)
    {
      for (std::size_t k = 0; k < width; ++k)
      {
        const std::size_t i = n * width + k;
        EXPECT_NEAR(sum[i], bruteSum[n][k], 1e-12) << "level " << level << " node " << n;
        EXPECT_LE(mn[i], avg[i] + 1e-12);
        EXPECT_LE(avg[i], mx[i] + 1e-12);
        EXPECT_NEAR(avg[i] * below[n], sum[i], 1e-9);
      }
    }
    EXPECT_EQ(below.back(), double(h.Resources)) << "the root is above every resource";
  }
}

TEST(ResourceHierarchy, AggregateRejectsBadInput)
{
  const ResourceHierarchy h = BuildResourceHierarchy(TrivaParent, TrivaLeaf, -1);
  EXPECT_THROW(AggregateHierarchy(h, std::vector<double>(9, 1.0), 2, AggregationFunction::Sum),
    std::invalid_argument);
  ResourceHierarchy wrong = h;
  wrong.Parent.back() = 0; // the last node's parent before it
  EXPECT_THROW(
    AggregateHierarchy(wrong, TrivaValues, 2, AggregationFunction::Sum), std::invalid_argument);
  ResourceHierarchy beyond = h;
  beyond.Parent[0] = static_cast<int64_t>(h.Parent.size()); // no such node
  EXPECT_THROW(
    AggregateHierarchy(beyond, TrivaValues, 2, AggregationFunction::Sum), std::invalid_argument);
}

TEST(ResourceHierarchy, DeepestLevelIsTheLongestPath)
{
  EXPECT_EQ(DeepestLevel(MachineParent), 4);
  EXPECT_EQ(DeepestLevel({ -1 }), 0);
  EXPECT_EQ(DeepestLevel({ -1, 0, 0, 2 }), 2);
  EXPECT_THROW(DeepestLevel({ 1, -1 }), std::invalid_argument);
}
