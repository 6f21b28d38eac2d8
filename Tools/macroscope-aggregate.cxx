// macroscope-aggregate: times and prints Ocelotl's aggregation of a dense
// text model (format: AggregationText.h; docs/aggregation.md). A benchmark
// and a debugging aid, not a test.
#include "Aggregation.h"
#include "AggregationText.h"
#include "MacroscopeVersion.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

using namespace macroscope;

namespace
{

const char* const Usage =
  "usage: macroscope-aggregate [--mode temporal|spatial|spatiotemporal] [--p P]\n"
  "                            [--raw] [--json] [--threads N] [--no-sweep] MODEL.txt|-\n"
  "  --no-sweep  time one partition only, not all distinct partitions\n"
  "  --help      print this help and exit\n"
  "  --version   print the version and exit\n";

struct Options
{
  std::string Mode = "temporal";
  double P = 0.5;
  bool Raw = false;
  bool Json = false;
  bool Sweep = true;
  unsigned Threads = 0;
  std::string Path;
  // --help or --version: print and exit before reading anything.
  bool Help = false;
  bool Version = false;
};

Options ParseArguments(int argc, char** argv)
{
  Options options;
  for (int k = 1; k < argc; ++k)
  {
    const std::string arg = argv[k];
    auto value = [&]() -> std::string
    {
      if (k + 1 >= argc)
      {
        throw std::invalid_argument(arg + " needs a value");
      }
      return argv[++k];
    };
    if (arg == "--mode")
    {
      options.Mode = value();
      if (options.Mode != "temporal" && options.Mode != "spatial" &&
        options.Mode != "spatiotemporal")
      {
        throw std::invalid_argument("unknown mode '" + options.Mode + "'");
      }
    }
    else if (arg == "--p")
    {
      const std::string text = value();
      char* end = nullptr;
      options.P = std::strtod(text.c_str(), &end);
      if (end == text.c_str() || *end != '\0' || !(options.P >= 0.0 && options.P <= 1.0))
      {
        throw std::invalid_argument("--p " + text + " is not a number in [0, 1]");
      }
    }
    else if (arg == "--threads")
    {
      const std::string text = value();
      char* end = nullptr;
      const long threads = std::strtol(text.c_str(), &end, 10);
      if (end == text.c_str() || *end != '\0' || threads < 0 || threads > 1024)
      {
        throw std::invalid_argument("--threads " + text + " is not a thread count");
      }
      options.Threads = static_cast<unsigned>(threads);
    }
    else if (arg == "--raw")
    {
      options.Raw = true;
    }
    else if (arg == "--no-sweep")
    {
      options.Sweep = false;
    }
    else if (arg == "--json")
    {
      options.Json = true;
    }
    else if (arg == "--help" || arg == "-h")
    {
      options.Help = true;
      return options;
    }
    else if (arg == "--version")
    {
      options.Version = true;
      return options;
    }
    else if (!arg.empty() && arg[0] == '-' && arg != "-")
    {
      throw std::invalid_argument("unknown option " + arg);
    }
    else if (options.Path.empty())
    {
      options.Path = arg;
    }
    else
    {
      throw std::invalid_argument("more than one model file");
    }
  }
  if (options.Path.empty())
  {
    throw std::invalid_argument("no model file");
  }
  return options;
}

double Seconds(std::chrono::steady_clock::time_point since)
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

void PrintParts(const Partition& partition, bool temporal, bool json)
{
  bool first = true;
  for (const AggregatePart& part : partition.Parts)
  {
    if (json)
    {
      if (temporal)
      {
        std::printf("%s[%d,%d]", first ? "" : ",", part.FirstSlice, part.LastSlice);
      }
      else
      {
        std::printf("%s[%lld,%d,%d]", first ? "" : ",", static_cast<long long>(part.Node),
          part.FirstSlice, part.LastSlice);
      }
    }
    else if (temporal)
    {
      std::printf(" [%d,%d]", part.FirstSlice, part.LastSlice);
    }
    else
    {
      std::printf(
        " [%lld,%d,%d]", static_cast<long long>(part.Node), part.FirstSlice, part.LastSlice);
    }
    first = false;
  }
}

int Run(const Options& options)
{
  DenseModelText text;
  if (options.Path == "-")
  {
    text = ReadDenseModelText(std::cin);
  }
  else
  {
    std::ifstream file(options.Path);
    if (!file)
    {
      throw std::invalid_argument("cannot open " + options.Path);
    }
    text = ReadDenseModelText(file);
  }
  const ModelView model = ModelView::Of(text.Model);
  const AggregationHierarchy hierarchy(text.Parent, model.Resources);
  const bool temporal = options.Mode == "temporal";

  auto start = std::chrono::steady_clock::now();
  std::unique_ptr<Aggregation> aggregation;
  if (temporal)
  {
    aggregation = std::make_unique<TemporalAggregation>(model, options.Threads);
  }
  else if (options.Mode == "spatial")
  {
    aggregation = std::make_unique<SpatialAggregation>(model, hierarchy);
  }
  else
  {
    aggregation = std::make_unique<SpatiotemporalAggregation>(model, hierarchy, options.Threads);
  }
  aggregation->SetNormalizeQualities(!options.Raw);
  const double qualitiesTime = Seconds(start);

  start = std::chrono::steady_clock::now();
  const Partition best = aggregation->Best(options.P);
  const double bestTime = Seconds(start);

  start = std::chrono::steady_clock::now();
  const PartitionSweep sweep = options.Sweep ? aggregation->AllPartitions() : PartitionSweep{};
  const double allTime = Seconds(start);

  if (options.Json)
  {
    std::printf("{\"mode\":\"%s\",\"raw\":%s,\"T\":%d,\"S\":%u,\"U\":%u,\"H\":%zu,\n",
      options.Mode.c_str(), options.Raw ? "true" : "false", model.Slices, model.Resources,
      model.Types, hierarchy.Nodes());
    std::printf("\"best\":{\"p\":%.17g,\"gain\":%.17g,\"loss\":%.17g,\"parts\":[", options.P,
      best.Gain, best.Loss);
    PrintParts(best, temporal, true);
    std::printf("]},\n\"breakpoints\":[");
    for (std::size_t k = 0; k < sweep.Breakpoints.size(); ++k)
    {
      std::printf("%s%.17g", k ? "," : "", sweep.Breakpoints[k]);
    }
    std::printf("],\n\"partitions\":[\n");
    for (std::size_t k = 0; k < sweep.Partitions.size(); ++k)
    {
      const Partition& partition = sweep.Partitions[k];
      std::printf("%s{\"p_start\":%.17g,\"gain\":%.17g,\"loss\":%.17g,\"parts\":[", k ? ",\n" : "",
        sweep.PStart(k), partition.Gain, partition.Loss);
      PrintParts(partition, temporal, true);
      std::printf("]}");
    }
    std::printf("],\n\"timings\":{\"qualities_s\":%.6f,\"best_s\":%.6f", qualitiesTime, bestTime);
    if (options.Sweep)
    {
      std::printf(",\"all_partitions_s\":%.6f", allTime);
    }
    std::printf("}}\n");
    return 0;
  }
  std::printf("mode: %s%s\n", options.Mode.c_str(), options.Raw ? " (raw qualities)" : "");
  std::printf(
    "model: T=%d S=%u U=%u H=%zu\n", model.Slices, model.Resources, model.Types, hierarchy.Nodes());
  std::printf("time_qualities_s: %.6f\n", qualitiesTime);
  std::printf("time_best_s: %.6f\n", bestTime);
  if (options.Sweep)
  {
    std::printf("time_all_partitions_s: %.6f\n", allTime);
  }
  if (options.Sweep)
  {
    std::printf("partitions: %zu\n", sweep.Partitions.size());
  }
  std::printf("best at p=%.17g: %zu parts, gain %.17g, loss %.17g:", options.P, best.Parts.size(),
    best.Gain, best.Loss);
  PrintParts(best, temporal, false);
  std::printf("\nbreakpoints:");
  for (double breakpoint : sweep.Breakpoints)
  {
    std::printf(" %.17g", breakpoint);
  }
  std::printf("\n");
  for (std::size_t k = 0; k < sweep.Partitions.size(); ++k)
  {
    const Partition& partition = sweep.Partitions[k];
    std::printf("from p=%.17g: %zu parts, gain %.17g, loss %.17g:", sweep.PStart(k),
      partition.Parts.size(), partition.Gain, partition.Loss);
    PrintParts(partition, temporal, false);
    std::printf("\n");
  }
  return 0;
}

}

int main(int argc, char** argv)
{
  try
  {
    const Options options = ParseArguments(argc, argv);
    if (options.Help)
    {
      std::fputs(Usage, stdout);
      return 0;
    }
    if (options.Version)
    {
      std::puts("macroscope-aggregate (Macroscope) " MACROSCOPE_VERSION);
      return 0;
    }
    return Run(options);
  }
  catch (const std::invalid_argument& error)
  {
    std::fprintf(stderr, "macroscope-aggregate: %s\n%s", error.what(), Usage);
    return 2;
  }
  catch (const std::exception& error)
  {
    std::fprintf(stderr, "macroscope-aggregate: %s\n", error.what());
    return 1;
  }
}
