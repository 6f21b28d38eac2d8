#include "SynthExistingArchive.h"

#include "MacroscopeSynthesizer.h"
#include "SynthConfig.h"
#include "SynthGroundTruth.h"
#include "SynthPlatform.h"
#include "SynthSummary.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace macroscope::synth
{

namespace
{
namespace fs = std::filesystem;

bool HoldsArchive(const fs::path& directory)
{
  std::error_code ignored;
  for (const char* entry : { "traces.otf2", "traces.def", "traces" })
  {
    if (fs::exists(fs::symlink_status(directory / entry, ignored)))
    {
      return true;
    }
  }
  return false;
}

/// The configuration Synthesize(config) records, as JSON.
nlohmann::json ExpectedConfiguration(const SynthConfig& config)
{
  SynthConfig resolved = config;
  resolved.Iterations = ResolveIterations(config);
  std::ostringstream text;
  WriteConfigurationJson(resolved, text);
  return nlohmann::json::parse(text.str());
}

/// "key: a there, b here" for the first key of `here` that differs.
std::string FirstDifference(const nlohmann::json& there, const nlohmann::json& here)
{
  for (const auto& [key, value] : here.items())
  {
    const auto found = there.find(key);
    if (found == there.end())
    {
      return key + ": missing there, " + value.dump() + " here";
    }
    if (*found != value)
    {
      return key + ": " + found->dump() + " there, " + value.dump() + " here";
    }
  }
  return "the recorded configuration has other entries";
}

nlohmann::json ReadJson(const fs::path& path)
{
  std::ifstream in(path);
  nlohmann::json value = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!in.is_open() || value.is_discarded() || !value.is_object())
  {
    throw std::runtime_error("cannot read '" + path.string() + "' as a JSON object");
  }
  return value;
}

/// value[key] as T, or an error naming the file and the entry.
template <typename T>
T Entry(const nlohmann::json& value, const char* key, const fs::path& file)
{
  const auto found = value.find(key);
  if (found == value.end() || found->is_null())
  {
    throw std::runtime_error("'" + file.string() + "' has no entry \"" + key + "\"");
  }
  try
  {
    return found->get<T>();
  }
  catch (const nlohmann::json::exception&)
  {
    throw std::runtime_error("'" + file.string() + "': entry \"" + key + "\" has the wrong type");
  }
}

void ReadLocations(const nlohmann::json& summary, const fs::path& file, SynthesisSummary& out)
{
  for (const nlohmann::json& location : Entry<nlohmann::json>(summary, "location_events", file))
  {
    LocationSummary item;
    item.Id = Entry<uint64_t>(location, "id", file);
    item.Rank = Entry<uint32_t>(location, "rank", file);
    item.Thread = Entry<uint32_t>(location, "thread", file);
    item.Name = Entry<std::string>(location, "name", file);
    item.Events = Entry<uint64_t>(location, "events", file);
    out.Locations.push_back(std::move(item));
  }
}

void ReadEventCounts(const nlohmann::json& summary, const fs::path& file, SynthesisSummary& out)
{
  const nlohmann::json events = Entry<nlohmann::json>(summary, "events", file);
  for (std::size_t kind = 0; kind < EventKindCount; ++kind)
  {
    out.Events[kind] = Entry<uint64_t>(events, ToString(static_cast<EventKind>(kind)), file);
  }
  out.TotalEvents = Entry<uint64_t>(summary, "total_events", file);
}

/// The ground truth's figures that Synthesize() measures while it writes.
void ReadMeasuredTruth(const nlohmann::json& truth, const fs::path& file, GroundTruth& out)
{
  const nlohmann::json affected = Entry<nlohmann::json>(truth, "affected", file);
  out.AffectedComputeStates = Entry<uint64_t>(affected, "compute_states", file);
  out.AffectedMessages =
    Entry<uint64_t>(Entry<nlohmann::json>(affected, "messages", file), "count", file);
  const auto window = truth.find("window");
  if (window != truth.end() && window->is_object())
  {
    out.WindowBegin = Entry<double>(*window, "begin_seconds", file);
    out.WindowEnd = Entry<double>(*window, "end_seconds", file);
    out.WindowBeginTimestamp = Entry<uint64_t>(*window, "begin_timestamp", file);
    out.WindowEndTimestamp = Entry<uint64_t>(*window, "end_timestamp", file);
  }
}

} // namespace

SynthesisSummary ReadRecordedSummary(const SynthConfig& config)
{
  const fs::path directory(config.OutputDirectory);
  const fs::path summaryFile = directory / "summary.json";
  const fs::path truthFile = directory / "ground_truth.json";
  const nlohmann::json summary = ReadJson(summaryFile);
  SynthesisSummary out;
  out.Config = config;
  out.Iterations = Entry<uint64_t>(summary, "iterations", summaryFile);
  out.Config.Iterations = out.Iterations;
  out.AnchorFile = (directory / "traces.otf2").string();
  out.TimerResolution = Entry<uint64_t>(summary, "timer_resolution", summaryFile);
  out.GlobalOffset = Entry<uint64_t>(summary, "global_offset", summaryFile);
  out.TraceLengthTicks = Entry<uint64_t>(summary, "trace_length_ticks", summaryFile);
  out.TraceLengthSeconds = Entry<double>(summary, "trace_length_seconds", summaryFile);
  ReadEventCounts(summary, summaryFile, out);
  ReadLocations(summary, summaryFile, out);
  out.Truth = DescribeGroundTruth(out.Config, Platform(out.Config));
  ReadMeasuredTruth(ReadJson(truthFile), truthFile, out.Truth);
  return out;
}

void WriteMissingDotFiles(const SynthConfig& config, const SynthesisSummary& summary)
{
  if (!config.WriteDot)
  {
    return;
  }
  const fs::path directory(config.OutputDirectory);
  const Platform platform(summary.Config);
  const auto writeIfMissing = [](const fs::path& path, const auto& write)
  {
    std::error_code ignored;
    if (fs::exists(fs::symlink_status(path, ignored)))
    {
      return;
    }
    std::ofstream out(path, std::ios::binary);
    write(out);
    if (!out)
    {
      throw std::runtime_error("cannot write '" + path.string() + "'");
    }
  };
  writeIfMissing(directory / "topology.dot",
    [&](std::ostream& out) { WriteTopologyDot(platform, summary.Truth, out); });
  writeIfMissing(directory / "network.dot",
    [&](std::ostream& out) { WriteNetworkDot(summary.Config, platform, summary.Truth, out); });
}

ArchiveInspection InspectOutputDirectory(const SynthConfig& config)
{
  ArchiveInspection result;
  const fs::path directory(config.OutputDirectory);
  if (!HoldsArchive(directory))
  {
    return result;
  }
  result.State = ExistingArchive::Foreign;
  std::ifstream in(directory / "summary.json");
  if (!in)
  {
    result.Difference = "no summary.json beside it: the synthesizer did not write it";
    return result;
  }
  const nlohmann::json summary = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (summary.is_discarded() || !summary.is_object() || !summary.contains("configuration"))
  {
    result.Difference = "its summary.json is not the synthesizer's (no configuration)";
    return result;
  }
  const nlohmann::json there = summary["configuration"];
  const nlohmann::json here = ExpectedConfiguration(config);
  if (there == here)
  {
    result.State = ExistingArchive::SameConfiguration;
    return result;
  }
  result.State = ExistingArchive::OtherConfiguration;
  result.Difference = FirstDifference(there, here);
  return result;
}

} // namespace macroscope::synth
