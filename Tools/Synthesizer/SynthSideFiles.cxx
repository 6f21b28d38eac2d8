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

void WriteConfiguration(JsonWriter& json, const SynthConfig& config)
{
  json.BeginObject();
  json.Key("clusters").Value(config.Clusters);
  json.Key("nodes_per_cluster").Value(config.NodesPerCluster);
  json.Key("ranks_per_node").Value(config.RanksPerNode);
  json.Key("threads_per_rank").Value(config.ThreadsPerRank);
  json.Key("iterations").Value(config.Iterations);
  json.Key("minimum_events");
  if (config.MinimumEvents)
  {
    json.Value(*config.MinimumEvents);
  }
  else
  {
    json.Null();
  }
  json.Key("pattern").Value(ToString(config.CommunicationPattern));
  json.Key("imbalance").Value(config.Imbalance);
  json.Key("compute_time_seconds").Value(config.ComputeTime);
  json.Key("message_bytes").Value(config.MessageBytes);
  json.Key("latency_seconds").Value(config.Latency);
  json.Key("bandwidth_bytes_per_second").Value(config.Bandwidth);
  json.Key("perturbation").BeginObject();
  json.Key("kind").Value(ToString(config.Perturbation.Kind));
  json.Key("target").Value(config.Perturbation.Target);
  json.Key("window_seconds").BeginArray();
  json.Value(config.Perturbation.WindowBegin).Value(config.Perturbation.WindowEnd);
  json.EndArray();
  json.Key("factor").Value(config.Perturbation.Factor);
  json.EndObject();
  json.Key("seed").Value(config.Seed);
  json.Key("timer_resolution").Value(config.TimerResolution);
  if (!config.ClockOffsets.empty())
  {
    // Only when set: archives of synchronised runs keep their configuration
    // (a reused directory still matches).
    json.Key("clock_offsets").Numbers(config.ClockOffsets);
  }
  json.EndObject();
}

const char* TargetClass(PerturbationKind kind)
{
  return kind == PerturbationKind::SlowNode ? "node" : "cluster";
}

std::string Quoted(const std::string& text)
{
  return "\"" + text + "\"";
}

} // namespace

const char* ToString(EventKind kind)
{
  static const char* const names[] = { "ProgramBegin", "ProgramEnd", "Enter", "Leave", "Metric",
    "ThreadFork", "ThreadJoin", "MpiSend", "MpiRecv", "MpiIsend", "MpiIsendComplete",
    "MpiIrecvRequest", "MpiIrecv", "MpiCollectiveBegin", "MpiCollectiveEnd", "BufferFlush" };
  static_assert(sizeof(names) / sizeof(names[0]) == EventKindCount, "one name per kind");
  return names[static_cast<std::size_t>(kind)];
}

uint64_t TotalOf(const EventCounts& counts)
{
  uint64_t total = 0;
  for (uint64_t count : counts)
  {
    total += count;
  }
  return total;
}

void WriteGroundTruthJson(const SynthesisSummary& summary, std::ostream& out)
{
  const GroundTruth& truth = summary.Truth;
  const bool perturbed = truth.Kind != PerturbationKind::None;
  JsonWriter json(out);
  json.BeginObject();
  json.Key("perturbation").Value(ToString(truth.Kind));
  json.Key("pattern").Value(ToString(truth.CommunicationPattern));
  // Unsynchronised clocks: seconds added to each rank's timestamps (empty:
  // synchronised).
  json.Key("clock_offsets").Numbers(summary.Config.ClockOffsets);
  json.Key("target");
  if (perturbed)
  {
    json.BeginObject();
    json.Key("kind").Value(TargetClass(truth.Kind));
    json.Key("index").Value(truth.Target);
    json.Key("name").Value(truth.TargetName);
    json.EndObject();
  }
  else
  {
    json.Null();
  }
  json.Key("affected").BeginObject();
  json.Key("clusters").Strings(truth.AffectedClusters);
  json.Key("nodes").Strings(truth.AffectedNodes);
  json.Key("ranks").Numbers(truth.AffectedRanks);
  json.Key("locations").Numbers(truth.AffectedLocations);
  json.Key("regions").Strings(truth.AffectedRegions);
  json.Key("compute_states").Value(truth.AffectedComputeStates);
  json.Key("messages").BeginObject();
  json.Key("criterion").Value(truth.MessageCriterion);
  json.Key("count").Value(truth.AffectedMessages);
  json.EndObject();
  json.EndObject();
  json.Key("window");
  if (perturbed)
  {
    json.BeginObject();
    json.Key("begin_seconds").Value(truth.WindowBegin);
    json.Key("end_seconds").Value(truth.WindowEnd);
    json.Key("begin_ticks").Value(truth.WindowBeginTimestamp - summary.GlobalOffset);
    json.Key("end_ticks").Value(truth.WindowEndTimestamp - summary.GlobalOffset);
    json.Key("begin_timestamp").Value(truth.WindowBeginTimestamp);
    json.Key("end_timestamp").Value(truth.WindowEndTimestamp);
    json.EndObject();
  }
  else
  {
    json.Null();
  }
  json.Key("factor").Value(truth.Factor);
  json.Key("timer_resolution").Value(summary.TimerResolution);
  json.Key("global_offset").Value(summary.GlobalOffset);
  json.Key("configuration");
  WriteConfiguration(json, summary.Config);
  json.EndObject();
}

void WriteConfigurationJson(const SynthConfig& config, std::ostream& out)
{
  JsonWriter json(out);
  WriteConfiguration(json, config);
}

void WriteSummaryJson(const SynthesisSummary& summary, std::ostream& out)
{
  JsonWriter json(out);
  json.BeginObject();
  json.Key("anchor_file").Value(summary.AnchorFile);
  json.Key("configuration");
  WriteConfiguration(json, summary.Config);
  json.Key("iterations").Value(summary.Iterations);
  json.Key("ranks").Value(uint64_t(summary.Config.Clusters) * summary.Config.NodesPerCluster *
    summary.Config.RanksPerNode);
  json.Key("locations").Value(uint64_t(summary.Locations.size()));
  json.Key("timer_resolution").Value(summary.TimerResolution);
  json.Key("global_offset").Value(summary.GlobalOffset);
  json.Key("trace_length_ticks").Value(summary.TraceLengthTicks);
  json.Key("trace_length_seconds").Value(summary.TraceLengthSeconds);
  json.Key("events").BeginObject();
  for (std::size_t kind = 0; kind < EventKindCount; ++kind)
  {
    json.Key(ToString(static_cast<EventKind>(kind))).Value(summary.Events[kind]);
  }
  json.EndObject();
  json.Key("total_events").Value(summary.TotalEvents);
  const DefinitionCounts& defs = summary.Definitions;
  json.Key("definitions").BeginObject();
  json.Key("String").Value(defs.Strings);
  json.Key("Paradigm").Value(defs.Paradigms);
  json.Key("SystemTreeNode").Value(defs.SystemTreeNodes);
  json.Key("LocationGroup").Value(defs.LocationGroups);
  json.Key("Location").Value(defs.Locations);
  json.Key("Region").Value(defs.Regions);
  json.Key("Group").Value(defs.Groups);
  json.Key("Comm").Value(defs.Comms);
  json.Key("MetricMember").Value(defs.MetricMembers);
  json.Key("MetricClass").Value(defs.MetricClasses);
  json.EndObject();
  json.Key("location_events").BeginArray();
  for (const LocationSummary& location : summary.Locations)
  {
    json.BeginObject();
    json.Key("id").Value(location.Id);
    json.Key("rank").Value(location.Rank);
    json.Key("thread").Value(location.Thread);
    json.Key("name").Value(location.Name);
    json.Key("events").Value(location.Events);
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
}

void WriteTopologyDot(const Platform& platform, const GroundTruth& truth, std::ostream& out)
{
  const std::set<std::string> hotResources = [&]
  {
    std::set<std::string> names(truth.AffectedNodes.begin(), truth.AffectedNodes.end());
    names.insert(truth.AffectedClusters.begin(), truth.AffectedClusters.end());
    return names;
  }();
  const std::set<uint32_t> hotRanks(truth.AffectedRanks.begin(), truth.AffectedRanks.end());
  const char* hot = " style=filled fillcolor=\"#f4a582\" color=\"#b2182b\" penwidth=2";

  out << "digraph topology {\n"
      << "  // machine -> clusters -> nodes -> MPI ranks; filled: perturbed ("
      << ToString(truth.Kind) << ")\n"
      << "  rankdir=TB;\n  node [shape=box fontname=\"Helvetica\"];\n";
  out << "  " << Quoted(Platform::MachineName()) << " [shape=box3d];\n";
  for (uint32_t cluster = 0; cluster < platform.ClusterCount(); ++cluster)
  {
    const std::string name = Platform::ClusterName(cluster);
    out << "  " << Quoted(name) << " [shape=folder" << (hotResources.count(name) ? hot : "")
        << "];\n";
    out << "  " << Quoted(Platform::MachineName()) << " -> " << Quoted(name) << ";\n";
  }
  for (uint32_t node = 0; node < platform.NodeCount(); ++node)
  {
    const std::string name = Platform::NodeName(node);
    out << "  " << Quoted(name) << " [shape=box" << (hotResources.count(name) ? hot : "") << "];\n";
    out << "  " << Quoted(Platform::ClusterName(platform.ClusterOfNode(node))) << " -> "
        << Quoted(name) << ";\n";
  }
  for (uint32_t rank = 0; rank < platform.RankCount(); ++rank)
  {
    const std::string id = "rank-" + std::to_string(rank);
    out << "  " << Quoted(id) << " [shape=ellipse label=" << Quoted(Platform::RankName(rank))
        << (hotRanks.count(rank) ? hot : "") << "];\n";
    out << "  " << Quoted(Platform::NodeName(platform.NodeOfRank(rank))) << " -> " << Quoted(id)
        << ";\n";
  }
  out << "}\n";
}

} // namespace macroscope::synth
