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

bool holdsArchive(const fs::path& directory)
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

/// The configuration synthesize(config) records, as JSON.
nlohmann::json expectedConfiguration(const SynthConfig& config)
{
  SynthConfig resolved = config;
  resolved.Iterations = resolveIterations(config);
  std::ostringstream text;
  writeConfigurationJson(resolved, text);
  return nlohmann::json::parse(text.str());
}

/// "key: a there, b here" for the first key of `here` that differs.
std::string firstDifference(const nlohmann::json& there, const nlohmann::json& here)
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

nlohmann::json readJson(const fs::path& path)
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
T entry(const nlohmann::json& value, const char* key, const fs::path& file)
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

void readLocations(const nlohmann::json& summary, const fs::path& file, SynthesisSummary& out)
{
  for (const nlohmann::json& location : entry<nlohmann::json>(summary, "location_events", file))
  {
    LocationSummary item;
    item.Id = entry<uint64_t>(location, "id", file);
    item.Rank = entry<uint32_t>(location, "rank", file);
    item.Thread = entry<uint32_t>(location, "thread", file);
    item.Name = entry<std::string>(location, "name", file);
    item.Events = entry<uint64_t>(location, "events", file);
    out.Locations.push_back(std::move(item));
  }
}

void readEventCounts(const nlohmann::json& summary, const fs::path& file, SynthesisSummary& out)
{
  const nlohmann::json events = entry<nlohmann::json>(summary, "events", file);
  for (std::size_t kind = 0; kind < EventKindCount; ++kind)
  {
    out.Events[kind] = entry<uint64_t>(events, toString(static_cast<EventKind>(kind)), file);
  }
  out.TotalEvents = entry<uint64_t>(summary, "total_events", file);
}

/// The ground truth's figures that synthesize() measures while it writes.
void readMeasuredTruth(const nlohmann::json& truth, const fs::path& file, GroundTruth& out)
{
  const nlohmann::json affected = entry<nlohmann::json>(truth, "affected", file);
  out.AffectedComputeStates = entry<uint64_t>(affected, "compute_states", file);
  out.AffectedMessages =
    entry<uint64_t>(entry<nlohmann::json>(affected, "messages", file), "count", file);
  const auto window = truth.find("window");
  if (window != truth.end() && window->is_object())
  {
    out.WindowBegin = entry<double>(*window, "begin_seconds", file);
    out.WindowEnd = entry<double>(*window, "end_seconds", file);
    out.WindowBeginTimestamp = entry<uint64_t>(*window, "begin_timestamp", file);
    out.WindowEndTimestamp = entry<uint64_t>(*window, "end_timestamp", file);
  }
}

} // namespace

SynthesisSummary readRecordedSummary(const SynthConfig& config)
{
  const fs::path directory(config.OutputDirectory);
  const fs::path summaryFile = directory / "summary.json";
  const fs::path truthFile = directory / "ground_truth.json";
  const nlohmann::json summary = readJson(summaryFile);
  SynthesisSummary out;
  out.Config = config;
  out.Iterations = entry<uint64_t>(summary, "iterations", summaryFile);
  out.Config.Iterations = out.Iterations;
  out.AnchorFile = (directory / "traces.otf2").string();
  out.TimerResolution = entry<uint64_t>(summary, "timer_resolution", summaryFile);
  out.GlobalOffset = entry<uint64_t>(summary, "global_offset", summaryFile);
  out.TraceLengthTicks = entry<uint64_t>(summary, "trace_length_ticks", summaryFile);
  out.TraceLengthSeconds = entry<double>(summary, "trace_length_seconds", summaryFile);
  readEventCounts(summary, summaryFile, out);
  readLocations(summary, summaryFile, out);
  out.Truth = describeGroundTruth(out.Config, Platform(out.Config));
  readMeasuredTruth(readJson(truthFile), truthFile, out.Truth);
  return out;
}

void writeMissingDotFiles(const SynthConfig& config, const SynthesisSummary& summary)
{
  if (!config.WriteDot)
  {
    return;
  }
  const fs::path directory(config.OutputDirectory);
  const Platform platform(summary.Config);
  const auto writeIfMissing = [](const fs::path& path, const auto& write) {
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
    [&](std::ostream& out) { writeTopologyDot(platform, summary.Truth, out); });
  writeIfMissing(directory / "network.dot",
    [&](std::ostream& out) { writeNetworkDot(summary.Config, platform, summary.Truth, out); });
}

ArchiveInspection inspectOutputDirectory(const SynthConfig& config)
{
  ArchiveInspection result;
  const fs::path directory(config.OutputDirectory);
  if (!holdsArchive(directory))
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
  const nlohmann::json here = expectedConfiguration(config);
  if (there == here)
  {
    result.State = ExistingArchive::SameConfiguration;
    return result;
  }
  result.State = ExistingArchive::OtherConfiguration;
  result.Difference = firstDifference(there, here);
  return result;
}

} // namespace macroscope::synth
