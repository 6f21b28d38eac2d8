// Small archives written with OTF2's writer API, each with tables computed
// by hand: the cases the synthesizer does not produce.
#include "OTF2TestArchives.h"

#include <MacroscopeOTF2.h>
#include <TraceSchema.h>
#include <TypePalette.h>

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace
{
using namespace macroscope::otf2;
using macroscope::otf2::testing::ArchiveWriter;
using macroscope::otf2::testing::check;
using macroscope::otf2::testing::ScratchDirectory;

// A clock far from zero, as on real machines: readers must subtract first.
constexpr uint64_t Offset = 5000000000000ull;
constexpr uint64_t Resolution = 1000; // ticks are milliseconds

uint64_t at(uint64_t milliseconds)
{
  return Offset + milliseconds;
}

enum Region : OTF2_RegionRef
{
  Main,
  Send,
  Compute,
  Allreduce
};

// The hand-computed scenario: a cluster of two nodes, three single-threaded
// ranks, an extra thread with a non-contiguous id, a metric location, an
// accelerator stream; a sub-communicator {rank 2, rank 0}.
constexpr uint64_t Rank0 = 0, Rank1 = 1, Rank2 = 2;
constexpr uint64_t Thread01 = (uint64_t(1) << 32) | 0;
constexpr uint64_t Stream = 100, Counters = 200;
constexpr OTF2_CommRef World = 0, Sub = 1;

std::string writeScenario(const std::filesystem::path& directory)
{
  ArchiveWriter writer(directory, "run"); // the anchor is run.otf2, not traces.otf2

  OTF2_EvtWriter* w = writer.events(Rank0);
  check(OTF2_EvtWriter_Enter(w, nullptr, at(0), Main), "Enter");
  check(OTF2_EvtWriter_Enter(w, nullptr, at(10), Send), "Enter");
  // Rank 0 of Sub is world rank 2.
  check(OTF2_EvtWriter_MpiSend(w, nullptr, at(12), 0, Sub, 7, 100), "MpiSend");
  check(OTF2_EvtWriter_Leave(w, nullptr, at(15), Send), "Leave");
  check(OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, at(20), 5), "MpiIrecvRequest");
  check(OTF2_EvtWriter_MpiIrecv(w, nullptr, at(30), 1, World, 3, 8, 5), "MpiIrecv");
  check(OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, at(40)), "MpiCollectiveBegin");
  check(OTF2_EvtWriter_MpiCollectiveEnd(
          w, nullptr, at(45), OTF2_COLLECTIVE_OP_ALLREDUCE, World, OTF2_UNDEFINED_UINT32, 8, 8),
    "MpiCollectiveEnd");
  check(OTF2_EvtWriter_ThreadFork(w, nullptr, at(49), OTF2_PARADIGM_OPENMP, 2), "ThreadFork");
  check(OTF2_EvtWriter_Enter(w, nullptr, at(50), Compute), "Enter");
  check(OTF2_EvtWriter_Leave(w, nullptr, at(60), Compute), "Leave");
  check(OTF2_EvtWriter_ThreadJoin(w, nullptr, at(61), OTF2_PARADIGM_OPENMP), "ThreadJoin");
  check(OTF2_EvtWriter_Leave(w, nullptr, at(90), Main), "Leave");

  w = writer.events(Rank1);
  check(OTF2_EvtWriter_Enter(w, nullptr, at(0), Main), "Enter");
  check(OTF2_EvtWriter_MpiIsend(w, nullptr, at(25), 0, World, 3, 8, 9), "MpiIsend");
  check(OTF2_EvtWriter_MpiIsendComplete(w, nullptr, at(26), 9), "MpiIsendComplete");
  check(OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, at(40)), "MpiCollectiveBegin");
  check(OTF2_EvtWriter_MpiCollectiveEnd(
          w, nullptr, at(46), OTF2_COLLECTIVE_OP_ALLREDUCE, World, OTF2_UNDEFINED_UINT32, 8, 8),
    "MpiCollectiveEnd");
  check(OTF2_EvtWriter_Leave(w, nullptr, at(80), Main), "Leave");

  w = writer.events(Rank2);
  check(OTF2_EvtWriter_Enter(w, nullptr, at(0), Main), "Enter");
  // Rank 1 of Sub is world rank 0; stamped 1 ms before its send: drift.
  check(OTF2_EvtWriter_MpiRecv(w, nullptr, at(11), 1, Sub, 7, 100), "MpiRecv");
  check(OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, at(40)), "MpiCollectiveBegin");
  check(OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, at(47), OTF2_COLLECTIVE_OP_BCAST, Sub, 1, 0, 4),
    "MpiCollectiveEnd");
  check(OTF2_EvtWriter_Leave(w, nullptr, at(85), Main), "Leave");

  w = writer.events(Thread01);
  check(OTF2_EvtWriter_Enter(w, nullptr, at(5), Compute), "Enter");
  check(OTF2_EvtWriter_Enter(w, nullptr, at(35), Compute), "Enter");
  check(OTF2_EvtWriter_Leave(w, nullptr, at(36), Compute), "Leave");
  // The outer Compute is never left: the trace ends inside it.

  w = writer.events(Stream);
  check(OTF2_EvtWriter_Enter(w, nullptr, at(50), Compute), "Enter");
  check(OTF2_EvtWriter_Leave(w, nullptr, at(70), Compute), "Leave");

  w = writer.events(Counters);
  const OTF2_Type types[] = { OTF2_TYPE_DOUBLE, OTF2_TYPE_INT64 };
  OTF2_MetricValue values[2];
  values[0].floating_point = 21.5;
  values[1].signed_int = -3;
  check(OTF2_EvtWriter_Metric(w, nullptr, at(10), 0, 2, types, values), "Metric");
  values[0].floating_point = 22.0;
  values[1].signed_int = 7;
  check(OTF2_EvtWriter_Metric(w, nullptr, at(20), 0, 2, types, values), "Metric");

  OTF2_GlobalDefWriter* d = writer.definitions();
  check(OTF2_GlobalDefWriter_WriteClockProperties(d, Resolution, Offset, 100, 0), "Clock");
  auto s = [&writer](const char* text) { return writer.string(text); };
  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(
          d, 0, s("cluster-A"), s("cluster"), OTF2_UNDEFINED_SYSTEM_TREE_NODE),
    "SystemTreeNode");
  check(
    OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 1, s("node-1"), s("node"), 0), "SystemTreeNode");
  check(
    OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 2, s("node-2"), s("node"), 0), "SystemTreeNode");
  const auto group = [&](OTF2_LocationGroupRef ref, const char* name, OTF2_LocationGroupType type,
                       OTF2_SystemTreeNodeRef parent)
  {
    check(OTF2_GlobalDefWriter_WriteLocationGroup(
            d, ref, s(name), type, parent, OTF2_UNDEFINED_LOCATION_GROUP),
      "LocationGroup");
  };
  group(0, "rank 0", OTF2_LOCATION_GROUP_TYPE_PROCESS, 1);
  group(1, "rank 1", OTF2_LOCATION_GROUP_TYPE_PROCESS, 2);
  group(2, "rank 2", OTF2_LOCATION_GROUP_TYPE_PROCESS, 2);
  group(3, "gpu 0", OTF2_LOCATION_GROUP_TYPE_ACCELERATOR, 1);
  const auto location = [&](OTF2_LocationRef ref, const char* name, OTF2_LocationType type,
                          OTF2_LocationGroupRef parent)
  {
    check(OTF2_GlobalDefWriter_WriteLocation(d, ref, s(name), type, writer.eventCount(ref), parent),
      "Location");
  };
  location(Rank0, "master 0", OTF2_LOCATION_TYPE_CPU_THREAD, 0);
  location(Rank1, "master 1", OTF2_LOCATION_TYPE_CPU_THREAD, 1);
  location(Rank2, "master 2", OTF2_LOCATION_TYPE_CPU_THREAD, 2);
  location(Thread01, "thread 0.1", OTF2_LOCATION_TYPE_CPU_THREAD, 0);
  location(Stream, "stream", OTF2_LOCATION_TYPE_ACCELERATOR_STREAM, 3);
  location(Counters, "counters", OTF2_LOCATION_TYPE_METRIC, 0);
  const auto region =
    [&](OTF2_RegionRef ref, const char* name, OTF2_RegionRole role, OTF2_Paradigm paradigm)
  {
    check(OTF2_GlobalDefWriter_WriteRegion(
            d, ref, s(name), s(name), s(""), role, paradigm, OTF2_REGION_FLAG_NONE, s(""), 0, 0),
      "Region");
  };
  region(Main, "main", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER);
  region(Send, "MPI_Send", OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI);
  region(Compute, "compute", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER);
  region(Allreduce, "MPI_Allreduce", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_PARADIGM_MPI);

  const uint64_t mpiLocations[] = { Rank0, Rank1, Rank2 };
  const uint64_t worldRanks[] = { 0, 1, 2 };
  const uint64_t subRanks[] = { 2, 0 };
  check(OTF2_GlobalDefWriter_WriteGroup(d, 0, s(""), OTF2_GROUP_TYPE_COMM_LOCATIONS,
          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 3, mpiLocations),
    "Group");
  check(OTF2_GlobalDefWriter_WriteGroup(d, 1, s(""), OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
          OTF2_GROUP_FLAG_NONE, 3, worldRanks),
    "Group");
  check(OTF2_GlobalDefWriter_WriteGroup(d, 2, s(""), OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
          OTF2_GROUP_FLAG_NONE, 2, subRanks),
    "Group");
  check(OTF2_GlobalDefWriter_WriteComm(
          d, World, s("MPI_COMM_WORLD"), 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
    "Comm");
  check(OTF2_GlobalDefWriter_WriteComm(d, Sub, s("sub"), 2, World, OTF2_COMM_FLAG_NONE), "Comm");

  check(
    OTF2_GlobalDefWriter_WriteMetricMember(d, 0, s("temperature"), s(""), OTF2_METRIC_TYPE_OTHER,
      OTF2_METRIC_ABSOLUTE_POINT, OTF2_TYPE_DOUBLE, OTF2_BASE_DECIMAL, 0, s("C")),
    "MetricMember");
  check(OTF2_GlobalDefWriter_WriteMetricMember(d, 1, s("bytes_read"), s(""), OTF2_METRIC_TYPE_OTHER,
          OTF2_METRIC_RELATIVE_POINT, OTF2_TYPE_INT64, OTF2_BASE_DECIMAL, 0, s("B")),
    "MetricMember");
  const OTF2_MetricMemberRef members[] = { 0, 1 };
  check(OTF2_GlobalDefWriter_WriteMetricClass(
          d, 0, 2, members, OTF2_METRIC_ASYNCHRONOUS, OTF2_RECORDER_KIND_ABSTRACT),
    "MetricClass");
  return writer.close();
}

double ms(double milliseconds)
{
  return milliseconds / 1000.0;
}

class HandWrittenScenario : public ::testing::Test
{
protected:
  static void SetUpTestSuite()
  {
    Directory = new ScratchDirectory;
    Anchor = writeScenario(Directory->path());
  }
  static void TearDownTestSuite()
  {
    delete Directory;
    Directory = nullptr;
  }
  static ScratchDirectory* Directory;
  static std::string Anchor;
};
ScratchDirectory* HandWrittenScenario::Directory = nullptr;
std::string HandWrittenScenario::Anchor;

TEST_F(HandWrittenScenario, AnchorNotNamedTracesIsRead)
{
  EXPECT_EQ(std::filesystem::path(Anchor).filename(), "run.otf2");
  const TraceData trace = ReadTrace(Anchor);
  EXPECT_EQ(trace.Info.AnchorFile, Anchor);
  EXPECT_EQ(trace.Report.EventsRead, 31u);
}

TEST_F(HandWrittenScenario, HierarchyFollowsTheSystemTreeDepthFirst)
{
  const TraceInfo info = ReadTraceInfo(Anchor);
  const HierarchyColumns& tree = info.Hierarchy;
  const std::vector<int64_t> parent = { -1, 0, 1, 2, 2, 2, 1, 6, 0, 8, 9, 8, 11 };
  const std::vector<std::string> name = { "cluster-A", "node-1", "rank 0", "master 0", "thread 0.1",
    "counters", "gpu 0", "stream", "node-2", "rank 1", "master 1", "rank 2", "master 2" };
  const std::vector<std::string> kind = { "cluster", "node", "process", "thread", "thread",
    "metric", "accelerator", "gpu", "node", "process", "thread", "process", "thread" };
  const std::vector<int64_t> leaf = { -1, -1, -1, 0, 1, 2, -1, 3, -1, -1, 4, -1, 5 };
  EXPECT_EQ(tree.Parent, parent);
  EXPECT_EQ(tree.Name, name);
  EXPECT_EQ(tree.Kind, kind);
  EXPECT_EQ(tree.LeafIndex, leaf);
  const std::vector<uint64_t> ids = { Rank0, Thread01, Counters, Stream, Rank1, Rank2 };
  ASSERT_EQ(info.Leaves.size(), ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i)
  {
    EXPECT_EQ(info.Leaves[i].LocationId, ids[i]) << "leaf " << i;
    EXPECT_EQ(tree.LeafIndex[info.Leaves[i].Vertex], int64_t(i));
  }
  EXPECT_EQ(info.Leaves[0].Events, 13u);
  EXPECT_EQ(info.TotalEvents, 31u);
  EXPECT_DOUBLE_EQ(info.Clock.Duration(), 0.1);
}

TEST_F(HandWrittenScenario, TypesListRegionsMetricMembersEventsAndLinks)
{
  const TypeColumns& types = ReadTraceInfo(Anchor).Types;
  ASSERT_GE(types.size(), 6u + InstantKindCount + 1);
  const std::vector<std::string> names = { "main", "MPI_Send", "compute", "MPI_Allreduce",
    "temperature", "bytes_read" };
  for (uint32_t id = 0; id < names.size(); ++id)
  {
    EXPECT_EQ(types.Id[id], id);
    EXPECT_EQ(types.Name[id], names[id]);
    EXPECT_EQ(types.Kind[id], id < 4 ? "state" : "variable");
    EXPECT_EQ(types.Color[id],
      macroscope::TypePalette::ColorOf(names[id], types.Paradigm[id], types.Role[id]));
  }
  EXPECT_EQ(types.Paradigm[0], "user");
  EXPECT_EQ(types.Role[0], "function");
  EXPECT_EQ(types.Paradigm[1], "MPI");
  EXPECT_EQ(types.Role[1], "point2point");
  EXPECT_EQ(types.Role[3], "coll_all2all");
  EXPECT_EQ(types.Name[6], "ProgramBegin");
  EXPECT_EQ(types.Kind[6], macroscope::schema::EventKind);
  EXPECT_EQ(types.Kind.back(), macroscope::schema::LinkKind);
}

TEST_F(HandWrittenScenario, StatesHaveHandComputedTimesDepthsAndLeaves)
{
  const TraceData trace = ReadTrace(Anchor);
  const StateColumns& states = trace.States;
  // Leaf order, and within a location in the order the states end.
  const Column<uint32_t> location = { 0, 0, 0, 1, 1, 3, 4, 5 };
  const Column<uint32_t> type = { Send, Compute, Main, Compute, Compute, Compute, Main, Main };
  const Column<uint32_t> depth = { 1, 1, 0, 1, 0, 0, 0, 0 };
  const Column<double> start = { ms(10), ms(50), 0, ms(35), ms(5), ms(50), 0, 0 };
  const Column<double> end = { ms(15), ms(60), ms(90), ms(36), ms(36), ms(70), ms(80), ms(85) };
  EXPECT_EQ(states.Location, location);
  EXPECT_EQ(states.Type, type);
  EXPECT_EQ(states.Depth, depth);
  EXPECT_EQ(states.Start, start);
  EXPECT_EQ(states.End, end);
  // The outer compute of thread 0.1 was left open: closed at its last
  // timestamp (36 ms) and reported.
  EXPECT_EQ(trace.Report.StatesLeftOpen, 1u);
  EXPECT_EQ(trace.Report.LeavesWithoutEnter, 0u);
}

TEST_F(HandWrittenScenario, MessagesMapCommunicatorRanksToLeaves)
{
  const TraceData trace = ReadTrace(Anchor);
  const MessageColumns& m = trace.Messages;
  ASSERT_EQ(m.size(), 2u);
  // Sub rank 0 is world rank 2 (leaf 5); read as a world rank it would be leaf 0.
  EXPECT_EQ(m.Sender[0], 0u);
  EXPECT_EQ(m.Receiver[0], 5u);
  EXPECT_EQ(m.Communicator[0], Sub);
  EXPECT_EQ(m.Tag[0], 7u);
  EXPECT_EQ(m.Bytes[0], 100u);
  EXPECT_DOUBLE_EQ(m.SendTime[0], ms(12));
  EXPECT_DOUBLE_EQ(m.RecvTime[0], ms(11));
  EXPECT_EQ(m.RecvBeforeSend[0], 1u); // flagged, not fixed
  // Isend on leaf 4 to world rank 0, received by Irecv after IrecvRequest.
  EXPECT_EQ(m.Sender[1], 4u);
  EXPECT_EQ(m.Receiver[1], 0u);
  EXPECT_EQ(m.Communicator[1], World);
  EXPECT_DOUBLE_EQ(m.SendTime[1], ms(25));
  EXPECT_DOUBLE_EQ(m.RecvTime[1], ms(30));
  EXPECT_EQ(m.RecvBeforeSend[1], 0u);
  EXPECT_EQ(trace.Report.ReceivesBeforeSends, 1u);
  EXPECT_EQ(trace.Report.UnmatchedSends, 0u);
  EXPECT_EQ(trace.Report.UnmatchedReceives, 0u);
  EXPECT_EQ(trace.Report.IsendsNotCompleted, 0u);
  EXPECT_EQ(trace.Report.IrecvsWithoutRequest, 0u);
  ASSERT_EQ(trace.Info.Communicators.size(), 2u);
  EXPECT_EQ(trace.Info.Communicators[1].Name, "sub");
  EXPECT_EQ(trace.Info.Communicators[1].Size, 2u);
}

TEST_F(HandWrittenScenario, CollectiveBeginsLearnTheirOperationFromTheEnd)
{
  const TraceData trace = ReadTrace(Anchor);
  const EventColumns& e = trace.Events;
  const TypeColumns& types = trace.Info.Types;
  std::vector<std::string> names;
  for (uint32_t type : e.Type)
  {
    names.push_back(types.Name[type]);
  }
  const std::vector<std::string> expected = { "MpiCollectiveBegin", "MpiCollectiveEnd",
    "ThreadFork", "ThreadJoin", "MpiCollectiveBegin", "MpiCollectiveEnd", "MpiCollectiveBegin",
    "MpiCollectiveEnd" };
  EXPECT_EQ(names, expected);
  EXPECT_EQ(e.Location, (Column<uint32_t>{ 0, 0, 0, 0, 4, 4, 5, 5 }));
  EXPECT_EQ(
    e.Time, (Column<double>{ ms(40), ms(45), ms(49), ms(61), ms(40), ms(46), ms(40), ms(47) }));
  EXPECT_EQ(e.Operation,
    (Column<int32_t>{ OTF2_COLLECTIVE_OP_ALLREDUCE, OTF2_COLLECTIVE_OP_ALLREDUCE, -1, -1,
      OTF2_COLLECTIVE_OP_ALLREDUCE, OTF2_COLLECTIVE_OP_ALLREDUCE, OTF2_COLLECTIVE_OP_BCAST,
      OTF2_COLLECTIVE_OP_BCAST }));
  EXPECT_EQ(e.Communicator, (Column<int64_t>{ 0, 0, -1, -1, 0, 0, 1, 1 }));
  // The Bcast's root is rank 1 of Sub: world rank 0, leaf 0.
  EXPECT_EQ(e.Root, (Column<int64_t>{ -1, -1, -1, -1, -1, -1, 0, 0 }));
  EXPECT_EQ(CollectiveOperationName(e.Operation[6]), "Bcast");
}

TEST_F(HandWrittenScenario, MetricClassMembersBecomeVariables)
{
  const TraceData trace = ReadTrace(Anchor);
  const VariableColumns& v = trace.Variables;
  EXPECT_EQ(v.Location, (Column<uint32_t>{ 2, 2, 2, 2 }));
  EXPECT_EQ(v.Variable, (Column<uint32_t>{ 4, 5, 4, 5 }));
  EXPECT_EQ(v.Time, (Column<double>{ ms(10), ms(10), ms(20), ms(20) }));
  EXPECT_EQ(v.Value, (Column<double>{ 21.5, -3.0, 22.0, 7.0 }));
  EXPECT_EQ(trace.Report.MalformedMetrics, 0u);
}

TEST_F(HandWrittenScenario, RecordCountsAndTimeBounds)
{
  const TraceData trace = ReadTrace(Anchor);
  const Diagnostics& r = trace.Report;
  EXPECT_EQ(r.Count(RecordKind::Enter), 8u);
  EXPECT_EQ(r.Count(RecordKind::Leave), 7u);
  EXPECT_EQ(r.Count(RecordKind::Metric), 2u);
  EXPECT_EQ(r.Count(RecordKind::MpiCollectiveEnd), 3u);
  EXPECT_EQ(r.OtherRecords, 0u);
  EXPECT_DOUBLE_EQ(r.FirstTime, 0.0);
  EXPECT_DOUBLE_EQ(r.LastTime, ms(90));
  EXPECT_NE(Describe(r).find("1 states left open"), std::string::npos) << Describe(r);
}

TEST_F(HandWrittenScenario, WindowKeepsOverlappingStatesWithOrWithoutClipping)
{
  ReadOptions options;
  options.WindowBegin = ms(14);
  options.WindowEnd = ms(40);
  TraceData trace = ReadTrace(Anchor, options);
  // Overlapping [14, 40] ms: MPI_Send [10,15], all mains, both thread
  // computes [35,36] and [5,36]; not compute [50,60] nor the stream's [50,70].
  EXPECT_EQ(trace.States.Location, (Column<uint32_t>{ 0, 0, 1, 1, 4, 5 }));
  EXPECT_EQ(trace.States.Start[0], ms(10));
  EXPECT_EQ(trace.States.End[1], ms(90));
  // Messages whose flight overlaps: Isend/Irecv [25, 30]; not [11, 12].
  ASSERT_EQ(trace.Messages.size(), 1u);
  EXPECT_EQ(trace.Messages.Sender[0], 4u);
  // Events inside: the three collective begins at 40 ms.
  EXPECT_EQ(trace.Events.size(), 3u);
  EXPECT_EQ(trace.Events.Operation[0], OTF2_COLLECTIVE_OP_ALLREDUCE);
  EXPECT_EQ(trace.Variables.Time, (Column<double>{ ms(20), ms(20) }));

  options.ClipStatesToWindow = true;
  trace = ReadTrace(Anchor, options);
  EXPECT_EQ(trace.States.Start[0], ms(14));
  EXPECT_EQ(trace.States.End[0], ms(15));
  EXPECT_EQ(trace.States.Start[1], ms(14));
  EXPECT_EQ(trace.States.End[1], ms(40));
}

TEST_F(HandWrittenScenario, RegionFilterKeepsDepths)
{
  ReadOptions options;
  options.Regions = { "compute" };
  const TraceData trace = ReadTrace(Anchor, options);
  EXPECT_EQ(trace.States.Location, (Column<uint32_t>{ 0, 1, 1, 3 }));
  EXPECT_EQ(trace.States.Depth, (Column<uint32_t>{ 1, 1, 0, 0 }));
  for (uint32_t type : trace.States.Type)
  {
    EXPECT_EQ(type, uint32_t(Compute));
  }
}

TEST_F(HandWrittenScenario, ReadingOneLeafAloneKeepsCrossPartMessagesAside)
{
  ReadOptions options;
  options.Leaves = { 5 };
  const TraceData trace = ReadTrace(Anchor, options);
  EXPECT_EQ(trace.States.Location, (Column<uint32_t>{ 5 }));
  EXPECT_EQ(trace.Messages.size(), 0u);
  EXPECT_EQ(trace.Report.ReceivesFromUnselected, 1u);
  ASSERT_EQ(trace.Unresolved.Receives.size(), 1u);
  EXPECT_EQ(trace.Unresolved.Receives[0].Sender, 0u);
  EXPECT_EQ(trace.Unresolved.Receives[0].Receiver, 5u);
  EXPECT_EQ(trace.Report.UnmatchedReceives, 0u);
  EXPECT_EQ(trace.Report.EventsRead, 5u);
}

// --- Pitfalls, each in its own tiny archive: two or three ranks, one
// location each (id = rank), regions main (0) and inner (1), MPI_COMM_WORLD.

template <typename WriteEvents>
std::string writeRanks(const std::filesystem::path& directory, uint32_t ranks, WriteEvents events,
  uint64_t offset = Offset, uint64_t resolution = Resolution)
{
  ArchiveWriter writer(directory, "traces");
  events(writer);
  OTF2_GlobalDefWriter* d = writer.definitions();
  check(OTF2_GlobalDefWriter_WriteClockProperties(d, resolution, offset, 1000, 0), "Clock");
  const OTF2_StringRef empty = writer.string("");
  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(
          d, 0, writer.string("node"), writer.string("node"), OTF2_UNDEFINED_SYSTEM_TREE_NODE),
    "SystemTreeNode");
  std::vector<uint64_t> members;
  for (uint32_t rank = 0; rank < ranks; ++rank)
  {
    const OTF2_StringRef name = writer.string("rank " + std::to_string(rank));
    check(OTF2_GlobalDefWriter_WriteLocationGroup(
            d, rank, name, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP),
      "LocationGroup");
    check(OTF2_GlobalDefWriter_WriteLocation(
            d, rank, name, OTF2_LOCATION_TYPE_CPU_THREAD, writer.eventCount(rank), rank),
      "Location");
    members.push_back(rank);
  }
  // Region 2 is a second definition of "main", as EZTrace writes one per
  // thread.
  for (OTF2_RegionRef region : { 0u, 1u, 2u })
  {
    const OTF2_StringRef name = writer.string(region == 1 ? "inner" : "main");
    check(OTF2_GlobalDefWriter_WriteRegion(d, region, name, name, empty, OTF2_REGION_ROLE_FUNCTION,
            OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, empty, 0, 0),
      "Region");
  }
  check(OTF2_GlobalDefWriter_WriteGroup(d, 0, empty, OTF2_GROUP_TYPE_COMM_LOCATIONS,
          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, ranks, members.data()),
    "Group");
  check(OTF2_GlobalDefWriter_WriteGroup(d, 1, empty, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
          OTF2_GROUP_FLAG_NONE, ranks, members.data()),
    "Group");
  check(OTF2_GlobalDefWriter_WriteComm(
          d, 0, writer.string("MPI_COMM_WORLD"), 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
    "Comm");
  const OTF2_StringRef metric = writer.string("counter");
  check(OTF2_GlobalDefWriter_WriteMetricMember(d, 0, metric, empty, OTF2_METRIC_TYPE_OTHER,
          OTF2_METRIC_ABSOLUTE_POINT, OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, 0, empty),
    "MetricMember");
  const OTF2_MetricMemberRef member = 0;
  check(OTF2_GlobalDefWriter_WriteMetricClass(
          d, 0, 1, &member, OTF2_METRIC_SYNCHRONOUS, OTF2_RECORDER_KIND_CPU),
    "MetricClass");
  return writer.close();
}

TEST(OTF2Pitfalls, LeaveWithoutEnterIsCountedAndSkipped)
{
  ScratchDirectory scratch;
  const std::string anchor = writeRanks(scratch.path(), 1,
    [](ArchiveWriter& writer)
    {
      OTF2_EvtWriter* w = writer.events(0);
      check(OTF2_EvtWriter_Leave(w, nullptr, at(1), 1), "Leave"); // recording began inside `inner`
      check(OTF2_EvtWriter_Enter(w, nullptr, at(2), 0), "Enter");
      check(OTF2_EvtWriter_Leave(w, nullptr, at(3), 0), "Leave");
    });
  const TraceData trace = ReadTrace(anchor);
  EXPECT_EQ(trace.Report.LeavesWithoutEnter, 1u);
  ASSERT_EQ(trace.States.size(), 1u);
  EXPECT_DOUBLE_EQ(trace.States.Start[0], ms(2));
  EXPECT_DOUBLE_EQ(trace.States.End[0], ms(3));
}

// Regions named alike are one state type, and pair across their
// definitions: an Enter of one "main" closes at a Leave of the other, as
// otf2-print's names pair them (EZTrace's OpenMP threads do this).
TEST(OTF2Pitfalls, RegionsNamedAlikePairAcrossDefinitions)
{
  ScratchDirectory scratch;
  const std::string anchor = writeRanks(scratch.path(), 1,
    [](ArchiveWriter& writer)
    {
      OTF2_EvtWriter* w = writer.events(0);
      check(OTF2_EvtWriter_Enter(w, nullptr, at(1), 0), "Enter");
      check(OTF2_EvtWriter_Enter(w, nullptr, at(2), 1), "Enter");
      check(OTF2_EvtWriter_Leave(w, nullptr, at(3), 1), "Leave");
      check(OTF2_EvtWriter_Leave(w, nullptr, at(4), 2), "Leave"); // the other "main"
      check(OTF2_EvtWriter_Enter(w, nullptr, at(5), 2), "Enter");
      check(OTF2_EvtWriter_Enter(w, nullptr, at(6), 1), "Enter");
      check(OTF2_EvtWriter_Leave(w, nullptr, at(7), 0), "Leave"); // misnested, through the alias
      check(OTF2_EvtWriter_Leave(w, nullptr, at(8), 1), "Leave"); // inner's late Leave
    });
  const TraceData trace = ReadTrace(anchor);
  EXPECT_EQ(trace.States.Type, (Column<uint32_t>{ 1, 0, 1, 0 }));
  EXPECT_EQ(trace.States.Start, (Column<double>{ ms(2), ms(1), ms(6), ms(5) }));
  EXPECT_EQ(trace.States.End, (Column<double>{ ms(3), ms(4), ms(7), ms(7) }));
  EXPECT_EQ(trace.Report.LeavesWithoutEnter, 0u);
  EXPECT_EQ(trace.Report.MisnestedLeaves, 1u);
  EXPECT_EQ(trace.Report.StatesClosedEarly, 1u);
}

// A Leave of an enclosing region closes the regions opened inside it at
// that time (the archive is not refused); their own Leave is then ignored.
TEST(OTF2Pitfalls, MismatchedLeaveClosesTheInnerRegions)
{
  ScratchDirectory scratch;
  const std::string anchor = writeRanks(scratch.path(), 1,
    [](ArchiveWriter& writer)
    {
      OTF2_EvtWriter* w = writer.events(0);
      check(OTF2_EvtWriter_Enter(w, nullptr, at(1), 0), "Enter");
      check(OTF2_EvtWriter_Enter(w, nullptr, at(2), 1), "Enter");
      check(OTF2_EvtWriter_Leave(w, nullptr, at(3), 0), "Leave"); // leaves main inside inner
      check(OTF2_EvtWriter_Leave(w, nullptr, at(4), 1), "Leave"); // inner's own, late Leave
      check(OTF2_EvtWriter_Enter(w, nullptr, at(5), 0), "Enter"); // the rest of the location
      check(OTF2_EvtWriter_Leave(w, nullptr, at(6), 0), "Leave");
    });
  const TraceData trace = ReadTrace(anchor);
  EXPECT_EQ(trace.States.Type, (Column<uint32_t>{ 1, 0, 0 }));
  EXPECT_EQ(trace.States.Depth, (Column<uint32_t>{ 1, 0, 0 }));
  EXPECT_EQ(trace.States.Start, (Column<double>{ ms(2), ms(1), ms(5) }));
  EXPECT_EQ(trace.States.End, (Column<double>{ ms(3), ms(3), ms(6) }));
  EXPECT_EQ(trace.Report.MisnestedLeaves, 1u);
  EXPECT_EQ(trace.Report.StatesClosedEarly, 1u);
  EXPECT_EQ(trace.Report.LeavesWithoutEnter, 0u); // inner's late Leave is accounted for
  const std::string text = Describe(trace.Report);
  EXPECT_NE(text.find("1 Leave records of a region that was not the innermost"), std::string::npos)
    << text;
}

TEST(OTF2Pitfalls, UnmatchedSendsAndReceivesAreCounted)
{
  ScratchDirectory scratch;
  const std::string anchor = writeRanks(scratch.path(), 2,
    [](ArchiveWriter& writer)
    {
      OTF2_EvtWriter* w0 = writer.events(0);
      check(OTF2_EvtWriter_MpiSend(w0, nullptr, at(1), 1, 0, 1, 10), "MpiSend");
      check(OTF2_EvtWriter_MpiSend(w0, nullptr, at(2), 1, 0, 2, 20), "MpiSend"); // no receive
      OTF2_EvtWriter* w1 = writer.events(1);
      check(OTF2_EvtWriter_MpiRecv(w1, nullptr, at(3), 0, 0, 1, 10), "MpiRecv");
      check(OTF2_EvtWriter_MpiRecv(w1, nullptr, at(4), 0, 0, 3, 30), "MpiRecv"); // no send
      check(OTF2_EvtWriter_MpiRecv(w1, nullptr, at(5), 7, 0, 3, 30), "MpiRecv"); // rank 7: none
    });
  const TraceData trace = ReadTrace(anchor);
  EXPECT_EQ(trace.Messages.size(), 1u);
  EXPECT_EQ(trace.Messages.Tag[0], 1u);
  EXPECT_EQ(trace.Report.UnmatchedSends, 1u);
  EXPECT_EQ(trace.Report.UnmatchedReceives, 1u);
  EXPECT_EQ(trace.Report.UnknownPeers, 1u);
  const std::string text = Describe(trace.Report);
  EXPECT_NE(text.find("1 sends without a matching receive"), std::string::npos) << text;
}

TEST(OTF2Pitfalls, NonOvertakingOrderPairsMessagesFirstInFirstOut)
{
  ScratchDirectory scratch;
  const std::string anchor = writeRanks(scratch.path(), 2,
    [](ArchiveWriter& writer)
    {
      OTF2_EvtWriter* w0 = writer.events(0);
      check(OTF2_EvtWriter_MpiIsend(w0, nullptr, at(1), 1, 0, 5, 111, 1), "MpiIsend");
      check(OTF2_EvtWriter_MpiIsend(w0, nullptr, at(2), 1, 0, 6, 666, 2), "MpiIsend");
      check(OTF2_EvtWriter_MpiIsend(w0, nullptr, at(3), 1, 0, 5, 222, 3), "MpiIsend");
      // Completions in another order than the sends: does not matter.
      check(OTF2_EvtWriter_MpiIsendComplete(w0, nullptr, at(9), 3), "MpiIsendComplete");
      check(OTF2_EvtWriter_MpiIsendComplete(w0, nullptr, at(9), 1), "MpiIsendComplete");
      check(OTF2_EvtWriter_MpiIsendComplete(w0, nullptr, at(9), 2), "MpiIsendComplete");
      OTF2_EvtWriter* w1 = writer.events(1);
      // Receives posted before the sends, on the other location's clock.
      check(OTF2_EvtWriter_MpiIrecvRequest(w1, nullptr, at(0), 40), "MpiIrecvRequest");
      check(OTF2_EvtWriter_MpiIrecvRequest(w1, nullptr, at(0), 41), "MpiIrecvRequest");
      check(OTF2_EvtWriter_MpiIrecvRequest(w1, nullptr, at(0), 42), "MpiIrecvRequest");
      check(OTF2_EvtWriter_MpiIrecv(w1, nullptr, at(4), 0, 0, 6, 666, 42), "MpiIrecv");
      check(OTF2_EvtWriter_MpiIrecv(w1, nullptr, at(5), 0, 0, 5, 111, 40), "MpiIrecv");
      check(OTF2_EvtWriter_MpiIrecv(w1, nullptr, at(6), 0, 0, 5, 222, 41), "MpiIrecv");
    });
  const TraceData trace = ReadTrace(anchor);
  const MessageColumns& m = trace.Messages;
  ASSERT_EQ(m.size(), 3u);
  for (std::size_t row = 0; row < m.size(); ++row)
  {
    // Each receive got the send of the same size: FIFO per (channel, tag).
    EXPECT_EQ(m.Bytes[row], m.RecvBytes[row]) << "row " << row;
  }
  EXPECT_EQ(m.Bytes, (Column<uint64_t>{ 111, 222, 666 })); // channel order: tag 5, then 6
  EXPECT_EQ(m.RecvTime, (Column<double>{ ms(5), ms(6), ms(4) }));
  EXPECT_EQ(trace.Report.IsendCompletesWithoutIsend, 0u);
  EXPECT_EQ(trace.Report.IrecvRequestsNotCompleted, 0u);
}

TEST(OTF2Pitfalls, RequestBookkeepingReportsLooseEnds)
{
  ScratchDirectory scratch;
  const std::string anchor = writeRanks(scratch.path(), 2,
    [](ArchiveWriter& writer)
    {
      OTF2_EvtWriter* w0 = writer.events(0);
      check(
        OTF2_EvtWriter_MpiIsend(w0, nullptr, at(1), 1, 0, 5, 8, 1), "MpiIsend"); // never completed
      check(OTF2_EvtWriter_MpiIsend(w0, nullptr, at(2), 1, 0, 6, 8, 2), "MpiIsend");
      check(OTF2_EvtWriter_MpiRequestCancelled(w0, nullptr, at(3), 2), "MpiRequestCancelled");
      check(OTF2_EvtWriter_MpiIsendComplete(w0, nullptr, at(4), 77), "MpiIsendComplete"); // unknown
      OTF2_EvtWriter* w1 = writer.events(1);
      check(OTF2_EvtWriter_MpiIrecvRequest(w1, nullptr, at(1), 3),
        "MpiIrecvRequest"); // never completed
      check(OTF2_EvtWriter_MpiIrecv(w1, nullptr, at(5), 0, 0, 5, 8, 4), "MpiIrecv"); // no request
    });
  const TraceData trace = ReadTrace(anchor);
  EXPECT_EQ(trace.Messages.size(), 1u);
  EXPECT_EQ(trace.Report.IsendsNotCompleted, 1u);
  EXPECT_EQ(trace.Report.CancelledRequests, 1u);
  EXPECT_EQ(trace.Report.IsendCompletesWithoutIsend, 1u);
  EXPECT_EQ(trace.Report.IrecvRequestsNotCompleted, 1u);
  EXPECT_EQ(trace.Report.IrecvsWithoutRequest, 1u);
  EXPECT_EQ(trace.Report.UnmatchedSends, 0u); // the cancelled send is gone, not unmatched
}

TEST(OTF2Pitfalls, UnpairedCollectivesAreCounted)
{
  ScratchDirectory scratch;
  const std::string anchor = writeRanks(scratch.path(), 1,
    [](ArchiveWriter& writer)
    {
      OTF2_EvtWriter* w = writer.events(0);
      check(OTF2_EvtWriter_MpiCollectiveEnd(
              w, nullptr, at(1), OTF2_COLLECTIVE_OP_BARRIER, 0, OTF2_UNDEFINED_UINT32, 0, 0),
        "MpiCollectiveEnd");
      check(OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, at(2)), "MpiCollectiveBegin");
    });
  const TraceData trace = ReadTrace(anchor);
  EXPECT_EQ(trace.Report.CollectiveEndsWithoutBegin, 1u);
  EXPECT_EQ(trace.Report.CollectiveBeginsWithoutEnd, 1u);
  EXPECT_EQ(trace.Events.size(), 2u);
  EXPECT_EQ(trace.Events.Operation, (Column<int32_t>{ OTF2_COLLECTIVE_OP_BARRIER, -1 }));
}

TEST(OTF2Pitfalls, MetricValuesOfEveryTypeBecomeDoubles)
{
  ScratchDirectory scratch;
  const std::string anchor = writeRanks(scratch.path(), 1,
    [](ArchiveWriter& writer)
    {
      OTF2_EvtWriter* w = writer.events(0);
      OTF2_MetricValue value;
      OTF2_Type type = OTF2_TYPE_UINT64;
      value.unsigned_int = 18446744073709551615ull;
      check(OTF2_EvtWriter_Metric(w, nullptr, at(1), 0, 1, &type, &value), "Metric");
      type = OTF2_TYPE_INT64;
      value.signed_int = -42;
      check(OTF2_EvtWriter_Metric(w, nullptr, at(1), 0, 1, &type, &value), "Metric");
      // Samples sharing a timestamp with Enter/Leave are fine.
      check(OTF2_EvtWriter_Enter(w, nullptr, at(2), 0), "Enter");
      type = OTF2_TYPE_DOUBLE;
      value.floating_point = 0.25;
      check(OTF2_EvtWriter_Metric(w, nullptr, at(2), 0, 1, &type, &value), "Metric");
      check(OTF2_EvtWriter_Leave(w, nullptr, at(3), 0), "Leave");
      check(OTF2_EvtWriter_Metric(w, nullptr, at(3), 9, 1, &type, &value), "Metric"); // undefined
    });
  const TraceData trace = ReadTrace(anchor);
  EXPECT_EQ(trace.Variables.Value, (Column<double>{ 18446744073709551615.0, -42.0, 0.25 }));
  EXPECT_EQ(trace.Variables.Time, (Column<double>{ ms(1), ms(1), ms(2) }));
  EXPECT_EQ(trace.Report.UndefinedReferences, 1u);
  EXPECT_EQ(trace.States.size(), 1u);
}

TEST(OTF2Pitfalls, TicksFarFromZeroKeepNanosecondPrecision)
{
  ScratchDirectory scratch;
  // 2^62 ns is 146 years of uptime: a double holds such a tick count only to
  // ~1 us, so converting before subtracting would lose the nanoseconds.
  const uint64_t offset = (uint64_t(1) << 62) + 12345;
  const std::string anchor = writeRanks(
    scratch.path(), 1,
    [offset](ArchiveWriter& writer)
    {
      OTF2_EvtWriter* w = writer.events(0);
      check(OTF2_EvtWriter_Enter(w, nullptr, offset + 1, 0), "Enter");
      check(OTF2_EvtWriter_Leave(w, nullptr, offset + 3, 0), "Leave");
    },
    offset, 1000000000);
  const TraceData trace = ReadTrace(anchor);
  ASSERT_EQ(trace.States.size(), 1u);
  EXPECT_DOUBLE_EQ(trace.States.Start[0], 1e-9);
  EXPECT_DOUBLE_EQ(trace.States.End[0], 3e-9);
}

TEST(OTF2Pitfalls, ProgressReachesOneAndFalseAborts)
{
  ScratchDirectory scratch;
  const std::string anchor = writeRanks(scratch.path(), 2,
    [](ArchiveWriter& writer)
    {
      for (uint64_t rank : { 0, 1 })
      {
        OTF2_EvtWriter* w = writer.events(rank);
        check(OTF2_EvtWriter_Enter(w, nullptr, at(1), 0), "Enter");
        check(OTF2_EvtWriter_Leave(w, nullptr, at(2), 0), "Leave");
      }
    });
  ReadOptions options;
  std::vector<double> fractions;
  options.Progress = [&fractions](double fraction)
  {
    fractions.push_back(fraction);
    return true;
  };
  ReadTrace(anchor, options);
  ASSERT_FALSE(fractions.empty());
  EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
  EXPECT_DOUBLE_EQ(fractions.back(), 1.0);

  int calls = 0;
  options.Progress = [&calls](double) { return ++calls < 2; };
  EXPECT_THROW(ReadTrace(anchor, options), ReadAborted);
  EXPECT_EQ(calls, 2);
}

} // namespace
