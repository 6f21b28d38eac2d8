#include "OTF2TraceTables.h"

#include <TypePalette.h>

namespace macroscope::otf2
{

namespace
{
template <typename T>
std::size_t bytesOf(const Column<T>& column)
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

void StateColumns::prefault(std::size_t rows) const
{
  this->Location.prefault(rows);
  this->Type.prefault(rows);
  this->Depth.prefault(rows);
  this->Start.prefault(rows);
  this->End.prefault(rows);
}

void StateColumns::shrink_to_fit()
{
  this->Location.shrink_to_fit();
  this->Type.shrink_to_fit();
  this->Depth.shrink_to_fit();
  this->Start.shrink_to_fit();
  this->End.shrink_to_fit();
}

std::size_t StateColumns::bytes() const
{
  return bytesOf(this->Location) + bytesOf(this->Type) + bytesOf(this->Depth) +
    bytesOf(this->Start) + bytesOf(this->End);
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

void MessageColumns::prefault(std::size_t rows) const
{
  this->Sender.prefault(rows);
  this->Receiver.prefault(rows);
  this->SendTime.prefault(rows);
  this->RecvTime.prefault(rows);
  this->Bytes.prefault(rows);
  this->RecvBytes.prefault(rows);
  this->Tag.prefault(rows);
  this->Communicator.prefault(rows);
  this->RecvBeforeSend.prefault(rows);
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

std::size_t MessageColumns::bytes() const
{
  return bytesOf(this->Sender) + bytesOf(this->Receiver) + bytesOf(this->SendTime) +
    bytesOf(this->RecvTime) + bytesOf(this->Bytes) + bytesOf(this->RecvBytes) +
    bytesOf(this->Tag) + bytesOf(this->Communicator) + bytesOf(this->RecvBeforeSend);
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

void EventColumns::prefault(std::size_t rows) const
{
  this->Location.prefault(rows);
  this->Type.prefault(rows);
  this->Time.prefault(rows);
  this->Communicator.prefault(rows);
  this->Root.prefault(rows);
  this->Operation.prefault(rows);
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

std::size_t EventColumns::bytes() const
{
  return bytesOf(this->Location) + bytesOf(this->Type) + bytesOf(this->Time) +
    bytesOf(this->Communicator) + bytesOf(this->Root) + bytesOf(this->Operation);
}

void VariableColumns::reserve(std::size_t rows)
{
  this->Location.reserve(rows);
  this->Variable.reserve(rows);
  this->Time.reserve(rows);
  this->Value.reserve(rows);
}

void VariableColumns::prefault(std::size_t rows) const
{
  this->Location.prefault(rows);
  this->Variable.prefault(rows);
  this->Time.prefault(rows);
  this->Value.prefault(rows);
}

void VariableColumns::shrink_to_fit()
{
  this->Location.shrink_to_fit();
  this->Variable.shrink_to_fit();
  this->Time.shrink_to_fit();
  this->Value.shrink_to_fit();
}

std::size_t VariableColumns::bytes() const
{
  return bytesOf(this->Location) + bytesOf(this->Variable) + bytesOf(this->Time) +
    bytesOf(this->Value);
}

uint32_t TypeColumns::add(
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

double ClockInfo::seconds(uint64_t ticks) const
{
  return double(int64_t(ticks - this->GlobalOffset)) / double(this->Resolution);
}

std::size_t TraceData::tableBytes() const
{
  return this->States.bytes() + this->Messages.bytes() + this->Events.bytes() +
    this->Variables.bytes();
}

void TraceData::shrinkTables()
{
  this->States.shrink_to_fit();
  this->Messages.shrink_to_fit();
  this->Events.shrink_to_fit();
  this->Variables.shrink_to_fit();
}

} // namespace macroscope::otf2
