#include "SpatiotemporalOverviewDrawing.h"

#include <algorithm>
#include <cmath>

namespace macroscope
{
namespace
{
constexpr double TagThreshold = 0.05;
}

RGB OverOpaqueWhite(RGB pure, double proportion)
{
  const double opacity = std::min(1.0, std::max(0.0, proportion));
  RGB blended;
  for (int c = 0; c < 3; ++c)
  {
    blended[c] = static_cast<unsigned char>(std::lround(255.0 - opacity * (255.0 - pure[c])));
  }
  return blended;
}

double LargestSignedValue(const std::vector<OverviewMark>& marks)
{
  double largest = 0.0;
  for (const OverviewMark& m : marks)
  {
    largest = std::max(largest, std::abs(m.SignedValue));
  }
  return largest > 0.0 ? largest : 1.0;
}

bool NamesDifferingType(const OverviewMark& mark, double largestSigned)
{
  return mark.Value >= TagThreshold * largestSigned;
}

std::vector<OverviewMarkingLine> MarkingLines(const OverviewMark& m, double plotHeight)
{
  std::vector<OverviewMarkingLine> lines;
  if (m.X0 > 0.0)
  {
    lines.push_back({ m.X0, m.Y0, m.X0, m.Y1, OverviewMarkingKind::Border });
  }
  if (m.Y1 < plotHeight)
  {
    lines.push_back({ m.X0, m.Y1, m.X1, m.Y1, OverviewMarkingKind::Border });
  }
  if (m.Kind != OverviewMarkKind::Part)
  {
    lines.push_back({ m.X0, m.Y0, m.X1, m.Y1, OverviewMarkingKind::Diagonal });
  }
  if (m.Kind == OverviewMarkKind::CrossAggregate)
  {
    lines.push_back({ m.X0, m.Y1, m.X1, m.Y0, OverviewMarkingKind::Cross });
  }
  return lines;
}

std::vector<double> ModeAreaOfTypes(const std::vector<OverviewMark>& marks, std::size_t types)
{
  std::vector<double> area(types, 0.0);
  for (const OverviewMark& m : marks)
  {
    area[m.Mode] += (m.X1 - m.X0) * (m.Y1 - m.Y0);
  }
  return area;
}

std::vector<int64_t> ShownGroups(
  const std::vector<int64_t>& parent, const std::vector<OverviewRow>& rows, int groupLevel)
{
  std::vector<uint8_t> shown(parent.size(), 0);
  for (const OverviewRow& row : rows)
  {
    for (int64_t n = row.Node; n >= 0; n = parent[static_cast<std::size_t>(n)])
    {
      shown[static_cast<std::size_t>(n)] = 1;
    }
  }
  std::vector<int> depth(parent.size(), 0);
  for (std::size_t n = parent.size(); n-- > 0;)
  {
    depth[n] = parent[n] < 0 ? 0 : depth[static_cast<std::size_t>(parent[n])] + 1;
  }
  std::vector<int64_t> groups;
  for (std::size_t n = 0; n < parent.size(); ++n)
  {
    if (depth[n] == groupLevel && shown[n])
    {
      groups.push_back(static_cast<int64_t>(n));
    }
  }
  return groups;
}

}
