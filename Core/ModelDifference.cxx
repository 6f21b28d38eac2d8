#include "ModelDifference.h"

#include "ModelCache.h" // RebinModel

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace macroscope
{
namespace
{
std::string RunName(int run)
{
  return run == 0 ? "run A" : "run B";
}

// Sizes agree with each other, the root is last and resources are leaves.
void CheckModel(const NamedModel& named, int run)
{
  const MicroscopicModel& m = named.Model;
  m.Grid.Validate();
  const std::size_t cells = std::size_t(m.Grid.Slices) * m.Resources * m.Types;
  if (m.Values.size() != cells)
  {
    throw std::invalid_argument(RunName(run) + "'s model has " + std::to_string(m.Values.size()) +
      " values for " + std::to_string(cells) + " cells");
  }
  if (named.TypeName.size() != m.Types)
  {
    throw std::invalid_argument(RunName(run) + "'s model names " +
      std::to_string(named.TypeName.size()) + " types for " + std::to_string(m.Types) + " planes");
  }
  const std::size_t nodes = named.Parent.size();
  if (nodes == 0 || nodes < m.Resources || named.NodeName.size() != nodes ||
    (!named.NodeKind.empty() && named.NodeKind.size() != nodes))
  {
    throw std::invalid_argument(RunName(run) + "'s hierarchy has " + std::to_string(nodes) +
      " parents, " + std::to_string(named.NodeName.size()) + " names for " +
      std::to_string(m.Resources) + " resources");
  }
  for (std::size_t n = 0; n < nodes; ++n)
  {
    const int64_t p = named.Parent[n];
    const bool root = n + 1 == nodes;
    if ((root && p != -1) || (!root && (p <= static_cast<int64_t>(n) || p >= int64_t(nodes))) ||
      (!root && p < int64_t(m.Resources)))
    {
      throw std::invalid_argument(RunName(run) + "'s hierarchy is not in model layout (node " +
        std::to_string(n) + ", parent " + std::to_string(p) + ")");
    }
  }
}

// Children of every node, ordered by their first resource (the leaf order).
std::vector<std::vector<int64_t>> ChildrenInLeafOrder(const NamedModel& named)
{
  const std::size_t nodes = named.Parent.size();
  std::vector<uint32_t> first(nodes, UINT32_MAX);
  for (uint32_t r = 0; r < named.Model.Resources; ++r)
  {
    for (int64_t n = r; n >= 0; n = named.Parent[n])
    {
      first[n] = std::min(first[n], r);
    }
  }
  std::vector<std::vector<int64_t>> children(nodes);
  for (std::size_t n = 0; n + 1 < nodes; ++n)
  {
    children[named.Parent[n]].push_back(static_cast<int64_t>(n));
  }
  for (auto& list : children)
  {
    std::stable_sort(
      list.begin(), list.end(), [&first](int64_t x, int64_t y) { return first[x] < first[y]; });
  }
  return children;
}

struct UnionNode
{
  std::string Name;
  std::string Kind;
  int64_t FromA = -1;
  int64_t FromB = -1;
  std::vector<std::size_t> Children;
  // (name, occurrence among siblings of that name) -> child
  std::map<std::pair<std::string, int>, std::size_t> ByName;
};

// Adds the subtree of `node` of `named` below union node `into`, matching
// children by name (the k-th sibling of a name with the k-th).
void Merge(const NamedModel& named, const std::vector<std::vector<int64_t>>& children, int64_t node,
  std::size_t into, int run, std::vector<UnionNode>& tree)
{
  std::map<std::string, int> seen;
  for (int64_t child : children[node])
  {
    const std::string& name = named.NodeName[child];
    const std::pair<std::string, int> key(name, seen[name]++);
    auto found = tree[into].ByName.find(key);
    std::size_t target = 0;
    if (found == tree[into].ByName.end())
    {
      target = tree.size();
      UnionNode fresh;
      fresh.Name = name;
      fresh.Kind = named.NodeKind.empty() ? std::string() : named.NodeKind[child];
      tree.push_back(std::move(fresh));
      tree[into].Children.push_back(target);
      tree[into].ByName.emplace(key, target);
    }
    else
    {
      target = found->second;
    }
    (run == 0 ? tree[target].FromA : tree[target].FromB) = child;
    Merge(named, children, child, target, run, tree);
  }
}

std::string PathOf(
  const std::vector<UnionNode>& tree, const std::vector<std::size_t>& parent, std::size_t node)
{
  std::string path;
  for (std::size_t n = node; n != 0; n = parent[n])
  {
    path = tree[n].Name + (path.empty() ? "" : "/" + path);
  }
  return path;
}

// By name: the union tree, A's vertices first, in model layout.
void MatchByName(const NamedModel& a, const NamedModel& b, ModelDifference& out)
{
  std::vector<UnionNode> tree(1);
  const int64_t rootA = static_cast<int64_t>(a.Parent.size()) - 1;
  const int64_t rootB = static_cast<int64_t>(b.Parent.size()) - 1;
  tree[0].Name = a.NodeName[rootA];
  tree[0].Kind = a.NodeKind.empty() ? std::string() : a.NodeKind[rootA];
  tree[0].FromA = rootA;
  tree[0].FromB = rootB;
  Merge(a, ChildrenInLeafOrder(a), rootA, 0, 0, tree);
  Merge(b, ChildrenInLeafOrder(b), rootB, 0, 1, tree);

  // Depth-first order: leaves become the resources, in that order.
  std::vector<std::size_t> parent(tree.size(), 0);
  std::vector<int> depth(tree.size(), 0);
  std::vector<std::size_t> order;
  std::vector<std::size_t> stack{ 0 };
  while (!stack.empty())
  {
    const std::size_t n = stack.back();
    stack.pop_back();
    order.push_back(n);
    for (auto c = tree[n].Children.rbegin(); c != tree[n].Children.rend(); ++c)
    {
      parent[*c] = n;
      depth[*c] = depth[n] + 1;
      stack.push_back(*c);
    }
  }
  std::vector<std::size_t> leaves;
  std::vector<std::size_t> inner;
  for (std::size_t n : order)
  {
    const UnionNode& u = tree[n];
    const bool resourceA = u.FromA >= 0 && u.FromA < int64_t(a.Model.Resources);
    const bool resourceB = u.FromB >= 0 && u.FromB < int64_t(b.Model.Resources);
    if (!u.Children.empty() && (resourceA || resourceB))
    {
      throw std::invalid_argument("'" + PathOf(tree, parent, n) + "' is a resource of " +
        (resourceA ? "run A" : "run B") + " but has resources below it in " +
        (resourceA ? "run B" : "run A") + ": slice both runs at the same resource level");
    }
    (u.Children.empty() && n != 0 ? leaves : inner).push_back(n);
  }
  // Inner nodes deepest first (stable: depth-first order within a depth),
  // so that every parent comes after its children, the root last.
  std::stable_sort(inner.begin(), inner.end(),
    [&depth](std::size_t x, std::size_t y) { return depth[x] > depth[y]; });
  std::vector<int64_t> index(tree.size(), -1);
  std::vector<std::size_t> nodes(leaves);
  nodes.insert(nodes.end(), inner.begin(), inner.end());
  for (std::size_t i = 0; i < nodes.size(); ++i)
  {
    index[nodes[i]] = static_cast<int64_t>(i);
  }
  out.Resources = static_cast<uint32_t>(leaves.size());
  for (std::size_t n : nodes)
  {
    out.Parent.push_back(n == 0 ? -1 : index[parent[n]]);
    out.NodeName.push_back(tree[n].Name);
    out.NodeKind.push_back(tree[n].Kind);
    out.NodeOfA.push_back(tree[n].FromA);
    out.NodeOfB.push_back(tree[n].FromB);
  }
  for (std::size_t n : leaves)
  {
    out.UnmatchedA += tree[n].FromA >= 0 && tree[n].FromB < 0;
    out.UnmatchedB += tree[n].FromB >= 0 && tree[n].FromA < 0;
  }
}

// By rank: the hierarchy of the run with more rows (A's when equal).
void MatchByRank(const NamedModel& a, const NamedModel& b, ModelDifference& out)
{
  const uint32_t ra = a.Model.Resources;
  const uint32_t rb = b.Model.Resources;
  const bool fromA = ra >= rb;
  const NamedModel& kept = fromA ? a : b;
  out.Resources = std::max(ra, rb);
  out.Parent = kept.Parent;
  out.NodeName = kept.NodeName;
  out.NodeKind =
    kept.NodeKind.empty() ? std::vector<std::string>(kept.Parent.size()) : kept.NodeKind;
  for (std::size_t n = 0; n < kept.Parent.size(); ++n)
  {
    const int64_t self = static_cast<int64_t>(n);
    const bool resource = n < out.Resources;
    out.NodeOfA.push_back(fromA ? self : (resource && n < ra ? self : -1));
    out.NodeOfB.push_back(!fromA ? self : (resource && n < rb ? self : -1));
  }
  out.UnmatchedA = ra > rb ? ra - rb : 0;
  out.UnmatchedB = rb > ra ? rb - ra : 0;
}

// Types by name, A's first, then B's others (k-th duplicate with k-th).
void MatchTypes(const NamedModel& a, const NamedModel& b, ModelDifference& out)
{
  std::map<std::pair<std::string, int>, std::size_t> byName;
  std::map<std::string, int> seen;
  for (std::size_t u = 0; u < a.TypeName.size(); ++u)
  {
    byName.emplace(std::make_pair(a.TypeName[u], seen[a.TypeName[u]]++), out.TypeName.size());
    out.TypeName.push_back(a.TypeName[u]);
    out.TypeOfA.push_back(static_cast<int64_t>(u));
    out.TypeOfB.push_back(-1);
  }
  seen.clear();
  for (std::size_t u = 0; u < b.TypeName.size(); ++u)
  {
    const auto key = std::make_pair(b.TypeName[u], seen[b.TypeName[u]]++);
    auto found = byName.find(key);
    if (found != byName.end())
    {
      out.TypeOfB[found->second] = static_cast<int64_t>(u);
      continue;
    }
    out.TypeName.push_back(b.TypeName[u]);
    out.TypeOfA.push_back(-1);
    out.TypeOfB.push_back(static_cast<int64_t>(u));
  }
  out.Types = static_cast<uint32_t>(out.TypeName.size());
}
}

MicroscopicModel RebinOnto(const MicroscopicModel& model, const SliceGrid& grid, bool extensive)
{
  const SliceGrid& own = model.Grid;
  if (own.Begin == grid.Begin && own.End == grid.End && own.Slices == grid.Slices)
  {
    return model; // the identity, exactly
  }
  // Pad with empty slices of the model's width until it covers the grid,
  // so that RebinModel counts 0 outside the model's window.
  const double w = own.Width();
  auto pad = [w](double gap)
  { return gap > 0.0 ? static_cast<int>(std::ceil(gap / w - 1e-9)) : 0; };
  const int before = pad(own.Begin - grid.Begin);
  const int after = pad(grid.End - own.End);
  MicroscopicModel padded;
  padded.Grid = { own.Begin - before * w, own.End + after * w, own.Slices + before + after };
  padded.Resources = model.Resources;
  padded.Types = model.Types;
  const std::size_t rows = std::size_t(model.Resources) * model.Types;
  const std::size_t width = static_cast<std::size_t>(padded.Grid.Slices);
  padded.Values.assign(rows * width, 0.0);
  for (std::size_t row = 0; row < rows; ++row)
  {
    std::copy_n(model.Values.begin() + row * own.Slices, own.Slices,
      padded.Values.begin() + row * width + before);
  }
  return RebinModel(padded, grid, extensive).Model;
}

ModelDifference DiffModels(
  const NamedModel& a, const NamedModel& b, const DifferenceOptions& options)
{
  CheckModel(a, 0);
  CheckModel(b, 1);
  if (a.Extensive != b.Extensive)
  {
    throw std::invalid_argument("run A's values are " +
      std::string(a.Extensive ? "extensive" : "per-second") + ", run B's " +
      (b.Extensive ? "extensive" : "per-second") + ": the models measure different metrics");
  }
  if (options.Slices < 0)
  {
    throw std::invalid_argument("Slices must be 0 (the larger of the two) or more (got " +
      std::to_string(options.Slices) + ")");
  }
  ModelDifference out;
  out.Grid.Begin = std::min(a.Model.Grid.Begin, b.Model.Grid.Begin);
  out.Grid.End = std::max(a.Model.Grid.End, b.Model.Grid.End);
  out.Grid.Slices =
    options.Slices > 0 ? options.Slices : std::max(a.Model.Grid.Slices, b.Model.Grid.Slices);
  if (options.Matching == ResourceMatching::ByName)
  {
    MatchByName(a, b, out);
  }
  else
  {
    MatchByRank(a, b, out);
  }
  MatchTypes(a, b, out);

  const MicroscopicModel ma = RebinOnto(a.Model, out.Grid, a.Extensive);
  const MicroscopicModel mb = RebinOnto(b.Model, out.Grid, b.Extensive);
  const std::size_t cells = std::size_t(out.Grid.Slices) * out.Resources * out.Types;
  out.A.assign(cells, 0.0);
  out.B.assign(cells, 0.0);
  auto fill = [&out](const MicroscopicModel& m, const std::vector<int64_t>& nodeOf,
                const std::vector<int64_t>& typeOf, std::vector<double>& into)
  {
    for (uint32_t u = 0; u < out.Types; ++u)
    {
      for (uint32_t r = 0; r < out.Resources; ++r)
      {
        const int64_t row = nodeOf[r];
        if (row < 0 || typeOf[u] < 0 || row >= int64_t(m.Resources))
        {
          continue;
        }
        const double* from = &m.Values[std::size_t(m.Grid.Slices) *
          (static_cast<std::size_t>(row) +
            std::size_t(m.Resources) * static_cast<std::size_t>(typeOf[u]))];
        std::copy_n(from, out.Grid.Slices, into.begin() + out.Index(r, 0, u));
      }
    }
  };
  fill(ma, out.NodeOfA, out.TypeOfA, out.A);
  fill(mb, out.NodeOfB, out.TypeOfB, out.B);
  out.Difference.resize(cells);
  out.Value.resize(cells);
  for (std::size_t i = 0; i < cells; ++i)
  {
    out.Difference[i] = out.A[i] - out.B[i];
    out.Value[i] = std::abs(out.Difference[i]);
  }
  return out;
}

std::vector<RankedPart> RankDifferenceParts(const std::vector<DifferencePart>& parts)
{
  std::vector<RankedPart> ranked;
  for (std::size_t i = 0; i < parts.size(); ++i)
  {
    RankedPart r;
    r.Part = i;
    const std::vector<double>& mean = parts[i].Mean;
    r.MeanDifference = std::accumulate(mean.begin(), mean.end(), 0.0);
    r.Mode = static_cast<std::size_t>(std::max_element(mean.begin(), mean.end()) - mean.begin());
    ranked.push_back(r);
  }
  std::stable_sort(ranked.begin(), ranked.end(),
    [](const RankedPart& x, const RankedPart& y) { return x.MeanDifference > y.MeanDifference; });
  return ranked;
}

namespace
{
std::string ShortNumber(double v)
{
  char text[32];
  std::snprintf(text, sizeof(text), "%.3g", v);
  return text;
}

// "node-1 (rank 2, rank 3)": the part's node and, unless it is the one
// resource itself, its resources (more than eight are abbreviated).
std::string PartPlace(const DifferencePart& part, const std::vector<std::string>& leafNames)
{
  std::string where = part.NodeName;
  const bool itself = leafNames.size() == 1 && leafNames[0] == part.NodeName;
  if (!leafNames.empty() && !itself)
  {
    constexpr std::size_t shown = 8;
    where += " (";
    for (std::size_t i = 0; i < std::min(shown, leafNames.size()); ++i)
    {
      where += (i ? ", " : "") + leafNames[i];
    }
    if (leafNames.size() > shown)
    {
      where += " and " + std::to_string(leafNames.size() - shown) + " more";
    }
    where += ")";
  }
  return where;
}

// ": mean |A − B| 0.61 (type computing)"
std::string PartAmount(const RankedPart& ranked, const std::vector<std::string>& typeNames)
{
  std::string amount = ": mean |A \u2212 B| " + ShortNumber(ranked.MeanDifference);
  if (ranked.Mode < typeNames.size())
  {
    amount += " (type " + typeNames[ranked.Mode] + ")";
  }
  return amount;
}
}

std::string DescribeDifference(const DifferencePart& part, const RankedPart& ranked,
  const std::vector<std::string>& leafNames, const std::vector<std::string>& typeNames)
{
  return "Runs differ most on " + PartPlace(part, leafNames) + " from " + ShortNumber(part.Start) +
    " s to " + ShortNumber(part.End) + " s" + PartAmount(ranked, typeNames);
}

std::size_t FirstDifferingPart(
  const std::vector<DifferencePart>& parts, const std::vector<RankedPart>& ranked, double fraction)
{
  if (ranked.empty() || !(ranked[0].MeanDifference > 0.0))
  {
    return ranked.size();
  }
  const double least = fraction * ranked[0].MeanDifference;
  std::size_t first = 0; // ranked[0] qualifies whatever the fraction <= 1
  for (std::size_t k = 1; k < ranked.size(); ++k)
  {
    const bool differs = ranked[k].MeanDifference > 0.0 && ranked[k].MeanDifference >= least;
    // Ranked by decreasing mean, so on equal starts the earlier k stays.
    if (differs && parts[ranked[k].Part].Start < parts[ranked[first].Part].Start)
    {
      first = k;
    }
  }
  return first;
}

std::string DescribeOnset(const DifferencePart& part, const RankedPart& ranked,
  const std::vector<std::string>& leafNames, const std::vector<std::string>& typeNames)
{
  return "The runs first differ at " + ShortNumber(part.Start) + " s, on " +
    PartPlace(part, leafNames) + ", until " + ShortNumber(part.End) + " s" +
    PartAmount(ranked, typeNames);
}

}
