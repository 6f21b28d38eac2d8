#include "LabelPlacement.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace macroscope
{
namespace
{
// The offset of a box's low edge from its anchor, for a box `size` long.
double LowEdge(double anchor, double size, LabelAlign align)
{
  switch (align)
  {
    case LabelAlign::Start:
      return anchor;
    case LabelAlign::Centre:
      return anchor - 0.5 * size;
    case LabelAlign::End:
    default:
      return anchor - size;
  }
}

// Kept boxes bucketed on a uniform grid, so that a candidate is checked
// against the few boxes near it rather than against all: placement stays
// linear in practice with thousands of labels (treemap node names).
class BoxGrid
{
public:
  BoxGrid(const LabelRect& bounds, double cell)
    : X0(bounds.X0)
    , Y0(bounds.Y0)
    , Cell(cell)
    , Columns(Count(bounds.Width()))
    , Rows(Count(bounds.Height()))
    , Buckets(Columns * Rows)
  {
  }

  bool Collides(const LabelRect& box, double gap) const
  {
    bool hit = false;
    this->Visit(box, gap,
      [&](const std::vector<std::size_t>& bucket)
      {
        for (std::size_t k : bucket)
        {
          hit = hit || BoxesOverlap(box, this->Kept[k], gap);
        }
      });
    return hit;
  }

  void Add(const LabelRect& box, double gap)
  {
    const std::size_t id = this->Kept.size();
    this->Kept.push_back(box);
    this->Visit(box, gap, [&](std::vector<std::size_t>& bucket) { bucket.push_back(id); });
  }

private:
  std::size_t Count(double length) const
  {
    return static_cast<std::size_t>(std::max(1.0, std::ceil(length / this->Cell)));
  }
  std::size_t Clamp(double offset, std::size_t count) const
  {
    const double cell = std::floor(offset / this->Cell);
    return static_cast<std::size_t>(std::clamp(cell, 0.0, static_cast<double>(count - 1)));
  }
  template <typename Visitor>
  void Visit(const LabelRect& box, double gap, Visitor visit) const
  {
    const std::size_t c0 = this->Clamp(box.X0 - gap - this->X0, this->Columns);
    const std::size_t c1 = this->Clamp(box.X1 + gap - this->X0, this->Columns);
    const std::size_t r0 = this->Clamp(box.Y0 - gap - this->Y0, this->Rows);
    const std::size_t r1 = this->Clamp(box.Y1 + gap - this->Y0, this->Rows);
    for (std::size_t r = r0; r <= r1; ++r)
    {
      for (std::size_t c = c0; c <= c1; ++c)
      {
        visit(const_cast<std::vector<std::size_t>&>(this->Buckets[r * this->Columns + c]));
      }
    }
  }

  double X0, Y0, Cell;
  std::size_t Columns, Rows;
  std::vector<std::vector<std::size_t>> Buckets;
  std::vector<LabelRect> Kept;
};
}

LabelRect LabelBox(const LabelCandidate& label)
{
  LabelRect box;
  box.X0 = LowEdge(label.X, label.Width, label.Horizontal);
  box.Y0 = LowEdge(label.Y, label.Height, label.Vertical);
  box.X1 = box.X0 + label.Width;
  box.Y1 = box.Y0 + label.Height;
  return box;
}

bool BoxesOverlap(const LabelRect& a, const LabelRect& b, double gap)
{
  return a.X0 < b.X1 + gap && b.X0 < a.X1 + gap && a.Y0 < b.Y1 + gap && b.Y0 < a.Y1 + gap;
}

bool BoxInside(const LabelRect& box, const LabelRect& bounds)
{
  return box.X0 >= bounds.X0 && box.X1 <= bounds.X1 && box.Y0 >= bounds.Y0 && box.Y1 <= bounds.Y1;
}

std::vector<bool> PlaceLabels(
  const std::vector<LabelCandidate>& labels, const LabelRect& bounds, double gap)
{
  std::vector<std::size_t> order(labels.size());
  std::iota(order.begin(), order.end(), std::size_t{ 0 });
  std::stable_sort(order.begin(), order.end(),
    [&](std::size_t a, std::size_t b) { return labels[a].Priority > labels[b].Priority; });
  std::vector<bool> kept(labels.size(), false);
  // Cells of 64 px, or fewer, larger cells in a huge chart: at most 256 a side.
  const double cell = std::max({ 64.0, bounds.Width() / 256.0, bounds.Height() / 256.0 });
  BoxGrid grid(bounds, cell);
  for (std::size_t i : order)
  {
    const LabelRect box = LabelBox(labels[i]);
    if (BoxInside(box, bounds) && !grid.Collides(box, gap))
    {
      grid.Add(box, gap);
      kept[i] = true;
    }
  }
  return kept;
}

std::size_t RowLabelStride(double rowPitch, double labelHeight, double gap, std::size_t rows)
{
  const std::size_t all = std::max<std::size_t>(rows, 1);
  if (!(rowPitch > 0.0))
  {
    return all;
  }
  const double needed = std::ceil((labelHeight + gap) / rowPitch - 1e-9);
  return std::clamp<std::size_t>(static_cast<std::size_t>(std::max(1.0, needed)), 1, all);
}

namespace
{
// The runs of rows that share their group at `level` (negative ids never
// share); false in `tallEnough` when a run is shorter than `pitch`.
std::vector<RowGroup> RowRunsAt(const std::vector<std::vector<int64_t>>& ancestors,
  const std::vector<double>& heights, std::size_t level, double pitch, bool& tallEnough)
{
  auto groupOf = [&](std::size_t row) -> int64_t
  {
    const std::vector<int64_t>& path = ancestors[row];
    return path.empty() ? -1 : path[std::min(level, path.size() - 1)];
  };
  std::vector<RowGroup> runs;
  tallEnough = true;
  std::size_t row = 0;
  while (row < ancestors.size())
  {
    const int64_t group = groupOf(row);
    double height = heights[row];
    std::size_t last = row;
    while (group >= 0 && last + 1 < ancestors.size() && groupOf(last + 1) == group)
    {
      height += heights[++last];
    }
    tallEnough = tallEnough && height >= pitch - 1e-9;
    runs.push_back({ row, last, group });
    row = last + 1;
  }
  return runs;
}
}

std::vector<RowGroup> GroupRowsForLabels(const std::vector<std::vector<int64_t>>& ancestors,
  const std::vector<double>& heights, double labelPitch)
{
  if (heights.size() != ancestors.size())
  {
    throw std::invalid_argument("GroupRowsForLabels: one height per row is needed");
  }
  std::size_t levels = 1;
  for (const std::vector<int64_t>& path : ancestors)
  {
    levels = std::max(levels, path.size());
  }
  std::vector<RowGroup> runs;
  for (std::size_t level = 0; level < levels; ++level)
  {
    bool tallEnough = false;
    runs = RowRunsAt(ancestors, heights, level, labelPitch, tallEnough);
    if (tallEnough)
    {
      break;
    }
  }
  return runs;
}

int TickLabelBudget(double axisLength, double widestLabel, double gap)
{
  const double slot = widestLabel + gap;
  if (!(slot > 0.0))
  {
    return 1;
  }
  return std::max(1, static_cast<int>(std::floor(axisLength / slot)));
}

bool TickLabelsFit(
  const std::vector<double>& positions, const std::vector<double>& widths, double gap)
{
  for (std::size_t k = 1; k < positions.size() && k < widths.size(); ++k)
  {
    const double room = positions[k] - positions[k - 1];
    if (0.5 * (widths[k - 1] + widths[k]) + gap > room)
    {
      return false;
    }
  }
  return true;
}

LegendFit FitLegend(const std::vector<double>& itemWidths, double moreWidth, double rowHeight,
  double roomWidth, double roomHeight, double columnGap)
{
  LegendFit fit;
  const std::size_t n = itemWidths.size();
  if (n == 0 || !(rowHeight > 0.0) || roomHeight < rowHeight || roomWidth <= 0.0)
  {
    return fit;
  }
  const std::size_t rows = static_cast<std::size_t>(std::floor(roomHeight / rowHeight));
  double widest = moreWidth;
  for (double w : itemWidths)
  {
    widest = std::max(widest, w);
  }
  const double column = std::min(widest, roomWidth);
  const std::size_t columnsThatFit = std::max<std::size_t>(
    1, static_cast<std::size_t>(std::floor((roomWidth + columnGap) / (column + columnGap))));
  const std::size_t columnsNeeded = (n + rows - 1) / rows;
  fit.Columns = std::min(columnsThatFit, columnsNeeded);
  const std::size_t slots = fit.Columns * rows;
  fit.More = n > slots;
  fit.Shown = fit.More ? slots - 1 : n;
  const std::size_t lines = fit.Shown + (fit.More ? 1 : 0);
  fit.Rows = std::min(rows, lines);
  // The width of what is drawn: full columns of the widest item.
  double used = 0.0;
  for (std::size_t i = 0; i < fit.Shown; ++i)
  {
    used = std::max(used, std::min(itemWidths[i], roomWidth));
  }
  if (fit.More)
  {
    used = std::max(used, std::min(moreWidth, roomWidth));
  }
  fit.ColumnWidth = used;
  fit.Width = fit.Columns * used + (fit.Columns - 1) * columnGap;
  fit.Height = fit.Rows * rowHeight;
  return fit;
}

ChartMargins FitChartMargins(
  double viewWidth, double viewHeight, ChartMargins wanted, double minPlotFraction)
{
  auto fit = [&](double view, double& low, double& high)
  {
    low = std::max(0.0, low);
    high = std::max(0.0, high);
    const double room = std::max(0.0, (1.0 - minPlotFraction) * view);
    const double asked = low + high;
    if (asked > room && asked > 0.0)
    {
      const double share = room / asked;
      low *= share;
      high *= share;
    }
    return std::max(1.0, view - low - high);
  };
  ChartMargins margins = wanted;
  margins.PlotWidth = fit(viewWidth, margins.Left, margins.Right);
  margins.PlotHeight = fit(viewHeight, margins.Bottom, margins.Top);
  return margins;
}

std::vector<std::string> DropCommonLeadingPath(
  const std::vector<std::string>& names, const std::string& separator)
{
  if (names.size() < 2 || separator.empty())
  {
    return names; // a lone row keeps its whole name: nothing to tell it from
  }
  // The length of the shared start that ends just after a separator, and
  // leaves every name something after it.
  std::size_t shared = 0;
  for (std::size_t at = names[0].find(separator); at != std::string::npos;
       at = names[0].find(separator, at + separator.size()))
  {
    const std::size_t end = at + separator.size();
    const bool common = std::all_of(names.begin(), names.end(),
      [&](const std::string& name)
      { return name.size() > end && name.compare(0, end, names[0], 0, end) == 0; });
    if (!common)
    {
      break;
    }
    shared = end;
  }
  std::vector<std::string> kept;
  kept.reserve(names.size());
  for (const std::string& name : names)
  {
    kept.push_back(name.substr(shared));
  }
  return kept;
}

}
