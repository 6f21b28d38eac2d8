#include "TimelineLayout.h"

#include "ProgressSpan.h"
#include "ResourceHierarchy.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>

namespace macroscope
{

namespace
{
void Continue(bool going)
{
  if (!going)
  {
    throw TimelineLayoutAborted();
  }
}

// Runs work(item, worker) for every item in [0, count) on up to `threads`
// threads (0: every core), items taken one at a time in order, worker in
// [0, threads). Progress is reported from the calling thread only (VTK
// observers and Python are not for other threads): once per item done,
// whichever thread did it, mapped to [from, to], so the reports do not
// depend on how the items fell on the threads. A refusal stops every thread
// and throws TimelineLayoutAborted; an exception of a worker is rethrown
// here. Returns the threads used.
template <class Work>
unsigned ShareOut(std::size_t count, unsigned threads, const std::function<bool(double)>& progress,
  double from, double to, Work&& work)
{
  // A stop asked before the work starts (e.g. while an earlier step
  // reported) is honoured before any item is done.
  Continue(!progress || progress(from));
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const unsigned used = static_cast<unsigned>(
    std::max<std::size_t>(1, std::min<std::size_t>(threads ? threads : hardware, count)));
  std::atomic<std::size_t> next{ 0 };
  std::atomic<bool> stop{ false };
  std::exception_ptr failure;
  std::mutex mutex; // guards done, finished, failure
  std::condition_variable changed;
  std::size_t done = 0;
  unsigned finished = 0;
  bool refused = false;
  std::size_t reported = 0;
  // The calling thread reports every item done since its last report.
  auto report = [&]()
  {
    std::size_t now;
    {
      std::lock_guard<std::mutex> lock(mutex);
      now = done;
    }
    if (!progress)
    {
      reported = now;
      return;
    }
    while (!refused && reported < now)
    {
      ++reported;
      if (!progress(from + (to - from) * double(reported) / double(count)))
      {
        refused = true;
        stop = true;
      }
    }
  };
  auto run = [&](unsigned worker)
  {
    try
    {
      for (std::size_t item = next++; item < count && !stop; item = next++)
      {
        work(item, worker);
        {
          std::lock_guard<std::mutex> lock(mutex);
          ++done;
        }
        if (worker == 0)
        {
          report();
        }
        else
        {
          changed.notify_one();
        }
      }
    }
    catch (...)
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!failure)
      {
        failure = std::current_exception();
      }
      stop = true;
    }
    if (worker != 0)
    {
      {
        std::lock_guard<std::mutex> lock(mutex);
        ++finished;
      }
      changed.notify_one();
    }
  };
  std::vector<std::thread> helpers;
  for (unsigned worker = 1; worker < used; ++worker)
  {
    helpers.emplace_back(run, worker);
  }
  run(0);
  // The helpers' last items: reported as they finish.
  while (true)
  {
    bool failed = false;
    {
      std::unique_lock<std::mutex> lock(mutex);
      changed.wait(lock, [&]() { return finished == helpers.size() || done > reported; });
      if (finished == helpers.size() && done == reported)
      {
        break;
      }
      failed = failure != nullptr;
    }
    report();
    if (refused || failed)
    {
      break;
    }
  }
  for (std::thread& helper : helpers)
  {
    helper.join();
  }
  if (failure)
  {
    std::rethrow_exception(failure);
  }
  report();
  Continue(!refused);
  return used;
}
}

TimelineIndex BuildTimelineIndex(const StateRows& states, const MessageRows& messages,
  uint32_t leaves, const std::function<bool(double)>& progress, unsigned threads)
{
  TimelineIndex index;
  index.Leaves = leaves;

  // Counting sort by leaf (stable: a leaf's rows keep the input order), then
  // (depth, start, end, row) within each leaf. Progress: a fifth of the bar
  // to the checks, the rest to the leaves' sorts.
  std::vector<std::size_t> offset(std::size_t(leaves) + 1, 0);
  ProgressSpan checking(progress, 0.0, 0.2, states.Count);
  for (std::size_t row = 0; row < states.Count; ++row)
  {
    Continue(checking.At(row));
    const uint32_t leaf = states.Location[row];
    if (leaf >= leaves)
    {
      throw std::invalid_argument("state row " + std::to_string(row) + " refers to leaf " +
        std::to_string(leaf) + " of " + std::to_string(leaves));
    }
    if (!std::isfinite(states.Start[row]) || !std::isfinite(states.End[row]) ||
      states.End[row] < states.Start[row])
    {
      throw std::invalid_argument(
        "state row " + std::to_string(row) + " must have finite times with Start <= End");
    }
    ++offset[leaf + 1];
  }
  for (uint32_t leaf = 0; leaf < leaves; ++leaf)
  {
    offset[leaf + 1] += offset[leaf];
  }
  index.StateOrder.resize(states.Count);
  {
    std::vector<std::size_t> next(offset.begin(), offset.end() - 1);
    for (std::size_t row = 0; row < states.Count; ++row)
    {
      index.StateOrder[next[states.Location[row]]++] = row;
    }
  }
  auto byTime = [&states](std::size_t x, std::size_t y)
  {
    return std::make_tuple(states.Start[x], states.End[x], x) <
      std::make_tuple(states.Start[y], states.End[y], y);
  };
  index.MaxEnd.resize(states.Count);
  // Per leaf, its runs of one depth: (first position, depth), built by the
  // leaf's thread, joined in leaf order below.
  std::vector<std::vector<std::pair<std::size_t, uint32_t>>> runsOf(leaves);
  std::vector<std::vector<std::size_t>> scratch(
    std::max(1u, threads ? threads : std::thread::hardware_concurrency()));
  ShareOut(leaves, static_cast<unsigned>(scratch.size()), progress, 0.2, 0.9,
    [&](std::size_t leafIndex, unsigned worker)
    {
      const std::size_t first = offset[leafIndex];
      const std::size_t last = offset[leafIndex + 1];
      std::size_t* order = index.StateOrder.data();
      // A stable counting sort by depth: the readers emit a location's
      // states in Leave order, which is start order within one depth (the
      // states of one depth do not overlap), so after it each depth is
      // usually sorted already and only checked: O(n), not O(n log n).
      uint32_t deepest = 0;
      for (std::size_t p = first; p < last; ++p)
      {
        deepest = std::max(deepest, states.Depth[order[p]]);
      }
      std::vector<std::size_t> depthBegin(std::size_t(deepest) + 2, 0);
      for (std::size_t p = first; p < last; ++p)
      {
        ++depthBegin[states.Depth[order[p]] + 1];
      }
      for (uint32_t d = 0; d <= deepest; ++d)
      {
        depthBegin[d + 1] += depthBegin[d];
      }
      std::vector<std::size_t>& sorted = scratch[worker];
      sorted.resize(last - first);
      {
        std::vector<std::size_t> put(depthBegin.begin(), depthBegin.end() - 1);
        for (std::size_t p = first; p < last; ++p)
        {
          sorted[put[states.Depth[order[p]]]++] = order[p];
        }
      }
      std::copy(sorted.begin(), sorted.end(), order + first);
      auto& runs = runsOf[leafIndex];
      for (uint32_t d = 0; d <= deepest; ++d)
      {
        const std::size_t begin = first + depthBegin[d];
        const std::size_t end = first + depthBegin[d + 1];
        if (begin == end)
        {
          continue;
        }
        if (!std::is_sorted(order + begin, order + end, byTime))
        {
          std::sort(order + begin, order + end, byTime);
        }
        runs.emplace_back(begin, d);
        index.MaxEnd[begin] = states.End[order[begin]];
        for (std::size_t p = begin + 1; p < end; ++p)
        {
          index.MaxEnd[p] = std::max(index.MaxEnd[p - 1], states.End[order[p]]);
        }
      }
    });
  index.LeafRuns.assign(std::size_t(leaves) + 1, 0);
  for (uint32_t leaf = 0; leaf < leaves; ++leaf)
  {
    index.LeafRuns[leaf] = index.RunBegin.size();
    for (const auto& [begin, depth] : runsOf[leaf])
    {
      index.RunBegin.push_back(begin);
      index.RunDepth.push_back(depth);
    }
  }
  index.LeafRuns[leaves] = index.RunBegin.size();
  index.RunBegin.push_back(states.Count);

  index.MessageOrder.resize(messages.Count);
  for (std::size_t row = 0; row < messages.Count; ++row)
  {
    if (messages.Sender[row] >= leaves || messages.Receiver[row] >= leaves)
    {
      throw std::invalid_argument(
        "message row " + std::to_string(row) + " refers to a leaf out of range");
    }
    if (!std::isfinite(messages.SendTime[row]) || !std::isfinite(messages.RecvTime[row]))
    {
      throw std::invalid_argument(
        "message row " + std::to_string(row) + " has a time that is not finite");
    }
    index.MessageOrder[row] = row;
    index.LongestMessage =
      std::max(index.LongestMessage, std::abs(messages.RecvTime[row] - messages.SendTime[row]));
  }
  // By (send time, row): a total order, so the result does not depend on
  // how the sort is shared out. The readers emit messages by location, so
  // the order is far from sorted: the runs of equal length are sorted on the
  // threads, then merged.
  auto bySend = [&messages](std::size_t x, std::size_t y)
  {
    return messages.SendTime[x] < messages.SendTime[y] ||
      (messages.SendTime[x] == messages.SendTime[y] && x < y);
  };
  const std::size_t messageCount = index.MessageOrder.size();
  const unsigned sorters = messageCount < 100000
    ? 1u
    : std::max(1u, threads ? threads : std::thread::hardware_concurrency());
  std::vector<std::size_t> bounds;
  for (unsigned k = 0; k <= sorters; ++k)
  {
    bounds.push_back(messageCount * k / sorters);
  }
  auto order = index.MessageOrder.begin();
  ShareOut(sorters, sorters, {}, 0.0, 1.0,
    [&](std::size_t k, unsigned)
    {
      std::sort(order + static_cast<std::ptrdiff_t>(bounds[k]),
        order + static_cast<std::ptrdiff_t>(bounds[k + 1]), bySend);
    });
  for (unsigned k = 1; k < sorters; ++k)
  {
    std::inplace_merge(order, order + static_cast<std::ptrdiff_t>(bounds[k]),
      order + static_cast<std::ptrdiff_t>(bounds[k + 1]), bySend);
  }
  Continue(!progress || progress(1.0));
  return index;
}

namespace
{
// A state clipped to the window.
struct Piece
{
  uint32_t Depth;
  double Start;
  double End;
  uint32_t Type;
  std::size_t Row;

  bool operator<(const Piece& other) const
  {
    return std::tie(this->Depth, this->Start, this->End, this->Type, this->Row) <
      std::tie(other.Depth, other.Start, other.End, other.Type, other.Row);
  }
};

// The mark being built on one band and depth.
class MarkBuilder
{
public:
  MarkBuilder(TimelineMarks& marks, uint32_t band, uint8_t bandFlags)
    : Marks(marks)
    , Band(band)
    , BandFlags(bandFlags)
  {
  }

  bool Open() const { return this->Count > 0; }
  double End() const { return this->Last; }
  /// The budget column of the mark's first piece.
  int64_t Column() const { return this->FirstColumn; }
  /// Whether every piece added so far is below the budget.
  bool AllNarrow() const { return this->Narrow == this->Count; }

  void Add(const Piece& piece, bool narrow, int64_t column)
  {
    if (this->Count == 0)
    {
      this->Depth = piece.Depth;
      this->First = piece.Start;
      this->Last = piece.End;
      this->FirstColumn = column;
    }
    this->Last = std::max(this->Last, piece.End);
    this->Narrow += narrow ? 1 : 0;
    ++this->Count;
    const double time = piece.End - piece.Start;
    auto found = std::find_if(this->Times.begin(), this->Times.end(),
      [&piece](const std::pair<uint32_t, double>& entry) { return entry.first == piece.Type; });
    if (found == this->Times.end())
    {
      this->Times.emplace_back(piece.Type, time);
    }
    else
    {
      found->second += time;
    }
  }

  void Flush()
  {
    if (this->Count == 0)
    {
      return;
    }
    std::sort(this->Times.begin(), this->Times.end());
    TimelineMarks& m = this->Marks;
    uint32_t mode = this->Times.front().first;
    double most = -1.0;
    for (const auto& entry : this->Times)
    {
      if (entry.second > most) // strict: the smallest id wins ties
      {
        most = entry.second;
        mode = entry.first;
      }
      m.TypeId.push_back(entry.first);
      m.TypeTime.push_back(entry.second);
    }
    m.TypeOffset.push_back(m.TypeId.size());
    m.Band.push_back(this->Band);
    m.Depth.push_back(this->Depth);
    m.Start.push_back(this->First);
    m.End.push_back(this->Last);
    m.Type.push_back(mode);
    m.StateCount.push_back(this->Count);
    m.Flags.push_back(
      static_cast<uint8_t>(this->BandFlags | (this->Narrow > 0 ? TimelineTimeAggregate : 0)));
    this->Times.clear();
    this->Count = 0;
    this->Narrow = 0;
  }

private:
  TimelineMarks& Marks;
  uint32_t Band;
  uint8_t BandFlags;
  uint32_t Depth = 0;
  double First = 0.0;
  double Last = 0.0;
  int64_t FirstColumn = 0;
  uint32_t Count = 0;
  uint32_t Narrow = 0; ///< pieces below the budget
  std::vector<std::pair<uint32_t, double>> Times;
};

void Validate(const TimelineIndex& index, const TimelineOptions& o)
{
  if (!std::isfinite(o.WindowBegin) || !std::isfinite(o.WindowEnd) ||
    !(o.WindowBegin < o.WindowEnd))
  {
    throw std::invalid_argument("the time window must be finite with its begin before its end");
  }
  if (!(o.ViewWidth > 0.0) || !(o.ViewHeight > 0.0) || !std::isfinite(o.ViewWidth) ||
    !std::isfinite(o.ViewHeight))
  {
    throw std::invalid_argument("the view size must be positive and finite");
  }
  if (!(o.MinMarkWidth >= 0.0) || !(o.MinRowHeight >= 0.0) || !std::isfinite(o.MinMarkWidth) ||
    !std::isfinite(o.MinRowHeight))
  {
    throw std::invalid_argument("the minimum mark width and row height must be finite, >= 0");
  }
  if (o.Depth < -1)
  {
    throw std::invalid_argument("Depth must be -1 (every depth) or a call depth >= 0");
  }
  if (!o.RowOfLeaf.empty())
  {
    if (o.RowOfLeaf.size() != index.Leaves)
    {
      throw std::invalid_argument("RowOfLeaf must have one entry per leaf");
    }
    for (uint32_t row : o.RowOfLeaf)
    {
      if (row >= o.Rows && row != NoResource)
      {
        throw std::invalid_argument("RowOfLeaf refers to a row >= Rows");
      }
    }
  }
}

// Rows per band: the fewest that give every band at least MinRowHeight.
uint32_t RowsPerBand(uint32_t rows, const TimelineOptions& o)
{
  if (rows == 0 || o.MinRowHeight <= 0.0)
  {
    return 1;
  }
  const double fitting = std::floor(o.ViewHeight / o.MinRowHeight);
  const uint32_t maxBands = fitting < 1.0 ? 1u
    : fitting >= double(rows)             ? rows
                                          : static_cast<uint32_t>(fitting);
  return (rows + maxBands - 1) / maxBands;
}

void LayoutStates(const TimelineIndex& index, const StateRows& states, const TimelineOptions& o,
  const std::vector<uint32_t>& bandOfLeaf, TimelineLayout& layout)
{
  const uint32_t bands = static_cast<uint32_t>(layout.Bands.FirstRow.size());
  // Leaves of each band, by counting sort.
  std::vector<uint32_t> leafOffset(std::size_t(bands) + 1, 0);
  for (uint32_t band : bandOfLeaf)
  {
    if (band != NoResource)
    {
      ++leafOffset[band + 1];
    }
  }
  for (uint32_t b = 0; b < bands; ++b)
  {
    leafOffset[b + 1] += leafOffset[b];
  }
  std::vector<uint32_t> leavesOfBand(bandOfLeaf.size());
  {
    std::vector<uint32_t> next(leafOffset.begin(), leafOffset.end() - 1);
    for (uint32_t leaf = 0; leaf < bandOfLeaf.size(); ++leaf)
    {
      if (bandOfLeaf[leaf] != NoResource)
      {
        leavesOfBand[next[bandOfLeaf[leaf]]++] = leaf;
      }
    }
  }

  const double t0 = o.WindowBegin;
  const double t1 = o.WindowEnd;
  const double pps = layout.PixelsPerSecond;
  // Budget columns of MinMarkWidth pixels from t0: a time aggregate holds
  // the narrow pieces starting in one column, so that every column shows
  // what dominates in it (Vampir's master timeline) rather than one mark
  // averaging a whole row.
  const double columnsPerSecond = o.MinMarkWidth > 0.0 ? pps / o.MinMarkWidth : 0.0;
  auto columnOf = [&](double start)
  { return static_cast<int64_t>(std::floor((start - t0) * columnsPerSecond)); };
  // Bands are laid out independently, each into its own marks, joined in
  // band order below: the result does not depend on the threads.
  std::vector<TimelineMarks> bandMarks(bands);
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::vector<Piece>> piecesOf(std::max(1u, o.Threads ? o.Threads : hardware));
  ShareOut(bands, static_cast<unsigned>(piecesOf.size()), o.Progress, 0.0, 0.8,
    [&](std::size_t bandIndex, unsigned worker)
    {
      const uint32_t band = static_cast<uint32_t>(bandIndex);
      std::vector<Piece>& pieces = piecesOf[worker];
      pieces.clear();
      MarkBuilder pending(bandMarks[band], band, layout.Bands.Flags[band]);
      uint32_t depth = 0;
      auto sweep = [&](const Piece& piece)
      {
        if (pending.Open() && piece.Depth != depth)
        {
          pending.Flush();
        }
        depth = piece.Depth;
        const bool narrow = (piece.End - piece.Start) * pps < o.MinMarkWidth;
        const int64_t column = narrow ? columnOf(piece.Start) : 0;
        // Narrow pieces join a mark of narrow pieces only within its column,
        // and only across an invisible gap: a wide state always stands alone
        // on a band of one leaf, and a visible gap is never covered. On a band
        // of several leaves, a piece overlapping the mark joins it, except
        // that narrow pieces still start a new mark in a new column (such
        // column marks may overlap by less than a column).
        const bool bothNarrow = narrow && pending.AllNarrow();
        const bool sameColumn = bothNarrow && column == pending.Column();
        const bool joins = pending.Open() &&
          ((piece.Start < pending.End() && (!bothNarrow || sameColumn)) ||
            (sameColumn && (piece.Start - pending.End()) * pps < o.MinMarkWidth));
        if (pending.Open() && !joins)
        {
          pending.Flush();
        }
        pending.Add(piece, narrow, column);
      };
      // A single leaf's pieces come sorted from its runs (depth, then start):
      // swept as they come. Several leaves' pieces are merged by a sort first.
      const bool single = leafOffset[band + 1] - leafOffset[band] == 1;
      for (uint32_t p = leafOffset[band]; p < leafOffset[band + 1]; ++p)
      {
        const uint32_t leaf = leavesOfBand[p];
        for (std::size_t run = index.LeafRuns[leaf]; run < index.LeafRuns[leaf + 1]; ++run)
        {
          const uint32_t runDepth = index.RunDepth[run];
          if (o.Depth >= 0 && runDepth != static_cast<uint32_t>(o.Depth))
          {
            continue;
          }
          const auto maxEnd = index.MaxEnd.begin();
          const std::size_t runEnd = index.RunBegin[run + 1];
          // First state that may end at or after t0.
          std::size_t q = static_cast<std::size_t>(
            std::lower_bound(maxEnd + static_cast<std::ptrdiff_t>(index.RunBegin[run]),
              maxEnd + static_cast<std::ptrdiff_t>(runEnd), t0) -
            maxEnd);
          for (; q < runEnd; ++q)
          {
            const std::size_t row = index.StateOrder[q];
            const double s = states.Start[row];
            const double e = states.End[row];
            if (s > t1)
            {
              break;
            }
            // Positive durations must overlap the window's interior; instants
            // (zero-length states) count when they lie in [t0, t1].
            const bool inside = s == e ? (s >= t0 && s <= t1) : (s < t1 && e > t0);
            const uint32_t type = states.Type[row];
            const bool kept = o.KeepType.empty() || (type < o.KeepType.size() && o.KeepType[type]);
            if (inside && kept)
            {
              const Piece piece{ runDepth, std::max(s, t0), std::min(e, t1), type, row };
              if (single)
              {
                sweep(piece);
              }
              else
              {
                pieces.push_back(piece);
              }
            }
          }
        }
      }
      if (!single)
      {
        std::sort(pieces.begin(), pieces.end());
        for (const Piece& piece : pieces)
        {
          sweep(piece);
        }
      }
      pending.Flush();
    });
  TimelineMarks& out = layout.Marks;
  for (TimelineMarks& m : bandMarks)
  {
    const std::size_t base = out.TypeId.size();
    auto append = [](auto& to, const auto& from) { to.insert(to.end(), from.begin(), from.end()); };
    append(out.Band, m.Band);
    append(out.Depth, m.Depth);
    append(out.Start, m.Start);
    append(out.End, m.End);
    append(out.Type, m.Type);
    append(out.StateCount, m.StateCount);
    append(out.Flags, m.Flags);
    append(out.TypeId, m.TypeId);
    append(out.TypeTime, m.TypeTime);
    for (std::size_t i = 1; i < m.TypeOffset.size(); ++i)
    {
      out.TypeOffset.push_back(base + m.TypeOffset[i]);
    }
    m = TimelineMarks(); // free as we go
  }
}

// Whether the messages visited by forEachMessage (in send order) would give
// more than MaxMessageLines lines: one per message of a group of at most
// MaxMessagesPerPixel, one per larger group. Groups are found column by
// column, as columns follow the send order; the count stops as soon as it
// passes the budget (at full view, after a few columns).
template <class ForEach>
bool TooManyLines(const MessageRows& messages, const TimelineOptions& o,
  const std::vector<uint32_t>& bandOfLeaf, ForEach&& forEachMessage)
{
  std::size_t lines = 0;
  std::vector<std::pair<uint32_t, uint32_t>> pairs; // band pairs of one column
  auto closeColumn = [&]()
  {
    std::sort(pairs.begin(), pairs.end());
    for (std::size_t begin = 0; begin < pairs.size();)
    {
      std::size_t end = begin + 1;
      while (end < pairs.size() && pairs[end] == pairs[begin])
      {
        ++end;
      }
      const std::size_t count = end - begin;
      lines += o.MaxMessagesPerPixel == 0 || count <= o.MaxMessagesPerPixel ? count : 1;
      begin = end;
    }
    pairs.clear();
  };
  int64_t current = std::numeric_limits<int64_t>::min();
  forEachMessage(
    [&](std::size_t row, int64_t column)
    {
      if (column != current)
      {
        closeColumn();
        current = column;
        if (lines > o.MaxMessageLines)
        {
          return false; // enough: stop the visit
        }
      }
      pairs.emplace_back(bandOfLeaf[messages.Sender[row]], bandOfLeaf[messages.Receiver[row]]);
      return true;
    });
  closeColumn();
  return lines > o.MaxMessageLines;
}

void LayoutMessages(const TimelineIndex& index, const MessageRows& messages,
  const TimelineOptions& o, const std::vector<uint32_t>& bandOfLeaf, TimelineLayout& layout)
{
  const double t0 = o.WindowBegin;
  const double t1 = o.WindowEnd;
  const double pps = layout.PixelsPerSecond;
  struct Line
  {
    uint32_t Sender;
    uint32_t Receiver;
    int64_t Column;
    double Send;
    std::size_t Row;
  };
  // Messages reaching into the window were sent in [t0 - longest, t1].
  auto first = std::lower_bound(index.MessageOrder.begin(), index.MessageOrder.end(),
    t0 - index.LongestMessage,
    [&messages](std::size_t row, double time) { return messages.SendTime[row] < time; });
  // Calls visit(row, column) for every message drawn, in send order, until
  // it returns false.
  auto forEachMessage = [&](auto&& visit)
  {
    for (auto it = first; it != index.MessageOrder.end(); ++it)
    {
      const std::size_t row = *it;
      const double send = messages.SendTime[row];
      const double recv = messages.RecvTime[row];
      if (send > t1)
      {
        break;
      }
      if (std::min(send, recv) > t1 || std::max(send, recv) < t0)
      {
        continue;
      }
      if (bandOfLeaf[messages.Sender[row]] == NoResource ||
        bandOfLeaf[messages.Receiver[row]] == NoResource)
      {
        continue; // an end on a resource not drawn
      }
      if (!visit(row, static_cast<int64_t>(std::floor((send - t0) * pps))))
      {
        return;
      }
    }
  };
  if (o.MaxMessageLines > 0 && TooManyLines(messages, o, bandOfLeaf, forEachMessage))
  {
    // Too many lines to draw without covering the states: a density.
    TimelineDensity& density = layout.Density;
    const int64_t columns = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(o.ViewWidth)));
    forEachMessage(
      [&](std::size_t row, int64_t column)
      {
        column = std::clamp<int64_t>(column, 0, columns - 1);
        if (density.Column.empty() || density.Column.back() != column)
        {
          density.Column.push_back(column);
          density.Count.push_back(0);
          density.Bytes.push_back(0.0);
        }
        ++density.Count.back();
        density.Bytes.back() += messages.Bytes ? messages.Bytes[row] : 0.0;
        return true;
      });
    for (uint32_t count : density.Count)
    {
      density.MaxCount = std::max(density.MaxCount, count);
    }
    return;
  }
  std::vector<Line> lines;
  forEachMessage(
    [&](std::size_t row, int64_t column)
    {
      lines.push_back({ bandOfLeaf[messages.Sender[row]], bandOfLeaf[messages.Receiver[row]],
        column, messages.SendTime[row], row });
      return true;
    });
  auto key = [](const Line& l) { return std::tie(l.Sender, l.Receiver, l.Column); };
  std::sort(lines.begin(), lines.end(),
    [&key](const Line& x, const Line& y)
    {
      return std::tie(x.Sender, x.Receiver, x.Column, x.Send, x.Row) <
        std::tie(y.Sender, y.Receiver, y.Column, y.Send, y.Row);
    });
  TimelineLines& out = layout.Lines;
  auto emit = [&out](uint32_t sender, uint32_t receiver, double send, double recv, uint32_t count,
                double bytes, uint8_t flags)
  {
    out.SenderBand.push_back(sender);
    out.ReceiverBand.push_back(receiver);
    out.SendTime.push_back(send);
    out.RecvTime.push_back(recv);
    out.Count.push_back(count);
    out.Bytes.push_back(bytes);
    out.Flags.push_back(flags);
  };
  for (std::size_t begin = 0; begin < lines.size();)
  {
    std::size_t end = begin + 1;
    while (end < lines.size() && key(lines[end]) == key(lines[begin]))
    {
      ++end;
    }
    const std::size_t count = end - begin;
    if (o.MaxMessagesPerPixel == 0 || count <= o.MaxMessagesPerPixel)
    {
      for (std::size_t i = begin; i < end; ++i)
      {
        const std::size_t row = lines[i].Row;
        emit(lines[i].Sender, lines[i].Receiver, messages.SendTime[row], messages.RecvTime[row], 1,
          messages.Bytes ? messages.Bytes[row] : 0.0, 0);
      }
    }
    else
    {
      double send = std::numeric_limits<double>::infinity();
      double recv = -std::numeric_limits<double>::infinity();
      double bytes = 0.0;
      for (std::size_t i = begin; i < end; ++i)
      {
        const std::size_t row = lines[i].Row;
        send = std::min(send, messages.SendTime[row]);
        recv = std::max(recv, messages.RecvTime[row]);
        bytes += messages.Bytes ? messages.Bytes[row] : 0.0;
      }
      emit(lines[begin].Sender, lines[begin].Receiver, send, recv, static_cast<uint32_t>(count),
        bytes, TimelineMessageAggregate);
    }
    begin = end;
  }
}
}

TimelineLayout LayoutTimeline(const TimelineIndex& index, const StateRows& states,
  const MessageRows& messages, const TimelineOptions& options)
{
  Validate(index, options);
  const bool identity = options.RowOfLeaf.empty();
  const uint32_t rows = identity && options.Rows == 0 ? index.Leaves : options.Rows;
  if (identity && rows != index.Leaves)
  {
    throw std::invalid_argument("without RowOfLeaf, Rows must be 0 or the number of leaves");
  }

  TimelineLayout layout;
  layout.PixelsPerSecond = options.ViewWidth / (options.WindowEnd - options.WindowBegin);
  layout.RowsPerBand = RowsPerBand(rows, options);
  const uint32_t k = layout.RowsPerBand;
  const uint32_t bands = (rows + k - 1) / k;

  std::vector<uint32_t> bandOfLeaf(index.Leaves);
  std::vector<uint32_t> leavesOfBand(bands, 0);
  for (uint32_t leaf = 0; leaf < index.Leaves; ++leaf)
  {
    const uint32_t row = identity ? leaf : options.RowOfLeaf[leaf];
    if (row == NoResource)
    {
      bandOfLeaf[leaf] = NoResource;
      continue;
    }
    bandOfLeaf[leaf] = row / k;
    ++leavesOfBand[bandOfLeaf[leaf]];
  }
  for (uint32_t band = 0; band < bands; ++band)
  {
    layout.Bands.FirstRow.push_back(band * k);
    layout.Bands.RowCount.push_back(std::min(k, rows - band * k));
    // A band showing several leaves overlays their states: all its marks
    // are aggregates.
    layout.Bands.Flags.push_back(leavesOfBand[band] > 1 ? TimelineRowAggregate : 0);
  }

  LayoutStates(index, states, options, bandOfLeaf, layout);
  if (options.Messages)
  {
    LayoutMessages(index, messages, options, bandOfLeaf, layout);
  }
  Continue(!options.Progress || options.Progress(1.0));
  return layout;
}

}
