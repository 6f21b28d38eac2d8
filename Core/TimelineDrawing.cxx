#include "TimelineDrawing.h"

#include "ResourceHierarchy.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace macroscope
{
namespace
{
// The mode colour of an aggregate is blended towards this grey by the share
// of time the mode does not hold; at least ModeMinWeight of it is kept.
constexpr RGB ModeBlendColor{ { 232, 232, 232 } };
constexpr double ModeMinWeight = 0.35;
// The grey of the emptiest and fullest density columns.
constexpr double DensityLightest = 225.0;
constexpr double DensityDarkest = 20.0;

// Depth of every vertex of a tree whose parents come before their children.
std::vector<int> VertexDepths(const std::vector<int64_t>& parent)
{
  std::vector<int> depth(parent.size(), 0);
  for (std::size_t v = 0; v < parent.size(); ++v)
  {
    depth[v] = parent[v] < 0 ? 0 : depth[static_cast<std::size_t>(parent[v])] + 1;
  }
  return depth;
}

// The cells of mark i: one per type stacked, or one of its mode.
void AddMarkCells(const TimelineMarks& marks, std::size_t i, double x0, double x1, double y0,
  double y1, double z, double capacity, bool stacked, TimelineMarkDrawing& drawing)
{
  const std::size_t first = marks.TypeOffset[i];
  const std::size_t last = marks.TypeOffset[i + 1];
  double total = 0.0;
  for (std::size_t k = first; k < last; ++k)
  {
    total += marks.TypeTime[k];
  }
  auto add = [&](double cy0, double cy1, uint32_t type, double seconds, bool shade)
  {
    const double fraction = total > 0.0 ? seconds / total : 1.0;
    const double filled = capacity > 0.0 ? seconds / capacity : 1.0;
    drawing.Cells.push_back({ x0, cy0, x1, cy1, z, i, type, seconds, fraction, filled, shade });
  };
  if (marks.Flags[i] != 0 && stacked && last - first > 1 && total > 0.0)
  {
    double y = y0;
    for (std::size_t k = first; k < last; ++k)
    {
      const double fraction = marks.TypeTime[k] / total;
      const double next = k + 1 == last ? y1 : y + fraction * (y1 - y0);
      add(y, next, marks.TypeId[k], marks.TypeTime[k], false);
      y = next;
    }
    return;
  }
  double modeTime = 0.0;
  for (std::size_t k = first; k < last; ++k)
  {
    if (marks.TypeId[k] == marks.Type[i])
    {
      modeTime = marks.TypeTime[k];
    }
  }
  add(y0, y1, marks.Type[i], modeTime, (marks.Flags[i] & TimelineTimeAggregate) != 0);
}

// Extends the last span with an aggregate touching it, or opens a new one.
void AddHatchSpan(std::vector<TimelineHatchSpan>& spans, double x0, double x1, double y0, double y1,
  double z, uint8_t flags)
{
  TimelineHatchSpan* open = spans.empty() ? nullptr : &spans.back();
  if (open && open->Y0 == y0 && open->Y1 == y1 && open->Flags == flags && x0 <= open->X1 + 1.0 &&
    x1 >= open->X0)
  {
    open->X1 = std::max(open->X1, x1);
  }
  else
  {
    spans.push_back({ x0, x1, y0, y1, z + 0.5, flags });
  }
}
}

void KeepTimelineRowWindow(const std::vector<int64_t>& parent,
  const std::vector<int64_t>& leafIndex, const int window[2], std::vector<bool>& keep, int drawn[3])
{
  const auto full = BuildResourceHierarchy(parent, leafIndex, -1, keep);
  const int total = static_cast<int>(full.Resources);
  const bool all = window[1] < window[0];
  drawn[0] = all ? 0 : std::clamp(window[0], 0, std::max(total - 1, 0));
  drawn[1] = all ? total - 1 : std::clamp(window[1], drawn[0], std::max(total - 1, 0));
  drawn[2] = total;
  if (all)
  {
    return;
  }
  keep.assign(full.ResourceOfLeaf.size(), false);
  for (std::size_t leaf = 0; leaf < full.ResourceOfLeaf.size(); ++leaf)
  {
    const uint32_t row = full.ResourceOfLeaf[leaf];
    keep[leaf] =
      row != NoResource && static_cast<int>(row) >= drawn[0] && static_cast<int>(row) <= drawn[1];
  }
}

TimelineRowPlan PlanTimelineRows(const std::vector<int64_t>& parent,
  const std::vector<int64_t>& leafIndex, double viewHeight, double minRowHeight,
  const std::vector<bool>& keepLeaf)
{
  const double fit = minRowHeight > 0.0 ? std::floor(viewHeight / minRowHeight)
                                        : std::numeric_limits<double>::infinity();
  const std::vector<int> depth = VertexDepths(parent);
  const int maxDepth = depth.empty() ? 0 : *std::max_element(depth.begin(), depth.end());
  auto plan = [&](int level)
  {
    const auto hierarchy = BuildResourceHierarchy(parent, leafIndex, level, keepLeaf);
    TimelineRowPlan rows;
    rows.RowOfLeaf = hierarchy.ResourceOfLeaf;
    rows.RowVertex.assign(hierarchy.Vertex.begin(), hierarchy.Vertex.begin() + hierarchy.Resources);
    rows.Level = level;
    return rows;
  };
  TimelineRowPlan rows = plan(-1);
  for (int level = maxDepth - 1; level >= 1 && static_cast<double>(rows.RowVertex.size()) > fit;
       --level)
  {
    rows = plan(level);
  }
  return rows;
}

std::vector<int64_t> TimelineBandAncestors(
  const std::vector<int64_t>& parent, int64_t firstVertex, int64_t lastVertex)
{
  auto pathOf = [&parent](int64_t vertex)
  {
    std::vector<int64_t> path;
    for (; vertex >= 0; vertex = parent[static_cast<std::size_t>(vertex)])
    {
      path.push_back(vertex);
    }
    return path;
  };
  std::vector<int64_t> path = pathOf(firstVertex);
  if (lastVertex != firstVertex)
  {
    const std::vector<int64_t> last = pathOf(lastVertex);
    for (int64_t& vertex : path)
    {
      if (std::find(last.begin(), last.end(), vertex) == last.end())
      {
        vertex = -1;
      }
    }
  }
  return path;
}

std::vector<TimelineRowGroup> TimelineRowGroups(
  const std::vector<int64_t>& parent, const std::vector<int64_t>& rowVertex, int groupLevel)
{
  const std::vector<int> depthOf = VertexDepths(parent);
  auto groupOf = [&](int64_t vertex)
  {
    while (depthOf[static_cast<std::size_t>(vertex)] > groupLevel)
    {
      vertex = parent[static_cast<std::size_t>(vertex)];
    }
    return vertex;
  };
  std::vector<TimelineRowGroup> groups;
  std::size_t row = 0;
  while (row < rowVertex.size())
  {
    const int64_t group = groupOf(rowVertex[row]);
    std::size_t end = row + 1;
    while (end < rowVertex.size() && groupOf(rowVertex[end]) == group)
    {
      ++end;
    }
    groups.push_back({ row, end, group });
    row = end;
  }
  return groups;
}

TimelineBandGeometry::TimelineBandGeometry(const TimelineLayout& layout, double height, int depth)
  : Height(height)
{
  const std::size_t bands = layout.Bands.FirstRow.size();
  this->BandHeight = height / static_cast<double>(std::max<std::size_t>(bands, 1));
  for (uint32_t markDepth : layout.Marks.Depth)
  {
    this->Deepest = std::max(this->Deepest, markDepth);
  }
  this->Shallowest = depth >= 0 ? static_cast<uint32_t>(depth) : 0;
  this->Gap = this->BandHeight >= 4.0 ? 0.08 * this->BandHeight : 0.0;
  this->InsetStep = this->Deepest > this->Shallowest
    ? std::min(0.12 * this->BandHeight, 0.3 * this->BandHeight / (this->Deepest - this->Shallowest))
    : 0.0;
}

void TimelineBandGeometry::MarkRows(uint32_t band, uint32_t depth, double& y0, double& y1) const
{
  const double inset = (depth - this->Shallowest) * this->InsetStep;
  y1 = this->Top(band) - this->Gap - inset;
  y0 = this->Top(band) - this->BandHeight + this->Gap + inset;
}

double TimelineBandGeometry::LineZ() const
{
  return this->Z(std::max(this->Deepest, this->Shallowest)) + 2.0;
}

TimelineMarkDrawing DrawTimelineMarks(const TimelineLayout& layout,
  const TimelineBandGeometry& bands, const std::vector<uint32_t>& rowOfLeaf, double t0,
  double width, double minMarkWidth, bool stacked, std::size_t types)
{
  const TimelineMarks& marks = layout.Marks;
  const std::size_t bandCount = layout.Bands.FirstRow.size();
  // Locations drawn on each band: an aggregate's time can fill at most its
  // extent once per location.
  std::vector<double> leavesOfBand(bandCount, 0.0);
  for (uint32_t row : rowOfLeaf)
  {
    if (row != NoResource && row / layout.RowsPerBand < bandCount)
    {
      leavesOfBand[row / layout.RowsPerBand] += 1.0;
    }
  }
  TimelineMarkDrawing drawing;
  drawing.TimeOfType.assign(types, 0.0);
  drawing.Cells.reserve(marks.Size());
  for (std::size_t i = 0; i < marks.Size(); ++i)
  {
    double x0 = (marks.Start[i] - t0) * layout.PixelsPerSecond;
    double x1 = (marks.End[i] - t0) * layout.PixelsPerSecond;
    if ((marks.Flags[i] & TimelineTimeAggregate) && x1 - x0 < minMarkWidth)
    {
      const double centre = 0.5 * (x0 + x1);
      x0 = std::max(0.0, centre - 0.5 * minMarkWidth);
      x1 = std::min(width, x0 + minMarkWidth);
      x0 = std::max(0.0, x1 - minMarkWidth);
    }
    double y0, y1;
    bands.MarkRows(marks.Band[i], marks.Depth[i], y0, y1);
    const double z = bands.Z(marks.Depth[i]);
    double total = 0.0;
    for (std::size_t k = marks.TypeOffset[i]; k < marks.TypeOffset[i + 1]; ++k)
    {
      total += marks.TypeTime[k];
      if (marks.TypeId[k] >= drawing.TimeOfType.size())
      {
        drawing.TimeOfType.resize(marks.TypeId[k] + 1, 0.0);
      }
      drawing.TimeOfType[marks.TypeId[k]] += marks.TypeTime[k];
    }
    // The share of the mark's time and locations the mode fills: idle gaps
    // between the narrow states count against it, so a column where a
    // location mostly waits without a state is drawn lighter.
    const double capacity =
      std::max(total, (marks.End[i] - marks.Start[i]) * std::max(1.0, leavesOfBand[marks.Band[i]]));
    AddMarkCells(marks, i, x0, x1, y0, y1, z, capacity, stacked, drawing);
    if (marks.Flags[i] != 0)
    {
      AddHatchSpan(drawing.Spans, x0, x1, y0, y1, z, marks.Flags[i]);
    }
  }
  return drawing;
}

RGB TimelineModeShade(RGB color, double share)
{
  const double weight = ModeMinWeight + (1.0 - ModeMinWeight) * std::clamp(share, 0.0, 1.0);
  RGB shaded;
  for (int c = 0; c < 3; ++c)
  {
    shaded[c] = static_cast<unsigned char>(
      std::lround(weight * color[c] + (1.0 - weight) * ModeBlendColor[c]));
  }
  return shaded;
}

uint8_t TimelineDensityGrey(double share)
{
  return static_cast<uint8_t>(
    std::lround(DensityLightest + share * (DensityDarkest - DensityLightest)));
}

bool ClipSegmentToWidth(double& x0, double& y0, double& x1, double& y1, double width)
{
  double t0 = 0.0;
  double t1 = 1.0;
  const double dx = x1 - x0;
  for (double bound : { 0.0, width })
  {
    if (dx == 0.0)
    {
      if (x0 < 0.0 || x0 > width)
      {
        return false;
      }
      continue;
    }
    const double t = (bound - x0) / dx;
    const bool entering = (bound == 0.0) == (dx > 0.0);
    if (entering)
    {
      t0 = std::max(t0, t);
    }
    else
    {
      t1 = std::min(t1, t);
    }
  }
  if (t0 > t1)
  {
    return false;
  }
  const double dy = y1 - y0;
  const double ax = x0 + t0 * dx, ay = y0 + t0 * dy;
  x1 = x0 + t1 * dx;
  y1 = y0 + t1 * dy;
  x0 = ax;
  y0 = ay;
  return true;
}

std::vector<double> TimelineDensityColumns(const TimelineLayout& layout, double t0, double width)
{
  const auto columns = static_cast<std::size_t>(std::max(1.0, std::ceil(width)));
  std::vector<double> counts(2 * columns, 0.0); // counts, then bytes
  const TimelineDensity& own = layout.Density;
  for (std::size_t c = 0; c < own.Size(); ++c)
  {
    counts[static_cast<std::size_t>(own.Column[c])] += own.Count[c];
    counts[columns + static_cast<std::size_t>(own.Column[c])] += own.Bytes[c];
  }
  const TimelineLines& lines = layout.Lines;
  for (std::size_t i = 0; i < lines.Size(); ++i)
  {
    const double column = std::clamp(std::floor((lines.SendTime[i] - t0) * layout.PixelsPerSecond),
      0.0, static_cast<double>(columns - 1));
    counts[static_cast<std::size_t>(column)] += lines.Count[i];
    counts[columns + static_cast<std::size_t>(column)] += lines.Bytes[i];
  }
  return counts;
}

TimelineDensity TimelineDensityOfColumns(const std::vector<double>& sums)
{
  TimelineDensity density;
  const std::size_t columns = sums.size() / 2;
  for (std::size_t c = 0; c < columns; ++c)
  {
    if (sums[c] > 0.0)
    {
      density.Column.push_back(static_cast<int64_t>(c));
      density.Count.push_back(static_cast<uint32_t>(sums[c]));
      density.Bytes.push_back(sums[columns + c]);
      density.MaxCount = std::max(density.MaxCount, density.Count.back());
    }
  }
  return density;
}

std::vector<uint32_t> TypesByTime(const std::vector<double>& timeOfType)
{
  std::vector<uint32_t> order(timeOfType.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
    [&](uint32_t a, uint32_t b) { return timeOfType[a] > timeOfType[b]; });
  order.erase(std::remove_if(order.begin(), order.end(),
                [&](uint32_t type) { return !(timeOfType[type] > 0.0); }),
    order.end());
  return order;
}

}
