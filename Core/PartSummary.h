// What a partition's table says of each of its parts (Dosimont et al. 2015
// (Ocelotl) §3.4–3.5): the area it covers, its mean and mode per type, and
// its amplitude. A temporal part spans every resource, its amplitude the
// model's summed over them per slice (eq. 4); a part of the hierarchy has
// its own sum over its slices (its mean times its leaves).
#pragma once

#include "Aggregation.h"

#include <cstdint>
#include <vector>

namespace macroscope
{

struct PartSummary
{
  int64_t Area = 0; ///< the hierarchy node it covers: the root for a temporal part
  AreaSummary Summary;
  std::vector<double> Amplitude; ///< per type
};

PartSummary SummarizePart(
  const ModelView& model, const AggregationHierarchy& hierarchy, const AggregatePart& part);

}
