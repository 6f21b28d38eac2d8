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
  std::string_view Text() const { return std::string_view(this->Data, this->Size); }

  /// Gives the pages before `offset` back: a scan or a stream never looks
  /// at a line again, so its resident memory stays flat instead of growing
  /// with the file (the pages stay in the page cache).
  void Release(std::size_t offset)
  {
    const std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
    const std::size_t end = offset / page * page;
    if (this->Data != nullptr && end > this->Released)
    {
      ::madvise(
        const_cast<char*>(this->Data) + this->Released, end - this->Released, MADV_DONTNEED);
      this->Released = end;
    }
  }

private:
  const char* Data = nullptr;
  std::size_t Size = 0;
  std::size_t Released = 0;
};
}

TraceData ParseTrace(std::string_view text, const ReadOptions& options, const std::string& source)
{
  PajeParser parser(text, options, source);
  return parser.Run();
}

TraceData ReadTrace(const std::string& path, const ReadOptions& options)
{
  MappedFile file(path);
  PajeParser parser(file.Text(), options, path);
  if (!options.KeepRows)
  {
    parser.OnConsumed([&file](std::size_t offset) { file.Release(offset); });
  }
  return parser.Run();
}

TraceData StreamTrace(const std::string& path, const std::vector<uint32_t>& leafOfContainer,
  RowSink& sink, const ReadOptions& options)
{
  MappedFile file(path);
  PajeParser parser(file.Text(), options, path);
  parser.Stream(sink, leafOfContainer);
  parser.OnConsumed([&file](std::size_t offset) { file.Release(offset); });
  return parser.Run();
}

std::string Describe(const Diagnostics& report)
{
  std::ostringstream text;
  text << report.Lines << " event lines, times " << report.FirstTime << " to " << report.LastTime
       << " s\n";
  auto line = [&](uint64_t count, const char* what)
  {
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
  if (report.TraceFilesSkipped > 0)
  {
    text << report.TraceFilesSkipped
         << " PajeTraceFile events skipped (parts of the trace in other files, not read";
    for (std::size_t i = 0; i < report.SkippedTraceFiles.size(); ++i)
    {
      text << (i == 0 ? ": " : ", ") << report.SkippedTraceFiles[i];
    }
    text << (report.TraceFilesSkipped > report.SkippedTraceFiles.size() ? ", ...)\n" : ")\n");
  }
  return text.str();
}

} // namespace macroscope::paje
