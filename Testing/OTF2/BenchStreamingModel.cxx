// Builds the microscopic model of an archive one of two ways, for
// Testing/Benchmarks/bench_streaming_model.sh:
//
//   macroscope-stream-model-bench MODE ANCHOR [SLICES]
//
// MODE is
//   stream  StreamTrace + StreamingTimeSlicer: the model while reading
//   tables  ReadTrace to tables, then SliceTrace on them (2 threads)
// Exclusive state duration, SLICES (default 1000) slices over the trace.
// Prints "mode=... events=... seconds=... events_per_second=...
// peak_rss_kb=... model_sum=... model_cells=..." on one line; model_sum lets
// the script check that both modes built the same model.
#include "OTF2ModelSink.h"

#include <MacroscopeOTF2.h>
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
    std::cerr << "usage: " << argv[0] << " stream|tables ANCHOR [SLICES]\n";
    return 2;
  }
  const std::string mode = argv[1];
  const std::string anchor = argv[2];
  TimeSlicingOptions options;
  options.Grid.Slices = argc > 3 ? std::atoi(argv[3]) : 1000;
  options.Threads = 2;
  try
  {
    const auto begin = std::chrono::steady_clock::now();
    MicroscopicModel model;
    uint64_t events = 0;
    if (mode == "stream")
    {
      options.Grid.End = 0.0; // the trace's duration, from the definitions
      otf2::testing::ModelSink sink(options);
      const otf2::TraceData trace = otf2::StreamTrace(anchor, sink);
      model = sink.finish(trace);
      events = trace.Report.EventsRead;
    }
    else if (mode == "tables")
    {
      const otf2::TraceData trace = otf2::ReadTrace(anchor);
      options.Grid = { 0.0, trace.Info.Clock.Duration(), options.Grid.Slices };
      options.Leaves = uint32_t(trace.Info.Leaves.size());
      options.Types = uint32_t(trace.Info.Types.size());
      const otf2::StateColumns& s = trace.States;
      model = SliceTrace(options,
        { s.Location.data(), s.Type.data(), s.Depth.data(), s.Start.data(), s.End.data(),
          s.size() },
        {}, {});
      events = trace.Report.EventsRead;
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
    std::cout << "mode=" << mode << " events=" << events << " seconds=" << seconds
              << " events_per_second=" << uint64_t(double(events) / seconds)
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
