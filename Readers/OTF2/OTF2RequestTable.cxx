#include "OTF2RequestTable.h"

#include <algorithm>
#include <cassert>

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

std::size_t RequestTable::home(uint64_t request) const
{
  return mix(request) & this->Mask;
}

std::size_t RequestTable::position(uint64_t request) const
{
  // A free entry always ends the probe: the table is at most a quarter full.
  std::size_t index = this->home(request);
  while (this->Entries[index].Slot != NotFound && this->Entries[index].Request != request)
  {
    index = (index + 1) & this->Mask;
  }
  return index;
}

bool RequestTable::insert(uint64_t request, uint64_t slot)
{
  assert(slot != NotFound);
  if (4 * (this->Count + 1) > this->Entries.size())
  {
    this->rehash(std::max<std::size_t>(64, 2 * this->Entries.size()));
  }
  Entry& entry = this->Entries[this->position(request)];
  const bool replaced = entry.Slot != NotFound;
  this->Count += replaced ? 0 : 1;
  entry = { request, slot };
  return replaced;
}

uint64_t RequestTable::take(uint64_t request)
{
  if (this->Count == 0)
  {
    return NotFound;
  }
  std::size_t hole = this->position(request);
  const uint64_t slot = this->Entries[hole].Slot;
  if (slot == NotFound)
  {
    return NotFound;
  }
  // Backward-shift deletion: move each following entry of the cluster into
  // the hole when the hole lies on its probe path, i.e. between its home
  // and its position.
  for (std::size_t next = (hole + 1) & this->Mask; this->Entries[next].Slot != NotFound;
       next = (next + 1) & this->Mask)
  {
    const std::size_t fromHome = (next - this->home(this->Entries[next].Request)) & this->Mask;
    if (fromHome >= ((next - hole) & this->Mask))
    {
      this->Entries[hole] = this->Entries[next];
      hole = next;
    }
  }
  this->Entries[hole].Slot = NotFound;
  --this->Count;
  return slot;
}

void RequestTable::clear()
{
  if (this->Count > 0)
  {
    std::fill(this->Entries.begin(), this->Entries.end(), Entry{});
    this->Count = 0;
  }
}

void RequestTable::rehash(std::size_t capacity)
{
  std::vector<Entry> old(capacity);
  old.swap(this->Entries);
  this->Mask = capacity - 1;
  for (const Entry& entry : old)
  {
    if (entry.Slot != NotFound)
    {
      this->Entries[this->position(entry.Request)] = entry;
    }
  }
}

} // namespace macroscope::otf2
