// Builds the microscopic model of a Pajé trace one of two ways, for
// Testing/Benchmarks/bench_paje_streaming_model.sh:
//
//   macroscope-paje-stream-bench MODE FILE [SLICES]
//
// MODE is
//   stream  a definitions-only scan (KeepRows off), then StreamModel(): the
//           model folded while the file is parsed a second time
//   tables  ReadTrace to tables, then SliceTrace on them (2 threads)
// Exclusive state duration, SLICES (default 1000) slices over the trace.
// Prints "mode=... lines=... seconds=... lines_per_second=...
// peak_rss_kb=... model_sum=... model_cells=..." on one line; model_sum lets
// the script check that both modes built the same model.
#include <MacroscopePaje.h>
#include <ModelStream.h>
#include <PajeModelStream.h>
#include <TimeSlicing.h>

#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>

int main(int argc, char** argv)
{
  using namespace macroscope;
  if (argc < 3)
  {
    std::cerr << "usage: " << argv[0] << " stream|tables FILE [SLICES]\n";
    return 2;
  }
  const std::string mode = argv[1];
  const std::string file = argv[2];
  TimeSlicingOptions options;
  options.Grid.Slices = argc > 3 ? std::atoi(argv[3]) : 1000;
  options.Threads = 2;
  try
  {
    const auto begin = std::chrono::steady_clock::now();
    MicroscopicModel model;
    uint64_t lines = 0;
    if (mode == "stream")
    {
      paje::ReadOptions scanOptions;
      scanOptions.KeepRows = false;
      const paje::TraceData scan = paje::ReadTrace(file, scanOptions);
      options.Grid = { scan.Report.FirstTime, scan.Report.LastTime, options.Grid.Slices };
      options.Leaves = uint32_t(scan.Leaves.size());
      options.Types = uint32_t(scan.Types.size());
      ModelStream stream({}, { options });
      paje::StreamModel(file, scan, {}, stream);
      model = std::move(stream.Finish().front());
      lines = scan.Report.Lines;
    }
    else if (mode == "tables")
    {
      const paje::TraceData trace = paje::ReadTrace(file);
      options.Grid = { trace.Report.FirstTime, trace.Report.LastTime, options.Grid.Slices };
      options.Leaves = uint32_t(trace.Leaves.size());
      options.Types = uint32_t(trace.Types.size());
      const paje::StateColumns& s = trace.States;
      model = SliceTrace(options,
        { s.Location.data(), s.Type.data(), s.Depth.data(), s.Start.data(), s.End.data(),
          s.size() },
        {}, {});
      lines = trace.Report.Lines;
    }
    else
    {
      std::cerr << "unknown mode " << mode << "\n";
      return 2;
    }
    const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    double sum = 0.0;
    for (double value : model.Values)
    {
      sum += value;
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::cout.precision(17);
    std::cout << "mode=" << mode << " lines=" << lines << " seconds=" << seconds
              << " lines_per_second=" << uint64_t(double(lines) / seconds)
              << " peak_rss_kb=" << usage.ru_maxrss << " model_sum=" << sum
              << " model_cells=" << model.Values.size() << "\n";
  }
  catch (const std::exception& error)
  {
    std::cerr << argv[0] << ": " << error.what() << "\n";
    return 1;
  }
  return 0;
}
