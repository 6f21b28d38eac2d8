#include "TimeSlicing.h"

#include "ResourceHierarchy.h" // NoResource
#include "TimeSlicingKernels.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <fstream>
#include <mutex>
#include <numeric>
#include <sstream>
#include <thread>

#include <unistd.h>

namespace macroscope
{

void SliceGrid::Validate() const
{
  if (this->Slices < 1)
  {
    throw std::invalid_argument(
      "the number of slices must be at least 1 (got " + std::to_string(this->Slices) + ")");
  }
  if (!std::isfinite(this->Begin) || !std::isfinite(this->End) || !(this->Begin < this->End))
  {
    throw std::invalid_argument("the time window must have a finite start before its end (got [" +
      std::to_string(this->Begin) + ", " + std::to_string(this->End) + "])");
  }
}

namespace
{
// Rows of one kind grouped by leaf: rows of leaf l are Order[Offset[l] ..
// Offset[l + 1]), in their input order. When the input is already grouped in
// leaf order (as the readers write it), Order stays empty: row = position.
struct LeafGroups
{
  std::vector<std::size_t> Offset;
  std::vector<std::size_t> Order;

  std::size_t Row(std::size_t position) const
  {
    return this->Order.empty() ? position : this->Order[position];
  }
};

LeafGroups GroupByLeaf(const uint32_t* leafOf, std::size_t count, uint32_t leaves)
{
  LeafGroups groups;
  groups.Offset.assign(std::size_t(leaves) + 1, 0);
  bool sorted = true;
  for (std::size_t i = 0; i < count; ++i)
  {
    const uint32_t leaf = leafOf[i];
    if (leaf >= leaves)
    {
      throw std::invalid_argument("row " + std::to_string(i) + " refers to leaf " +
        std::to_string(leaf) + ", but there are " + std::to_string(leaves) + " leaves");
    }
    ++groups.Offset[leaf + 1];
    sorted = sorted && (i == 0 || leafOf[i - 1] <= leaf);
  }
  std::partial_sum(groups.Offset.begin(), groups.Offset.end(), groups.Offset.begin());
  if (!sorted)
  {
    groups.Order.resize(count);
    std::vector<std::size_t> next(groups.Offset.begin(), groups.Offset.end() - 1);
    for (std::size_t i = 0; i < count; ++i)
    {
      groups.Order[next[leafOf[i]]++] = i;
    }
  }
  return groups;
}

class Slicer
{
public:
  Slicer(const TimeSlicingOptions& options, const StateRows& states, const PointRows& points,
    const MessageRows& messages, MicroscopicModel& model)
    : Options(options)
    , States(states)
    , Points(points)
    , Messages(messages)
    , Model(model)
    , Width(options.Grid.Width())
  {
  }

  // Processes the leaves of `resource`; several threads run this on
  // different resources, whose model rows are disjoint.
  void Resource(uint32_t resource)
  {
    for (uint32_t leaf : this->LeavesOf[resource])
    {
      switch (this->Options.Metric)
      {
        case SliceMetric::StateDuration:
          this->Options.Depth < 0 ? this->ExclusiveStates(resource, leaf)
                                  : this->StatesAtDepth(resource, leaf);
          break;
        case SliceMetric::EventCount:
          this->Events(resource, leaf);
          break;
        case SliceMetric::VariableMean:
          this->Variables(resource, leaf);
          break;
        case SliceMetric::BytesSentRate:
        case SliceMetric::MessagesSent:
          this->MessageEnds(resource, leaf, true);
          break;
        case SliceMetric::BytesReceivedRate:
        case SliceMetric::MessagesReceived:
          this->MessageEnds(resource, leaf, false);
          break;
      }
    }
  }

  void Prepare()
  {
    const uint32_t leaves = this->Options.Leaves;
    this->LeavesOf.assign(this->Model.Resources, {});
    for (uint32_t leaf = 0; leaf < leaves; ++leaf)
    {
      const uint32_t resource =
        this->Options.ResourceOfLeaf.empty() ? leaf : this->Options.ResourceOfLeaf[leaf];
      if (resource != NoResource) // a leaf left out: its rows are never read
      {
        this->LeavesOf[resource].push_back(leaf);
      }
    }
    switch (this->Options.Metric)
    {
      case SliceMetric::StateDuration:
        this->Groups = GroupByLeaf(this->States.Location, this->States.Count, leaves);
        break;
      case SliceMetric::EventCount:
      case SliceMetric::VariableMean:
        this->Groups = GroupByLeaf(this->Points.Location, this->Points.Count, leaves);
        break;
      case SliceMetric::BytesSentRate:
      case SliceMetric::MessagesSent:
        this->Groups = GroupByLeaf(this->Messages.Sender, this->Messages.Count, leaves);
        break;
      case SliceMetric::BytesReceivedRate:
      case SliceMetric::MessagesReceived:
        this->Groups = GroupByLeaf(this->Messages.Receiver, this->Messages.Count, leaves);
        break;
    }
  }

  /// Rows of the resource's leaves, for progress.
  std::size_t RowsOf(uint32_t resource) const
  {
    std::size_t rows = 0;
    for (uint32_t leaf : this->LeavesOf[resource])
    {
      rows += this->Groups.Offset[leaf + 1] - this->Groups.Offset[leaf];
    }
    return rows;
  }

  std::atomic<bool> BadType{ false };
  std::vector<std::vector<uint32_t>> LeavesOf;

private:
  double* Row(uint32_t resource, uint32_t type) { return &this->Model.At(resource, 0, type); }

  bool TypeOk(uint32_t type)
  {
    if (type < this->Model.Types)
    {
      return true;
    }
    this->BadType = true;
    return false;
  }

  // Exclusive time: each state counts minus its children. States arrive per
  // leaf in the order their Leave was recorded (children before parents);
  // a state at depth d adopts the pending states of depth d + 1 that lie
  // inside it. Any other order is sorted into that one first: End
  // ascending, deeper first, and for states of one depth ending together
  // (a zero-length call right after its sibling) the earlier start first,
  // so that the sibling with children adopts them before the zero-length
  // one clears the pending level.
  void ExclusiveStates(uint32_t resource, uint32_t leaf)
  {
    // A previous call on this thread may have stopped half-way (bad type).
    std::vector<std::vector<std::size_t>>& pending = this->Pending();
    for (auto& level : pending)
    {
      level.clear();
    }

    const std::size_t begin = this->Groups.Offset[leaf];
    const std::size_t end = this->Groups.Offset[leaf + 1];
    const StateRows& s = this->States;
    std::vector<std::size_t> rows;
    rows.reserve(end - begin);
    for (std::size_t p = begin; p < end; ++p)
    {
      rows.push_back(this->Groups.Row(p));
    }
    auto leaveOrder = [&s](std::size_t x, std::size_t y)
    {
      return s.End[x] < s.End[y] ||
        (s.End[x] == s.End[y] &&
          (s.Depth[x] > s.Depth[y] || (s.Depth[x] == s.Depth[y] && s.Start[x] < s.Start[y])));
    };
    if (!std::is_sorted(rows.begin(), rows.end(), leaveOrder))
    {
      std::stable_sort(rows.begin(), rows.end(), leaveOrder);
    }

    for (std::size_t row : rows)
    {
      const uint32_t depth = s.Depth[row];
      const uint32_t type = s.Type[row];
      if (!this->TypeOk(type))
      {
        return;
      }
      if (pending.size() < std::size_t(depth) + 2)
      {
        pending.resize(std::size_t(depth) + 2);
      }
      double* line = this->Row(resource, type);
      AddInterval(line, this->Options.Grid, this->Width, s.Start[row], s.End[row], 1.0);
      for (std::size_t child : pending[depth + 1])
      {
        if (s.Start[child] >= s.Start[row] && s.End[child] <= s.End[row])
        {
          AddInterval(line, this->Options.Grid, this->Width, s.Start[child], s.End[child], -1.0);
        }
      }
      pending[depth + 1].clear();
      if (depth > 0) // only a state with a parent needs to wait for it
      {
        pending[depth].push_back(row);
      }
    }
    for (auto& level : pending)
    {
      level.clear();
    }
  }

  void StatesAtDepth(uint32_t resource, uint32_t leaf)
  {
    const StateRows& s = this->States;
    const uint32_t depth = static_cast<uint32_t>(this->Options.Depth);
    for (std::size_t p = this->Groups.Offset[leaf]; p < this->Groups.Offset[leaf + 1]; ++p)
    {
      const std::size_t row = this->Groups.Row(p);
      if (s.Depth[row] == depth && this->TypeOk(s.Type[row]))
      {
        AddInterval(this->Row(resource, s.Type[row]), this->Options.Grid, this->Width, s.Start[row],
          s.End[row], 1.0);
      }
    }
  }

  void Events(uint32_t resource, uint32_t leaf)
  {
    const PointRows& e = this->Points;
    for (std::size_t p = this->Groups.Offset[leaf]; p < this->Groups.Offset[leaf + 1]; ++p)
    {
      const std::size_t row = this->Groups.Row(p);
      const int slice = SliceOf(this->Options.Grid, this->Width, e.Time[row]);
      if (slice >= 0 && this->TypeOk(e.Type[row]))
      {
        this->Row(resource, e.Type[row])[slice] += 1.0;
      }
    }
  }

  // Triva's eq. 4.3: a sample's value holds from its time to the next sample
  // of the same variable on the same leaf (the last one to the window's end);
  // the slice value is the integral over the slice divided by its width.
  void Variables(uint32_t resource, uint32_t leaf)
  {
    const PointRows& v = this->Points;
    const std::size_t begin = this->Groups.Offset[leaf];
    const std::size_t end = this->Groups.Offset[leaf + 1];
    std::vector<std::size_t> rows;
    rows.reserve(end - begin);
    for (std::size_t p = begin; p < end; ++p)
    {
      rows.push_back(this->Groups.Row(p));
    }
    auto byTime = [&v](std::size_t x, std::size_t y) { return v.Time[x] < v.Time[y]; };
    if (!std::is_sorted(rows.begin(), rows.end(), byTime))
    {
      std::stable_sort(rows.begin(), rows.end(), byTime);
    }
    std::vector<std::size_t>& last = this->LastSample();
    last.assign(this->Model.Types, SIZE_MAX);
    const SliceGrid& grid = this->Options.Grid;
    for (std::size_t row : rows)
    {
      const uint32_t type = v.Type[row];
      if (!this->TypeOk(type))
      {
        return;
      }
      if (last[type] != SIZE_MAX)
      {
        const std::size_t previous = last[type];
        AddInterval(this->Row(resource, type), grid, this->Width, v.Time[previous], v.Time[row],
          v.Value[previous]);
      }
      last[type] = row;
    }
    for (uint32_t type = 0; type < this->Model.Types; ++type)
    {
      if (last[type] != SIZE_MAX)
      {
        AddInterval(this->Row(resource, type), grid, this->Width, v.Time[last[type]], grid.End,
          v.Value[last[type]]);
      }
    }
  }

  // Triva's eqs. 4.4 and 4.5 with each message's throughput (bytes over its
  // duration) spread over the slices it overlaps, so that a message across a
  // slice border counts in both slices; or message counts.
  void MessageEnds(uint32_t resource, uint32_t leaf, bool asOrigin)
  {
    const MessageRows& m = this->Messages;
    const bool counting = this->Options.Metric == SliceMetric::MessagesSent ||
      this->Options.Metric == SliceMetric::MessagesReceived;
    double* line = this->Row(resource, 0);
    for (std::size_t p = this->Groups.Offset[leaf]; p < this->Groups.Offset[leaf + 1]; ++p)
    {
      const std::size_t row = this->Groups.Row(p);
      AddMessage(line, this->Options.Grid, this->Width, counting, asOrigin, m.SendTime[row],
        m.RecvTime[row], m.Bytes[row]);
    }
  }

  // Per-thread scratch space, so that threads never share a vector.
  std::vector<std::vector<std::size_t>>& Pending()
  {
    thread_local std::vector<std::vector<std::size_t>> pending;
    return pending;
  }
  std::vector<std::size_t>& LastSample()
  {
    thread_local std::vector<std::size_t> last;
    return last;
  }

  const TimeSlicingOptions& Options;
  const StateRows& States;
  const PointRows& Points;
  const MessageRows& Messages;
  MicroscopicModel& Model;
  const double Width;
  LeafGroups Groups;
};

}

ModelMemory ModelMemoryNeed(double slices, double resources, double types, int copies)
{
  ModelMemory need;
  need.Cells = slices * resources * types;
  need.Bytes = need.Cells * static_cast<double>(sizeof(double)) * copies;
  return need;
}

uint64_t AvailableMemoryBytes()
{
  // MemAvailable counts the page cache the kernel would give back, which the
  // free pages do not: the fairer limit on Linux.
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  uint64_t kibibytes = 0;
  std::string unit;
  while (meminfo >> key >> kibibytes >> unit)
  {
    if (key == "MemAvailable:")
    {
      return kibibytes * 1024;
    }
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES);
  const long pageSize = sysconf(_SC_PAGESIZE);
  return pages > 0 && pageSize > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize)
                                   : 0;
}

namespace
{
std::string Bytes(double bytes)
{
  const char* units[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
  int unit = 0;
  double value = bytes;
  while (value >= 1024.0 && unit < 6)
  {
    value /= 1024.0;
    ++unit;
  }
  std::ostringstream text;
  text.precision(unit == 0 ? 0 : 3);
  text << std::fixed << value << " " << units[unit];
  return text.str();
}
}

std::string ModelMemoryProblem(
  int slices, uint64_t resources, uint64_t types, const ModelMemory& need, uint64_t limitBytes)
{
  if (limitBytes == 0 || need.Bytes <= static_cast<double>(limitBytes))
  {
    return std::string();
  }
  std::ostringstream text;
  text.precision(4);
  text << "the model of " << slices << " slices x " << resources << " resources x " << types
       << " types has " << need.Cells << " cells and needs " << need.Bytes << " bytes ("
       << Bytes(need.Bytes) << "), more than the " << limitBytes << " bytes ("
       << Bytes(static_cast<double>(limitBytes))
       << ") of memory available: use fewer Slices, a shallower ResourceLevel, fewer Resources "
          "or fewer Types";
  return text.str();
}

MicroscopicModel EmptyModel(const TimeSlicingOptions& options)
{
  options.Grid.Validate();
  const uint32_t resources = options.ResourceOfLeaf.empty() ? options.Leaves : options.Resources;
  if (!options.ResourceOfLeaf.empty())
  {
    if (options.ResourceOfLeaf.size() != options.Leaves)
    {
      throw std::invalid_argument("ResourceOfLeaf must have one entry per leaf");
    }
    for (uint32_t r : options.ResourceOfLeaf)
    {
      if (r >= resources && r != NoResource)
      {
        throw std::invalid_argument("a leaf maps to resource " + std::to_string(r) +
          ", but there are " + std::to_string(resources) + " resources");
      }
    }
  }
  const uint32_t types = IsMessageMetric(options.Metric) ? 1 : options.Types;
  if (resources == 0 || types == 0)
  {
    throw std::invalid_argument("the model needs at least one resource and one type");
  }
  if (options.Depth < -1)
  {
    throw std::invalid_argument("Depth must be -1 (innermost state) or a call depth >= 0");
  }
  MicroscopicModel model;
  model.Grid = options.Grid;
  model.Resources = resources;
  model.Types = types;
  model.Values.assign(std::size_t(options.Grid.Slices) * resources * types, 0.0);
  return model;
}

void FinishModel(const TimeSlicingOptions& options, MicroscopicModel& model)
{
  // Subtracting children leaves rounding residue (~1e-16 s) where a parent
  // has no exclusive time; the model's values are non-negative by definition.
  // The residue grows with the timestamps (~1e-11 s at 1e5 s), beyond the
  // threshold below, so negative durations are rounding too: clamp them.
  const double scale = options.Metric == SliceMetric::StateDuration && options.Normalize
    ? 1.0 / options.Grid.Width()
    : 1.0;
  const double divide = options.Metric == SliceMetric::VariableMean ||
      options.Metric == SliceMetric::BytesSentRate ||
      options.Metric == SliceMetric::BytesReceivedRate
    ? 1.0 / options.Grid.Width()
    : 1.0;
  const double residue = 1e-12 * options.Grid.Width();
  for (double& value : model.Values)
  {
    if (options.Metric == SliceMetric::StateDuration && (value < 0.0 || std::abs(value) < residue))
    {
      value = 0.0;
    }
    value *= scale * divide;
  }
}

MicroscopicModel SliceTrace(const TimeSlicingOptions& options, const StateRows& states,
  const PointRows& points, const MessageRows& messages)
{
  MicroscopicModel model = EmptyModel(options);
  const uint32_t resources = model.Resources;
  const uint32_t types = model.Types;
  Slicer slicer(options, states, points, messages, model);
  slicer.Prepare();

  // Resources are shared out dynamically in small blocks. Progress counts
  // rows (plus one per resource), so that it follows the work however
  // unevenly the rows fall on resources (docs/progress.md).
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const unsigned threads =
    std::max(1u, std::min(options.Threads ? options.Threads : hardware, resources));
  const uint32_t block = std::max<uint32_t>(1, resources / (100 * threads));
  std::vector<uint64_t> weight(resources);
  uint64_t total = 0;
  for (uint32_t r = 0; r < resources; ++r)
  {
    weight[r] = slicer.RowsOf(r) + 1;
    total += weight[r];
  }
  std::atomic<uint32_t> next{ 0 };
  std::atomic<uint64_t> done{ 0 };
  std::atomic<bool> stop{ false };
  bool abortRequested = false;
  double reported = -1.0; // last fraction reported (calling thread only)
  std::exception_ptr failure;
  std::mutex failureMutex;
  // Reports the work done so far; the calling thread only (VTK observers and
  // Python are not for other threads). Returns false once asked to stop.
  auto report = [&]()
  {
    const double fraction = double(done) / double(total);
    if (!options.Progress || fraction <= reported)
    {
      return true;
    }
    reported = fraction;
    if (!options.Progress(reported))
    {
      abortRequested = true;
      stop = true;
      return false;
    }
    return true;
  };
  auto work = [&](bool reporting)
  {
    try
    {
      while (!stop)
      {
        const uint32_t first = next.fetch_add(block);
        if (first >= resources)
        {
          break;
        }
        const uint32_t last = std::min(resources, first + block);
        for (uint32_t r = first; r < last; ++r)
        {
          slicer.Resource(r);
          done += weight[r];
        }
        if (reporting)
        {
          report();
        }
      }
    }
    catch (...)
    {
      std::lock_guard<std::mutex> lock(failureMutex);
      failure = std::current_exception();
      stop = true;
    }
  };
  if (threads == 1)
  {
    work(true);
  }
  else
  {
    // The helpers slice; the calling thread only reports, every few
    // milliseconds, and hears an abort, so that progress is as even as the
    // work and an abort is heard at once whatever a resource costs.
    std::vector<std::thread> helpers;
    for (unsigned t = 0; t < threads; ++t)
    {
      helpers.emplace_back(work, false);
    }
    while (!stop && done < total)
    {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      report();
    }
    for (auto& helper : helpers)
    {
      helper.join();
    }
  }
  // Progress always reaches 1, and an abort asked at the end is heard.
  if (!failure && !abortRequested && options.Progress && reported < 1.0 && !options.Progress(1.0))
  {
    abortRequested = true;
  }
  const bool aborted = abortRequested && !failure;
  if (failure)
  {
    std::rethrow_exception(failure);
  }
  if (aborted)
  {
    throw TimeSlicingAborted();
  }
  if (slicer.BadType)
  {
    throw std::invalid_argument(
      "a row refers to a type id beyond the " + std::to_string(types) + " types of the model");
  }

  FinishModel(options, model);
  return model;
}

}
