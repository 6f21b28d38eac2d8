// Layout of the physical (Gantt) timeline with honest visual aggregation
// (Dosimont et al. 2014 (VPA) sections II-C and III-C, Dosimont et al. 2015 (Ocelotl) §2): given a
// time window and a pixel budget, the states and messages a view must draw become plain marks when
// they are wide enough to be seen, and aggregate marks otherwise. Aggregates are flagged (drawn
// distinctly, e.g. hatched) and carry the time per type they contain, so that nothing is dropped
// and nothing is silently overplotted: the time per type summed over the marks of a row and depth
// equals the time of that row's states at that depth in the window.
//
// Inputs are the plain arrays of the data contract (docs/architecture.md,
// TimeSlicing.h); outputs are plain arrays (struct of vectors) that the VTK
// layout filter turns into polydata. The rules, arrays and costs are in
// docs/timeline.md.
#pragma once

#include "TimeSlicing.h" // StateRows, MessageRows

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

namespace macroscope
{

/// States and messages sorted for window queries: built once per trace in
/// O(n log n), then each layout costs O(log n) per (leaf, depth) plus the
/// rows inside the window. The index keeps row numbers only: the StateRows
/// and MessageRows it was built from must outlive it, unchanged.
///
/// States of one leaf at one depth must not overlap (the nesting of the
/// data contract); the query stays correct if they do, but such rows may
/// then give overlapping marks.
struct TimelineIndex
{
  uint32_t Leaves = 0;
  /// State rows sorted by (leaf, depth, start, end, row).
  std::vector<std::size_t> StateOrder;
  /// MaxEnd[p] = the largest End of StateOrder[run begin .. p]: nondecreasing
  /// within a run, so the first state of a run ending in the window is
  /// found by binary search.
  std::vector<double> MaxEnd;
  /// Runs of StateOrder sharing (leaf, depth): run r covers
  /// StateOrder[RunBegin[r], RunBegin[r + 1]) at depth RunDepth[r]; the runs
  /// of leaf l are LeafRuns[l] .. LeafRuns[l + 1] - 1.
  std::vector<std::size_t> RunBegin;
  std::vector<uint32_t> RunDepth;
  std::vector<std::size_t> LeafRuns;
  /// Message rows sorted by (send time, row), and the longest
  /// |RecvTime - SendTime|, which bounds the send times of the messages
  /// reaching into a window.
  std::vector<std::size_t> MessageOrder;
  double LongestMessage = 0.0;
};

/// Throws std::invalid_argument if a state refers to a leaf >= leaves, has
/// End < Start or a time that is not finite, or if a message refers to a
/// leaf >= leaves or has a time that is not finite.
/// `progress` (docs/progress.md) is called with the fraction done, from the
/// calling thread only; returning false stops the indexing with
/// TimelineLayoutAborted. The leaves are shared out among `threads` threads
/// (0: every core); the index does not depend on their number.
TimelineIndex BuildTimelineIndex(const StateRows& states, const MessageRows& messages,
  uint32_t leaves, const std::function<bool(double)>& progress = {}, unsigned threads = 0);

/// Thrown when a progress callback asked the timeline's index or layout to stop.
struct TimelineLayoutAborted : std::runtime_error
{
  TimelineLayoutAborted()
    : std::runtime_error("the timeline layout was aborted")
  {
  }
};

struct TimelineOptions
{
  double WindowBegin = 0.0; ///< t0, seconds
  double WindowEnd = 1.0;   ///< t1, seconds
  /// Horizontal budget: the window spans ViewWidth pixels; a state narrower
  /// than MinMarkWidth pixels is aggregated.
  double ViewWidth = 1000.0;
  double MinMarkWidth = 1.0;
  /// Vertical budget: the rows share ViewHeight pixels; when a row would be
  /// thinner than MinRowHeight pixels, adjacent rows merge into bands.
  double ViewHeight = 1000.0;
  double MinRowHeight = 1.0;
  /// Row of each leaf, in display order (0 = top), e.g. the rank of a
  /// hierarchy node when rows are grouped by a level. Empty: row = leaf.
  /// NoResource (ResourceHierarchy.h): the leaf is not drawn, nor are its
  /// states and the messages it sends or receives (a resource selection).
  std::vector<uint32_t> RowOfLeaf;
  /// Types drawn, indexed by type id (a type selection): a state of a type
  /// whose entry is false, or beyond the vector, is left out. Empty: all.
  std::vector<bool> KeepType;
  uint32_t Rows = 0; ///< number of rows; 0 with an empty RowOfLeaf: Leaves
  /// -1 (default): every depth, each laid out on its own; d >= 0: depth d only.
  int Depth = -1;
  /// A message line stands alone while at most this many messages share its
  /// (sender band, receiver band, send pixel column); more merge into one
  /// aggregated line. 0 means no limit.
  uint32_t MaxMessagesPerPixel = 1;
  /// Density: when the window would need more than this many lines (after
  /// the merging above), no line is drawn and every message in the window is
  /// counted in TimelineLayout::Density instead, per pixel column of its send
  /// time; individual lines come back when a zoom brings the lines under the
  /// budget. 0 (default): no limit, always lines.
  std::size_t MaxMessageLines = 0;
  bool Messages = true; ///< lay out the messages
  /// Called with the fraction done (docs/progress.md), from the calling thread
  /// only; returning false stops the layout with TimelineLayoutAborted.
  /// Empty: no progress.
  std::function<bool(double)> Progress;
  /// Threads sharing the bands out (0: every core); the layout does not
  /// depend on their number.
  unsigned Threads = 0;
};

/// Bits of TimelineMarks::Flags, TimelineBands::Flags and TimelineLines::Flags.
enum TimelineFlag : uint8_t
{
  TimelineTimeAggregate = 1, ///< merges states narrower than the budget
  TimelineRowAggregate = 2,  ///< lies on a band of several rows
  TimelineMessageAggregate = 4
};

/// Display bands: band b shows rows FirstRow[b] .. FirstRow[b] + RowCount[b] - 1.
/// Bands split the view height evenly, band 0 at the top.
struct TimelineBands
{
  std::vector<uint32_t> FirstRow;
  std::vector<uint32_t> RowCount;
  std::vector<uint8_t> Flags; ///< TimelineRowAggregate when it shows more than one leaf
};

/// One rectangle per mark, sorted by (band, depth, start). A time aggregate
/// holds narrow states that start in one column of MinMarkWidth pixels (the
/// columns are aligned on the window's begin), so at full view every column
/// of every band shows its own mode type (docs/timeline.md). Mark i covers
/// [Start[i], End[i]] (clipped to the window) and contains the per-type
/// times TypeTime[k] of types TypeId[k] for k in [TypeOffset[i],
/// TypeOffset[i + 1]), sorted by type; Type[i] is the mode (the type with
/// the most time, the smallest id on ties). A plain mark is one state:
/// StateCount 1, one type entry, Flags 0.
struct TimelineMarks
{
  std::vector<uint32_t> Band;
  std::vector<uint32_t> Depth;
  std::vector<double> Start;
  std::vector<double> End;
  std::vector<uint32_t> Type;
  std::vector<uint32_t> StateCount;
  std::vector<uint8_t> Flags;
  std::vector<std::size_t> TypeOffset{ 0 };
  std::vector<uint32_t> TypeId;
  std::vector<double> TypeTime;

  std::size_t Size() const { return this->Start.size(); }
};

/// One line per message or per aggregate of messages, from (SenderBand,
/// SendTime) to (ReceiverBand, RecvTime), times not clipped; sorted by
/// (sender band, receiver band, send pixel column, send time, row). An
/// aggregated line runs from the earliest send to the latest receive of the
/// messages it merges.
struct TimelineLines
{
  std::vector<uint32_t> SenderBand;
  std::vector<uint32_t> ReceiverBand;
  std::vector<double> SendTime;
  std::vector<double> RecvTime;
  std::vector<uint32_t> Count;
  std::vector<double> Bytes; ///< sum; 0 when the messages carry no Bytes column
  std::vector<uint8_t> Flags;

  std::size_t Size() const { return this->SendTime.size(); }
};

/// Message density, when the lines would exceed TimelineOptions::MaxMessageLines:
/// one entry per pixel column holding the send time of at least one message
/// in the window (sends before or after the window count in its first or
/// last column), sorted by column. Column c covers [t0 + c / p, t0 + (c + 1)
/// / p), p the pixels per second. Count and Bytes sum to the messages in the
/// window and their bytes.
struct TimelineDensity
{
  std::vector<int64_t> Column;
  std::vector<uint32_t> Count;
  std::vector<double> Bytes;
  /// Messages per pixel column in the fullest column (0 when empty).
  uint32_t MaxCount = 0;

  std::size_t Size() const { return this->Column.size(); }
};

struct TimelineLayout
{
  TimelineBands Bands;
  TimelineMarks Marks;
  TimelineLines Lines;
  TimelineDensity Density; ///< empty unless the lines exceeded their budget
  double PixelsPerSecond = 0.0;
  uint32_t RowsPerBand = 1;
};

/// Throws std::invalid_argument on a window that is not finite with t0 < t1,
/// budgets that are not positive (MinMarkWidth and MinRowHeight may be 0:
/// no aggregation), a RowOfLeaf whose size is not index.Leaves or whose
/// entries are >= Rows, or Depth < -1.
TimelineLayout LayoutTimeline(const TimelineIndex& index, const StateRows& states,
  const MessageRows& messages, const TimelineOptions& options);

}
