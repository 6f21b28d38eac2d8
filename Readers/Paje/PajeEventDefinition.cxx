#include "PajeEventDefinition.h"

#include <initializer_list>

namespace macroscope::paje
{

namespace
{
constexpr const char* KindNames[EventKindCount] = { "PajeDefineContainerType",
  "PajeDefineStateType", "PajeDefineEventType", "PajeDefineVariableType", "PajeDefineLinkType",
  "PajeDefineEntityValue", "PajeCreateContainer", "PajeDestroyContainer", "PajeSetState",
  "PajePushState", "PajePopState", "PajeResetState", "PajeNewEvent", "PajeSetVariable",
  "PajeAddVariable", "PajeSubVariable", "PajeStartLink", "PajeEndLink", "PajeTraceFile" };

constexpr const char* FieldNames[FieldNameCount] = { "Time", "Name", "Alias", "Type", "Container",
  "Value", "StartContainerType", "EndContainerType", "StartContainer", "EndContainer", "Key",
  "Color", "Size", "Filename" };

using F = FieldName;

/// The fields each kind cannot do without (Alias is always optional: an
/// object without one is referred to by its name).
std::initializer_list<FieldName> Required(EventKind kind)
{
  switch (kind)
  {
    case EventKind::DefineContainerType:
    case EventKind::DefineStateType:
    case EventKind::DefineEventType:
    case EventKind::DefineVariableType:
    case EventKind::DefineEntityValue:
    {
      static constexpr std::initializer_list<FieldName> fields = { F::Name, F::Type };
      return fields;
    }
    case EventKind::DefineLinkType:
    {
      static constexpr std::initializer_list<FieldName> fields = { F::Name, F::Type,
        F::StartContainerType, F::EndContainerType };
      return fields;
    }
    case EventKind::CreateContainer:
    {
      static constexpr std::initializer_list<FieldName> fields = { F::Time, F::Name, F::Type,
        F::Container };
      return fields;
    }
    case EventKind::DestroyContainer:
    {
      static constexpr std::initializer_list<FieldName> fields = { F::Time, F::Name, F::Type };
      return fields;
    }
    case EventKind::SetState:
    case EventKind::PushState:
    case EventKind::NewEvent:
    case EventKind::SetVariable:
    case EventKind::AddVariable:
    case EventKind::SubVariable:
    {
      static constexpr std::initializer_list<FieldName> fields = { F::Time, F::Type, F::Container,
        F::Value };
      return fields;
    }
    case EventKind::PopState:
    case EventKind::ResetState:
    {
      static constexpr std::initializer_list<FieldName> fields = { F::Time, F::Type, F::Container };
      return fields;
    }
    case EventKind::StartLink:
    {
      static constexpr std::initializer_list<FieldName> fields = { F::Time, F::Type, F::Container,
        F::StartContainer, F::Key };
      return fields;
    }
    case EventKind::EndLink:
    {
      static constexpr std::initializer_list<FieldName> fields = { F::Time, F::Type, F::Container,
        F::EndContainer, F::Key };
      return fields;
    }
    case EventKind::TraceFile:
      return {}; // skipped whatever its fields (pajeng wants Type, Container, Filename)
  }
  return {};
}
}

bool EventKindFromName(std::string_view name, EventKind& kind)
{
  for (std::size_t k = 0; k < EventKindCount; ++k)
  {
    if (name == KindNames[k])
    {
      kind = EventKind(k);
      return true;
    }
  }
  return false;
}

const char* EventKindName(EventKind kind)
{
  return KindNames[std::size_t(kind)];
}

bool FieldFromName(std::string_view name, FieldName& field)
{
  for (std::size_t f = 0; f < FieldNameCount; ++f)
  {
    if (name == FieldNames[f])
    {
      field = FieldName(f);
      return true;
    }
  }
  if (name == "size")
  {
    field = FieldName::Size;
    return true;
  }
  return false;
}

const char* FieldNameText(FieldName field)
{
  return FieldNames[std::size_t(field)];
}

PajeEventDefinition::PajeEventDefinition(EventKind kind, std::string name)
  : Kind(kind)
  , Name(std::move(name))
{
}

bool PajeEventDefinition::AddField(std::string_view field)
{
  // Seen holds "\n<name>\n" per field: a plain search finds duplicates
  // (a header has a handful of fields).
  std::string marked;
  marked.reserve(field.size() + 2);
  marked += '\n';
  marked += field;
  marked += '\n';
  if (this->Seen.find(marked) != std::string::npos)
  {
    return false;
  }
  FieldName known;
  if (FieldFromName(field, known))
  {
    if (this->Positions[std::size_t(known)] != Absent)
    {
      return false; // "Size" and "size" both
    }
    this->Positions[std::size_t(known)] = int8_t(this->Count);
  }
  this->Seen += marked;
  ++this->Count;
  return true;
}

bool PajeEventDefinition::MissingField(FieldName& missing) const
{
  for (FieldName field : Required(this->Kind))
  {
    if (!this->Has(field))
    {
      missing = field;
      return true;
    }
  }
  return false;
}

} // namespace macroscope::paje
