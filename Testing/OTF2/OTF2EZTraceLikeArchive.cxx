// An archive shaped like EZTrace 2.0's, written with OTF2's writer (see
// OTF2TestArchives.h), shared by the decoder's tests and the tool
// macroscope-otf2-write-eztrace-like, which the Python tests run.
#include "OTF2TestArchives.h"

#include <iterator>

namespace macroscope::otf2::testing
{

const std::vector<std::string> EZTraceLikeRegionNames = { "Working", "EZTrace finalize", "MPI_Send",
  "MPI_Recv", "MPI_Sendrecv", "MPI_Irecv", "MPI_Isend", "MPI_Waitall" };

namespace
{
constexpr uint64_t Resolution = 1000;                          // ticks are milliseconds
constexpr uint64_t Location[3] = { 0, 536870911, 1073741822 }; // EZTrace's ids
constexpr OTF2_CommRef World = 0, Sub = 1;
constexpr uint32_t ProcNull = uint32_t(-2); // Open MPI's MPI_PROC_NULL

enum Name : uint32_t
{
  Working,
  Finalize,
  Send,
  Recv,
  Sendrecv,
  Irecv,
  Isend,
  Waitall
};

// Each rank has its own Region ids for the same names, as in EZTrace.
OTF2_RegionRef region(uint32_t rank, Name name)
{
  return OTF2_RegionRef(rank * 100 + name);
}

void enter(OTF2_EvtWriter* w, uint64_t time, uint32_t rank, Name name)
{
  check(OTF2_EvtWriter_Enter(w, nullptr, time, region(rank, name)), "Enter");
}
void leave(OTF2_EvtWriter* w, uint64_t time, uint32_t rank, Name name)
{
  check(OTF2_EvtWriter_Leave(w, nullptr, time, region(rank, name)), "Leave");
}

void writeEvents(ArchiveWriter& writer)
{
  // Rank 0: a blocking send, a receive on the sub-communicator, a Sendrecv
  // whose receive side is MPI_PROC_NULL; it leaves Working before finalize.
  OTF2_EvtWriter* w = writer.events(Location[0]);
  enter(w, 0, 0, Working);
  enter(w, 1, 0, Send);
  check(OTF2_EvtWriter_MpiSend(w, nullptr, 2, 1, World, 5, 40), "MpiSend");
  leave(w, 3, 0, Send);
  enter(w, 4, 0, Recv);
  check(OTF2_EvtWriter_MpiRecv(w, nullptr, 6, 0, Sub, 4, 8), "MpiRecv"); // sub rank 0 = rank 2
  leave(w, 6, 0, Recv);
  enter(w, 7, 0, Sendrecv);
  check(OTF2_EvtWriter_MpiRecv(w, nullptr, 8, ProcNull, World, 7, 0), "MpiRecv");
  leave(w, 8, 0, Sendrecv);
  leave(w, 10, 0, Working);
  enter(w, 11, 0, Finalize);
  leave(w, 12, 0, Finalize);

  // Rank 1: receives rank 0's message, posts an MPI_Irecv whose completion
  // is never written, and enters finalize before leaving Working.
  w = writer.events(Location[1]);
  enter(w, 0, 1, Working);
  enter(w, 2, 1, Recv);
  check(OTF2_EvtWriter_MpiRecv(w, nullptr, 3, 0, World, 5, 40), "MpiRecv");
  leave(w, 3, 1, Recv);
  enter(w, 4, 1, Irecv);
  check(OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, 5, 77), "MpiIrecvRequest");
  leave(w, 5, 1, Irecv);
  enter(w, 6, 1, Waitall);
  leave(w, 20, 1, Waitall);
  enter(w, 30, 1, Finalize);
  leave(w, 31, 1, Working);
  leave(w, 32, 1, Finalize);

  // Rank 2: an Isend to rank 1 (never completed, never received), a send on
  // the sub-communicator {rank 2, rank 0}, a Sendrecv whose send side is
  // MPI_PROC_NULL, and finalize entered before Working is left.
  w = writer.events(Location[2]);
  enter(w, 0, 2, Working);
  enter(w, 1, 2, Isend);
  check(OTF2_EvtWriter_MpiIsend(w, nullptr, 2, 1, World, 9, 16, 3), "MpiIsend");
  leave(w, 2, 2, Isend);
  enter(w, 3, 2, Send);
  check(OTF2_EvtWriter_MpiSend(w, nullptr, 4, 1, Sub, 4, 8), "MpiSend"); // sub rank 1 = rank 0
  leave(w, 5, 2, Send);
  enter(w, 6, 2, Sendrecv);
  check(OTF2_EvtWriter_MpiSend(w, nullptr, 7, ProcNull, World, 7, 0), "MpiSend");
  leave(w, 9, 2, Sendrecv);
  enter(w, 38, 2, Finalize);
  leave(w, 39, 2, Working);
  leave(w, 40, 2, Finalize);
}

} // namespace

std::string writeEZTraceLike(const std::filesystem::path& directory)
{
  ArchiveWriter writer(directory, "eztrace_log");
  writeEvents(writer);
  std::vector<ProcessDefinition> processes;
  for (uint32_t rank = 0; rank < 3; ++rank)
  {
    const std::string name = "P#" + std::to_string(rank);
    // EZTrace announces 2 events for every location.
    processes.push_back({ name, name + "T#0", Location[rank], 2 });
  }
  const OTF2_StringRef program = WriteProcesses(writer, "stencil", processes);
  // Group 0, twice: the locations, then MPI_COMM_WORLD's ranks.
  WriteWorld(writer, World, 0, 0, { std::begin(Location), std::end(Location) });
  OTF2_GlobalDefWriter* d = writer.definitions();
  const OTF2_StringRef sub = writer.string("MPI_COMM_1");
  const uint64_t subRanks[] = { 2, 0 };
  check(OTF2_GlobalDefWriter_WriteGroup(d, 1, sub, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
          OTF2_GROUP_FLAG_NONE, 2, subRanks),
    "Group");
  check(OTF2_GlobalDefWriter_WriteComm(d, Sub, sub, 1, World, OTF2_COMM_FLAG_NONE), "Comm");
  for (uint32_t rank = 0; rank < 3; ++rank)
  {
    for (uint32_t name = 0; name < EZTraceLikeRegionNames.size(); ++name)
    {
      WriteUserRegion(writer, region(rank, Name(name)), EZTraceLikeRegionNames[name], program);
    }
  }
  // The clock's length is rank 0's: 12 ms, where rank 2 ends at 40 ms.
  check(OTF2_GlobalDefWriter_WriteClockProperties(d, Resolution, 0, 12, OTF2_UNDEFINED_TIMESTAMP),
    "ClockProperties");
  return writer.close();
}

} // namespace macroscope::otf2::testing
