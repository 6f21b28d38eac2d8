#include "OTF2Column.h"

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include <cstdint>

namespace macroscope::otf2
{

void PrefaultPages(void* first, std::size_t bytes) noexcept
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  static const std::uintptr_t page = std::uintptr_t(sysconf(_SC_PAGESIZE));
  // Whole pages around the range: each lies in a page the allocation maps,
  // and populating a page that is mapped already changes nothing.
  const std::uintptr_t begin = std::uintptr_t(first) & ~(page - 1);
  const std::uintptr_t end = (std::uintptr_t(first) + bytes + page - 1) & ~(page - 1);
  // Errors only mean that the pages fault in as they are written.
  (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
#else
  (void)first;
  (void)bytes;
#endif
}

} // namespace macroscope::otf2
