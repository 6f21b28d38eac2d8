#include "PajeSelection.h"

#include <algorithm>
#include <sstream>

namespace macroscope::paje
{

std::vector<LeafRange> splitLeaves(const TraceData& trace, uint32_t pieces)
{
  pieces = std::max<uint32_t>(pieces, 1);
  const std::size_t leaves = trace.Leaves.size();
  // The counts of the parse when it has them (a scan keeps no tables).
  std::vector<uint64_t> rows(leaves, 0);
  if (trace.RowsOfLeaf.size() == leaves)
  {
    rows = trace.RowsOfLeaf;
  }
  auto count = [&](const auto& column) {
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

SelectedTables select(const TraceData& trace, const Selection& s)
{
  const double begin = s.WindowBegin;
  const double end = s.WindowEnd;
  auto selected = [&s](uint32_t leaf) {
    return s.Leaves.empty() || (leaf < s.Leaves.size() && s.Leaves[leaf] != 0);
  };
  auto inPiece = [&s](uint32_t leaf) { return leaf >= s.Piece.Begin && leaf < s.Piece.End; };
  SelectedTables out;
  // Whether an instant of this piece is kept; counts it when it is not.
  auto kept = [&](uint32_t leaf, double time, uint64_t& outsideWindow) {
    if (!inPiece(leaf))
    {
      return false;
    }
    if (!selected(leaf))
    {
      ++out.RowsOfUnreadLocations;
      return false;
    }
    if (time < begin || time > end)
    {
      ++outsideWindow;
      return false;
    }
    return true;
  };

  const StateColumns& states = trace.States;
  for (std::size_t r = 0; r < states.size(); ++r)
  {
    const uint32_t type = states.Type[r];
    double start = states.Start[r];
    double stop = states.End[r];
    const uint32_t leaf = states.Location[r];
    if (!inPiece(leaf))
    {
      continue;
    }
    if (!selected(leaf))
    {
      ++out.RowsOfUnreadLocations;
      continue;
    }
    if (!s.StateTypes.empty() && (type >= s.StateTypes.size() || !s.StateTypes[type]))
    {
      ++out.StatesOfUnreadRegions;
      continue;
    }
    if (stop < begin || start > end)
    {
      ++out.StatesOutsideWindow;
      continue;
    }
    if (s.ClipStatesToWindow)
    {
      start = std::max(start, begin);
      stop = std::min(stop, end);
    }
    out.States.Location.push_back(leaf);
    out.States.Type.push_back(type);
    out.States.Depth.push_back(states.Depth[r]);
    out.States.Start.push_back(start);
    out.States.End.push_back(stop);
  }

  const MessageColumns& messages = trace.Messages;
  for (std::size_t r = 0; r < messages.size(); ++r)
  {
    const uint32_t receiver = messages.Receiver[r];
    if (receiver < s.Piece.Begin || receiver >= s.Piece.End)
    {
      continue;
    }
    if (!selected(receiver) || !selected(messages.Sender[r]))
    {
      ++out.MessagesWithUnreadEnd;
      continue;
    }
    // Ends stamped before their starts invert the flight: hence min/max.
    const double first = std::min(messages.SendTime[r], messages.RecvTime[r]);
    const double last = std::max(messages.SendTime[r], messages.RecvTime[r]);
    if (last < begin || first > end)
    {
      ++out.MessagesOutsideWindow;
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

  const EventColumns& events = trace.Events;
  for (std::size_t r = 0; r < events.size(); ++r)
  {
    const double time = events.Time[r];
    if (!kept(events.Location[r], time, out.EventsOutsideWindow))
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

  const VariableColumns& variables = trace.Variables;
  for (std::size_t r = 0; r < variables.size(); ++r)
  {
    const double time = variables.Time[r];
    if (!kept(variables.Location[r], time, out.SamplesOutsideWindow))
    {
      continue;
    }
    out.Variables.Location.push_back(variables.Location[r]);
    out.Variables.Variable.push_back(variables.Variable[r]);
    out.Variables.Time.push_back(time);
    out.Variables.Value.push_back(variables.Value[r]);
  }
  return out;
}

std::string describeSelection(const SelectedTables& tables, const Selection& selection)
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
