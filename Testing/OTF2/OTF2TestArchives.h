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
synth::SynthesisSummary synthesize(const std::filesystem::path& directory,
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

/// Throws unless status is OTF2_SUCCESS (writing test archives must work).
void check(OTF2_ErrorCode status, const char* what);

} // namespace macroscope::otf2::testing

#endif
