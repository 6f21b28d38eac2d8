// What an output directory already holds, before a synthesis writes there:
// lets a caller that runs again with the same parameters (ParaView loading
// a state, re-executing a pipeline) reuse the archive instead of rewriting
// it, and refuse to replace an archive it did not write.
#pragma once

#include <string>

namespace macroscope::synth
{

struct SynthConfig;
struct SynthesisSummary;

enum class ExistingArchive
{
  None,               // no traces.otf2, traces.def or traces/ in the directory
  SameConfiguration,  // written by the synthesizer with these parameters
  OtherConfiguration, // written by the synthesizer with other parameters
  Foreign             // an archive without the synthesizer's summary.json
};

struct ArchiveInspection
{
  ExistingArchive State = ExistingArchive::None;
  /// For OtherConfiguration: the first parameter that differs, as
  /// "iterations: 2 there, 20 here"; for Foreign: why it is not ours.
  std::string Difference;
};

/// Compares the archive in config.OutputDirectory (if any) with the one
/// synthesize(config) would write: the "configuration" of its summary.json
/// against config's, iterations resolved. Reads only; never throws for a
/// missing or unreadable summary (that is Foreign).
ArchiveInspection InspectOutputDirectory(const SynthConfig& config);

/// The summary of the archive InspectOutputDirectory() found with the same
/// configuration, read back from its summary.json and ground_truth.json (what
/// synthesize() would return, without the definition counts, passes and
/// Pajé figures). Throws std::runtime_error naming the file and the entry
/// when a side file does not hold what synthesize() writes.
SynthesisSummary ReadRecordedSummary(const SynthConfig& config);

/// With config.WriteDot, writes topology.dot and network.dot beside a reused
/// archive when they are missing (new files only: existing ones are kept,
/// as synthesize() wrote them for the same configuration).
void WriteMissingDotFiles(const SynthConfig& config, const SynthesisSummary& summary);

} // namespace macroscope::synth
