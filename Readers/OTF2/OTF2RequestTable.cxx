#include "OTF2RequestTable.h"

namespace macroscope::otf2
{

namespace
{
// Request ids are often pointers or counters: mix the bits before masking.
uint64_t mix(uint64_t key)
{
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  return key;
}
}

std::size_t RequestTable::position(uint64_t request) const
{
  // Capacity is a power of two; linear probing stops at the first empty
  // entry, which always exists because the table is at most half full.
  const std::size_t mask = this->Entries.size() - 1;
  std::size_t firstRemoved = this->Entries.size();
  for (std::size_t index = mix(request) & mask;; index = (index + 1) & mask)
  {
    const Entry& entry = this->Entries[index];
    if (entry.State == Empty)
    {
      return firstRemoved < this->Entries.size() ? firstRemoved : index;
    }
    if (entry.State == Used && entry.Request == request)
    {
      return index;
    }
    if (entry.State == Removed && firstRemoved == this->Entries.size())
    {
      firstRemoved = index;
    }
  }
}

bool RequestTable::insert(uint64_t request, uint64_t slot)
{
  if (2 * (this->Count + this->Tombstones + 1) > this->Entries.size())
  {
    // Keep live entries under an eighth of the capacity, so that sweeping
    // the tombstones of completed requests stays rare.
    std::size_t capacity = this->Entries.empty() ? 64 : this->Entries.size();
    while (8 * (this->Count + 1) > capacity)
    {
      capacity *= 2;
    }
    this->rehash(capacity);
  }
  Entry& entry = this->Entries[this->position(request)];
  const bool replaced = entry.State == Used;
  if (entry.State == Removed)
  {
    --this->Tombstones;
  }
  if (!replaced)
  {
    ++this->Count;
  }
  entry = { request, slot, Used };
  return replaced;
}

uint64_t RequestTable::take(uint64_t request)
{
  if (this->Count == 0)
  {
    return NotFound;
  }
  Entry& entry = this->Entries[this->position(request)];
  if (entry.State != Used || entry.Request != request)
  {
    return NotFound;
  }
  entry.State = Removed;
  --this->Count;
  ++this->Tombstones;
  return entry.Slot;
}

void RequestTable::clear()
{
  for (Entry& entry : this->Entries)
  {
    entry.State = Empty;
  }
  this->Count = 0;
  this->Tombstones = 0;
}

void RequestTable::rehash(std::size_t capacity)
{
  std::vector<Entry> old(capacity);
  old.swap(this->Entries);
  this->Count = 0;
  this->Tombstones = 0;
  for (const Entry& entry : old)
  {
    if (entry.State == Used)
    {
      Entry& target = this->Entries[this->position(entry.Request)];
      target = entry;
      ++this->Count;
    }
  }
}

} // namespace macroscope::otf2
