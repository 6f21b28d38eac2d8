// Treemap layouts (Core/Treemap.h): hand-computed cases, the
// geometric invariants on seeded random trees checked against brute force,
// squarified against slice-and-dice, degenerate and bad inputs.
#include "Treemap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using macroscope::LayoutRectangles;
using macroscope::LayoutTree;
using macroscope::MeanAspectRatio;
using macroscope::TreemapAlgorithm;
using macroscope::TreemapLayout;
using macroscope::TreemapOptions;
using macroscope::TreemapRect;

namespace
{
constexpr TreemapAlgorithm Squarified = TreemapAlgorithm::Squarified;
constexpr TreemapAlgorithm SliceAndDice = TreemapAlgorithm::SliceAndDice;
constexpr double NaN = std::numeric_limits<double>::quiet_NaN();
constexpr double Inf = std::numeric_limits<double>::infinity();

void ExpectRect(
  const TreemapRect& r, double x0, double y0, double x1, double y1, double tol = 1e-12)
{
  EXPECT_NEAR(r.X0, x0, tol);
  EXPECT_NEAR(r.Y0, y0, tol);
  EXPECT_NEAR(r.X1, x1, tol);
  EXPECT_NEAR(r.Y1, y1, tol);
}

template <typename F>
void ExpectInvalid(F f, const std::string& needle)
{
  try
  {
    f();
    ADD_FAILURE() << "no exception; expected one mentioning '" << needle << "'";
  }
  catch (const std::invalid_argument& e)
  {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
      << "message '" << e.what() << "' lacks '" << needle << "'";
  }
}

double Overlap(const TreemapRect& a, const TreemapRect& b)
{
  const double w = std::min(a.X1, b.X1) - std::max(a.X0, b.X0);
  const double h = std::min(a.Y1, b.Y1) - std::max(a.Y0, b.Y0);
  return w > 0.0 && h > 0.0 ? w * h : 0.0;
}

// Rectangles with areas proportional to `values` (relative 1e-9), inside
// `bounds`, pairwise disjoint and covering its area: a tiling.
void ExpectTiling(const std::vector<TreemapRect>& rects, const std::vector<double>& values,
  const TreemapRect& bounds)
{
  ASSERT_EQ(rects.size(), values.size());
  const double total = std::accumulate(values.begin(), values.end(), 0.0);
  double covered = 0.0;
  for (std::size_t i = 0; i < rects.size(); ++i)
  {
    EXPECT_TRUE(bounds.Contains(rects[i])) << "rectangle " << i;
    EXPECT_LE(rects[i].X0, rects[i].X1);
    EXPECT_LE(rects[i].Y0, rects[i].Y1);
    const double expected = total > 0.0 ? bounds.Area() * values[i] / total : 0.0;
    if (expected == 0.0)
    {
      EXPECT_EQ(rects[i].Area(), 0.0) << "rectangle " << i;
    }
    else
    {
      EXPECT_NEAR(rects[i].Area(), expected, 1e-9 * expected) << "rectangle " << i;
    }
    covered += rects[i].Area();
    for (std::size_t j = 0; j < i; ++j)
    {
      EXPECT_LE(Overlap(rects[i], rects[j]), 1e-12 * bounds.Area()) << i << " and " << j;
    }
  }
  if (total > 0.0)
  {
    EXPECT_NEAR(covered, bounds.Area(), 1e-9 * bounds.Area());
  }
}

struct Tree
{
  std::vector<int64_t> Parent;
  std::vector<double> Size;
};

// Renumbers the nodes by a random permutation, so that parents may follow
// their children.
Tree Shuffled(const Tree& t, std::mt19937& rng)
{
  std::vector<std::size_t> to(t.Parent.size());
  std::iota(to.begin(), to.end(), 0);
  std::shuffle(to.begin(), to.end(), rng);
  Tree s{ std::vector<int64_t>(to.size()), std::vector<double>(to.size()) };
  for (std::size_t v = 0; v < to.size(); ++v)
  {
    s.Parent[to[v]] = t.Parent[v] < 0 ? -1 : static_cast<int64_t>(to[t.Parent[v]]);
    s.Size[to[v]] = t.Size[v];
  }
  return s;
}

enum class Shape
{
  Recursive,  // node i hangs below a uniform node in [0, i): depth ~ log n
  Flat,       // root and many leaves
  Levels,     // 3 levels of random fan-out, like clusters / nodes / cores
  Caterpillar // a chain with a few leaves on every link
};

// Seeded random tree; leaf sizes uniform in [0.05, 1], or 0 with
// probability `zeros`; inner nodes get NaN (the layout must ignore it).
Tree RandomTree(Shape shape, std::mt19937& rng, double zeros)
{
  Tree t;
  auto add = [&t](int64_t parent)
  {
    t.Parent.push_back(parent);
    return static_cast<int64_t>(t.Parent.size() - 1);
  };
  add(-1);
  switch (shape)
  {
    case Shape::Recursive:
      for (int i = 1; i < 1500; ++i)
      {
        add(std::uniform_int_distribution<int64_t>(0, i - 1)(rng));
      }
      break;
    case Shape::Flat:
      for (int i = 0; i < 600; ++i)
      {
        add(0);
      }
      break;
    case Shape::Levels:
    {
      std::uniform_int_distribution<int> fan(1, 9);
      for (int a = fan(rng); a > 0; --a)
      {
        const int64_t cluster = add(0);
        for (int b = fan(rng); b > 0; --b)
        {
          const int64_t node = add(cluster);
          for (int c = fan(rng); c > 0; --c)
          {
            add(node);
          }
        }
      }
      break;
    }
    case Shape::Caterpillar:
    {
      int64_t link = 0;
      for (int i = 0; i < 40; ++i)
      {
        for (int k = 0; k < 3; ++k)
        {
          add(link);
        }
        link = add(link);
      }
      break;
    }
  }
  std::vector<bool> inner(t.Parent.size(), false);
  for (const int64_t p : t.Parent)
  {
    if (p >= 0)
    {
      inner[p] = true;
    }
  }
  std::uniform_real_distribution<double> size(0.05, 1.0);
  std::bernoulli_distribution zero(zeros);
  for (std::size_t v = 0; v < t.Parent.size(); ++v)
  {
    t.Size.push_back(inner[v] ? NaN : (zero(rng) ? 0.0 : size(rng)));
  }
  return Shuffled(t, rng);
}

// The rectangle an inner node lays its children in, from the documented rule.
TreemapRect Inner(const TreemapRect& r, const TreemapOptions& o)
{
  const double mx = std::min(o.Margin, r.Width() / 4);
  const double my = std::min(o.Margin, r.Height() / 4);
  const double header = std::min(o.Header, r.Height() / 4);
  return TreemapRect{ r.X0 + mx, r.Y0 + my, r.X1 - mx, r.Y1 - my - header };
}

// Every invariant of a nested layout, checked by brute force.
void CheckLayout(
  const Tree& t, const TreemapLayout& l, const TreemapRect& bounds, const TreemapOptions& o)
{
  const std::size_t n = t.Parent.size();
  ASSERT_EQ(l.Rects.size(), n);
  ASSERT_EQ(l.Size.size(), n);
  ASSERT_EQ(l.Depth.size(), n);

  // Depths and sizes by walking up from every node.
  std::vector<double> size(n, 0.0);
  std::vector<std::vector<std::size_t>> children(n);
  std::size_t root = n;
  for (std::size_t v = 0; v < n; ++v)
  {
    if (t.Parent[v] < 0)
    {
      root = v;
    }
    else
    {
      children[t.Parent[v]].push_back(v);
    }
  }
  for (std::size_t v = 0; v < n; ++v)
  {
    int depth = 0;
    for (int64_t a = t.Parent[v]; a >= 0; a = t.Parent[a])
    {
      ++depth;
    }
    EXPECT_EQ(l.Depth[v], depth) << "node " << v;
    if (children[v].empty())
    {
      for (int64_t a = static_cast<int64_t>(v); a >= 0; a = t.Parent[a])
      {
        size[a] += t.Size[v];
      }
    }
  }
  for (std::size_t v = 0; v < n; ++v)
  {
    EXPECT_NEAR(l.Size[v], size[v], 1e-12 * size[root]) << "node " << v;
  }

  ASSERT_LT(root, n);
  EXPECT_EQ(l.Rects[root].X0, bounds.X0);
  EXPECT_EQ(l.Rects[root].Y0, bounds.Y0);
  EXPECT_EQ(l.Rects[root].X1, bounds.X1);
  EXPECT_EQ(l.Rects[root].Y1, bounds.Y1);

  const bool flat = o.Margin == 0.0 && o.Header == 0.0;
  // Areas are proportional to 1e-9 relative, give or take the rounding of
  // the coordinates (a few ulps of the largest, m): deep below wide margins
  // a rectangle can be only a few ulps wide and cannot hold its exact area.
  const double m = std::max(
    { std::abs(bounds.X0), std::abs(bounds.X1), std::abs(bounds.Y0), std::abs(bounds.Y1) });
  auto slack = [m](const TreemapRect& r)
  { return 32 * std::numeric_limits<double>::epsilon() * m * (r.Width() + r.Height()); };
  for (std::size_t v = 0; v < n; ++v)
  {
    if (children[v].empty())
    {
      if (flat && size[root] > 0.0)
      {
        const double expected = bounds.Area() * size[v] / size[root];
        EXPECT_NEAR(l.Rects[v].Area(), expected, 1e-9 * expected) << "leaf " << v;
      }
      continue;
    }
    const TreemapRect inner = Inner(l.Rects[v], o);
    double covered = 0.0;
    for (std::size_t i = 0; i < children[v].size(); ++i)
    {
      const std::size_t c = children[v][i];
      const TreemapRect& r = l.Rects[c];
      EXPECT_TRUE(inner.Contains(r)) << "child " << c << " of " << v;
      EXPECT_TRUE(l.Rects[v].Contains(r)) << "child " << c << " of " << v;
      EXPECT_LE(r.X0, r.X1);
      EXPECT_LE(r.Y0, r.Y1);
      const double expected = l.Size[v] > 0.0 ? inner.Area() * l.Size[c] / l.Size[v] : 0.0;
      if (expected == 0.0)
      {
        EXPECT_EQ(r.Area(), 0.0) << "child " << c << " of " << v;
      }
      else
      {
        EXPECT_NEAR(r.Area(), expected, 1e-9 * expected + slack(r)) << "child " << c << " of " << v;
      }
      covered += r.Area();
      for (std::size_t j = 0; j < i; ++j)
      {
        EXPECT_LE(Overlap(r, l.Rects[children[v][j]]), 1e-12 * inner.Area())
          << "children " << c << " and " << children[v][j] << " of " << v;
      }
    }
    if (l.Size[v] > 0.0)
    {
      EXPECT_NEAR(covered, inner.Area(), 1e-9 * inner.Area() + slack(inner)) << "children of " << v;
    }
  }
}

std::vector<TreemapRect> Leaves(const Tree& t, const TreemapLayout& l)
{
  std::vector<bool> inner(t.Parent.size(), false);
  for (const int64_t p : t.Parent)
  {
    if (p >= 0)
    {
      inner[p] = true;
    }
  }
  std::vector<TreemapRect> leaves;
  for (std::size_t v = 0; v < t.Parent.size(); ++v)
  {
    if (!inner[v])
    {
      leaves.push_back(l.Rects[v]);
    }
  }
  return leaves;
}
}

TEST(Treemap, RectAspectRatioAndContains)
{
  EXPECT_DOUBLE_EQ((TreemapRect{ 0, 0, 2, 2 }).AspectRatio(), 1.0);
  EXPECT_DOUBLE_EQ((TreemapRect{ 1, 1, 7, 3 }).AspectRatio(), 3.0);
  EXPECT_DOUBLE_EQ((TreemapRect{ 1, 1, 3, 7 }).AspectRatio(), 3.0);
  EXPECT_EQ((TreemapRect{ 1, 1, 1, 7 }).AspectRatio(), Inf);
  EXPECT_EQ((TreemapRect{ 1, 1, 1, 1 }).AspectRatio(), Inf);

  const TreemapRect outer{ 0, 0, 4, 3 };
  EXPECT_TRUE(outer.Contains(outer));
  EXPECT_TRUE(outer.Contains(TreemapRect{ 1, 1, 2, 2 }));
  EXPECT_TRUE(outer.Contains(TreemapRect{ 4, 0, 4, 0 }));
  EXPECT_FALSE(outer.Contains(TreemapRect{ 1, 1, 4.1, 2 }));
  EXPECT_FALSE(outer.Contains(TreemapRect{ -0.1, 1, 2, 2 }));
  EXPECT_FALSE(outer.Contains(TreemapRect{ 1, 1, 2, 3.1 }));
  EXPECT_TRUE(outer.Contains(TreemapRect{ 1, -0.05, 2, 3.05 }, 0.1));

  EXPECT_EQ(MeanAspectRatio({}), 0.0);
  EXPECT_EQ(MeanAspectRatio({ TreemapRect{ 0, 0, 0, 5 } }), 0.0);
  // (1 + 4) / 2; the empty rectangle does not count.
  EXPECT_DOUBLE_EQ(MeanAspectRatio({ TreemapRect{ 0, 0, 1, 1 }, TreemapRect{ 0, 0, 0, 1 },
                     TreemapRect{ 0, 0, 4, 1 } }),
    2.5);
}

TEST(Treemap, SquarifiedBrulsExample)
{
  // Bruls, Huizing and van Wijk's example: 6 6 4 3 2 2 1 in a 6 x 4
  // rectangle of area 24, so each value is its area. Worst ratios as rows
  // grow (the row lies along the shorter side):
  //  free 6 x 4, side 4, a column at the left:
  //   [6] 1.5 x 4 -> 8/3; [6 6] 3 x 2 each -> 3/2; [6 6 4] 4 wide, the 4 is
  //   4 x 1 -> 4, worse: column [6 6] is x in [0, 3], the first 6 on top.
  //  free 3 x 4, side 3, a row at the top:
  //   [4] 3 x 4/3 -> 9/4; [4 3] 7/3 high, widths 12/7, 9/7 -> 49/27;
  //   [4 3 2] 3 high, the 2 is 2/3 wide -> 9/2, worse: row [4 3] is
  //   y in [5/3, 4], the 4 at x in [3, 3 + 12/7].
  //  free 3 x 5/3, side 5/3, a column: [2] 6/5 x 5/3 -> 25/18; [2 2]
  //   12/5 x 5/6 -> 72/25, worse: [2] is x in [3, 4.2].
  //  free 1.8 x 5/3, a column: [2] -> 25/18; [2 1] 1.8 wide, the 1 is 5/9
  //   high -> 81/25, worse: [2] is x in [4.2, 5.4].
  //  free 0.6 x 5/3: [1] fills it.
  // The values are given shuffled; the tied 6s keep index order (index 2
  // before index 5, so index 2 on top).
  const std::vector<double> values{ 2, 4, 6, 1, 3, 6, 2 };
  const TreemapRect bounds{ 0, 0, 6, 4 };
  const auto r = LayoutRectangles(values, bounds, Squarified);
  ExpectRect(r[2], 0, 2, 3, 4);
  ExpectRect(r[5], 0, 0, 3, 2);
  ExpectRect(r[1], 3, 5.0 / 3, 3 + 12.0 / 7, 4);
  ExpectRect(r[4], 3 + 12.0 / 7, 5.0 / 3, 6, 4);
  ExpectRect(r[0], 3, 0, 4.2, 5.0 / 3);
  ExpectRect(r[6], 4.2, 0, 5.4, 5.0 / 3);
  ExpectRect(r[3], 5.4, 0, 6, 5.0 / 3);
  ExpectTiling(r, values, bounds);
  // The strip and row ends lie exactly on the border.
  EXPECT_EQ(r[5].Y0, 0.0);
  EXPECT_EQ(r[4].X1, 6.0);
  EXPECT_EQ(r[3].X1, 6.0);
  EXPECT_EQ(r[3].Y0, 0.0);
}

TEST(Treemap, SquarifiedEqualValuesKeepIndexOrder)
{
  // Four values of 1 in a 2 x 2 square. Free 2 x 2 (as wide as high: a
  // column): [1] 0.5 x 2 -> 4; [1 1] 1 x 1 -> 1; [1 1 1] 1.5 x 2/3 -> 9/4,
  // worse. Free 1 x 2, a row at the top: [1] 1 x 1 -> 1; [1 1] 2 x 1/2 ->
  // 4, worse. Free 1 x 1: [1].
  const auto r = LayoutRectangles({ 1, 1, 1, 1 }, TreemapRect{ 0, 0, 2, 2 }, Squarified);
  ExpectRect(r[0], 0, 1, 1, 2);
  ExpectRect(r[1], 0, 0, 1, 1);
  ExpectRect(r[2], 1, 1, 2, 2);
  ExpectRect(r[3], 1, 0, 2, 1);
}

// Bruls et al.'s algorithm as the paper states it, in absolute areas and
// recomputing each row's worst ratio from scratch: the reference for the
// row decisions on random inputs.
namespace
{
std::vector<TreemapRect> PlainSquarified(const std::vector<double>& values, TreemapRect free)
{
  const double total = std::accumulate(values.begin(), values.end(), 0.0);
  const double scale = free.Area() / total;
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
    [&values](std::size_t a, std::size_t b) { return values[a] > values[b]; });
  auto worst = [&](std::size_t first, std::size_t last, double side)
  {
    double sum = 0.0;
    for (std::size_t k = first; k < last; ++k)
    {
      sum += values[order[k]] * scale;
    }
    double w = 0.0;
    for (std::size_t k = first; k < last; ++k)
    {
      const double r = values[order[k]] * scale;
      w = std::max({ w, side * side * r / (sum * sum), sum * sum / (side * side * r) });
    }
    return w;
  };
  std::vector<TreemapRect> out(values.size());
  std::size_t first = 0;
  while (first < order.size())
  {
    const bool column = free.Width() >= free.Height();
    const double side = column ? free.Height() : free.Width();
    std::size_t last = first + 1;
    while (last < order.size() && worst(first, last + 1, side) <= worst(first, last, side))
    {
      ++last;
    }
    double sum = 0.0;
    for (std::size_t k = first; k < last; ++k)
    {
      sum += values[order[k]] * scale;
    }
    const double thickness = sum / side;
    double at = column ? free.Y1 : free.X0;
    for (std::size_t k = first; k < last; ++k)
    {
      const double length = values[order[k]] * scale / thickness;
      out[order[k]] = column ? TreemapRect{ free.X0, at - length, free.X0 + thickness, at }
                             : TreemapRect{ at, free.Y1 - thickness, at + length, free.Y1 };
      at += column ? -length : length;
    }
    (column ? free.X0 : free.Y1) += column ? thickness : -thickness;
    first = last;
  }
  return out;
}
}

TEST(Treemap, SquarifiedMatchesThePaperOnRandomInputs)
{
  std::mt19937 rng(2000);
  std::uniform_int_distribution<int> count(1, 60);
  std::uniform_real_distribution<double> value(0.01, 1.0);
  std::uniform_real_distribution<double> side(1.0, 10.0);
  for (int trial = 0; trial < 300; ++trial)
  {
    std::vector<double> values(count(rng));
    for (double& v : values)
    {
      // Some repeated values, to exercise the ties.
      v = trial % 3 == 0 ? std::round(4 * value(rng)) + 1 : value(rng);
    }
    const TreemapRect bounds{ 0, 0, side(rng), side(rng) };
    const auto expected = PlainSquarified(values, bounds);
    const auto actual = LayoutRectangles(values, bounds, Squarified);
    for (std::size_t i = 0; i < values.size(); ++i)
    {
      SCOPED_TRACE("trial " + std::to_string(trial) + ", rectangle " + std::to_string(i));
      ExpectRect(actual[i], expected[i].X0, expected[i].Y0, expected[i].X1, expected[i].Y1, 1e-9);
    }
  }
}

TEST(Treemap, SliceAndDiceStrips)
{
  const TreemapRect bounds{ 0, 0, 4, 2 };
  const std::vector<double> values{ 1, 2, 1 };
  const auto x = LayoutRectangles(values, bounds, SliceAndDice, true);
  ExpectRect(x[0], 0, 0, 1, 2);
  ExpectRect(x[1], 1, 0, 3, 2);
  ExpectRect(x[2], 3, 0, 4, 2);
  // Along y the strips go from the top down.
  const auto y = LayoutRectangles(values, bounds, SliceAndDice, false);
  ExpectRect(y[0], 0, 1.5, 4, 2);
  ExpectRect(y[1], 0, 0.5, 4, 1.5);
  ExpectRect(y[2], 0, 0, 4, 0.5);
  // Squarified ignores alongX.
  const auto a = LayoutRectangles(values, bounds, Squarified, true);
  const auto b = LayoutRectangles(values, bounds, Squarified, false);
  for (std::size_t i = 0; i < values.size(); ++i)
  {
    ExpectRect(a[i], b[i].X0, b[i].Y0, b[i].X1, b[i].Y1, 0.0);
  }
}

TEST(Treemap, RandomValuesTileTheBoundsWithoutDrift)
{
  std::mt19937 rng(8);
  for (const int n : { 1, 2, 3, 10, 1000 })
  {
    for (const double zeros : { 0.0, 0.2 })
    {
      std::vector<double> values(n);
      std::uniform_real_distribution<double> value(0.01, 100.0);
      std::bernoulli_distribution zero(zeros);
      for (double& v : values)
      {
        v = zero(rng) ? 0.0 : value(rng);
      }
      const TreemapRect bounds{ -3.5, 10, 797.25, 610.5 };
      for (const auto algorithm : { Squarified, SliceAndDice, TreemapAlgorithm::OrderedSquarified })
      {
        SCOPED_TRACE("n = " + std::to_string(n) + ", zeros = " + std::to_string(zeros));
        ExpectTiling(LayoutRectangles(values, bounds, algorithm, n % 2 == 0), values, bounds);
      }
    }
  }
}

TEST(Treemap, SquarifiedBeatsSliceAndDiceOnAFlatList)
{
  std::mt19937 rng(1000);
  std::uniform_real_distribution<double> value(0.0, 1.0);
  std::vector<double> values(1000);
  for (double& v : values)
  {
    v = value(rng);
  }
  const TreemapRect bounds{ 0, 0, 1600, 1000 };
  const double squarified = MeanAspectRatio(LayoutRectangles(values, bounds, Squarified));
  const double sliced = MeanAspectRatio(LayoutRectangles(values, bounds, SliceAndDice));
  EXPECT_LT(squarified, sliced);
  // 1000 strips of a 1600 x 1000 rectangle are about 1.6 wide: ratios in
  // the hundreds. Squarified rows keep every ratio near the square's.
  EXPECT_GT(sliced, 100.0);
  EXPECT_LT(squarified, 3.0);
}

TEST(Treemap, ZeroValues)
{
  const TreemapRect bounds{ 0, 0, 4, 1 };
  const std::vector<double> values{ 0, 2, 0, 1, 1 };
  const auto s = LayoutRectangles(values, bounds, SliceAndDice);
  ExpectRect(s[0], 0, 0, 0, 1);
  ExpectRect(s[1], 0, 0, 2, 1);
  ExpectRect(s[2], 2, 0, 2, 1);
  ExpectRect(s[3], 2, 0, 3, 1);
  ExpectRect(s[4], 3, 0, 4, 1);
  ExpectTiling(LayoutRectangles(values, bounds, Squarified), values, bounds);

  for (const auto algorithm : { Squarified, SliceAndDice })
  {
    const auto all = LayoutRectangles({ 0, 0, 0 }, bounds, algorithm);
    ASSERT_EQ(all.size(), 3u);
    for (const auto& r : all)
    {
      EXPECT_EQ(r.Area(), 0.0);
      EXPECT_TRUE(bounds.Contains(r));
    }
    EXPECT_TRUE(LayoutRectangles({}, bounds, algorithm).empty());
    // A single value fills the bounds.
    const auto one = LayoutRectangles({ 0, 3.5, 0 }, bounds, algorithm);
    ExpectRect(one[1], 0, 0, 4, 1, 0.0);
  }
}

TEST(Treemap, ZeroSizeBounds)
{
  std::mt19937 rng(5);
  const Tree t = RandomTree(Shape::Levels, rng, 0.1);
  for (const TreemapRect bounds :
    { TreemapRect{ 2, 3, 2, 3 }, TreemapRect{ 0, 1, 5, 1 }, TreemapRect{ 1, 0, 1, 5 } })
  {
    for (const auto algorithm : { Squarified, SliceAndDice })
    {
      const auto rects = LayoutRectangles({ 1, 2, 0, 3 }, bounds, algorithm);
      for (const auto& r : rects)
      {
        EXPECT_EQ(r.Area(), 0.0);
        EXPECT_TRUE(bounds.Contains(r));
      }
      TreemapOptions o;
      o.Algorithm = algorithm;
      o.Margin = 0.5;
      o.Header = 1;
      const auto l = LayoutTree(t.Parent, t.Size, bounds, o);
      for (const auto& r : l.Rects)
      {
        EXPECT_EQ(r.Area(), 0.0);
        EXPECT_TRUE(bounds.Contains(r));
      }
    }
  }
}

TEST(Treemap, BadValuesThrowNamingTheIndex)
{
  const TreemapRect bounds{ 0, 0, 1, 1 };
  for (const auto algorithm : { Squarified, SliceAndDice })
  {
    ExpectInvalid([&] { LayoutRectangles({ 1, 2, 3, -1 }, bounds, algorithm); }, "index 3");
    ExpectInvalid([&] { LayoutRectangles({ 1, NaN }, bounds, algorithm); }, "index 1");
    ExpectInvalid([&] { LayoutRectangles({ Inf, 1 }, bounds, algorithm); }, "index 0");
    ExpectInvalid([&] { LayoutRectangles({ 1.5e308, 1.5e308 }, bounds, algorithm); }, "infinity");
    ExpectInvalid([&] { LayoutRectangles({ 1 }, TreemapRect{ 1, 0, 0, 1 }, algorithm); }, "bounds");
    ExpectInvalid(
      [&] {
        LayoutRectangles({ 1 }, TreemapRect{ 0, 0, 1, NaN }, algorithm);
      },
      "bounds");
  }
}

TEST(Treemap, TreeHandComputedWithMarginsAndHeader)
{
  // Node 1 is the root; 2 (inner) and 3 (1) below it; 0 (3) and 4 (1)
  // below 2. Inner sizes: 2 -> 4, 1 -> 5 (the NaN given for them is
  // ignored). Bounds 10 x 10, margin 1, header 2:
  //  root inner: [1, 9] x [1, 10 - 1 - 2 = 7] (8 x 6). Either algorithm
  //  puts 2 at x in [1, 1 + 8 * 4/5 = 7.4] and 3 at [7.4, 9] (squarified:
  //  a column as 8 > 6; adding 3 to the row of 2 takes the worst ratio from
  //  16/15 to 20/3).
  //  2's inner: margin min(1, 6.4/4) = 1, header min(2, 6/4) = 1.5:
  //  [2, 6.4] x [2, 4.5] (4.4 x 2.5).
  //   slice-and-dice, depth 1: along y from the top, 0 gets 3/4 of 2.5.
  //   squarified: a column (4.4 > 2.5); [3] alone is 3.3 x 2.5, ratio
  //   1.32; [3 1] would be 4.4 wide with the 1 only 0.625 high (7.04),
  //   worse, so 0 is x in [2, 2 + 4.4 * 3/4 = 5.3] and 4 the rest.
  const Tree t{ { 2, -1, 1, 1, 2 }, { 3, NaN, NaN, 1, 1 } };
  const TreemapRect bounds{ 0, 0, 10, 10 };
  TreemapOptions o;
  o.Margin = 1;
  o.Header = 2;
  for (const auto algorithm : { SliceAndDice, Squarified })
  {
    o.Algorithm = algorithm;
    const auto l = LayoutTree(t.Parent, t.Size, bounds, o);
    CheckLayout(t, l, bounds, o);
    EXPECT_EQ(l.Depth, (std::vector<int>{ 2, 0, 1, 1, 2 }));
    EXPECT_EQ(l.Size, (std::vector<double>{ 3, 5, 4, 1, 1 }));
    ExpectRect(l.Rects[1], 0, 0, 10, 10, 0.0);
    ExpectRect(l.Rects[2], 1, 1, 7.4, 7);
    ExpectRect(l.Rects[3], 7.4, 1, 9, 7);
    if (algorithm == SliceAndDice)
    {
      ExpectRect(l.Rects[0], 2, 4.5 - 2.5 * 0.75, 6.4, 4.5);
      ExpectRect(l.Rects[4], 2, 2, 6.4, 4.5 - 2.5 * 0.75);
    }
    else
    {
      ExpectRect(l.Rects[0], 2, 2, 5.3, 4.5);
      ExpectRect(l.Rects[4], 5.3, 2, 6.4, 4.5);
    }
  }
}

TEST(Treemap, MarginsLimitedToAQuarter)
{
  // A 2 x 2 root with margin 1 and header 1: each limited to 2/4 = 0.5.
  const auto l = LayoutTree(
    { -1, 0 }, { NaN, 7 }, TreemapRect{ 0, 0, 2, 2 }, TreemapOptions{ Squarified, 1.0, 1.0 });
  ExpectRect(l.Rects[1], 0.5, 0.5, 1.5, 1.0, 0.0);
  // A wide, flat root: the x margin is the full 1, the y ones are capped.
  const auto w = LayoutTree(
    { -1, 0 }, { NaN, 7 }, TreemapRect{ 0, 0, 20, 2 }, TreemapOptions{ SliceAndDice, 1.0, 0.25 });
  ExpectRect(w.Rects[1], 1, 0.5, 19, 1.25, 0.0);
}

TEST(Treemap, SliceAndDiceAlternatesWithDepth)
{
  // 0 -> {1, 2}, 1 -> {3, 4}, 2 -> {5, 6}: the root's children along x,
  // theirs along y (top first).
  const Tree t{ { -1, 0, 0, 1, 1, 2, 2 }, { NaN, NaN, NaN, 1, 3, 2, 2 } };
  const auto l = LayoutTree(
    t.Parent, t.Size, TreemapRect{ 0, 0, 8, 4 }, TreemapOptions{ SliceAndDice, 0.0, 0.0 });
  ExpectRect(l.Rects[1], 0, 0, 4, 4);
  ExpectRect(l.Rects[2], 4, 0, 8, 4);
  ExpectRect(l.Rects[3], 0, 3, 4, 4);
  ExpectRect(l.Rects[4], 0, 0, 4, 3);
  ExpectRect(l.Rects[5], 4, 2, 8, 4);
  ExpectRect(l.Rects[6], 4, 0, 8, 2);
}

TEST(Treemap, TreeTiesKeepIndexOrder)
{
  // The root's four equal children, listed after it in the order 4 2 3 1:
  // squarified sorts them by index (see SquarifiedEqualValuesKeepIndexOrder).
  const auto l = LayoutTree(
    { -1, 0, 0, 0, 0 }, { NaN, 1, 1, 1, 1 }, TreemapRect{ 0, 0, 2, 2 }, TreemapOptions{});
  ExpectRect(l.Rects[1], 0, 1, 1, 2);
  ExpectRect(l.Rects[2], 0, 0, 1, 1);
  ExpectRect(l.Rects[3], 1, 1, 2, 2);
  ExpectRect(l.Rects[4], 1, 0, 2, 1);
  // The same children numbered in another order: the lowest index on top.
  const auto m = LayoutTree(
    { 4, 4, 4, 4, -1 }, { 1, 1, 1, 1, NaN }, TreemapRect{ 0, 0, 2, 2 }, TreemapOptions{});
  ExpectRect(m.Rects[0], 0, 1, 1, 2);
  ExpectRect(m.Rects[3], 1, 0, 2, 1);
}

TEST(Treemap, RandomTreesKeepEveryInvariant)
{
  std::mt19937 rng(20240808);
  const TreemapRect bounds{ 0, 0, 1280, 720 };
  for (const Shape shape : { Shape::Recursive, Shape::Flat, Shape::Levels, Shape::Caterpillar })
  {
    for (int trial = 0; trial < 3; ++trial)
    {
      const Tree t = RandomTree(shape, rng, trial == 2 ? 0.25 : 0.0);
      for (const auto algorithm : { Squarified, SliceAndDice, TreemapAlgorithm::OrderedSquarified })
      {
        for (const auto& [margin, header] : { std::pair{ 0.0, 0.0 }, std::pair{ 2.0, 0.0 },
               std::pair{ 3.0, 12.0 }, std::pair{ 40.0, 100.0 } })
        {
          SCOPED_TRACE("shape " + std::to_string(static_cast<int>(shape)) + ", trial " +
            std::to_string(trial) + ", margin " + std::to_string(margin) + ", header " +
            std::to_string(header));
          const TreemapOptions o{ algorithm, margin, header };
          CheckLayout(t, LayoutTree(t.Parent, t.Size, bounds, o), bounds, o);
        }
      }
    }
  }
}

TEST(Treemap, SquarifiedBeatsSliceAndDiceOnRandomTrees)
{
  std::mt19937 rng(77);
  const TreemapRect bounds{ 0, 0, 1280, 720 };
  for (const Shape shape : { Shape::Recursive, Shape::Flat, Shape::Levels, Shape::Caterpillar })
  {
    for (int trial = 0; trial < 3; ++trial)
    {
      const Tree t = RandomTree(shape, rng, 0.1);
      for (const double margin : { 0.0, 2.0 })
      {
        const TreemapOptions square{ Squarified, margin, margin };
        const TreemapOptions slice{ SliceAndDice, margin, margin };
        const double a = MeanAspectRatio(Leaves(t, LayoutTree(t.Parent, t.Size, bounds, square)));
        const double b = MeanAspectRatio(Leaves(t, LayoutTree(t.Parent, t.Size, bounds, slice)));
        EXPECT_LT(a, b) << "shape " << static_cast<int>(shape) << ", trial " << trial << ", margin "
                        << margin;
      }
    }
  }
}

TEST(Treemap, SingleLeafFillsTheBounds)
{
  const TreemapRect bounds{ -1, 2, 3, 5 };
  for (const auto algorithm : { Squarified, SliceAndDice })
  {
    const auto one = LayoutTree({ -1 }, { 4 }, bounds, TreemapOptions{ algorithm, 1, 1 });
    ExpectRect(one.Rects[0], -1, 2, 3, 5, 0.0);
    EXPECT_EQ(one.Size[0], 4);
    EXPECT_EQ(one.Depth[0], 0);
    // A root whose only leaf has size 0: the leaf is empty, inside.
    const auto zero = LayoutTree({ 1, -1 }, { 0, NaN }, bounds, TreemapOptions{ algorithm });
    EXPECT_EQ(zero.Rects[0].Area(), 0.0);
    EXPECT_TRUE(bounds.Contains(zero.Rects[0]));
    const auto child = LayoutTree({ 1, -1 }, { 2, NaN }, bounds, TreemapOptions{ algorithm });
    ExpectRect(child.Rects[0], -1, 2, 3, 5, 0.0);
  }
  EXPECT_TRUE(LayoutTree({}, {}, bounds).Rects.empty());
}

TEST(Treemap, DeepChainsDoNotOverflowTheStack)
{
  const std::size_t n = 100000;
  const TreemapRect bounds{ 0, 0, 1, 1 };
  // Downwards (parent i - 1) and upwards (parent i + 1) numbering.
  for (const bool down : { true, false })
  {
    Tree t{ std::vector<int64_t>(n), std::vector<double>(n, NaN) };
    for (std::size_t i = 0; i < n; ++i)
    {
      t.Parent[i] =
        down ? static_cast<int64_t>(i) - 1 : (i + 1 == n ? -1 : static_cast<int64_t>(i + 1));
    }
    const std::size_t leaf = down ? n - 1 : 0;
    const std::size_t root = down ? 0 : n - 1;
    t.Size[leaf] = 2.5;
    for (const auto algorithm : { Squarified, SliceAndDice })
    {
      const auto flat = LayoutTree(t.Parent, t.Size, bounds, TreemapOptions{ algorithm });
      EXPECT_EQ(flat.Depth[leaf], static_cast<int>(n - 1));
      EXPECT_EQ(flat.Size[root], 2.5);
      ExpectRect(flat.Rects[leaf], 0, 0, 1, 1, 0.0);

      // With margins every level shrinks; each must stay inside its parent.
      const auto nested =
        LayoutTree(t.Parent, t.Size, bounds, TreemapOptions{ algorithm, 0.01, 0.02 });
      for (std::size_t v = 0; v < n; ++v)
      {
        if (v != root && !nested.Rects[t.Parent[v]].Contains(nested.Rects[v]))
        {
          ADD_FAILURE() << "node " << v << " outside its parent";
          break;
        }
      }
      EXPECT_EQ(nested.Depth[leaf], static_cast<int>(n - 1));
    }
  }
}

TEST(Treemap, MalformedTreesThrow)
{
  const TreemapRect b{ 0, 0, 1, 1 };
  ExpectInvalid([&] { LayoutTree({ -1, -1 }, { 1, 1 }, b); }, "both roots");
  ExpectInvalid([&] { LayoutTree({ 1, 0 }, { 1, 1 }, b); }, "no root");
  ExpectInvalid([&] { LayoutTree({ 0 }, { 1 }, b); }, "no root");
  ExpectInvalid([&] { LayoutTree({ -1, 2, 1 }, { 1, 1, 1 }, b); }, "cycle");
  ExpectInvalid([&] { LayoutTree({ -1, 1 }, { 1, 1 }, b); }, "cycle");
  ExpectInvalid([&] { LayoutTree({ -1, 5 }, { 1, 1 }, b); }, "node 1 has parent 5");
  ExpectInvalid([&] { LayoutTree({ -1, 0, -2 }, { 1, 1, 1 }, b); }, "node 2 has parent -2");
  ExpectInvalid([&] { LayoutTree({ -1, 0 }, { 1 }, b); }, "sizes");
  ExpectInvalid([&] { LayoutTree({ -1, 0, 0 }, { 1, 1, -1 }, b); }, "leaf 2");
  ExpectInvalid([&] { LayoutTree({ -1, 0, 0 }, { 1, NaN, 1 }, b); }, "leaf 1");
  ExpectInvalid([&] { LayoutTree({ -1, 0, 0 }, { 1, 1, Inf }, b); }, "leaf 2");
  ExpectInvalid([&] { LayoutTree({ -1, 0, 0 }, { 0, 1e308, 1e308 }, b); }, "infinity");
  ExpectInvalid(
    [&] {
      LayoutTree({ -1, 0 }, { 1, 1 }, b, TreemapOptions{ Squarified, -1, 0 });
    },
    "margin");
  ExpectInvalid(
    [&] {
      LayoutTree({ -1, 0 }, { 1, 1 }, b, TreemapOptions{ Squarified, 0, NaN });
    },
    "header");
  ExpectInvalid([&] { LayoutTree({ -1 }, { 1 }, TreemapRect{ 0, 0, Inf, 1 }); }, "bounds");
}

TEST(Treemap, OrderedSquarifiedKeepsItsOrderWhenSizesChange)
{
  // Index 0 is not the largest: ordered, it still takes the top-left corner.
  const TreemapRect bounds{ 0, 0, 6, 4 };
  const auto before =
    LayoutRectangles({ 1, 5, 2, 3, 2 }, bounds, TreemapAlgorithm::OrderedSquarified);
  const auto after =
    LayoutRectangles({ 1.3, 4.6, 2.2, 2.8, 2.1 }, bounds, TreemapAlgorithm::OrderedSquarified);
  for (const auto* layout : { &before, &after })
  {
    EXPECT_DOUBLE_EQ((*layout)[0].X0, 0.0);
    EXPECT_DOUBLE_EQ((*layout)[0].Y1, 4.0);
  }
  // Every rectangle keeps its neighbourhood: its centre moves by less than
  // a third of the shorter side of the bounds, where largest-first layouts
  // swap places (value 1 overtakes value 2 here).
  for (std::size_t i = 0; i < before.size(); ++i)
  {
    const double dx = 0.5 * (before[i].X0 + before[i].X1 - after[i].X0 - after[i].X1);
    const double dy = 0.5 * (before[i].Y0 + before[i].Y1 - after[i].Y0 - after[i].Y1);
    EXPECT_LT(std::hypot(dx, dy), 4.0 / 3.0) << "rectangle " << i;
  }
  const auto sortedBefore = LayoutRectangles({ 1, 5, 2, 3, 2 }, bounds, Squarified);
  EXPECT_GT(sortedBefore[0].X0 + sortedBefore[0].Y0, 0.0); // largest first moved index 0 away
  // The areas are still proportional to the values.
  double total = 0.0;
  for (const auto& r : after)
  {
    total += r.Area();
  }
  EXPECT_NEAR(total, bounds.Area(), 1e-9);
  EXPECT_NEAR(after[1].Area() / bounds.Area(), 4.6 / 13.0, 1e-9);
}
