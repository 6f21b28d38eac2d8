#include "Aggregation.h"

#include "AggregationKernels.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <iterator>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>

namespace macroscope
{

ModelView ModelView::Of(const MicroscopicModel& model)
{
  ModelView view;
  view.Values = model.Values.data();
  view.Slices = model.Grid.Slices;
  view.Resources = model.Resources;
  view.Types = model.Types;
  return view;
}

void ModelView::Validate() const
{
  if (this->Slices < 1 || this->Resources < 1 || this->Types < 1 || !this->Values)
  {
    throw std::invalid_argument(
      "aggregation: the model needs at least one slice, resource and type");
  }
  for (uint32_t u = 0; u < this->Types; ++u)
  {
    for (uint32_t s = 0; s < this->Resources; ++s)
    {
      for (int t = 0; t < this->Slices; ++t)
      {
        const double v = this->At(s, t, u);
        if (!(v >= 0.0) || std::isinf(v))
        {
          throw std::invalid_argument("aggregation: value " + std::to_string(v) + " at resource " +
            std::to_string(s) + ", slice " + std::to_string(t) + ", type " + std::to_string(u) +
            " is not a finite non-negative number");
        }
      }
    }
  }
}

AggregationHierarchy::AggregationHierarchy(const std::vector<int64_t>& parent, uint32_t leaves)
  : Parent(parent)
  , LeafTotal(leaves)
{
  const int64_t nodes = static_cast<int64_t>(parent.size());
  if (leaves < 1 || nodes < leaves)
  {
    throw std::invalid_argument("aggregation hierarchy: " + std::to_string(nodes) +
      " nodes cannot hold " + std::to_string(leaves) + " leaves");
  }
  auto fail = [](int64_t node, const std::string& why)
  {
    throw std::invalid_argument(
      "aggregation hierarchy is not a tree: node " + std::to_string(node) + " " + why);
  };
  this->ChildList.resize(nodes);
  for (int64_t n = 0; n < nodes; ++n)
  {
    const int64_t p = parent[n];
    if (n == nodes - 1)
    {
      if (p != -1)
      {
        fail(n, "(the last, the root) has parent " + std::to_string(p) + " instead of -1");
      }
      continue;
    }
    if (p <= n || p >= nodes)
    {
      fail(n, "has parent " + std::to_string(p) + " (parents must follow their children)");
    }
    if (p < leaves)
    {
      fail(p, "is a leaf (below " + std::to_string(leaves) + ") but has children");
    }
    this->ChildList[p].push_back(n);
  }
  this->Begin.assign(nodes, 0);
  this->End.assign(nodes, 0);
  for (int64_t n = 0; n < nodes; ++n)
  {
    if (n < leaves)
    {
      this->Begin[n] = static_cast<uint32_t>(n);
      this->End[n] = static_cast<uint32_t>(n + 1);
      continue;
    }
    const auto& children = this->ChildList[n];
    if (children.empty())
    {
      fail(n, "is an inner node without children");
    }
    // Children precede their parent, so their ranges are known; they must
    // tile one range in order for the node's leaves to be contiguous.
    std::vector<int64_t> sorted = children;
    std::sort(sorted.begin(), sorted.end(),
      [this](int64_t a, int64_t b) { return this->Begin[a] < this->Begin[b]; });
    this->Begin[n] = this->Begin[sorted.front()];
    uint32_t end = this->Begin[n];
    for (int64_t c : sorted)
    {
      if (this->Begin[c] != end)
      {
        fail(n, "covers leaves that are not contiguous");
      }
      end = this->End[c];
    }
    this->End[n] = end;
    this->ChildList[n] = sorted;
  }
  if (this->Begin[nodes - 1] != 0 || this->End[nodes - 1] != leaves)
  {
    fail(nodes - 1, "(the root) does not cover every leaf");
  }
}

std::vector<int64_t> FlatHierarchy(uint32_t leaves)
{
  std::vector<int64_t> parent(leaves + 1, leaves);
  parent[leaves] = -1;
  return parent;
}

bool Partition::SameParts(const Partition& other) const
{
  return this->Parts.size() == other.Parts.size() &&
    std::equal(this->Parts.begin(), this->Parts.end(), other.Parts.begin(),
      [](const AggregatePart& a, const AggregatePart& b) { return a.SameArea(b); });
}

Aggregation::Aggregation(AggregationProgress progress)
  : Progress(std::move(progress))
  , ProgressThread(std::this_thread::get_id())
{
}

void Aggregation::SetProgress(AggregationProgress progress)
{
  this->Progress = std::move(progress);
  this->ProgressThread = std::this_thread::get_id();
  this->Stopped = false;
}

bool Aggregation::Continue(double fraction) const
{
  if (this->Stopped.load(std::memory_order_relaxed))
  {
    return false;
  }
  if (!this->Progress || std::this_thread::get_id() != this->ProgressThread)
  {
    return true;
  }
  const double reported = this->Sweeping ? this->SweepFraction.load() : fraction;
  if (!this->Progress(std::min(1.0, std::max(0.0, reported))))
  {
    this->Stopped = true;
    return false;
  }
  return true;
}

void Aggregation::ThrowIfStopped() const
{
  if (this->Stopped.load())
  {
    throw AggregationAborted();
  }
}

Partition Aggregation::Best(double p) const
{
  if (!(p >= 0.0 && p <= 1.0))
  {
    throw std::invalid_argument("aggregation: p = " + std::to_string(p) + " is outside [0, 1]");
  }
  if (!this->Sweeping && std::this_thread::get_id() == this->ProgressThread)
  {
    this->Stopped = false; // a new call: an earlier abort does not stop it
  }
  // Normalised pIC = p gain / G - (1 - p) loss / L: the same DP on raw
  // qualities with weights folded in. A zero G or L (nothing to gain or lose
  // even fully aggregated) is left unscaled.
  const double gainScale = this->Normalize && this->Full.Gain > 0.0 ? this->Full.Gain : 1.0;
  const double lossScale = this->Normalize && this->Full.Loss > 0.0 ? this->Full.Loss : 1.0;
  Partition partition;
  partition.Parts = this->Optimize(p / gainScale, (1.0 - p) / lossScale);
  std::sort(partition.Parts.begin(), partition.Parts.end(),
    [](const AggregatePart& a, const AggregatePart& b)
    { return std::tie(a.Node, a.FirstSlice) < std::tie(b.Node, b.FirstSlice); });
  for (AggregatePart& part : partition.Parts)
  {
    part.Gain /= gainScale;
    part.Loss /= lossScale;
    partition.Gain += part.Gain;
    partition.Loss += part.Loss;
  }
  return partition;
}

namespace
{

/// Slope of a partition's pIC line: d pIC / dp = Gain + Loss.
double Slope(const Partition& partition)
{
  return partition.Gain + partition.Loss;
}

/// Where the lines of two partitions cross, clamped to [0, 1].
double Crossing(const Partition& left, const Partition& right)
{
  const double p = (left.Loss - right.Loss) / (Slope(left) - Slope(right));
  return std::min(1.0, std::max(0.0, p));
}

/// The optimal partitions strictly between `first` and `last` (both
/// optimal, slope(first) < slope(last)), in order of p.
///
/// For two envelope partitions A, B with slope(A) < slope(B), at the crossing
/// of their lines any partition above both is above the whole envelope the
/// two span there, so the DP optimum Q there either is one of them (the
/// crossing is a breakpoint) or is new, with a slope strictly between theirs;
/// then (A, Q) and (Q, B) are searched the same way. The pairs are
/// independent: `threads` workers take them from a shared list, each running
/// its DP on one core. Which pairs are searched, and what each one finds,
/// does not depend on the order, and the slopes of what is found are
/// distinct, so sorting by slope gives the order of the recursive search.
///
/// Progress: a pair that closes (its crossing is a breakpoint) settles the
/// parts between its two partitions; `settled(fraction)` gets the share of
/// parts(first) - parts(last) settled so far after each pair, on the thread
/// that ran it, and returning false stops the search (AggregationAborted).
/// `optimizations` counts the DP runs.
std::vector<Partition> Envelope(const Aggregation& owner, const Partition& first,
  const Partition& last, unsigned threads, const std::function<bool(double)>& settled,
  std::size_t& optimizations)
{
  struct Pair
  {
    const Partition* Left;
    const Partition* Right;
    double PLeft; // where each was found optimal
    double PRight;
  };
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Partition> found; // push_back keeps the addresses of the others
  std::vector<Pair> pairs{ { &first, &last, 0.0, 1.0 } };
  unsigned busy = 0;
  std::exception_ptr failure;
  auto logParts = [](const Partition& partition)
  { return std::log(double(std::max<std::size_t>(1, partition.Parts.size()))); };
  const double logSpan = std::max(1e-9, logParts(first) - logParts(last));
  double settledP = 0.0;
  double settledLogParts = 0.0;

  auto work = [&](bool worker)
  {
    struct Scope // clears the flags and the DP scratch however the loop ends
    {
      explicit Scope(bool worker)
      {
        aggregation::InsideParallelSweep = worker;
        aggregation::InsideSweep = true;
      }
      ~Scope()
      {
        aggregation::InsideParallelSweep = false;
        aggregation::InsideSweep = false;
        aggregation::Scratch = aggregation::SweepScratch{};
      }
    } scope(worker);
    std::unique_lock<std::mutex> lock(mutex);
    for (;;)
    {
      changed.wait(lock, [&] { return !pairs.empty() || busy == 0 || failure; });
      if (pairs.empty() || failure)
      {
        break; // nothing left and nobody who could add more, or an error
      }
      const Pair pair = pairs.back();
      pairs.pop_back();
      ++busy;
      lock.unlock();
      const Partition& left = *pair.Left;
      const Partition& right = *pair.Right;
      bool isNew = false;
      bool searched = false;
      double crossing = 0.0;
      Partition middle;
      try
      {
        if (!left.SameParts(right) && Slope(left) < Slope(right))
        {
          searched = true;
          crossing = Crossing(left, right);
          middle = owner.Best(crossing);
          isNew = !middle.SameParts(left) && !middle.SameParts(right) &&
            Slope(left) < Slope(middle) && Slope(middle) < Slope(right);
        }
      }
      catch (...)
      {
        lock.lock();
        failure = std::current_exception();
        --busy;
        changed.notify_all();
        break;
      }
      lock.lock();
      optimizations += searched ? 1 : 0;
      if (isNew)
      {
        found.push_back(std::move(middle));
        pairs.push_back({ pair.Left, &found.back(), pair.PLeft, crossing });
        pairs.push_back({ &found.back(), pair.Right, crossing, pair.PRight });
      }
      else
      {
        settledP += pair.PRight - pair.PLeft;
        settledLogParts += std::max(0.0, logParts(left) - logParts(right));
      }
      const double fraction =
        std::min(1.0, 0.5 * settledP + 0.5 * std::min(1.0, settledLogParts / logSpan));
      --busy;
      changed.notify_all();
      lock.unlock();
      const bool goOn = settled(fraction);
      lock.lock();
      if (!goOn && !failure)
      {
        failure = std::make_exception_ptr(AggregationAborted());
        changed.notify_all();
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned k = 1; k < threads; ++k)
  {
    pool.emplace_back(work, true);
  }
  // With one worker the DP keeps its own parallelism.
  work(threads > 1);
  for (auto& thread : pool)
  {
    thread.join();
  }
  if (failure)
  {
    std::rethrow_exception(failure);
  }
  std::vector<Partition> out(
    std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
  std::sort(out.begin(), out.end(),
    [](const Partition& a, const Partition& b) { return Slope(a) < Slope(b); });
  return out;
}

}

PartitionSweep Aggregation::AllPartitions() const
{
  // While the sweep runs, Continue (in the DPs, on any thread) reports the
  // sweep's fraction: the two ends count for 2 %, the envelope for the rest.
  struct Sweep
  {
    explicit Sweep(const Aggregation& owner)
      : Owner(owner)
    {
      owner.Stopped = false;
      owner.SweepFraction = 0.0;
      owner.Sweeping = true;
    }
    ~Sweep() { this->Owner.Sweeping = false; }
    const Aggregation& Owner;
  } sweeping(*this);
  Partition first = this->Best(0.0);
  this->SweepFraction = 0.01;
  this->Checkpoint(0.0);
  Partition last = this->Best(1.0);
  this->SweepFraction = 0.02;
  this->Checkpoint(0.0);
  std::size_t optimizations = 2;
  auto settled = [this](double fraction)
  {
    // Pairs end on several threads: keep the largest fraction seen.
    const double now = 0.02 + 0.98 * fraction;
    double seen = this->SweepFraction.load();
    while (now > seen && !this->SweepFraction.compare_exchange_weak(seen, now))
    {
    }
    return this->Continue(0.0);
  };
  std::vector<Partition> vertices{ first };
  std::vector<Partition> between = Envelope(
    *this, first, last, aggregation::ThreadCount(this->Threads, 1u << 16), settled, optimizations);
  std::move(between.begin(), between.end(), std::back_inserter(vertices));
  if (!last.SameParts(first))
  {
    vertices.push_back(last);
  }
  const std::size_t found = vertices.size();
  // Keep the upper hull: a partition whose crossings with its neighbours do
  // not leave it an interval of positive width (three lines through one
  // point) is optimal only at that point.
  PartitionSweep sweep;
  for (Partition& vertex : vertices)
  {
    while (!sweep.Partitions.empty())
    {
      const double crossing = Crossing(sweep.Partitions.back(), vertex);
      if (sweep.Partitions.size() > 1 && !(crossing > sweep.Breakpoints.back()))
      {
        sweep.Partitions.pop_back();
        sweep.Breakpoints.pop_back();
        continue;
      }
      sweep.Breakpoints.push_back(crossing);
      break;
    }
    sweep.Partitions.push_back(std::move(vertex));
  }
  sweep.Optimizations = optimizations;
  sweep.Found = found;
  return sweep;
}

std::vector<double> TemporalAmplitudes(const ModelView& model, int first, int last)
{
  if (first < 0 || last < first || last >= model.Slices)
  {
    throw std::invalid_argument("aggregation: bad slice interval");
  }
  std::vector<double> amplitude(model.Types, 0.0);
  for (uint32_t u = 0; u < model.Types; ++u)
  {
    for (uint32_t s = 0; s < model.Resources; ++s)
    {
      for (int t = first; t <= last; ++t)
      {
        amplitude[u] += model.At(s, t, u);
      }
    }
    amplitude[u] /= (last - first + 1);
  }
  return amplitude;
}

AreaSummary SummarizeArea(
  const ModelView& model, const AggregationHierarchy& hierarchy, int64_t node, int first, int last)
{
  if (node < 0 || node >= static_cast<int64_t>(hierarchy.Nodes()) || first < 0 || last < first ||
    last >= model.Slices)
  {
    throw std::invalid_argument("aggregation: bad area");
  }
  AreaSummary summary;
  summary.Mean.assign(model.Types, 0.0);
  const double cells = double(hierarchy.LeafCount(node)) * (last - first + 1);
  double total = 0.0;
  for (uint32_t u = 0; u < model.Types; ++u)
  {
    for (uint32_t s = hierarchy.LeafBegin(node); s < hierarchy.LeafEnd(node); ++s)
    {
      for (int t = first; t <= last; ++t)
      {
        summary.Mean[u] += model.At(s, t, u);
      }
    }
    summary.Mean[u] /= cells;
    total += summary.Mean[u];
    if (summary.Mean[u] > summary.Mean[summary.Mode])
    {
      summary.Mode = u;
    }
  }
  summary.ModeProportion = total > 0.0 ? summary.Mean[summary.Mode] / total : 0.0;
  return summary;
}

}
