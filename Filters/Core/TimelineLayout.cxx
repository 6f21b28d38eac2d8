#include "TimelineLayout.h"

#include "ProgressSpan.h"
#include "ResourceHierarchy.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
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
}

TimelineIndex BuildTimelineIndex(const StateRows& states, const MessageRows& messages,
  uint32_t leaves, const std::function<bool(double)>& progress)
{
  TimelineIndex index;
  index.Leaves = leaves;

  // Counting sort by leaf, then (depth, start, end, row) within each leaf.
  // Progress: a fifth of the bar to the checks, the rest to the leaves' sorts
  // by the rows sorted.
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
  auto before = [&states](std::size_t x, std::size_t y) {
    return std::make_tuple(states.Depth[x], states.Start[x], states.End[x], x) <
      std::make_tuple(states.Depth[y], states.Start[y], states.End[y], y);
  };
  index.MaxEnd.resize(states.Count);
  index.LeafRuns.assign(std::size_t(leaves) + 1, 0);
  ProgressSpan sorting(progress, 0.2, 0.9, states.Count);
  for (uint32_t leaf = 0; leaf < leaves; ++leaf)
  {
    Continue(sorting.At(offset[leaf]));
    const auto first = index.StateOrder.begin() + static_cast<std::ptrdiff_t>(offset[leaf]);
    const auto last = index.StateOrder.begin() + static_cast<std::ptrdiff_t>(offset[leaf + 1]);
    if (!std::is_sorted(first, last, before))
    {
      std::sort(first, last, before);
    }
    index.LeafRuns[leaf] = index.RunBegin.size();
    for (std::size_t p = offset[leaf]; p < offset[leaf + 1]; ++p)
    {
      const std::size_t row = index.StateOrder[p];
      const bool opens = p == offset[leaf] || states.Depth[index.StateOrder[p - 1]] != states.Depth[row];
      if (opens)
      {
        index.RunBegin.push_back(p);
        index.RunDepth.push_back(states.Depth[row]);
        index.MaxEnd[p] = states.End[row];
      }
      else
      {
        index.MaxEnd[p] = std::max(index.MaxEnd[p - 1], states.End[row]);
      }
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
      throw std::invalid_argument("message row " + std::to_string(row) + " has a time that is not finite");
    }
    index.MessageOrder[row] = row;
    index.LongestMessage =
      std::max(index.LongestMessage, std::abs(messages.RecvTime[row] - messages.SendTime[row]));
  }
  std::sort(index.MessageOrder.begin(), index.MessageOrder.end(),
    [&messages](std::size_t x, std::size_t y) {
      return messages.SendTime[x] < messages.SendTime[y] ||
        (messages.SendTime[x] == messages.SendTime[y] && x < y);
    });
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
  /// Whether every piece added so far is below the budget.
  bool AllNarrow() const { return this->Narrow == this->Count; }

  void Add(const Piece& piece, bool narrow)
  {
    if (this->Count == 0)
    {
      this->Depth = piece.Depth;
      this->First = piece.Start;
      this->Last = piece.End;
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

void LayoutStates(const TimelineIndex& index, const StateRows& states,
  const TimelineOptions& o, const std::vector<uint32_t>& bandOfLeaf, TimelineLayout& layout)
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
  std::vector<Piece> pieces;
  ProgressSpan laying(o.Progress, 0.0, 0.9, bands);
  for (uint32_t band = 0; band < bands; ++band)
  {
    Continue(laying.At(band));
    pieces.clear();
    for (uint32_t p = leafOffset[band]; p < leafOffset[band + 1]; ++p)
    {
      const uint32_t leaf = leavesOfBand[p];
      for (std::size_t run = index.LeafRuns[leaf]; run < index.LeafRuns[leaf + 1]; ++run)
      {
        const uint32_t depth = index.RunDepth[run];
        if (o.Depth >= 0 && depth != static_cast<uint32_t>(o.Depth))
        {
          continue;
        }
        const auto maxEnd = index.MaxEnd.begin();
        const std::size_t runEnd = index.RunBegin[run + 1];
        // First state that may end at or after t0.
        std::size_t q = static_cast<std::size_t>(std::lower_bound(maxEnd +
                                                      static_cast<std::ptrdiff_t>(index.RunBegin[run]),
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
          const bool kept =
            o.KeepType.empty() || (type < o.KeepType.size() && o.KeepType[type]);
          if (inside && kept)
          {
            pieces.push_back({ depth, std::max(s, t0), std::min(e, t1), states.Type[row], row });
          }
        }
      }
    }
    // A single leaf's pieces come sorted from its runs.
    if (leafOffset[band + 1] - leafOffset[band] > 1)
    {
      std::sort(pieces.begin(), pieces.end());
    }
    MarkBuilder pending(layout.Marks, band, layout.Bands.Flags[band]);
    uint32_t depth = 0;
    for (const Piece& piece : pieces)
    {
      if (pending.Open() && piece.Depth != depth)
      {
        pending.Flush();
      }
      depth = piece.Depth;
      const bool narrow = (piece.End - piece.Start) * pps < o.MinMarkWidth;
      // A piece joins the mark being built when it overlaps it (several
      // leaves on the band), or when both are below the budget and the gap
      // between them is too: a wide state always stands alone on a band of
      // one leaf, and a visible gap is never covered.
      if (pending.Open() &&
        !(piece.Start < pending.End() ||
          (narrow && pending.AllNarrow() && (piece.Start - pending.End()) * pps < o.MinMarkWidth)))
      {
        pending.Flush();
      }
      pending.Add(piece, narrow);
    }
    pending.Flush();
  }
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
  std::vector<Line> lines;
  // Messages reaching into the window were sent in [t0 - longest, t1].
  auto first = std::lower_bound(index.MessageOrder.begin(), index.MessageOrder.end(),
    t0 - index.LongestMessage,
    [&messages](std::size_t row, double time) { return messages.SendTime[row] < time; });
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
    const double column = std::floor((send - t0) * pps);
    lines.push_back({ bandOfLeaf[messages.Sender[row]], bandOfLeaf[messages.Receiver[row]],
      static_cast<int64_t>(column), send, row });
  }
  auto key = [](const Line& l) { return std::tie(l.Sender, l.Receiver, l.Column); };
  std::sort(lines.begin(), lines.end(), [&key](const Line& x, const Line& y) {
    return std::tie(x.Sender, x.Receiver, x.Column, x.Send, x.Row) <
      std::tie(y.Sender, y.Receiver, y.Column, y.Send, y.Row);
  });
  TimelineLines& out = layout.Lines;
  auto emit = [&out](uint32_t sender, uint32_t receiver, double send, double recv, uint32_t count,
                double bytes, uint8_t flags) {
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
