// What real Pajé traces hold and the parser must read as pajeng does (issue
// 24): SetState on a stack of several states, the root alias "0" and its
// destruction, 0-255 colours, PajeTraceFile, negative times; what it must
// refuse with the line (time going backwards); and hostile input (huge
// lines and fields) that must fail fast with a short message.
#include <MacroscopePaje.h>
#include <PajeLineTokenizer.h>

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace
{
using namespace macroscope::paje;

// Lines 1-60.
const char* const Headers = R"(%EventDef PajeDefineContainerType 0
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineStateType 1
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineVariableType 3
% Alias string
% Type string
% Name string
% Color color
%EndEventDef
%EventDef PajeDefineEntityValue 5
% Alias string
% Type string
% Name string
% Color color
%EndEventDef
%EventDef PajeCreateContainer 6
% Time date
% Alias string
% Type string
% Container string
% Name string
%EndEventDef
%EventDef PajeDestroyContainer 7
% Time date
% Type string
% Name string
%EndEventDef
%EventDef PajeSetState 8
% Time date
% Type string
% Container string
% Value string
%EndEventDef
%EventDef PajePushState 9
% Time date
% Type string
% Container string
% Value string
%EndEventDef
%EventDef PajePopState 10
% Time date
% Type string
% Container string
%EndEventDef
%EventDef PajeSetVariable 12
% Time date
% Type string
% Container string
% Value double
%EndEventDef
0 P 0 P
1 S P S
3 V P V "1 1 1"
)";
constexpr uint64_t HeaderLines = 60; // the next line is 61

struct Row
{
  uint32_t Location;
  std::string Value;
  uint32_t Depth;
  double Start;
  double End;
  bool operator==(const Row& o) const
  {
    return Location == o.Location && Value == o.Value && Depth == o.Depth && Start == o.Start &&
      End == o.End;
  }
};

std::ostream& operator<<(std::ostream& os, const Row& r)
{
  return os << "{" << r.Location << " " << r.Value << " d" << r.Depth << " " << r.Start << "-"
            << r.End << "}";
}

std::vector<Row> Rows(const TraceData& t)
{
  std::vector<Row> out;
  for (std::size_t i = 0; i < t.States.size(); ++i)
  {
    out.push_back(Row{ t.States.Location[i], t.Types.Name[t.States.Type[i]], t.States.Depth[i],
      t.States.Start[i], t.States.End[i] });
  }
  return out;
}

TraceData parse(const std::string& body)
{
  return ParseTrace(std::string(Headers) + body, {}, "t.paje");
}

// The error of `body`: its line and message; fails the test when it parses.
ParseError errorOf(const std::string& text)
{
  try
  {
    ParseTrace(text, {}, "t.paje");
  }
  catch (const ParseError& error)
  {
    return error;
  }
  ADD_FAILURE() << "no error";
  return ParseError("", 0, "");
}
}

// pajeng: SetState ends every state of the stack (each at its depth) and
// the new state is alone at depth 0 (not only the top ends).
TEST(PajeTolerance, SetStateEndsTheWholeStack)
{
  const TraceData t = parse("6 0 p P 0 p\n"
                            "9 1 S p a\n9 2 S p b\n9 3 S p c\n"
                            "8 4 S p d\n"
                            "9 5 S p e\n10 6 S p\n10 7 S p\n"
                            "8 8 S p f\n8 9 S p g\n10 10 S p\n");
  const std::vector<Row> want = { { 0, "c", 2, 3, 4 }, { 0, "b", 1, 2, 4 }, { 0, "a", 0, 1, 4 },
    { 0, "e", 1, 5, 6 }, { 0, "d", 0, 4, 7 }, { 0, "f", 0, 8, 9 }, { 0, "g", 0, 9, 10 } };
  EXPECT_EQ(Rows(t), want);
  EXPECT_EQ(t.Report.StatesLeftOpen, 0u);
}

// "0" is the root's alias: a container *named* "0" (with its own alias)
// does not make it ambiguous, and the root stays the parent "0".
TEST(PajeTolerance, ContainerNamedZeroNextToTheRoot)
{
  const TraceData t = parse("6 0 p0 P 0 0\n6 0 p1 P 0 p1\n"
                            "9 1 S p0 a\n10 2 S p0\n9 1 S p1 b\n10 3 S p1\n");
  ASSERT_EQ(t.Leaves.size(), 2u);
  EXPECT_EQ(t.Hierarchy.Name[t.Leaves[0].Vertex], "0");
  EXPECT_EQ(t.Leaves[0].Container, "p0");
  EXPECT_EQ(t.Hierarchy.Parent[t.Leaves[0].Vertex], 0); // below the root vertex
  const std::vector<Row> want = { { 0, "a", 0, 1, 2 }, { 1, "b", 0, 1, 3 } };
  EXPECT_EQ(Rows(t), want);
  // An alias "0" is the root's: a second one is an error, as in pajeng.
  const ParseError e = errorOf(std::string(Headers) + "6 0 0 P 0 q\n");
  EXPECT_EQ(e.GetLine(), HeaderLines + 1) << e.what();
  EXPECT_NE(std::string(e.what()).find("alias \"0\" is already defined"), std::string::npos)
    << e.what();
}

// Destroying the root closes every open state below it at its time; the
// root cannot be used afterwards.
TEST(PajeTolerance, DestroyingTheRootEndsEverything)
{
  const TraceData t = parse("6 0 p P 0 p\n6 0 q P 0 q\n9 1 S p a\n9 2 S p b\n9 3 S q c\n"
                            "7 5 0 0\n");
  const std::vector<Row> want = { { 1, "c", 0, 3, 5 }, { 0, "b", 1, 2, 5 }, { 0, "a", 0, 1, 5 } };
  EXPECT_EQ(Rows(t), want);
  EXPECT_EQ(t.Report.StatesClosedByDestroy, 3u);
  EXPECT_EQ(t.Report.StatesLeftOpen, 0u);
  const ParseError e = errorOf(std::string(Headers) + "7 5 0 0\n6 6 p P 0 p\n");
  EXPECT_EQ(e.GetLine(), HeaderLines + 2) << e.what();
  EXPECT_NE(std::string(e.what()).find("destroyed on line"), std::string::npos) << e.what();
}

// Colours in [0, 1] or in [0, 255] (a component above 1 means the latter).
TEST(PajeTolerance, ColoursInBothScales)
{
  const TraceData t = parse("5 a S A \"1.0 0.4 1.0\"\n5 b S B \"255.0 102.0 255.0\"\n"
                            "5 c S C \"0 128 255\"\n5 d S D \"1 1 1\"\n5 e S E \"0,2,0\"\n");
  ASSERT_EQ(t.Types.size(), 6u); // V, then A..E
  using RGB = std::array<uint8_t, 3>;
  EXPECT_EQ(t.Types.TraceColor[1], (RGB{ 255, 102, 255 }));
  EXPECT_EQ(t.Types.TraceColor[2], (RGB{ 255, 102, 255 }));
  EXPECT_EQ(t.Types.TraceColor[3], (RGB{ 0, 128, 255 }));
  EXPECT_EQ(t.Types.TraceColor[4], (RGB{ 255, 255, 255 })); // [0, 1]: white
  EXPECT_EQ(t.Types.TraceColor[5], (RGB{ 0, 2, 0 }));       // 2 > 1: [0, 255]
  for (const char* bad : { "\"0 0 256\"", "\"-1 0 0\"", "\"1 0\"", "\"1 0 0 0\"", "red" })
  {
    const ParseError e = errorOf(std::string(Headers) + "5 x S X " + bad + "\n");
    EXPECT_EQ(e.GetLine(), HeaderLines + 1) << bad;
    EXPECT_NE(std::string(e.what()).find("bad colour"), std::string::npos) << e.what();
  }
}

// PajeTraceFile: skipped (as pajeng does), counted, its file named.
TEST(PajeTolerance, TraceFileIsSkippedAndReported)
{
  const std::string def = "%EventDef PajeTraceFile 20\n% Type string\n% Container string\n"
                          "% Filename string\n%EndEventDef\n";
  const TraceData t = parse(def + "6 0 p P 0 p\n20 P p \"part 1.paje\"\n9 1 S p a\n10 2 S p\n" +
    "20 P p " + std::string(500, 'f') + "\n");
  EXPECT_EQ(t.States.size(), 1u);
  EXPECT_EQ(t.Report.TraceFilesSkipped, 2u);
  ASSERT_EQ(t.Report.SkippedTraceFiles.size(), 2u);
  EXPECT_EQ(t.Report.SkippedTraceFiles[0], "\"part 1.paje\"");
  EXPECT_LT(t.Report.SkippedTraceFiles[1].size(), 100u); // an excerpt
  const std::string report = Describe(t.Report);
  EXPECT_NE(report.find("2 PajeTraceFile events skipped"), std::string::npos) << report;
  // A definition with other fields is read too (pajeng wants Type, Container, Filename).
  const TraceData other = parse("%EventDef PajeTraceFile 21\n% Name string\n%EndEventDef\n21 x\n");
  EXPECT_EQ(other.Report.TraceFilesSkipped, 1u);
}

TEST(PajeTolerance, NegativeTimes)
{
  const TraceData t = parse("6 -5 p P 0 p\n12 -5 V p 2\n9 -4 S p a\n10 -1 S p\n9 1 S p b\n");
  const std::vector<Row> want = { { 0, "a", 0, -4, -1 }, { 0, "b", 0, 1, 1 } };
  EXPECT_EQ(Rows(t), want);
  EXPECT_EQ(t.Report.FirstTime, -5.0);
  EXPECT_EQ(t.Report.LastTime, 1.0);
}

// Time going backwards on one container and type is refused with its line,
// as pajeng refuses it; other containers and types may interleave.
TEST(PajeTolerance, TimeGoingBackwardsIsAnError)
{
  const std::string setup = "6 0 p P 0 p\n6 0 q P 0 q\n";
  const struct
  {
    const char* Body;
    uint64_t Line;
  } cases[] = {
    { "9 3 S p a\n10 2 S p\n", 4 },    // a pop before its push
    { "9 3 S p a\n8 2 S p b\n", 4 },   // a set
    { "9 3 S p a\n9 1 S p b\n", 4 },   // a push
    { "12 3 V p 1\n12 2 V p 2\n", 4 }, // a variable
    { "9 3 S p a\n7 2 P p\n", 4 },     // a destruction
    { "9 3 S q a\n7 2 0 0\n", 4 },     // the root's, below it
  };
  for (const auto& c : cases)
  {
    const ParseError e = errorOf(std::string(Headers) + setup + c.Body);
    EXPECT_EQ(e.GetLine(), HeaderLines + c.Line) << c.Body << e.what();
    EXPECT_NE(std::string(e.what()).find("time goes backwards"), std::string::npos) << e.what();
  }
  // Not backwards: equal times, and other containers or types in any order.
  const TraceData t = parse(setup + "9 3 S p a\n9 1 S q b\n12 0.5 V p 1\n10 3 S p\n10 2 S q\n");
  EXPECT_EQ(t.States.size(), 2u);
}

// A line longer than the limit fails within it, without reading the rest,
// and the message quotes a short excerpt.
TEST(PajeTolerance, HugeLineFailsFastWithAShortMessage)
{
  const std::size_t size = 64u << 20; // 64 MiB: a state value
  std::string text = std::string(Headers) + "6 0 p P 0 p\n9 1 S p ";
  text.append(size, 'x');
  text += "\n";
  const auto start = std::chrono::steady_clock::now();
  const ParseError e = errorOf(text);
  const double seconds =
    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(e.GetLine(), HeaderLines + 2) << e.what();
  EXPECT_NE(std::string(e.what()).find("line longer than 1 MiB"), std::string::npos) << e.what();
  EXPECT_LT(std::string(e.what()).size(), 300u);
  EXPECT_LT(seconds, 1.0);
  // The same in a quoted field, a comment and an event id.
  for (const std::string& prefix :
    { std::string("9 1 S p \""), std::string("# "), std::string("") })
  {
    std::string huge = std::string(Headers) + "6 0 p P 0 p\n" + prefix;
    huge.append(PajeLine::MaxLineBytes + 1, '9');
    const ParseError h = errorOf(huge);
    EXPECT_EQ(h.GetLine(), HeaderLines + 2) << prefix;
    EXPECT_NE(std::string(h.what()).find("line longer than"), std::string::npos) << h.what();
    EXPECT_LT(std::string(h.what()).size(), 300u);
  }
  // Right at the limit, a line is read.
  const std::string body = "9 1 S p ";
  std::string longest = std::string(Headers) + "6 0 p P 0 p\n" + body;
  longest.append(PajeLine::MaxLineBytes - body.size(), 'v');
  longest += "\n10 2 S p\n";
  const TraceData t = ParseTrace(longest);
  ASSERT_EQ(t.States.size(), 1u);
  EXPECT_EQ(t.Types.Name[t.States.Type[0]].size(), PajeLine::MaxLineBytes - body.size());
}

// Every message quotes at most a short excerpt of a long field.
TEST(PajeTolerance, MessagesQuoteExcerpts)
{
  const std::string longName(100000, 'n');
  const std::string cases[] = {
    "9 1 S " + longName + " a\n",     // undefined container
    "9 1 " + longName + " p a\n",     // undefined type
    longName + " 1 S p a\n",          // unknown event id
    "9 " + longName + " S p a\n",     // bad number
    "5 x S X \"" + longName + "\"\n", // bad colour
    "9 1 S p \"" + longName + "\n",   // unterminated quote
    "%" + longName + "\n",            // header line
  };
  for (const std::string& body : cases)
  {
    const ParseError e = errorOf(std::string(Headers) + "6 0 p P 0 p\n" + body);
    EXPECT_EQ(e.GetLine(), HeaderLines + 2) << e.what();
    EXPECT_LT(std::string(e.what()).size(), 300u) << std::string(e.what()).substr(0, 300);
  }
  EXPECT_EQ(Excerpt("short"), "\"short\"");
  const std::string cut = Excerpt(std::string(30, 'a') + std::string(100, '\xC3'));
  EXPECT_NE(cut.find("(130 bytes)"), std::string::npos) << cut;
}
