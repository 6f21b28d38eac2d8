// What the Treemap chart draws from a treemap layout (Treemap.h), before
// any VTK array is made (Schnorr 2009 (Triva) §4.4 and §5.5;
// docs/treemap.md): the grey of a frame by its depth, the types tiling a
// node of the cut, the legend's order and the title's cut.
#pragma once

#include "Treemap.h"
#include "TypePalette.h" // RGB

#include <string>
#include <vector>

namespace macroscope
{

/// The grey of an inner node's frame: lighter with depth, so that nesting
/// reads on any background.
RGB TreemapFrameColor(int depth);

/// The types tiling a node of the cut, values clamped to >= 0: an aggregate
/// shows all its resources' shares. `rects` gets a rectangle per type (of
/// no area for a type without value); returns the sum of the values (0: the
/// node has no value in the window, and `rects` is left empty).
double TileNodeByType(std::vector<double>& values, const TreemapRect& node, bool ordered,
  std::vector<TreemapRect>& rects);

/// The types of the legend: those with area, the largest first, or in the
/// model's order when `ordered` (so that it does not change between frames).
std::vector<int> TreemapLegendOrder(const std::vector<double>& typeArea, bool ordered);

/// The title's words for the cut: "   optimal cut, p = <parameter>" for a
/// spatial partition, "   level <level>" or "   every resource" (level < 0)
/// for a level, else nothing.
std::string TreemapCutText(const std::string& constraint, double parameter, int level);

}
