#include "Treemap.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace macroscope
{

double TreemapRect::AspectRatio() const
{
  const double w = this->Width();
  const double h = this->Height();
  if (!(w > 0.0) || !(h > 0.0))
  {
    return std::numeric_limits<double>::infinity();
  }
  return w > h ? w / h : h / w;
}

bool TreemapRect::Contains(const TreemapRect& inner, double tolerance) const
{
  return inner.X0 >= this->X0 - tolerance && inner.X1 <= this->X1 + tolerance &&
    inner.Y0 >= this->Y0 - tolerance && inner.Y1 <= this->Y1 + tolerance;
}

double MeanAspectRatio(const std::vector<TreemapRect>& rects)
{
  double sum = 0.0;
  std::size_t count = 0;
  for (const TreemapRect& r : rects)
  {
    if (r.Area() > 0.0)
    {
      sum += r.AspectRatio();
      ++count;
    }
  }
  return count == 0 ? 0.0 : sum / static_cast<double>(count);
}

namespace
{

void CheckBounds(const TreemapRect& b)
{
  if (!std::isfinite(b.X0) || !std::isfinite(b.Y0) || !std::isfinite(b.X1) ||
    !std::isfinite(b.Y1) || b.X1 < b.X0 || b.Y1 < b.Y0)
  {
    throw std::invalid_argument("Treemap: the bounds [" + std::to_string(b.X0) + ", " +
      std::to_string(b.X1) + "] x [" + std::to_string(b.Y0) + ", " + std::to_string(b.Y1) +
      "] are not a finite rectangle with X0 <= X1 and Y0 <= Y1");
  }
}

// Reusable buffers, so that laying out a tree does not allocate per node.
struct Scratch
{
  std::vector<std::size_t> Order;
  std::vector<double> Suffix;
};

// Boundary k of a cut of [from, to] at fraction num / den, clamped so that
// rounding can never step outside the interval. `to` may be below `from`
// (cuts from the top downwards).
double Cut(double from, double to, double num, double den)
{
  const double x = from + (to - from) * (num / den);
  return from <= to ? std::min(x, to) : std::max(x, to);
}

// Parallel strips in index order: along x from X0, or along y from the top
// (Y1) down, so that the first value is at the top-left corner as in the
// squarified layout. The last positive value ends exactly on the border.
void SliceAndDice(const double* values, std::size_t n, double total, const TreemapRect& b,
  bool alongX, TreemapRect* out)
{
  std::size_t lastPositive = n;
  for (std::size_t i = n; i-- > 0;)
  {
    if (values[i] > 0.0)
    {
      lastPositive = i;
      break;
    }
  }
  const double from = alongX ? b.X0 : b.Y1;
  const double to = alongX ? b.X1 : b.Y0;
  double cumulative = 0.0;
  double start = from;
  for (std::size_t i = 0; i < n; ++i)
  {
    double end = start;
    if (values[i] > 0.0)
    {
      cumulative += values[i];
      end = i == lastPositive ? to : Cut(from, to, cumulative, total);
    }
    out[i] = alongX ? TreemapRect{ start, b.Y0, end, b.Y1 } : TreemapRect{ b.X0, end, b.X1, start };
    start = end;
  }
}

// Bruls, Huizing and van Wijk's squarified layout. Values are taken in
// decreasing order (ties by index). Each row is laid along the shorter side
// of the rectangle still free: a column at its left when it is at least as
// wide as high, a row along its top otherwise; a value joins the current
// row while that does not make the row's worst aspect ratio worse. Strip
// thicknesses and positions inside a row are fractions of sums of values, and
// the last row and the last rectangle of every row end on the border, so
// rounding never accumulates into gaps or overlaps.
void Squarify(const double* values, std::size_t n, const TreemapRect& b, TreemapRect* out,
  Scratch& scratch, bool largestFirst)
{
  std::vector<std::size_t>& order = scratch.Order;
  order.clear();
  for (std::size_t i = 0; i < n; ++i)
  {
    if (values[i] > 0.0)
    {
      order.push_back(i);
    }
    else
    {
      // Zero values end up where the layout ends: the bottom-right corner.
      out[i] = TreemapRect{ b.X1, b.Y0, b.X1, b.Y0 };
    }
  }
  if (largestFirst)
  {
    std::stable_sort(order.begin(), order.end(),
      [values](std::size_t a, std::size_t c) { return values[a] > values[c]; });
  }
  const std::size_t m = order.size();
  if (m == 0)
  {
    return;
  }
  // Suffix[k]: sum of the k-th largest value and the smaller ones, added from
  // the smallest up for accuracy. The value sum of the free rectangle.
  std::vector<double>& suffix = scratch.Suffix;
  suffix.assign(m + 1, 0.0);
  for (std::size_t k = m; k-- > 0;)
  {
    suffix[k] = suffix[k + 1] + values[order[k]];
  }

  TreemapRect free = b;
  std::size_t first = 0;
  while (first < m)
  {
    const double w = free.Width();
    const double h = free.Height();
    const bool column = w >= h;
    // Areas in units of the shorter side squared (so that huge or tiny
    // bounds neither overflow nor underflow): the free rectangle's area is
    // long / short, spread over the values left.
    const double scale = (column ? w / h : h / w) / suffix[first];

    // Grow the row [first, last) while the worst aspect ratio improves. As
    // values decrease, the row's largest is its first and its smallest the
    // one just added, so each step is O(1).
    const double largest = values[order[first]] * scale;
    double rowArea = largest;
    double worst = std::max(1.0 / rowArea, rowArea); // one item: its own ratio
    std::size_t last = first + 1;
    while (last < m)
    {
      const double candidate = values[order[last]] * scale;
      const double area = rowArea + candidate;
      const double area2 = area * area;
      // With a unit side the row is `area` thick and an item of area r is
      // r / area long, of ratio max(area^2 / r, r / area^2): the extremes
      // are the row's largest and its smallest.
      const double next = std::max(largest / area2, area2 / candidate);
      if (next > worst)
      {
        break;
      }
      worst = next;
      rowArea = area;
      ++last;
    }

    double rowSum = 0.0;
    for (std::size_t k = first; k < last; ++k)
    {
      rowSum += values[order[k]];
    }
    const bool lastRow = last == m;
    if (column)
    {
      const double x = lastRow ? free.X1 : Cut(free.X0, free.X1, rowSum, suffix[first]);
      double cumulative = 0.0;
      double top = free.Y1;
      for (std::size_t k = first; k < last; ++k)
      {
        cumulative += values[order[k]];
        const double bottom = k + 1 == last ? free.Y0 : Cut(free.Y1, free.Y0, cumulative, rowSum);
        out[order[k]] = TreemapRect{ free.X0, bottom, x, top };
        top = bottom;
      }
      free.X0 = x;
    }
    else
    {
      const double y = lastRow ? free.Y0 : Cut(free.Y1, free.Y0, rowSum, suffix[first]);
      double cumulative = 0.0;
      double left = free.X0;
      for (std::size_t k = first; k < last; ++k)
      {
        cumulative += values[order[k]];
        const double right = k + 1 == last ? free.X1 : Cut(free.X0, free.X1, cumulative, rowSum);
        out[order[k]] = TreemapRect{ left, y, right, free.Y1 };
        left = right;
      }
      free.Y1 = y;
    }
    first = last;
  }
}

// Lays out n checked values (finite, >= 0) in checked bounds.
void Layout(const double* values, std::size_t n, const TreemapRect& b, TreemapAlgorithm algorithm,
  bool alongX, TreemapRect* out, Scratch& scratch)
{
  double total = 0.0;
  for (std::size_t i = 0; i < n; ++i)
  {
    total += values[i];
  }
  if (!std::isfinite(total))
  {
    throw std::invalid_argument("Treemap: the values' sum overflows to infinity");
  }
  if (total == 0.0)
  {
    // Nothing to show: every rectangle is the empty bottom-right corner.
    std::fill(out, out + n, TreemapRect{ b.X1, b.Y0, b.X1, b.Y0 });
    return;
  }
  if (algorithm == TreemapAlgorithm::SliceAndDice)
  {
    SliceAndDice(values, n, total, b, alongX, out);
  }
  else if (!(b.Area() > 0.0))
  {
    // A line or a point has no shape to optimise: cut along its extent.
    SliceAndDice(values, n, total, b, b.Width() >= b.Height(), out);
  }
  else
  {
    Squarify(values, n, b, out, scratch, algorithm == TreemapAlgorithm::Squarified);
  }
}

}

std::vector<TreemapRect> LayoutRectangles(const std::vector<double>& values,
  const TreemapRect& bounds, TreemapAlgorithm algorithm, bool alongX)
{
  CheckBounds(bounds);
  for (std::size_t i = 0; i < values.size(); ++i)
  {
    if (!std::isfinite(values[i]) || values[i] < 0.0)
    {
      throw std::invalid_argument("Treemap: value at index " + std::to_string(i) + " is " +
        std::to_string(values[i]) + "; values must be finite and >= 0");
    }
  }
  std::vector<TreemapRect> rects(values.size());
  Scratch scratch;
  Layout(values.data(), values.size(), bounds, algorithm, alongX, rects.data(), scratch);
  return rects;
}

TreemapLayout LayoutTree(const std::vector<int64_t>& parent, const std::vector<double>& size,
  const TreemapRect& bounds, const TreemapOptions& options)
{
  CheckBounds(bounds);
  if (!std::isfinite(options.Margin) || options.Margin < 0.0)
  {
    throw std::invalid_argument(
      "Treemap: the margin " + std::to_string(options.Margin) + " must be finite and >= 0");
  }
  if (!std::isfinite(options.Header) || options.Header < 0.0)
  {
    throw std::invalid_argument(
      "Treemap: the header " + std::to_string(options.Header) + " must be finite and >= 0");
  }
  const std::size_t n = parent.size();
  if (size.size() != n)
  {
    throw std::invalid_argument(
      "Treemap: " + std::to_string(size.size()) + " sizes for " + std::to_string(n) + " nodes");
  }
  TreemapLayout layout;
  if (n == 0)
  {
    return layout;
  }

  // Child lists in compressed form, children in increasing index order.
  const auto count = static_cast<int64_t>(n);
  std::size_t root = n;
  std::vector<std::size_t> firstChild(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v)
  {
    const int64_t p = parent[v];
    if (p == -1)
    {
      if (root != n)
      {
        throw std::invalid_argument("Treemap: nodes " + std::to_string(root) + " and " +
          std::to_string(v) + " are both roots (parent -1); a tree has one");
      }
      root = v;
    }
    else if (p < 0 || p >= count)
    {
      throw std::invalid_argument("Treemap: node " + std::to_string(v) + " has parent " +
        std::to_string(p) + ", outside [-1, " + std::to_string(n) + ")");
    }
    else
    {
      ++firstChild[static_cast<std::size_t>(p) + 1];
    }
  }
  if (root == n)
  {
    throw std::invalid_argument("Treemap: no node has parent -1; the tree has no root");
  }
  std::partial_sum(firstChild.begin(), firstChild.end(), firstChild.begin());
  std::vector<std::size_t> children(n - 1);
  {
    std::vector<std::size_t> filled(firstChild.begin(), firstChild.end() - 1);
    for (std::size_t v = 0; v < n; ++v)
    {
      if (parent[v] >= 0)
      {
        children[filled[static_cast<std::size_t>(parent[v])]++] = v;
      }
    }
  }

  // Breadth-first order from the root: parents before children, and no
  // recursion, so chains of any depth are fine. A node never reached lies
  // on a cycle (or hangs below one).
  std::vector<std::size_t> order;
  order.reserve(n);
  layout.Depth.assign(n, -1);
  layout.Depth[root] = 0;
  order.push_back(root);
  for (std::size_t k = 0; k < order.size(); ++k)
  {
    const std::size_t v = order[k];
    for (std::size_t c = firstChild[v]; c < firstChild[v + 1]; ++c)
    {
      layout.Depth[children[c]] = layout.Depth[v] + 1;
      order.push_back(children[c]);
    }
  }
  if (order.size() != n)
  {
    const auto it = std::find(layout.Depth.begin(), layout.Depth.end(), -1);
    throw std::invalid_argument("Treemap: node " + std::to_string(it - layout.Depth.begin()) +
      " is not below the root; the parents form a cycle");
  }

  // Sizes: leaves checked, inner nodes summed bottom-up.
  layout.Size.assign(n, 0.0);
  for (std::size_t v = 0; v < n; ++v)
  {
    if (firstChild[v] == firstChild[v + 1])
    {
      if (!std::isfinite(size[v]) || size[v] < 0.0)
      {
        throw std::invalid_argument("Treemap: leaf " + std::to_string(v) + " has size " +
          std::to_string(size[v]) + "; sizes must be finite and >= 0");
      }
      layout.Size[v] = size[v];
    }
  }
  for (std::size_t k = n; k-- > 1;)
  {
    const std::size_t v = order[k];
    layout.Size[static_cast<std::size_t>(parent[v])] += layout.Size[v];
  }
  if (!std::isfinite(layout.Size[root]))
  {
    throw std::invalid_argument("Treemap: the sum of the leaf sizes overflows to infinity");
  }

  // Top-down: each inner node's children in its rectangle minus margins.
  layout.Rects.assign(n, TreemapRect{});
  layout.Rects[root] = bounds;
  Scratch scratch;
  std::vector<double> values;
  std::vector<TreemapRect> rects;
  for (const std::size_t v : order)
  {
    const std::size_t begin = firstChild[v];
    const std::size_t end = firstChild[v + 1];
    if (begin == end)
    {
      continue;
    }
    const TreemapRect& r = layout.Rects[v];
    const double mx = std::min(options.Margin, 0.25 * r.Width());
    const double my = std::min(options.Margin, 0.25 * r.Height());
    const double header = std::min(options.Header, 0.25 * r.Height());
    TreemapRect inner{ r.X0 + mx, r.Y0 + my, r.X1 - mx, r.Y1 - my - header };
    // Rounding on a rectangle a few ulps wide must not turn it inside out.
    inner.X1 = std::max(inner.X1, inner.X0);
    inner.Y1 = std::max(inner.Y1, inner.Y0);

    values.clear();
    for (std::size_t c = begin; c < end; ++c)
    {
      values.push_back(layout.Size[children[c]]);
    }
    rects.resize(values.size());
    const bool alongX = layout.Depth[v] % 2 == 0;
    Layout(values.data(), values.size(), inner, options.Algorithm, alongX, rects.data(), scratch);
    for (std::size_t c = begin; c < end; ++c)
    {
      layout.Rects[children[c]] = rects[c - begin];
    }
  }
  return layout;
}

}
