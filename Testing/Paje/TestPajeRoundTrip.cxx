// Brute-force round trip: a generator draws a random model (containers,
// states with nesting, events, variables, links), writes it as a Pajé trace
// with random field orders, unknown extra fields, optional aliases and
// quoting, and works out the expected tables itself; the parser must give
// back exactly that model.
#include <MacroscopePaje.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace
{
using namespace macroscope::paje;

using StateRow = std::tuple<std::string, std::string, uint32_t, double, double>;
using EventRow = std::tuple<std::string, std::string, double>;
using VariableRow = std::tuple<std::string, std::string, double, double>;
using MessageRow = std::tuple<std::string, std::string, double, double, uint64_t>;

struct Expected
{
  std::vector<StateRow> States;
  std::vector<EventRow> Events;
  std::vector<VariableRow> Variables;
  std::vector<MessageRow> Messages;
  std::vector<std::string> Leaves; ///< container ids in leaf order
  std::map<std::string, std::array<uint8_t, 3>> Colors;
};

class Generator
{
public:
  explicit Generator(unsigned seed)
    : Random(seed)
  {
  }

  std::string write(Expected& expected)
  {
    this->defineAll();
    this->GetLine(6, { { "Name", "H" }, { "Type", "0" }, { "Alias", "CH" } }, true);
    this->GetLine(0, { { "Name", "Host" }, { "Type", "0" }, { "Alias", "CH" } });
    this->GetLine(0, { { "Name", "MPI rank" }, { "Type", "CH" }, { "Alias", "CP" } });
    this->GetLine(1, { { "Name", "MPI_STATE" }, { "Type", "CP" }, { "Alias", "S" } });
    this->GetLine(2, { { "Name", "MARK" }, { "Type", "CP" }, { "Alias", "E" } });
    this->GetLine(3, { { "Name", "load" }, { "Type", "CP" }, { "Alias", "VL" } });
    this->GetLine(3, { { "Name", "power" }, { "Type", "CH" }, { "Alias", "VP" } });
    this->GetLine(4,
      { { "Name", "MPI_LINK" }, { "Type", "0" }, { "StartContainerType", "CP" },
        { "EndContainerType", "CP" }, { "Alias", "L" } });
    for (int v = 0; v < 4; ++v)
    {
      // Values 0..3 are defined with a colour (in eighths, exact); 4 and 5 are implicit.
      const std::string name = "state " + std::to_string(v);
      const int r = int(this->Random() % 9), g = int(this->Random() % 9),
                b = int(this->Random() % 9);
      std::ostringstream color;
      color << r / 8.0 << ' ' << g / 8.0 << ' ' << b / 8.0;
      this->GetLine(5,
        { { "Name", name }, { "Type", "S" }, { "Alias", "v" + std::to_string(v) },
          { "Color", color.str() } });
      expected.Colors[name] = { uint8_t(std::lround(r / 8.0 * 255)),
        uint8_t(std::lround(g / 8.0 * 255)), uint8_t(std::lround(b / 8.0 * 255)) };
    }
    const int hosts = 1 + int(this->Random() % 3);
    std::vector<std::string> hostIds;
    for (int h = 0; h < hosts; ++h)
    {
      const std::string id = this->create("host " + std::to_string(h), "CH", "0");
      hostIds.push_back(id);
      const bool hostData = this->Random() % 2 == 0;
      if (hostData)
      {
        expected.Leaves.push_back(id);
        this->HostsWithData.push_back(id);
      }
      const int ranks = 1 + int(this->Random() % 3);
      for (int r = 0; r < ranks; ++r)
      {
        const std::string rank =
          this->create("rank " + std::to_string(h) + "." + std::to_string(r), "CP", this->ref(id));
        expected.Leaves.push_back(rank);
        this->Ranks.push_back(rank);
        this->Stacks[rank];
      }
    }
    const int operations = 200 + int(this->Random() % 200);
    for (int op = 0; op < operations; ++op)
    {
      this->Now += 0.125;
      this->operate(expected);
    }
    for (auto& [rank, stack] : this->Stacks)
    {
      while (!stack.empty())
      {
        expected.States.emplace_back(
          rank, stack.back().second, uint32_t(stack.size() - 1), stack.back().first, this->MaxTime);
        stack.pop_back();
      }
    }
    return this->Text.str();
  }

private:
  using Fields = std::vector<std::pair<std::string, std::string>>;

  // The field names of each event id, as in the headers written.
  void defineAll()
  {
    const std::vector<std::pair<std::string, std::vector<std::string>>> kinds = {
      { "PajeDefineContainerType", { "Alias", "Type", "Name" } },
      { "PajeDefineStateType", { "Alias", "Type", "Name" } },
      { "PajeDefineEventType", { "Alias", "Type", "Name" } },
      { "PajeDefineVariableType", { "Alias", "Type", "Name" } },
      { "PajeDefineLinkType",
        { "Alias", "Type", "StartContainerType", "EndContainerType", "Name" } },
      { "PajeDefineEntityValue", { "Alias", "Type", "Name", "Color" } },
      { "PajeCreateContainer", { "Time", "Alias", "Type", "Container", "Name" } },
      { "PajeDestroyContainer", { "Time", "Type", "Name" } },
      { "PajeSetState", { "Time", "Type", "Container", "Value" } },
      { "PajePushState", { "Time", "Type", "Container", "Value" } },
      { "PajePopState", { "Time", "Type", "Container" } },
      { "PajeResetState", { "Time", "Type", "Container" } },
      { "PajeNewEvent", { "Time", "Type", "Container", "Value" } },
      { "PajeSetVariable", { "Time", "Type", "Container", "Value" } },
      { "PajeAddVariable", { "Time", "Type", "Container", "Value" } },
      { "PajeSubVariable", { "Time", "Type", "Container", "Value" } },
      { "PajeStartLink",
        { "Time", "Type", "Container", "Value", "StartContainer", "Key", "Size" } },
      { "PajeEndLink", { "Time", "Type", "Container", "Value", "EndContainer", "Key" } },
    };
    for (std::size_t k = 0; k < kinds.size(); ++k)
    {
      std::vector<std::string> fields = kinds[k].second;
      if (this->Random() % 2 == 0)
      {
        fields.push_back("Extra");
      }
      std::shuffle(fields.begin(), fields.end(), this->Random);
      this->Order.push_back(fields);
      // Ids are not 0..17: check that the parser maps them.
      const int id = int(3 * k + 1);
      this->Ids.push_back(id);
      this->Text << "%EventDef " << kinds[k].first << ' ' << id << '\n';
      for (const std::string& f : fields)
      {
        this->Text << "%\t" << f << " string\n";
      }
      this->Text << "%EndEventDef\n";
    }
  }

  // Writes one event of kind `kind` (index in defineAll's list).
  void GetLine(int kind, const Fields& values, bool skip = false)
  {
    if (skip)
    {
      return;
    }
    this->Text << this->Ids[std::size_t(kind)];
    for (const std::string& f : this->Order[std::size_t(kind)])
    {
      std::string value = "junk value";
      bool found = false;
      for (const auto& [name, v] : values)
      {
        if (name == f)
        {
          value = v;
          found = true;
        }
      }
      if (!found && f != "Extra")
      {
        value = f == "Alias" ? "" : "0";
      }
      if (f == "Time")
      {
        // Open states end at the last timestamp of the file.
        this->MaxTime = std::max(this->MaxTime, std::stod(value));
      }
      const bool quote =
        value.empty() || value.find(' ') != std::string::npos || this->Random() % 4 == 0;
      this->Text << ' ' << (quote ? "\"" + value + "\"" : value);
    }
    this->Text << (this->Random() % 5 == 0 ? "\r\n" : "\n");
  }

  std::string time(double t) { return std::to_string(t); }

  // A container, with an alias or not; returns the id it is known by.
  std::string create(const std::string& name, const std::string& type, const std::string& parent)
  {
    const bool alias = this->Random() % 2 == 0;
    const std::string id = alias ? "c" + std::to_string(this->Containers++) : name;
    this->GetLine(6,
      { { "Time", "0" }, { "Alias", alias ? id : "" }, { "Type", type }, { "Container", parent },
        { "Name", name } });
    if (alias)
    {
      this->NameOf[id] = name;
    }
    return id;
  }
  // Refers to a container by alias or by name.
  std::string ref(const std::string& id)
  {
    const auto it = this->NameOf.find(id);
    return it != this->NameOf.end() && this->Random() % 2 == 0 ? it->second : id;
  }
  std::string value(int v)
  {
    // Defined values by alias or name; 4 and 5 implicit, by name.
    const std::string name = "state " + std::to_string(v);
    return v < 4 && this->Random() % 2 == 0 ? "v" + std::to_string(v) : name;
  }

  void operate(Expected& expected)
  {
    const std::string rank = this->Ranks[this->Random() % this->Ranks.size()];
    auto& stack = this->Stacks[rank];
    const std::string t = this->time(this->Now);
    const int v = int(this->Random() % 6);
    const std::string valueName = "state " + std::to_string(v);
    switch (this->Random() % 9)
    {
      case 0:
      case 1:
        if (stack.size() < 6)
        {
          this->GetLine(9,
            { { "Time", t }, { "Type", "S" }, { "Container", this->ref(rank) },
              { "Value", this->value(v) } });
          stack.emplace_back(this->Now, valueName);
        }
        break;
      case 2:
      case 3:
        if (!stack.empty())
        {
          this->GetLine(
            10, { { "Time", t }, { "Type", "MPI_STATE" }, { "Container", this->ref(rank) } });
          expected.States.emplace_back(
            rank, stack.back().second, uint32_t(stack.size() - 1), stack.back().first, this->Now);
          stack.pop_back();
        }
        break;
      case 4:
        this->GetLine(8,
          { { "Time", t }, { "Type", "S" }, { "Container", this->ref(rank) },
            { "Value", this->value(v) } });
        // As pajeng: SetState ends the whole stack, the new state is alone.
        while (!stack.empty())
        {
          expected.States.emplace_back(
            rank, stack.back().second, uint32_t(stack.size() - 1), stack.back().first, this->Now);
          stack.pop_back();
        }
        stack.emplace_back(this->Now, valueName);
        break;
      case 5:
        if (this->Random() % 4 == 0)
        {
          this->GetLine(11, { { "Time", t }, { "Type", "S" }, { "Container", this->ref(rank) } });
          while (!stack.empty())
          {
            expected.States.emplace_back(
              rank, stack.back().second, uint32_t(stack.size() - 1), stack.back().first, this->Now);
            stack.pop_back();
          }
        }
        break;
      case 6:
        this->GetLine(12,
          { { "Time", t }, { "Type", "E" }, { "Container", this->ref(rank) },
            { "Value", "mark " + std::to_string(v % 2) } });
        expected.Events.emplace_back(rank, "mark " + std::to_string(v % 2), this->Now);
        break;
      case 7:
      {
        // A variable of the rank, or of a host with data.
        const bool host = !this->HostsWithData.empty() && this->Random() % 2 == 0;
        const std::string owner =
          host ? this->HostsWithData[this->Random() % this->HostsWithData.size()] : rank;
        const std::string type = host ? "VP" : "load";
        double& current = this->Values[owner];
        const int kind = 13 + int(this->Random() % 3);
        const int amount = int(this->Random() % 100) - 20;
        current = kind == 13 ? amount : kind == 14 ? current + amount : current - amount;
        this->GetLine(kind,
          { { "Time", t }, { "Type", type }, { "Container", this->ref(owner) },
            { "Value", std::to_string(amount) } });
        expected.Variables.emplace_back(owner, host ? "power" : "load", this->Now, current);
        break;
      }
      default:
      {
        const std::string to = this->Ranks[this->Random() % this->Ranks.size()];
        const double recv = this->Now + 0.125 * double(this->Random() % 5);
        const std::string key = "key " + std::to_string(this->Links++);
        const uint64_t bytes = this->Random() % 100000;
        const bool endFirst = this->Random() % 2 == 0;
        if (endFirst)
        {
          this->GetLine(17,
            { { "Time", this->time(recv) }, { "Type", "L" }, { "Container", "0" },
              { "Value", "p2p" }, { "EndContainer", this->ref(to) }, { "Key", key } });
        }
        this->GetLine(16,
          { { "Time", t }, { "Type", "MPI_LINK" }, { "Container", "0" }, { "Value", "p2p" },
            { "StartContainer", this->ref(rank) }, { "Key", key },
            { "Size", std::to_string(bytes) } });
        if (!endFirst)
        {
          this->GetLine(17,
            { { "Time", this->time(recv) }, { "Type", "L" }, { "Container", "0" },
              { "Value", "p2p" }, { "EndContainer", this->ref(to) }, { "Key", key } });
        }
        expected.Messages.emplace_back(rank, to, this->Now, recv, bytes);
        break;
      }
    }
  }

  std::mt19937 Random;
  std::ostringstream Text;
  std::vector<std::vector<std::string>> Order;
  std::vector<int> Ids;
  std::map<std::string, std::string> NameOf; ///< alias -> name
  std::vector<std::string> Ranks;
  std::vector<std::string> HostsWithData;
  std::map<std::string, std::vector<std::pair<double, std::string>>> Stacks;
  std::map<std::string, double> Values;
  int Containers = 0;
  int Links = 0;
  double Now = 0.0;
  double MaxTime = 0.0;
};

TEST(PajeRoundTrip, RandomTracesGiveBackTheirModel)
{
  for (unsigned seed = 1; seed <= 40; ++seed)
  {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Expected expected;
    const std::string text = Generator(seed).write(expected);
    const TraceData t = ParseTrace(text);

    std::vector<std::string> leaves;
    for (const LeafInfo& leaf : t.Leaves)
    {
      leaves.push_back(leaf.Container);
    }
    ASSERT_EQ(leaves, expected.Leaves);

    std::vector<StateRow> states;
    for (std::size_t i = 0; i < t.States.size(); ++i)
    {
      states.emplace_back(leaves[t.States.Location[i]], t.Types.Name[t.States.Type[i]],
        t.States.Depth[i], t.States.Start[i], t.States.End[i]);
    }
    std::vector<EventRow> events;
    for (std::size_t i = 0; i < t.Events.size(); ++i)
    {
      events.emplace_back(
        leaves[t.Events.Location[i]], t.Types.Name[t.Events.Type[i]], t.Events.Time[i]);
    }
    std::vector<VariableRow> variables;
    for (std::size_t i = 0; i < t.Variables.size(); ++i)
    {
      variables.emplace_back(leaves[t.Variables.Location[i]], t.Types.Name[t.Variables.Variable[i]],
        t.Variables.Time[i], t.Variables.Value[i]);
    }
    std::vector<MessageRow> messages;
    for (std::size_t i = 0; i < t.Messages.size(); ++i)
    {
      messages.emplace_back(leaves[t.Messages.Sender[i]], leaves[t.Messages.Receiver[i]],
        t.Messages.SendTime[i], t.Messages.RecvTime[i], t.Messages.Bytes[i]);
    }
    for (auto* rows : { &states, &expected.States })
    {
      std::sort(rows->begin(), rows->end());
    }
    for (auto* rows : { &events, &expected.Events })
    {
      std::sort(rows->begin(), rows->end());
    }
    for (auto* rows : { &messages, &expected.Messages })
    {
      std::sort(rows->begin(), rows->end());
    }
    // Variables keep the file order per owner: compare per owner, unsorted.
    std::stable_sort(variables.begin(), variables.end(),
      [](const VariableRow& a, const VariableRow& b) { return std::get<0>(a) < std::get<0>(b); });
    std::stable_sort(expected.Variables.begin(), expected.Variables.end(),
      [](const VariableRow& a, const VariableRow& b) { return std::get<0>(a) < std::get<0>(b); });
    EXPECT_EQ(states, expected.States);
    EXPECT_EQ(events, expected.Events);
    EXPECT_EQ(variables, expected.Variables);
    EXPECT_EQ(messages, expected.Messages);
    EXPECT_FALSE(states.empty());
    for (std::size_t row = 0; row < t.Types.size(); ++row)
    {
      const auto color = expected.Colors.find(t.Types.Name[row]);
      if (color != expected.Colors.end())
      {
        EXPECT_EQ(t.Types.TraceColor[row], color->second) << t.Types.Name[row];
      }
    }
    EXPECT_EQ(t.Report.UnmatchedStartLinks + t.Report.UnmatchedEndLinks, 0u);
  }
}

} // namespace
