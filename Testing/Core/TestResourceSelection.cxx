// Tests of the resource subset (Core/ResourceSelection.h and the
// keepLeaf argument of BuildResourceHierarchy) and of slicing a model on a
// subset of the locations. Expectations worked out by hand below.
#include "ResourceHierarchy.h"
#include "ResourceSelection.h"
#include "TimeSlicing.h"
#include "TraceRowsBuilders.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using macroscope::BuildResourceHierarchy;
using macroscope::FindVertices;
using macroscope::NoResource;
using macroscope::ResourceHierarchy;
using macroscope::SelectLeaves;
using macroscope::VertexPath;
using macroscope::VertexPaths;

namespace
{
// machine -> cluster -> node -> process -> thread (depths 0..4):
//
//  v0 machine
//  ├─ v1 c0
//  │  ├─ v2 n0
//  │  │  ├─ v3 p0
//  │  │  │  ├─ v4 Master thread   leaf 0
//  │  │  │  └─ v5 OMP thread 1    leaf 1
//  │  │  └─ v6 p1                 leaf 2 (no threads)
//  │  └─ v7 n1
//  │     └─ v8 p2
//  │        └─ v9 Master thread   leaf 3
//  └─ v10 c1
//     ├─ v11 n2                   leaf 4
//     └─ v12 n3
//        └─ v13 p3
//           ├─ v14 Master thread  leaf 5
//           └─ v15 OMP thread 1   leaf 6
const std::vector<int64_t> Parent = { -1, 0, 1, 2, 3, 3, 2, 1, 7, 8, 0, 10, 10, 12, 13, 13 };
const std::vector<int64_t> Leaf = { -1, -1, -1, -1, 0, 1, 2, -1, -1, 3, -1, 4, -1, -1, 5, 6 };
const std::vector<std::string> Names = { "machine", "c0", "n0", "p0", "Master thread",
  "OMP thread 1", "p1", "n1", "p2", "Master thread", "c1", "n2", "n3", "p3", "Master thread",
  "OMP thread 1" };
const std::size_t Leaves = 7;

std::vector<bool> Keep(std::initializer_list<int> leaves)
{
  std::vector<bool> keep(Leaves, false);
  for (int leaf : leaves)
  {
    keep[leaf] = true;
  }
  return keep;
}
}

TEST(ResourceSelection, Paths)
{
  const auto paths = VertexPaths(Parent, Names);
  EXPECT_EQ(paths[0], "machine");
  EXPECT_EQ(paths[2], "machine/c0/n0");
  EXPECT_EQ(paths[15], "machine/c1/n3/p3/OMP thread 1");
  EXPECT_THROW(VertexPaths({ -1, 0 }, { "r" }), std::invalid_argument);
}

TEST(ResourceSelection, OneVertexPath)
{
  const auto paths = VertexPaths(Parent, Names);
  for (std::size_t v = 0; v < Parent.size(); ++v)
  {
    EXPECT_EQ(VertexPath(Parent, Names, v), paths[v]) << "vertex " << v;
  }
  EXPECT_THROW(VertexPath(Parent, Names, Parent.size()), std::invalid_argument);
  EXPECT_THROW(VertexPath({ -1, 1 }, { "r", "loop" }, 1), std::invalid_argument);
}

TEST(ResourceSelection, NamesPathsAndPathsBelowTheRoot)
{
  // A name designates every vertex of that name.
  EXPECT_EQ(FindVertices(Names, Parent, "Master thread"), (std::vector<int64_t>{ 4, 9, 14 }));
  EXPECT_EQ(FindVertices(Names, Parent, "c1"), (std::vector<int64_t>{ 10 }));
  // A path from the root designates one vertex; so does one below the root.
  EXPECT_EQ(
    FindVertices(Names, Parent, "machine/c1/n3/p3/Master thread"), (std::vector<int64_t>{ 14 }));
  EXPECT_EQ(FindVertices(Names, Parent, "c0/n0/p1"), (std::vector<int64_t>{ 6 }));
  EXPECT_EQ(FindVertices(Names, Parent, "machine"), (std::vector<int64_t>{ 0 }));
  // Nothing: a partial name, a path that does not start at the root or
  // just below it, a path with a missing component.
  EXPECT_TRUE(FindVertices(Names, Parent, "Master").empty());
  EXPECT_TRUE(FindVertices(Names, Parent, "n0/p1").empty());
  EXPECT_TRUE(FindVertices(Names, Parent, "machine/n0").empty());
  EXPECT_TRUE(FindVertices(Names, Parent, "").empty());

  // A name holding the separator is a name first; as a path it cannot be
  // told from the path through "a", so the path designates both.
  const std::vector<int64_t> parent = { -1, 0, 0, 2 };
  const std::vector<std::string> names = { "r", "a/b", "a", "b" };
  EXPECT_EQ(FindVertices(names, parent, "a/b"), (std::vector<int64_t>{ 1 }));
  EXPECT_EQ(FindVertices(names, parent, "r/a/b"), (std::vector<int64_t>{ 1, 3 }));
}

namespace
{
// FindVertices as it was first written (a path per vertex), on every
// vertex's whole path: the reference the linear walk must equal.
std::vector<int64_t> FindVerticesByWholePaths(const std::vector<std::string>& names,
  const std::vector<int64_t>& parent, const std::string& query)
{
  const std::vector<std::string> paths = VertexPaths(parent, names);
  std::vector<int64_t> found;
  for (std::size_t v = 0; v < names.size(); ++v)
  {
    if (names[v] == query)
    {
      found.push_back(static_cast<int64_t>(v));
    }
  }
  if (!found.empty() || query.find('/') == std::string::npos)
  {
    return found;
  }
  for (std::size_t v = 0; v < paths.size(); ++v)
  {
    if (paths[v] == query)
    {
      found.push_back(static_cast<int64_t>(v));
    }
  }
  if (!found.empty())
  {
    return found;
  }
  for (std::size_t v = 0; v < paths.size(); ++v)
  {
    std::size_t root = v;
    while (parent[root] >= 0)
    {
      root = static_cast<std::size_t>(parent[root]);
    }
    const std::size_t skip = names[root].size() + 1;
    if (root != v && paths[v].size() > skip &&
      paths[v].compare(skip, std::string::npos, query) == 0)
    {
      found.push_back(static_cast<int64_t>(v));
    }
  }
  return found;
}
}

TEST(ResourceSelection, SameVerticesAsWholePathsOnRandomForests)
{
  // Short names from a small alphabet, some empty or holding the separator,
  // so that names, paths and paths below a root collide often.
  const std::vector<std::string> alphabet = { "a", "b", "a/b", "", "b/", "ab" };
  std::mt19937 random(24);
  std::size_t matched = 0;
  for (int round = 0; round < 300; ++round)
  {
    const std::size_t n = 1 + random() % 30;
    std::vector<int64_t> parent(n);
    std::vector<std::string> names(n);
    for (std::size_t v = 0; v < n; ++v)
    {
      // A few roots (a forest), most vertices below an earlier one.
      parent[v] = v == 0 || random() % 8 == 0 ? -1 : static_cast<int64_t>(random() % v);
      names[v] = alphabet[random() % alphabet.size()];
    }
    const auto paths = VertexPaths(parent, names);
    std::vector<std::string> queries = { "", "/", "a//b", "zz/a" };
    for (int q = 0; q < 6; ++q)
    {
      const std::string& path = paths[random() % n];
      queries.push_back(path);
      const std::size_t slash = path.find('/');
      if (slash != std::string::npos)
      {
        queries.push_back(path.substr(slash + 1));
      }
    }
    for (const std::string& query : queries)
    {
      const auto expected = FindVerticesByWholePaths(names, parent, query);
      ASSERT_EQ(FindVertices(names, parent, query), expected)
        << "round " << round << ", query \"" << query << "\"";
      matched += expected.empty() ? 0 : 1;
    }
  }
  EXPECT_GT(matched, 1000u) << "the random queries should mostly designate vertices";
}

TEST(ResourceSelection, DeepChainInLinearMemory)
{
  // A 40,000-deep chain (a deep Pajé nesting): every vertex's path
  // would hold 40,000^2 / 2 names, about 5 GB; the selection must stay in
  // a child process under 64 MB of peak RSS.
  constexpr std::size_t Depth = 40000;
  std::vector<int64_t> parent(Depth + 1);
  std::vector<int64_t> leaf(Depth + 1, -1);
  std::vector<std::string> names(Depth + 1);
  names[0] = "0";
  parent[0] = -1;
  for (std::size_t d = 1; d <= Depth; ++d)
  {
    parent[d] = static_cast<int64_t>(d - 1);
    names[d] = "n" + std::to_string(d);
  }
  leaf[Depth] = 0;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0)
  {
    const std::string path = VertexPath(parent, names, Depth);
    const std::string belowRoot = path.substr(2);
    int status = 0;
    if (path.rfind("0/n1/n2/", 0) != 0 || path.size() < 6 * Depth)
    {
      status = 10;
    }
    else if (FindVertices(names, parent, path) != std::vector<int64_t>{ Depth } ||
      FindVertices(names, parent, belowRoot) != std::vector<int64_t>{ Depth } ||
      FindVertices(names, parent, belowRoot + "/x").size() != 0)
    {
      status = 11;
    }
    else if (SelectLeaves(parent, leaf, names, { belowRoot, "n20000" }) !=
      std::vector<bool>{ true })
    {
      status = 12;
    }
    struct rusage usage;
    ::getrusage(RUSAGE_SELF, &usage);
    if (status == 0 && usage.ru_maxrss > 64 * 1024)
    {
      std::fprintf(stderr, "peak RSS %ld MB\n", usage.ru_maxrss / 1024);
      status = 13;
    }
    ::_exit(status);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the child died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0)
    << "10: wrong path, 11: wrong vertices, 12: wrong leaves, 13: over 64 MB";
}

TEST(ResourceSelection, LeavesBelowTheNamedVertices)
{
  EXPECT_EQ(SelectLeaves(Parent, Leaf, Names, { "n1", "c1" }), Keep({ 3, 4, 5, 6 }));
  EXPECT_EQ(SelectLeaves(Parent, Leaf, Names, { "Master thread" }), Keep({ 0, 3, 5 }));
  // A named location keeps itself; repeated and nested names add nothing.
  EXPECT_EQ(SelectLeaves(Parent, Leaf, Names, { "machine/c0/n0/p0/OMP thread 1" }), Keep({ 1 }));
  EXPECT_EQ(
    SelectLeaves(Parent, Leaf, Names, { "p0", "p0", "c0/n0/p0/Master thread" }), Keep({ 0, 1 }));
  EXPECT_EQ(SelectLeaves(Parent, Leaf, Names, { "machine" }), std::vector<bool>(Leaves, true));
  // No names: every leaf (an empty vector, BuildResourceHierarchy's "all").
  EXPECT_TRUE(SelectLeaves(Parent, Leaf, Names, {}).empty());
}

TEST(ResourceSelection, UnknownNamesAreNamed)
{
  try
  {
    SelectLeaves(Parent, Leaf, Names, { "c0", "c7", "machine/c0/n9" });
    FAIL() << "unknown names were accepted";
  }
  catch (const macroscope::UnknownResource& error)
  {
    EXPECT_EQ(error.Unknown, (std::vector<std::string>{ "c7", "machine/c0/n9" }));
    const std::string message = error.what();
    EXPECT_NE(message.find("\"c7\""), std::string::npos) << message;
    EXPECT_NE(message.find("\"machine/c0/n9\""), std::string::npos) << message;
    EXPECT_EQ(message.find("\"c0\""), std::string::npos) << message;
  }
  // A vertex with no location below it selects nothing: an error, not an
  // empty model.
  const std::vector<int64_t> parent = { -1, 0, 0 };
  const std::vector<int64_t> leaf = { -1, 0, -1 };
  const std::vector<std::string> names = { "r", "t", "empty" };
  EXPECT_THROW(SelectLeaves(parent, leaf, names, { "empty" }), std::invalid_argument);
  EXPECT_EQ(SelectLeaves(parent, leaf, names, { "empty", "t" }), std::vector<bool>{ true });
}

TEST(ResourceSelection, PrunedHierarchyOfLocations)
{
  // n1 and c1: leaves 3..6. Resources in leaf order v9, v11, v14, v15; inner
  // nodes the ancestors of those, deepest first (v8, v13 | v7, v12 | v1, v10
  // | v0). c0 keeps its single child n1; n0, p0, p1 disappear.
  const ResourceHierarchy h =
    BuildResourceHierarchy(Parent, Leaf, -1, SelectLeaves(Parent, Leaf, Names, { "n1", "c1" }));
  EXPECT_EQ(h.Resources, 4u);
  EXPECT_EQ(h.Vertex, (std::vector<int64_t>{ 9, 11, 14, 15, 8, 13, 7, 12, 1, 10, 0 }));
  EXPECT_EQ(h.Parent, (std::vector<int64_t>{ 4, 9, 5, 5, 6, 7, 8, 9, 10, 10, -1 }));
  EXPECT_EQ(
    h.ResourceOfLeaf, (std::vector<uint32_t>{ NoResource, NoResource, NoResource, 0, 1, 2, 3 }));
}

TEST(ResourceSelection, PrunedHierarchyAtALevel)
{
  // Master threads at level 3 (processes): the processes that keep one,
  // p0, p2, p3; p1 (a thread-less process) and n2 (a leaf node) disappear.
  const ResourceHierarchy h =
    BuildResourceHierarchy(Parent, Leaf, 3, SelectLeaves(Parent, Leaf, Names, { "Master thread" }));
  EXPECT_EQ(h.Resources, 3u);
  EXPECT_EQ(h.Vertex, (std::vector<int64_t>{ 3, 8, 13, 2, 7, 12, 1, 10, 0 }));
  EXPECT_EQ(h.Parent, (std::vector<int64_t>{ 3, 4, 5, 6, 6, 7, 8, 8, -1 }));
  EXPECT_EQ(h.ResourceOfLeaf,
    (std::vector<uint32_t>{ 0, NoResource, NoResource, 1, NoResource, 2, NoResource }));
  // Every leaf kept: the same hierarchy as without a selection.
  const ResourceHierarchy all =
    BuildResourceHierarchy(Parent, Leaf, 2, std::vector<bool>(Leaves, true));
  const ResourceHierarchy none = BuildResourceHierarchy(Parent, Leaf, 2);
  EXPECT_EQ(all.Vertex, none.Vertex);
  EXPECT_EQ(all.Parent, none.Parent);
  EXPECT_EQ(all.ResourceOfLeaf, none.ResourceOfLeaf);
  EXPECT_THROW(
    BuildResourceHierarchy(Parent, Leaf, -1, std::vector<bool>(3, true)), std::invalid_argument);
}

TEST(ResourceSelection, SlicingASubsetGivesTheFullModelsRows)
{
  // Brute force: random states, events and messages on the 7 leaves; the
  // model of a subset has, for each kept leaf, the row the full model has.
  using namespace macroscope;
  std::mt19937 random(7);
  std::uniform_real_distribution<double> time(0.0, 10.0);
  macroscope::testing::States states;
  macroscope::testing::Points events;
  macroscope::testing::Messages messages;
  for (uint32_t leaf = 0; leaf < Leaves; ++leaf)
  {
    double t = 0.0;
    for (int i = 0; i < 20; ++i)
    {
      const double start = t + time(random) * 0.05;
      const double end = start + time(random) * 0.05;
      states.Add(leaf, static_cast<uint32_t>(random() % 3), 0, start, end);
      events.Add(leaf, static_cast<uint32_t>(random() % 3), time(random));
      const double sent = time(random);
      messages.Add(leaf, static_cast<uint32_t>(random() % Leaves), sent, sent + 0.1, 100.0);
      t = end;
    }
  }
  const std::vector<bool> keep = SelectLeaves(Parent, Leaf, Names, { "p0", "n3" });
  const ResourceHierarchy subset = BuildResourceHierarchy(Parent, Leaf, -1, keep);
  ASSERT_EQ(subset.Resources, 4u);
  for (SliceMetric metric : { SliceMetric::StateDuration, SliceMetric::EventCount,
         SliceMetric::MessagesSent, SliceMetric::BytesReceivedRate })
  {
    TimeSlicingOptions o;
    o.Grid = { 0.0, 10.0, 13 };
    o.Metric = metric;
    o.Leaves = Leaves;
    o.Types = 3;
    o.Threads = 2;
    const MicroscopicModel full = SliceTrace(o, states.Rows(), events.Rows(), messages.Rows());
    o.ResourceOfLeaf = subset.ResourceOfLeaf;
    o.Resources = subset.Resources;
    const MicroscopicModel part = SliceTrace(o, states.Rows(), events.Rows(), messages.Rows());
    ASSERT_EQ(part.Resources, 4u);
    double kept = 0.0;
    for (uint32_t leaf = 0; leaf < Leaves; ++leaf)
    {
      const uint32_t r = subset.ResourceOfLeaf[leaf];
      EXPECT_EQ(r != NoResource, static_cast<bool>(keep[leaf]));
      for (uint32_t u = 0; r != NoResource && u < part.Types; ++u)
      {
        for (int t = 0; t < 13; ++t)
        {
          EXPECT_DOUBLE_EQ(part.At(r, t, u), full.At(leaf, t, u))
            << "metric " << int(metric) << " leaf " << leaf << " slice " << t;
          kept += full.At(leaf, t, u);
        }
      }
    }
    double sum = 0.0;
    for (double v : part.Values)
    {
      sum += v;
    }
    EXPECT_NEAR(sum, kept, 1e-9) << "the subset holds values of leaves left out";
    EXPECT_GT(kept, 0.0);
  }
}
