#include "SynthTraceWriter.h"
#include "SynthPajeWriter.h"

#include <otf2/otf2.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>

namespace macroscope::synth
{

namespace
{

void Check(OTF2_ErrorCode status, const char* what)
{
  if (status != OTF2_SUCCESS)
  {
    throw std::runtime_error(std::string("OTF2: ") + what +
      " failed: " + OTF2_Error_GetName(status) + ": " + OTF2_Error_GetDescription(status));
  }
}

/// The global clock offset, 10^6 s of ticks, so that timestamps look like
/// a machine's uptime counter and readers must subtract the offset.
constexpr uint64_t ClockOffsetSeconds = 1000000;
/// Wall-clock time of the trace start (ns since the epoch), fixed so that
/// archives are reproducible: 2023-11-14T22:13:20Z.
constexpr uint64_t RealtimeStartNanoseconds = 1700000000ull * 1000000000ull;
/// Event buffers: one chunk per location in memory; a full chunk is flushed.
constexpr std::size_t EventChunksPerLocation = 1;
/// OTF2's POSIX substrate copies every write smaller than 4 MiB into a 4 MiB
/// buffer per open file, which lives until the location is closed. Chunks of
/// exactly that size are written directly, so a location costs at most one
/// 4 MiB chunk instead of a chunk plus that buffer; smaller chunks would not
/// lower the footprint.
constexpr uint64_t EventChunkSize = 4ull << 20;

struct RegionInfo
{
  const char* Name;
  const char* Description;
  OTF2_RegionRole Role;
  OTF2_Paradigm Paradigm;
};

const RegionInfo& RegionInfoOf(Region region)
{
  static const RegionInfo table[] = {
    { "main", "program entry", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER },
    { "iteration", "one time step of the solver", OTF2_REGION_ROLE_LOOP, OTF2_PARADIGM_USER },
    { "compute", "local computation", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER },
    { "exchange_halo", "halo exchange with the neighbours", OTF2_REGION_ROLE_FUNCTION,
      OTF2_PARADIGM_USER },
    { "tree_gather", "gather to rank 0 along a binary tree", OTF2_REGION_ROLE_FUNCTION,
      OTF2_PARADIGM_USER },
    { "tree_scatter", "scatter from rank 0 along a binary tree", OTF2_REGION_ROLE_FUNCTION,
      OTF2_PARADIGM_USER },
    { "reduce_residual", "global reduction of the residual", OTF2_REGION_ROLE_FUNCTION,
      OTF2_PARADIGM_USER },
    { "MPI_Init", "", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI },
    { "MPI_Finalize", "", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI },
    { "MPI_Send", "", OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI },
    { "MPI_Recv", "", OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI },
    { "MPI_Isend", "", OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI },
    { "MPI_Irecv", "", OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI },
    { "MPI_Waitall", "", OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI },
    { "MPI_Allreduce", "", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_PARADIGM_MPI },
    { "MPI_Barrier", "", OTF2_REGION_ROLE_BARRIER, OTF2_PARADIGM_MPI },
    { "!$omp parallel", "", OTF2_REGION_ROLE_PARALLEL, OTF2_PARADIGM_OPENMP },
    { "!$omp implicit barrier", "", OTF2_REGION_ROLE_IMPLICIT_BARRIER, OTF2_PARADIGM_OPENMP },
  };
  static_assert(sizeof(table) / sizeof(table[0]) == static_cast<std::size_t>(Region::Count),
    "one entry per region");
  return table[static_cast<std::size_t>(region)];
}

constexpr OTF2_CommRef WorldComm = 0;
constexpr OTF2_MetricRef InstructionMetric = 0;
constexpr OTF2_StringRef ProgramNameString = 0; // interned first, see WriteGlobalDefinitions

/// Interns strings in first-use order, so their references are stable.
class StringTable
{
public:
  OTF2_StringRef operator()(const std::string& text)
  {
    auto inserted = this->Refs.emplace(text, OTF2_StringRef(this->Texts.size()));
    if (inserted.second)
    {
      this->Texts.push_back(text);
    }
    return inserted.first->second;
  }
  const std::vector<std::string>& GetTexts() const { return this->Texts; }

private:
  std::map<std::string, OTF2_StringRef> Refs;
  std::vector<std::string> Texts;
};

} // namespace

const char* RegionName(Region region)
{
  return RegionInfoOf(region).Name;
}

// OTF2 callbacks. Flushing: OTF2 asks before every flush; we always flush
// and report the location's current simulated time, which OTF2 stores in
// the BufferFlush record it inserts. Memory: event buffers get one chunk per
// location; when it is full the allocation fails, which makes OTF2 flush the
// chunk to disk and start over, keeping memory independent of the event
// count. Definition buffers are not limited.
struct TraceWriter::Callbacks
{
  static OTF2_FlushType PreFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool)
  {
    return OTF2_FLUSH;
  }

  static OTF2_TimeStamp PostFlush(void* userData, OTF2_FileType, OTF2_LocationRef location)
  {
    auto* self = static_cast<TraceWriter*>(userData);
    const uint32_t rank = uint32_t(location & 0xffffffffu);
    const uint32_t thread = uint32_t(location >> 32);
    if (location == OTF2_UNDEFINED_LOCATION || rank >= self->Machine.RankCount() ||
      thread >= self->Machine.GetThreadsPerRank())
    {
      return self->LastTimestamp;
    }
    return self->CurrentTimestamp[self->Machine.LocationIndex(rank, thread)];
  }

  struct Chunks
  {
    std::vector<void*> Blocks;
  };

  static void* Allocate(
    void*, OTF2_FileType fileType, OTF2_LocationRef, void** perBufferData, uint64_t chunkSize)
  {
    if (*perBufferData == nullptr)
    {
      *perBufferData = new Chunks;
    }
    auto* chunks = static_cast<Chunks*>(*perBufferData);
    if (fileType == OTF2_FILETYPE_EVENTS && chunks->Blocks.size() >= EventChunksPerLocation)
    {
      return nullptr;
    }
    void* block = std::malloc(chunkSize);
    if (block != nullptr)
    {
      chunks->Blocks.push_back(block);
    }
    return block;
  }

  static void FreeAll(void*, OTF2_FileType, OTF2_LocationRef, void** perBufferData, bool final)
  {
    auto* chunks = static_cast<Chunks*>(*perBufferData);
    if (chunks == nullptr)
    {
      return;
    }
    for (void* block : chunks->Blocks)
    {
      std::free(block);
    }
    chunks->Blocks.clear();
    if (final)
    {
      delete chunks;
      *perBufferData = nullptr;
    }
  }
};

TraceWriter::TraceWriter(
  const std::string& directory, const Platform& platform, uint64_t timerResolution)
  : Machine(platform)
  , TimerResolution(timerResolution)
  , GlobalOffset(ClockOffsetSeconds * timerResolution)
  , CurrentTimestamp(platform.LocationCount(), ClockOffsetSeconds * timerResolution)
  , LocationEvents(platform.LocationCount(), 0)
{
  this->Archive = OTF2_Archive_Open(directory.c_str(), "traces", OTF2_FILEMODE_WRITE,
    EventChunkSize, OTF2_UNDEFINED_UINT64, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (this->Archive == nullptr)
  {
    throw std::runtime_error("OTF2: cannot create an archive in '" + directory + "'");
  }
  try
  {
    // Setting the definition chunk size is collective: callbacks first.
    Check(OTF2_Archive_SetSerialCollectiveCallbacks(this->Archive), "setting collective callbacks");
    // Room for the largest definition record: the group of all ranks.
    const uint64_t defChunk = std::clamp<uint64_t>(
      uint64_t(platform.RankCount()) * 10 + (1 << 20), 1 << 20, OTF2_CHUNK_SIZE_MAX);
    Check(
      OTF2_Archive_SetDefChunkSize(this->Archive, defChunk), "setting the definition chunk size");
    static const OTF2_FlushCallbacks flushCallbacks = { &Callbacks::PreFlush,
      &Callbacks::PostFlush };
    Check(OTF2_Archive_SetFlushCallbacks(this->Archive, &flushCallbacks, this),
      "setting the flush callbacks");
    static const OTF2_MemoryCallbacks memoryCallbacks = { &Callbacks::Allocate,
      &Callbacks::FreeAll };
    Check(OTF2_Archive_SetMemoryCallbacks(this->Archive, &memoryCallbacks, this),
      "setting the memory callbacks");
    Check(OTF2_Archive_SetCreator(this->Archive, "macroscope-synth"), "setting the creator");
    Check(OTF2_Archive_SetDescription(this->Archive,
            "Synthetic MPI+OpenMP trace with an injected perturbation (see ground_truth.json)"),
      "setting the description");
    Check(OTF2_Archive_SetMachineName(this->Archive, Platform::MachineName().c_str()),
      "setting the machine name");
    Check(OTF2_Archive_OpenEvtFiles(this->Archive), "opening the event files");

    this->Writers.resize(platform.LocationCount(), nullptr);
    this->NumberOfEvents.resize(platform.LocationCount(), 0);
  }
  catch (...)
  {
    this->Close();
    throw;
  }
}

TraceWriter::~TraceWriter()
{
  this->Close();
}

void TraceWriter::Close()
{
  if (this->Archive != nullptr)
  {
    OTF2_Archive_Close(this->Archive);
    this->Archive = nullptr;
  }
}

uint64_t TraceWriter::BytesPerOpenLocation()
{
  return EventChunkSize;
}

uint64_t TraceWriter::Timestamp(double time) const
{
  return this->GlobalOffset + uint64_t(std::llround(time * double(this->TimerResolution)));
}

OTF2_EvtWriter* TraceWriter::WriterFor(uint64_t location, double time, EventKind kind)
{
  // Every pass sees every event, so the trace length is known after any pass.
  const uint64_t rank = location / this->Machine.GetThreadsPerRank();
  if (rank < this->RankClockOffset.size())
  {
    time += this->RankClockOffset[rank]; // the rank's own clock
  }
  const uint64_t ticks = this->Timestamp(time);
  this->LastTimestamp = std::max(this->LastTimestamp, ticks);
  if (location < this->PassBegin || location >= this->PassEnd)
  {
    return nullptr; // written in another pass
  }
  this->CurrentTimestamp[location] = ticks;
  ++this->LocationEvents[location];
  ++this->Counts[static_cast<std::size_t>(kind)];
  return this->Writers[location];
}

void TraceWriter::BeginPass(uint64_t firstLocation, uint64_t endLocation)
{
  if (this->PassBegin != this->PassEnd)
  {
    throw std::logic_error("TraceWriter: a pass is still open");
  }
  if (firstLocation >= endLocation || endLocation > this->Writers.size())
  {
    throw std::logic_error("TraceWriter: invalid location range of a pass");
  }
  for (uint64_t index = firstLocation; index < endLocation; ++index)
  {
    const uint32_t rank = uint32_t(index / this->Machine.GetThreadsPerRank());
    const uint32_t thread = uint32_t(index % this->Machine.GetThreadsPerRank());
    OTF2_EvtWriter* writer =
      OTF2_Archive_GetEvtWriter(this->Archive, Platform::LocationId(rank, thread));
    if (writer == nullptr)
    {
      throw std::runtime_error("OTF2: cannot create the event writer of rank " +
        std::to_string(rank) + ", thread " + std::to_string(thread));
    }
    this->Writers[index] = writer;
  }
  this->PassBegin = firstLocation;
  this->PassEnd = endLocation;
}

void TraceWriter::EndPass(const std::function<void(uint64_t done, uint64_t count)>& closed)
{
  for (uint64_t index = this->PassBegin; index < this->PassEnd; ++index)
  {
    // Closing flushes the last chunk, which may still add a BufferFlush
    // record; numberOfEvents must include it.
    uint64_t events = 0;
    Check(OTF2_EvtWriter_GetNumberOfEvents(this->Writers[index], &events),
      "counting the events of a location");
    // The difference to what we wrote are OTF2's BufferFlush records.
    this->Counts[static_cast<std::size_t>(EventKind::BufferFlush)] +=
      events - this->LocationEvents[index];
    Check(
      OTF2_Archive_CloseEvtWriter(this->Archive, this->Writers[index]), "closing an event writer");
    this->Writers[index] = nullptr;
    this->NumberOfEvents[index] = events;
    if (closed)
    {
      closed(index + 1 - this->PassBegin, this->PassEnd - this->PassBegin);
    }
  }
  this->PassBegin = this->PassEnd = 0;
}

void TraceWriter::ProgramBegin(uint64_t location, double time)
{
  if (PajeWriter* paje = this->GetPaje())
  {
    paje->ProgramBegin(location, time);
  }
  OTF2_EvtWriter* writer = this->WriterFor(location, time, EventKind::ProgramBegin);
  if (writer == nullptr)
  {
    return;
  }
  Check(OTF2_EvtWriter_ProgramBegin(
          writer, nullptr, this->CurrentTimestamp[location], ProgramNameString, 0, nullptr),
    "writing ProgramBegin");
}

void TraceWriter::ProgramEnd(uint64_t location, double time)
{
  if (PajeWriter* paje = this->GetPaje())
  {
    paje->ProgramEnd(location, time);
  }
  OTF2_EvtWriter* writer = this->WriterFor(location, time, EventKind::ProgramEnd);
  if (writer == nullptr)
  {
    return;
  }
  Check(OTF2_EvtWriter_ProgramEnd(writer, nullptr, this->CurrentTimestamp[location], 0),
    "writing ProgramEnd");
}

void TraceWriter::Enter(uint64_t location, double time, Region region)
{
  if (PajeWriter* paje = this->GetPaje())
  {
    paje->Enter(location, time, region);
  }
  OTF2_EvtWriter* writer = this->WriterFor(location, time, EventKind::Enter);
  if (writer == nullptr)
  {
    return;
  }
  Check(OTF2_EvtWriter_Enter(
          writer, nullptr, this->CurrentTimestamp[location], static_cast<OTF2_RegionRef>(region)),
    "writing Enter");
}

void TraceWriter::Leave(uint64_t location, double time, Region region)
{
  if (PajeWriter* paje = this->GetPaje())
  {
    paje->Leave(location, time);
  }
  OTF2_EvtWriter* writer = this->WriterFor(location, time, EventKind::Leave);
  if (writer == nullptr)
  {
    return;
  }
  Check(OTF2_EvtWriter_Leave(
          writer, nullptr, this->CurrentTimestamp[location], static_cast<OTF2_RegionRef>(region)),
    "writing Leave");
}

void TraceWriter::Metric(uint64_t location, double time, uint64_t instructions)
{
  if (PajeWriter* paje = this->GetPaje())
  {
    paje->Metric(location, time, instructions);
  }
  OTF2_EvtWriter* writer = this->WriterFor(location, time, EventKind::Metric);
  if (writer == nullptr)
  {
    return;
  }
  const OTF2_Type type = OTF2_TYPE_UINT64;
  OTF2_MetricValue value;
  value.unsigned_int = instructions;
  Check(OTF2_EvtWriter_Metric(
          writer, nullptr, this->CurrentTimestamp[location], InstructionMetric, 1, &type, &value),
    "writing Metric");
}

void TraceWriter::ThreadFork(uint64_t location, double time, uint32_t threads)
{
  if (PajeWriter* paje = this->GetPaje())
  {
    paje->ThreadFork(location, time);
  }
  OTF2_EvtWriter* writer = this->WriterFor(location, time, EventKind::ThreadFork);
  if (writer == nullptr)
  {
    return;
  }
  Check(OTF2_EvtWriter_ThreadFork(
          writer, nullptr, this->CurrentTimestamp[location], OTF2_PARADIGM_OPENMP, threads),
    "writing ThreadFork");
}

void TraceWriter::ThreadJoin(uint64_t location, double time)
{
  if (PajeWriter* paje = this->GetPaje())
  {
    paje->ThreadJoin(location, time);
  }
  OTF2_EvtWriter* writer = this->WriterFor(location, time, EventKind::ThreadJoin);
  if (writer == nullptr)
  {
    return;
  }
  Check(OTF2_EvtWriter_ThreadJoin(
          writer, nullptr, this->CurrentTimestamp[location], OTF2_PARADIGM_OPENMP),
    "writing ThreadJoin");
}

void TraceWriter::MpiSend(
  uint64_t location, double time, uint32_t receiver, uint32_t tag, uint64_t bytes)
{
  if (PajeWriter* paje = this->GetPaje())
  {
    paje->Send(location, time, receiver, tag, bytes);
  }
  OTF2_EvtWriter* writer = this->WriterFor(location, time, EventKind::MpiSend);
  if (writer == nullptr)
  {
    return;
  }
  Check(OTF2_EvtWriter_MpiSend(
          writer, nullptr, this->CurrentTimestamp[location], receiver, WorldComm, tag, bytes),
    "writing MpiSend");
}

void TraceWriter::MpiRecv(
  uint64_t location, double time, uint32_t sender, uint32_t tag, uint64_t bytes)
{
  if (PajeWriter* paje = this->GetPaje())
  {
    paje->Receive(location, time, sender, tag);
  }
  OTF2_EvtWriter* writer = this->WriterFor(location, time, EventKind::MpiRecv);
  if (writer == nullptr)
  {
    return;
  }
  Check(OTF2_EvtWriter_MpiRecv(
          writer, nullptr, this->CurrentTimestamp[location], sender, WorldComm, tag, bytes),
    "writing MpiRecv");
}

void TraceWriter::MpiIsend(
  uint64_t location, double time, uint32_t receiver, uint32_t tag, uint64_t bytes, uint64_t request)
{
  if (PajeWriter* paje = this->GetPaje())
  {
    paje->Send(location, time, receiver, tag, bytes);
  }
  OTF2_EvtWriter* writer = this->WriterFor(location, time, EventKind::MpiIsend);
  if (writer == nullptr)
  {
    return;
  }
  Check(OTF2_EvtWriter_MpiIsend(writer, nullptr, this->CurrentTimestamp[location], receiver,
          WorldComm, tag, bytes, request),
    "writing MpiIsend");
}

void TraceWriter::MpiIsendComplete(uint64_t location, double time, uint64_t request)
{
  OTF2_EvtWriter* writer = this->WriterFor(location, time, EventKind::MpiIsendComplete);
  if (writer == nullptr)
  {
    return;
  }
  Check(OTF2_EvtWriter_MpiIsendComplete(writer, nullptr, this->CurrentTimestamp[location], request),
    "writing MpiIsendComplete");
}

void TraceWriter::MpiIrecvRequest(uint64_t location, double time, uint64_t request)
{
  OTF2_EvtWriter* writer = this->WriterFor(location, time, EventKind::MpiIrecvRequest);
  if (writer == nullptr)
  {
    return;
  }
  Check(OTF2_EvtWriter_MpiIrecvRequest(writer, nullptr, this->CurrentTimestamp[location], request),
    "writing MpiIrecvRequest");
}

void TraceWriter::MpiIrecv(
  uint64_t location, double time, uint32_t sender, uint32_t tag, uint64_t bytes, uint64_t request)
{
  if (PajeWriter* paje = this->GetPaje())
  {
    paje->Receive(location, time, sender, tag);
  }
  OTF2_EvtWriter* writer = this->WriterFor(location, time, EventKind::MpiIrecv);
  if (writer == nullptr)
  {
    return;
  }
  Check(OTF2_EvtWriter_MpiIrecv(writer, nullptr, this->CurrentTimestamp[location], sender,
          WorldComm, tag, bytes, request),
    "writing MpiIrecv");
}

void TraceWriter::MpiCollectiveBegin(uint64_t location, double time)
{
  if (PajeWriter* paje = this->GetPaje())
  {
    paje->CollectiveBegin(location, time);
  }
  OTF2_EvtWriter* writer = this->WriterFor(location, time, EventKind::MpiCollectiveBegin);
  if (writer == nullptr)
  {
    return;
  }
  Check(OTF2_EvtWriter_MpiCollectiveBegin(writer, nullptr, this->CurrentTimestamp[location]),
    "writing MpiCollectiveBegin");
}

void TraceWriter::MpiCollectiveEnd(
  uint64_t location, double time, Collective operation, uint64_t bytes)
{
  if (PajeWriter* paje = this->GetPaje())
  {
    paje->CollectiveEnd(location, time, operation);
  }
  OTF2_EvtWriter* writer = this->WriterFor(location, time, EventKind::MpiCollectiveEnd);
  if (writer == nullptr)
  {
    return;
  }
  const OTF2_CollectiveOp op =
    operation == Collective::Barrier ? OTF2_COLLECTIVE_OP_BARRIER : OTF2_COLLECTIVE_OP_ALLREDUCE;
  Check(OTF2_EvtWriter_MpiCollectiveEnd(writer, nullptr, this->CurrentTimestamp[location], op,
          WorldComm, OTF2_UNDEFINED_UINT32, bytes, bytes),
    "writing MpiCollectiveEnd");
}

void TraceWriter::Finish(SynthesisSummary& summary)
{
  if (this->PassBegin != this->PassEnd)
  {
    throw std::logic_error("TraceWriter: Finish() inside a pass");
  }
  summary.Locations.clear();
  summary.Locations.reserve(this->Writers.size());
  for (uint32_t rank = 0; rank < this->Machine.RankCount(); ++rank)
  {
    for (uint32_t thread = 0; thread < this->Machine.GetThreadsPerRank(); ++thread)
    {
      LocationSummary location;
      location.Id = Platform::LocationId(rank, thread);
      location.Name = Platform::ThreadName(thread);
      location.Rank = rank;
      location.Thread = thread;
      location.Events = this->NumberOfEvents[this->Machine.LocationIndex(rank, thread)];
      summary.Locations.push_back(location);
    }
  }
  Check(OTF2_Archive_CloseEvtFiles(this->Archive), "closing the event files");

  // Score-P writes (empty) local definitions for every location.
  Check(OTF2_Archive_OpenDefFiles(this->Archive), "opening the definition files");
  for (const LocationSummary& location : summary.Locations)
  {
    OTF2_DefWriter* writer = OTF2_Archive_GetDefWriter(this->Archive, location.Id);
    if (writer == nullptr)
    {
      throw std::runtime_error(
        "OTF2: cannot create the definition writer of location " + std::to_string(location.Id));
    }
    Check(OTF2_Archive_CloseDefWriter(this->Archive, writer), "closing a definition writer");
  }
  Check(OTF2_Archive_CloseDefFiles(this->Archive), "closing the definition files");

  this->WriteGlobalDefinitions(summary);
  const OTF2_ErrorCode status = OTF2_Archive_Close(this->Archive);
  this->Archive = nullptr;
  Check(status, "closing the archive");

  summary.Events = this->Counts;
  summary.TotalEvents = TotalOf(this->Counts);
  summary.TimerResolution = this->TimerResolution;
  summary.GlobalOffset = this->GlobalOffset;
  summary.TraceLengthTicks = this->LastTimestamp - this->GlobalOffset;
  summary.TraceLengthSeconds = double(summary.TraceLengthTicks) / double(this->TimerResolution);
}

void TraceWriter::WriteGlobalDefinitions(SynthesisSummary& summary)
{
  OTF2_GlobalDefWriter* defs = OTF2_Archive_GetGlobalDefWriter(this->Archive);
  if (defs == nullptr)
  {
    throw std::runtime_error("OTF2: cannot create the global definition writer");
  }
  const Platform& platform = this->Machine;
  DefinitionCounts& counts = summary.Definitions;
  counts = DefinitionCounts();

  // Intern all strings first; they are written before the records using them.
  StringTable strings;
  strings("synthetic_app"); // ProgramNameString
  const OTF2_StringRef emptyString = strings("");
  const OTF2_StringRef sourceFile = strings("synthetic_app.c");
  const OTF2_StringRef mpiName = strings("MPI");
  const OTF2_StringRef openmpName = strings("OpenMP");
  const OTF2_StringRef machineClass = strings("machine");
  const OTF2_StringRef clusterClass = strings("cluster");
  const OTF2_StringRef nodeClass = strings("node");
  const OTF2_StringRef machineName = strings(Platform::MachineName());
  const OTF2_StringRef worldName = strings("MPI_COMM_WORLD");
  const OTF2_StringRef metricName = strings("PAPI_TOT_INS");
  const OTF2_StringRef metricDescription = strings("Instructions completed");
  const OTF2_StringRef metricUnit = strings("#");
  std::vector<OTF2_StringRef> regionNames, regionDescriptions;
  for (uint32_t region = 0; region < static_cast<uint32_t>(Region::Count); ++region)
  {
    const RegionInfo& info = RegionInfoOf(static_cast<Region>(region));
    regionNames.push_back(strings(info.Name));
    regionDescriptions.push_back(strings(info.Description));
  }
  std::vector<OTF2_StringRef> threadNames;
  for (uint32_t thread = 0; thread < platform.GetThreadsPerRank(); ++thread)
  {
    threadNames.push_back(strings(Platform::ThreadName(thread)));
  }
  // Names of clusters, nodes and ranks are interned where they are used.
  std::vector<OTF2_StringRef> clusterNames, nodeNames, rankNames;
  for (uint32_t cluster = 0; cluster < platform.ClusterCount(); ++cluster)
  {
    clusterNames.push_back(strings(Platform::ClusterName(cluster)));
  }
  for (uint32_t node = 0; node < platform.NodeCount(); ++node)
  {
    nodeNames.push_back(strings(Platform::NodeName(node)));
  }
  for (uint32_t rank = 0; rank < platform.RankCount(); ++rank)
  {
    rankNames.push_back(strings(Platform::RankName(rank)));
  }

  Check(OTF2_GlobalDefWriter_WriteClockProperties(defs, this->TimerResolution, this->GlobalOffset,
          this->LastTimestamp - this->GlobalOffset, RealtimeStartNanoseconds),
    "writing ClockProperties");
  for (std::size_t ref = 0; ref < strings.GetTexts().size(); ++ref)
  {
    Check(
      OTF2_GlobalDefWriter_WriteString(defs, OTF2_StringRef(ref), strings.GetTexts()[ref].c_str()),
      "writing a String");
    ++counts.Strings;
  }

  Check(OTF2_GlobalDefWriter_WriteParadigm(
          defs, OTF2_PARADIGM_MPI, mpiName, OTF2_PARADIGM_CLASS_PROCESS),
    "writing the MPI Paradigm");
  ++counts.Paradigms;
  Check(OTF2_GlobalDefWriter_WriteParadigm(
          defs, OTF2_PARADIGM_OPENMP, openmpName, OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN),
    "writing the OpenMP Paradigm");
  ++counts.Paradigms;

  // System tree: 0 = machine, then the clusters, then the nodes.
  const OTF2_SystemTreeNodeRef machineNode = 0;
  auto clusterNode = [&](uint32_t cluster) { return OTF2_SystemTreeNodeRef(1 + cluster); };
  auto nodeNode = [&](uint32_t node)
  { return OTF2_SystemTreeNodeRef(1 + platform.ClusterCount() + node); };
  Check(OTF2_GlobalDefWriter_WriteSystemTreeNode(
          defs, machineNode, machineName, machineClass, OTF2_UNDEFINED_SYSTEM_TREE_NODE),
    "writing a SystemTreeNode");
  ++counts.SystemTreeNodes;
  for (uint32_t cluster = 0; cluster < platform.ClusterCount(); ++cluster)
  {
    Check(OTF2_GlobalDefWriter_WriteSystemTreeNode(
            defs, clusterNode(cluster), clusterNames[cluster], clusterClass, machineNode),
      "writing a SystemTreeNode");
    ++counts.SystemTreeNodes;
  }
  for (uint32_t node = 0; node < platform.NodeCount(); ++node)
  {
    Check(OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, nodeNode(node), nodeNames[node], nodeClass,
            clusterNode(platform.ClusterOfNode(node))),
      "writing a SystemTreeNode");
    ++counts.SystemTreeNodes;
  }

  for (uint32_t rank = 0; rank < platform.RankCount(); ++rank)
  {
    Check(OTF2_GlobalDefWriter_WriteLocationGroup(defs, rank, rankNames[rank],
            OTF2_LOCATION_GROUP_TYPE_PROCESS, nodeNode(platform.NodeOfRank(rank)),
            OTF2_UNDEFINED_LOCATION_GROUP),
      "writing a LocationGroup");
    ++counts.LocationGroups;
  }
  for (const LocationSummary& location : summary.Locations)
  {
    Check(OTF2_GlobalDefWriter_WriteLocation(defs, location.Id, threadNames[location.Thread],
            OTF2_LOCATION_TYPE_CPU_THREAD, location.Events, location.Rank),
      "writing a Location");
    ++counts.Locations;
  }

  for (uint32_t region = 0; region < static_cast<uint32_t>(Region::Count); ++region)
  {
    const RegionInfo& info = RegionInfoOf(static_cast<Region>(region));
    const bool isUserCode =
      info.Paradigm == OTF2_PARADIGM_USER || info.Paradigm == OTF2_PARADIGM_COMPILER;
    Check(OTF2_GlobalDefWriter_WriteRegion(defs, region, regionNames[region], regionNames[region],
            regionDescriptions[region], info.Role, info.Paradigm, OTF2_REGION_FLAG_NONE,
            isUserCode ? sourceFile : emptyString, isUserCode ? 10 * (region + 1) : 0,
            isUserCode ? 10 * (region + 1) + 8 : 0),
      "writing a Region");
    ++counts.Regions;
  }

  // MPI_COMM_WORLD as Score-P writes it: the master locations in rank order
  // (COMM_LOCATIONS), the communicator's group of ranks 0..n-1 (COMM_GROUP),
  // and the communicator referring to the latter.
  std::vector<uint64_t> members(platform.RankCount());
  for (uint32_t rank = 0; rank < platform.RankCount(); ++rank)
  {
    members[rank] = Platform::LocationId(rank, 0);
  }
  Check(OTF2_GlobalDefWriter_WriteGroup(defs, 0, emptyString, OTF2_GROUP_TYPE_COMM_LOCATIONS,
          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, platform.RankCount(), members.data()),
    "writing the MPI locations Group");
  for (uint32_t rank = 0; rank < platform.RankCount(); ++rank)
  {
    members[rank] = rank;
  }
  Check(OTF2_GlobalDefWriter_WriteGroup(defs, 1, emptyString, OTF2_GROUP_TYPE_COMM_GROUP,
          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, platform.RankCount(), members.data()),
    "writing the MPI_COMM_WORLD Group");
  counts.Groups += 2;
  Check(OTF2_GlobalDefWriter_WriteComm(
          defs, WorldComm, worldName, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
    "writing MPI_COMM_WORLD");
  ++counts.Comms;

  const OTF2_MetricMemberRef member = 0;
  Check(OTF2_GlobalDefWriter_WriteMetricMember(defs, member, metricName, metricDescription,
          OTF2_METRIC_TYPE_PAPI, OTF2_METRIC_ACCUMULATED_START, OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL,
          0, metricUnit),
    "writing a MetricMember");
  ++counts.MetricMembers;
  Check(OTF2_GlobalDefWriter_WriteMetricClass(defs, InstructionMetric, 1, &member,
          OTF2_METRIC_SYNCHRONOUS_STRICT, OTF2_RECORDER_KIND_CPU),
    "writing a MetricClass");
  ++counts.MetricClasses;
}

} // namespace macroscope::synth
