// The aggregation's progress and abort hook (AggregationProgress): each
// computation reports many increasing fractions on the calling thread only,
// a callback that returns false stops it with AggregationAborted, and a run
// after an abort gives what a run never aborted gives. The sweep's cost is
// counted in DP runs: at most two per envelope partition.
#include "Aggregation.h"
#include "AggregationKernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <random>
#include <set>
#include <thread>
#include <vector>

using namespace macroscope;

namespace
{

struct RandomModel
{
  std::vector<double> Values;
  ModelView View;
};

/// Slices x leaves x types values, most of them drawn from few levels so
/// that there are ties and many distinct partitions.
RandomModel MakeModel(int slices, uint32_t leaves, uint32_t types, unsigned seed)
{
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> level(0, 4);
  RandomModel model;
  model.Values.resize(std::size_t(slices) * leaves * types);
  for (double& v : model.Values)
  {
    v = 0.25 * level(random);
  }
  model.View = { model.Values.data(), slices, leaves, types };
  return model;
}

/// Groups of `width` leaves under inner nodes, under one root.
std::vector<int64_t> TwoLevels(uint32_t leaves, uint32_t width)
{
  const uint32_t groups = (leaves + width - 1) / width;
  std::vector<int64_t> parent(leaves + groups + 1);
  for (uint32_t s = 0; s < leaves; ++s)
  {
    parent[s] = leaves + s / width;
  }
  for (uint32_t g = 0; g < groups; ++g)
  {
    parent[leaves + g] = leaves + groups;
  }
  parent.back() = -1;
  return parent;
}

/// Records what a callback receives; returns false from call `stopAt` on.
struct Recorder
{
  std::vector<double> Fractions;
  std::set<std::thread::id> Threads;
  std::size_t StopAt = SIZE_MAX;

  AggregationProgress Hook()
  {
    return [this](double fraction)
    {
      this->Fractions.push_back(fraction);
      this->Threads.insert(std::this_thread::get_id());
      return this->Fractions.size() < this->StopAt;
    };
  }

  /// At least `atLeast` distinct increasing values in [0, 1], on this
  /// thread; none further than `maxJump` from the previous one.
  void ExpectEvenReports(const char* what, double maxJump = 0.2, std::size_t atLeast = 20) const
  {
    std::set<double> distinct(this->Fractions.begin(), this->Fractions.end());
    EXPECT_GE(distinct.size(), atLeast) << what;
    for (std::size_t i = 1; i < this->Fractions.size(); ++i)
    {
      EXPECT_LE(this->Fractions[i - 1], this->Fractions[i]) << what << " went backwards at " << i;
    }
    ASSERT_FALSE(this->Fractions.empty()) << what;
    EXPECT_GE(this->Fractions.front(), 0.0) << what;
    EXPECT_LE(this->Fractions.back(), 1.0) << what;
    // Evenly spread: no jump over `maxJump`.
    double last = 0.0;
    for (double f : this->Fractions)
    {
      EXPECT_LE(f - last, maxJump) << what << ": a jump from " << last << " to " << f;
      last = f;
    }
    ASSERT_EQ(this->Threads.size(), 1u) << what << " was reported on several threads";
    EXPECT_EQ(*this->Threads.begin(), std::this_thread::get_id()) << what;
  }
};

bool SameSweep(const PartitionSweep& a, const PartitionSweep& b)
{
  if (a.Partitions.size() != b.Partitions.size() || a.Breakpoints != b.Breakpoints)
  {
    return false;
  }
  for (std::size_t k = 0; k < a.Partitions.size(); ++k)
  {
    if (!a.Partitions[k].SameParts(b.Partitions[k]))
    {
      return false;
    }
  }
  return true;
}

}

TEST(AggregationProgress, SpatiotemporalReportsOnTheCallingThreadAndStops)
{
  const RandomModel model = MakeModel(24, 48, 2, 3);
  const AggregationHierarchy hierarchy(TwoLevels(48, 6), 48);
  const SpatiotemporalAggregation reference(model.View, hierarchy, 2);
  const Partition referenceBest = reference.Best(0.4);
  const PartitionSweep referenceSweep = reference.AllPartitions();

  Recorder qualities;
  SpatiotemporalAggregation aggregation(model.View, hierarchy, 2, qualities.Hook());
  qualities.ExpectEvenReports("spatiotemporal qualities");

  Recorder best;
  aggregation.SetProgress(best.Hook());
  EXPECT_TRUE(aggregation.Best(0.4).SameParts(referenceBest));
  best.ExpectEvenReports("spatiotemporal Best");

  Recorder sweep;
  aggregation.SetProgress(sweep.Hook());
  const PartitionSweep all = aggregation.AllPartitions();
  EXPECT_TRUE(SameSweep(all, referenceSweep));
  // With two workers, how far the other worker gets between two reports of
  // the calling thread is the scheduler's choice (a loaded machine gave a
  // jump of 0.72): here only the thread and the order are checked, the
  // spread on one worker below.
  sweep.ExpectEvenReports("spatiotemporal sweep", 1.0, 1);
  // The sweep's fraction is an estimate (the number of partitions is not
  // known in advance; docs/aggregation.md): on this random model one
  // partition spans most of p, and settling it is a large step.
  SpatiotemporalAggregation oneWorker(model.View, hierarchy, 1);
  Recorder evenSweep;
  oneWorker.SetProgress(evenSweep.Hook());
  EXPECT_TRUE(SameSweep(oneWorker.AllPartitions(), referenceSweep));
  evenSweep.ExpectEvenReports("spatiotemporal sweep on one worker", 0.6);

  // Stopped half-way, each step throws; the next run is whole.
  Recorder stop;
  stop.StopAt = best.Fractions.size() / 2;
  aggregation.SetProgress(stop.Hook());
  EXPECT_THROW(aggregation.Best(0.4), AggregationAborted);
  EXPECT_EQ(stop.Fractions.size(), stop.StopAt) << "the DP went on after the callback said stop";
  aggregation.SetProgress({});
  EXPECT_TRUE(aggregation.Best(0.4).SameParts(referenceBest));

  // Stopped at the first report: the sweep throws, on any schedule; on one
  // worker, stopped half-way, it was not nearly done.
  Recorder stopSweep;
  stopSweep.StopAt = 1;
  aggregation.SetProgress(stopSweep.Hook());
  EXPECT_THROW(aggregation.AllPartitions(), AggregationAborted);
  aggregation.SetProgress({});
  EXPECT_TRUE(SameSweep(aggregation.AllPartitions(), referenceSweep));
  Recorder stopOneWorker;
  stopOneWorker.StopAt = evenSweep.Fractions.size() / 2;
  oneWorker.SetProgress(stopOneWorker.Hook());
  EXPECT_THROW(oneWorker.AllPartitions(), AggregationAborted);
  EXPECT_LT(stopOneWorker.Fractions.back(), 0.9) << "the sweep was nearly done when it stopped";

  Recorder stopQualities;
  stopQualities.StopAt = 5;
  EXPECT_THROW(
    SpatiotemporalAggregation(model.View, hierarchy, 2, stopQualities.Hook()), AggregationAborted);
  EXPECT_EQ(stopQualities.Fractions.size(), 5u);
}

TEST(AggregationProgress, TemporalAndSpatialStop)
{
  const RandomModel model = MakeModel(700, 8, 2, 5);
  // On one thread the share of intervals done grows by a row at a time; on
  // two it grows by what both did between the calling thread's reports,
  // which the system's scheduling decides (TemporalQualitiesOnTwoThreads).
  Recorder qualities;
  TemporalAggregation temporal(model.View, 1, qualities.Hook());
  qualities.ExpectEvenReports("temporal qualities");
  const Partition reference = TemporalAggregation(model.View, 2).Best(0.3);

  Recorder best;
  temporal.SetProgress(best.Hook());
  EXPECT_TRUE(temporal.Best(0.3).SameParts(reference));
  best.ExpectEvenReports("temporal Best");

  Recorder stop;
  stop.StopAt = 3;
  temporal.SetProgress(stop.Hook());
  EXPECT_THROW(temporal.Best(0.3), AggregationAborted);
  EXPECT_EQ(stop.Fractions.size(), 3u);
  // A later call starts afresh even with the same callback object gone.
  temporal.SetProgress({});
  EXPECT_TRUE(temporal.Best(0.3).SameParts(reference));

  Recorder stopTemporal;
  stopTemporal.StopAt = 2;
  EXPECT_THROW(TemporalAggregation(model.View, 2, stopTemporal.Hook()), AggregationAborted);

  const RandomModel wide = MakeModel(4, 64, 2, 9);
  const AggregationHierarchy hierarchy(TwoLevels(64, 8), 64);
  Recorder spatial;
  SpatialAggregation whole(wide.View, hierarchy, spatial.Hook());
  spatial.ExpectEvenReports("spatial qualities");
  Recorder stopSpatial;
  stopSpatial.StopAt = 10;
  EXPECT_THROW(SpatialAggregation(wide.View, hierarchy, stopSpatial.Hook()), AggregationAborted);
  EXPECT_EQ(stopSpatial.Fractions.size(), 10u);
}

// Two threads: reports on the calling thread only, never decreasing, up
// to the whole; the qualities equal those computed on one thread.
TEST(AggregationProgress, TemporalQualitiesOnTwoThreads)
{
  const RandomModel model = MakeModel(700, 8, 2, 5);
  Recorder qualities;
  TemporalAggregation temporal(model.View, 2, qualities.Hook());
  ASSERT_FALSE(qualities.Fractions.empty());
  EXPECT_TRUE(std::is_sorted(qualities.Fractions.begin(), qualities.Fractions.end()));
  EXPECT_LE(qualities.Fractions.back(), 1.0);
  ASSERT_EQ(qualities.Threads.size(), 1u);
  EXPECT_EQ(*qualities.Threads.begin(), std::this_thread::get_id());
  const TemporalAggregation single(model.View, 1);
  for (int first = 0; first < 700; first += 37)
  {
    for (int last = first; last < 700; last += 53)
    {
      EXPECT_EQ(
        temporal.IntervalQuality(first, last).Gain, single.IntervalQuality(first, last).Gain);
      EXPECT_EQ(
        temporal.IntervalQuality(first, last).Loss, single.IntervalQuality(first, last).Loss);
    }
  }
}

// While another thread ends a slow index (its first, index 1), the calling
// thread, done with its own, is not idle:
// it calls waiting() (where the aggregations report progress), and every
// index runs once.
TEST(AggregationProgress, ParallelForCallsWaitingWhileOthersWork)
{
  std::vector<std::atomic<int>> runs(50);
  std::set<std::thread::id> waitedOn;
  int waits = 0;
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<bool> slept{ false };
  aggregation::ParallelFor(
    runs.size(), 2,
    [&](std::size_t i)
    {
      ++runs[i];
      if (std::this_thread::get_id() == caller)
      {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      else if (!slept.exchange(true))
      {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
      }
    },
    [&]()
    {
      ++waits;
      waitedOn.insert(std::this_thread::get_id());
    });
  for (const auto& count : runs)
  {
    EXPECT_EQ(count.load(), 1);
  }
  ASSERT_TRUE(slept.load()) << "the other thread ran no index";
  EXPECT_GE(waits, 5); // about 275 ms at one call each 20 ms, with room for a busy machine
  ASSERT_EQ(waitedOn.size(), 1u);
  EXPECT_EQ(*waitedOn.begin(), std::this_thread::get_id());
}

// AllPartitions runs one DP at each end and one per pair searched; a pair
// either finds a new envelope partition (two new pairs) or closes on a
// breakpoint, so the DPs number at most 2 per partition found. Found
// partitions that the upper-hull pass drops (optimal at a single p) count
// too, hence "found" and not "listed"; they are few.
TEST(AggregationProgress, SweepCostsAtMostTwoDPsPerPartition)
{
  for (unsigned seed : { 1u, 2u, 3u })
  {
    const RandomModel model = MakeModel(16 + 4 * seed, 24, 2, seed);
    const AggregationHierarchy hierarchy(TwoLevels(24, 4), 24);
    const SpatiotemporalAggregation aggregation(model.View, hierarchy, 2);
    const PartitionSweep sweep = aggregation.AllPartitions();
    ASSERT_GT(sweep.Partitions.size(), 10u) << "seed " << seed;
    EXPECT_GE(sweep.Found, sweep.Partitions.size()) << "seed " << seed;
    EXPECT_LE(sweep.Found, sweep.Partitions.size() + sweep.Partitions.size() / 10)
      << "seed " << seed << ": many partitions optimal at one p only";
    EXPECT_LE(sweep.Optimizations, 2 * sweep.Found) << "seed " << seed;
    EXPECT_GE(sweep.Optimizations, sweep.Found) << "seed " << seed;

    const TemporalAggregation temporal(model.View, 2);
    const PartitionSweep temporalSweep = temporal.AllPartitions();
    EXPECT_LE(temporalSweep.Optimizations, 2 * temporalSweep.Found) << "seed " << seed;
  }
}
