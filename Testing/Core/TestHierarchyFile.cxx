// Tests of hierarchy files (Core/HierarchyFile.h): parsing and its
// errors, regrouping on hand-worked trees, and a brute-force check on random
// trees against an independent reading of the rules.
#include "HierarchyFile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using macroscope::HierarchyFileError;
using macroscope::HierarchyPaths;
using macroscope::HierarchyTree;
using macroscope::ParseHierarchyFile;
using macroscope::RegroupHierarchy;

namespace
{
std::string ErrorOf(const std::string& text)
{
  try
  {
    ParseHierarchyFile(text, "platform.json");
  }
  catch (const HierarchyFileError& error)
  {
    return error.what();
  }
  return "no error";
}

bool Contains(const std::string& text, const std::string& part)
{
  return text.find(part) != std::string::npos;
}

HierarchyTree Tree(
  std::vector<int64_t> parent, std::vector<std::string> name, std::vector<std::string> kind = {})
{
  if (kind.empty())
  {
    kind.assign(name.size(), "k");
  }
  return HierarchyTree{ std::move(parent), std::move(name), std::move(kind) };
}

// SMPI's flat hierarchy: every rank directly under the root.
HierarchyTree FlatRanks(int ranks, std::vector<std::size_t>& leaves)
{
  HierarchyTree tree = Tree({ -1 }, { "0" }, { "platform" });
  leaves.clear();
  for (int r = 0; r < ranks; ++r)
  {
    leaves.push_back(tree.size());
    tree.Parent.push_back(0);
    tree.Name.push_back("rank-" + std::to_string(r));
    tree.Kind.push_back("process");
  }
  return tree;
}
}

TEST(HierarchyFile, ParsesDepthFirstWithKinds)
{
  const HierarchyTree tree = ParseHierarchyFile(R"({"name": "grid", "children": [
      {"name": "cl0", "kind": "cluster", "children": [{"name": "a"}, {"name": "b", "children": []}]},
      {"name": "c", "extra": 3}]})",
    "p.json");
  EXPECT_EQ(tree.Parent, (std::vector<int64_t>{ -1, 0, 1, 1, 0 }));
  EXPECT_EQ(tree.Name, (std::vector<std::string>{ "grid", "cl0", "a", "b", "c" }));
  EXPECT_EQ(tree.Kind, (std::vector<std::string>{ "group", "cluster", "group", "group", "group" }));
}

TEST(HierarchyFile, ErrorsNameTheFileAndTheProblem)
{
  const std::string invalid = ErrorOf("{\"name\": \"grid\",\n  \"children\": [}\n");
  EXPECT_TRUE(Contains(invalid, "platform.json")) << invalid;
  EXPECT_TRUE(Contains(invalid, "line 2")) << invalid;
  EXPECT_TRUE(Contains(invalid, "column 16")) << invalid;
  EXPECT_FALSE(Contains(invalid, "json.exception")) << invalid;

  const std::string empty = ErrorOf(" \n\t");
  EXPECT_TRUE(Contains(empty, "platform.json") && Contains(empty, "empty")) << empty;

  const std::string noName =
    ErrorOf(R"({"name": "g", "children": [{"name": "a"}, {"kind": "x"}]})");
  EXPECT_TRUE(Contains(noName, "child 2 of \"g\"") && Contains(noName, "no \"name\"")) << noName;

  const std::string number = ErrorOf(R"({"name": "g", "children": [{"name": 4}]})");
  EXPECT_TRUE(Contains(number, "child 1 of \"g\"") && Contains(number, "not a string")) << number;

  const std::string notArray = ErrorOf(R"({"name": "g", "children": {"name": "a"}})");
  EXPECT_TRUE(Contains(notArray, "\"g\"") && Contains(notArray, "not an array")) << notArray;

  const std::string duplicate = ErrorOf(
    R"({"name": "g", "children": [{"name": "x", "children": [{"name": "a"}]}, {"name": "a"}]})");
  EXPECT_TRUE(Contains(duplicate, "two leaves are named \"a\"")) << duplicate;

  const std::string kind = ErrorOf(R"({"name": "g", "kind": 1, "children": [{"name": "a"}]})");
  EXPECT_TRUE(Contains(kind, "\"kind\"") && Contains(kind, "not a string")) << kind;

  const std::string notObject = ErrorOf(R"({"name": "g", "children": ["a"]})");
  EXPECT_TRUE(Contains(notObject, "child 1 of \"g\"") && Contains(notObject, "not an object"))
    << notObject;

  const std::string top = ErrorOf("[1, 2]");
  EXPECT_TRUE(Contains(top, "the root node")) << top;

  // Inner nodes may share a name: only leaves name trace resources.
  EXPECT_NO_THROW(ParseHierarchyFile(
    R"({"name": "g", "children": [{"name": "n", "children": [{"name": "a"}]},
        {"name": "n", "children": [{"name": "b"}]}]})",
    "p.json"));
}

TEST(HierarchyFile, MissingFileIsAnError)
{
  try
  {
    macroscope::ReadHierarchyFile("/nonexistent/dir/h.json");
    FAIL() << "no error";
  }
  catch (const HierarchyFileError& error)
  {
    EXPECT_TRUE(Contains(error.what(), "/nonexistent/dir/h.json")) << error.what();
  }
}

TEST(HierarchyFile, RegroupsFlatRanksByParity)
{
  std::vector<std::size_t> leaves;
  const HierarchyTree trace = FlatRanks(4, leaves);
  const HierarchyTree file = ParseHierarchyFile(R"({"name": "grid", "children": [
      {"name": "even", "kind": "cluster", "children": [{"name": "rank-0"}, {"name": "rank-2"}]},
      {"name": "odd", "kind": "cluster", "children": [{"name": "rank-1"}, {"name": "rank-3"}]}]})",
    "parity.json");
  const auto result = RegroupHierarchy(trace, leaves, file, "parity.json");
  // grid(0) even(1) rank-0(2) rank-2(3) odd(4) rank-1(5) rank-3(6)
  EXPECT_EQ(result.Tree.Parent, (std::vector<int64_t>{ -1, 0, 1, 1, 0, 4, 4 }));
  EXPECT_EQ(result.Tree.Name,
    (std::vector<std::string>{ "grid", "even", "rank-0", "rank-2", "odd", "rank-1", "rank-3" }));
  EXPECT_EQ(result.Tree.Kind,
    (std::vector<std::string>{
      "group", "cluster", "process", "process", "cluster", "process", "process" }));
  EXPECT_EQ(result.LeafIndex, (std::vector<int64_t>{ -1, -1, 0, 1, -1, 2, 3 }));
  EXPECT_EQ(result.LeafVertex, (std::vector<std::size_t>{ 2, 3, 5, 6 }));
  EXPECT_EQ(result.NewLeafOfOldLeaf, (std::vector<uint32_t>{ 0, 2, 1, 3 }));
  EXPECT_TRUE(result.UnplacedLeaves.empty());
  EXPECT_TRUE(result.UnmatchedFileLeaves.empty());
  EXPECT_EQ(result.Describe(), "");
  EXPECT_EQ(HierarchyPaths(result.Tree)[5], "odd/rank-1");
}

TEST(HierarchyFile, UnplacedAndUnmatchedLeavesAreReported)
{
  std::vector<std::size_t> leaves;
  const HierarchyTree trace = FlatRanks(4, leaves);
  const HierarchyTree file = ParseHierarchyFile(
    R"({"name": "grid", "children": [{"name": "rank-2"}, {"name": "rank-9"}, {"name": "rank-7"}]})",
    "f.json");
  const auto result = RegroupHierarchy(trace, leaves, file, "f.json");
  // grid(0) rank-2(1) unplaced(2) rank-0(3) rank-1(4) rank-3(5)
  EXPECT_EQ(result.Tree.Parent, (std::vector<int64_t>{ -1, 0, 0, 2, 2, 2 }));
  EXPECT_EQ(result.Tree.Name,
    (std::vector<std::string>{ "grid", "rank-2", "unplaced", "rank-0", "rank-1", "rank-3" }));
  EXPECT_EQ(result.Tree.Kind[2], macroscope::UnplacedKind);
  EXPECT_EQ(result.NewLeafOfOldLeaf, (std::vector<uint32_t>{ 1, 2, 0, 3 }));
  EXPECT_EQ(result.UnplacedLeaves, (std::vector<std::string>{ "rank-0", "rank-1", "rank-3" }));
  EXPECT_EQ(result.UnmatchedFileLeaves, (std::vector<std::string>{ "rank-9", "rank-7" }));
  const std::string report = result.Describe();
  EXPECT_TRUE(Contains(report, "3 trace leaves") && Contains(report, "\"rank-3\"")) << report;
  EXPECT_TRUE(Contains(report, "2 hierarchy file leaves") && Contains(report, "\"rank-7\""))
    << report;
}

TEST(HierarchyFile, RanksBringTheirThreadsAndPathsDisambiguate)
{
  // OTF2-like: machine / node-0 / {rank 0 / {t0, t1}, rank 1 / {t0}}, node-1 / rank 2 / t0
  const HierarchyTree trace = Tree({ -1, 0, 1, 2, 2, 1, 5, 0, 7, 8 },
    { "m", "node-0", "rank 0", "t0", "t1", "rank 1", "t0", "node-1", "rank 2", "t0" },
    { "machine", "node", "process", "thread", "thread", "process", "thread", "node", "process",
      "thread" });
  const std::vector<std::size_t> leaves{ 3, 4, 6, 9 };

  const HierarchyTree file = ParseHierarchyFile(R"({"name": "g", "children": [
      {"name": "A", "children": [{"name": "rank 2"}, {"name": "node-0/rank 1/t0"}]},
      {"name": "rank 0"}]})",
    "f.json");
  const auto result = RegroupHierarchy(trace, leaves, file, "f.json");
  // g(0) A(1) rank 2(2) t0(3) t0(4) rank 0(5) t0(6) t1(7)
  EXPECT_EQ(result.Tree.Parent, (std::vector<int64_t>{ -1, 0, 1, 2, 1, 0, 5, 5 }));
  EXPECT_EQ(result.Tree.Name,
    (std::vector<std::string>{ "g", "A", "rank 2", "t0", "t0", "rank 0", "t0", "t1" }));
  EXPECT_EQ(result.NewLeafOfOldLeaf, (std::vector<uint32_t>{ 2, 3, 1, 0 }));
  EXPECT_TRUE(result.UnplacedLeaves.empty());

  // "t0" alone names three threads: the error lists their paths.
  try
  {
    RegroupHierarchy(trace, leaves,
      ParseHierarchyFile(R"({"name": "g", "children": [{"name": "t0"}]})", "f.json"), "f.json");
    FAIL() << "no error";
  }
  catch (const HierarchyFileError& error)
  {
    const std::string message = error.what();
    EXPECT_TRUE(Contains(message, "f.json") && Contains(message, "matches 3 trace vertices"))
      << message;
    EXPECT_TRUE(
      Contains(message, "\"node-0/rank 0/t0\"") && Contains(message, "\"node-1/rank 2/t0\""))
      << message;
  }
  // A rank and one of its threads: one trace leaf covered twice.
  try
  {
    RegroupHierarchy(trace, leaves,
      ParseHierarchyFile(
        R"({"name": "g", "children": [{"name": "rank 0"}, {"name": "node-0/rank 0/t1"}]})",
        "f.json"),
      "f.json");
    FAIL() << "no error";
  }
  catch (const HierarchyFileError& error)
  {
    EXPECT_TRUE(Contains(error.what(), "both cover the trace's \"node-0/rank 0/t1\""))
      << error.what();
  }
}

TEST(HierarchyFile, PartlyCoveredRankKeepsItsOtherThreadsUnplaced)
{
  const HierarchyTree trace = Tree({ -1, 0, 1, 1, 0, 4 }, { "m", "r0", "a", "b", "r1", "c" });
  const std::vector<std::size_t> leaves{ 2, 3, 5 };
  const auto result = RegroupHierarchy(trace, leaves,
    ParseHierarchyFile(R"({"name": "g", "children": [{"name": "r0/b"}]})", "f.json"), "f.json");
  // g(0) b(1) unplaced(2) a(3) r1(4) c(5): r0 is partly placed, so its
  // uncovered thread goes alone; r1 goes whole.
  EXPECT_EQ(result.Tree.Parent, (std::vector<int64_t>{ -1, 0, 0, 2, 2, 4 }));
  EXPECT_EQ(result.Tree.Name, (std::vector<std::string>{ "g", "b", "unplaced", "a", "r1", "c" }));
  EXPECT_EQ(result.NewLeafOfOldLeaf, (std::vector<uint32_t>{ 1, 0, 2 }));
  EXPECT_EQ(result.UnplacedLeaves, (std::vector<std::string>{ "r0/a", "r1/c" }));
}

// Random traces and files: every trace leaf appears once, a covered leaf's
// ancestors above its graft are the file's, grafted subtrees are copies,
// leaves are numbered depth-first, and the unplaced ones are exactly those
// no file leaf covers. The expectations are computed from the inputs
// directly, not from the regrouping's internals.
TEST(HierarchyFile, RandomTreesBruteForce)
{
  std::mt19937 random(20261121);
  for (int round = 0; round < 300; ++round)
  {
    const std::size_t n = 1 + random() % 40;
    HierarchyTree trace;
    for (std::size_t v = 0; v < n; ++v)
    {
      trace.Parent.push_back(v == 0 ? -1 : static_cast<int64_t>(random() % v));
      trace.Name.push_back("v" + std::to_string(v));
      trace.Kind.push_back("k" + std::to_string(random() % 3));
    }
    std::vector<std::vector<std::size_t>> children(n);
    for (std::size_t v = 1; v < n; ++v)
    {
      children[static_cast<std::size_t>(trace.Parent[v])].push_back(v);
    }
    std::vector<std::size_t> leaves;
    for (std::size_t v = 0; v < n; ++v)
    {
      if (children[v].empty())
      {
        leaves.push_back(v);
      }
    }
    auto isAncestor = [&](std::size_t a, std::size_t v)
    {
      for (int64_t x = static_cast<int64_t>(v); x >= 0;
           x = trace.Parent[static_cast<std::size_t>(x)])
      {
        if (static_cast<std::size_t>(x) == a)
          return true;
      }
      return false;
    };
    // Disjoint subtrees to place, chosen at random among non-root vertices.
    std::vector<std::size_t> chosen;
    for (std::size_t v = 1; v < n; ++v)
    {
      if (random() % 3 == 0 &&
        std::none_of(chosen.begin(), chosen.end(),
          [&](std::size_t c) { return isAncestor(c, v) || isAncestor(v, c); }))
      {
        chosen.push_back(v);
      }
    }
    std::shuffle(chosen.begin(), chosen.end(), random);
    const std::vector<std::string> paths = HierarchyPaths(trace);

    // A random file tree: groups g0..gk, each chosen vertex under the root
    // or a random group, named by name or path; plus leaves naming nothing.
    HierarchyTree file = Tree({ -1 }, { "root" }, { "top" });
    std::map<std::size_t, std::size_t> fileLeafOfChosen; // trace vertex -> file vertex
    std::vector<std::string> bogus;
    const std::size_t groups = random() % 4;
    for (std::size_t g = 0; g < groups; ++g)
    {
      file.Parent.push_back(static_cast<int64_t>(random() % file.size()));
      file.Name.push_back("g" + std::to_string(g));
      file.Kind.push_back("group");
    }
    for (std::size_t c : chosen)
    {
      fileLeafOfChosen[c] = file.size();
      file.Parent.push_back(static_cast<int64_t>(random() % (groups + 1)));
      file.Name.push_back(random() % 2 ? trace.Name[c] : paths[c]);
      file.Kind.push_back("ignored");
      if (random() % 5 == 0)
      {
        bogus.push_back("nothing" + std::to_string(file.size()));
        file.Parent.push_back(static_cast<int64_t>(random() % (groups + 1)));
        file.Name.push_back(bogus.back());
        file.Kind.push_back("ignored");
      }
    }
    // Make the file depth-first as the parser gives it.
    std::vector<std::vector<std::size_t>> fileChildren(file.size());
    for (std::size_t f = 1; f < file.size(); ++f)
    {
      fileChildren[static_cast<std::size_t>(file.Parent[f])].push_back(f);
    }
    HierarchyTree ordered;
    std::vector<std::size_t> orderedOf(file.size());
    std::vector<std::size_t> stack{ 0 };
    while (!stack.empty())
    {
      const std::size_t f = stack.back();
      stack.pop_back();
      orderedOf[f] = ordered.size();
      ordered.Parent.push_back(f == 0 ? -1 : static_cast<int64_t>(orderedOf[file.Parent[f]]));
      ordered.Name.push_back(file.Name[f]);
      ordered.Kind.push_back(file.Kind[f]);
      stack.insert(stack.end(), fileChildren[f].rbegin(), fileChildren[f].rend());
    }
    for (auto& [c, f] : fileLeafOfChosen)
    {
      f = orderedOf[f];
    }
    std::vector<bool> fileInner(ordered.size(), false);
    for (std::size_t f = 1; f < ordered.size(); ++f)
    {
      fileInner[static_cast<std::size_t>(ordered.Parent[f])] = true;
    }
    // A chosen vertex under a group that has no other child: the group is
    // inner; a group without children is a leaf naming nothing.
    std::set<std::string> expectedUnmatched(bogus.begin(), bogus.end());
    for (std::size_t f = 1; f < ordered.size(); ++f)
    {
      if (!fileInner[f] && ordered.Name[f][0] == 'g' &&
        ordered.Name[f].find('/') == std::string::npos && ordered.Name[f].size() <= 2)
      {
        expectedUnmatched.insert(ordered.Name[f]);
      }
    }
    if (!fileInner[0])
    {
      continue; // a file of one leaf: covered by the hand cases
    }

    const auto result = RegroupHierarchy(trace, leaves, ordered, "random.json");
    const HierarchyTree& out = result.Tree;
    ASSERT_EQ(result.NewLeafOfOldLeaf.size(), leaves.size());
    ASSERT_EQ(result.LeafVertex.size(), leaves.size());
    // A permutation; new leaves in vertex (depth-first) order.
    std::vector<bool> seen(leaves.size(), false);
    for (std::size_t l = 0; l < leaves.size(); ++l)
    {
      const uint32_t nl = result.NewLeafOfOldLeaf[l];
      ASSERT_LT(nl, leaves.size());
      EXPECT_FALSE(seen[nl]);
      seen[nl] = true;
      EXPECT_EQ(out.Name[result.LeafVertex[nl]], trace.Name[leaves[l]]);
      EXPECT_EQ(out.Kind[result.LeafVertex[nl]], trace.Kind[leaves[l]]);
    }
    for (std::size_t w = 0; w < out.size(); ++w)
    {
      EXPECT_TRUE(
        w == 0 ? out.Parent[w] == -1 : (out.Parent[w] >= 0 && out.Parent[w] < int64_t(w)));
    }
    int64_t last = -1;
    for (std::size_t w = 0; w < out.size(); ++w)
    {
      if (result.LeafIndex[w] >= 0)
      {
        EXPECT_EQ(result.LeafIndex[w], last + 1);
        last = result.LeafIndex[w];
        EXPECT_EQ(result.LeafVertex[static_cast<std::size_t>(last)], w);
      }
    }
    EXPECT_EQ(last + 1, static_cast<int64_t>(leaves.size()));

    // Covered leaves: the new ancestors are the trace's up to the chosen
    // vertex, then the file's ancestors of its file leaf.
    std::vector<std::string> expectedUnplaced;
    for (std::size_t l = 0; l < leaves.size(); ++l)
    {
      std::vector<std::string> expected;
      bool covered = false;
      for (int64_t x = static_cast<int64_t>(leaves[l]); x >= 0; x = trace.Parent[std::size_t(x)])
      {
        expected.push_back(trace.Name[std::size_t(x)]);
        const auto f = fileLeafOfChosen.find(std::size_t(x));
        if (f != fileLeafOfChosen.end())
        {
          for (int64_t y = ordered.Parent[f->second]; y >= 0; y = ordered.Parent[std::size_t(y)])
          {
            expected.push_back(ordered.Name[std::size_t(y)]);
          }
          covered = true;
          break;
        }
      }
      if (!covered)
      {
        expectedUnplaced.push_back(paths[leaves[l]]);
        continue;
      }
      std::vector<std::string> actual;
      for (int64_t w = static_cast<int64_t>(result.LeafVertex[result.NewLeafOfOldLeaf[l]]); w >= 0;
           w = out.Parent[std::size_t(w)])
      {
        actual.push_back(out.Name[std::size_t(w)]);
      }
      EXPECT_EQ(actual, expected) << "round " << round << " leaf " << l;
    }
    EXPECT_EQ(result.UnplacedLeaves, expectedUnplaced) << "round " << round;
    // Uncovered leaves sit below the "unplaced" vertex, a child of the root.
    for (std::size_t l = 0; l < leaves.size(); ++l)
    {
      bool underUnplaced = false;
      for (int64_t w = static_cast<int64_t>(result.LeafVertex[result.NewLeafOfOldLeaf[l]]); w > 0;
           w = out.Parent[std::size_t(w)])
      {
        underUnplaced = underUnplaced ||
          (out.Parent[std::size_t(w)] == 0 && out.Kind[std::size_t(w)] == macroscope::UnplacedKind);
      }
      const bool unplaced = std::find(expectedUnplaced.begin(), expectedUnplaced.end(),
                              paths[leaves[l]]) != expectedUnplaced.end();
      EXPECT_EQ(underUnplaced, unplaced) << "round " << round << " leaf " << l;
    }
    // Grafted subtrees are copies: same number of vertices below the graft.
    for (const auto& [c, f] : fileLeafOfChosen)
    {
      std::size_t size = 0;
      for (std::size_t v = 0; v < n; ++v)
      {
        size += isAncestor(c, v) ? 1 : 0;
      }
      std::size_t copied = 0;
      for (std::size_t w = 0; w < out.size(); ++w)
      {
        bool below = false;
        for (int64_t x = static_cast<int64_t>(w); x >= 0 && !below; x = out.Parent[std::size_t(x)])
        {
          below =
            out.Name[std::size_t(x)] == trace.Name[c] && out.Kind[std::size_t(x)] == trace.Kind[c];
        }
        copied += below ? 1 : 0;
      }
      EXPECT_EQ(copied, size) << "round " << round << " vertex " << c;
    }
    const std::set<std::string> unmatched(
      result.UnmatchedFileLeaves.begin(), result.UnmatchedFileLeaves.end());
    EXPECT_EQ(unmatched, expectedUnmatched) << "round " << round;
  }
}

// Deep hierarchies: paths are shortened beyond MaxPathBytes, a
// file leaf still names a deep vertex by its full path, and messages quote
// excerpts of huge names.
TEST(HierarchyFile, DeepChainsCostLinearMemory)
{
  constexpr std::size_t depth = 100000;
  HierarchyTree chain;
  for (std::size_t v = 0; v <= depth; ++v)
  {
    chain.Parent.push_back(static_cast<int64_t>(v) - 1);
    chain.Name.push_back("n" + std::to_string(v));
    chain.Kind.push_back("level");
  }
  const std::string deepest = macroscope::ShortPath(chain.Parent, chain.Name, depth);
  EXPECT_LE(deepest.size(), macroscope::MaxPathBytes);
  EXPECT_EQ(deepest.rfind("n1/n2/n3/", 0), 0u) << deepest.substr(0, 100);
  EXPECT_TRUE(Contains(deepest, "levels)...")) << deepest;
  const std::string end = "/n" + std::to_string(depth - 1) + "/n" + std::to_string(depth);
  EXPECT_EQ(deepest.substr(deepest.size() - end.size()), end);
  // Short paths are whole; the root's is its name, its children's leave it out.
  EXPECT_EQ(macroscope::ShortPath(chain.Parent, chain.Name, 3), "n1/n2/n3");
  EXPECT_EQ(macroscope::ShortPath(chain.Parent, chain.Name, 0), "n0");

  // A file leaf naming the vertex of depth 3000 by its full path.
  std::string full;
  for (std::size_t v = 1; v <= 3000; ++v)
  {
    full += (v > 1 ? "/n" : "n") + std::to_string(v);
  }
  const std::vector<std::size_t> leafVertex{ depth };
  const HierarchyTree file = ParseHierarchyFile(
    "{\"name\": \"top\", \"children\": [{\"name\": \"" + full + "\"}]}", "deep.json");
  const auto result = RegroupHierarchy(chain, leafVertex, file, "deep.json");
  EXPECT_TRUE(result.UnmatchedFileLeaves.empty());
  EXPECT_TRUE(result.UnplacedLeaves.empty());
  ASSERT_EQ(result.LeafVertex.size(), 1u);
  EXPECT_EQ(result.Tree.size(), 1 + (depth - 3000 + 1)); // top, then n3000..n100000
  // One name wrong in the middle: no path matches, nor any name.
  std::string wrong = full;
  wrong.replace(wrong.find("/n1500/"), 7, "/m1500/");
  const HierarchyTree other = ParseHierarchyFile(
    "{\"name\": \"top\", \"children\": [{\"name\": \"" + wrong + "\"}]}", "deep.json");
  const auto missed = RegroupHierarchy(chain, leafVertex, other, "deep.json");
  ASSERT_EQ(missed.UnmatchedFileLeaves.size(), 1u);
  EXPECT_LE(missed.UnmatchedFileLeaves[0].size(), 200u);
  EXPECT_LT(missed.Describe().size(), 400u);
}

TEST(HierarchyFile, MessagesQuoteExcerptsOfHugeNames)
{
  const std::string huge(1 << 20, 'x');
  const std::string twice = ErrorOf("{\"name\": \"r\", \"children\": [{\"name\": \"" + huge +
    "\"}, {\"name\": \"" + huge + "\"}]}");
  EXPECT_TRUE(Contains(twice, "two leaves are named")) << twice.substr(0, 200);
  EXPECT_LT(twice.size(), 300u);
  const std::string kind = ErrorOf("{\"name\": \"" + huge + "\", \"kind\": 3}");
  EXPECT_TRUE(Contains(kind, "(1048576 bytes)")) << kind.substr(0, 200);
  EXPECT_LT(kind.size(), 300u);
  const std::string json = ErrorOf("{\"name\": \"r\", \"children\": [" + huge + "]}");
  EXPECT_TRUE(Contains(json, "invalid JSON")) << json.substr(0, 200);
  EXPECT_LT(json.size(), 400u);
  const std::string place =
    ErrorOf("{\"name\": \"r\", \"children\": [{\"name\": \"" + huge + "\", \"children\": [3]}]}");
  EXPECT_TRUE(Contains(place, "child 1 of")) << place.substr(0, 200);
  EXPECT_LT(place.size(), 300u);
}
