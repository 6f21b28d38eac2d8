#include "PajeSelection.h"

#include <algorithm>
#include <cstdint>
#include <sstream>

namespace macroscope::paje
{

std::vector<LeafRange> SplitLeaves(const TraceData& trace, uint32_t pieces)
{
  pieces = std::max<uint32_t>(pieces, 1);
  const std::size_t leaves = trace.Leaves.size();
  // The counts of the parse when it has them (a scan keeps no tables).
  std::vector<uint64_t> rows(leaves, 0);
  if (trace.RowsOfLeaf.size() == leaves)
  {
    rows = trace.RowsOfLeaf;
  }
  auto count = [&](const auto& column)
  {
    for (const uint32_t leaf : column)
    {
      if (leaf < leaves)
      {
        ++rows[leaf];
      }
    }
  };
  if (trace.RowsOfLeaf.size() != leaves)
  {
    count(trace.States.Location);
    count(trace.Events.Location);
    count(trace.Variables.Location);
    count(trace.Messages.Receiver);
  }

  uint64_t total = 0;
  for (const uint64_t r : rows)
  {
    total += r;
  }
  // Piece p ends at the first leaf whose rows bring the running sum to
  // p+1 shares; a trace without rows is split by leaf count instead.
  std::vector<LeafRange> ranges(pieces);
  uint64_t sum = 0;
  uint32_t leaf = 0;
  for (uint32_t p = 0; p < pieces; ++p)
  {
    ranges[p].Begin = leaf;
    if (p + 1 == pieces)
    {
      leaf = static_cast<uint32_t>(leaves);
    }
    else if (total == 0)
    {
      leaf = static_cast<uint32_t>(leaves * (p + 1) / pieces);
    }
    else
    {
      const long double target = static_cast<long double>(total) * (p + 1) / pieces;
      while (leaf < leaves && static_cast<long double>(sum) + rows[leaf] / 2.0L < target)
      {
        sum += rows[leaf];
        ++leaf;
      }
    }
    ranges[p].End = leaf;
  }
  return ranges;
}

namespace
{
/// Why a row is not output; Kept when it is.
enum class Verdict
{
  Kept,
  OtherPiece,
  UnreadLocation,
  UnreadRegion,
  OutsideWindow
};

/// The selection's tests, in the order their verdicts are given: a row is
/// counted under the first one it fails.
struct RowFilter
{
  const Selection& S;

  bool Selected(uint32_t leaf) const
  {
    return this->S.Leaves.empty() || (leaf < this->S.Leaves.size() && this->S.Leaves[leaf] != 0);
  }
  bool InPiece(uint32_t leaf) const
  {
    return leaf >= this->S.Piece.Begin && leaf < this->S.Piece.End;
  }
  bool TypeSelected(uint32_t type) const
  {
    return this->S.StateTypes.empty() ||
      (type < this->S.StateTypes.size() && this->S.StateTypes[type]);
  }
  /// A row of `leaf` over [first, last] (an instant: first == last); with
  /// `type` the state value it must have (or UINT32_MAX for no test).
  Verdict Judge(uint32_t leaf, double first, double last, uint32_t type = UINT32_MAX) const
  {
    if (!this->InPiece(leaf))
    {
      return Verdict::OtherPiece;
    }
    if (!this->Selected(leaf))
    {
      return Verdict::UnreadLocation;
    }
    if (type != UINT32_MAX && !this->TypeSelected(type))
    {
      return Verdict::UnreadRegion;
    }
    return last < this->S.WindowBegin || first > this->S.WindowEnd ? Verdict::OutsideWindow
                                                                   : Verdict::Kept;
  }
  /// Counts a row left out for `verdict` (its window counter given); false.
  bool Count(Verdict verdict, SelectedTables& out, uint64_t& outsideWindow) const
  {
    switch (verdict)
    {
      case Verdict::UnreadLocation:
        ++out.RowsOfUnreadLocations;
        break;
      case Verdict::UnreadRegion:
        ++out.StatesOfUnreadRegions;
        break;
      case Verdict::OutsideWindow:
        ++outsideWindow;
        break;
      default:
        break; // another piece counts it
    }
    return verdict == Verdict::Kept;
  }
};

void SelectStates(const StateColumns& states, const RowFilter& filter, SelectedTables& out)
{
  for (std::size_t r = 0; r < states.size(); ++r)
  {
    double start = states.Start[r];
    double stop = states.End[r];
    const Verdict verdict = filter.Judge(states.Location[r], start, stop, states.Type[r]);
    if (!filter.Count(verdict, out, out.StatesOutsideWindow))
    {
      continue;
    }
    if (filter.S.ClipStatesToWindow)
    {
      start = std::max(start, filter.S.WindowBegin);
      stop = std::min(stop, filter.S.WindowEnd);
    }
    out.States.Location.push_back(states.Location[r]);
    out.States.Type.push_back(states.Type[r]);
    out.States.Depth.push_back(states.Depth[r]);
    out.States.Start.push_back(start);
    out.States.End.push_back(stop);
  }
}

// A message belongs to its receiver's piece, and needs both ends selected.
void SelectMessages(const MessageColumns& messages, const RowFilter& filter, SelectedTables& out)
{
  for (std::size_t r = 0; r < messages.size(); ++r)
  {
    const uint32_t receiver = messages.Receiver[r];
    if (!filter.InPiece(receiver))
    {
      continue;
    }
    if (!filter.Selected(receiver) || !filter.Selected(messages.Sender[r]))
    {
      ++out.MessagesWithUnreadEnd;
      continue;
    }
    // Ends stamped before their starts invert the flight: hence min/max.
    const double first = std::min(messages.SendTime[r], messages.RecvTime[r]);
    const double last = std::max(messages.SendTime[r], messages.RecvTime[r]);
    if (!filter.Count(filter.Judge(receiver, first, last), out, out.MessagesOutsideWindow))
    {
      continue;
    }
    out.Messages.Sender.push_back(messages.Sender[r]);
    out.Messages.Receiver.push_back(receiver);
    out.Messages.SendTime.push_back(messages.SendTime[r]);
    out.Messages.RecvTime.push_back(messages.RecvTime[r]);
    out.Messages.Bytes.push_back(messages.Bytes[r]);
    out.Messages.RecvBytes.push_back(messages.RecvBytes[r]);
    out.Messages.Tag.push_back(messages.Tag[r]);
    out.Messages.Communicator.push_back(messages.Communicator[r]);
    out.Messages.RecvBeforeSend.push_back(messages.RecvBeforeSend[r]);
  }
}

void SelectEvents(const EventColumns& events, const RowFilter& filter, SelectedTables& out)
{
  for (std::size_t r = 0; r < events.size(); ++r)
  {
    const double time = events.Time[r];
    if (!filter.Count(filter.Judge(events.Location[r], time, time), out, out.EventsOutsideWindow))
    {
      continue;
    }
    out.Events.Location.push_back(events.Location[r]);
    out.Events.Type.push_back(events.Type[r]);
    out.Events.Time.push_back(time);
    out.Events.Communicator.push_back(events.Communicator[r]);
    out.Events.Root.push_back(events.Root[r]);
    out.Events.Operation.push_back(events.Operation[r]);
  }
}

void SelectVariables(const VariableColumns& variables, const RowFilter& filter, SelectedTables& out)
{
  for (std::size_t r = 0; r < variables.size(); ++r)
  {
    const double time = variables.Time[r];
    if (!filter.Count(
          filter.Judge(variables.Location[r], time, time), out, out.SamplesOutsideWindow))
    {
      continue;
    }
    out.Variables.Location.push_back(variables.Location[r]);
    out.Variables.Variable.push_back(variables.Variable[r]);
    out.Variables.Time.push_back(time);
    out.Variables.Value.push_back(variables.Value[r]);
  }
}
}

SelectedTables Select(const TraceData& trace, const Selection& selection)
{
  const RowFilter filter{ selection };
  SelectedTables out;
  SelectStates(trace.States, filter, out);
  SelectMessages(trace.Messages, filter, out);
  SelectEvents(trace.Events, filter, out);
  SelectVariables(trace.Variables, filter, out);
  return out;
}

std::string DescribeSelection(const SelectedTables& tables, const Selection& selection)
{
  std::ostringstream window;
  window << "outside the time window " << selection.WindowBegin << " s to " << selection.WindowEnd
         << " s (not kept)";
  const std::pair<std::string, uint64_t> lines[] = {
    { "states " + window.str(), tables.StatesOutsideWindow },
    { "links " + window.str(), tables.MessagesOutsideWindow },
    { "events " + window.str(), tables.EventsOutsideWindow },
    { "variable changes " + window.str(), tables.SamplesOutsideWindow },
    { "states, events and variable changes of containers not selected in Locations (not kept)",
      tables.RowsOfUnreadLocations },
    { "states of values not selected in Regions (not kept)", tables.StatesOfUnreadRegions },
    { "links with an end not selected in Locations (not kept)", tables.MessagesWithUnreadEnd },
  };
  std::string text;
  for (const auto& [what, count] : lines)
  {
    if (count > 0)
    {
      text += std::to_string(count) + " " + what + "\n";
    }
  }
  return text;
}

} // namespace macroscope::paje
