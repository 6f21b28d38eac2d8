// macroscope-synth: command line front end of the trace synthesizer.
// Options are described once, in the table below, which drives both the
// parser and --help, so the two cannot drift apart.
#include "MacroscopeSynthesizer.h"
#include "MacroscopeVersion.h"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace
{
using namespace macroscope::synth;

constexpr int ExitUsage = 2;
constexpr int ExitFailure = 1;

/// A command line that cannot be run; reported with exit code 2.
class UsageError : public std::runtime_error
{
public:
  using std::runtime_error::runtime_error;
};

using Arguments = std::vector<std::string>;

struct Option
{
  const char* Name;
  const char* Metavariables; ///< "" for flags, else space-separated names
  std::string Default;
  const char* Help;
  std::function<void(SynthConfig&, const Arguments&)> Apply;

  std::size_t arity() const
  {
    std::istringstream words(this->Metavariables);
    std::size_t count = 0;
    for (std::string word; words >> word;)
    {
      ++count;
    }
    return count;
  }
};

std::string formatNumber(double value)
{
  std::ostringstream text;
  text << value;
  return text.str();
}

uint64_t parseCount(const std::string& option, const std::string& text)
{
  // Integers, also in scientific notation ("1e7"), but nothing negative.
  char* end = nullptr;
  if (!text.empty() && text.find('-') == std::string::npos)
  {
    errno = 0;
    const unsigned long long integer = std::strtoull(text.c_str(), &end, 10);
    if (errno == 0 && end != nullptr && *end == '\0')
    {
      return integer;
    }
    const double real = std::strtod(text.c_str(), &end);
    if (end != nullptr && *end == '\0' && std::isfinite(real) && real >= 0.0 &&
      real < 18446744073709551616.0 && std::floor(real) == real)
    {
      return uint64_t(real);
    }
  }
  throw UsageError(option + ": '" + text + "' is not a non-negative integer");
}

uint32_t parseCount32(const std::string& option, const std::string& text)
{
  const uint64_t value = parseCount(option, text);
  if (value > 0xffffffffull)
  {
    throw UsageError(option + ": " + text + " is too large");
  }
  return uint32_t(value);
}

double parseReal(const std::string& option, const std::string& text)
{
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end == nullptr || *end != '\0' || !std::isfinite(value))
  {
    throw UsageError(option + ": '" + text + "' is not a number");
  }
  return value;
}

struct CommandLine
{
  SynthConfig Config;
  bool Quiet = false;
  bool Help = false;
  bool Version = false;
};

std::vector<Option> makeOptions(CommandLine& line)
{
  const SynthConfig defaults;
  const PerturbationConfig& perturbation = defaults.Perturbation;
  return {
    { "--output", "DIR", "none, required",
      "Directory for traces.otf2 (+ traces.def, traces/) and the side files; created if missing.",
      [](SynthConfig& c, const Arguments& a) { c.OutputDirectory = a[0]; } },
    { "--clusters", "N", std::to_string(defaults.Clusters), "Number of clusters in the machine.",
      [](SynthConfig& c, const Arguments& a) { c.Clusters = parseCount32("--clusters", a[0]); } },
    { "--nodes-per-cluster", "N", std::to_string(defaults.NodesPerCluster),
      "Compute nodes per cluster.",
      [](SynthConfig& c, const Arguments& a)
      { c.NodesPerCluster = parseCount32("--nodes-per-cluster", a[0]); } },
    { "--ranks-per-node", "N", std::to_string(defaults.RanksPerNode), "MPI ranks per node.",
      [](SynthConfig& c, const Arguments& a)
      { c.RanksPerNode = parseCount32("--ranks-per-node", a[0]); } },
    { "--threads-per-rank", "N", std::to_string(defaults.ThreadsPerRank),
      "Threads per rank: thread 0 is the MPI master, the others are OpenMP workers.",
      [](SynthConfig& c, const Arguments& a)
      { c.ThreadsPerRank = parseCount32("--threads-per-rank", a[0]); } },
    { "--iterations", "N", std::to_string(defaults.Iterations),
      "Solver iterations (compute + communication). Excludes --events.",
      [](SynthConfig& c, const Arguments& a) { c.Iterations = parseCount("--iterations", a[0]); } },
    { "--events", "N", "unset",
      "Instead of --iterations: run the fewest iterations whose archive holds at least N events.",
      [](SynthConfig& c, const Arguments& a) { c.MinimumEvents = parseCount("--events", a[0]); } },
    { "--pattern", "NAME", ToString(defaults.CommunicationPattern),
      "Communication per iteration: ring (Isend/Irecv to both ring neighbours + Waitall), "
      "stencil3d (non-blocking halo exchange on a 3D process grid), tree (blocking binary-tree "
      "gather to rank 0 and scatter back) or allreduce (one MPI_Allreduce).",
      [](SynthConfig& c, const Arguments& a) { c.CommunicationPattern = ParsePattern(a[0]); } },
    { "--imbalance", "X", formatNumber(defaults.Imbalance),
      "Relative spread of compute time across ranks and threads, in [0, 1).",
      [](SynthConfig& c, const Arguments& a) { c.Imbalance = parseReal("--imbalance", a[0]); } },
    { "--compute-time", "SECONDS", formatNumber(defaults.ComputeTime),
      "Mean compute phase per iteration.",
      [](SynthConfig& c, const Arguments& a)
      { c.ComputeTime = parseReal("--compute-time", a[0]); } },
    { "--message-bytes", "N", std::to_string(defaults.MessageBytes),
      "Size of each point-to-point message and of the allreduce pattern's buffer.",
      [](SynthConfig& c, const Arguments& a)
      { c.MessageBytes = parseCount("--message-bytes", a[0]); } },
    { "--latency", "SECONDS", formatNumber(defaults.Latency),
      "Network latency: a message arrives latency + bytes / bandwidth after its send.",
      [](SynthConfig& c, const Arguments& a) { c.Latency = parseReal("--latency", a[0]); } },
    { "--bandwidth", "BYTES_PER_SECOND", formatNumber(defaults.Bandwidth), "Network bandwidth.",
      [](SynthConfig& c, const Arguments& a) { c.Bandwidth = parseReal("--bandwidth", a[0]); } },
    { "--perturbation", "KIND", ToString(perturbation.Kind),
      "Injected anomaly: none, slow-node (compute on one node runs slower) or congested-cluster "
      "(messages to or from one cluster transfer slower).",
      [](SynthConfig& c, const Arguments& a)
      { c.Perturbation.Kind = ParsePerturbationKind(a[0]); } },
    { "--perturb-target", "ID", std::to_string(perturbation.Target),
      "Global node index (slow-node) or cluster index (congested-cluster).",
      [](SynthConfig& c, const Arguments& a)
      { c.Perturbation.Target = parseCount32("--perturb-target", a[0]); } },
    { "--perturb-window", "T0 T1", "the whole run",
      "Perturbation window in seconds since trace start.",
      [](SynthConfig& c, const Arguments& a)
      {
        c.Perturbation.WindowBegin = parseReal("--perturb-window", a[0]);
        c.Perturbation.WindowEnd = parseReal("--perturb-window", a[1]);
      } },
    { "--perturb-factor", "F", formatNumber(perturbation.Factor),
      "Slowdown >= 1: compute in the window takes F times longer and retires F times fewer "
      "instructions per second (slow-node), or messages sent in the window take F times longer "
      "to transfer (congested-cluster).",
      [](SynthConfig& c, const Arguments& a)
      { c.Perturbation.Factor = parseReal("--perturb-factor", a[0]); } },
    { "--clock-offsets", "OFFSETS", "none (synchronised clocks)",
      "Unsynchronised clocks: comma-separated seconds added to the OTF2 timestamps of rank 0, "
      "1, ... (e.g. 0,0.3,0,0.6; ranks beyond the list: 0; each in [0, 3600]), as when every "
      "process has its own time origin. ground_truth.json lists them; the Paje output keeps the "
      "true times.",
      [](SynthConfig& c, const Arguments& a)
      {
        c.ClockOffsets.clear();
        std::size_t begin = 0;
        while (begin <= a[0].size())
        {
          const std::size_t comma = std::min(a[0].find(',', begin), a[0].size());
          c.ClockOffsets.push_back(parseReal("--clock-offsets", a[0].substr(begin, comma - begin)));
          begin = comma + 1;
        }
      } },
    { "--seed", "N", std::to_string(defaults.Seed),
      "Random seed; equal options give byte-identical event files.",
      [](SynthConfig& c, const Arguments& a) { c.Seed = parseCount("--seed", a[0]); } },
    { "--timer-resolution", "TICKS_PER_SECOND", formatNumber(double(defaults.TimerResolution)),
      "Clock resolution of the archive (1e3 to 1e12); timestamps also carry a global offset.",
      [](SynthConfig& c, const Arguments& a)
      { c.TimerResolution = parseCount("--timer-resolution", a[0]); } },
    { "--memory-budget", "MB", std::to_string(defaults.MemoryBudgetMB),
      "Memory for OTF2's event buffers in MiB: 4 per open event file plus 4 for closing one. "
      "With more locations than fit, the archive is written in several passes over the "
      "simulation, each with a batch of event files open; the output is the same.",
      [](SynthConfig& c, const Arguments& a)
      { c.MemoryBudgetMB = parseCount("--memory-budget", a[0]); } },
    { "--dot", "", "off",
      "Also write topology.dot (GraphViz of machine -> clusters -> nodes -> ranks) and "
      "network.dot (the interconnect: cluster switches, core switch, hosts), with the "
      "perturbed resources highlighted.",
      [](SynthConfig& c, const Arguments&) { c.WriteDot = true; } },
    { "--paje", "FILE", "none",
      "Also write the same run as a Pajé trace to FILE (held in memory until the end of "
      "the run; meant for test-sized runs). Times are seconds since the trace start, as the "
      "OTF2 reader gives them.",
      [](SynthConfig& c, const Arguments& a) { c.PajeFile = a[0]; } },
    { "--force", "", "off",
      "Replace an existing archive in DIR and an existing --paje FILE (otherwise refuse).",
      [](SynthConfig& c, const Arguments&) { c.Overwrite = true; } },
    { "--quiet", "", "off", "Do not print the summary paragraph.",
      [&line](SynthConfig&, const Arguments&) { line.Quiet = true; } },
    { "--help", "", "", "Print this help and exit.",
      [&line](SynthConfig&, const Arguments&) { line.Help = true; } },
    { "--version", "", "", "Print the version and exit.",
      [&line](SynthConfig&, const Arguments&) { line.Version = true; } },
  };
}

/// Greedy word wrap; every line starts with `indent`.
std::string wrap(const std::string& text, const std::string& indent, std::size_t width)
{
  std::istringstream words(text);
  std::string wrapped = indent;
  std::size_t column = indent.size();
  for (std::string word; words >> word;)
  {
    if (column > indent.size() && column + 1 + word.size() > width)
    {
      wrapped += "\n" + indent;
      column = indent.size();
    }
    else if (column > indent.size())
    {
      wrapped += ' ';
      ++column;
    }
    wrapped += word;
    column += word.size();
  }
  return wrapped;
}

void printHelp(const std::vector<Option>& options, std::ostream& out)
{
  out << "Usage: macroscope-synth --output DIR [options]\n\n"
         "Writes a synthetic OTF2 trace (DIR/traces.otf2) of an MPI+OpenMP application,\n"
         "shaped like Score-P's output, with a known injected perturbation, plus\n"
         "ground_truth.json and summary.json.\n"
         "Exit codes: 0 success, 1 failure while writing, 2 bad options.\n\n"
         "Options:\n";
  for (const Option& option : options)
  {
    out << "  " << option.Name;
    if (*option.Metavariables != '\0')
    {
      out << ' ' << option.Metavariables;
    }
    std::string text = option.Help;
    if (!option.Default.empty())
    {
      text += " (default: " + option.Default + ")";
    }
    out << '\n' << wrap(text, "      ", 79) << '\n';
  }
}

CommandLine parse(int argc, char** argv)
{
  CommandLine line;
  const std::vector<Option> options = makeOptions(line);
  std::set<std::string> seen;
  for (int index = 1; index < argc; ++index)
  {
    const std::string name = argv[index];
    const Option* match = nullptr;
    for (const Option& option : options)
    {
      if (name == option.Name || (name == "-h" && std::string(option.Name) == "--help"))
      {
        match = &option;
      }
    }
    if (match == nullptr)
    {
      throw UsageError("unknown option '" + name + "'");
    }
    if (!seen.insert(match->Name).second)
    {
      throw UsageError(std::string(match->Name) + " is given more than once");
    }
    Arguments arguments;
    for (std::size_t i = 0; i < match->arity(); ++i)
    {
      if (++index >= argc)
      {
        throw UsageError(std::string(match->Name) + " expects " + match->Metavariables);
      }
      arguments.push_back(argv[index]);
    }
    match->Apply(line.Config, arguments);
  }
  if (line.Help)
  {
    printHelp(options, std::cout);
    return line;
  }
  if (line.Version)
  {
    std::cout << "macroscope-synth (Macroscope) " MACROSCOPE_VERSION << std::endl;
    return line;
  }
  if (seen.count("--events") && seen.count("--iterations"))
  {
    throw UsageError("--events and --iterations exclude each other");
  }
  if (line.Config.Perturbation.Kind == PerturbationKind::None)
  {
    for (const char* option : { "--perturb-target", "--perturb-window", "--perturb-factor" })
    {
      if (seen.count(option))
      {
        throw UsageError(std::string(option) +
          " needs --perturbation slow-node or --perturbation congested-cluster");
      }
    }
  }
  return line;
}

void printSummary(const SynthesisSummary& summary, double seconds)
{
  const SynthConfig& config = summary.Config;
  const GroundTruth& truth = summary.Truth;
  std::ostringstream text;
  text << "Wrote " << summary.AnchorFile << ": " << config.Clusters << " clusters x "
       << config.NodesPerCluster << " nodes x " << config.RanksPerNode << " ranks x "
       << config.ThreadsPerRank << " threads (" << summary.Locations.size() << " locations), "
       << ToString(config.CommunicationPattern) << " pattern, " << summary.Iterations
       << " iterations, " << summary.TotalEvents << " events over " << summary.TraceLengthSeconds
       << " s of simulated time (" << summary.TimerResolution << " ticks/s). ";
  if (truth.Kind == PerturbationKind::None)
  {
    text << "No perturbation. ";
  }
  else
  {
    text << "Perturbation " << ToString(truth.Kind) << " on " << truth.TargetName << " ("
         << truth.AffectedRanks.size() << " ranks), factor " << truth.Factor << " in ["
         << truth.WindowBegin << ", " << truth.WindowEnd << "] s: " << truth.AffectedComputeStates
         << " compute states and " << truth.AffectedMessages << " messages affected. ";
  }
  text << "Side files: ground_truth.json, summary.json"
       << (config.WriteDot ? ", topology.dot, network.dot" : "") << ". ";
  if (!summary.PajeFile.empty())
  {
    text << "Pajé trace: " << summary.PajeFile << " (" << summary.PajeLines << " event lines). ";
  }
  text << "Took " << seconds << " s.";
  std::cout << text.str() << std::endl;
}

} // namespace

int main(int argc, char** argv)
{
  CommandLine line;
  try
  {
    line = parse(argc, argv);
    if (line.Help || line.Version)
    {
      return 0;
    }
    Validate(line.Config);
  }
  catch (const std::exception& error)
  {
    std::cerr << "macroscope-synth: error: " << error.what()
              << "\nTry 'macroscope-synth --help' for the list of options." << std::endl;
    return ExitUsage;
  }

  try
  {
    const auto start = std::chrono::steady_clock::now();
    const SynthesisSummary summary = Synthesize(line.Config);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    if (!line.Quiet)
    {
      printSummary(summary, elapsed.count());
    }
  }
  catch (const std::exception& error)
  {
    std::cerr << "macroscope-synth: error: " << error.what() << std::endl;
    return ExitFailure;
  }
  return 0;
}
