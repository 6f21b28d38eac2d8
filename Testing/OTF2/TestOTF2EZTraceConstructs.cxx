// What EZTrace 2.0 writes into its OTF2 archives, reproduced by hand with
// OTF2's writer (writeEZTraceLike, OTF2EZTraceLikeArchive.cxx): each
// construct opens, and is counted and reported.
#include "OTF2TestArchives.h"

#include <LogicalTime.h>
#include <MacroscopeOTF2.h>
#include <MpiRegions.h>
#include <TraceSchema.h>
#include <TypePalette.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace
{
using namespace macroscope::otf2;
using macroscope::otf2::testing::ScratchDirectory;

using macroscope::otf2::testing::EZTraceLikeRegionNames;
using macroscope::otf2::testing::writeEZTraceLike;

constexpr OTF2_CommRef World = 0, Sub = 1;
const std::vector<std::string>& RegionNames = EZTraceLikeRegionNames;
// Type ids of the region names, in the order of EZTraceLikeRegionNames.
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

double ms(double milliseconds)
{
  return milliseconds / 1000.0;
}

class EZTraceConstructs : public ::testing::Test
{
protected:
  static void SetUpTestSuite()
  {
    Directory = new ScratchDirectory;
    Anchor = writeEZTraceLike(Directory->path());
  }
  static void TearDownTestSuite()
  {
    delete Directory;
    Directory = nullptr;
  }
  static ScratchDirectory* Directory;
  static std::string Anchor;
};
ScratchDirectory* EZTraceConstructs::Directory = nullptr;
std::string EZTraceConstructs::Anchor;

TEST_F(EZTraceConstructs, WrongEventCountsAreAdvisory)
{
  const TraceData trace = ReadTrace(Anchor);
  EXPECT_EQ(trace.Report.EventsRead, 13u + 12u + 13u);
  EXPECT_EQ(trace.Report.EventCountMismatches, 3u);
  EXPECT_EQ(
    trace.Report.FirstEventCountMismatch, "location 0 ('P#0T#0'): 13 records read, 2 announced");
  const std::string text = Describe(trace.Report);
  EXPECT_NE(text.find("3 locations hold another number of event records than their definition "
                      "announces (advisory; every record was read)"),
    std::string::npos)
    << text;
  EXPECT_EQ(text.find("truncated"), std::string::npos) << text;
}

TEST_F(EZTraceConstructs, OneStateTypePerRegionName)
{
  const TraceInfo info = ReadTraceInfo(Anchor);
  const TypeColumns& types = info.Types;
  ASSERT_GE(types.size(), RegionNames.size());
  for (uint32_t id = 0; id < RegionNames.size(); ++id)
  {
    EXPECT_EQ(types.Name[id], RegionNames[id]);
    EXPECT_EQ(types.Kind[id], macroscope::schema::StateKind);
    EXPECT_EQ(types.Paradigm[id], "user");
    EXPECT_EQ(types.Color[id],
      macroscope::TypePalette::ColorOf(RegionNames[id], types.Paradigm[id], types.Role[id]));
  }
  // The next row is no longer a state: no name twice.
  EXPECT_NE(types.Kind[RegionNames.size()], macroscope::schema::StateKind);
  EXPECT_EQ(info.RegionsSharingAName, 2 * RegionNames.size());

  // Every rank's "Working" is type 0, whatever its Region id.
  const TraceData trace = ReadTrace(Anchor);
  for (std::size_t row = 0; row < trace.States.size(); ++row)
  {
    const uint32_t type = trace.States.Type[row];
    EXPECT_LT(type, RegionNames.size()) << "row " << row;
  }
  EXPECT_EQ(trace.States.Type,
    (Column<uint32_t>{ Send, Recv, Sendrecv, Working, Finalize, //
      Recv, Irecv, Waitall, Finalize, Working,                  //
      Isend, Send, Sendrecv, Finalize, Working }));
}

TEST_F(EZTraceConstructs, MisnestedLeaveClosesFinalizeWithWorking)
{
  const TraceData trace = ReadTrace(Anchor);
  const StateColumns& s = trace.States;
  EXPECT_EQ(s.Location, (Column<uint32_t>{ 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2 }));
  EXPECT_EQ(s.Depth, (Column<uint32_t>{ 1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0 }));
  EXPECT_EQ(s.Start,
    (Column<double>{ ms(1), ms(4), ms(7), ms(0), ms(11), //
      ms(2), ms(4), ms(6), ms(30), ms(0),                //
      ms(1), ms(3), ms(6), ms(38), ms(0) }));
  // Finalize ends with Working (31 and 39 ms), not at its own Leave.
  EXPECT_EQ(s.End,
    (Column<double>{ ms(3), ms(6), ms(8), ms(10), ms(12), //
      ms(3), ms(5), ms(20), ms(31), ms(31),               //
      ms(2), ms(5), ms(9), ms(39), ms(39) }));
  EXPECT_EQ(trace.Report.MisnestedLeaves, 2u);
  EXPECT_EQ(trace.Report.StatesClosedEarly, 2u);
  EXPECT_EQ(trace.Report.LeavesWithoutEnter, 0u);
  EXPECT_EQ(trace.Report.StatesLeftOpen, 0u);
}

TEST_F(EZTraceConstructs, DuplicateGroupIdMapsRanksToLocations)
{
  const TraceData trace = ReadTrace(Anchor);
  EXPECT_EQ(trace.Info.DuplicateGroupDefinitions, 1u);
  EXPECT_EQ(trace.Report.DuplicateGroupDefinitions, 1u);
  ASSERT_EQ(trace.Info.Communicators.size(), 2u);
  EXPECT_EQ(trace.Info.Communicators[0].Size, 3u);
  EXPECT_EQ(trace.Info.Communicators[1].Size, 2u);
  const MessageColumns& m = trace.Messages;
  EXPECT_EQ(m.Sender, (Column<uint32_t>{ 0, 2 }));
  EXPECT_EQ(m.Receiver, (Column<uint32_t>{ 1, 0 }));
  EXPECT_EQ(m.Communicator, (Column<uint32_t>{ World, Sub }));
  EXPECT_EQ(m.Tag, (Column<uint32_t>{ 5, 4 }));
  EXPECT_EQ(m.SendTime, (Column<double>{ ms(2), ms(4) }));
  EXPECT_EQ(m.RecvTime, (Column<double>{ ms(3), ms(6) }));
  EXPECT_EQ(m.Bytes, (Column<uint64_t>{ 40, 8 }));
  EXPECT_EQ(trace.Report.UnknownPeers, 0u);
}

TEST_F(EZTraceConstructs, ProcNullPeersAreNotAnomalies)
{
  const TraceData trace = ReadTrace(Anchor);
  EXPECT_EQ(trace.Report.ProcNullPeers, 2u);
  EXPECT_EQ(trace.Report.UnknownPeers, 0u);
  EXPECT_EQ(trace.Report.UnmatchedReceives, 0u);
  const std::string text = Describe(trace.Report);
  EXPECT_NE(
    text.find("note: 2 message peers given as MPI_PROC_NULL (no message)"), std::string::npos)
    << text;
}

TEST_F(EZTraceConstructs, MissingIrecvCompletionLeavesItsSendUnmatched)
{
  const TraceData trace = ReadTrace(Anchor);
  EXPECT_EQ(trace.Report.UnmatchedSends, 1u); // rank 2's Isend to rank 1
  EXPECT_EQ(trace.Report.IsendsNotCompleted, 1u);
  EXPECT_EQ(trace.Report.IrecvRequestsNotCompleted, 1u);
  EXPECT_EQ(trace.Report.IrecvsWithoutRequest, 0u);
  EXPECT_EQ(trace.Messages.size(), 2u); // the rest of the trace still matches
  const std::string text = Describe(trace.Report);
  EXPECT_NE(text.find("1 sends without a matching receive"), std::string::npos) << text;
  EXPECT_NE(text.find("1 receive requests never completed"), std::string::npos) << text;
  EXPECT_NE(text.find("have no MpiIrecv record"), std::string::npos) << text;
}

TEST_F(EZTraceConstructs, ShortClockLengthDropsNothing)
{
  const TraceData trace = ReadTrace(Anchor);
  EXPECT_DOUBLE_EQ(trace.Info.Clock.Duration(), ms(12));
  EXPECT_EQ(trace.Report.FirstTime, ms(0));
  EXPECT_EQ(trace.Report.LastTime, ms(40));
  EXPECT_EQ(trace.Report.LocationsOutsideClockSpan, 2u);
  EXPECT_EQ(trace.States.size(), 15u);
  EXPECT_EQ(trace.Report.StatesOutsideWindow + trace.Report.MessagesOutsideWindow, 0u);
  const std::string text = Describe(trace.Report);
  EXPECT_NE(text.find("2 locations have records outside the span their ClockProperties declare"),
    std::string::npos)
    << text;
}

TEST_F(EZTraceConstructs, RecordSpanScanFindsTheRecordsPastTheClock)
{
  const std::pair<double, double> span = ReadRecordSpan(Anchor);
  EXPECT_EQ(span.first, ms(0));
  EXPECT_EQ(span.second, ms(40));
  uint64_t bytes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(Directory->path() / "eztrace_log"))
  {
    bytes += entry.path().extension() == ".evt" ? entry.file_size() : 0;
  }
  EXPECT_GT(bytes, 0u);
  EXPECT_EQ(EventFileBytes(Anchor), bytes);
  EXPECT_EQ(EventFileBytes((Directory->path() / "nothing.otf2").string()), 0u);
}

TEST_F(EZTraceConstructs, WhatAWindowLeavesOutIsCounted)
{
  ReadOptions options;
  options.WindowBegin = 0.0;
  options.WindowEnd = ms(12); // the declared span
  const TraceData trace = ReadTrace(Anchor, options);
  // Rank 1's Finalize [30, 31]; rank 2's Finalize [38, 39]: after 12 ms.
  EXPECT_EQ(trace.States.size(), 13u);
  EXPECT_EQ(trace.Report.StatesOutsideWindow, 2u);
  EXPECT_EQ(trace.Report.MessagesOutsideWindow, 0u);
  options.WindowBegin = ms(5.5);
  const TraceData late = ReadTrace(Anchor, options);
  EXPECT_EQ(late.Messages.size(), 1u); // 0 -> 1 ended at 3 ms
  EXPECT_EQ(late.Report.MessagesOutsideWindow, 1u);
  // Ending before 5.5 ms or starting after 12 ms: rank 0's Send; rank 1's
  // Recv, Irecv and Finalize; rank 2's Isend, Send and Finalize.
  EXPECT_EQ(late.Report.StatesOutsideWindow, 1u + 3u + 3u);
  EXPECT_EQ(late.States.size() + late.Report.StatesOutsideWindow, 15u);
  const std::string text = Describe(late.Report);
  EXPECT_NE(text.find("1 messages outside the time window (not kept)"), std::string::npos) << text;
}

TEST_F(EZTraceConstructs, UserParadigmMpiRegionsAreMpiCalls)
{
  const TraceInfo info = ReadTraceInfo(Anchor);
  for (uint32_t id = 0; id < RegionNames.size(); ++id)
  {
    const bool mpi = RegionNames[id].rfind("MPI_", 0) == 0;
    EXPECT_EQ(macroscope::IsMpiCall(info.Types.Name[id], info.Types.Paradigm[id]), mpi)
      << info.Types.Name[id];
  }
}

// Logical Time attributes each message end to the MPI call around it; with
// the paradigm alone ("user") every end would be an instant event.
TEST_F(EZTraceConstructs, LogicalTimeFindsTheUserParadigmMpiCalls)
{
  const TraceData trace = ReadTrace(Anchor);
  auto logicalInput = [&trace](bool byName)
  {
    macroscope::logical::TraceInput in;
    in.Locations = uint32_t(trace.Info.Leaves.size());
    const StateColumns& s = trace.States;
    for (std::size_t i = 0; i < s.size(); ++i)
    {
      in.StateLocation.push_back(int32_t(s.Location[i]));
      in.StateType.push_back(int32_t(s.Type[i]));
      in.StateDepth.push_back(int32_t(s.Depth[i]));
      in.StateStart.push_back(s.Start[i]);
      in.StateEnd.push_back(s.End[i]);
    }
    const TypeColumns& types = trace.Info.Types;
    for (std::size_t t = 0; t < types.size(); ++t)
    {
      const bool state = types.Kind[t] == macroscope::schema::StateKind;
      in.CommunicationType.push_back(state &&
        (byName ? macroscope::IsMpiCall(types.Name[t], types.Paradigm[t])
                : types.Paradigm[t] == "MPI"));
    }
    const MessageColumns& m = trace.Messages;
    for (std::size_t i = 0; i < m.size(); ++i)
    {
      in.Sender.push_back(int32_t(m.Sender[i]));
      in.Receiver.push_back(int32_t(m.Receiver[i]));
      in.SendTime.push_back(m.SendTime[i]);
      in.RecvTime.push_back(m.RecvTime[i]);
    }
    return in;
  };
  const auto byName = macroscope::logical::BuildLogicalTrace(logicalInput(true));
  EXPECT_EQ(byName.Report.InstantEndpoints, 0u);
  const auto byParadigm = macroscope::logical::BuildLogicalTrace(logicalInput(false));
  EXPECT_EQ(byParadigm.Report.InstantEndpoints, 4u); // the old rule: two messages, four ends
}

} // namespace
