#include "OTF2RecordKind.h"

#include <iterator>

namespace macroscope::otf2
{

namespace
{
template <std::size_t N>
std::string Lookup(const char* const (&names)[N], uint64_t value, const char* prefix)
{
  if (value < N)
  {
    return names[value];
  }
  return std::string(prefix) + std::to_string(value);
}
}

const char* RecordKindName(RecordKind kind)
{
  static const char* const names[] = { "Enter", "Leave", "Metric", "MpiSend", "MpiRecv", "MpiIsend",
    "MpiIsendComplete", "MpiIrecvRequest", "MpiIrecv", "MpiRequestCancelled", "ProgramBegin",
    "ProgramEnd", "MpiCollectiveBegin", "MpiCollectiveEnd", "ThreadFork", "ThreadJoin",
    "ThreadTeamBegin", "ThreadTeamEnd", "ThreadCreate", "ThreadBegin", "ThreadWait", "ThreadEnd",
    "ThreadAcquireLock", "ThreadReleaseLock", "ThreadTaskCreate", "ThreadTaskSwitch",
    "ThreadTaskComplete", "BufferFlush", "MeasurementOnOff" };
  static_assert(std::size(names) == RecordKindCount, "one name per record kind");
  return std::size_t(kind) < RecordKindCount ? names[std::size_t(kind)] : "Unknown";
}

// Paradigm names as tools show them; OTF2_PARADIGM_* in enumeration order.
std::string ParadigmName(uint32_t paradigm)
{
  static const char* const names[] = { "unknown", "user", "compiler", "OpenMP", "MPI", "CUDA",
    "measurement", "pthread", "HMPP", "OmpSs", "hardware", "GASPI", "UPC", "SHMEM", "WinThread",
    "QtThread", "ACE thread", "TBB thread", "OpenACC", "OpenCL", "MTAPI", "sampling", "none", "HIP",
    "Kokkos" };
  return Lookup(names, paradigm, "paradigm ");
}

// OTF2_REGION_ROLE_* in enumeration order, lower case with '_' as in OTF2.
std::string RegionRoleName(uint32_t role)
{
  static const char* const names[] = { "unknown", "function", "wrapper", "loop", "code", "parallel",
    "sections", "section", "workshare", "single", "single_sblock", "master", "critical",
    "critical_sblock", "atomic", "barrier", "implicit_barrier", "flush", "ordered",
    "ordered_sblock", "task", "task_create", "task_wait", "coll_one2all", "coll_all2one",
    "coll_all2all", "coll_other", "file_io", "point2point", "rma", "data_transfer", "artificial",
    "thread_create", "thread_wait", "task_untied", "allocate", "deallocate", "reallocate",
    "file_io_metadata" };
  return Lookup(names, role, "role ");
}

// Hierarchy kinds of locations: OTF2_LOCATION_TYPE_* (accelerator streams
// are shown as "gpu", the name OTF2 itself used before 3.0).
std::string LocationTypeName(uint32_t locationType)
{
  static const char* const names[] = { "location", "thread", "gpu", "metric" };
  return Lookup(names, locationType, "location type ");
}

std::string LocationGroupTypeName(uint32_t locationGroupType)
{
  static const char* const names[] = { "group", "process", "accelerator" };
  return Lookup(names, locationGroupType, "group type ");
}

std::string CollectiveOperationName(int32_t operation)
{
  static const char* const names[] = { "Barrier", "Bcast", "Gather", "Gatherv", "Scatter",
    "Scatterv", "Allgather", "Allgatherv", "Alltoall", "Alltoallv", "Alltoallw", "Allreduce",
    "Reduce", "ReduceScatter", "Scan", "Exscan", "ReduceScatterBlock", "CreateHandle",
    "DestroyHandle", "Allocate", "Deallocate", "CreateHandleAndAllocate",
    "DestroyHandleAndDeallocate" };
  if (operation < 0)
  {
    return "";
  }
  return Lookup(names, uint64_t(operation), "operation ");
}

} // namespace macroscope::otf2
