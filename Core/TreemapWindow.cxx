#include "TreemapWindow.h"

#include <algorithm>
#include <cmath>

namespace macroscope
{

std::vector<double> AnimationTimes(const SliceAxis& axis, int slices, int windowSlices)
{
  const int steps = slices - windowSlices + 1;
  std::vector<double> times;
  if (windowSlices < 1 || steps < 1 || !(axis.Width > 0.0))
  {
    return times;
  }
  times.resize(static_cast<std::size_t>(steps));
  for (int k = 0; k < steps; ++k)
  {
    times[static_cast<std::size_t>(k)] = axis.Origin + k * axis.Width;
  }
  return times;
}

std::pair<double, double> AnimationWindow(
  const SliceAxis& axis, int slices, int windowSlices, double requested)
{
  int first = 0;
  const double at = (requested - axis.Origin) / axis.Width;
  if (std::isfinite(at))
  {
    // A time step is a slice start: the tolerance keeps rounding below it
    // in the slice it starts.
    first = static_cast<int>(std::floor(at + 1e-6));
  }
  first = std::max(0, std::min(first, slices - windowSlices));
  return { axis.Origin + first * axis.Width, axis.Origin + (first + windowSlices) * axis.Width };
}

bool WindowOverlapsModel(const SliceAxis& axis, int slices, double begin, double end)
{
  const double modelEnd = axis.Origin + slices * axis.Width;
  return end > begin && std::isfinite(begin) && std::isfinite(end) && end > axis.Origin &&
    begin < modelEnd;
}

std::vector<double> ResourceSizes(
  const WindowIntegral& integral, TreemapSizing sizing, uint32_t type)
{
  std::vector<double> sizes(integral.Resources, 0.0);
  for (uint32_t s = 0; s < integral.Resources; ++s)
  {
    switch (sizing)
    {
      case TreemapSizing::Total:
        for (uint32_t u = 0; u < integral.Types; ++u)
        {
          sizes[s] += integral.At(s, u);
        }
        break;
      case TreemapSizing::Resources:
        sizes[s] = 1.0;
        break;
      case TreemapSizing::Type:
        sizes[s] = integral.At(s, type);
        break;
    }
  }
  return sizes;
}

TreemapQualities RowQualities(
  const TreemapRows& rows, const SpatialAggregation& aggregation, bool normalize)
{
  const Quality full = aggregation.FullAggregation();
  const double gainScale = normalize && full.Gain > 0.0 ? full.Gain : 1.0;
  const double lossScale = normalize && full.Loss > 0.0 ? full.Loss : 1.0;
  TreemapQualities out;
  out.Gain.assign(rows.Rows(), 0.0);
  out.Loss.assign(rows.Rows(), 0.0);
  for (std::size_t r = 0; r < rows.Rows(); ++r)
  {
    const Quality q = rows.Cut[r] ? aggregation.NodeQuality(rows.Node[r]) : Quality{ 0.0, 0.0 };
    out.Gain[r] = q.Gain / gainScale;
    out.Loss[r] = q.Loss / lossScale;
    out.CutGain += out.Gain[r];
    out.CutLoss += out.Loss[r];
  }
  return out;
}

}
