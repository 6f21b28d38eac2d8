// The OTF2 event records the decoder maps to tables, and the names Macroscope
// gives to OTF2 enumerations (paradigms, region roles, location types, ...).
#ifndef macroscope_otf2_OTF2RecordKind_h
#define macroscope_otf2_OTF2RecordKind_h

#include <cstddef>
#include <cstdint>
#include <string>

namespace macroscope::otf2
{

/// Decoded OTF2 event record kinds. The instant ones, from ProgramBegin on,
/// are also the event types of the Events table, in this order.
enum class RecordKind : std::size_t
{
  Enter,
  Leave,
  Metric,
  MpiSend,
  MpiRecv,
  MpiIsend,
  MpiIsendComplete,
  MpiIrecvRequest,
  MpiIrecv,
  MpiRequestCancelled,
  // Instant events:
  ProgramBegin,
  ProgramEnd,
  MpiCollectiveBegin,
  MpiCollectiveEnd,
  ThreadFork,
  ThreadJoin,
  ThreadTeamBegin,
  ThreadTeamEnd,
  ThreadCreate,
  ThreadBegin,
  ThreadWait,
  ThreadEnd,
  ThreadAcquireLock,
  ThreadReleaseLock,
  ThreadTaskCreate,
  ThreadTaskSwitch,
  ThreadTaskComplete,
  BufferFlush,
  MeasurementOnOff,
  Count
};

constexpr std::size_t RecordKindCount = std::size_t(RecordKind::Count);
constexpr std::size_t FirstInstantKind = std::size_t(RecordKind::ProgramBegin);
constexpr std::size_t InstantKindCount = RecordKindCount - FirstInstantKind;

/// The OTF2 record name without prefix, e.g. "MpiIsendComplete".
const char* RecordKindName(RecordKind kind);

/// Names of OTF2 enumeration values; numbers for values OTF2 may add later.
std::string ParadigmName(uint32_t paradigm);
std::string RegionRoleName(uint32_t role);
std::string LocationTypeName(uint32_t locationType);
std::string LocationGroupTypeName(uint32_t locationGroupType);
std::string CollectiveOperationName(int32_t operation);

} // namespace macroscope::otf2

#endif
