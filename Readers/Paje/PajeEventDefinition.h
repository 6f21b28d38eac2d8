// The event kinds of the Pajé format and the field layout that a trace's
// "%EventDef Name Id ... %EndEventDef" header gives each of them.
#ifndef macroscope_paje_PajeEventDefinition_h
#define macroscope_paje_PajeEventDefinition_h

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace macroscope::paje
{

enum class EventKind : uint8_t
{
  DefineContainerType,
  DefineStateType,
  DefineEventType,
  DefineVariableType,
  DefineLinkType,
  DefineEntityValue,
  CreateContainer,
  DestroyContainer,
  SetState,
  PushState,
  PopState,
  ResetState,
  NewEvent,
  SetVariable,
  AddVariable,
  SubVariable,
  StartLink,
  EndLink,
  /// A part of the trace in another file (pajeng reads and ignores it).
  TraceFile,
};
constexpr std::size_t EventKindCount = 19;

/// The fields the parser interprets; any other field of a definition is
/// accepted and skipped.
enum class FieldName : uint8_t
{
  Time,
  Name,
  Alias,
  Type,
  Container,
  Value,
  StartContainerType,
  EndContainerType,
  StartContainer,
  EndContainer,
  Key,
  Color,
  Size,
  Filename, ///< PajeTraceFile
};
constexpr std::size_t FieldNameCount = 14;

/// "PajeSetState" -> SetState; false for an unknown name.
bool EventKindFromName(std::string_view name, EventKind& kind);
/// SetState -> "PajeSetState".
const char* EventKindName(EventKind kind);
/// "Time" -> Time; false for a field the parser does not interpret. Case-sensitive
/// as in the format, except that "size" (SimGrid) is also Size.
bool FieldFromName(std::string_view name, FieldName& field);
const char* FieldNameText(FieldName field);

/// One event definition: where each interpreted field sits on an event line.
class PajeEventDefinition
{
public:
  static constexpr int8_t Absent = -1;

  PajeEventDefinition() = default;
  PajeEventDefinition(EventKind kind, std::string name);

  EventKind GetKind() const { return this->Kind; }
  const std::string& GetName() const { return this->Name; }

  /// Appends the next field of the header; false when `field` is already there.
  bool AddField(std::string_view field);
  /// Fields on an event line after the event id.
  std::size_t FieldCount() const { return this->Count; }
  /// Position after the event id, or Absent.
  int8_t Position(FieldName field) const { return this->Positions[std::size_t(field)]; }
  bool Has(FieldName field) const { return this->Position(field) != Absent; }

  /// The first field the kind needs and this definition lacks; false when complete.
  bool MissingField(FieldName& missing) const;

private:
  static constexpr std::array<int8_t, FieldNameCount> AllAbsent()
  {
    std::array<int8_t, FieldNameCount> positions{};
    for (int8_t& position : positions)
    {
      position = Absent;
    }
    return positions;
  }

  EventKind Kind = EventKind::SetState;
  std::string Name;
  std::array<int8_t, FieldNameCount> Positions = AllAbsent();
  std::size_t Count = 0;
  /// Names of every field, interpreted or not, to refuse duplicates.
  std::string Seen;
};

} // namespace macroscope::paje

#endif
