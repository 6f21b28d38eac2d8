#include "ArchiveReadback.h"

#include <otf2/otf2.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <tuple>

namespace macroscope::synth::testing
{

namespace
{

struct LocationState
{
  uint64_t LastTime = 0;
  std::vector<uint32_t> Stack;
  uint64_t ComputeBegin = 0;
  std::set<uint64_t> OpenSends;
  std::set<uint64_t> OpenReceives;
};

struct Endpoint
{
  uint64_t Time;
  uint64_t Bytes;
};

using ChannelKey =
  std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>; // sender, receiver, comm, tag

struct Context
{
  Readback* Result;
  std::map<uint64_t, std::string> Strings;
  std::map<uint64_t, std::string> NodeNames; // system tree node -> name
  std::map<uint64_t, LocationState> Locations;
  std::map<ChannelKey, std::vector<Endpoint>> Sends;
  std::map<ChannelKey, std::vector<Endpoint>> Receives;
  uint32_t ComputeRegion = ~0u;

  void violation(const std::string& text) { this->Result->Violations.push_back(text); }

  LocationState& visit(uint64_t location, uint64_t time, EventKind kind)
  {
    LocationState& state = this->Locations[location];
    if (time < state.LastTime)
    {
      std::ostringstream text;
      text << "location " << location << ": " << ToString(kind) << " at " << time
           << " precedes the previous event at " << state.LastTime;
      this->violation(text.str());
    }
    state.LastTime = time;
    ++this->Result->Counts[static_cast<std::size_t>(kind)];
    ++this->Result->EventsPerLocation[location];
    return state;
  }

  uint32_t rankOf(uint64_t location) { return this->Result->RankOfLocation[location]; }
};

Context& contextOf(void* userData)
{
  return *static_cast<Context*>(userData);
}

// Definitions.
OTF2_CallbackCode onClock(
  void* data, uint64_t resolution, uint64_t offset, uint64_t length, uint64_t)
{
  Readback& result = *contextOf(data).Result;
  result.TimerResolution = resolution;
  result.GlobalOffset = offset;
  result.TraceLength = length;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onString(void* data, OTF2_StringRef self, const char* text)
{
  contextOf(data).Strings[self] = text;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onSystemTreeNode(void* data, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
  OTF2_StringRef, OTF2_SystemTreeNodeRef)
{
  Context& context = contextOf(data);
  context.NodeNames[self] = context.Strings[name];
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onLocationGroup(void* data, OTF2_LocationGroupRef self, OTF2_StringRef,
  OTF2_LocationGroupType, OTF2_SystemTreeNodeRef parent, OTF2_LocationGroupRef)
{
  Context& context = contextOf(data);
  context.Result->NodeOfRank[self] = context.NodeNames[parent];
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onLocation(void* data, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType,
  uint64_t events, OTF2_LocationGroupRef group)
{
  Readback& result = *contextOf(data).Result;
  result.RankOfLocation[self] = group;
  result.DeclaredEvents[self] = events;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onRegion(void* data, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef,
  OTF2_StringRef, OTF2_RegionRole, OTF2_Paradigm, OTF2_RegionFlag, OTF2_StringRef, uint32_t,
  uint32_t)
{
  Context& context = contextOf(data);
  context.Result->RegionNames[self] = context.Strings[name];
  if (context.Strings[name] == "compute")
  {
    context.ComputeRegion = self;
  }
  return OTF2_CALLBACK_SUCCESS;
}

// Events.
OTF2_CallbackCode onEnter(OTF2_LocationRef location, OTF2_TimeStamp time, void* data,
  OTF2_AttributeList*, OTF2_RegionRef region)
{
  Context& context = contextOf(data);
  LocationState& state = context.visit(location, time, EventKind::Enter);
  state.Stack.push_back(region);
  if (region == context.ComputeRegion)
  {
    state.ComputeBegin = time;
  }
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onLeave(OTF2_LocationRef location, OTF2_TimeStamp time, void* data,
  OTF2_AttributeList*, OTF2_RegionRef region)
{
  Context& context = contextOf(data);
  LocationState& state = context.visit(location, time, EventKind::Leave);
  if (state.Stack.empty() || state.Stack.back() != region)
  {
    std::ostringstream text;
    text << "location " << location << ": Leave of region " << region << " at " << time
         << " does not match the innermost Enter";
    context.violation(text.str());
    return OTF2_CALLBACK_SUCCESS;
  }
  state.Stack.pop_back();
  if (region == context.ComputeRegion)
  {
    context.Result->ComputeStates.push_back(
      { location, context.rankOf(location), state.ComputeBegin, time });
  }
  return OTF2_CALLBACK_SUCCESS;
}

void recordSend(Context& context, uint64_t location, uint64_t time, uint32_t receiver,
  uint32_t comm, uint32_t tag, uint64_t bytes)
{
  context.Sends[{ context.rankOf(location), receiver, comm, tag }].push_back({ time, bytes });
}

void recordReceive(Context& context, uint64_t location, uint64_t time, uint32_t sender,
  uint32_t comm, uint32_t tag, uint64_t bytes)
{
  context.Receives[{ sender, context.rankOf(location), comm, tag }].push_back({ time, bytes });
}

OTF2_CallbackCode onMpiSend(OTF2_LocationRef location, OTF2_TimeStamp time, void* data,
  OTF2_AttributeList*, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
{
  Context& context = contextOf(data);
  context.visit(location, time, EventKind::MpiSend);
  recordSend(context, location, time, receiver, comm, tag, bytes);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onMpiRecv(OTF2_LocationRef location, OTF2_TimeStamp time, void* data,
  OTF2_AttributeList*, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
{
  Context& context = contextOf(data);
  context.visit(location, time, EventKind::MpiRecv);
  recordReceive(context, location, time, sender, comm, tag, bytes);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onMpiIsend(OTF2_LocationRef location, OTF2_TimeStamp time, void* data,
  OTF2_AttributeList*, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t bytes,
  uint64_t request)
{
  Context& context = contextOf(data);
  LocationState& state = context.visit(location, time, EventKind::MpiIsend);
  if (!state.OpenSends.insert(request).second)
  {
    context.violation("location " + std::to_string(location) + ": request " +
      std::to_string(request) + " reused while pending");
  }
  recordSend(context, location, time, receiver, comm, tag, bytes);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onMpiIsendComplete(
  OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*, uint64_t request)
{
  Context& context = contextOf(data);
  LocationState& state = context.visit(location, time, EventKind::MpiIsendComplete);
  if (state.OpenSends.erase(request) != 1)
  {
    context.violation("location " + std::to_string(location) +
      ": MpiIsendComplete of unknown request " + std::to_string(request));
  }
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onMpiIrecvRequest(
  OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*, uint64_t request)
{
  Context& context = contextOf(data);
  LocationState& state = context.visit(location, time, EventKind::MpiIrecvRequest);
  if (!state.OpenReceives.insert(request).second)
  {
    context.violation("location " + std::to_string(location) + ": request " +
      std::to_string(request) + " reused while pending");
  }
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onMpiIrecv(OTF2_LocationRef location, OTF2_TimeStamp time, void* data,
  OTF2_AttributeList*, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t bytes,
  uint64_t request)
{
  Context& context = contextOf(data);
  LocationState& state = context.visit(location, time, EventKind::MpiIrecv);
  if (state.OpenReceives.erase(request) != 1)
  {
    context.violation("location " + std::to_string(location) + ": MpiIrecv of unknown request " +
      std::to_string(request));
  }
  recordReceive(context, location, time, sender, comm, tag, bytes);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onCollectiveBegin(
  OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*)
{
  contextOf(data).visit(location, time, EventKind::MpiCollectiveBegin);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onCollectiveEnd(OTF2_LocationRef location, OTF2_TimeStamp time, void* data,
  OTF2_AttributeList*, OTF2_CollectiveOp, OTF2_CommRef, uint32_t, uint64_t, uint64_t)
{
  contextOf(data).visit(location, time, EventKind::MpiCollectiveEnd);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onMetric(OTF2_LocationRef location, OTF2_TimeStamp time, void* data,
  OTF2_AttributeList*, OTF2_MetricRef, uint8_t, const OTF2_Type*, const OTF2_MetricValue*)
{
  contextOf(data).visit(location, time, EventKind::Metric);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onThreadFork(OTF2_LocationRef location, OTF2_TimeStamp time, void* data,
  OTF2_AttributeList*, OTF2_Paradigm, uint32_t)
{
  contextOf(data).visit(location, time, EventKind::ThreadFork);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onThreadJoin(
  OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*, OTF2_Paradigm)
{
  contextOf(data).visit(location, time, EventKind::ThreadJoin);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onProgramBegin(OTF2_LocationRef location, OTF2_TimeStamp time, void* data,
  OTF2_AttributeList*, OTF2_StringRef, uint32_t, const OTF2_StringRef*)
{
  contextOf(data).visit(location, time, EventKind::ProgramBegin);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onProgramEnd(
  OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*, int64_t)
{
  contextOf(data).visit(location, time, EventKind::ProgramEnd);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onBufferFlush(
  OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*, OTF2_TimeStamp)
{
  contextOf(data).visit(location, time, EventKind::BufferFlush);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onUnknown(
  OTF2_LocationRef location, OTF2_TimeStamp, void* data, OTF2_AttributeList*)
{
  contextOf(data).violation("location " + std::to_string(location) + ": unexpected record kind");
  return OTF2_CALLBACK_SUCCESS;
}

bool failed(OTF2_ErrorCode status, Context& context, const char* what)
{
  if (status != OTF2_SUCCESS)
  {
    context.violation(
      std::string("OTF2 reader: ") + what + ": " + OTF2_Error_GetDescription(status));
    return true;
  }
  return false;
}

void readDefinitions(OTF2_Reader* reader, Context& context)
{
  OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(reader);
  OTF2_GlobalDefReaderCallbacks* callbacks = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(callbacks, onClock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(callbacks, onString);
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(callbacks, onSystemTreeNode);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(callbacks, onLocationGroup);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(callbacks, onLocation);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(callbacks, onRegion);
  OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, callbacks, &context);
  OTF2_GlobalDefReaderCallbacks_Delete(callbacks);
  uint64_t read = 0;
  failed(OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &read), context, "global definitions");
  OTF2_Reader_CloseGlobalDefReader(reader, defs);
}

void readEvents(OTF2_Reader* reader, Context& context)
{
  for (const auto& location : context.Result->RankOfLocation)
  {
    OTF2_Reader_SelectLocation(reader, location.first);
  }
  if (failed(OTF2_Reader_OpenDefFiles(reader), context, "opening local definitions") ||
    failed(OTF2_Reader_OpenEvtFiles(reader), context, "opening event files"))
  {
    return;
  }
  for (const auto& location : context.Result->RankOfLocation)
  {
    OTF2_DefReader* localDefs = OTF2_Reader_GetDefReader(reader, location.first);
    if (localDefs != nullptr)
    {
      uint64_t read = 0;
      OTF2_Reader_ReadAllLocalDefinitions(reader, localDefs, &read);
      OTF2_Reader_CloseDefReader(reader, localDefs);
    }
    OTF2_Reader_GetEvtReader(reader, location.first);
  }
  OTF2_Reader_CloseDefFiles(reader);

  OTF2_GlobalEvtReader* events = OTF2_Reader_GetGlobalEvtReader(reader);
  OTF2_GlobalEvtReaderCallbacks* callbacks = OTF2_GlobalEvtReaderCallbacks_New();
  OTF2_GlobalEvtReaderCallbacks_SetUnknownCallback(callbacks, onUnknown);
  OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(callbacks, onEnter);
  OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(callbacks, onLeave);
  OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(callbacks, onMpiSend);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(callbacks, onMpiRecv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(callbacks, onMpiIsend);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(callbacks, onMpiIsendComplete);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(callbacks, onMpiIrecvRequest);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(callbacks, onMpiIrecv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveBeginCallback(callbacks, onCollectiveBegin);
  OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(callbacks, onCollectiveEnd);
  OTF2_GlobalEvtReaderCallbacks_SetMetricCallback(callbacks, onMetric);
  OTF2_GlobalEvtReaderCallbacks_SetThreadForkCallback(callbacks, onThreadFork);
  OTF2_GlobalEvtReaderCallbacks_SetThreadJoinCallback(callbacks, onThreadJoin);
  OTF2_GlobalEvtReaderCallbacks_SetProgramBeginCallback(callbacks, onProgramBegin);
  OTF2_GlobalEvtReaderCallbacks_SetProgramEndCallback(callbacks, onProgramEnd);
  OTF2_GlobalEvtReaderCallbacks_SetBufferFlushCallback(callbacks, onBufferFlush);
  OTF2_Reader_RegisterGlobalEvtCallbacks(reader, events, callbacks, &context);
  OTF2_GlobalEvtReaderCallbacks_Delete(callbacks);
  uint64_t read = 0;
  failed(OTF2_Reader_ReadAllGlobalEvents(reader, events, &read), context, "events");
  OTF2_Reader_CloseGlobalEvtReader(reader, events);
  OTF2_Reader_CloseEvtFiles(reader);
}

void checkCompletion(Context& context)
{
  for (const auto& entry : context.Locations)
  {
    const LocationState& state = entry.second;
    const std::string where = "location " + std::to_string(entry.first) + ": ";
    if (!state.Stack.empty())
    {
      context.violation(where + std::to_string(state.Stack.size()) + " regions never left");
    }
    if (!state.OpenSends.empty() || !state.OpenReceives.empty())
    {
      context.violation(where + "requests never completed");
    }
  }
}

void matchMessages(Context& context)
{
  auto byTime = [](const Endpoint& a, const Endpoint& b) { return a.Time < b.Time; };
  for (auto& channel : context.Sends)
  {
    std::vector<Endpoint>& sends = channel.second;
    std::vector<Endpoint>& receives = context.Receives[channel.first];
    std::stable_sort(sends.begin(), sends.end(), byTime);
    std::stable_sort(receives.begin(), receives.end(), byTime);
    const auto& [sender, receiver, comm, tag] = channel.first;
    std::ostringstream where;
    where << "messages " << sender << " -> " << receiver << " (comm " << comm << ", tag " << tag
          << "): ";
    if (sends.size() != receives.size())
    {
      context.violation(where.str() + std::to_string(sends.size()) + " sends but " +
        std::to_string(receives.size()) + " receives");
      continue;
    }
    for (std::size_t i = 0; i < sends.size(); ++i)
    {
      if (sends[i].Bytes != receives[i].Bytes)
      {
        context.violation(where.str() + "length differs between send and receive");
      }
      if (sends[i].Time > receives[i].Time)
      {
        context.violation(where.str() + "a receive completes before its send starts");
      }
      context.Result->Messages.push_back(
        { sender, receiver, tag, sends[i].Bytes, sends[i].Time, receives[i].Time });
    }
  }
  for (const auto& channel : context.Receives)
  {
    if (!channel.second.empty() && context.Sends.count(channel.first) == 0)
    {
      context.violation("a receive has no matching send");
    }
  }
}

} // namespace

Readback readArchive(const std::string& anchorFile)
{
  Readback result;
  Context context{ &result };
  OTF2_Reader* reader = OTF2_Reader_Open(anchorFile.c_str());
  if (reader == nullptr)
  {
    result.Violations.push_back("cannot open " + anchorFile);
    return result;
  }
  OTF2_Reader_SetSerialCollectiveCallbacks(reader);
  readDefinitions(reader, context);
  readEvents(reader, context);
  OTF2_Reader_Close(reader);
  checkCompletion(context);
  matchMessages(context);
  return result;
}

} // namespace macroscope::synth::testing
