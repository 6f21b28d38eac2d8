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
  bool insert(uint64_t request, uint64_t slot);
  /// Removes the request and returns its slot, or NotFound.
  uint64_t take(uint64_t request);
  /// Calls visit(slot) for every pending request, then empties the table.
  template <typename Visitor>
  void drain(Visitor&& visit)
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

  std::size_t home(uint64_t request) const;
  /// The entry of `request`, or the free entry where its probe ends.
  std::size_t position(uint64_t request) const;
  void rehash(std::size_t capacity);

  std::vector<Entry> Entries; ///< power-of-two size
  std::size_t Mask = 0;
  std::size_t Count = 0;
};

} // namespace macroscope::otf2

#endif
