// Helpers for the OTF2 decoder tests: scratch directories, synthesized
// archives, and a thin wrapper around OTF2's writer for hand-made archives
// whose expected tables are computed by hand.
#ifndef macroscope_otf2_OTF2TestArchives_h
#define macroscope_otf2_OTF2TestArchives_h

#include <MacroscopeSynthesizer.h>

#include <otf2/otf2.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace macroscope::otf2::testing
{

/// A fresh directory under the system's temporary directory, removed with
/// everything in it when the object dies.
class ScratchDirectory
{
public:
  ScratchDirectory();
  ~ScratchDirectory();
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;

  const std::filesystem::path& path() const { return this->Path; }

private:
  std::filesystem::path Path;
};

/// Synthesizes an archive into `directory`; a small machine by default.
synth::SynthesisSummary Synthesize(const std::filesystem::path& directory,
  synth::Pattern pattern = synth::Pattern::Stencil3D, uint32_t threads = 2,
  uint64_t iterations = 4);

/// Writes an OTF2 archive by hand: events first (per location, any order of
/// locations), then the global definitions through definitions().
class ArchiveWriter
{
public:
  /// The anchor file is directory/name.otf2.
  ArchiveWriter(const std::filesystem::path& directory, const std::string& name);
  ~ArchiveWriter();
  ArchiveWriter(const ArchiveWriter&) = delete;
  ArchiveWriter& operator=(const ArchiveWriter&) = delete;

  OTF2_EvtWriter* events(uint64_t location);
  /// Records written for `location` so far (its Location's numberOfEvents).
  uint64_t eventCount(uint64_t location);
  /// Closes the event files; returns the writer for the global definitions.
  OTF2_GlobalDefWriter* definitions();
  /// Finishes the archive; returns the anchor file.
  std::string close();

  /// Writes String definitions in order of first use; returns the reference.
  OTF2_StringRef string(const std::string& text);

private:
  std::filesystem::path Anchor;
  OTF2_Archive* Archive = nullptr;
  std::map<uint64_t, OTF2_EvtWriter*> Writers;
  std::map<uint64_t, uint64_t> Counts;
  std::map<std::string, OTF2_StringRef> Strings;
  OTF2_GlobalDefWriter* Definitions = nullptr;
};

/// Writes an archive shaped like EZTrace 2.0's into `directory` (anchor
/// eztrace_log.otf2, returned): three ranks with EZTrace's location ids,
/// every region defined once per rank with the "user" paradigm, Group 0
/// defined as the locations and as MPI_COMM_WORLD's ranks, numberOfEvents 2
/// everywhere, a clock length of 12 ms where the records reach 40 ms,
/// "EZTrace finalize" entered before "Working" is left on ranks 1 and 2, an
/// MPI_Irecv whose completion is not written, a sub-communicator
/// {rank 2, rank 0}, and MPI_PROC_NULL peers. The tables it gives are
/// worked out in TestOTF2EZTraceConstructs.cxx; ticks are milliseconds.
std::string writeEZTraceLike(const std::filesystem::path& directory);

/// The region names of that archive, in the order of their type ids.
extern const std::vector<std::string> EZTraceLikeRegionNames;

/// Throws unless status is OTF2_SUCCESS (writing test archives must work).
void check(OTF2_ErrorCode status, const char* what);

/// The definitions the hand-written archives share: one MPI process a
/// LocationGroup (id = its rank) holding one CPU thread.
struct ProcessDefinition
{
  std::string Name;       ///< the LocationGroup's
  std::string ThreadName; ///< the Location's
  uint64_t Location = 0;
  uint64_t Events = 0; ///< the Location's numberOfEvents
};

/// Writes SystemTreeNode 0 named `node` and the processes under it; returns
/// the node's name reference (the regions' source file).
OTF2_StringRef WriteProcesses(
  ArchiveWriter& writer, const std::string& node, const std::vector<ProcessDefinition>& processes);

/// Writes MPI_COMM_WORLD: Group `locationsGroup` of the processes'
/// locations, Group `ranksGroup` of the ranks 0..n-1 (EZTrace gives both
/// the id 0) and Comm `world` over the latter.
void WriteWorld(ArchiveWriter& writer, OTF2_CommRef world, uint64_t locationsGroup,
  uint64_t ranksGroup, const std::vector<uint64_t>& locations);

/// Writes a function Region of the "user" paradigm, as EZTrace writes its
/// MPI calls (the names say which regions are MPI calls).
void WriteUserRegion(
  ArchiveWriter& writer, OTF2_RegionRef region, const std::string& name, OTF2_StringRef file);

/// The main() of the tools that write a hand-written archive for the Python
/// tests: `tool DIR` writes it into DIR with `write` and prints its anchor
/// file; a usage error returns 2, a failure 1.
int RunArchiveTool(int argc, char** argv, std::string (*write)(const std::filesystem::path&));

/// Writes the logical-time probe into `directory` (anchor probe.otf2,
/// returned): two ranks under `main`, all regions of the "user" paradigm
/// (MPI calls known by name, as EZTrace's), with three MPI_Sendrecv
/// exchanges inside one call of `exchange`, a message received before it is sent (clock skew)
/// inside an MPI_Send, and two back-to-back MPI_Isends before an MPI_Waitall on each rank; ticks
/// are tenths of milliseconds. Its steps are worked out in TestLogicalTimeSynthesized.cxx
/// (HandWrittenProbe).
std::string writeLogicalProbe(const std::filesystem::path& directory);

} // namespace macroscope::otf2::testing

#endif
