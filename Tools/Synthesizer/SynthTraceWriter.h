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

const char* regionName(Region region);

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
  /// Closes the archive if finish() was not reached (error paths).
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  /// Memory one open event writer holds: its event chunk. (Full chunks bypass
  /// the POSIX substrate's per-file buffer; only the last, partial chunk is
  /// copied into such a buffer, which is freed when the file is closed, so
  /// endPass() needs one more of them at a time.)
  static uint64_t bytesPerOpenLocation();

  /// Opens the event writers of locations [firstLocation, endLocation)
  /// (Platform::locationIndex()); until endPass(), only their events are
  /// written and counted, all others are ignored.
  void beginPass(uint64_t firstLocation, uint64_t endLocation);
  /// Closes the pass's event writers and records their numberOfEvents.
  /// `closed(done, count)` is called after each of the pass's `count`
  /// event files is closed (which writes its last chunk out: a quarter to a
  /// third of a run's time); it may throw to stop.
  void endPass(const std::function<void(uint64_t done, uint64_t count)>& closed = {});

  // Events. `location` is Platform::locationIndex(); `time` is in seconds
  // since trace start and must not decrease per location.
  void programBegin(uint64_t location, double time);
  void programEnd(uint64_t location, double time);
  void enter(uint64_t location, double time, Region region);
  void leave(uint64_t location, double time, Region region);
  void metric(uint64_t location, double time, uint64_t instructions);
  void threadFork(uint64_t location, double time, uint32_t threads);
  void threadJoin(uint64_t location, double time);
  void mpiSend(uint64_t location, double time, uint32_t receiver, uint32_t tag, uint64_t bytes);
  void mpiRecv(uint64_t location, double time, uint32_t sender, uint32_t tag, uint64_t bytes);
  void mpiIsend(uint64_t location, double time, uint32_t receiver, uint32_t tag, uint64_t bytes,
    uint64_t request);
  void mpiIsendComplete(uint64_t location, double time, uint64_t request);
  void mpiIrecvRequest(uint64_t location, double time, uint64_t request);
  void mpiIrecv(uint64_t location, double time, uint32_t sender, uint32_t tag, uint64_t bytes,
    uint64_t request);
  void mpiCollectiveBegin(uint64_t location, double time);
  void mpiCollectiveEnd(uint64_t location, double time, Collective operation, uint64_t bytes);

  /// After the last pass (every location must have been in exactly one),
  /// closes the event files, writes local and global definitions and
  /// closes the archive; fills the summary's counts, locations and clock.
  void finish(SynthesisSummary& summary);

  /// Also hands every event of the first pass to `paje` (which sees each
  /// event once, whatever the number of passes); nullptr detaches.
  void attachPaje(PajeWriter* paje) { this->Paje = paje; }

  /// Unsynchronised clocks (SynthConfig::ClockOffsets): seconds added to the
  /// timestamps of each rank's locations; ranks beyond the list keep 0.
  void setClockOffsets(const std::vector<double>& perRank) { this->RankClockOffset = perRank; }

  /// Archive timestamp of a simulated time.
  uint64_t timestamp(double time) const;
  uint64_t globalOffset() const { return this->GlobalOffset; }

private:
  struct Callbacks;
  OTF2_EvtWriter_struct* writerFor(uint64_t location, double time, EventKind kind);
  /// The Pajé writer during the first pass, else nullptr.
  PajeWriter* paje() const { return this->PassBegin == 0 && this->PassEnd > 0 ? this->Paje : nullptr; }
  void writeGlobalDefinitions(SynthesisSummary& summary);
  void close();

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
