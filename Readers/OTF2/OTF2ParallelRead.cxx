#include "OTF2ParallelRead.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>

namespace macroscope::otf2
{

std::vector<std::vector<uint32_t>> ShareLeaves(const TraceInfo& info,
  const std::vector<uint32_t>& leaves, const std::vector<uint32_t>& groupOfLeaf, uint32_t parts)
{
  parts = std::max<uint32_t>(parts, 1);
  // The groups, in the order of their first leaf, with their event counts.
  std::unordered_map<uint32_t, std::size_t> indexOfGroup;
  std::vector<std::vector<uint32_t>> groups;
  std::vector<uint64_t> weight;
  for (uint32_t leaf : leaves)
  {
    if (leaf >= info.Leaves.size())
    {
      throw std::invalid_argument("leaf index " + std::to_string(leaf) +
        " is out of range: the trace has " + std::to_string(info.Leaves.size()) + " locations");
    }
    const uint32_t key =
      groupOfLeaf.empty() || leaf >= groupOfLeaf.size() ? UINT32_MAX - leaf : groupOfLeaf[leaf];
    const auto [it, added] = indexOfGroup.try_emplace(key, groups.size());
    if (added)
    {
      groups.emplace_back();
      weight.push_back(0);
    }
    groups[it->second].push_back(leaf);
    // Empty locations still cost opening their files.
    weight[it->second] += std::max<uint64_t>(info.Leaves[leaf].Events, 1);
  }
  // Longest processing time first: the heaviest group to the lightest share.
  std::vector<std::size_t> order(groups.size());
  for (std::size_t g = 0; g < order.size(); ++g)
  {
    order[g] = g;
  }
  std::stable_sort(order.begin(), order.end(),
    [&weight](std::size_t a, std::size_t b) { return weight[a] > weight[b]; });
  std::vector<std::vector<uint32_t>> shares(std::min<std::size_t>(parts, groups.size()));
  std::vector<uint64_t> load(shares.size(), 0);
  for (std::size_t g : order)
  {
    const std::size_t lightest = std::min_element(load.begin(), load.end()) - load.begin();
    load[lightest] += weight[g];
    shares[lightest].insert(shares[lightest].end(), groups[g].begin(), groups[g].end());
  }
  for (std::vector<uint32_t>& share : shares)
  {
    std::sort(share.begin(), share.end()); // the order one reader reads them in
  }
  return shares;
}

void AddDiagnostics(Diagnostics& total, const Diagnostics& part)
{
  for (std::size_t kind = 0; kind < total.Records.size(); ++kind)
  {
    total.Records[kind] += part.Records[kind];
  }
  uint64_t Diagnostics::*const counters[] = { &Diagnostics::EventsRead, &Diagnostics::OtherRecords,
    &Diagnostics::UnmatchedSends, &Diagnostics::UnmatchedReceives,
    &Diagnostics::ReceivesBeforeSends, &Diagnostics::SendsToUnselected,
    &Diagnostics::ReceivesFromUnselected, &Diagnostics::UnknownPeers,
    &Diagnostics::IsendsNotCompleted, &Diagnostics::IsendCompletesWithoutIsend,
    &Diagnostics::IrecvRequestsNotCompleted, &Diagnostics::IrecvsWithoutRequest,
    &Diagnostics::CancelledRequests, &Diagnostics::ProcNullPeers, &Diagnostics::LeavesWithoutEnter,
    &Diagnostics::MisnestedLeaves, &Diagnostics::StatesClosedEarly, &Diagnostics::StatesLeftOpen,
    &Diagnostics::CollectiveBeginsWithoutEnd, &Diagnostics::CollectiveEndsWithoutBegin,
    &Diagnostics::UndefinedReferences, &Diagnostics::MalformedMetrics,
    &Diagnostics::EventCountMismatches, &Diagnostics::LocationsOutsideClockSpan,
    &Diagnostics::StatesOutsideWindow, &Diagnostics::MessagesOutsideWindow,
    &Diagnostics::EventsOutsideWindow, &Diagnostics::SamplesOutsideWindow };
  for (uint64_t Diagnostics::*counter : counters)
  {
    total.*counter += part.*counter;
  }
  if (total.FirstEventCountMismatch.empty())
  {
    total.FirstEventCountMismatch = part.FirstEventCountMismatch;
  }
  // Definitions are the same for every share: not added up.
  total.ClockEnd = part.ClockEnd;
  total.DuplicateGroupDefinitions = part.DuplicateGroupDefinitions;
  total.RegionsSharingAName = part.RegionsSharingAName;
  if (!std::isnan(part.FirstTime))
  {
    total.FirstTime =
      std::isnan(total.FirstTime) ? part.FirstTime : std::min(total.FirstTime, part.FirstTime);
    total.LastTime =
      std::isnan(total.LastTime) ? part.LastTime : std::max(total.LastTime, part.LastTime);
  }
}

Diagnostics StreamShares(
  const std::string& anchorFile, const std::vector<StreamShare>& shares, const ReadOptions& options)
{
  const std::size_t count = shares.size();
  std::vector<uint64_t> events(count, 0);
  uint64_t totalEvents = 0;
  {
    const TraceInfo info = ReadTraceInfo(anchorFile);
    for (std::size_t s = 0; s < count; ++s)
    {
      if (!shares[s].Sink)
      {
        throw std::invalid_argument("a share of the read has no sink");
      }
      if (shares[s].Sink->WantsMessages())
      {
        throw std::invalid_argument(
          "a read split over threads cannot match messages: their two ends may lie in two shares");
      }
      for (uint32_t leaf : shares[s].Leaves)
      {
        events[s] +=
          leaf < info.Leaves.size() ? std::max<uint64_t>(info.Leaves[leaf].Events, 1) : 1;
      }
      totalEvents += events[s];
    }
  }

  // What the threads share: their progress, the stop flag, their ends.
  std::vector<std::atomic<double>> fraction(count);
  for (auto& f : fraction)
  {
    f.store(0.0);
  }
  std::atomic<bool> stop{ false };
  std::atomic<uint64_t> reports{ 0 }; // how many times a thread's fraction moved
  std::mutex mutex;
  std::condition_variable ended;
  std::size_t running = count;
  std::vector<Diagnostics> diagnostics(count);
  std::vector<std::exception_ptr> errors(count);

  auto work = [&](std::size_t s)
  {
    try
    {
      ReadOptions mine = options;
      mine.Leaves = shares[s].Leaves;
      mine.Progress = [&fraction, &stop, &reports, &ended, s](double done)
      {
        fraction[s].store(done, std::memory_order_relaxed);
        reports.fetch_add(1, std::memory_order_relaxed);
        ended.notify_one(); // the calling thread passes the new total on
        return !stop.load(std::memory_order_relaxed);
      };
      diagnostics[s] = StreamTrace(anchorFile, *shares[s].Sink, mine).Report;
    }
    catch (...)
    {
      errors[s] = std::current_exception();
      stop.store(true); // the others stop too: the read has failed
    }
    std::lock_guard<std::mutex> lock(mutex);
    --running;
    ended.notify_one();
  };
  std::vector<std::thread> threads;
  threads.reserve(count);
  for (std::size_t s = 0; s < count; ++s)
  {
    threads.emplace_back(work, s);
  }

  // This thread reports progress, each time a thread's fraction moves (once
  // per batch of records or location), and hears an abort while the others
  // read; 50 ms at most between two looks at the abort.
  bool aborted = false;
  auto report = [&]()
  {
    double done = 0.0;
    for (std::size_t s = 0; s < count; ++s)
    {
      done += fraction[s].load(std::memory_order_relaxed) * double(events[s]);
    }
    if (options.Progress &&
      !options.Progress(totalEvents ? std::min(1.0, done / double(totalEvents)) : 1.0))
    {
      aborted = true;
      stop.store(true);
    }
  };
  {
    std::unique_lock<std::mutex> lock(mutex);
    uint64_t seen = 0;
    while (running > 0)
    {
      ended.wait_for(lock, std::chrono::milliseconds(50),
        [&] { return running == 0 || reports.load(std::memory_order_relaxed) != seen; });
      seen = reports.load(std::memory_order_relaxed);
      lock.unlock();
      if (!aborted)
      {
        report();
      }
      lock.lock();
    }
  }
  for (std::thread& thread : threads)
  {
    thread.join();
  }
  // A share's own error says more than the stops it caused in the others.
  for (const std::exception_ptr& error : errors)
  {
    if (error)
    {
      try
      {
        std::rethrow_exception(error);
      }
      catch (const ReadAborted&)
      {
        continue; // stopped by another share's error or by the abort
      }
    }
  }
  if (aborted)
  {
    throw ReadAborted();
  }
  Diagnostics total = diagnostics.empty() ? Diagnostics{} : diagnostics.front();
  for (std::size_t s = 1; s < count; ++s)
  {
    AddDiagnostics(total, diagnostics[s]);
  }
  return total;
}

} // namespace macroscope::otf2
