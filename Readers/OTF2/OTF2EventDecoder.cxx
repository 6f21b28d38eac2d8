#include "OTF2EventDecoder.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

namespace macroscope::otf2
{

namespace
{
constexpr std::size_t NoRow = ~std::size_t(0);
constexpr uint32_t CancelledLeaf = ~uint32_t(0);
// Request slots: a MessageMatcher send handle, an index into
// Unresolved.Sends, or a receive.
constexpr uint64_t ReceiveRequest = uint64_t(1) << 63;
constexpr uint64_t UnresolvedSend = uint64_t(1) << 62;
constexpr uint64_t SlotIndexMask = UnresolvedSend - 1;
// A send not matched at all (streaming without messages).
constexpr uint64_t SkippedSend = UnresolvedSend | SlotIndexMask;

EventDecoder& Self(void* userData)
{
  return *static_cast<EventDecoder*>(userData);
}
}

// The OTF2 event callbacks: unpack, count, forward. Instant records differ
// only in their kind, hence the template.
struct EventDecoder::Callbacks
{
  static OTF2_CallbackCode Enter(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* userData,
    OTF2_AttributeList*, OTF2_RegionRef region)
  {
    return Self(userData).Enter(time, region);
  }

  static OTF2_CallbackCode Leave(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* userData,
    OTF2_AttributeList*, OTF2_RegionRef region)
  {
    return Self(userData).Leave(time, region);
  }

  static OTF2_CallbackCode Metric(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* userData,
    OTF2_AttributeList*, OTF2_MetricRef metric, uint8_t count, const OTF2_Type* types,
    const OTF2_MetricValue* values)
  {
    Self(userData).Metric(time, metric, count, types, values);
    return OTF2_CALLBACK_SUCCESS;
  }

  static OTF2_CallbackCode MpiSend(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* userData,
    OTF2_AttributeList*, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
  {
    EventDecoder& d = Self(userData);
    d.Count(RecordKind::MpiSend);
    d.Send(time, receiver, comm, tag, bytes);
    return OTF2_CALLBACK_SUCCESS;
  }

  static OTF2_CallbackCode MpiIsend(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* userData,
    OTF2_AttributeList*, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t bytes,
    uint64_t request)
  {
    EventDecoder& d = Self(userData);
    d.Count(RecordKind::MpiIsend);
    const uint64_t slot = d.Send(time, receiver, comm, tag, bytes);
    if (slot != RequestTable::NotFound && d.Requests.insert(request, slot))
    {
      ++d.Output.Report.IsendsNotCompleted; // the replaced request never completed
    }
    return OTF2_CALLBACK_SUCCESS;
  }

  static OTF2_CallbackCode MpiIsendComplete(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t,
    void* userData, OTF2_AttributeList*, uint64_t request)
  {
    EventDecoder& d = Self(userData);
    d.Count(RecordKind::MpiIsendComplete);
    d.Touch(time);
    const uint64_t slot = d.Requests.Take(request);
    if (slot == RequestTable::NotFound || (slot & ReceiveRequest) != 0)
    {
      ++d.Output.Report.IsendCompletesWithoutIsend;
    }
    return OTF2_CALLBACK_SUCCESS;
  }

  static OTF2_CallbackCode MpiIrecvRequest(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t,
    void* userData, OTF2_AttributeList*, uint64_t request)
  {
    EventDecoder& d = Self(userData);
    d.Count(RecordKind::MpiIrecvRequest);
    d.Touch(time);
    if (d.Requests.insert(request, ReceiveRequest))
    {
      ++d.Output.Report.IrecvRequestsNotCompleted;
    }
    return OTF2_CALLBACK_SUCCESS;
  }

  static OTF2_CallbackCode MpiRecv(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* userData,
    OTF2_AttributeList*, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
  {
    EventDecoder& d = Self(userData);
    d.Count(RecordKind::MpiRecv);
    d.Receive(time, sender, comm, tag, bytes);
    return OTF2_CALLBACK_SUCCESS;
  }

  static OTF2_CallbackCode MpiIrecv(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* userData,
    OTF2_AttributeList*, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t bytes,
    uint64_t request)
  {
    EventDecoder& d = Self(userData);
    d.Count(RecordKind::MpiIrecv);
    const uint64_t slot = d.Requests.Take(request);
    if (slot == RequestTable::NotFound || (slot & ReceiveRequest) == 0)
    {
      ++d.Output.Report.IrecvsWithoutRequest;
    }
    d.Receive(time, sender, comm, tag, bytes);
    return OTF2_CALLBACK_SUCCESS;
  }

  static OTF2_CallbackCode MpiRequestCancelled(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t,
    void* userData, OTF2_AttributeList*, uint64_t request)
  {
    EventDecoder& d = Self(userData);
    d.Count(RecordKind::MpiRequestCancelled);
    d.Touch(time);
    d.Cancel(request);
    return OTF2_CALLBACK_SUCCESS;
  }

  static OTF2_CallbackCode CollectiveBegin(
    OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* userData, OTF2_AttributeList*)
  {
    EventDecoder& d = Self(userData);
    d.OpenCollectives.push_back(d.EmitEvent(RecordKind::MpiCollectiveBegin, time));
    return OTF2_CALLBACK_SUCCESS;
  }

  static OTF2_CallbackCode CollectiveEnd(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t,
    void* userData, OTF2_AttributeList*, OTF2_CollectiveOp operation, OTF2_CommRef comm,
    uint32_t root, uint64_t, uint64_t)
  {
    Self(userData).CollectiveEnd(time, operation, comm, root);
    return OTF2_CALLBACK_SUCCESS;
  }

  template <RecordKind Kind, typename... Ignored>
  static OTF2_CallbackCode Instant(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* userData,
    OTF2_AttributeList*, Ignored...)
  {
    Self(userData).EmitEvent(Kind, time);
    return OTF2_CALLBACK_SUCCESS;
  }

  static void RegisterAll(OTF2_EvtReaderCallbacks* c)
  {
    OTF2_EvtReaderCallbacks_SetEnterCallback(c, &Enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(c, &Leave);
    OTF2_EvtReaderCallbacks_SetMetricCallback(c, &Metric);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(c, &MpiSend);
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(c, &MpiIsend);
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(c, &MpiIsendComplete);
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(c, &MpiIrecvRequest);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(c, &MpiRecv);
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(c, &MpiIrecv);
    OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(c, &MpiRequestCancelled);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(c, &CollectiveBegin);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(c, &CollectiveEnd);
    OTF2_EvtReaderCallbacks_SetProgramBeginCallback(
      c, &Instant<RecordKind::ProgramBegin, OTF2_StringRef, uint32_t, const OTF2_StringRef*>);
    OTF2_EvtReaderCallbacks_SetProgramEndCallback(c, &Instant<RecordKind::ProgramEnd, int64_t>);
    OTF2_EvtReaderCallbacks_SetThreadForkCallback(
      c, &Instant<RecordKind::ThreadFork, OTF2_Paradigm, uint32_t>);
    OTF2_EvtReaderCallbacks_SetThreadJoinCallback(
      c, &Instant<RecordKind::ThreadJoin, OTF2_Paradigm>);
    OTF2_EvtReaderCallbacks_SetThreadTeamBeginCallback(
      c, &Instant<RecordKind::ThreadTeamBegin, OTF2_CommRef>);
    OTF2_EvtReaderCallbacks_SetThreadTeamEndCallback(
      c, &Instant<RecordKind::ThreadTeamEnd, OTF2_CommRef>);
    OTF2_EvtReaderCallbacks_SetThreadCreateCallback(
      c, &Instant<RecordKind::ThreadCreate, OTF2_CommRef, uint64_t>);
    OTF2_EvtReaderCallbacks_SetThreadBeginCallback(
      c, &Instant<RecordKind::ThreadBegin, OTF2_CommRef, uint64_t>);
    OTF2_EvtReaderCallbacks_SetThreadWaitCallback(
      c, &Instant<RecordKind::ThreadWait, OTF2_CommRef, uint64_t>);
    OTF2_EvtReaderCallbacks_SetThreadEndCallback(
      c, &Instant<RecordKind::ThreadEnd, OTF2_CommRef, uint64_t>);
    OTF2_EvtReaderCallbacks_SetThreadAcquireLockCallback(
      c, &Instant<RecordKind::ThreadAcquireLock, OTF2_Paradigm, uint32_t, uint32_t>);
    OTF2_EvtReaderCallbacks_SetThreadReleaseLockCallback(
      c, &Instant<RecordKind::ThreadReleaseLock, OTF2_Paradigm, uint32_t, uint32_t>);
    OTF2_EvtReaderCallbacks_SetThreadTaskCreateCallback(
      c, &Instant<RecordKind::ThreadTaskCreate, OTF2_CommRef, uint32_t, uint32_t>);
    OTF2_EvtReaderCallbacks_SetThreadTaskSwitchCallback(
      c, &Instant<RecordKind::ThreadTaskSwitch, OTF2_CommRef, uint32_t, uint32_t>);
    OTF2_EvtReaderCallbacks_SetThreadTaskCompleteCallback(
      c, &Instant<RecordKind::ThreadTaskComplete, OTF2_CommRef, uint32_t, uint32_t>);
    OTF2_EvtReaderCallbacks_SetBufferFlushCallback(
      c, &Instant<RecordKind::BufferFlush, OTF2_TimeStamp>);
    OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(
      c, &Instant<RecordKind::MeasurementOnOff, OTF2_MeasurementMode>);
  }
};

EventDecoder::EventDecoder(const Definitions& definitions, const ReadOptions& options,
  const std::vector<bool>& selectedLeaves, TraceData& output, RowSink* sink)
  : Defs(definitions)
  , Options(options)
  , Selected(selectedLeaves)
  , Output(output)
  , WindowBegin(options.WindowBegin)
  , WindowEnd(options.WindowEnd)
  , ClipStates(options.ClipStatesToWindow)
  , FilterRegions(!options.Regions.empty())
  , Sink(sink)
  , MatchMessages(sink == nullptr || sink->WantsMessages())
  , Offset(definitions.Info.Clock.GlobalOffset)
  , Resolution(double(definitions.Info.Clock.Resolution))
  , Matcher(output.Messages, definitions.Info.Leaves.size())
{
  const TypeColumns& types = definitions.Info.Types;
  this->KeepRegionType.assign(types.size(), options.Regions.empty() ? 1 : 0);
  if (!options.Regions.empty())
  {
    const std::unordered_set<std::string> wanted(options.Regions.begin(), options.Regions.end());
    for (uint32_t type : definitions.RegionType)
    {
      this->KeepRegionType[type] = wanted.count(types.Name[type]) != 0 ? 1 : 0;
    }
  }
}

void EventDecoder::Attach(OTF2_Reader* reader, OTF2_EvtReader* eventReader)
{
  OTF2_EvtReaderCallbacks* callbacks = OTF2_EvtReaderCallbacks_New();
  Callbacks::RegisterAll(callbacks);
  const OTF2_ErrorCode status =
    OTF2_Reader_RegisterEvtCallbacks(reader, eventReader, callbacks, this);
  OTF2_EvtReaderCallbacks_Delete(callbacks);
  if (status != OTF2_SUCCESS)
  {
    this->Error =
      std::string("registering the event callbacks failed: ") + OTF2_Error_GetDescription(status);
  }
}

void EventDecoder::BeginLocation(uint32_t leaf)
{
  this->Leaf = leaf;
  this->FirstTicks = std::numeric_limits<uint64_t>::max();
  this->LastTicks = 0;
  this->Stack.clear();
  this->ClosedEarly.clear();
  this->OpenCollectives.clear();
  this->Requests.clear();
  this->Matcher.BeginLocation(leaf);
}

OTF2_CallbackCode EventDecoder::Enter(uint64_t ticks, OTF2_RegionRef region)
{
  this->Count(RecordKind::Enter);
  this->Touch(ticks);
  this->Stack.emplace_back(region, ticks);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode EventDecoder::Leave(uint64_t ticks, OTF2_RegionRef region)
{
  this->Count(RecordKind::Leave);
  this->Touch(ticks);
  if (this->Stack.empty() ||
    (this->Stack.back().Region != region && !this->SameState(this->Stack.back().Region, region)))
  {
    this->LeaveMisnested(ticks, region);
    return OTF2_CALLBACK_SUCCESS;
  }
  const Frame frame = this->Stack.back();
  this->Stack.pop_back();
  this->EmitState(frame.Region, frame.Start, ticks, uint32_t(this->Stack.size()));
  return OTF2_CALLBACK_SUCCESS;
}

bool EventDecoder::SameState(uint64_t a, uint64_t b) const
{
  // Regions named alike share a state type (OTF2Definitions): EZTrace
  // defines "OpenMP For" once per thread, and a thread may leave through
  // another's definition. They pair as otf2-print's names do.
  if (a == b)
  {
    return true;
  }
  const int64_t typeA = this->Defs.RegionTypes.find(a);
  return typeA >= 0 && typeA == this->Defs.RegionTypes.find(b);
}

void EventDecoder::LeaveMisnested(uint64_t ticks, OTF2_RegionRef region)
{
  const auto open = std::find_if(this->Stack.rbegin(), this->Stack.rend(),
    [this, region](const Frame& frame) { return this->SameState(frame.Region, region); });
  if (open == this->Stack.rend())
  {
    this->LeaveUnpaired(region);
    return;
  }
  // The enclosing region ends here: the regions opened inside it end with
  // it, so that every state stays inside its parent (downstream code relies
  // on nesting), and the enclosing state keeps its recorded end.
  Diagnostics& report = this->Output.Report;
  ++report.MisnestedLeaves;
  const std::size_t depth = std::size_t(this->Stack.rend() - open) - 1;
  while (this->Stack.size() > depth + 1)
  {
    const Frame inner = this->Stack.back();
    this->Stack.pop_back();
    ++report.StatesClosedEarly;
    this->ClosedEarly.push_back(inner.Region);
    this->EmitState(inner.Region, inner.Start, ticks, uint32_t(this->Stack.size()));
  }
  const Frame frame = this->Stack.back();
  this->Stack.pop_back();
  this->EmitState(frame.Region, frame.Start, ticks, uint32_t(this->Stack.size()));
}

void EventDecoder::LeaveUnpaired(OTF2_RegionRef region)
{
  const auto early = std::find_if(this->ClosedEarly.rbegin(), this->ClosedEarly.rend(),
    [this, region](uint64_t closed) { return this->SameState(closed, region); });
  if (early != this->ClosedEarly.rend())
  {
    // Its state was closed, and counted, at the enclosing region's Leave.
    this->ClosedEarly.erase(std::next(early).base());
    return;
  }
  // E.g. a trace whose recording started inside a region: nothing to pair.
  ++this->Output.Report.LeavesWithoutEnter;
}

void EventDecoder::PushState(uint32_t type, uint64_t startTicks, uint64_t endTicks, uint32_t depth)
{
  double start = this->Seconds(startTicks);
  double end = this->Seconds(endTicks);
  if (end < this->WindowBegin || start > this->WindowEnd)
  {
    ++this->Output.Report.StatesOutsideWindow;
    return;
  }
  if (this->ClipStates)
  {
    start = std::max(start, this->WindowBegin);
    end = std::min(end, this->WindowEnd);
  }
  StateColumns& states = this->Output.States;
  states.Location.push_back(this->Leaf);
  states.Type.push_back(type);
  states.Depth.push_back(depth);
  states.Start.push_back(start);
  states.End.push_back(end);
}

void EventDecoder::EmitState(
  uint64_t region, uint64_t startTicks, uint64_t endTicks, uint32_t depth)
{
  const int64_t found = this->Defs.RegionTypes.find(region);
  if (found < 0)
  {
    ++this->Output.Report.UndefinedReferences;
    if (this->Sink != nullptr)
    {
      this->MarkDropped(startTicks, endTicks, depth);
    }
    return;
  }
  const uint32_t type = uint32_t(found);
  if (this->FilterRegions && !this->KeepRegionType[type])
  {
    if (this->Sink != nullptr)
    {
      this->MarkDropped(startTicks, endTicks, depth);
    }
    return;
  }
  this->PushState(type, startTicks, endTicks, depth);
}

void EventDecoder::MarkDropped(uint64_t startTicks, uint64_t endTicks, uint32_t depth)
{
  // Timed and clipped as a kept state would be, so that the rows stay in
  // the order of their Leave.
  this->PushState(DroppedStateType, startTicks, endTicks, depth);
}

std::size_t EventDecoder::EmitEvent(RecordKind kind, uint64_t ticks)
{
  this->Count(kind);
  this->Touch(ticks);
  const double time = this->Seconds(ticks);
  if (!this->InWindow(time))
  {
    ++this->Output.Report.EventsOutsideWindow;
    return NoRow;
  }
  EventColumns& events = this->Output.Events;
  events.Location.push_back(this->Leaf);
  events.Type.push_back(this->Defs.InstantType(kind));
  events.Time.push_back(time);
  events.Communicator.push_back(-1);
  events.Root.push_back(-1);
  events.Operation.push_back(-1);
  return events.size() - 1;
}

void EventDecoder::CollectiveEnd(
  uint64_t ticks, OTF2_CollectiveOp operation, OTF2_CommRef comm, uint32_t root)
{
  const int64_t rootLeaf = root == OTF2_UNDEFINED_UINT32 ? -1 : this->PeerLeaf(comm, root);
  const std::size_t endRow = this->EmitEvent(RecordKind::MpiCollectiveEnd, ticks);
  std::size_t beginRow = NoRow;
  if (this->OpenCollectives.empty())
  {
    ++this->Output.Report.CollectiveEndsWithoutBegin;
  }
  else
  {
    beginRow = this->OpenCollectives.back();
    this->OpenCollectives.pop_back();
  }
  // The operation is known at the End only; the Begin row learns it now.
  EventColumns& events = this->Output.Events;
  for (std::size_t row : { beginRow, endRow })
  {
    if (row != NoRow)
    {
      events.Communicator[row] = comm;
      events.Root[row] = rootLeaf;
      events.Operation[row] = int32_t(operation);
    }
  }
}

void EventDecoder::Metric(uint64_t ticks, OTF2_MetricRef metric, uint8_t count,
  const OTF2_Type* types, const OTF2_MetricValue* values)
{
  this->Count(RecordKind::Metric);
  this->Touch(ticks);
  const int64_t index = this->Defs.Metrics.find(metric);
  if (index < 0)
  {
    ++this->Output.Report.UndefinedReferences;
    return;
  }
  const std::vector<uint32_t>& variables = this->Defs.MetricVariables[std::size_t(index)];
  if (variables.size() != count)
  {
    ++this->Output.Report.MalformedMetrics;
    return;
  }
  const double time = this->Seconds(ticks);
  if (!this->InWindow(time))
  {
    this->Output.Report.SamplesOutsideWindow += count;
    return;
  }
  VariableColumns& samples = this->Output.Variables;
  for (uint8_t member = 0; member < count; ++member)
  {
    double value = 0.0;
    switch (types[member])
    {
      case OTF2_TYPE_INT64:
        value = double(values[member].signed_int);
        break;
      case OTF2_TYPE_UINT64:
        value = double(values[member].unsigned_int);
        break;
      case OTF2_TYPE_DOUBLE:
        value = values[member].floating_point;
        break;
      default:
        ++this->Output.Report.MalformedMetrics;
        continue;
    }
    samples.Location.push_back(this->Leaf);
    samples.Variable.push_back(variables[member]);
    samples.Time.push_back(time);
    samples.Value.push_back(value);
  }
}

int64_t EventDecoder::PeerLeaf(OTF2_CommRef comm, uint32_t rank)
{
  if (comm != this->LastComm || this->LastPeers == nullptr)
  {
    const int64_t index = this->Defs.Comms.find(comm);
    this->LastComm = comm;
    this->LastPeers = index < 0 ? nullptr : &this->Defs.Peers[std::size_t(index)];
  }
  // MPI_PROC_NULL: Open MPI's -2, MPICH's -1 (also OTF2's undefined rank).
  if (rank >= 0xFFFFFFFEu)
  {
    ++this->Output.Report.ProcNullPeers;
    return -1;
  }
  int64_t leaf = -1;
  if (this->LastPeers != nullptr)
  {
    if (this->LastPeers->IsSelf)
    {
      leaf = rank == 0 ? int64_t(this->Leaf) : -1;
    }
    else if (rank < this->LastPeers->LeafOfRank.size())
    {
      leaf = this->LastPeers->LeafOfRank[rank];
    }
  }
  if (leaf < 0)
  {
    ++this->Output.Report.UnknownPeers;
  }
  return leaf;
}

uint64_t EventDecoder::Send(
  uint64_t ticks, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
{
  this->Touch(ticks);
  if (!this->MatchMessages)
  {
    return SkippedSend;
  }
  const int64_t peer = this->PeerLeaf(comm, receiver);
  if (peer < 0)
  {
    return RequestTable::NotFound;
  }
  const double time = this->Seconds(ticks);
  if (this->Selected[std::size_t(peer)])
  {
    return this->Matcher.Send(uint32_t(peer), comm, tag, time, bytes);
  }
  ++this->Output.Report.SendsToUnselected;
  this->Output.Unresolved.Sends.push_back({ this->Leaf, uint32_t(peer), comm, tag, time, bytes });
  return (this->Output.Unresolved.Sends.size() - 1) | UnresolvedSend;
}

void EventDecoder::Receive(
  uint64_t ticks, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
{
  this->Touch(ticks);
  if (!this->MatchMessages)
  {
    return;
  }
  const int64_t peer = this->PeerLeaf(comm, sender);
  if (peer < 0)
  {
    return;
  }
  const double time = this->Seconds(ticks);
  if (this->Selected[std::size_t(peer)])
  {
    this->Matcher.Receive(uint32_t(peer), comm, tag, time, bytes);
  }
  else
  {
    ++this->Output.Report.ReceivesFromUnselected;
    this->Output.Unresolved.Receives.push_back(
      { uint32_t(peer), this->Leaf, comm, tag, time, bytes });
  }
}

void EventDecoder::Cancel(uint64_t request)
{
  const uint64_t slot = this->Requests.Take(request);
  if (slot == RequestTable::NotFound)
  {
    return;
  }
  ++this->Output.Report.CancelledRequests;
  if (slot == SkippedSend)
  {
    return;
  }
  if ((slot & ReceiveRequest) == 0)
  {
    // A cancelled send never reaches its receiver.
    if ((slot & UnresolvedSend) != 0)
    {
      this->Output.Unresolved.Sends[slot & SlotIndexMask].Sender = CancelledLeaf;
    }
    else
    {
      this->Matcher.CancelSend(slot);
    }
  }
}

void EventDecoder::EndLocation()
{
  Diagnostics& report = this->Output.Report;
  if (this->FirstTicks <= this->LastTicks)
  {
    const double first = this->Seconds(this->FirstTicks);
    const double last = this->Seconds(this->LastTicks);
    report.FirstTime = std::isnan(report.FirstTime) ? first : std::min(report.FirstTime, first);
    report.LastTime = std::isnan(report.LastTime) ? last : std::max(report.LastTime, last);
    const ClockInfo& clock = this->Defs.Info.Clock;
    if (this->FirstTicks < clock.GlobalOffset ||
      this->LastTicks - clock.GlobalOffset > clock.TraceLength)
    {
      ++report.LocationsOutsideClockSpan;
    }
  }
  // States still open: close them at the location's last timestamp, so
  // that a trace cut short still shows where each location was.
  report.StatesLeftOpen += this->Stack.size();
  while (!this->Stack.empty())
  {
    const Frame frame = this->Stack.back();
    this->Stack.pop_back();
    this->EmitState(frame.Region, frame.Start, this->LastTicks, uint32_t(this->Stack.size()));
  }
  report.CollectiveBeginsWithoutEnd += this->OpenCollectives.size();
  this->OpenCollectives.clear();
  this->Requests.Drain(
    [&report](uint64_t slot)
    {
      ++((slot & ReceiveRequest) != 0 ? report.IrecvRequestsNotCompleted
                                      : report.IsendsNotCompleted);
    });
  this->Matcher.EndLocation();
}

void EventDecoder::Finish()
{
  for (std::size_t kind = 0; kind < RecordKindCount; ++kind)
  {
    this->Output.Report.Records[kind] += this->Records[kind];
  }
  std::vector<MessageEndpoint>& unresolved = this->Output.Unresolved.Sends;
  unresolved.erase(std::remove_if(unresolved.begin(), unresolved.end(),
                     [](const MessageEndpoint& e) { return e.Sender == CancelledLeaf; }),
    unresolved.end());

  this->Matcher.Finish(this->Output.Report);
  MessageColumns& messages = this->Output.Messages;
  if (std::isinf(this->Options.WindowBegin) && std::isinf(this->Options.WindowEnd))
  {
    return;
  }
  // Keep messages whose flight [send, receive] overlaps the window; drifting
  // clocks may invert the interval, hence min/max.
  std::size_t kept = 0;
  for (std::size_t row = 0; row < messages.size(); ++row)
  {
    const double first = std::min(messages.SendTime[row], messages.RecvTime[row]);
    const double last = std::max(messages.SendTime[row], messages.RecvTime[row]);
    if (last < this->WindowBegin || first > this->WindowEnd)
    {
      ++this->Output.Report.MessagesOutsideWindow;
      continue;
    }
    messages.Sender[kept] = messages.Sender[row];
    messages.Receiver[kept] = messages.Receiver[row];
    messages.SendTime[kept] = messages.SendTime[row];
    messages.RecvTime[kept] = messages.RecvTime[row];
    messages.Bytes[kept] = messages.Bytes[row];
    messages.RecvBytes[kept] = messages.RecvBytes[row];
    messages.Tag[kept] = messages.Tag[row];
    messages.Communicator[kept] = messages.Communicator[row];
    messages.RecvBeforeSend[kept] = messages.RecvBeforeSend[row];
    ++kept;
  }
  messages.resize(kept);
}

void EventDecoder::HandOver()
{
  StateColumns& states = this->Output.States;
  EventColumns& events = this->Output.Events;
  VariableColumns& variables = this->Output.Variables;
  if (states.size() + events.size() + variables.size() > 0)
  {
    this->Sink->Rows(states, events, variables);
  }
  for (auto* column : { &states.Location, &states.Type, &states.Depth, &events.Location,
         &events.Type, &variables.Location, &variables.Variable })
  {
    column->clear();
  }
  for (auto* column :
    { &states.Start, &states.End, &events.Time, &variables.Time, &variables.Value })
  {
    column->clear();
  }
  events.Communicator.clear();
  events.Root.clear();
  events.Operation.clear();
  // Their Begin rows are gone: a collective's End no longer updates them.
  std::fill(this->OpenCollectives.begin(), this->OpenCollectives.end(), NoRow);
}

void EventDecoder::ReserveFor(uint64_t events, uint64_t remaining)
{
  // Rows per event so far predict the rest. Until a location has been read,
  // guess high: capacity never used is address space, not memory, while
  // growing costs a reallocation.
  const uint64_t seen = this->Output.Report.EventsRead;
  auto plan = [&](auto& columns, std::size_t rows, double firstGuess)
  {
    const double perEvent = seen > 0 ? double(rows) / double(seen) : firstGuess;
    const std::size_t expected = rows + std::size_t(std::ceil(perEvent * double(events)));
    if (columns.capacity() < expected + 16)
    {
      const std::size_t planned =
        rows + std::size_t(std::ceil(perEvent * double(remaining) * 1.02)) + 1024;
      columns.reserve(std::max(expected + 16, planned));
    }
    // Map the memory of the rows this location is expected to add at once:
    // one page fault per page costs more than writing the page. Only from
    // a measured rate, so that a wrong guess does not make memory resident.
    if (seen > 0)
    {
      columns.Prefault(expected);
    }
  };
  plan(this->Output.States, this->Output.States.size(), 0.5);
  plan(this->Output.Events, this->Output.Events.size(), 0.1);
  plan(this->Output.Variables, this->Output.Variables.size(), 0.2);
  plan(this->Output.Messages, this->Matcher.RowsWritten(), 0.1);
}

OTF2_CallbackCode EventDecoder::Fail(const std::string& problem)
{
  if (this->Error.empty())
  {
    this->Error = problem;
  }
  return OTF2_CALLBACK_INTERRUPT;
}

} // namespace macroscope::otf2
