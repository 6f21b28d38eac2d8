#include "OTF2TestArchives.h"

#include <exception>
#include <iostream>
#include <random>
#include <stdexcept>

namespace macroscope::otf2::testing
{

namespace fs = std::filesystem;

ScratchDirectory::ScratchDirectory()
{
  std::random_device entropy;
  for (int attempt = 0; attempt < 100; ++attempt)
  {
    fs::path candidate =
      fs::temp_directory_path() / ("macroscope-otf2-test-" + std::to_string(entropy()));
    if (fs::create_directory(candidate))
    {
      this->Path = candidate;
      return;
    }
  }
  throw std::runtime_error("cannot create a scratch directory");
}

ScratchDirectory::~ScratchDirectory()
{
  std::error_code ignored;
  fs::remove_all(this->Path, ignored);
}

synth::SynthesisSummary Synthesize(
  const fs::path& directory, synth::Pattern pattern, uint32_t threads, uint64_t iterations)
{
  synth::SynthConfig config;
  config.OutputDirectory = directory.string();
  config.Clusters = 2;
  config.NodesPerCluster = 2;
  config.RanksPerNode = 2;
  config.ThreadsPerRank = threads;
  config.Iterations = iterations;
  config.CommunicationPattern = pattern;
  config.Overwrite = true;
  return synth::Synthesize(config);
}

void check(OTF2_ErrorCode status, const char* what)
{
  if (status != OTF2_SUCCESS)
  {
    throw std::runtime_error(
      std::string("writing a test archive: ") + what + ": " + OTF2_Error_GetName(status));
  }
}

namespace
{
OTF2_FlushType flushAlways(void*, OTF2_FileType, OTF2_LocationRef, void*, bool)
{
  return OTF2_FLUSH;
}
OTF2_TimeStamp flushTime(void*, OTF2_FileType, OTF2_LocationRef)
{
  return 0;
}
}

ArchiveWriter::ArchiveWriter(const fs::path& directory, const std::string& name)
  : Anchor(directory / (name + ".otf2"))
{
  this->Archive = OTF2_Archive_Open(directory.c_str(), name.c_str(), OTF2_FILEMODE_WRITE,
    1024 * 1024, 4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (this->Archive == nullptr)
  {
    throw std::runtime_error("cannot create a test archive in " + directory.string());
  }
  static const OTF2_FlushCallbacks flush = { &flushAlways, &flushTime };
  check(OTF2_Archive_SetFlushCallbacks(this->Archive, &flush, nullptr), "flush callbacks");
  check(OTF2_Archive_SetSerialCollectiveCallbacks(this->Archive), "collective callbacks");
  check(OTF2_Archive_OpenEvtFiles(this->Archive), "opening the event files");
}

ArchiveWriter::~ArchiveWriter()
{
  if (this->Archive != nullptr)
  {
    OTF2_Archive_Close(this->Archive);
  }
}

OTF2_EvtWriter* ArchiveWriter::events(uint64_t location)
{
  OTF2_EvtWriter*& writer = this->Writers[location];
  if (writer == nullptr)
  {
    writer = OTF2_Archive_GetEvtWriter(this->Archive, location);
    if (writer == nullptr)
    {
      throw std::runtime_error("cannot create an event writer");
    }
  }
  return writer;
}

uint64_t ArchiveWriter::eventCount(uint64_t location)
{
  const auto counted = this->Counts.find(location);
  if (counted != this->Counts.end())
  {
    return counted->second;
  }
  const auto writer = this->Writers.find(location);
  if (writer == this->Writers.end())
  {
    return 0;
  }
  uint64_t events = 0;
  check(OTF2_EvtWriter_GetNumberOfEvents(writer->second, &events), "counting events");
  return events;
}

OTF2_GlobalDefWriter* ArchiveWriter::definitions()
{
  if (this->Definitions == nullptr)
  {
    for (auto& [location, writer] : this->Writers)
    {
      this->Counts[location] = this->eventCount(location);
      check(OTF2_Archive_CloseEvtWriter(this->Archive, writer), "closing an event writer");
    }
    this->Writers.clear();
    check(OTF2_Archive_CloseEvtFiles(this->Archive), "closing the event files");
    this->Definitions = OTF2_Archive_GetGlobalDefWriter(this->Archive);
    if (this->Definitions == nullptr)
    {
      throw std::runtime_error("cannot create the global definition writer");
    }
  }
  return this->Definitions;
}

OTF2_StringRef ArchiveWriter::string(const std::string& text)
{
  const auto known = this->Strings.find(text);
  if (known != this->Strings.end())
  {
    return known->second;
  }
  const OTF2_StringRef ref = OTF2_StringRef(this->Strings.size());
  check(OTF2_GlobalDefWriter_WriteString(this->definitions(), ref, text.c_str()), "a String");
  this->Strings.emplace(text, ref);
  return ref;
}

std::string ArchiveWriter::close()
{
  this->definitions();
  const OTF2_ErrorCode status = OTF2_Archive_Close(this->Archive);
  this->Archive = nullptr;
  check(status, "closing the archive");
  return this->Anchor.string();
}

OTF2_StringRef WriteProcesses(
  ArchiveWriter& writer, const std::string& node, const std::vector<ProcessDefinition>& processes)
{
  OTF2_GlobalDefWriter* d = writer.definitions();
  const OTF2_StringRef name = writer.string(node);
  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, name, name, OTF2_UNDEFINED_SYSTEM_TREE_NODE),
    "SystemTreeNode");
  for (uint32_t rank = 0; rank < processes.size(); ++rank)
  {
    const ProcessDefinition& process = processes[rank];
    check(OTF2_GlobalDefWriter_WriteLocationGroup(d, rank, writer.string(process.Name),
            OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP),
      "LocationGroup");
    check(OTF2_GlobalDefWriter_WriteLocation(d, process.Location, writer.string(process.ThreadName),
            OTF2_LOCATION_TYPE_CPU_THREAD, process.Events, rank),
      "Location");
  }
  return name;
}

void WriteWorld(ArchiveWriter& writer, OTF2_CommRef world, uint64_t locationsGroup,
  uint64_t ranksGroup, const std::vector<uint64_t>& locations)
{
  OTF2_GlobalDefWriter* d = writer.definitions();
  const OTF2_StringRef name = writer.string("MPI_COMM_WORLD");
  const auto size = static_cast<uint32_t>(locations.size());
  check(OTF2_GlobalDefWriter_WriteGroup(d, locationsGroup, name, OTF2_GROUP_TYPE_COMM_LOCATIONS,
          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, size, locations.data()),
    "Group");
  std::vector<uint64_t> ranks(size);
  for (uint32_t rank = 0; rank < size; ++rank)
  {
    ranks[rank] = rank;
  }
  check(OTF2_GlobalDefWriter_WriteGroup(d, ranksGroup, name, OTF2_GROUP_TYPE_COMM_GROUP,
          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, size, ranks.data()),
    "Group");
  check(OTF2_GlobalDefWriter_WriteComm(
          d, world, name, ranksGroup, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
    "Comm");
}

void WriteUserRegion(
  ArchiveWriter& writer, OTF2_RegionRef region, const std::string& name, OTF2_StringRef file)
{
  const OTF2_StringRef text = writer.string(name);
  check(OTF2_GlobalDefWriter_WriteRegion(writer.definitions(), region, text, text, text,
          OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, file, 0, 0),
    "Region");
}

int RunArchiveTool(int argc, char** argv, std::string (*write)(const std::filesystem::path&))
{
  if (argc != 2)
  {
    std::cerr << "usage: " << argv[0] << " DIR\n";
    return 2;
  }
  try
  {
    fs::create_directories(argv[1]);
    std::cout << write(argv[1]) << "\n";
  }
  catch (const std::exception& error)
  {
    std::cerr << argv[0] << ": " << error.what() << "\n";
    return 1;
  }
  return 0;
}

} // namespace macroscope::otf2::testing
