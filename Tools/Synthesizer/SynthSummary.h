// What synthesize() wrote: record counts per kind and per location,
// definition counts, and the clock of the archive.
#ifndef macroscope_synth_SynthSummary_h
#define macroscope_synth_SynthSummary_h

#include "SynthConfig.h"
#include "SynthGroundTruth.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace macroscope::synth
{

/// The OTF2 event record kinds the synthesizer writes. BufferFlush records
/// are inserted by OTF2 itself whenever a location's chunk is flushed.
enum class EventKind : std::size_t
{
  ProgramBegin,
  ProgramEnd,
  Enter,
  Leave,
  Metric,
  ThreadFork,
  ThreadJoin,
  MpiSend,
  MpiRecv,
  MpiIsend,
  MpiIsendComplete,
  MpiIrecvRequest,
  MpiIrecv,
  MpiCollectiveBegin,
  MpiCollectiveEnd,
  BufferFlush,
  Count
};

constexpr std::size_t EventKindCount = static_cast<std::size_t>(EventKind::Count);
using EventCounts = std::array<uint64_t, EventKindCount>;

/// The OTF2 record name without prefix, e.g. "MpiIsendComplete".
const char* ToString(EventKind kind);
uint64_t TotalOf(const EventCounts& counts);

struct LocationSummary
{
  uint64_t Id = 0; ///< OTF2 location id
  std::string Name;
  uint32_t Rank = 0;
  uint32_t Thread = 0;
  uint64_t Events = 0; ///< as in the Location definition's numberOfEvents
};

struct DefinitionCounts
{
  uint64_t Strings = 0;
  uint64_t Paradigms = 0;
  uint64_t SystemTreeNodes = 0;
  uint64_t LocationGroups = 0;
  uint64_t Locations = 0;
  uint64_t Regions = 0;
  uint64_t Groups = 0;
  uint64_t Comms = 0;
  uint64_t MetricMembers = 0;
  uint64_t MetricClasses = 0;
};

struct SynthesisSummary
{
  /// The configuration as run (Iterations resolved from MinimumEvents).
  SynthConfig Config;
  std::string AnchorFile;
  uint64_t Iterations = 0;
  uint64_t TimerResolution = 0;
  uint64_t GlobalOffset = 0;
  uint64_t TraceLengthTicks = 0;
  double TraceLengthSeconds = 0.0;
  EventCounts Events{};
  uint64_t TotalEvents = 0;
  std::vector<LocationSummary> Locations;
  DefinitionCounts Definitions;
  GroundTruth Truth;
  /// Passes over the simulation (see SynthConfig::MemoryBudgetMB) and the
  /// locations whose event files each had open; not part of the side files.
  uint64_t Passes = 0;
  uint64_t LocationsPerPass = 0;
  /// The Pajé trace (SynthConfig::PajeFile) and its event lines (not
  /// counting the header and comments); empty and 0 without one.
  std::string PajeFile;
  uint64_t PajeLines = 0;
};

} // namespace macroscope::synth

#endif
