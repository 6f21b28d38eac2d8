// Test helper: reads a synthesized archive back with the OTF2 reader API and
// checks the invariants any trace reader relies on.
#ifndef macroscope_synth_ArchiveReadback_h
#define macroscope_synth_ArchiveReadback_h

#include "SynthSummary.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace macroscope::synth::testing
{

/// A point-to-point message after matching its send and receive records.
struct MatchedMessage
{
  uint32_t Sender = 0;
  uint32_t Receiver = 0;
  uint32_t Tag = 0;
  uint64_t Bytes = 0;
  uint64_t SendTime = 0;    ///< MpiSend / MpiIsend timestamp
  uint64_t ReceiveTime = 0; ///< MpiRecv / MpiIrecv timestamp
};

/// A state of the "compute" region.
struct ComputeState
{
  uint64_t Location = 0;
  uint32_t Rank = 0;
  uint64_t Begin = 0;
  uint64_t End = 0;
};

struct Readback
{
  // Definitions.
  uint64_t TimerResolution = 0;
  uint64_t GlobalOffset = 0;
  uint64_t TraceLength = 0;
  std::map<uint64_t, uint32_t> RankOfLocation;
  std::map<uint64_t, uint64_t> DeclaredEvents; ///< Location numberOfEvents
  std::map<uint32_t, std::string> NodeOfRank;  ///< system tree parent's name
  std::map<uint32_t, std::string> RegionNames;

  // Events.
  EventCounts Counts{};
  std::map<uint64_t, uint64_t> EventsPerLocation;
  std::vector<MatchedMessage> Messages;
  std::vector<ComputeState> ComputeStates;

  /// Every broken invariant, in words; empty for a valid archive.
  std::vector<std::string> Violations;
};

/// Reads `anchorFile`; OTF2 failures are reported as violations.
Readback readArchive(const std::string& anchorFile);

} // namespace macroscope::synth::testing

#endif
