// The dense text model read by macroscope-aggregate:
//   line 1: T S U H
//   line 2: H parent indexes (leaves 0..S-1 first, the root last with -1)
//   then S*U lines of T values, leaf-major, then type (line of leaf s, type u
//   is the (s*U + u)-th).
#pragma once

#include "TimeSlicing.h"

#include <cstdint>
#include <istream>
#include <vector>

namespace macroscope
{

struct DenseModelText
{
  MicroscopicModel Model; ///< Grid.Slices = T, Resources = S, Types = U
  std::vector<int64_t> Parent;
};

/// Throws std::invalid_argument naming the line on a malformed file or a
/// negative, NaN or infinite value. The hierarchy is checked later, by
/// AggregationHierarchy.
DenseModelText ReadDenseModelText(std::istream& in);

}
