// The Pajé parser proper: reads event lines one at a time, keeps the state
// of the simulated trace (types, containers, state stacks, variable values,
// pending links) and appends rows to the output tables.
#ifndef macroscope_paje_PajeParser_h
#define macroscope_paje_PajeParser_h

#include "MacroscopePaje.h"
#include "PajeEventDefinition.h"
#include "PajeLineTokenizer.h"

#include <cmath>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace macroscope::paje
{

class PajeParser
{
public:
  PajeParser(std::string_view text, const ReadOptions& options, const std::string& source);

  /// Hands the rows to `sink` instead of keeping them (StreamTrace()):
  /// `leafOf` is the LeafOfContainer of a first pass. Call before Run().
  void Stream(RowSink& sink, const std::vector<uint32_t>& leafOf);
  /// Called now and then, when KeepRows is off or rows are streamed, with
  /// the offset of the input before which nothing is looked at again.
  void OnConsumed(std::function<void(std::size_t)> release) { this->Release = std::move(release); }

  /// Parses the whole input; call once.
  TraceData Run();

private:
  static constexpr uint32_t None = UINT32_MAX;
  static constexpr uint32_t Ambiguous = UINT32_MAX - 1;

  enum class TypeKind : uint8_t
  {
    Container,
    State,
    Event,
    Variable,
    Link,
  };
  struct Type
  {
    TypeKind Kind = TypeKind::Container;
    std::string_view Name;
    uint32_t Parent = None;    ///< container type it belongs to (parent type for containers)
    uint32_t StartType = None; ///< links
    uint32_t EndType = None;
    uint32_t Row = None; ///< Types row of a variable or link type
    /// Values (state, event, link types): alias or name -> Types row (None for links).
    std::unordered_map<std::string_view, uint32_t> Values;
    std::unordered_set<std::string_view> ValueAliases;
  };
  struct Container
  {
    std::string_view Name;
    std::string_view Id; ///< alias, or name without one
    uint32_t Type = 0;
    uint32_t Parent = None;
    std::vector<uint32_t> Children;
    std::vector<uint32_t> Stacks; ///< its state stacks, to close them on destruction
    bool HasData = false;
    uint64_t DestroyedOn = 0; ///< line of its DestroyContainer, 0 while alive
    uint64_t Rows = 0;        ///< rows on it (messages: as receiver)
  };
  /// A streamed state waiting until no other state of its container can
  /// end at the same instant, to be handed over in Leave order.
  struct HeldState
  {
    uint32_t Type;
    uint32_t Depth;
    double Start;
    double End;
  };
  struct OpenState
  {
    double Start;
    uint32_t Row;
  };
  struct Stack
  {
    uint32_t Container;
    uint32_t Type;
    std::vector<OpenState> Open;
    double Last; ///< time of its latest event, to refuse time going backwards
  };
  /// A variable of one container: its value and the time of its last change.
  struct Variable
  {
    double Value = 0.0;
    double Last = -HUGE_VAL;
  };
  struct LinkEnd
  {
    double Time;
    uint32_t Container;
    uint64_t Bytes;
  };
  using LinkQueue = std::vector<LinkEnd>;

  void Header(const PajeLine& line);
  void Event(const PajeLine& line);
  [[noreturn]] void Fail(uint64_t line, const std::string& problem) const;

  std::string_view Intern(std::string_view text);
  /// Registers an object's alias (must be new) and name (a clash makes the name ambiguous).
  /// An alias wins over another object's name.
  using Ids = std::unordered_map<std::string_view, uint32_t>;
  using Aliases = std::unordered_set<std::string_view>;
  void RegisterId(Ids& ids, Aliases& aliases, std::string_view alias, std::string_view name,
    uint32_t index, const char* what);

  double Number(std::string_view text, FieldName field) const;
  double Time(std::string_view text);
  uint32_t FindType(std::string_view id, TypeKind kind) const;
  uint32_t FindContainer(std::string_view id) const;
  uint32_t FindValue(uint32_t type, std::string_view id);
  std::array<uint8_t, 3> Color(std::string_view text) const;
  /// Checks that `container` has the container type that `type` belongs to.
  void CheckOwner(uint32_t type, uint32_t container, uint32_t owner) const;
  /// Fails when `now` is before `last`, the previous event of `type` on `container`.
  void CheckTimeOrder(double last, double now, uint32_t container, uint32_t type) const;

  Stack& StackOf(uint32_t container, uint32_t type);
  void CloseTop(Stack& stack, double end);
  void Destroy(uint32_t container, double time);
  void Link(const PajeLine& line, const PajeEventDefinition& def, bool start, double when);
  void Finish();
  /// The leaf of a container, while streaming.
  uint32_t StreamLeaf(uint32_t container) const;
  void HoldState(uint32_t container, const HeldState& state);
  void ReleaseHeld(uint32_t container);
  void Flush();

  PajeLineTokenizer Tokens;
  ReadOptions Options;
  TraceData Out;
  uint64_t Line = 0; ///< line being parsed

  std::vector<PajeEventDefinition> Definitions; ///< in header order
  /// Event id -> row of Definitions, None if undefined: 4 bytes per id, so
  /// that a large id costs little.
  std::vector<uint32_t> DefinitionOf;
  std::vector<uint64_t> DefinedOn; ///< line of each row's %EventDef
  std::deque<std::string> Pool;    ///< owns the names the maps below view

  std::vector<Type> Types;
  std::unordered_map<std::string_view, uint32_t> TypeIds;
  std::unordered_set<std::string_view> TypeAliases;
  std::vector<Container> Containers;
  std::unordered_map<std::string_view, uint32_t> ContainerIds;
  std::unordered_set<std::string_view> ContainerAliases;
  std::vector<Stack> Stacks;
  std::unordered_map<uint64_t, uint32_t> StackIds;          ///< (container, type) -> Stacks
  std::unordered_map<uint64_t, Variable> Variables;         ///< (container, type) -> variable
  std::unordered_map<std::string, LinkQueue> PendingStarts; ///< (type, container, key)
  std::unordered_map<std::string, LinkQueue> PendingEnds;
  std::string LinkKey; ///< scratch for the key lookups

  // Streaming (Stream(), StreamTrace()): the rows completed since the last
  // flush, by leaf, and the states each container holds back.
  RowSink* Sink = nullptr;
  const std::vector<uint32_t>* StreamLeaves = nullptr;
  bool StreamStates = false;
  bool StreamEvents = false;
  bool StreamVariables = false;
  bool StreamMessages = false;
  StateColumns BatchStates;
  EventColumns BatchEvents;
  VariableColumns BatchVariables;
  MessageColumns BatchMessages;
  std::vector<std::vector<HeldState>> Held; ///< by container
  std::function<void(std::size_t)> Release;
};

} // namespace macroscope::paje

#endif
