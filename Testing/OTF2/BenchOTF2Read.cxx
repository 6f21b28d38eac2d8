// Measures the OTF2 decoder against bare OTF2 reading loops over the same
// archive; driven by Testing/Benchmarks/bench_otf2_read.sh.
//
//   macroscope-otf2-bench MODE ANCHOR [REPETITIONS]
//
// MODE is one of
//   global   OTF2's global event reader (merged in time order), callbacks empty
//   local    one event reader per location, read one after the other, callbacks empty
//   decode   macroscope::otf2::ReadTrace, i.e. to tables
// Prints "mode=... events=... seconds=... events_per_second=... peak_rss_kb=...
// table_bytes=..." on one line; seconds is the best of the repetitions. The
// decoder's time ends when its tables are made, before they are freed.
#include "MacroscopeOTF2.h"

#include <otf2/otf2.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace
{

// Empty callbacks: per-location readers pass the event position, the
// global reader does not.
template <typename... Arguments>
OTF2_CallbackCode ignoreLocal(
  OTF2_LocationRef, OTF2_TimeStamp, uint64_t, void*, OTF2_AttributeList*, Arguments...)
{
  return OTF2_CALLBACK_SUCCESS;
}

template <typename... Arguments>
OTF2_CallbackCode ignoreGlobal(
  OTF2_LocationRef, OTF2_TimeStamp, void*, OTF2_AttributeList*, Arguments...)
{
  return OTF2_CALLBACK_SUCCESS;
}

void fail(const std::string& what, OTF2_ErrorCode status)
{
  std::cerr << what << ": " << OTF2_Error_GetName(status) << "\n";
  std::exit(1);
}

// The record kinds the synthesizer writes and the decoder handles, each with
// a callback that returns at once: OTF2 then decodes every record fully,
// which is the work the decoder cannot avoid.
#define MACROSCOPE_EMPTY_CALLBACKS(PREFIX, c, ignoreMore)                                          \
  PREFIX##_SetEnterCallback(c, &ignoreMore<OTF2_RegionRef>);                                       \
  PREFIX##_SetLeaveCallback(c, &ignoreMore<OTF2_RegionRef>);                                       \
  PREFIX##_SetMetricCallback(                                                                      \
    c, &ignoreMore<OTF2_MetricRef, uint8_t, const OTF2_Type*, const OTF2_MetricValue*>);           \
  PREFIX##_SetMpiSendCallback(c, &ignoreMore<uint32_t, OTF2_CommRef, uint32_t, uint64_t>);         \
  PREFIX##_SetMpiRecvCallback(c, &ignoreMore<uint32_t, OTF2_CommRef, uint32_t, uint64_t>);         \
  PREFIX##_SetMpiIsendCallback(                                                                    \
    c, &ignoreMore<uint32_t, OTF2_CommRef, uint32_t, uint64_t, uint64_t>);                         \
  PREFIX##_SetMpiIrecvCallback(                                                                    \
    c, &ignoreMore<uint32_t, OTF2_CommRef, uint32_t, uint64_t, uint64_t>);                         \
  PREFIX##_SetMpiIsendCompleteCallback(c, &ignoreMore<uint64_t>);                                  \
  PREFIX##_SetMpiIrecvRequestCallback(c, &ignoreMore<uint64_t>);                                   \
  PREFIX##_SetMpiCollectiveBeginCallback(c, &ignoreMore<>);                                        \
  PREFIX##_SetMpiCollectiveEndCallback(                                                            \
    c, &ignoreMore<OTF2_CollectiveOp, OTF2_CommRef, uint32_t, uint64_t, uint64_t>);                \
  PREFIX##_SetProgramBeginCallback(                                                                \
    c, &ignoreMore<OTF2_StringRef, uint32_t, const OTF2_StringRef*>);                              \
  PREFIX##_SetProgramEndCallback(c, &ignoreMore<int64_t>);                                         \
  PREFIX##_SetThreadForkCallback(c, &ignoreMore<OTF2_Paradigm, uint32_t>);                         \
  PREFIX##_SetThreadJoinCallback(c, &ignoreMore<OTF2_Paradigm>);                                   \
  PREFIX##_SetBufferFlushCallback(c, &ignoreMore<OTF2_TimeStamp>)

struct Archive
{
  OTF2_Reader* Reader = nullptr;
  std::vector<OTF2_LocationRef> Locations;

  explicit Archive(const std::string& anchor)
  {
    this->Reader = OTF2_Reader_Open(anchor.c_str());
    if (this->Reader == nullptr)
    {
      std::cerr << "cannot open " << anchor << "\n";
      std::exit(1);
    }
    OTF2_Reader_SetSerialCollectiveCallbacks(this->Reader);
    OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(this->Reader);
    OTF2_GlobalDefReaderCallbacks* callbacks = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(callbacks,
      [](void* userData, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType, uint64_t,
        OTF2_LocationGroupRef)
      {
        static_cast<Archive*>(userData)->Locations.push_back(self);
        return OTF2_CALLBACK_SUCCESS;
      });
    OTF2_Reader_RegisterGlobalDefCallbacks(this->Reader, defs, callbacks, this);
    OTF2_GlobalDefReaderCallbacks_Delete(callbacks);
    uint64_t read = 0;
    const OTF2_ErrorCode status = OTF2_Reader_ReadAllGlobalDefinitions(this->Reader, defs, &read);
    if (status != OTF2_SUCCESS)
    {
      fail("reading the definitions", status);
    }
    OTF2_Reader_CloseGlobalDefReader(this->Reader, defs);
    for (OTF2_LocationRef location : this->Locations)
    {
      OTF2_Reader_SelectLocation(this->Reader, location);
    }
    OTF2_Reader_OpenEvtFiles(this->Reader);
  }
  ~Archive() { OTF2_Reader_Close(this->Reader); }
};

uint64_t readGlobal(const std::string& anchor)
{
  Archive archive(anchor);
  for (OTF2_LocationRef location : archive.Locations)
  {
    OTF2_Reader_GetEvtReader(archive.Reader, location);
  }
  OTF2_GlobalEvtReader* reader = OTF2_Reader_GetGlobalEvtReader(archive.Reader);
  OTF2_GlobalEvtReaderCallbacks* callbacks = OTF2_GlobalEvtReaderCallbacks_New();
  MACROSCOPE_EMPTY_CALLBACKS(OTF2_GlobalEvtReaderCallbacks, callbacks, ignoreGlobal);
  OTF2_Reader_RegisterGlobalEvtCallbacks(archive.Reader, reader, callbacks, nullptr);
  OTF2_GlobalEvtReaderCallbacks_Delete(callbacks);
  uint64_t events = 0;
  const OTF2_ErrorCode status = OTF2_Reader_ReadAllGlobalEvents(archive.Reader, reader, &events);
  if (status != OTF2_SUCCESS)
  {
    fail("reading the events", status);
  }
  OTF2_Reader_CloseGlobalEvtReader(archive.Reader, reader);
  return events;
}

uint64_t readLocal(const std::string& anchor)
{
  Archive archive(anchor);
  OTF2_EvtReaderCallbacks* callbacks = OTF2_EvtReaderCallbacks_New();
  MACROSCOPE_EMPTY_CALLBACKS(OTF2_EvtReaderCallbacks, callbacks, ignoreLocal);
  uint64_t total = 0;
  for (OTF2_LocationRef location : archive.Locations)
  {
    OTF2_EvtReader* reader = OTF2_Reader_GetEvtReader(archive.Reader, location);
    OTF2_Reader_RegisterEvtCallbacks(archive.Reader, reader, callbacks, nullptr);
    uint64_t events = 0;
    const OTF2_ErrorCode status = OTF2_Reader_ReadAllLocalEvents(archive.Reader, reader, &events);
    if (status != OTF2_SUCCESS)
    {
      fail("reading the events", status);
    }
    total += events;
    OTF2_Reader_CloseEvtReader(archive.Reader, reader);
  }
  OTF2_EvtReaderCallbacks_Delete(callbacks);
  return total;
}

} // namespace

int main(int argc, char** argv)
{
  if (argc < 3)
  {
    std::cerr << "usage: " << argv[0] << " global|local|decode ANCHOR [REPETITIONS]\n";
    return 2;
  }
  const std::string mode = argv[1];
  const std::string anchor = argv[2];
  const int repetitions = argc > 3 ? std::max(1, std::atoi(argv[3])) : 3;
  double best = 1e300;
  uint64_t events = 0;
  std::size_t tableBytes = 0;
  // The tables outlive the measurement: reading ends with the tables made,
  // and freeing them (unmapping some 150 MB) is their user's business, as
  // in the VTK reader's benchmark. They are freed before the next run.
  macroscope::otf2::TraceData trace;
  for (int repetition = 0; repetition < repetitions; ++repetition)
  {
    trace = {};
    const auto start = std::chrono::steady_clock::now();
    if (mode == "global")
    {
      events = readGlobal(anchor);
    }
    else if (mode == "local")
    {
      events = readLocal(anchor);
    }
    else if (mode == "decode")
    {
      try
      {
        trace = macroscope::otf2::ReadTrace(anchor);
        events = trace.Report.EventsRead;
        tableBytes = trace.TableBytes();
      }
      catch (const std::exception& error)
      {
        std::cerr << error.what() << "\n";
        return 1;
      }
    }
    else
    {
      std::cerr << "unknown mode '" << mode << "'\n";
      return 2;
    }
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    best = std::min(best, elapsed.count());
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::cout << "mode=" << mode << " events=" << events << " seconds=" << best
            << " events_per_second=" << uint64_t(double(events) / best)
            << " peak_rss_kb=" << usage.ru_maxrss << " table_bytes=" << tableBytes << "\n";
  return 0;
}
