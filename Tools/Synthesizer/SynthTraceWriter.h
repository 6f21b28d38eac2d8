// Internal: streams events into an OTF2 archive, one event writer per
// location, and writes the global definitions last, as Score-P does, so that
// every Location carries its exact number of events. Event writers are open
// only during a pass over a contiguous range of locations: the simulation is
// replayed once per pass and the events of other locations are dropped, which
// bounds the number of open event files (and OTF2's buffers) by the range.
#ifndef macroscope_synth_SynthTraceWriter_h
#define macroscope_synth_SynthTraceWriter_h

#include "SynthPlatform.h"
#include "SynthSummary.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

struct OTF2_Archive_struct;
struct OTF2_EvtWriter_struct;

namespace macroscope::synth
{

/// Regions of the simulated application, in definition order.
enum class Region : uint32_t
{
  Main,
  Iteration,
  Compute,
  ExchangeHalo,
  TreeGather,
  TreeScatter,
  ReduceResidual,
  MpiInit,
  MpiFinalize,
  MpiSend,
  MpiRecv,
  MpiIsend,
  MpiIrecv,
  MpiWaitall,
  MpiAllreduce,
  MpiBarrier,
  OmpParallel,
  OmpImplicitBarrier,
  Count
};

const char* RegionName(Region region);

enum class Collective
{
  Barrier,
  Allreduce
};

class PajeWriter;

class TraceWriter
{
public:
  /// Opens `directory`/traces.otf2 for writing; the directory must not hold
  /// an archive already.
  TraceWriter(const std::string& directory, const Platform& platform, uint64_t timerResolution);
  /// Closes the archive if Finish() was not reached (error paths).
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  /// Memory one open event writer holds: its event chunk. (Full chunks bypass
  /// the POSIX substrate's per-file buffer; only the last, partial chunk is
  /// copied into such a buffer, which is freed when the file is closed, so
  /// EndPass() needs one more of them at a time.)
  static uint64_t BytesPerOpenLocation();

  /// Opens the event writers of locations [firstLocation, endLocation)
  /// (Platform::LocationIndex()); until EndPass(), only their events are
  /// written and counted, all others are ignored.
  void BeginPass(uint64_t firstLocation, uint64_t endLocation);
  /// Closes the pass's event writers and records their numberOfEvents.
  /// `closed(done, count)` is called after each of the pass's `count`
  /// event files is closed (which writes its last chunk out: a quarter to a
  /// third of a run's time); it may throw to stop.
  void EndPass(const std::function<void(uint64_t done, uint64_t count)>& closed = {});

  // Events. `location` is Platform::LocationIndex(); `time` is in seconds
  // since trace start and must not decrease per location.
  void ProgramBegin(uint64_t location, double time);
  void ProgramEnd(uint64_t location, double time);
  void Enter(uint64_t location, double time, Region region);
  void Leave(uint64_t location, double time, Region region);
  void Metric(uint64_t location, double time, uint64_t instructions);
  void ThreadFork(uint64_t location, double time, uint32_t threads);
  void ThreadJoin(uint64_t location, double time);
  void MpiSend(uint64_t location, double time, uint32_t receiver, uint32_t tag, uint64_t bytes);
  void MpiRecv(uint64_t location, double time, uint32_t sender, uint32_t tag, uint64_t bytes);
  void MpiIsend(uint64_t location, double time, uint32_t receiver, uint32_t tag, uint64_t bytes,
    uint64_t request);
  void MpiIsendComplete(uint64_t location, double time, uint64_t request);
  void MpiIrecvRequest(uint64_t location, double time, uint64_t request);
  void MpiIrecv(uint64_t location, double time, uint32_t sender, uint32_t tag, uint64_t bytes,
    uint64_t request);
  void MpiCollectiveBegin(uint64_t location, double time);
  void MpiCollectiveEnd(uint64_t location, double time, Collective operation, uint64_t bytes);

  /// After the last pass (every location must have been in exactly one),
  /// closes the event files, writes local and global definitions and
  /// closes the archive; fills the summary's counts, locations and clock.
  void Finish(SynthesisSummary& summary);

  /// Also hands every event of the first pass to `paje` (which sees each
  /// event once, whatever the number of passes); nullptr detaches.
  void AttachPaje(PajeWriter* paje) { this->Paje = paje; }

  /// Unsynchronised clocks (SynthConfig::ClockOffsets): seconds added to the
  /// timestamps of each rank's locations; ranks beyond the list keep 0.
  void SetClockOffsets(const std::vector<double>& perRank) { this->RankClockOffset = perRank; }

  /// Archive timestamp of a simulated time.
  uint64_t Timestamp(double time) const;
  uint64_t GetGlobalOffset() const { return this->GlobalOffset; }

private:
  struct Callbacks;
  OTF2_EvtWriter_struct* WriterFor(uint64_t location, double time, EventKind kind);
  /// The Pajé writer during the first pass, else nullptr.
  PajeWriter* GetPaje() const
  {
    return this->PassBegin == 0 && this->PassEnd > 0 ? this->Paje : nullptr;
  }
  void WriteGlobalDefinitions(SynthesisSummary& summary);
  void Close();

  const Platform& Machine;
  std::vector<double> RankClockOffset;
  uint64_t TimerResolution;
  uint64_t GlobalOffset;
  OTF2_Archive_struct* Archive = nullptr;
  std::vector<OTF2_EvtWriter_struct*> Writers;
  /// Last timestamp per location, for the post-flush callback.
  std::vector<uint64_t> CurrentTimestamp;
  std::vector<uint64_t> LocationEvents;
  /// Per location: numberOfEvents as OTF2 reported it when the pass closed it.
  std::vector<uint64_t> NumberOfEvents;
  /// Locations of the open pass; empty between passes.
  uint64_t PassBegin = 0;
  uint64_t PassEnd = 0;
  EventCounts Counts{};
  uint64_t LastTimestamp = 0;
  PajeWriter* Paje = nullptr;
};

} // namespace macroscope::synth

#endif
