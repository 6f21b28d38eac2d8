// Reading the locations of an OTF2 archive on several threads at once, each
// thread with its own archive handle (OTF2 readers are not shared between
// threads) and its own RowSink: the streamed model's read on every core
// (docs/streaming-model.md, "Reading on every core").
//
//   auto shares = ShareLeaves(info, leaves, groupOfLeaf, threads);
//   std::vector<StreamShare> work = ...;  // one sink per share
//   Diagnostics report = StreamShares(anchor, work, options);
#ifndef macroscope_otf2_OTF2ParallelRead_h
#define macroscope_otf2_OTF2ParallelRead_h

#include "MacroscopeOTF2.h"

#include <cstdint>
#include <vector>

namespace macroscope::otf2
{

/// Splits `leaves` (ascending leaf indexes) into at most `parts` shares of
/// about the same number of events (the Location definitions' counts, 1 at
/// least per leaf), never splitting a group: leaves with the same
/// `groupOfLeaf` value (indexed by leaf; empty: every leaf its own group)
/// go to the same share. Each share is in ascending leaf order; empty
/// shares are dropped, so fewer than `parts` may come back.
std::vector<std::vector<uint32_t>> ShareLeaves(const TraceInfo& info,
  const std::vector<uint32_t>& leaves, const std::vector<uint32_t>& groupOfLeaf, uint32_t parts);

/// One thread's work: its leaves and the sink their rows go to.
struct StreamShare
{
  std::vector<uint32_t> Leaves;
  RowSink* Sink = nullptr;
};

/// Runs StreamTrace(anchor, *share.Sink, options with Leaves = share.Leaves)
/// for every share, each on a thread of its own, and returns their
/// diagnostics added up. The sinks must not want messages (a message's two
/// ends may lie in two shares): std::invalid_argument otherwise.
/// options.Progress is called on the calling thread only, with the fraction
/// of the shares' events read, whenever a share's fraction moves (after
/// each batch of records and each location; at least every 50 ms);
/// returning false stops every share at its next batch and throws
/// ReadAborted. The first error of a share (TraceError, or a sink's
/// exception) is thrown once every thread has stopped.
Diagnostics StreamShares(const std::string& anchorFile, const std::vector<StreamShare>& shares,
  const ReadOptions& options);

/// Adds the counters of `part` to `total`; times take the wider span.
void AddDiagnostics(Diagnostics& total, const Diagnostics& part);

} // namespace macroscope::otf2

#endif
