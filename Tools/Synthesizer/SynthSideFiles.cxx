// ground_truth.json, summary.json and topology.dot.
#include "MacroscopeSynthesizer.h"
#include "SynthJsonWriter.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace macroscope::synth
{

namespace
{

void writeConfiguration(JsonWriter& json, const SynthConfig& config)
{
  json.beginObject();
  json.key("clusters").value(config.Clusters);
  json.key("nodes_per_cluster").value(config.NodesPerCluster);
  json.key("ranks_per_node").value(config.RanksPerNode);
  json.key("threads_per_rank").value(config.ThreadsPerRank);
  json.key("iterations").value(config.Iterations);
  json.key("minimum_events");
  if (config.MinimumEvents)
  {
    json.value(*config.MinimumEvents);
  }
  else
  {
    json.null();
  }
  json.key("pattern").value(toString(config.CommunicationPattern));
  json.key("imbalance").value(config.Imbalance);
  json.key("compute_time_seconds").value(config.ComputeTime);
  json.key("message_bytes").value(config.MessageBytes);
  json.key("latency_seconds").value(config.Latency);
  json.key("bandwidth_bytes_per_second").value(config.Bandwidth);
  json.key("perturbation").beginObject();
  json.key("kind").value(toString(config.Perturbation.Kind));
  json.key("target").value(config.Perturbation.Target);
  json.key("window_seconds").beginArray();
  json.value(config.Perturbation.WindowBegin).value(config.Perturbation.WindowEnd);
  json.endArray();
  json.key("factor").value(config.Perturbation.Factor);
  json.endObject();
  json.key("seed").value(config.Seed);
  json.key("timer_resolution").value(config.TimerResolution);
  if (!config.ClockOffsets.empty())
  {
    // Only when set: archives of synchronised runs keep their configuration
    // (a reused directory still matches).
    json.key("clock_offsets").numbers(config.ClockOffsets);
  }
  json.endObject();
}

const char* targetClass(PerturbationKind kind)
{
  return kind == PerturbationKind::SlowNode ? "node" : "cluster";
}

std::string quoted(const std::string& text)
{
  return "\"" + text + "\"";
}

} // namespace

const char* toString(EventKind kind)
{
  static const char* const names[] = { "ProgramBegin", "ProgramEnd", "Enter", "Leave", "Metric",
    "ThreadFork", "ThreadJoin", "MpiSend", "MpiRecv", "MpiIsend", "MpiIsendComplete",
    "MpiIrecvRequest", "MpiIrecv", "MpiCollectiveBegin", "MpiCollectiveEnd", "BufferFlush" };
  static_assert(sizeof(names) / sizeof(names[0]) == EventKindCount, "one name per kind");
  return names[static_cast<std::size_t>(kind)];
}

uint64_t totalOf(const EventCounts& counts)
{
  uint64_t total = 0;
  for (uint64_t count : counts)
  {
    total += count;
  }
  return total;
}

void writeGroundTruthJson(const SynthesisSummary& summary, std::ostream& out)
{
  const GroundTruth& truth = summary.Truth;
  const bool perturbed = truth.Kind != PerturbationKind::None;
  JsonWriter json(out);
  json.beginObject();
  json.key("perturbation").value(toString(truth.Kind));
  json.key("pattern").value(toString(truth.CommunicationPattern));
  // Unsynchronised clocks: seconds added to each rank's timestamps (empty:
  // synchronised).
  json.key("clock_offsets").numbers(summary.Config.ClockOffsets);
  json.key("target");
  if (perturbed)
  {
    json.beginObject();
    json.key("kind").value(targetClass(truth.Kind));
    json.key("index").value(truth.Target);
    json.key("name").value(truth.TargetName);
    json.endObject();
  }
  else
  {
    json.null();
  }
  json.key("affected").beginObject();
  json.key("clusters").strings(truth.AffectedClusters);
  json.key("nodes").strings(truth.AffectedNodes);
  json.key("ranks").numbers(truth.AffectedRanks);
  json.key("locations").numbers(truth.AffectedLocations);
  json.key("regions").strings(truth.AffectedRegions);
  json.key("compute_states").value(truth.AffectedComputeStates);
  json.key("messages").beginObject();
  json.key("criterion").value(truth.MessageCriterion);
  json.key("count").value(truth.AffectedMessages);
  json.endObject();
  json.endObject();
  json.key("window");
  if (perturbed)
  {
    json.beginObject();
    json.key("begin_seconds").value(truth.WindowBegin);
    json.key("end_seconds").value(truth.WindowEnd);
    json.key("begin_ticks").value(truth.WindowBeginTimestamp - summary.GlobalOffset);
    json.key("end_ticks").value(truth.WindowEndTimestamp - summary.GlobalOffset);
    json.key("begin_timestamp").value(truth.WindowBeginTimestamp);
    json.key("end_timestamp").value(truth.WindowEndTimestamp);
    json.endObject();
  }
  else
  {
    json.null();
  }
  json.key("factor").value(truth.Factor);
  json.key("timer_resolution").value(summary.TimerResolution);
  json.key("global_offset").value(summary.GlobalOffset);
  json.key("configuration");
  writeConfiguration(json, summary.Config);
  json.endObject();
}

void writeConfigurationJson(const SynthConfig& config, std::ostream& out)
{
  JsonWriter json(out);
  writeConfiguration(json, config);
}

void writeSummaryJson(const SynthesisSummary& summary, std::ostream& out)
{
  JsonWriter json(out);
  json.beginObject();
  json.key("anchor_file").value(summary.AnchorFile);
  json.key("configuration");
  writeConfiguration(json, summary.Config);
  json.key("iterations").value(summary.Iterations);
  json.key("ranks").value(uint64_t(summary.Config.Clusters) * summary.Config.NodesPerCluster *
    summary.Config.RanksPerNode);
  json.key("locations").value(uint64_t(summary.Locations.size()));
  json.key("timer_resolution").value(summary.TimerResolution);
  json.key("global_offset").value(summary.GlobalOffset);
  json.key("trace_length_ticks").value(summary.TraceLengthTicks);
  json.key("trace_length_seconds").value(summary.TraceLengthSeconds);
  json.key("events").beginObject();
  for (std::size_t kind = 0; kind < EventKindCount; ++kind)
  {
    json.key(toString(static_cast<EventKind>(kind))).value(summary.Events[kind]);
  }
  json.endObject();
  json.key("total_events").value(summary.TotalEvents);
  const DefinitionCounts& defs = summary.Definitions;
  json.key("definitions").beginObject();
  json.key("String").value(defs.Strings);
  json.key("Paradigm").value(defs.Paradigms);
  json.key("SystemTreeNode").value(defs.SystemTreeNodes);
  json.key("LocationGroup").value(defs.LocationGroups);
  json.key("Location").value(defs.Locations);
  json.key("Region").value(defs.Regions);
  json.key("Group").value(defs.Groups);
  json.key("Comm").value(defs.Comms);
  json.key("MetricMember").value(defs.MetricMembers);
  json.key("MetricClass").value(defs.MetricClasses);
  json.endObject();
  json.key("location_events").beginArray();
  for (const LocationSummary& location : summary.Locations)
  {
    json.beginObject();
    json.key("id").value(location.Id);
    json.key("rank").value(location.Rank);
    json.key("thread").value(location.Thread);
    json.key("name").value(location.Name);
    json.key("events").value(location.Events);
    json.endObject();
  }
  json.endArray();
  json.endObject();
}

void writeTopologyDot(const Platform& platform, const GroundTruth& truth, std::ostream& out)
{
  const std::set<std::string> hotResources = [&] {
    std::set<std::string> names(truth.AffectedNodes.begin(), truth.AffectedNodes.end());
    names.insert(truth.AffectedClusters.begin(), truth.AffectedClusters.end());
    return names;
  }();
  const std::set<uint32_t> hotRanks(truth.AffectedRanks.begin(), truth.AffectedRanks.end());
  const char* hot = " style=filled fillcolor=\"#f4a582\" color=\"#b2182b\" penwidth=2";

  out << "digraph topology {\n"
      << "  // machine -> clusters -> nodes -> MPI ranks; filled: perturbed ("
      << toString(truth.Kind) << ")\n"
      << "  rankdir=TB;\n  node [shape=box fontname=\"Helvetica\"];\n";
  out << "  " << quoted(Platform::machineName()) << " [shape=box3d];\n";
  for (uint32_t cluster = 0; cluster < platform.clusterCount(); ++cluster)
  {
    const std::string name = Platform::clusterName(cluster);
    out << "  " << quoted(name) << " [shape=folder" << (hotResources.count(name) ? hot : "")
        << "];\n";
    out << "  " << quoted(Platform::machineName()) << " -> " << quoted(name) << ";\n";
  }
  for (uint32_t node = 0; node < platform.nodeCount(); ++node)
  {
    const std::string name = Platform::nodeName(node);
    out << "  " << quoted(name) << " [shape=box" << (hotResources.count(name) ? hot : "")
        << "];\n";
    out << "  " << quoted(Platform::clusterName(platform.clusterOfNode(node))) << " -> "
        << quoted(name) << ";\n";
  }
  for (uint32_t rank = 0; rank < platform.rankCount(); ++rank)
  {
    const std::string id = "rank-" + std::to_string(rank);
    out << "  " << quoted(id) << " [shape=ellipse label=" << quoted(Platform::rankName(rank))
        << (hotRanks.count(rank) ? hot : "") << "];\n";
    out << "  " << quoted(Platform::nodeName(platform.nodeOfRank(rank))) << " -> " << quoted(id)
        << ";\n";
  }
  out << "}\n";
}

} // namespace macroscope::synth
