// Pending MPI requests of one location (request id -> a slot number), for
// pairing Isend/IsendComplete and IrecvRequest/Irecv. Linear probing in one
// flat array, no allocation per request (unlike std::unordered_map), and
// removal by shifting the following entries back, so that no tombstones
// lengthen the probes of a table where requests come and go all the time.
#ifndef macroscope_otf2_OTF2RequestTable_h
#define macroscope_otf2_OTF2RequestTable_h

#include <cstddef>
#include <cstdint>
#include <vector>

namespace macroscope::otf2
{

class RequestTable
{
public:
  static constexpr uint64_t NotFound = ~uint64_t(0);

  /// Adds or replaces the request (a reused id replaces the lost one);
  /// `slot` must not be NotFound. Returns whether a request with this id
  /// was already pending.
  bool insert(uint64_t request, uint64_t slot)
  {
    if (4 * (this->Count + 1) > this->Entries.size())
    {
      this->Grow();
    }
    Entry& entry = this->Entries[this->Position(request)];
    const bool replaced = entry.Slot != NotFound;
    this->Count += replaced ? 0 : 1;
    entry = { request, slot };
    return replaced;
  }
  /// Removes the request and returns its slot, or NotFound.
  uint64_t Take(uint64_t request)
  {
    if (this->Count == 0)
    {
      return NotFound;
    }
    const std::size_t index = this->Position(request);
    const uint64_t slot = this->Entries[index].Slot;
    if (slot != NotFound)
    {
      this->Remove(index);
    }
    return slot;
  }
  /// Calls visit(slot) for every pending request, then empties the table.
  template <typename Visitor>
  void Drain(Visitor&& visit)
  {
    for (const Entry& entry : this->Entries)
    {
      if (entry.Slot != NotFound)
      {
        visit(entry.Slot);
      }
    }
    this->clear();
  }
  void clear();
  std::size_t size() const { return this->Count; }

private:
  struct Entry
  {
    uint64_t Request = 0;
    uint64_t Slot = NotFound; ///< NotFound: a free entry
  };

  std::size_t Home(uint64_t request) const
  {
    // Request ids are often pointers or counters: mix the bits before masking.
    request ^= request >> 33;
    request *= 0xff51afd7ed558ccdull;
    request ^= request >> 33;
    return request & this->Mask;
  }
  /// The entry of `request`, or the free entry where its probe ends; one
  /// exists because the table is at most a quarter full.
  std::size_t Position(uint64_t request) const
  {
    std::size_t index = this->Home(request);
    while (this->Entries[index].Slot != NotFound && this->Entries[index].Request != request)
    {
      index = (index + 1) & this->Mask;
    }
    return index;
  }
  void Remove(std::size_t index);
  void Grow();

  std::vector<Entry> Entries; ///< power-of-two size
  std::size_t Mask = 0;
  std::size_t Count = 0;
};

} // namespace macroscope::otf2

#endif
