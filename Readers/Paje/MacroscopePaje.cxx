#include "MacroscopePaje.h"

#include "PajeParser.h"

#include <cerrno>
#include <cstring>
#include <sstream>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace macroscope::paje
{

namespace
{
/// A read-only mapping of a whole file: the parser's tokens are views into
/// it, and its pages come from the page cache rather than the heap.
class MappedFile
{
public:
  explicit MappedFile(const std::string& path)
  {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
    {
      throw TraceError(path + ": cannot open: " + std::strerror(errno));
    }
    struct stat info;
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode))
    {
      ::close(fd);
      throw TraceError(path + ": not a regular file");
    }
    this->Size = std::size_t(info.st_size);
    if (this->Size > 0)
    {
      void* data = ::mmap(nullptr, this->Size, PROT_READ, MAP_PRIVATE, fd, 0);
      if (data == MAP_FAILED)
      {
        const int error = errno;
        ::close(fd);
        throw TraceError(path + ": cannot map: " + std::strerror(error));
      }
      ::madvise(data, this->Size, MADV_SEQUENTIAL);
      this->Data = static_cast<const char*>(data);
    }
    ::close(fd);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile()
  {
    if (this->Data != nullptr)
    {
      ::munmap(const_cast<char*>(this->Data), this->Size);
    }
  }
  std::string_view text() const { return std::string_view(this->Data, this->Size); }

private:
  const char* Data = nullptr;
  std::size_t Size = 0;
};
}

TraceData parseTrace(std::string_view text, const ReadOptions& options, const std::string& source)
{
  PajeParser parser(text, options, source);
  return parser.run();
}

TraceData readTrace(const std::string& path, const ReadOptions& options)
{
  const MappedFile file(path);
  return parseTrace(file.text(), options, path);
}

std::string describe(const Diagnostics& report)
{
  std::ostringstream text;
  text << report.Lines << " event lines, times " << report.FirstTime << " to " << report.LastTime
       << " s\n";
  auto line = [&](uint64_t count, const char* what) {
    if (count > 0)
    {
      text << count << ' ' << what << '\n';
    }
  };
  line(report.StatesLeftOpen, "states left open (closed at the last timestamp)");
  line(report.StatesClosedByDestroy, "states closed by the destruction of their container");
  line(report.UnmatchedStartLinks, "PajeStartLink without PajeEndLink (dropped)");
  line(report.UnmatchedEndLinks, "PajeEndLink without PajeStartLink (dropped)");
  line(report.EndsBeforeStarts, "links whose end is stamped before their start (kept)");
  line(report.ImplicitValues, "values used without PajeDefineEntityValue");
  line(report.SelfLeaves, "inner containers holding data (given a leaf of their own)");
  return text.str();
}

} // namespace macroscope::paje
