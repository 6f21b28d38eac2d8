#include "OTF2RequestTable.h"

#include <algorithm>

namespace macroscope::otf2
{

void RequestTable::Remove(std::size_t hole)
{
  // Backward-shift deletion: move each following entry of the cluster into
  // the hole when the hole lies on its probe path, i.e. between its home
  // and its position.
  for (std::size_t next = (hole + 1) & this->Mask; this->Entries[next].Slot != NotFound;
       next = (next + 1) & this->Mask)
  {
    const std::size_t fromHome = (next - this->Home(this->Entries[next].Request)) & this->Mask;
    if (fromHome >= ((next - hole) & this->Mask))
    {
      this->Entries[hole] = this->Entries[next];
      hole = next;
    }
  }
  this->Entries[hole].Slot = NotFound;
  --this->Count;
}

void RequestTable::clear()
{
  if (this->Count > 0)
  {
    std::fill(this->Entries.begin(), this->Entries.end(), Entry{});
    this->Count = 0;
  }
}

void RequestTable::Grow()
{
  std::vector<Entry> old(std::max<std::size_t>(64, 2 * this->Entries.size()));
  old.swap(this->Entries);
  this->Mask = this->Entries.size() - 1;
  for (const Entry& entry : old)
  {
    if (entry.Slot != NotFound)
    {
      this->Entries[this->Position(entry.Request)] = entry;
    }
  }
}

} // namespace macroscope::otf2
