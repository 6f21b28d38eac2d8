// Filtering a parsed Pajé trace for one read of the VTK reader: a time
// window, the selected leaves and state values, and this piece's share of
// the leaves. A text trace has no index, so the reader parses the whole
// file once and serves every window and selection from these functions.
#ifndef macroscope_paje_PajeSelection_h
#define macroscope_paje_PajeSelection_h

#include "MacroscopePaje.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace macroscope::paje
{

/// Contiguous leaves [Begin, End).
struct LeafRange
{
  uint32_t Begin = 0;
  uint32_t End = 0;
};

/// Splits the leaves into `pieces` contiguous ranges holding about the same
/// number of rows each (states, events and samples of a leaf, messages of its
/// receiver). Ranges may be empty when there are more pieces than leaves
/// with rows; together they cover every leaf once.
std::vector<LeafRange> SplitLeaves(const TraceData& trace, uint32_t pieces);

struct Selection
{
  /// Closed window, in the file's seconds: states and messages overlapping
  /// it, events and samples inside it.
  double WindowBegin = -std::numeric_limits<double>::infinity();
  double WindowEnd = std::numeric_limits<double>::infinity();
  /// Cut the states crossing the window's borders to the window.
  bool ClipStatesToWindow = false;
  /// Selected leaves (1 = read), one per leaf; empty means all.
  std::vector<uint8_t> Leaves;
  /// Types rows whose states are kept, one per row; empty means all.
  std::vector<uint8_t> StateTypes;
  /// This piece's leaves: rows of other leaves, and messages received by
  /// them, belong to other pieces.
  LeafRange Piece{ 0, std::numeric_limits<uint32_t>::max() };
};

/// The rows of one read, in the trace's row order.
struct SelectedTables
{
  StateColumns States;
  MessageColumns Messages;
  EventColumns Events;
  VariableColumns Variables;
  /// Messages received in this piece's range but sent by or to a leaf that is
  /// not selected (not output, counted).
  uint64_t MessagesWithUnreadEnd = 0;
  /// Rows of this piece that the window leaves out (their leaf, and for
  /// states their type, selected), named and counted as by the OTF2 reader:
  /// states and messages not overlapping it, events and variable changes
  /// (samples) not inside it.
  uint64_t StatesOutsideWindow = 0;
  uint64_t MessagesOutsideWindow = 0;
  uint64_t EventsOutsideWindow = 0;
  uint64_t SamplesOutsideWindow = 0;
  /// Rows of this piece the user's selections leave out: states, events and
  /// variable changes of leaves not selected in Locations, and states of
  /// selected leaves whose value is not selected in Regions. Intent, not
  /// loss: counted, without a warning.
  uint64_t RowsOfUnreadLocations = 0;
  uint64_t StatesOfUnreadRegions = 0;

  /// Rows the window left out, of every kind.
  uint64_t OutsideWindow() const
  {
    return this->StatesOutsideWindow + this->MessagesOutsideWindow + this->EventsOutsideWindow +
      this->SamplesOutsideWindow;
  }
};

/// Copies the rows of `trace` that `selection` keeps, and counts the others
/// of the piece (SelectedTables' counters; each left-out row is counted
/// once, under the first reason: another piece's leaf (not counted), an
/// unselected leaf, an unselected state value, the window). A message is
/// kept when both its ends are selected, its receiver is in the piece and
/// its flight overlaps the window. The piece's counts add up, over the
/// pieces of a split, to the counts of a whole read.
SelectedTables Select(const TraceData& trace, const Selection& selection);

/// What `select` left out, one line per non-zero counter ("12 states
/// outside the time window 1 s to 2 s (not kept)"); empty when nothing.
std::string DescribeSelection(const SelectedTables& tables, const Selection& selection);

} // namespace macroscope::paje

#endif
