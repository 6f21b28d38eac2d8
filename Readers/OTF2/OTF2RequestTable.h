// Pending MPI requests of one location (request id -> a slot number), for
// pairing Isend/IsendComplete and IrecvRequest/Irecv. Open addressing in one
// flat array: no allocation per request, unlike std::unordered_map.
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

  /// Adds or replaces the request (a reused id replaces the lost one).
  /// Returns whether a request with this id was already pending.
  bool insert(uint64_t request, uint64_t slot);
  /// Removes the request and returns its slot, or NotFound.
  uint64_t take(uint64_t request);
  /// Calls visit(slot) for every pending request, then empties the table.
  template <typename Visitor>
  void drain(Visitor&& visit)
  {
    for (const Entry& entry : this->Entries)
    {
      if (entry.State == Used)
      {
        visit(entry.Slot);
      }
    }
    this->clear();
  }
  void clear();
  std::size_t size() const { return this->Count; }

private:
  enum : uint8_t
  {
    Empty,
    Used,
    Removed
  };
  struct Entry
  {
    uint64_t Request = 0;
    uint64_t Slot = 0;
    uint8_t State = Empty;
  };

  std::size_t position(uint64_t request) const;
  void rehash(std::size_t capacity);

  std::vector<Entry> Entries;
  std::size_t Count = 0;   ///< Used entries
  std::size_t Tombstones = 0;
};

} // namespace macroscope::otf2

#endif
