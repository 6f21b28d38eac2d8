#include "PartSummary.h"

namespace macroscope
{

PartSummary SummarizePart(
  const ModelView& model, const AggregationHierarchy& hierarchy, const AggregatePart& part)
{
  PartSummary out;
  out.Area = part.Node < 0 ? hierarchy.Root() : part.Node;
  out.Summary = SummarizeArea(model, hierarchy, out.Area, part.FirstSlice, part.LastSlice);
  out.Amplitude = TemporalAmplitudes(model, part.FirstSlice, part.LastSlice);
  if (part.Node >= 0)
  {
    const uint32_t leaves = hierarchy.LeafCount(out.Area);
    for (std::size_t u = 0; u < out.Amplitude.size(); ++u)
    {
      out.Amplitude[u] = out.Summary.Mean[u] * leaves;
    }
  }
  return out;
}

}
