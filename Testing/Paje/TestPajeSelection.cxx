// The reader's row filtering (PajeSelection.h): hand-computed windows and
// selections on a parsed trace, and the piece split checked for cover,
// contiguity and balance, and for giving back the whole trace as a union.
#include <MacroscopePaje.h>
#include <PajeSelection.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

namespace
{
using namespace macroscope::paje;

const char* const Trace = R"(%EventDef PajeDefineContainerType 0
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineStateType 1
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineEventType 2
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineVariableType 3
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineLinkType 4
% Alias string
% Type string
% StartContainerType string
% EndContainerType string
% Name string
%EndEventDef
%EventDef PajeCreateContainer 5
% Time date
% Alias string
% Type string
% Container string
% Name string
%EndEventDef
%EventDef PajePushState 6
% Time date
% Type string
% Container string
% Value string
%EndEventDef
%EventDef PajePopState 7
% Time date
% Type string
% Container string
%EndEventDef
%EventDef PajeNewEvent 8
% Time date
% Type string
% Container string
% Value string
%EndEventDef
%EventDef PajeSetVariable 9
% Time date
% Type string
% Container string
% Value double
%EndEventDef
%EventDef PajeStartLink 10
% Time date
% Type string
% Container string
% StartContainer string
% Value string
% Key string
%EndEventDef
%EventDef PajeEndLink 11
% Time date
% Type string
% Container string
% EndContainer string
% Value string
% Key string
%EndEventDef
0 P 0 Process
1 S P State
2 E P Event
3 V P Var
4 L 0 P P Link
5 0 p0 P 0 p0
5 0 p1 P 0 p1
5 0 p2 P 0 p2
6 1 S p0 a
6 2 S p0 b
7 3 S p0
7 5 S p0
6 4 S p1 a
7 6 S p1
8 2.5 E p1 mark
9 1 V p2 7
9 4 V p2 8
10 1 L 0 p0 m k1
11 2 L 0 p1 m k1
10 5 L 0 p1 m k2
11 6 L 0 p2 m k2
)";

TEST(PajeSelection, WindowAndSelections)
{
  const TraceData t = ParseTrace(Trace);
  ASSERT_EQ(t.Leaves.size(), 3u);
  ASSERT_EQ(t.States.size(), 3u); // b [2,3] depth 1, a [1,5], a [4,6] on p1

  Selection all;
  SelectedTables out = Select(t, all);
  EXPECT_EQ(out.States.size(), 3u);
  EXPECT_EQ(out.Messages.size(), 2u);
  EXPECT_EQ(out.Events.size(), 1u);
  EXPECT_EQ(out.Variables.size(), 2u);
  EXPECT_EQ(out.OutsideWindow() + out.RowsOfUnreadLocations + out.StatesOfUnreadRegions, 0u);
  EXPECT_EQ(DescribeSelection(out, all), "");

  // Window [3.5, 4.5]: the states [1,5] and [4,6] overlap it, b [2,3] does
  // not; the messages fly in [1,2] and [5,6]; the event is at 2.5; of the
  // samples at 1 and 4, the second is inside.
  Selection window;
  window.WindowBegin = 3.5;
  window.WindowEnd = 4.5;
  out = Select(t, window);
  ASSERT_EQ(out.States.size(), 2u);
  EXPECT_EQ(out.States.Start[0], 1.0);
  EXPECT_EQ(out.States.End[0], 5.0);
  EXPECT_EQ(out.Messages.size(), 0u);
  EXPECT_EQ(out.Events.size(), 0u);
  ASSERT_EQ(out.Variables.size(), 1u);
  EXPECT_EQ(out.Variables.Value[0], 8.0);
  // What it left out is counted, kind by kind.
  EXPECT_EQ(out.StatesOutsideWindow, 1u);
  EXPECT_EQ(out.MessagesOutsideWindow, 2u);
  EXPECT_EQ(out.EventsOutsideWindow, 1u);
  EXPECT_EQ(out.SamplesOutsideWindow, 1u);
  EXPECT_EQ(out.RowsOfUnreadLocations + out.StatesOfUnreadRegions, 0u);
  const std::string report = DescribeSelection(out, window);
  EXPECT_NE(
    report.find("1 states outside the time window 3.5 s to 4.5 s (not kept)\n"), std::string::npos)
    << report;
  EXPECT_NE(report.find("2 links outside"), std::string::npos) << report;
  EXPECT_NE(report.find("1 events outside"), std::string::npos) << report;
  EXPECT_NE(report.find("1 variable changes outside"), std::string::npos) << report;

  window.ClipStatesToWindow = true;
  out = Select(t, window);
  ASSERT_EQ(out.States.size(), 2u);
  EXPECT_EQ(out.States.Start[0], 3.5);
  EXPECT_EQ(out.States.End[0], 4.5);
  EXPECT_EQ(out.States.Start[1], 4.0);
  EXPECT_EQ(out.States.End[1], 4.5);

  // Window borders are closed: a message arriving exactly at the start.
  Selection edge;
  edge.WindowBegin = 2.0;
  edge.WindowEnd = 2.0;
  out = Select(t, edge);
  EXPECT_EQ(out.Messages.size(), 1u);
  EXPECT_EQ(out.States.size(), 2u);         // [1,5] and [2,3]
  EXPECT_EQ(out.StatesOutsideWindow, 1u);   // [4,6]
  EXPECT_EQ(out.MessagesOutsideWindow, 1u); // [5,6]
  EXPECT_EQ(out.EventsOutsideWindow, 1u);   // 2.5
  EXPECT_EQ(out.SamplesOutsideWindow, 2u);  // 1 and 4

  // Leaf p1 unselected: its state and event go, and both messages touch it.
  Selection leaves;
  leaves.Leaves = { 1, 0, 1 };
  out = Select(t, leaves);
  EXPECT_EQ(out.States.size(), 2u);
  EXPECT_EQ(out.Events.size(), 0u);
  EXPECT_EQ(out.Messages.size(), 0u);
  EXPECT_EQ(out.MessagesWithUnreadEnd, 2u);
  EXPECT_EQ(out.Variables.size(), 2u);
  // p1's state and event: counted apart from the window's drops.
  EXPECT_EQ(out.RowsOfUnreadLocations, 2u);
  EXPECT_EQ(out.OutsideWindow(), 0u);
  EXPECT_NE(DescribeSelection(out, leaves)
              .find("2 states, events and variable changes of "
                    "containers not selected in Locations"),
    std::string::npos);

  // Only the value "b": one state, at its true depth 1.
  Selection values;
  values.StateTypes.assign(t.Types.size(), 0);
  const auto b = std::find(t.Types.Name.begin(), t.Types.Name.end(), "b") - t.Types.Name.begin();
  values.StateTypes[std::size_t(b)] = 1;
  out = Select(t, values);
  ASSERT_EQ(out.States.size(), 1u);
  EXPECT_EQ(out.States.Depth[0], 1u);
  EXPECT_EQ(out.States.Type[0], uint32_t(b));
  EXPECT_EQ(out.StatesOfUnreadRegions, 2u); // the two "a"
  EXPECT_EQ(out.OutsideWindow() + out.RowsOfUnreadLocations, 0u);

  // A state of an unselected leaf outside the window counts once, for its
  // leaf; one of an unselected value, for its value.
  Selection both = window;
  both.Leaves = { 1, 0, 1 };
  both.StateTypes = values.StateTypes;
  out = Select(t, both);
  EXPECT_EQ(out.States.size(), 0u); // b [2,3] is outside
  EXPECT_EQ(out.StatesOutsideWindow, 1u);
  EXPECT_EQ(out.StatesOfUnreadRegions, 1u); // a [1,5] on p0
  EXPECT_EQ(out.RowsOfUnreadLocations, 2u); // a [4,6] and the event on p1
}

TEST(PajeSelection, EveryRowKeptOrCountedOnceAndPiecesAddUp)
{
  // A random trace with every kind of row on 23 leaves.
  std::mt19937 random(24);
  std::string text = std::string(Trace).substr(0, std::string(Trace).find("5 0 p0"));
  const int leaves = 23;
  for (int l = 0; l < leaves; ++l)
  {
    text += "5 0 c" + std::to_string(l) + " P 0 c" + std::to_string(l) + "\n";
  }
  double time = 0.0;
  for (int k = 0; k < 400; ++k)
  {
    time += 0.1;
    const std::string c = " c" + std::to_string(random() % leaves);
    const std::string t0 = std::to_string(time);
    const std::string t1 = std::to_string(time + 0.01 * (random() % 10)); // before the next row
    const std::string value = random() % 2 ? " a" : " b";
    text += "6 " + t0 + " S" + c + value + "\n7 " + t1 + " S" + c + "\n";
    text += "8 " + t0 + " E" + c + " e\n9 " + t1 + " V" + c + " 1\n";
    const std::string key = " k" + std::to_string(k);
    text += "10 " + t0 + " L 0" + c + " m" + key + "\n";
    text += "11 " + t1 + " L 0 c" + std::to_string(random() % leaves) + " m" + key + "\n";
  }
  const TraceData t = ParseTrace(text);
  ASSERT_EQ(t.Leaves.size(), std::size_t(leaves));
  const uint64_t instants = t.States.size() + t.Events.size() + t.Variables.size();

  Selection s;
  s.WindowBegin = 12.0;
  s.WindowEnd = 27.5;
  s.Leaves.assign(leaves, 1);
  for (int l = 0; l < leaves; l += 4)
  {
    s.Leaves[l] = 0;
  }
  s.StateTypes.assign(t.Types.size(), 1);
  s.StateTypes[std::find(t.Types.Name.begin(), t.Types.Name.end(), "b") - t.Types.Name.begin()] = 0;
  const SelectedTables whole = Select(t, s);
  // Kept or counted, never both, never neither.
  EXPECT_EQ(whole.States.size() + whole.Events.size() + whole.Variables.size() +
      whole.StatesOutsideWindow + whole.EventsOutsideWindow + whole.SamplesOutsideWindow +
      whole.RowsOfUnreadLocations + whole.StatesOfUnreadRegions,
    instants);
  EXPECT_EQ(whole.Messages.size() + whole.MessagesOutsideWindow + whole.MessagesWithUnreadEnd,
    t.Messages.size());
  for (const uint64_t count : { whole.StatesOutsideWindow, whole.MessagesOutsideWindow,
         whole.EventsOutsideWindow, whole.SamplesOutsideWindow, whole.RowsOfUnreadLocations,
         whole.StatesOfUnreadRegions, whole.MessagesWithUnreadEnd })
  {
    EXPECT_GT(count, 0u) << "every counter should be exercised";
  }

  // Each piece counts only its own rows: the counts add up to the whole's.
  for (uint32_t pieces : { 2u, 3u, 7u, 40u })
  {
    SelectedTables sum;
    for (const LeafRange& range : SplitLeaves(t, pieces))
    {
      Selection piece = s;
      piece.Piece = range;
      const SelectedTables part = Select(t, piece);
      sum.StatesOutsideWindow += part.StatesOutsideWindow;
      sum.MessagesOutsideWindow += part.MessagesOutsideWindow;
      sum.EventsOutsideWindow += part.EventsOutsideWindow;
      sum.SamplesOutsideWindow += part.SamplesOutsideWindow;
      sum.RowsOfUnreadLocations += part.RowsOfUnreadLocations;
      sum.StatesOfUnreadRegions += part.StatesOfUnreadRegions;
      sum.MessagesWithUnreadEnd += part.MessagesWithUnreadEnd;
    }
    EXPECT_EQ(sum.StatesOutsideWindow, whole.StatesOutsideWindow) << pieces;
    EXPECT_EQ(sum.MessagesOutsideWindow, whole.MessagesOutsideWindow) << pieces;
    EXPECT_EQ(sum.EventsOutsideWindow, whole.EventsOutsideWindow) << pieces;
    EXPECT_EQ(sum.SamplesOutsideWindow, whole.SamplesOutsideWindow) << pieces;
    EXPECT_EQ(sum.RowsOfUnreadLocations, whole.RowsOfUnreadLocations) << pieces;
    EXPECT_EQ(sum.StatesOfUnreadRegions, whole.StatesOfUnreadRegions) << pieces;
    EXPECT_EQ(sum.MessagesWithUnreadEnd, whole.MessagesWithUnreadEnd) << pieces;
  }
}

TEST(PajeSelection, PiecesCoverBalanceAndUnite)
{
  // A random trace: leaves with very different row counts.
  std::mt19937 random(11);
  std::string text = std::string(Trace).substr(0, std::string(Trace).find("5 0 p0"));
  const int leaves = 37;
  for (int l = 0; l < leaves; ++l)
  {
    text += "5 0 c" + std::to_string(l) + " P 0 c" + std::to_string(l) + "\n";
  }
  std::vector<int> weight(leaves);
  double time = 0.0;
  for (int l = 0; l < leaves; ++l)
  {
    weight[l] = int(random() % 40);
    for (int k = 0; k < weight[l]; ++k)
    {
      time += 0.5;
      const std::string c = " c" + std::to_string(l);
      text += "6 " + std::to_string(time) + " S" + c + " a\n";
      text += "7 " + std::to_string(time + 0.25) + " S" + c + "\n";
      text += "8 " + std::to_string(time) + " E" + c + " e\n";
      const std::string key = " k" + std::to_string(l) + "_" + std::to_string(k);
      const std::string peer = " c" + std::to_string(random() % leaves);
      text += "10 " + std::to_string(time) + " L 0" + c + " m" + key + "\n";
      text += "11 " + std::to_string(time + 0.1) + " L 0" + peer + " m" + key + "\n";
    }
  }
  const TraceData t = ParseTrace(text);
  ASSERT_EQ(t.Leaves.size(), std::size_t(leaves));
  const SelectedTables whole = Select(t, Selection{});

  for (uint32_t pieces : { 1u, 2u, 3u, 5u, 64u })
  {
    const std::vector<LeafRange> ranges = SplitLeaves(t, pieces);
    ASSERT_EQ(ranges.size(), pieces);
    EXPECT_EQ(ranges.front().Begin, 0u);
    EXPECT_EQ(ranges.back().End, uint32_t(leaves));
    std::size_t states = 0, messages = 0, events = 0;
    uint64_t largest = 0;
    for (uint32_t p = 0; p < pieces; ++p)
    {
      EXPECT_LE(ranges[p].Begin, ranges[p].End);
      if (p > 0)
      {
        EXPECT_EQ(ranges[p].Begin, ranges[p - 1].End);
      }
      Selection s;
      s.Piece = ranges[p];
      const SelectedTables part = Select(t, s);
      states += part.States.size();
      messages += part.Messages.size();
      events += part.Events.size();
      largest =
        std::max<uint64_t>(largest, part.States.size() + part.Messages.size() + part.Events.size());
      for (uint32_t leaf : part.States.Location)
      {
        EXPECT_TRUE(leaf >= ranges[p].Begin && leaf < ranges[p].End);
      }
      for (uint32_t leaf : part.Messages.Receiver)
      {
        EXPECT_TRUE(leaf >= ranges[p].Begin && leaf < ranges[p].End);
      }
    }
    EXPECT_EQ(states, whole.States.size());
    EXPECT_EQ(messages, whole.Messages.size());
    EXPECT_EQ(events, whole.Events.size());
    // Balanced: no piece exceeds its share by more than its heaviest leaf.
    uint64_t heaviest = 0;
    for (uint32_t leaf = 0; leaf < uint32_t(leaves); ++leaf)
    {
      Selection one;
      one.Piece = { leaf, leaf + 1 };
      const SelectedTables part = Select(t, one);
      heaviest = std::max<uint64_t>(
        heaviest, part.States.size() + part.Messages.size() + part.Events.size());
    }
    const uint64_t total = whole.States.size() + whole.Messages.size() + whole.Events.size();
    EXPECT_LE(largest, total / pieces + heaviest) << pieces << " pieces";
  }
}

} // namespace
