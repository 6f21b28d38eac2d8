// What the clustered logical timeline draws from its layout
// (ClusteredTimelineLayout.h), before any VTK array is made (Isaacs et al.
// 2014 (Ravel) §4.2; docs/logical-views.md): the alternating shades of the
// bands of a phase, the share of the members a glyph section stands for,
// the dashes of an empty section and the polygon of a pie's sector.
#pragma once

#include "ClusteredTimelineLayout.h"

#include <array>
#include <vector>

namespace macroscope
{

/// The shade (0 or 1) of each band: bands of one phase alternate, every
/// phase starts with 0.
std::vector<int> ClusterBandShades(const std::vector<ClusterBand>& bands);

/// The share of the glyph's members a section stands for: sending,
/// receiving or holding an aggregate, by the section's role.
double SectionFraction(const ClusterGlyph& glyph, const GlyphSection& section);

/// The dashes of the segment (x0, y0)-(x1, y1): 4 pixels every 7, from its
/// start; each dash is (x0, y0, x1, y1).
std::vector<std::array<double, 4>> DashSegments(double x0, double y0, double x1, double y1);

/// The sector of the disc of centre (cx, cy) and radius r from angle a0 to
/// a1 (radians), as a convex polygon: the centre, then points along the arc
/// at most 7.5 degrees apart (x, y pairs).
std::vector<double> SectorPolygon(double cx, double cy, double r, double a0, double a1);

}
