#include "MacroscopeOTF2.h"

#include "OTF2Archive.h"
#include "OTF2Definitions.h"
#include "OTF2EventDecoder.h"
#include "OTF2ReadProgress.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <sstream>

namespace macroscope::otf2
{

namespace
{
namespace fs = std::filesystem;

// The directory of an archive's event files: the anchor without ".otf2".
fs::path EventDirectory(const std::string& anchorFile)
{
  const fs::path anchor(anchorFile);
  return anchor.parent_path() / anchor.stem();
}

// The progress of a read of the selected locations, weighted by the sizes
// of their event files (`<location id>.evt`; 0 where the file is not there).
ReadProgress ByteProgress(
  const std::string& anchorFile, const TraceInfo& info, const std::vector<bool>& selected)
{
  const fs::path directory = EventDirectory(anchorFile);
  std::vector<uint64_t> bytes(selected.size(), 0);
  std::vector<uint64_t> announced(selected.size(), 0);
  for (std::size_t leaf = 0; leaf < selected.size(); ++leaf)
  {
    if (selected[leaf])
    {
      const LeafInfo& location = info.Leaves[leaf];
      std::error_code error;
      const uintmax_t size =
        fs::file_size(directory / (std::to_string(location.LocationId) + ".evt"), error);
      bytes[leaf] = error ? 0 : uint64_t(size);
      announced[leaf] = location.Events;
    }
  }
  return ReadProgress(std::move(bytes), announced);
}

std::vector<bool> SelectLeaves(const TraceInfo& info, const std::vector<uint32_t>& leaves)
{
  std::vector<bool> selected(info.Leaves.size(), leaves.empty());
  for (uint32_t leaf : leaves)
  {
    if (leaf >= info.Leaves.size())
    {
      throw std::invalid_argument("leaf index " + std::to_string(leaf) +
        " is out of range: the trace has " + std::to_string(info.Leaves.size()) + " locations");
    }
    selected[leaf] = true;
  }
  return selected;
}

std::string DescribeLocation(const TraceInfo& info, uint32_t leaf)
{
  const LeafInfo& location = info.Leaves[leaf];
  return "location " + std::to_string(location.LocationId) + " ('" +
    info.Hierarchy.Name[location.Vertex] + "')";
}

// Local definitions hold the mapping tables from a location's local ids to
// the global ones (Score-P writes them); OTF2 applies them to the events of
// the location once read. Archives without them are fine.
void ReadLocalDefinitions(
  const Archive& archive, OTF2_LocationRef location, const std::string& name)
{
  OTF2_DefReader* defReader = OTF2_Reader_GetDefReader(archive.GetReader(), location);
  if (defReader == nullptr)
  {
    OTF2MessageCapture::Take();
    return;
  }
  uint64_t read = 0;
  const OTF2_ErrorCode status =
    OTF2_Reader_ReadAllLocalDefinitions(archive.GetReader(), defReader, &read);
  OTF2_Reader_CloseDefReader(archive.GetReader(), defReader);
  archive.Check(status, "reading the local definitions of " + name);
}

// With a sink, the rows go to it after each batch of records instead of
// accumulating in `output`.
void ReadEvents(const Archive& archive, const Definitions& defs, const ReadOptions& options,
  const std::vector<bool>& selected, TraceData& output, RowSink* sink = nullptr)
{
  OTF2_Reader* reader = archive.GetReader();
  uint64_t total = 0;
  for (uint32_t leaf = 0; leaf < selected.size(); ++leaf)
  {
    if (selected[leaf])
    {
      archive.Check(OTF2_Reader_SelectLocation(reader, defs.Info.Leaves[leaf].LocationId),
        "selecting " + DescribeLocation(defs.Info, leaf));
      total += defs.Info.Leaves[leaf].Events;
    }
  }
  const bool localDefinitions = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
  OTF2MessageCapture::Take();
  archive.Check(OTF2_Reader_OpenEvtFiles(reader), "opening the event files");

  EventDecoder decoder(defs, options, selected, output, sink);
  // Progress in bytes of the event files, not in the Locations' announced
  // numberOfEvents (advisory: EZTrace announces 2).
  ReadProgress progress = ByteProgress(archive.GetPath(), defs.Info, selected);
  const uint64_t batch = progress.BatchRecords();
  uint64_t done = 0; // events announced by the Locations read, for reserving
  auto report = [&](uint32_t leaf, uint64_t records)
  {
    if (options.Progress && !options.Progress(progress.Fraction(leaf, records)))
    {
      throw ReadAborted();
    }
  };
  report(0, 0);
  // One location at a time, in leaf order: its records are in time order,
  // so no merge across locations is needed (OTF2's global reader merges with
  // a priority queue) and only one event buffer is open at once.
  for (uint32_t leaf = 0; leaf < selected.size(); ++leaf)
  {
    if (!selected[leaf])
    {
      continue;
    }
    const LeafInfo& location = defs.Info.Leaves[leaf];
    const std::string name = DescribeLocation(defs.Info, leaf);
    if (localDefinitions)
    {
      ReadLocalDefinitions(archive, location.LocationId, name);
    }
    OTF2_EvtReader* eventReader = OTF2_Reader_GetEvtReader(reader, location.LocationId);
    if (eventReader == nullptr)
    {
      archive.Check(OTF2_ERROR_FILE_CAN_NOT_OPEN, "opening the events of " + name);
    }
    decoder.Attach(reader, eventReader);
    if (sink == nullptr)
    {
      decoder.ReserveFor(location.Events, total - done);
    }
    else
    {
      sink->BeginLocation(leaf);
    }
    decoder.BeginLocation(leaf);
    uint64_t readHere = 0;
    for (;;)
    {
      uint64_t read = 0;
      const OTF2_ErrorCode status = OTF2_Reader_ReadLocalEvents(reader, eventReader, batch, &read);
      output.Report.EventsRead += read;
      readHere += read;
      if (!decoder.GetError().empty())
      {
        archive.Fail("events of " + name + ": " + decoder.GetError());
      }
      archive.Check(status, "reading the events of " + name);
      if (sink != nullptr)
      {
        decoder.HandOver();
      }
      if (read < batch)
      {
        break;
      }
      report(leaf, readHere);
    }
    // A Location's numberOfEvents is advisory (EZTrace writes 2 for every
    // location; 0 means the writer did not tell): the file has the records.
    // A truncated or corrupt file is OTF2's error, checked above.
    if (location.Events > 0 && readHere != location.Events)
    {
      Diagnostics& diagnostics = output.Report;
      if (diagnostics.EventCountMismatches++ == 0)
      {
        diagnostics.FirstEventCountMismatch = name + ": " + std::to_string(readHere) +
          " records read, " + std::to_string(location.Events) + " announced";
      }
    }
    decoder.EndLocation();
    if (sink != nullptr)
    {
      decoder.HandOver(); // the states left open
      sink->EndLocation(leaf);
    }
    OTF2_Reader_CloseEvtReader(reader, eventReader);
    done += location.Events;
    progress.Finish(leaf, readHere);
    report(leaf, 0);
  }
  if (localDefinitions)
  {
    OTF2_Reader_CloseDefFiles(reader);
  }
  OTF2_Reader_CloseEvtFiles(reader);
  decoder.Finish();

  Diagnostics& diagnostics = output.Report;
  uint64_t decoded = 0;
  for (uint64_t count : diagnostics.Records)
  {
    decoded += count;
  }
  diagnostics.OtherRecords = diagnostics.EventsRead - decoded;
}

}

TraceInfo ReadTraceInfo(const std::string& anchorFile)
{
  OTF2MessageCapture capture;
  const Archive archive(anchorFile);
  return ReadDefinitions(archive).Info;
}

namespace
{
// ReadTrace and StreamTrace: with a sink, the rows go to it batch by batch.
TraceData DecodeTrace(const std::string& anchorFile, const ReadOptions& options, RowSink* sink)
{
  if (!(options.WindowBegin <= options.WindowEnd))
  {
    throw std::invalid_argument("the time window's begin must not be after its end");
  }
  OTF2MessageCapture capture;
  const Archive archive(anchorFile);
  Definitions defs = ReadDefinitions(archive);
  const std::vector<bool> selected = SelectLeaves(defs.Info, options.Leaves);
  if (sink)
  {
    sink->Begin(defs.Info);
  }
  TraceData output;
  output.Report.ClockEnd = defs.Info.Clock.Duration();
  output.Report.DuplicateGroupDefinitions = defs.Info.DuplicateGroupDefinitions;
  output.Report.RegionsSharingAName = defs.Info.RegionsSharingAName;
  ReadEvents(archive, defs, options, selected, output, sink);
  output.ShrinkTables(); // with a sink, the batch buffers
  output.Info = std::move(defs.Info);
  return output;
}
}

TraceData ReadTrace(const std::string& anchorFile, const ReadOptions& options)
{
  return DecodeTrace(anchorFile, options, nullptr);
}

TraceData StreamTrace(const std::string& anchorFile, RowSink& sink, const ReadOptions& options)
{
  return DecodeTrace(anchorFile, options, &sink);
}

namespace
{
// Keeps nothing: ReadRecordSpan() wants the report's span only.
class DiscardRows : public RowSink
{
public:
  void Rows(const StateColumns&, const EventColumns&, const VariableColumns&) override {}
};
}

std::pair<double, double> ReadRecordSpan(const std::string& anchorFile)
{
  DiscardRows sink;
  const TraceData data = StreamTrace(anchorFile, sink);
  return { data.Report.FirstTime, data.Report.LastTime };
}

uint64_t EventFileBytes(const std::string& anchorFile)
{
  std::error_code error;
  const fs::path directory = EventDirectory(anchorFile);
  uint64_t bytes = 0;
  for (fs::directory_iterator entry(directory, error), end; !error && entry != end;
       entry.increment(error))
  {
    if (entry->path().extension() == ".evt")
    {
      const uintmax_t size = entry->file_size(error);
      bytes += error ? 0 : uint64_t(size);
      error.clear();
    }
  }
  return bytes;
}

std::vector<uint32_t> LeafRange::Leaves() const
{
  std::vector<uint32_t> result(this->End - this->Begin);
  std::iota(result.begin(), result.end(), this->Begin);
  return result;
}

std::vector<LeafRange> SplitLeaves(const TraceInfo& info, uint32_t parts)
{
  if (parts == 0)
  {
    throw std::invalid_argument("cannot split the leaves into 0 parts");
  }
  const uint32_t leaves = uint32_t(info.Leaves.size());
  // Cut where the running event count crosses k/parts of the total, but
  // leave at least one leaf for each part still to come.
  std::vector<uint64_t> prefix(leaves + 1, 0);
  for (uint32_t leaf = 0; leaf < leaves; ++leaf)
  {
    // Weight 1 at least: empty locations still cost opening their files.
    prefix[leaf + 1] = prefix[leaf] + std::max<uint64_t>(info.Leaves[leaf].Events, 1);
  }
  const long double total = (long double)(prefix[leaves]);
  std::vector<LeafRange> ranges(parts);
  int64_t begin = 0;
  for (uint32_t part = 0; part < parts; ++part)
  {
    int64_t end = leaves;
    if (part + 1 < parts)
    {
      const long double target = total * (part + 1) / parts;
      end = std::lower_bound(prefix.begin(), prefix.end(), target,
              [](uint64_t sum, long double goal) { return (long double)(sum) < goal; }) -
        prefix.begin();
      // Cut before the leaf that crosses the target when that is closer.
      if (end > 0 && target - prefix[end - 1] < prefix[end] - target)
      {
        --end;
      }
      const int64_t partsLeft = parts - part - 1;
      end = std::min(end, int64_t(leaves) - partsLeft); // a leaf for every later part
      end = std::max(end, begin + 1);                   // and one for this part
      end = std::min(std::max(end, begin), int64_t(leaves));
    }
    ranges[part] = { uint32_t(begin), uint32_t(end) };
    begin = end;
  }
  return ranges;
}

namespace
{
bool SameChannel(const MessageEndpoint& a, const MessageEndpoint& b)
{
  return a.Sender == b.Sender && a.Receiver == b.Receiver && a.Communicator == b.Communicator &&
    a.Tag == b.Tag;
}

bool ChannelLess(const MessageEndpoint& a, const MessageEndpoint& b)
{
  if (a.Sender != b.Sender)
    return a.Sender < b.Sender;
  if (a.Receiver != b.Receiver)
    return a.Receiver < b.Receiver;
  if (a.Communicator != b.Communicator)
    return a.Communicator < b.Communicator;
  return a.Tag < b.Tag;
}

// Orders endpoints by channel, keeping the original order within a channel.
// Two stable counting passes (receiver, then sender) do the bulk in O(n);
// the rare pairs of locations that use several tags or communicators are
// then sorted on their own.
void GroupByChannel(std::vector<MessageEndpoint>& endpoints, std::vector<MessageEndpoint>& scratch)
{
  if (endpoints.empty())
  {
    return;
  }
  uint32_t largest = 0;
  for (const MessageEndpoint& e : endpoints)
  {
    largest = std::max({ largest, e.Sender, e.Receiver });
  }
  std::vector<std::size_t> start(std::size_t(largest) + 2);
  // Returns false, moving nothing, when `from` is already in key order (the
  // receives ReadTrace() collects are, by receiver).
  auto countingPass = [&start](const std::vector<MessageEndpoint>& from,
                        std::vector<MessageEndpoint>& to, uint32_t MessageEndpoint::*key)
  {
    const bool sorted = std::is_sorted(from.begin(), from.end(),
      [key](const MessageEndpoint& a, const MessageEndpoint& b) { return a.*key < b.*key; });
    if (sorted)
    {
      return false;
    }
    std::fill(start.begin(), start.end(), 0);
    for (const MessageEndpoint& e : from)
    {
      ++start[e.*key + 1];
    }
    std::partial_sum(start.begin(), start.end(), start.begin());
    to.resize(from.size());
    for (const MessageEndpoint& e : from)
    {
      to[start[e.*key]++] = e;
    }
    return true;
  };
  if (countingPass(endpoints, scratch, &MessageEndpoint::Receiver))
  {
    endpoints.swap(scratch);
  }
  if (countingPass(endpoints, scratch, &MessageEndpoint::Sender))
  {
    endpoints.swap(scratch);
  }

  auto pairLess = [](const MessageEndpoint& a, const MessageEndpoint& b)
  { return a.Communicator != b.Communicator ? a.Communicator < b.Communicator : a.Tag < b.Tag; };
  for (auto first = endpoints.begin(); first != endpoints.end();)
  {
    auto last = std::find_if(first, endpoints.end(),
      [first](const MessageEndpoint& e)
      { return e.Sender != first->Sender || e.Receiver != first->Receiver; });
    if (!std::is_sorted(first, last, pairLess))
    {
      std::stable_sort(first, last, pairLess);
    }
    first = last;
  }
}
}

void MatchMessages(std::vector<MessageEndpoint> sends, std::vector<MessageEndpoint> receives,
  MessageColumns& messages, Diagnostics& report)
{
  // MPI does not overtake on one channel (sender, receiver, communicator,
  // tag): the k-th send on a channel is received by its k-th receive. Group
  // both sides by channel, each keeping its location's record order.
  {
    std::vector<MessageEndpoint> scratch;
    GroupByChannel(sends, scratch);
    GroupByChannel(receives, scratch);
  }
  messages.reserve(messages.size() + std::min(sends.size(), receives.size()));

  std::size_t s = 0;
  std::size_t r = 0;
  while (s < sends.size() && r < receives.size())
  {
    if (SameChannel(sends[s], receives[r]))
    {
      const MessageEndpoint& send = sends[s++];
      const MessageEndpoint& receive = receives[r++];
      const bool drift = receive.Time < send.Time;
      messages.Sender.push_back(send.Sender);
      messages.Receiver.push_back(send.Receiver);
      messages.SendTime.push_back(send.Time);
      messages.RecvTime.push_back(receive.Time);
      messages.Bytes.push_back(send.Bytes);
      messages.RecvBytes.push_back(receive.Bytes);
      messages.Tag.push_back(send.Tag);
      messages.Communicator.push_back(send.Communicator);
      messages.RecvBeforeSend.push_back(drift ? 1 : 0);
      report.ReceivesBeforeSends += drift ? 1 : 0;
    }
    else if (ChannelLess(sends[s], receives[r]))
    {
      ++report.UnmatchedSends;
      ++s;
    }
    else
    {
      ++report.UnmatchedReceives;
      ++r;
    }
  }
  report.UnmatchedSends += sends.size() - s;
  report.UnmatchedReceives += receives.size() - r;
}

std::string Describe(const Diagnostics& report)
{
  std::ostringstream text;
  text << report.EventsRead << " event records read";
  if (report.OtherRecords > 0)
  {
    text << " (" << report.OtherRecords << " of kinds not shown)";
  }
  text << "\n";
  for (std::size_t kind = 0; kind < RecordKindCount; ++kind)
  {
    if (report.Records[kind] > 0)
    {
      text << "  " << RecordKindName(RecordKind(kind)) << ": " << report.Records[kind] << "\n";
    }
  }
  if (!std::isnan(report.FirstTime))
  {
    text << "time span read: " << report.FirstTime << " s to " << report.LastTime << " s\n";
  }
  if (report.LocationsOutsideClockSpan > 0)
  {
    text << report.LocationsOutsideClockSpan
         << " locations have records outside the span their ClockProperties declare (0 s to "
         << report.ClockEnd << " s): the span read is taken from the records\n";
  }
  if (report.EventCountMismatches > 0)
  {
    text << report.EventCountMismatches
         << " locations hold another number of event records than their definition announces "
            "(advisory; every record was read), e.g. "
         << report.FirstEventCountMismatch << "\n";
  }
  const std::pair<const char*, uint64_t> anomalies[] = {
    { "sends without a matching receive", report.UnmatchedSends },
    { "receives without a matching send", report.UnmatchedReceives },
    { "messages received before they were sent (clock drift; kept, flagged)",
      report.ReceivesBeforeSends },
    { "sends to locations not read", report.SendsToUnselected },
    { "receives from locations not read", report.ReceivesFromUnselected },
    { "message peers outside their communicator", report.UnknownPeers },
    { "non-blocking sends never completed", report.IsendsNotCompleted },
    { "send completions without a send", report.IsendCompletesWithoutIsend },
    { "receive requests never completed", report.IrecvRequestsNotCompleted },
    { "non-blocking receives without a request", report.IrecvsWithoutRequest },
    { "cancelled requests", report.CancelledRequests },
    { "Leave records without an Enter (ignored)", report.LeavesWithoutEnter },
    { "Leave records of a region that was not the innermost open one (the regions opened "
      "inside it were closed at that Leave)",
      report.MisnestedLeaves },
    { "states closed early at the Leave of an enclosing region (their own Leave ignored)",
      report.StatesClosedEarly },
    { "states left open (closed at their location's last timestamp)", report.StatesLeftOpen },
    { "collective begins without an end", report.CollectiveBeginsWithoutEnd },
    { "collective ends without a begin", report.CollectiveEndsWithoutBegin },
    { "references to undefined regions or metrics", report.UndefinedReferences },
    { "malformed metric records", report.MalformedMetrics },
    { "states outside the time window (not kept)", report.StatesOutsideWindow },
    { "messages outside the time window (not kept)", report.MessagesOutsideWindow },
    { "events outside the time window (not kept)", report.EventsOutsideWindow },
    { "metric values outside the time window (not kept)", report.SamplesOutsideWindow },
  };
  for (const auto& [what, count] : anomalies)
  {
    if (count > 0)
    {
      text << count << " " << what << "\n";
    }
  }
  if (report.IrecvRequestsNotCompleted > 0 && report.UnmatchedSends > 0)
  {
    text << "(the receive requests never completed have no MpiIrecv record, which alone "
            "names a receive's peer and tag: the sends they would receive stay unmatched)\n";
  }
  // Not anomalies: records that say "no message", definitions resolved.
  const std::pair<const char*, uint64_t> notes[] = {
    { "message peers given as MPI_PROC_NULL (no message)", report.ProcNullPeers },
    { "Group ids defined more than once (resolved by the group's type: a Comm takes the "
      "communicator group, ranks index the locations group)",
      report.DuplicateGroupDefinitions },
    { "Regions named like an earlier Region (they share its state type)",
      report.RegionsSharingAName },
  };
  for (const auto& [what, count] : notes)
  {
    if (count > 0)
    {
      text << "note: " << count << " " << what << "\n";
    }
  }
  return text.str();
}

} // namespace macroscope::otf2
