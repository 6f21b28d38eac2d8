#include "ClusteredTimelineDrawing.h"

#include <algorithm>
#include <cmath>

namespace macroscope
{
namespace
{
constexpr double Pi = 3.14159265358979323846;
}

std::vector<int> ClusterBandShades(const std::vector<ClusterBand>& bands)
{
  std::vector<int> shade(bands.size());
  for (std::size_t b = 0; b < bands.size(); ++b)
  {
    shade[b] = b > 0 && bands[b - 1].Phase == bands[b].Phase ? 1 - shade[b - 1] : 0;
  }
  return shade;
}

double SectionFraction(const ClusterGlyph& glyph, const GlyphSection& section)
{
  return section.Role == GlyphSection::SENDS ? glyph.SendFraction
    : section.Role == GlyphSection::RECEIVES ? glyph.ReceiveFraction
                                             : glyph.AggregateFraction;
}

std::vector<std::array<double, 4>> DashSegments(double x0, double y0, double x1, double y1)
{
  std::vector<std::array<double, 4>> dashes;
  const double length = std::hypot(x1 - x0, y1 - y0);
  for (double s = 0.0; s < length; s += 7.0)
  {
    const double e = std::min(length, s + 4.0);
    dashes.push_back({ x0 + (x1 - x0) * s / length, y0 + (y1 - y0) * s / length,
      x0 + (x1 - x0) * e / length, y0 + (y1 - y0) * e / length });
  }
  return dashes;
}

std::vector<double> SectorPolygon(double cx, double cy, double r, double a0, double a1)
{
  const int arcs = std::max(2, static_cast<int>(std::ceil((a1 - a0) / (Pi / 24.0))) + 1);
  std::vector<double> xy{ cx, cy };
  for (int k = 0; k < arcs; ++k)
  {
    const double a = a0 + (a1 - a0) * k / (arcs - 1);
    xy.push_back(cx + r * std::cos(a));
    xy.push_back(cy + r * std::sin(a));
  }
  return xy;
}

}
