// macroscope-paje-dump: prints the tables Macroscope::Paje makes of a Pajé
// trace, for the cross-check against pajeng's pj_dump
// (Testing/Python/paje_crosscheck.py) and for the Pajé benchmark.
//
//   macroscope-paje-dump TRACE               tables, tab-separated; the read
//                                            report on stderr
//   macroscope-paje-dump --parse-only TRACE  one summary line
//
// The tables are printed as they are, with the columns the VTK reader gives
// its vtkTables (Location, Type, ... are indexes), so that the Python side
// turns them into records with the same function it would use on tables
// fetched in pvpython. Times are printed with 17 significant digits: exact.
#include <MacroscopePaje.h>
#include <MacroscopeVersion.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include <sys/resource.h>

namespace
{
using macroscope::paje::TraceData;

void printTables(const TraceData& t, std::FILE* out)
{
  std::fprintf(out, "#table Types Name Kind Paradigm TraceColor\n");
  for (std::size_t i = 0; i < t.Types.size(); ++i)
  {
    const auto& rgb = t.Types.TraceColor[i]; // the file's colour, as pj_dump sees it
    std::fprintf(out, "%s\t%s\t%s\t%u,%u,%u\n", t.Types.Name[i].c_str(), t.Types.Kind[i].c_str(),
      t.Types.Paradigm[i].c_str(), unsigned(rgb[0]), unsigned(rgb[1]), unsigned(rgb[2]));
  }
  std::fprintf(out, "#table Hierarchy Parent Name Kind LeafIndex\n");
  for (std::size_t i = 0; i < t.Hierarchy.size(); ++i)
  {
    std::fprintf(out, "%lld\t%s\t%s\t%lld\n", static_cast<long long>(t.Hierarchy.Parent[i]),
      t.Hierarchy.Name[i].c_str(), t.Hierarchy.Kind[i].c_str(),
      static_cast<long long>(t.Hierarchy.LeafIndex[i]));
  }
  const auto& s = t.States;
  std::fprintf(out, "#table States Location Type Depth Start End\n");
  for (std::size_t i = 0; i < s.size(); ++i)
  {
    std::fprintf(out, "%u\t%u\t%u\t%.17g\t%.17g\n", s.Location[i], s.Type[i], s.Depth[i],
      s.Start[i], s.End[i]);
  }
  const auto& m = t.Messages;
  std::fprintf(out, "#table Messages Sender Receiver SendTime RecvTime Bytes Communicator\n");
  for (std::size_t i = 0; i < m.size(); ++i)
  {
    std::fprintf(out, "%u\t%u\t%.17g\t%.17g\t%llu\t%u\n", m.Sender[i], m.Receiver[i], m.SendTime[i],
      m.RecvTime[i], static_cast<unsigned long long>(m.Bytes[i]), m.Communicator[i]);
  }
  const auto& v = t.Variables;
  std::fprintf(out, "#table Variables Location Variable Time Value\n");
  for (std::size_t i = 0; i < v.size(); ++i)
  {
    std::fprintf(
      out, "%u\t%u\t%.17g\t%.17g\n", v.Location[i], v.Variable[i], v.Time[i], v.Value[i]);
  }
  const auto& e = t.Events;
  std::fprintf(out, "#table Events Location Type Time\n");
  for (std::size_t i = 0; i < e.size(); ++i)
  {
    std::fprintf(out, "%u\t%u\t%.17g\n", e.Location[i], e.Type[i], e.Time[i]);
  }
  // The end of the trace closes the last interval of every variable.
  std::fprintf(out, "#end %.17g\n", t.Report.LastTime);
}

long peakRssKilobytes()
{
  struct rusage usage;
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}
}

int main(int argc, char** argv)
{
  bool parseOnly = false;
  std::string path;
  for (int i = 1; i < argc; ++i)
  {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0)
    {
      std::printf("usage: %s [--parse-only] TRACE.paje\n"
                  "  prints the Paje parser's tables of TRACE, tab-separated (the read\n"
                  "  report on stderr); --parse-only prints one summary line instead\n"
                  "  --help     print this help and exit\n"
                  "  --version  print the version and exit\n",
        argv[0]);
      return 0;
    }
    if (std::strcmp(argv[i], "--version") == 0)
    {
      std::puts("macroscope-paje-dump (Macroscope) " MACROSCOPE_VERSION);
      return 0;
    }
    if (std::strcmp(argv[i], "--parse-only") == 0)
    {
      parseOnly = true;
    }
    else if (path.empty() && argv[i][0] != '-')
    {
      path = argv[i];
    }
    else
    {
      path.clear();
      break;
    }
  }
  if (path.empty())
  {
    std::fprintf(stderr, "usage: %s [--parse-only] TRACE.paje\n", argv[0]);
    return 2;
  }
  try
  {
    const auto start = std::chrono::steady_clock::now();
    const TraceData trace = macroscope::paje::ReadTrace(path);
    const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (parseOnly)
    {
      const std::size_t bytes = trace.States.MemoryBytes() + trace.Messages.MemoryBytes() +
        trace.Events.MemoryBytes() + trace.Variables.MemoryBytes();
      std::printf("lines=%llu states=%zu messages=%zu events=%zu variables=%zu seconds=%.6f "
                  "table_bytes=%zu peak_rss_kb=%ld\n",
        static_cast<unsigned long long>(trace.Report.Lines), trace.States.size(),
        trace.Messages.size(), trace.Events.size(), trace.Variables.size(), seconds, bytes,
        peakRssKilobytes());
    }
    else
    {
      printTables(trace, stdout);
      // The read report (anomalies, skipped PajeTraceFile events) on stderr.
      std::fputs(macroscope::paje::Describe(trace.Report).c_str(), stderr);
    }
    if (std::fflush(stdout) != 0)
    {
      std::perror("macroscope-paje-dump: write");
      return 1;
    }
  }
  catch (const std::exception& error)
  {
    std::fprintf(stderr, "macroscope-paje-dump: %s\n", error.what());
    return 1;
  }
  return 0;
}
