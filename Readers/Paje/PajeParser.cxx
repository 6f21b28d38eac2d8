#include "PajeParser.h"

#include <TraceSchema.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace macroscope::paje
{

namespace
{
/// Event ids above this are refused: ids index a vector.
constexpr uint64_t MaxEventId = 1u << 20;
/// Lines between two flushes of parsed rows (and releases of parsed text).
constexpr uint64_t ProgressLines = 1u << 16;
/// Lines between two looks at whether the next hundredth of the file is parsed.
constexpr uint64_t CheckLines = 1u << 10;

uint64_t PairKey(uint32_t a, uint32_t b)
{
  return (uint64_t(a) << 32) | b;
}

/// Every name or field quoted in a message is an excerpt (PajeErrors.h).
std::string Quoted(std::string_view text)
{
  return Excerpt(text);
}

std::string FormatTime(double t)
{
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", t);
  return text;
}

const char* KindWord(int kind)
{
  static const char* const words[] = { "container", "state", "event", "variable", "link" };
  return words[kind];
}
}

PajeParser::PajeParser(std::string_view text, const ReadOptions& options, const std::string& source)
  : Tokens(text, source)
  , Options(options)
{
  // The root container "0" of type "0", which every trace starts from.
  Type root;
  root.Name = this->Intern("0");
  this->Types.push_back(std::move(root));
  this->TypeIds.emplace(this->Types[0].Name, 0);
  Container top;
  top.Name = this->Types[0].Name;
  top.Id = top.Name;
  this->Containers.push_back(std::move(top));
  this->ContainerIds.emplace(this->Containers[0].Id, 0);
  // "0" is the root's alias, as in pajeng: it wins over a container (or
  // type) *named* "0", which stays reachable by its own alias.
  this->TypeAliases.insert(this->Types[0].Name);
  this->ContainerAliases.insert(this->Containers[0].Id);
}

void PajeParser::Fail(uint64_t line, const std::string& problem) const
{
  this->Tokens.Fail(line, problem);
}

std::string_view PajeParser::Intern(std::string_view text)
{
  // A deque never moves its strings, so views of them stay valid.
  return this->Pool.emplace_back(text);
}

void PajeParser::RegisterId(Ids& ids, Aliases& aliases, std::string_view alias,
  std::string_view name, uint32_t index, const char* what)
{
  if (!alias.empty())
  {
    auto [it, added] = ids.emplace(alias, index);
    if (!added && it->second != index)
    {
      if (aliases.count(alias) != 0)
      {
        this->Fail(
          this->Line, std::string(what) + " alias " + Quoted(alias) + " is already defined");
      }
      it->second = index; // the alias wins over another object's name
    }
    aliases.insert(alias);
  }
  if (name != alias)
  {
    auto [it, added] = ids.emplace(name, index);
    if (!added && it->second != index && aliases.count(name) == 0)
    {
      it->second = Ambiguous;
    }
  }
}

double PajeParser::Number(std::string_view text, FieldName field) const
{
  double value = 0.0;
  const char* first = text.data();
  const char* last = first + text.size();
  if (first != last && *first == '+')
  {
    ++first;
  }
  const auto [end, error] = std::from_chars(first, last, value);
  if (text.empty() || error != std::errc() || end != last || !std::isfinite(value))
  {
    this->Fail(this->Line, "bad number " + Quoted(text) + " in field " + FieldNameText(field));
  }
  return value;
}

double PajeParser::Time(std::string_view text)
{
  const double t = this->Number(text, FieldName::Time);
  Diagnostics& report = this->Out.Report;
  if (!(t >= report.FirstTime))
  {
    report.FirstTime = t; // also replaces the initial NaN
  }
  if (!(t <= report.LastTime))
  {
    report.LastTime = t;
  }
  return t;
}

uint32_t PajeParser::FindType(std::string_view id, TypeKind kind) const
{
  const auto it = this->TypeIds.find(id);
  if (it == this->TypeIds.end())
  {
    this->Fail(this->Line, "undefined type " + Quoted(id));
  }
  if (it->second == Ambiguous)
  {
    this->Fail(this->Line,
      "type name " + Quoted(id) + " is ambiguous (several types have it): use an alias");
  }
  const Type& type = this->Types[it->second];
  if (type.Kind != kind)
  {
    this->Fail(this->Line,
      "type " + Quoted(id) + " is a " + KindWord(int(type.Kind)) + " type, not a " +
        KindWord(int(kind)) + " type");
  }
  return it->second;
}

uint32_t PajeParser::FindContainer(std::string_view id) const
{
  const auto it = this->ContainerIds.find(id);
  if (it == this->ContainerIds.end())
  {
    this->Fail(this->Line, "undefined container " + Quoted(id));
  }
  if (it->second == Ambiguous)
  {
    this->Fail(this->Line,
      "container name " + Quoted(id) + " is ambiguous (several containers have it): use an alias");
  }
  const Container& container = this->Containers[it->second];
  if (container.DestroyedOn != 0)
  {
    this->Fail(this->Line,
      "container " + Quoted(id) + " was destroyed on line " +
        std::to_string(container.DestroyedOn));
  }
  return it->second;
}

uint32_t PajeParser::FindValue(uint32_t type, std::string_view id)
{
  Type& owner = this->Types[type];
  const auto it = owner.Values.find(id);
  if (it != owner.Values.end())
  {
    if (it->second == Ambiguous)
    {
      this->Fail(this->Line,
        "value name " + Quoted(id) + " of type " + Quoted(owner.Name) +
          " is ambiguous: use an alias");
    }
    return it->second;
  }
  // A value without DefineEntityValue: Pajé defines it on first use.
  const std::string_view name = this->Intern(id);
  if (owner.Kind == TypeKind::Link)
  {
    owner.Values.emplace(name, None); // link values are not types of their own
    return None;
  }
  const uint32_t row = this->Out.Types.Add(std::string(name),
    owner.Kind == TypeKind::State ? schema::StateKind : schema::EventKind, std::string(owner.Name),
    "");
  owner.Values.emplace(name, row);
  ++this->Out.Report.ImplicitValues;
  return row;
}

std::array<uint8_t, 3> PajeParser::Color(std::string_view text) const
{
  // Three numbers, in [0, 1] (Pajé, SimGrid) or in [0, 255] (some tools
  // write "255.0 102.0 255.0"): a component above 1 makes all three 0-255.
  const std::string why = "bad colour " + Quoted(text) +
    " (expected three numbers \"r g b\", each in [0, 1] or each in [0, 255])";
  std::array<double, 3> values{};
  const char* p = text.data();
  const char* const end = p + text.size();
  for (double& value : values)
  {
    while (p < end && (*p == ' ' || *p == '\t' || *p == ','))
    {
      ++p;
    }
    value = -1.0;
    const auto [next, error] = std::from_chars(p, end, value);
    if (error != std::errc() || !(value >= 0.0 && value <= 255.0))
    {
      this->Fail(this->Line, why);
    }
    p = next;
  }
  while (p < end && (*p == ' ' || *p == '\t'))
  {
    ++p;
  }
  if (p != end)
  {
    this->Fail(this->Line, why);
  }
  const bool bytes = *std::max_element(values.begin(), values.end()) > 1.0;
  std::array<uint8_t, 3> rgb{};
  for (std::size_t c = 0; c < 3; ++c)
  {
    rgb[c] = uint8_t(std::lround(bytes ? values[c] : values[c] * 255.0));
  }
  return rgb;
}

void PajeParser::CheckOwner(uint32_t type, uint32_t container, uint32_t owner) const
{
  const uint32_t actual = this->Containers[container].Type;
  if (owner == None)
  {
    // Only the root container type "0" has no owner (found by the fuzzer).
    this->Fail(this->Line,
      "type " + Quoted(this->Types[type].Name) +
        " is the root container type: no container but the root \"0\" can have it");
  }
  if (actual != owner)
  {
    this->Fail(this->Line,
      "type " + Quoted(this->Types[type].Name) + " belongs to containers of type " +
        Quoted(this->Types[owner].Name) + ", but container " +
        Quoted(this->Containers[container].Id) + " is of type " + Quoted(this->Types[actual].Name));
  }
}

void PajeParser::CheckTimeOrder(double last, double now, uint32_t container, uint32_t type) const
{
  if (now < last)
  {
    // pajeng refuses it too ("trace is not time-ordered"): a state would
    // end before it starts, a variable interval run backwards.
    this->Fail(this->Line,
      "time goes backwards on container " + Quoted(this->Containers[container].Id) + " for type " +
        Quoted(this->Types[type].Name) + ": " + FormatTime(now) + " s after " + FormatTime(last) +
        " s (Pajé needs each container's events of a type in time order)");
  }
}

PajeParser::Stack& PajeParser::StackOf(uint32_t container, uint32_t type)
{
  const auto [it, added] = this->StackIds.emplace(PairKey(container, type), 0);
  if (added)
  {
    it->second = uint32_t(this->Stacks.size());
    this->Stacks.push_back(Stack{ container, type, {}, -HUGE_VAL });
    this->Containers[container].Stacks.push_back(it->second);
  }
  return this->Stacks[it->second];
}

void PajeParser::CloseTop(Stack& stack, double end)
{
  const OpenState& top = stack.Open.back();
  ++this->Containers[stack.Container].Rows;
  if (this->Options.KeepRows)
  {
    StateColumns& states = this->Out.States;
    states.Location.push_back(stack.Container);
    states.Type.push_back(top.Row);
    states.Depth.push_back(uint32_t(stack.Open.size() - 1));
    states.Start.push_back(top.Start);
    states.End.push_back(end);
  }
  if (this->StreamStates)
  {
    this->HoldState(
      stack.Container, HeldState{ top.Row, uint32_t(stack.Open.size() - 1), top.Start, end });
  }
  stack.Open.pop_back();
}

void PajeParser::Stream(RowSink& sink, const std::vector<uint32_t>& leafOf)
{
  this->Options.KeepRows = false;
  this->Sink = &sink;
  this->StreamLeaves = &leafOf;
  this->StreamStates = sink.WantsStates();
  this->StreamEvents = sink.WantsEvents();
  this->StreamVariables = sink.WantsVariables();
  this->StreamMessages = sink.WantsMessages();
}

uint32_t PajeParser::StreamLeaf(uint32_t container) const
{
  const std::vector<uint32_t>& leafOf = *this->StreamLeaves;
  if (container >= leafOf.size() || leafOf[container] == None)
  {
    this->Fail(this->Line,
      "container " + Quoted(this->Containers[container].Id) +
        " holds data, but did not in the first pass: the file changed since it was scanned");
  }
  return leafOf[container];
}

void PajeParser::HoldState(uint32_t container, const HeldState& state)
{
  // States close in time order in a time-ordered trace; those ending at
  // the same instant wait for the next later one, to be sorted into Leave
  // order (deeper first, earlier start first), which the file does not give
  // across the stacks of a container.
  if (this->Held.size() <= container)
  {
    this->Held.resize(std::size_t(container) + 1);
  }
  std::vector<HeldState>& held = this->Held[container];
  if (!held.empty() && state.End != held.front().End)
  {
    if (state.End < held.front().End)
    {
      this->Fail(this->Line,
        "a state of container " + Quoted(this->Containers[container].Id) + " ends at " +
          std::to_string(state.End) + " s, before one that ended at " +
          std::to_string(held.front().End) +
          " s: the streamed model needs each container's events in time order");
    }
    this->ReleaseHeld(container);
  }
  held.push_back(state);
}

void PajeParser::ReleaseHeld(uint32_t container)
{
  std::vector<HeldState>& held = this->Held[container];
  if (held.empty())
  {
    return;
  }
  if (held.size() > 1)
  {
    std::stable_sort(held.begin(), held.end(),
      [](const HeldState& a, const HeldState& b)
      { return a.Depth > b.Depth || (a.Depth == b.Depth && a.Start < b.Start); });
  }
  const uint32_t leaf = this->StreamLeaf(container);
  StateColumns& states = this->BatchStates;
  for (const HeldState& state : held)
  {
    states.Location.push_back(leaf);
    states.Type.push_back(state.Type);
    states.Depth.push_back(state.Depth);
    states.Start.push_back(state.Start);
    states.End.push_back(state.End);
  }
  held.clear();
}

void PajeParser::Flush()
{
  if (!this->Sink ||
    (this->BatchStates.size() == 0 && this->BatchEvents.size() == 0 &&
      this->BatchVariables.size() == 0 && this->BatchMessages.size() == 0))
  {
    return;
  }
  this->Sink->Rows(this->BatchStates, this->BatchEvents, this->BatchVariables, this->BatchMessages);
  // Cleared, keeping the capacity for the next batch.
  StateColumns& s = this->BatchStates;
  for (auto* column : { &s.Location, &s.Type, &s.Depth })
  {
    column->clear();
  }
  s.Start.clear();
  s.End.clear();
  EventColumns& e = this->BatchEvents;
  e.Location.clear();
  e.Type.clear();
  e.Time.clear();
  e.Communicator.clear();
  e.Root.clear();
  e.Operation.clear();
  VariableColumns& v = this->BatchVariables;
  v.Location.clear();
  v.Variable.clear();
  v.Time.clear();
  v.Value.clear();
  this->BatchMessages.resize(0);
}

void PajeParser::Destroy(uint32_t container, double when)
{
  // Iterative walk: the depth of the hierarchy comes from the input.
  std::vector<uint32_t> todo{ container };
  while (!todo.empty())
  {
    const uint32_t c = todo.back();
    todo.pop_back();
    Container& object = this->Containers[c];
    if (object.DestroyedOn != 0)
    {
      continue;
    }
    object.DestroyedOn = this->Line;
    for (uint32_t s : object.Stacks)
    {
      Stack& stack = this->Stacks[s];
      if (!stack.Open.empty())
      {
        this->CheckTimeOrder(stack.Last, when, c, stack.Type);
      }
      this->Out.Report.StatesClosedByDestroy += stack.Open.size();
      while (!stack.Open.empty())
      {
        this->CloseTop(stack, when);
      }
    }
    todo.insert(todo.end(), object.Children.begin(), object.Children.end());
  }
}

void PajeParser::Link(const PajeLine& line, const PajeEventDefinition& def, bool start, double when)
{
  auto field = [&](FieldName f) { return line[1 + std::size_t(def.Position(f))]; };
  const uint32_t type = this->FindType(field(FieldName::Type), TypeKind::Link);
  const uint32_t holder = this->FindContainer(field(FieldName::Container));
  const Type& linkType = this->Types[type];
  this->CheckOwner(type, holder, linkType.Parent);
  const uint32_t endpoint =
    this->FindContainer(field(start ? FieldName::StartContainer : FieldName::EndContainer));
  this->CheckOwner(type, endpoint, start ? linkType.StartType : linkType.EndType);
  this->Containers[endpoint].HasData = true;
  if (def.Has(FieldName::Value))
  {
    this->FindValue(type, field(FieldName::Value));
  }
  uint64_t bytes = 0;
  if (start && def.Has(FieldName::Size))
  {
    const std::string_view size = field(FieldName::Size);
    const auto [end, error] = std::from_chars(size.data(), size.data() + size.size(), bytes);
    if (size.empty() || error != std::errc() || end != size.data() + size.size())
    {
      this->Fail(this->Line, "bad number " + Quoted(size) + " in field Size");
    }
  }
  // The key of a link: its type, the container that holds it and its Key.
  const std::string_view key = field(FieldName::Key);
  this->LinkKey.assign(reinterpret_cast<const char*>(&type), sizeof type);
  this->LinkKey.append(reinterpret_cast<const char*>(&holder), sizeof holder);
  this->LinkKey.append(key.data(), key.size());
  auto& others = start ? this->PendingEnds : this->PendingStarts;
  const auto match = others.find(this->LinkKey);
  if (match == others.end())
  {
    auto& mine = start ? this->PendingStarts : this->PendingEnds;
    mine[this->LinkKey].push_back(LinkEnd{ when, endpoint, bytes });
    return;
  }
  // First come, first matched among the pending ends of the same key.
  const LinkEnd other = match->second.front();
  match->second.erase(match->second.begin());
  if (match->second.empty())
  {
    others.erase(match);
  }
  const LinkEnd send = start ? LinkEnd{ when, endpoint, bytes } : other;
  const LinkEnd recv = start ? other : LinkEnd{ when, endpoint, bytes };
  ++this->Containers[recv.Container].Rows;
  if (recv.Time < send.Time)
  {
    ++this->Out.Report.EndsBeforeStarts;
  }
  if (this->StreamMessages)
  {
    MessageColumns& batch = this->BatchMessages;
    batch.Sender.push_back(this->StreamLeaf(send.Container));
    batch.Receiver.push_back(this->StreamLeaf(recv.Container));
    batch.SendTime.push_back(send.Time);
    batch.RecvTime.push_back(recv.Time);
    batch.Bytes.push_back(send.Bytes);
    batch.RecvBytes.push_back(send.Bytes);
    batch.Tag.push_back(0);
    batch.Communicator.push_back(linkType.Row);
    batch.RecvBeforeSend.push_back(recv.Time < send.Time ? 1 : 0);
  }
  if (!this->Options.KeepRows)
  {
    return;
  }
  MessageColumns& messages = this->Out.Messages;
  messages.Sender.push_back(send.Container);
  messages.Receiver.push_back(recv.Container);
  messages.SendTime.push_back(send.Time);
  messages.RecvTime.push_back(recv.Time);
  messages.Bytes.push_back(send.Bytes);
  messages.RecvBytes.push_back(send.Bytes);
  messages.Tag.push_back(0);
  messages.Communicator.push_back(linkType.Row);
  messages.RecvBeforeSend.push_back(recv.Time < send.Time ? 1 : 0);
}

void PajeParser::Header(const PajeLine& line)
{
  if (line.Count == 0)
  {
    return; // a lone '%'
  }
  if (line[0] != "EventDef")
  {
    if (line[0] == "EndEventDef")
    {
      this->Fail(this->Line, "%EndEventDef without %EventDef");
    }
    this->Fail(this->Line, "header line " + Quoted(line[0]) + " outside an %EventDef");
  }
  if (line.Count != 3)
  {
    this->Fail(this->Line, "%EventDef needs an event name and an id");
  }
  EventKind kind;
  if (!EventKindFromName(line[1], kind))
  {
    this->Fail(this->Line, "unknown event kind " + Quoted(line[1]));
  }
  uint64_t id = 0;
  const std::string_view idText = line[2];
  const auto [end, error] = std::from_chars(idText.data(), idText.data() + idText.size(), id);
  if (error != std::errc() || end != idText.data() + idText.size() || id >= MaxEventId)
  {
    this->Fail(this->Line,
      "bad event id " + Quoted(idText) + " (an integer below " + std::to_string(MaxEventId) +
        " is expected)");
  }
  if (id < this->DefinitionOf.size() && this->DefinitionOf[id] != None)
  {
    this->Fail(this->Line,
      "event id " + std::to_string(id) + " is already defined on line " +
        std::to_string(this->DefinedOn[this->DefinitionOf[id]]));
  }
  const uint64_t started = this->Line;
  PajeEventDefinition def(kind, std::string(line[1]));
  PajeLine field;
  while (true)
  {
    if (!this->Tokens.Next(field))
    {
      this->Fail(started, "%EventDef " + Quoted(line[1]) + " is never closed by %EndEventDef");
    }
    this->Line = field.Number;
    if (!field.Header)
    {
      this->Fail(this->Line,
        "event line inside %EventDef " + std::string(def.GetName()) + " (started on line " +
          std::to_string(started) + "; missing %EndEventDef?)");
    }
    if (field.Count == 0)
    {
      continue;
    }
    if (field[0] == "EndEventDef")
    {
      break;
    }
    if (field[0] == "EventDef")
    {
      this->Fail(this->Line,
        "%EventDef inside %EventDef " + def.GetName() + " (started on line " +
          std::to_string(started) + ")");
    }
    if (def.FieldCount() + 2 > PajeLine::MaxFields)
    {
      this->Fail(this->Line, "too many fields in %EventDef " + def.GetName());
    }
    if (!def.AddField(field[0]))
    {
      this->Fail(
        this->Line, "field " + Quoted(field[0]) + " appears twice in %EventDef " + def.GetName());
    }
  }
  FieldName missing;
  if (def.MissingField(missing))
  {
    this->Fail(started,
      def.GetName() + " (id " + std::to_string(id) + ") lacks the field " + FieldNameText(missing));
  }
  if (id >= this->DefinitionOf.size())
  {
    this->DefinitionOf.resize(id + 1, None);
  }
  this->DefinitionOf[id] = uint32_t(this->Definitions.size());
  this->Definitions.push_back(std::move(def));
  this->DefinedOn.push_back(started);
}

void PajeParser::Event(const PajeLine& line)
{
  uint64_t id = 0;
  const std::string_view idText = line[0];
  const auto [idEnd, error] = std::from_chars(idText.data(), idText.data() + idText.size(), id);
  if (error != std::errc() || idEnd != idText.data() + idText.size())
  {
    this->Fail(this->Line, "bad event id " + Quoted(idText));
  }
  if (id >= this->DefinitionOf.size() || this->DefinitionOf[id] == None)
  {
    this->Fail(this->Line, "unknown event id " + Quoted(idText));
  }
  const PajeEventDefinition& def = this->Definitions[this->DefinitionOf[id]];
  const std::size_t fields = line.Count - 1;
  if (fields < def.FieldCount())
  {
    if (!line.Terminated)
    {
      this->Fail(this->Line,
        "truncated file: the last line ends in the middle of " + def.GetName() + " (" +
          std::to_string(fields) + " of " + std::to_string(def.FieldCount()) + " fields)");
    }
    this->Fail(this->Line,
      "missing fields: " + def.GetName() + " (id " + Quoted(idText) + ") has " +
        std::to_string(def.FieldCount()) + " fields, the line " + std::to_string(fields));
  }
  if (fields > def.FieldCount())
  {
    this->Fail(this->Line,
      "too many fields: " + def.GetName() + " (id " + Quoted(idText) + ") has " +
        std::to_string(def.FieldCount()) + " fields, the line " + std::to_string(fields));
  }
  auto field = [&](FieldName f) { return line[1 + std::size_t(def.Position(f))]; };
  auto optional = [&](FieldName f) { return def.Has(f) ? field(f) : std::string_view(); };
  ++this->Out.Report.Events[std::size_t(def.GetKind())];
  ++this->Out.Report.Lines;

  switch (def.GetKind())
  {
    case EventKind::DefineContainerType:
    case EventKind::DefineStateType:
    case EventKind::DefineEventType:
    case EventKind::DefineVariableType:
    case EventKind::DefineLinkType:
    {
      static constexpr TypeKind kinds[] = { TypeKind::Container, TypeKind::State, TypeKind::Event,
        TypeKind::Variable, TypeKind::Link };
      Type type;
      type.Kind = kinds[std::size_t(def.GetKind())];
      type.Parent = this->FindType(field(FieldName::Type), TypeKind::Container);
      type.Name = this->Intern(field(FieldName::Name));
      const std::string_view alias = this->Intern(optional(FieldName::Alias));
      if (type.Kind == TypeKind::Link)
      {
        type.StartType = this->FindType(field(FieldName::StartContainerType), TypeKind::Container);
        type.EndType = this->FindType(field(FieldName::EndContainerType), TypeKind::Container);
      }
      const uint32_t index = uint32_t(this->Types.size());
      this->RegisterId(this->TypeIds, this->TypeAliases, alias, type.Name, index, "type");
      if (type.Kind == TypeKind::Variable || type.Kind == TypeKind::Link)
      {
        type.Row = this->Out.Types.Add(std::string(type.Name),
          type.Kind == TypeKind::Variable ? schema::VariableKind : schema::LinkKind, "", "");
        if (def.Has(FieldName::Color))
        {
          this->Out.Types.TraceColor[type.Row] = this->Color(field(FieldName::Color));
        }
      }
      this->Types.push_back(std::move(type));
      break;
    }
    case EventKind::DefineEntityValue:
    {
      const std::string_view typeId = field(FieldName::Type);
      const auto it = this->TypeIds.find(typeId);
      if (it == this->TypeIds.end() || it->second == Ambiguous)
      {
        this->FindType(typeId, TypeKind::State); // fails with the reason
      }
      Type& type = this->Types[it->second];
      if (type.Kind != TypeKind::State && type.Kind != TypeKind::Event &&
        type.Kind != TypeKind::Link)
      {
        this->Fail(this->Line,
          "type " + Quoted(typeId) + " is a " + KindWord(int(type.Kind)) +
            " type: only state, event and link types have values");
      }
      const std::string_view name = this->Intern(field(FieldName::Name));
      const std::string_view alias = this->Intern(optional(FieldName::Alias));
      uint32_t row = None;
      if (type.Kind != TypeKind::Link)
      {
        row = this->Out.Types.Add(std::string(name),
          type.Kind == TypeKind::State ? schema::StateKind : schema::EventKind,
          std::string(type.Name), "");
        if (def.Has(FieldName::Color))
        {
          this->Out.Types.TraceColor[row] = this->Color(field(FieldName::Color));
        }
      }
      this->RegisterId(type.Values, type.ValueAliases, alias, name, row, "value");
      break;
    }
    case EventKind::CreateContainer:
    {
      this->Time(field(FieldName::Time));
      Container container;
      container.Type = this->FindType(field(FieldName::Type), TypeKind::Container);
      container.Parent = this->FindContainer(field(FieldName::Container));
      this->CheckOwner(container.Type, container.Parent, this->Types[container.Type].Parent);
      container.Name = this->Intern(field(FieldName::Name));
      const std::string_view alias = this->Intern(optional(FieldName::Alias));
      container.Id = alias.empty() ? container.Name : alias;
      const uint32_t index = uint32_t(this->Containers.size());
      this->RegisterId(
        this->ContainerIds, this->ContainerAliases, alias, container.Name, index, "container");
      this->Containers[container.Parent].Children.push_back(index);
      this->Containers.push_back(std::move(container));
      break;
    }
    case EventKind::DestroyContainer:
    {
      const double t = this->Time(field(FieldName::Time));
      const uint32_t type = this->FindType(field(FieldName::Type), TypeKind::Container);
      const uint32_t container = this->FindContainer(field(FieldName::Name));
      if (this->Containers[container].Type != type)
      {
        this->Fail(this->Line,
          "container " + Quoted(field(FieldName::Name)) + " is not of type " +
            Quoted(field(FieldName::Type)));
      }
      // Destroying the root "0" ends the whole trace (pajeng accepts it):
      // every open state of every container closes at its time.
      this->Destroy(container, t);
      break;
    }
    case EventKind::SetState:
    case EventKind::PushState:
    case EventKind::PopState:
    case EventKind::ResetState:
    {
      const double t = this->Time(field(FieldName::Time));
      const uint32_t type = this->FindType(field(FieldName::Type), TypeKind::State);
      const uint32_t container = this->FindContainer(field(FieldName::Container));
      this->CheckOwner(type, container, this->Types[type].Parent);
      this->Containers[container].HasData = true;
      Stack& stack = this->StackOf(container, type);
      this->CheckTimeOrder(stack.Last, t, container, type);
      stack.Last = t;
      if (def.GetKind() == EventKind::PopState)
      {
        if (stack.Open.empty())
        {
          this->Fail(this->Line,
            "PajePopState on an empty stack (container " + Quoted(field(FieldName::Container)) +
              ", type " + Quoted(field(FieldName::Type)) + ")");
        }
        this->CloseTop(stack, t);
      }
      else if (def.GetKind() == EventKind::ResetState)
      {
        while (!stack.Open.empty())
        {
          this->CloseTop(stack, t);
        }
      }
      else
      {
        const uint32_t row = this->FindValue(type, field(FieldName::Value));
        if (def.GetKind() == EventKind::SetState)
        {
          // pajeng's SetState replaces the whole stack, not only its top:
          // every open state ends here and the new one is alone, at depth 0.
          while (!stack.Open.empty())
          {
            this->CloseTop(stack, t);
          }
        }
        stack.Open.push_back(OpenState{ t, row });
      }
      break;
    }
    case EventKind::NewEvent:
    {
      const double t = this->Time(field(FieldName::Time));
      const uint32_t type = this->FindType(field(FieldName::Type), TypeKind::Event);
      const uint32_t container = this->FindContainer(field(FieldName::Container));
      this->CheckOwner(type, container, this->Types[type].Parent);
      this->Containers[container].HasData = true;
      const uint32_t row = this->FindValue(type, field(FieldName::Value));
      ++this->Containers[container].Rows;
      if (this->StreamEvents)
      {
        EventColumns& batch = this->BatchEvents;
        batch.Location.push_back(this->StreamLeaf(container));
        batch.Type.push_back(row);
        batch.Time.push_back(t);
        batch.Communicator.push_back(-1);
        batch.Root.push_back(-1);
        batch.Operation.push_back(-1);
      }
      if (!this->Options.KeepRows)
      {
        break;
      }
      EventColumns& events = this->Out.Events;
      events.Location.push_back(container);
      events.Type.push_back(row);
      events.Time.push_back(t);
      events.Communicator.push_back(-1);
      events.Root.push_back(-1);
      events.Operation.push_back(-1);
      break;
    }
    case EventKind::SetVariable:
    case EventKind::AddVariable:
    case EventKind::SubVariable:
    {
      const double t = this->Time(field(FieldName::Time));
      const uint32_t type = this->FindType(field(FieldName::Type), TypeKind::Variable);
      const uint32_t container = this->FindContainer(field(FieldName::Container));
      this->CheckOwner(type, container, this->Types[type].Parent);
      this->Containers[container].HasData = true;
      const double value = this->Number(field(FieldName::Value), FieldName::Value);
      Variable& variable = this->Variables[PairKey(container, type)];
      this->CheckTimeOrder(variable.Last, t, container, type);
      variable.Last = t;
      double& current = variable.Value;
      current = def.GetKind() == EventKind::SetVariable ? value
        : def.GetKind() == EventKind::AddVariable       ? current + value
                                                        : current - value;
      ++this->Containers[container].Rows;
      if (this->StreamVariables)
      {
        VariableColumns& batch = this->BatchVariables;
        batch.Location.push_back(this->StreamLeaf(container));
        batch.Variable.push_back(this->Types[type].Row);
        batch.Time.push_back(t);
        batch.Value.push_back(current);
      }
      if (!this->Options.KeepRows)
      {
        break;
      }
      VariableColumns& variables = this->Out.Variables;
      variables.Location.push_back(container);
      variables.Variable.push_back(this->Types[type].Row);
      variables.Time.push_back(t);
      variables.Value.push_back(current);
      break;
    }
    case EventKind::TraceFile:
    {
      // pajeng reads and ignores it; so does Macroscope, saying so.
      Diagnostics& report = this->Out.Report;
      if (report.SkippedTraceFiles.size() < 5)
      {
        report.SkippedTraceFiles.push_back(
          def.Has(FieldName::Filename) ? Quoted(field(FieldName::Filename)) : "(no Filename)");
      }
      ++report.TraceFilesSkipped;
      break;
    }
    case EventKind::StartLink:
    case EventKind::EndLink:
    {
      const double t = this->Time(field(FieldName::Time));
      this->Link(line, def, def.GetKind() == EventKind::StartLink, t);
      break;
    }
  }
}

void PajeParser::Finish()
{
  Diagnostics& report = this->Out.Report;
  // States still open end with the trace.
  for (Stack& stack : this->Stacks)
  {
    report.StatesLeftOpen += stack.Open.size();
    while (!stack.Open.empty())
    {
      this->CloseTop(stack, report.LastTime);
    }
  }
  for (const auto& pending : this->PendingStarts)
  {
    report.UnmatchedStartLinks += pending.second.size();
  }
  for (const auto& pending : this->PendingEnds)
  {
    report.UnmatchedEndLinks += pending.second.size();
  }

  // The hierarchy in depth-first order, children in creation order. A
  // container with children that holds data itself gets a "self" leaf as
  // its first child, so that leaves stay the tree's leaves.
  HierarchyColumns& tree = this->Out.Hierarchy;
  std::vector<uint32_t> leafOf(this->Containers.size(), None);
  std::vector<std::pair<uint32_t, int64_t>> todo{ { 0, -1 } }; // container, parent vertex
  while (!todo.empty())
  {
    const auto [c, parent] = todo.back();
    todo.pop_back();
    const Container& container = this->Containers[c];
    const std::string name = c == 0 ? "root" : std::string(container.Name);
    const std::string kind = c == 0 ? "root" : std::string(this->Types[container.Type].Name);
    const int64_t vertex = int64_t(tree.Parent.size());
    tree.Parent.push_back(parent);
    tree.Name.push_back(name);
    tree.Kind.push_back(kind);
    tree.LeafIndex.push_back(-1);
    if (container.Children.empty() || container.HasData)
    {
      std::size_t leafVertex = std::size_t(vertex);
      if (!container.Children.empty())
      {
        leafVertex = tree.Parent.size();
        tree.Parent.push_back(vertex);
        tree.Name.push_back(name);
        tree.Kind.push_back(kind);
        tree.LeafIndex.push_back(-1);
        ++report.SelfLeaves;
      }
      leafOf[c] = uint32_t(this->Out.Leaves.size());
      tree.LeafIndex[leafVertex] = int64_t(leafOf[c]);
      this->Out.Leaves.push_back(
        LeafInfo{ std::string(container.Id), leafVertex, !container.Children.empty() });
    }
    for (auto child = container.Children.rbegin(); child != container.Children.rend(); ++child)
    {
      todo.emplace_back(*child, vertex);
    }
  }
  this->Out.RowsOfLeaf.assign(this->Out.Leaves.size(), 0);
  for (std::size_t c = 0; c < this->Containers.size(); ++c)
  {
    if (leafOf[c] != None)
    {
      this->Out.RowsOfLeaf[leafOf[c]] += this->Containers[c].Rows;
    }
  }
  if (this->Sink)
  {
    if (leafOf != *this->StreamLeaves)
    {
      throw TraceError(this->Tokens.GetSource() +
        ": the containers differ from the first pass: the file changed since it was scanned");
    }
    for (uint32_t c = 0; c < this->Held.size(); ++c)
    {
      this->ReleaseHeld(c);
    }
    this->Flush();
  }
  this->Out.LeafOfContainer = std::move(leafOf);
  // Rows named containers so far; now they name leaves.
  const std::vector<uint32_t>& leafOfContainer = this->Out.LeafOfContainer;
  for (uint32_t& location : this->Out.States.Location)
  {
    location = leafOfContainer[location];
  }
  for (uint32_t& location : this->Out.Events.Location)
  {
    location = leafOfContainer[location];
  }
  for (uint32_t& location : this->Out.Variables.Location)
  {
    location = leafOfContainer[location];
  }
  for (uint32_t& location : this->Out.Messages.Sender)
  {
    location = leafOfContainer[location];
  }
  for (uint32_t& location : this->Out.Messages.Receiver)
  {
    location = leafOfContainer[location];
  }
}

TraceData PajeParser::Run()
{
  PajeLine line;
  uint64_t sinceProgress = 0;
  uint64_t sinceCheck = 0;
  // Progress every hundredth of the file (docs/progress.md), looked at every
  // CheckLines lines: evenly spread whatever the file's size.
  const uint64_t reportEvery = std::max<uint64_t>(1, this->Tokens.size() / 100);
  uint64_t nextReport = reportEvery;
  while (this->Tokens.Next(line))
  {
    this->Line = line.Number;
    if (line.Header)
    {
      this->Header(line);
    }
    else
    {
      this->Event(line);
    }
    if (++sinceProgress == ProgressLines)
    {
      sinceProgress = 0;
      this->Flush();
      if (this->Release && !this->Options.KeepRows)
      {
        this->Release(this->Tokens.Offset());
      }
    }
    if (++sinceCheck == CheckLines)
    {
      sinceCheck = 0;
      if (this->Tokens.Offset() >= nextReport)
      {
        nextReport = this->Tokens.Offset() + reportEvery;
        if (this->Options.Progress &&
          !this->Options.Progress(double(this->Tokens.Offset()) / double(this->Tokens.size())))
        {
          throw ReadAborted();
        }
      }
    }
  }
  this->Finish();
  if (this->Options.Progress && !this->Options.Progress(1.0))
  {
    throw ReadAborted();
  }
  return std::move(this->Out);
}

} // namespace macroscope::paje
