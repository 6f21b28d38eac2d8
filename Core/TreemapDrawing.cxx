#include "TreemapDrawing.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace macroscope
{

RGB TreemapFrameColor(int depth)
{
  const auto shade = static_cast<uint8_t>(std::min(232, 110 + 28 * depth));
  return RGB{ { shade, shade, shade } };
}

double TileNodeByType(std::vector<double>& values, const TreemapRect& node, bool ordered,
  std::vector<TreemapRect>& rects)
{
  double total = 0.0;
  for (double& value : values)
  {
    value = std::max(0.0, value);
    total += value;
  }
  rects.clear();
  if (total > 0.0)
  {
    rects = LayoutRectangles(
      values, node, ordered ? TreemapAlgorithm::OrderedSquarified : TreemapAlgorithm::Squarified);
  }
  return total;
}

std::vector<int> TreemapLegendOrder(const std::vector<double>& typeArea, bool ordered)
{
  std::vector<int> order(typeArea.size());
  std::iota(order.begin(), order.end(), 0);
  if (!ordered)
  {
    std::stable_sort(
      order.begin(), order.end(), [&](int a, int b) { return typeArea[a] > typeArea[b]; });
  }
  order.erase(std::remove_if(order.begin(), order.end(),
                [&](int u) { return !(typeArea[static_cast<std::size_t>(u)] > 0.0); }),
    order.end());
  return order;
}

std::string TreemapCutText(const std::string& constraint, double parameter, int level)
{
  char text[96] = "";
  if (constraint == "spatial")
  {
    std::snprintf(text, sizeof(text), "   optimal cut, p = %.3g", parameter);
  }
  else if (constraint == "level")
  {
    if (level < 0)
    {
      std::snprintf(text, sizeof(text), "   every resource");
    }
    else
    {
      std::snprintf(text, sizeof(text), "   level %d", level);
    }
  }
  return text;
}

}
