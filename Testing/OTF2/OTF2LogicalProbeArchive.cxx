// The logical-time probe archive (OTF2TestArchives.h): two ranks whose calls
// are the cases Logical Time must step by rule rather than by luck. Written
// by hand with OTF2's writer; shared by the decoder-level test
// (TestLogicalTimeSynthesized.cxx) and the tool
// macroscope-otf2-write-logical-probe, which the Python tests run.
#include "OTF2TestArchives.h"

namespace macroscope::otf2::testing
{

namespace
{
constexpr uint64_t Resolution = 10000; // ticks are tenths of milliseconds
constexpr OTF2_CommRef World = 0;

enum Region : uint32_t
{
  Main,
  Sendrecv,
  Send,
  Recv,
  Isend,
  Waitall,
  Exchange,
  Regions
};
const char* const RegionName[Regions] = { "main", "MPI_Sendrecv", "MPI_Send", "MPI_Recv",
  "MPI_Isend", "MPI_Waitall", "exchange" };

struct Stream
{
  OTF2_EvtWriter* W;
  void Enter(uint64_t t, Region r) { check(OTF2_EvtWriter_Enter(W, nullptr, t, r), "Enter"); }
  void Leave(uint64_t t, Region r) { check(OTF2_EvtWriter_Leave(W, nullptr, t, r), "Leave"); }
  void SendTo(uint64_t t, uint32_t peer, uint32_t tag)
  {
    check(OTF2_EvtWriter_MpiSend(W, nullptr, t, peer, World, tag, 8), "MpiSend");
  }
  void RecvFrom(uint64_t t, uint32_t peer, uint32_t tag)
  {
    check(OTF2_EvtWriter_MpiRecv(W, nullptr, t, peer, World, tag, 8), "MpiRecv");
  }
};

void writeEvents(ArchiveWriter& writer)
{
  Stream rank[2] = { { writer.events(0) }, { writer.events(1) } };
  for (Stream& s : rank)
  {
    s.Enter(0, Main);
  }
  // Three MPI_Sendrecv exchanges (tags 0-2) inside one call of `exchange`
  // (one phase when calls merge by their enclosing call, three otherwise);
  // rank 1's calls 0.5 ms later.
  for (Stream& s : rank)
  {
    s.Enter(5, Exchange);
  }
  for (uint32_t k = 0; k < 3; ++k)
  {
    const uint64_t at = 100 * k;
    rank[0].Enter(at + 10, Sendrecv);
    rank[0].SendTo(at + 12, 1, k);
    rank[0].RecvFrom(at + 28, 1, k);
    rank[0].Leave(at + 30, Sendrecv);
    rank[1].Enter(at + 15, Sendrecv);
    rank[1].SendTo(at + 16, 0, k);
    rank[1].RecvFrom(at + 32, 0, k);
    rank[1].Leave(at + 35, Sendrecv);
  }
  for (Stream& s : rank)
  {
    s.Leave(240, Exchange);
  }
  // Clock skew: rank 1's answer (tag 8, sent at 35.5 ms) is received at
  // 31.5 ms, inside rank 0's MPI_Send of tag 9, which rank 1 receives first.
  rank[0].Enter(310, Send);
  rank[0].SendTo(312, 1, 9);
  rank[0].RecvFrom(315, 1, 8);
  rank[0].Leave(320, Send);
  rank[1].Enter(330, Recv);
  rank[1].RecvFrom(335, 0, 9);
  rank[1].Leave(340, Recv);
  rank[1].Enter(350, Send);
  rank[1].SendTo(355, 0, 8);
  rank[1].Leave(360, Send);
  // A halo exchange: two back-to-back MPI_Isends (tags 20, 21) to the other
  // rank, then an MPI_Waitall completing them and both receives.
  for (uint32_t r = 0; r < 2; ++r)
  {
    Stream& s = rank[r];
    for (uint32_t i = 0; i < 2; ++i)
    {
      s.Enter(410 + 2 * i, Isend);
      check(
        OTF2_EvtWriter_MpiIsend(s.W, nullptr, 411 + 2 * i, 1 - r, World, 20 + i, 8, i), "MpiIsend");
      s.Leave(412 + 2 * i, Isend);
    }
    s.Enter(414, Waitall);
    for (uint32_t i = 0; i < 2; ++i)
    {
      check(OTF2_EvtWriter_MpiIsendComplete(s.W, nullptr, 415 + i, i), "MpiIsendComplete");
    }
    s.RecvFrom(420, 1 - r, 20);
    s.RecvFrom(421, 1 - r, 21);
    s.Leave(430, Waitall);
    s.Leave(500, Main);
  }
}

} // namespace

std::string writeLogicalProbe(const std::filesystem::path& directory)
{
  ArchiveWriter writer(directory, "probe");
  writeEvents(writer);
  std::vector<ProcessDefinition> processes;
  for (uint64_t rank = 0; rank < 2; ++rank)
  {
    const std::string name = "rank " + std::to_string(rank);
    processes.push_back({ name, name + " thread 0", rank, writer.eventCount(rank) });
  }
  const OTF2_StringRef machine = WriteProcesses(writer, "machine", processes);
  WriteWorld(writer, World, 0, 1, { 0, 1 });
  for (uint32_t r = 0; r < Regions; ++r)
  {
    WriteUserRegion(writer, r, RegionName[r], machine);
  }
  OTF2_GlobalDefWriter* d = writer.definitions();
  check(OTF2_GlobalDefWriter_WriteClockProperties(d, Resolution, 0, 501, OTF2_UNDEFINED_TIMESTAMP),
    "ClockProperties");
  return writer.close();
}

} // namespace macroscope::otf2::testing
