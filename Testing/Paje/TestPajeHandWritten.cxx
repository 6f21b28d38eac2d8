// Small hand-written Pajé traces, every event kind, with the expected tables
// worked out by hand.
#include <MacroscopePaje.h>
#include <PajeEventDefinition.h>

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace
{
using namespace macroscope::paje;

// Headers in unusual field orders, with an unknown field (Comment) and a
// Size field on StartLink; CRLF line ends on one of them.
const char* const Headers = R"(# a comment
%EventDef PajeDefineContainerType 0
%       Type string
%       Alias string
%       Name string
%EndEventDef
%EventDef PajeDefineStateType 1
%       Name string
%       Type string
%       Alias string
%EndEventDef
%EventDef PajeDefineEventType 2
%       Alias string
%       Name string
%       Type string
%EndEventDef
%EventDef PajeDefineVariableType 3
%       Alias string
%       Type string
%       Name string
%       Color color
%EndEventDef
%EventDef PajeDefineLinkType 4
%       EndContainerType string
%       Alias string
%       Type string
%       StartContainerType string
%       Name string
%EndEventDef
%EventDef PajeDefineEntityValue 5
%       Color color
%       Name string
%       Type string
%       Alias string
%EndEventDef
%EventDef PajeCreateContainer 6
%       Name string
%       Time date
%       Alias string
%       Container string
%       Type string
%EndEventDef
%EventDef PajeDestroyContainer 7
%       Type string
%       Time date
%       Name string
%EndEventDef
%EventDef PajeSetState 8
%       Value string
%       Container string
%       Type string
%       Time date
%EndEventDef
%EventDef PajePushState 9
%       Time date
%       Container string
%       Value string
%       Comment string
%       Type string
%EndEventDef
%EventDef PajePopState 10
%       Container string
%       Time date
%       Type string
%EndEventDef
%EventDef PajeResetState 11
%       Type string
%       Container string
%       Time date
%EndEventDef
%EventDef PajeNewEvent 12
%       Container string
%       Value string
%       Type string
%       Time date
%EndEventDef
%EventDef PajeSetVariable 13
%       Time date
%       Value double
%       Type string
%       Container string
%EndEventDef
%EventDef PajeAddVariable 14
%       Value double
%       Time date
%       Container string
%       Type string
%EndEventDef
%EventDef PajeSubVariable 15
%       Container string
%       Type string
%       Time date
%       Value double
%EndEventDef
%EventDef PajeStartLink 16
%       Key string
%       StartContainer string
%       Value string
%       Container string
%       size int
%       Type string
%       Time date
%EndEventDef
%EventDef PajeEndLink 17
%       Time date
%       Type string
%       Container string
%       Value string
%       EndContainer string
%       Key string
%EndEventDef
)";

std::string trace(const std::string& body)
{
  return std::string(Headers) + body;
}

TEST(PajeHandWritten, EveryEventKind)
{
  const std::string body = "0 0 CT_H Host\r\n"
                           "0 CT_H CT_P \"MPI rank\"\n"
                           "1 PSTATE CT_P ST\n"
                           "2 ET ET CT_P\n"
                           "3 VP CT_H \"power used\" \"1 0 0.5\"\n"
                           "4 CT_P LT 0 CT_P MPI_LINK\n"
                           "5 \"0 1 0\" compute ST c\n"
                           "5 \"0 0 1\" MPI_Send ST s\n"
                           "\n"
                           "   # an indented comment\n"
                           "6 \"host 0\" 0.0 h0 0 CT_H\n"
                           "6 \"rank 0\" 0.0 r0 h0 CT_P\n"
                           "6 \"rank 1\" 0.0 r1 \"host 0\" \"MPI rank\"\n"
                           "9 1.0 r0 c \"note with spaces\" ST\n"
                           "9 2.0 r0 MPI_Send x ST\n"
                           "10 r0 3.0 ST\n"
                           "8 compute r0 ST 4.0\n"
                           "8 MPI_Send r1 ST 1.5\n"
                           "11 ST r1 2.5\n"
                           "12 r1 marker ET 2.0\n"
                           "13 1.0 10 VP h0\n"
                           "14 2.0 2.5 h0 VP\n"
                           "15 h0 VP 3.0 4.5\n"
                           "17 4.0 LT 0 msg r0 k1\n"
                           "16 k1 r1 msg 0 128 LT 3.5\n"
                           "16 k2 r0 msg 0 64 LT 5.0\n"
                           "17 6.0 LT 0 msg r1 k2\n"
                           "16 k3 r0 msg 0 1 LT 6.0\n"
                           "7 CT_P 7.0 r1\n";
  const TraceData t = ParseTrace(trace(body));

  // Hierarchy: root, host 0 (which holds a variable: self leaf), rank 0, rank 1.
  ASSERT_EQ(t.Hierarchy.size(), 5u);
  EXPECT_EQ(t.Hierarchy.Name[0], "root");
  EXPECT_EQ(t.Hierarchy.Parent[0], -1);
  EXPECT_EQ(t.Hierarchy.Name[1], "host 0");
  EXPECT_EQ(t.Hierarchy.Kind[1], "Host");
  EXPECT_EQ(t.Hierarchy.LeafIndex[1], -1);
  EXPECT_EQ(t.Hierarchy.Name[2], "host 0"); // the self leaf
  EXPECT_EQ(t.Hierarchy.Parent[2], 1);
  EXPECT_EQ(t.Hierarchy.LeafIndex[2], 0);
  EXPECT_EQ(t.Hierarchy.Name[3], "rank 0");
  EXPECT_EQ(t.Hierarchy.Kind[3], "MPI rank");
  EXPECT_EQ(t.Hierarchy.LeafIndex[3], 1);
  EXPECT_EQ(t.Hierarchy.Name[4], "rank 1");
  EXPECT_EQ(t.Hierarchy.LeafIndex[4], 2);
  ASSERT_EQ(t.Leaves.size(), 3u);
  EXPECT_TRUE(t.Leaves[0].Self);
  EXPECT_EQ(t.Leaves[1].Container, "r0");
  EXPECT_EQ(t.Report.SelfLeaves, 1u);

  // Types: variable, link, the two values in definition order, the implicit event value.
  ASSERT_EQ(t.Types.size(), 5u);
  EXPECT_EQ(t.Types.Name[0], "power used");
  EXPECT_EQ(t.Types.Kind[0], "variable");
  EXPECT_EQ(t.Types.TraceColor[0], (std::array<uint8_t, 3>{ 255, 0, 128 }));
  EXPECT_EQ(t.Types.Name[1], "MPI_LINK");
  EXPECT_EQ(t.Types.Kind[1], "link");
  EXPECT_EQ(t.Types.Name[2], "compute");
  EXPECT_EQ(t.Types.Kind[2], "state");
  EXPECT_EQ(t.Types.Paradigm[2], "PSTATE");
  EXPECT_EQ(t.Types.TraceColor[2], (std::array<uint8_t, 3>{ 0, 255, 0 }));
  EXPECT_EQ(t.Types.TraceColor[3], (std::array<uint8_t, 3>{ 0, 0, 255 }));
  // The event value "marker" is implicit: added on first use.
  EXPECT_EQ(t.Report.ImplicitValues, 1u);

  // States, in the order they close:
  //   r0: push compute@1 (depth 0), push MPI_Send@2 (depth 1), pop@3 -> [2,3] d1;
  //       set compute@4 replaces the top compute@1 -> [1,4] d0; compute@4 open to the end (7).
  //   r1: set MPI_Send@1.5, reset@2.5 -> [1.5,2.5] d0.
  ASSERT_EQ(t.States.size(), 4u);
  auto state =
    [&](std::size_t i, uint32_t leaf, uint32_t type, uint32_t depth, double start, double end)
  {
    EXPECT_EQ(t.States.Location[i], leaf) << i;
    EXPECT_EQ(t.States.Type[i], type) << i;
    EXPECT_EQ(t.States.Depth[i], depth) << i;
    EXPECT_EQ(t.States.Start[i], start) << i;
    EXPECT_EQ(t.States.End[i], end) << i;
  };
  state(0, 1, 3, 1, 2.0, 3.0);
  state(1, 1, 2, 0, 1.0, 4.0);
  state(2, 2, 3, 0, 1.5, 2.5);
  state(3, 1, 2, 0, 4.0, 7.0);
  EXPECT_EQ(t.Report.StatesLeftOpen, 1u);
  EXPECT_EQ(t.Report.StatesClosedByDestroy, 0u);

  ASSERT_EQ(t.Events.size(), 1u);
  EXPECT_EQ(t.Events.Location[0], 2u);
  EXPECT_EQ(t.Types.Name[t.Events.Type[0]], "marker");
  EXPECT_EQ(t.Types.Kind[t.Events.Type[0]], "event");
  EXPECT_EQ(t.Events.Time[0], 2.0);
  EXPECT_EQ(t.Events.Root[0], -1);

  // Variables: 10, then +2 = 12, then -4.5 = 7.5; on the host's self leaf.
  ASSERT_EQ(t.Variables.size(), 3u);
  EXPECT_EQ(t.Variables.Value[0], 10.0);
  EXPECT_EQ(t.Variables.Value[1], 12.0);
  EXPECT_EQ(t.Variables.Value[2], 7.5);
  EXPECT_EQ(t.Variables.Time[2], 3.0);
  EXPECT_EQ(t.Variables.Location[0], 0u);
  EXPECT_EQ(t.Variables.Variable[0], 0u);

  // Links: k1 ends (r0 @4) before it starts (r1 @3.5 in the file order):
  // matched all the same; k2 in order; k3 never ends.
  ASSERT_EQ(t.Messages.size(), 2u);
  EXPECT_EQ(t.Messages.Sender[0], 2u);
  EXPECT_EQ(t.Messages.Receiver[0], 1u);
  EXPECT_EQ(t.Messages.SendTime[0], 3.5);
  EXPECT_EQ(t.Messages.RecvTime[0], 4.0);
  EXPECT_EQ(t.Messages.Bytes[0], 128u);
  EXPECT_EQ(t.Messages.Sender[1], 1u);
  EXPECT_EQ(t.Messages.Receiver[1], 2u);
  EXPECT_EQ(t.Messages.Bytes[1], 64u);
  EXPECT_EQ(t.Messages.Communicator[1], 1u);
  EXPECT_EQ(t.Messages.Tag[1], 0u);
  EXPECT_EQ(t.Report.UnmatchedStartLinks, 1u);
  EXPECT_EQ(t.Report.UnmatchedEndLinks, 0u);
  EXPECT_EQ(t.Report.EndsBeforeStarts, 0u);

  EXPECT_EQ(t.Report.FirstTime, 0.0);
  EXPECT_EQ(t.Report.LastTime, 7.0);
  EXPECT_EQ(t.Report.Events[std::size_t(EventKind::StartLink)], 3u);
}

TEST(PajeHandWritten, DestroyClosesStatesOfDescendants)
{
  const std::string body = "0 0 CT_H H\n"
                           "0 CT_H CT_P P\n"
                           "1 S CT_P S\n"
                           "6 h 0 h 0 CT_H\n"
                           "6 p 0 p h CT_P\n"
                           "9 1 p a x S\n"
                           "9 2 p b x S\n"
                           "7 H 5 h\n";
  const TraceData t = ParseTrace(trace(body));
  ASSERT_EQ(t.States.size(), 2u);
  EXPECT_EQ(t.States.End[0], 5.0);
  EXPECT_EQ(t.States.Depth[0], 1u);
  EXPECT_EQ(t.States.End[1], 5.0);
  EXPECT_EQ(t.Report.StatesClosedByDestroy, 2u);
  EXPECT_EQ(t.Report.StatesLeftOpen, 0u);
  // Leaves: p only (h has children and no data of its own).
  ASSERT_EQ(t.Leaves.size(), 1u);
  EXPECT_EQ(t.Leaves[0].Container, "p");
}

TEST(PajeHandWritten, LinksMatchFifoPerKeyAndOnlyWithinTheirType)
{
  const std::string body = "0 0 CT_P P\n"
                           "4 CT_P A 0 CT_P A\n"
                           "4 CT_P B 0 CT_P B\n"
                           "6 p0 0 p0 0 CT_P\n"
                           "6 p1 0 p1 0 CT_P\n"
                           "16 k p0 v 0 1 A 1\n"
                           "16 k p1 v 0 2 A 2\n"
                           "17 3 B 0 v p1 k\n" // type B: does not match type A's key k
                           "17 4 A 0 v p1 k\n"
                           "17 5 A 0 v p0 k\n";
  const TraceData t = ParseTrace(trace(body));
  ASSERT_EQ(t.Messages.size(), 2u);
  EXPECT_EQ(t.Messages.SendTime[0], 1.0); // first start, first end
  EXPECT_EQ(t.Messages.RecvTime[0], 4.0);
  EXPECT_EQ(t.Messages.Bytes[0], 1u);
  EXPECT_EQ(t.Messages.SendTime[1], 2.0);
  EXPECT_EQ(t.Messages.RecvTime[1], 5.0);
  EXPECT_EQ(t.Report.UnmatchedEndLinks, 1u);
  EXPECT_EQ(t.Types.Name[t.Messages.Communicator[0]], "A");
}

TEST(PajeHandWritten, EmptyInputGivesARootLeaf)
{
  const TraceData t = ParseTrace("");
  ASSERT_EQ(t.Hierarchy.size(), 1u);
  EXPECT_EQ(t.Hierarchy.LeafIndex[0], 0);
  EXPECT_EQ(t.States.size(), 0u);
  EXPECT_TRUE(std::isnan(t.Report.LastTime));
}

TEST(PajeHandWritten, ProgressCanAbort)
{
  std::string body = "0 0 CT_P P\n6 p 0 p 0 CT_P\n3 V CT_P V \"0 0 0\"\n";
  for (int i = 0; i < 70000; ++i)
  {
    body += "13 " + std::to_string(i) + " 1 V p\n";
  }
  ReadOptions options;
  double last = -1.0;
  options.Progress = [&](double fraction)
  {
    EXPECT_GE(fraction, last);
    last = fraction;
    return true;
  };
  const TraceData t = ParseTrace(trace(body), options);
  EXPECT_EQ(t.Variables.size(), 70000u);
  EXPECT_EQ(last, 1.0);
  options.Progress = [](double) { return false; };
  EXPECT_THROW(ParseTrace(trace(body), options), ReadAborted);
}

} // namespace
