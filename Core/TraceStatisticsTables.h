// What the tables of trace statistics list beside the counts
// (Pagano et al. 2013 (FrameSoC)): the types listed and the line of the
// messages, the time bins.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace macroscope
{

/// The types a statistics table lists, from each type's kind (TraceSchema's
/// StateKind, EventKind, VariableKind, LinkKind): the state, event and
/// variable types in type order, which of all the types are states, and the
/// link type that names the messages' line when the trace has exactly one
/// (-1 otherwise).
struct TypeListing
{
  std::vector<uint32_t> Listed;
  std::vector<bool> IsState;
  int64_t MessageType = -1;
};

TypeListing ListTypes(const std::vector<std::string>& kinds);

/// The start and end of each of `bins` equal bins of [begin, end); the last
/// ends at `end` exactly.
std::vector<std::pair<double, double>> TimeBins(double begin, double end, int bins);

}
