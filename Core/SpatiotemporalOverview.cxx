#include "SpatiotemporalOverview.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace macroscope
{

namespace
{
// Row heights are sums of PlotHeight / leaves: forgive the rounding so that
// 300 leaves in 900 pixels are exactly 3 pixels tall.
constexpr double HeightTolerance = 1e-9;

bool Visible(
  const AggregationHierarchy& hierarchy, int64_t node, double leafHeight, double minRowHeight)
{
  return hierarchy.LeafCount(node) * leafHeight >= minRowHeight * (1.0 - HeightTolerance);
}

// The mode of `values` (lowest index on ties) and its share of their sum.
void ModeOf(const double* values, uint32_t types, uint32_t& mode, double& proportion)
{
  mode = 0;
  double total = 0.0;
  for (uint32_t u = 0; u < types; ++u)
  {
    total += values[u];
    if (values[u] > values[mode])
    {
      mode = u;
    }
  }
  proportion = total > 0.0 ? values[mode] / total : 0.0;
}

void Fail(const std::string& message)
{
  throw std::invalid_argument("spatiotemporal overview: " + message);
}
}

std::vector<int64_t> OverviewDisplayCut(
  const AggregationHierarchy& hierarchy, double leafHeight, double minRowHeight)
{
  std::vector<int64_t> rows;
  std::vector<int64_t> pending{ hierarchy.Root() };
  while (!pending.empty())
  {
    const int64_t node = pending.back();
    pending.pop_back();
    const std::vector<int64_t>& children = hierarchy.Children(node);
    const bool descend = !children.empty() &&
      std::all_of(children.begin(), children.end(),
        [&](int64_t child) { return Visible(hierarchy, child, leafHeight, minRowHeight); });
    if (descend)
    {
      pending.insert(pending.end(), children.begin(), children.end());
    }
    else
    {
      rows.push_back(node);
    }
  }
  std::sort(rows.begin(), rows.end(),
    [&](int64_t a, int64_t b) { return hierarchy.LeafBegin(a) < hierarchy.LeafBegin(b); });
  return rows;
}

SpatiotemporalOverview LayoutSpatiotemporalOverview(const AggregationHierarchy& hierarchy,
  const std::vector<OverviewPart>& parts, uint32_t types,
  const SpatiotemporalOverviewOptions& options)
{
  const int slices = options.Slices;
  const uint32_t leaves = hierarchy.Leaves();
  if (slices < 1 || leaves < 1 || types < 1)
  {
    Fail("the model needs at least one slice, one leaf and one type");
  }
  if (!std::isfinite(options.WindowBegin) || !std::isfinite(options.WindowEnd) ||
    !(options.WindowBegin < options.WindowEnd))
  {
    Fail("the time window must be finite and end after it starts");
  }
  if (!std::isfinite(options.PlotWidth) || !std::isfinite(options.PlotHeight) ||
    !(options.PlotWidth > 0.0) || !(options.PlotHeight > 0.0))
  {
    Fail("the plot size must be finite and positive");
  }
  if (!std::isfinite(options.MinRowHeight) || !(options.MinRowHeight >= 0.0))
  {
    Fail("MinRowHeight must be a finite number of pixels >= 0");
  }

  // Every part valid, and together they tile leaves x slices exactly once.
  const int64_t nodes = static_cast<int64_t>(hierarchy.Nodes());
  std::vector<uint8_t> covered(static_cast<std::size_t>(leaves) * slices, 0);
  std::size_t cells = 0;
  for (std::size_t i = 0; i < parts.size(); ++i)
  {
    const OverviewPart& part = parts[i];
    const std::string which = "part " + std::to_string(i);
    if (part.Node < 0 || part.Node >= nodes)
    {
      Fail(which + " has node " + std::to_string(part.Node) + ", not a node of the hierarchy");
    }
    if (part.FirstSlice < 0 || part.LastSlice < part.FirstSlice || part.LastSlice >= slices)
    {
      Fail(which + " has slices [" + std::to_string(part.FirstSlice) + ", " +
        std::to_string(part.LastSlice) + "], not a range of the " + std::to_string(slices) +
        " slices");
    }
    if (part.Mean.size() != types)
    {
      Fail(which + " has " + std::to_string(part.Mean.size()) + " means, not one per type (" +
        std::to_string(types) + ")");
    }
    for (double mean : part.Mean)
    {
      if (!std::isfinite(mean) || mean < 0.0)
      {
        Fail(which + " has a mean that is negative or not finite");
      }
    }
    if (!part.SignedMean.empty() && part.SignedMean.size() != types)
    {
      Fail(which + " has " + std::to_string(part.SignedMean.size()) +
        " signed means, not one per type (" + std::to_string(types) + ") or none");
    }
    for (uint32_t leaf = hierarchy.LeafBegin(part.Node); leaf < hierarchy.LeafEnd(part.Node);
         ++leaf)
    {
      for (int t = part.FirstSlice; t <= part.LastSlice; ++t)
      {
        uint8_t& cell = covered[static_cast<std::size_t>(leaf) * slices + t];
        if (cell)
        {
          Fail(which + " overlaps another part at leaf " + std::to_string(leaf) + ", slice " +
            std::to_string(t));
        }
        cell = 1;
        ++cells;
      }
    }
  }
  if (cells != covered.size())
  {
    const std::size_t hole = static_cast<std::size_t>(
      std::find(covered.begin(), covered.end(), uint8_t(0)) - covered.begin());
    Fail("the parts do not cover leaf " + std::to_string(hole / slices) + ", slice " +
      std::to_string(hole % slices));
  }

  SpatiotemporalOverview overview;
  const double height = options.PlotHeight;
  const double width = options.PlotWidth;
  overview.LeafHeight = height / leaves;
  // Computed from the boundary index so that the plot's edges are exact.
  auto yOf = [&](uint32_t leaf) { return height * double(leaves - leaf) / leaves; };
  auto xOf = [&](int boundary) { return width * double(boundary) / slices; };
  auto timeOf = [&](int boundary)
  {
    return boundary == slices
      ? options.WindowEnd
      : options.WindowBegin + (options.WindowEnd - options.WindowBegin) * boundary / slices;
  };
  auto mark = [&](int64_t node, int first, int last)
  {
    OverviewMark m;
    m.Node = node;
    m.FirstLeaf = hierarchy.LeafBegin(node);
    m.LeafEnd = hierarchy.LeafEnd(node);
    m.FirstSlice = first;
    m.LastSlice = last;
    m.Start = timeOf(first);
    m.End = timeOf(last + 1);
    m.X0 = xOf(first);
    m.X1 = xOf(last + 1);
    m.Y0 = yOf(m.LeafEnd);
    m.Y1 = yOf(m.FirstLeaf);
    return m;
  };

  // The display cut, and which nodes lie strictly below it.
  const std::vector<int64_t> cut =
    OverviewDisplayCut(hierarchy, overview.LeafHeight, options.MinRowHeight);
  std::vector<uint8_t> isRow(static_cast<std::size_t>(nodes), 0);
  std::vector<int64_t> rowOfLeaf(leaves, -1);
  for (int64_t node : cut)
  {
    isRow[node] = 1;
    for (uint32_t leaf = hierarchy.LeafBegin(node); leaf < hierarchy.LeafEnd(node); ++leaf)
    {
      rowOfLeaf[leaf] = node;
    }
    overview.Rows.push_back({ node, hierarchy.LeafBegin(node), hierarchy.LeafEnd(node),
      yOf(hierarchy.LeafEnd(node)), yOf(hierarchy.LeafBegin(node)) });
  }
  // Parents have larger ids: one pass from the root down.
  std::vector<uint8_t> below(static_cast<std::size_t>(nodes), 0);
  for (int64_t node = nodes - 1; node >= 0; --node)
  {
    const int64_t up = hierarchy.ParentOf(node);
    below[node] = up >= 0 && (isRow[up] || below[up]);
  }

  // Parts at or above the cut are drawn as themselves; the others wait for
  // their display row.
  std::vector<std::vector<std::size_t>> hidden(static_cast<std::size_t>(nodes));
  for (std::size_t i = 0; i < parts.size(); ++i)
  {
    const OverviewPart& part = parts[i];
    if (below[part.Node])
    {
      hidden[rowOfLeaf[hierarchy.LeafBegin(part.Node)]].push_back(i);
      continue;
    }
    OverviewMark m = mark(part.Node, part.FirstSlice, part.LastSlice);
    m.Part = static_cast<int64_t>(i);
    ModeOf(part.Mean.data(), types, m.Mode, m.ModeProportion);
    m.Value = part.Mean[m.Mode];
    m.SignedValue = part.SignedMean.empty() ? 0.0 : part.SignedMean[m.Mode];
    overview.Marks.push_back(m);
  }

  // Visual aggregates: each display row's time is split at the boundaries
  // shared by all its leaves; the slices its hidden parts cover form runs
  // (the others belong to parts above the row, over all its leaves), and
  // each piece of a run between shared boundaries is one aggregate.
  std::vector<uint32_t> starts(static_cast<std::size_t>(slices) + 1);
  std::vector<int> coverage(static_cast<std::size_t>(slices) + 1);
  std::vector<double> sum(types);
  std::vector<double> signedSum(types);
  for (int64_t row : cut)
  {
    std::vector<std::size_t>& inside = hidden[row];
    if (inside.empty())
    {
      continue;
    }
    const uint32_t rowLeaves = hierarchy.LeafCount(row);
    std::fill(starts.begin(), starts.end(), 0u);
    std::fill(coverage.begin(), coverage.end(), 0);
    for (std::size_t i : inside)
    {
      // Each leaf's parts start at its cuts (the slice boundaries it has).
      starts[parts[i].FirstSlice] += hierarchy.LeafCount(parts[i].Node);
      ++coverage[parts[i].FirstSlice];
      --coverage[parts[i].LastSlice + 1];
    }
    std::stable_sort(inside.begin(), inside.end(),
      [&](std::size_t a, std::size_t b) { return parts[a].FirstSlice < parts[b].FirstSlice; });
    std::size_t next = 0; // first part of `inside` not yet in an aggregate
    int running = 0;
    int open = -1; // first slice of the aggregate being built, -1 if none
    auto close = [&](int end)
    {
      // The aggregate [open, end): the hidden parts starting in it.
      OverviewMark m = mark(row, open, end - 1);
      m.Kind = OverviewMarkKind::DiagonalAggregate;
      m.PartCount = 0;
      std::fill(sum.begin(), sum.end(), 0.0);
      std::fill(signedSum.begin(), signedSum.end(), 0.0);
      for (; next < inside.size() && parts[inside[next]].FirstSlice < end; ++next)
      {
        const OverviewPart& part = parts[inside[next]];
        const double partCells =
          double(hierarchy.LeafCount(part.Node)) * (part.LastSlice - part.FirstSlice + 1);
        for (uint32_t u = 0; u < types; ++u)
        {
          sum[u] += part.Mean[u] * partCells;
          signedSum[u] += part.SignedMean.empty() ? 0.0 : part.SignedMean[u] * partCells;
        }
        if (part.FirstSlice != open || part.LastSlice + 1 != end)
        {
          m.Kind = OverviewMarkKind::CrossAggregate;
        }
        ++m.PartCount;
      }
      ModeOf(sum.data(), types, m.Mode, m.ModeProportion);
      m.Value = sum[m.Mode] / (double(rowLeaves) * (end - open));
      m.SignedValue = signedSum[m.Mode] / (double(rowLeaves) * (end - open));
      overview.Marks.push_back(m);
      ++overview.Aggregates;
      open = -1;
    };
    for (int t = 0; t <= slices; ++t)
    {
      running += coverage[t];
      const bool hiddenHere = t < slices && running > 0;
      if (open >= 0 && (!hiddenHere || starts[t] == rowLeaves))
      {
        close(t);
      }
      if (hiddenHere && open < 0)
      {
        open = t;
      }
    }
  }

  std::sort(overview.Marks.begin(), overview.Marks.end(),
    [](const OverviewMark& a, const OverviewMark& b) {
      return a.FirstLeaf != b.FirstLeaf ? a.FirstLeaf < b.FirstLeaf : a.FirstSlice < b.FirstSlice;
    });
  return overview;
}

}
