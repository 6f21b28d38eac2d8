#include "TraceStatisticsTables.h"

#include "TraceSchema.h"

#include <algorithm>

namespace macroscope
{

TypeListing ListTypes(const std::vector<std::string>& kinds)
{
  TypeListing listing;
  listing.IsState.assign(kinds.size(), false);
  int links = 0;
  int64_t link = -1;
  for (std::size_t t = 0; t < kinds.size(); ++t)
  {
    const std::string& kind = kinds[t];
    listing.IsState[t] = kind == schema::StateKind;
    if (kind == schema::StateKind || kind == schema::EventKind || kind == schema::VariableKind)
    {
      listing.Listed.push_back(static_cast<uint32_t>(t));
    }
    else if (kind == schema::LinkKind)
    {
      link = static_cast<int64_t>(t);
      ++links;
    }
  }
  listing.MessageType = links == 1 ? link : -1;
  return listing;
}

std::vector<std::pair<double, double>> TimeBins(double begin, double end, int bins)
{
  std::vector<std::pair<double, double>> edges(static_cast<std::size_t>(std::max(0, bins)));
  const double width = (end - begin) / bins;
  for (int b = 0; b < bins; ++b)
  {
    edges[static_cast<std::size_t>(b)] = { begin + b * width,
      b + 1 == bins ? end : begin + (b + 1) * width };
  }
  return edges;
}

}
