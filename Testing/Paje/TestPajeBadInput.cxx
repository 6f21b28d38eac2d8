// Malformed input: every case throws ParseError naming the line and the
// problem; none crashes or hangs.
#include <MacroscopePaje.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>

namespace
{
using namespace macroscope::paje;

// Lines 1-17.
const char* const Headers = "%EventDef PajeDefineContainerType 0\n" // 1
                            "% Alias string\n"
                            "% Type string\n"
                            "% Name string\n"
                            "%EndEventDef\n" // 5
                            "%EventDef PajeDefineStateType 1\n"
                            "% Alias string\n"
                            "% Type string\n"
                            "% Name string\n"
                            "%EndEventDef\n" // 10
                            "%EventDef PajeCreateContainer 6\n"
                            "% Time date\n"
                            "% Alias string\n"
                            "% Type string\n"
                            "% Container string\n" // 15
                            "% Name string\n"
                            "%EndEventDef\n"
                            "%EventDef PajePushState 9\n"
                            "% Time date\n"
                            "% Type string\n" // 20
                            "% Container string\n"
                            "% Value string\n"
                            "%EndEventDef\n"
                            "%EventDef PajePopState 10\n"
                            "% Time date\n" // 25
                            "% Type string\n"
                            "% Container string\n"
                            "%EndEventDef\n";
constexpr uint64_t HeaderLines = 28;
// Lines 29-31: a container type, a state type, a container.
const char* const SetupLines = "0 CT_P 0 P\n"
                               "1 ST CT_P S\n"
                               "6 0 p CT_P 0 p\n";
constexpr uint64_t FirstFree = HeaderLines + 4;

struct Case
{
  const char* Name;
  std::string Text;
  uint64_t Line;
  const char* Problem; ///< a part of the message
};

void expectError(const Case& c)
{
  try
  {
    ParseTrace(c.Text, {}, "bad.paje");
    ADD_FAILURE() << c.Name << ": no error";
  }
  catch (const ParseError& error)
  {
    EXPECT_EQ(error.GetLine(), c.Line) << c.Name << ": " << error.what();
    EXPECT_NE(std::string(error.what()).find(c.Problem), std::string::npos)
      << c.Name << ": " << error.what();
    EXPECT_EQ(std::string(error.what()).rfind("bad.paje:" + std::to_string(c.Line) + ": ", 0), 0u)
      << c.Name << ": " << error.what();
  }
}

std::string good(const std::string& body)
{
  return std::string(Headers) + SetupLines + body;
}

TEST(PajeBadInput, HeaderLineCount)
{
  // The line numbers below rest on these counts.
  EXPECT_EQ(uint64_t(std::count(Headers, Headers + std::strlen(Headers), '\n')), HeaderLines);
  EXPECT_NO_THROW(ParseTrace(good("9 1 ST p s\n10 2 ST p\n")));
}

TEST(PajeBadInput, EveryCaseGivesItsLine)
{
  const Case cases[] = {
    { "unknown event id", good("9 1 ST p s\n42 1 ST p\n"), FirstFree + 1,
      "unknown event id \"42\"" },
    { "missing fields", good("9 1 ST p\n"), FirstFree, "missing fields" },
    { "too many fields", good("10 1 ST p extra\n"), FirstFree, "too many fields" },
    { "undefined container", good("9 1 ST q s\n"), FirstFree, "undefined container \"q\"" },
    { "undefined type", good("9 1 XX p s\n"), FirstFree, "undefined type \"XX\"" },
    { "wrong kind of type", good("9 1 CT_P p s\n"), FirstFree, "is a container type" },
    { "container of the wrong type", good("0 CT_Q 0 Q\n1 SQ CT_Q SQ\n9 1 SQ p s\n"), FirstFree + 2,
      "belongs to containers of type" },
    { "pop on an empty stack", good("9 1 ST p s\n10 2 ST p\n10 3 ST p\n"), FirstFree + 2,
      "empty stack" },
    { "unterminated quote", good("9 1 ST p \"never closed\n9 2 ST p s\n"), FirstFree,
      "unterminated quoted string" },
    { "NUL byte", good(std::string("9 1 ST p s\n9 2 ST\0 p s\n", 23)), FirstFree + 1,
      "non-text byte 0x00" },
    { "control byte in a quote", good("9 1 ST p \"a\x01z\"\n"), FirstFree, "non-text byte 0x01" },
    { "truncated last line", good("9 1 ST p s\n9 2 ST"), FirstFree + 1, "truncated file" },
    { "bad time", good("9 1.2.3 ST p s\n"), FirstFree, "bad number \"1.2.3\" in field Time" },
    { "infinite time", good("9 inf ST p s\n"), FirstFree, "bad number" },
    { "event id not a number", good("x9 1 ST p s\n"), FirstFree, "bad event id" },
    { "duplicate container alias", good("6 0 p CT_P 0 other\n"), FirstFree, "already defined" },
    { "ambiguous name", good("6 0 a1 CT_P 0 same\n6 0 a2 CT_P 0 same\n9 1 ST same s\n"),
      FirstFree + 2, "ambiguous" },
    { "EventDef never closed", std::string(Headers) + "%EventDef PajeNewEvent 12\n% Time date\n",
      HeaderLines + 1, "never closed" },
    { "EventDef lacking a field",
      std::string(Headers) + "%EventDef PajeNewEvent 12\n% Time date\n%EndEventDef\n",
      HeaderLines + 1, "lacks the field Type" },
    { "duplicate event id",
      std::string(Headers) + "%EventDef PajePopState 10\n% Time date\n%EndEventDef\n",
      HeaderLines + 1, "already defined on line 24" },
    { "unknown event kind", std::string(Headers) + "%EventDef PajeFly 12\n%EndEventDef\n",
      HeaderLines + 1, "unknown event kind" },
    { "duplicate field",
      std::string(Headers) + "%EventDef PajeNewEvent 12\n% Time date\n% Time date\n",
      HeaderLines + 3, "appears twice" },
    { "event line inside EventDef",
      std::string(Headers) + "%EventDef PajeNewEvent 12\n% Time date\n9 1 ST p s\n",
      HeaderLines + 3, "missing %EndEventDef" },
    { "bad colour",
      "%EventDef PajeDefineContainerType 0\n% Alias string\n% Type string\n"
      "% Name string\n%EndEventDef\n%EventDef PajeDefineVariableType 3\n"
      "% Alias string\n% Type string\n% Name string\n% Color color\n"
      "%EndEventDef\n0 C 0 C\n3 V C V \"0 0 256\"\n",
      13, "bad colour" },
    { "text right after a quote", good("9 1 ST p \"s\"x\n"), FirstFree, "after a closing quote" },
    // Found by the fuzzer: a container of the root type, inside the root
    // or inside another container, crashed the parser.
    { "container of the root type", good("6 0 q 0 0 q\n"), FirstFree, "root container type" },
    { "container of the root type in a container", good("6 0 q 0 p q\n"), FirstFree,
      "root container type" },
  };
  for (const Case& c : cases)
  {
    expectError(c);
  }
}

TEST(PajeBadInput, UseAfterDestroy)
{
  const std::string text = std::string(Headers) +
    "%EventDef PajeDestroyContainer 7\n% Time date\n% Type string\n% Name string\n%EndEventDef\n" +
    SetupLines + "7 1 CT_P p\n9 2 ST p s\n";
  expectError({ "destroyed", text, HeaderLines + 10, "was destroyed on line 37" });
}

TEST(PajeBadInput, OverlongLineIsRefused)
{
  std::string line = "9";
  for (int i = 0; i < 100; ++i)
  {
    line += " x";
  }
  expectError({ "overlong", good(line + "\n"), FirstFree, "too many fields" });
}

// Random damage to a good trace: an error or a result, never a crash or a hang.
TEST(PajeBadInput, RandomDamageNeverCrashes)
{
  std::string pristine = good("");
  for (int i = 0; i < 50; ++i)
  {
    pristine += "9 " + std::to_string(i) + " ST p \"state " + std::to_string(i % 3) + "\"\n";
    pristine += "10 " + std::to_string(i) + ".5 ST p\n";
  }
  std::mt19937 random(11);
  int errors = 0;
  for (int round = 0; round < 2000; ++round)
  {
    std::string text = pristine;
    const int damage = 1 + int(random() % 4);
    for (int d = 0; d < damage; ++d)
    {
      const std::size_t at = random() % text.size();
      switch (random() % 3)
      {
        case 0:
          text[at] = char(random());
          break;
        case 1:
          text.erase(at, 1 + random() % 8);
          break;
        default:
          text.resize(at);
          break;
      }
      if (text.empty())
      {
        break;
      }
    }
    try
    {
      ParseTrace(text);
    }
    catch (const ParseError& error)
    {
      ++errors;
      EXPECT_GE(error.GetLine(), 1u);
    }
  }
  EXPECT_GT(errors, 1000); // most damage is caught
}

} // namespace
