#include "OTF2TraceTables.h"

#include <TypePalette.h>

namespace macroscope::otf2
{

namespace
{
template <typename T>
std::size_t BytesOf(const Column<T>& column)
{
  return column.size() * sizeof(T);
}
}

void StateColumns::reserve(std::size_t rows)
{
  this->Location.reserve(rows);
  this->Type.reserve(rows);
  this->Depth.reserve(rows);
  this->Start.reserve(rows);
  this->End.reserve(rows);
}

void StateColumns::Prefault(std::size_t rows) const
{
  this->Location.Prefault(rows);
  this->Type.Prefault(rows);
  this->Depth.Prefault(rows);
  this->Start.Prefault(rows);
  this->End.Prefault(rows);
}

void StateColumns::shrink_to_fit()
{
  this->Location.shrink_to_fit();
  this->Type.shrink_to_fit();
  this->Depth.shrink_to_fit();
  this->Start.shrink_to_fit();
  this->End.shrink_to_fit();
}

std::size_t StateColumns::MemoryBytes() const
{
  return BytesOf(this->Location) + BytesOf(this->Type) + BytesOf(this->Depth) +
    BytesOf(this->Start) + BytesOf(this->End);
}

void MessageColumns::reserve(std::size_t rows)
{
  this->Sender.reserve(rows);
  this->Receiver.reserve(rows);
  this->SendTime.reserve(rows);
  this->RecvTime.reserve(rows);
  this->Bytes.reserve(rows);
  this->RecvBytes.reserve(rows);
  this->Tag.reserve(rows);
  this->Communicator.reserve(rows);
  this->RecvBeforeSend.reserve(rows);
}

void MessageColumns::Prefault(std::size_t rows) const
{
  this->Sender.Prefault(rows);
  this->Receiver.Prefault(rows);
  this->SendTime.Prefault(rows);
  this->RecvTime.Prefault(rows);
  this->Bytes.Prefault(rows);
  this->RecvBytes.Prefault(rows);
  this->Tag.Prefault(rows);
  this->Communicator.Prefault(rows);
  this->RecvBeforeSend.Prefault(rows);
}

void MessageColumns::resize(std::size_t rows)
{
  this->Sender.resize(rows);
  this->Receiver.resize(rows);
  this->SendTime.resize(rows);
  this->RecvTime.resize(rows);
  this->Bytes.resize(rows);
  this->RecvBytes.resize(rows);
  this->Tag.resize(rows);
  this->Communicator.resize(rows);
  this->RecvBeforeSend.resize(rows);
}

void MessageColumns::shrink_to_fit()
{
  this->Sender.shrink_to_fit();
  this->Receiver.shrink_to_fit();
  this->SendTime.shrink_to_fit();
  this->RecvTime.shrink_to_fit();
  this->Bytes.shrink_to_fit();
  this->RecvBytes.shrink_to_fit();
  this->Tag.shrink_to_fit();
  this->Communicator.shrink_to_fit();
  this->RecvBeforeSend.shrink_to_fit();
}

std::size_t MessageColumns::MemoryBytes() const
{
  return BytesOf(this->Sender) + BytesOf(this->Receiver) + BytesOf(this->SendTime) +
    BytesOf(this->RecvTime) + BytesOf(this->Bytes) + BytesOf(this->RecvBytes) + BytesOf(this->Tag) +
    BytesOf(this->Communicator) + BytesOf(this->RecvBeforeSend);
}

void EventColumns::reserve(std::size_t rows)
{
  this->Location.reserve(rows);
  this->Type.reserve(rows);
  this->Time.reserve(rows);
  this->Communicator.reserve(rows);
  this->Root.reserve(rows);
  this->Operation.reserve(rows);
}

void EventColumns::Prefault(std::size_t rows) const
{
  this->Location.Prefault(rows);
  this->Type.Prefault(rows);
  this->Time.Prefault(rows);
  this->Communicator.Prefault(rows);
  this->Root.Prefault(rows);
  this->Operation.Prefault(rows);
}

void EventColumns::shrink_to_fit()
{
  this->Location.shrink_to_fit();
  this->Type.shrink_to_fit();
  this->Time.shrink_to_fit();
  this->Communicator.shrink_to_fit();
  this->Root.shrink_to_fit();
  this->Operation.shrink_to_fit();
}

std::size_t EventColumns::MemoryBytes() const
{
  return BytesOf(this->Location) + BytesOf(this->Type) + BytesOf(this->Time) +
    BytesOf(this->Communicator) + BytesOf(this->Root) + BytesOf(this->Operation);
}

void VariableColumns::reserve(std::size_t rows)
{
  this->Location.reserve(rows);
  this->Variable.reserve(rows);
  this->Time.reserve(rows);
  this->Value.reserve(rows);
}

void VariableColumns::Prefault(std::size_t rows) const
{
  this->Location.Prefault(rows);
  this->Variable.Prefault(rows);
  this->Time.Prefault(rows);
  this->Value.Prefault(rows);
}

void VariableColumns::shrink_to_fit()
{
  this->Location.shrink_to_fit();
  this->Variable.shrink_to_fit();
  this->Time.shrink_to_fit();
  this->Value.shrink_to_fit();
}

std::size_t VariableColumns::MemoryBytes() const
{
  return BytesOf(this->Location) + BytesOf(this->Variable) + BytesOf(this->Time) +
    BytesOf(this->Value);
}

uint32_t TypeColumns::Add(
  const std::string& name, const char* kind, const std::string& paradigm, const std::string& role)
{
  const uint32_t id = uint32_t(this->Id.size());
  this->Id.push_back(id);
  this->Name.push_back(name);
  this->Kind.push_back(kind);
  this->Paradigm.push_back(paradigm);
  this->Role.push_back(role);
  this->Color.push_back(TypePalette::ColorOf(name, paradigm, role));
  this->TraceColor.push_back(this->Color.back());
  this->ColorBlindColor.push_back(
    TypePalette::ColorOf(name, paradigm, role, macroscope::PaletteKind::ColorBlindSafe));
  return id;
}

double ClockInfo::Seconds(uint64_t ticks) const
{
  return double(int64_t(ticks - this->GlobalOffset)) / double(this->Resolution);
}

std::size_t TraceData::TableBytes() const
{
  return this->States.MemoryBytes() + this->Messages.MemoryBytes() + this->Events.MemoryBytes() +
    this->Variables.MemoryBytes();
}

void TraceData::ShrinkTables()
{
  this->States.shrink_to_fit();
  this->Messages.shrink_to_fit();
  this->Events.shrink_to_fit();
  this->Variables.shrink_to_fit();
}

} // namespace macroscope::otf2
