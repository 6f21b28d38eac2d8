// Bad input never crashes or hangs: every case throws a TraceError whose
// message names the file and the problem.
#include "OTF2TestArchives.h"

#include <MacroscopeOTF2.h>

#include <gtest/gtest.h>

#include <fstream>
#include <random>

namespace
{
using namespace macroscope::otf2;
using macroscope::otf2::testing::ScratchDirectory;
namespace fs = std::filesystem;

// One synthesized archive, copied by each test before it is damaged.
class BadInput : public ::testing::Test
{
protected:
  static void SetUpTestSuite()
  {
    Pristine = new ScratchDirectory;
    macroscope::otf2::testing::Synthesize(Pristine->path() / "archive");
  }
  static void TearDownTestSuite()
  {
    delete Pristine;
    Pristine = nullptr;
  }

  /// A fresh copy of the archive; returns its anchor file.
  std::string copyArchive()
  {
    fs::copy(
      Pristine->path() / "archive", this->Scratch.path() / "archive", fs::copy_options::recursive);
    return (this->Scratch.path() / "archive" / "traces.otf2").string();
  }
  fs::path file(const std::string& relative) const
  {
    return this->Scratch.path() / "archive" / relative;
  }
  void truncateToHalf(const fs::path& path) { fs::resize_file(path, fs::file_size(path) / 2); }
  void scramble(const fs::path& path, std::size_t from, std::size_t bytes)
  {
    std::fstream stream(path, std::ios::in | std::ios::out | std::ios::binary);
    stream.seekp(std::streamoff(from));
    std::mt19937 random(7);
    for (std::size_t i = 0; i < bytes; ++i)
    {
      stream.put(char(random()));
    }
  }
  void write(const fs::path& path, const std::string& text)
  {
    std::ofstream(path, std::ios::binary) << text;
  }

  /// Reads `anchor` (full read, or definitions only) expecting a TraceError
  /// that names the anchor and contains `problem`.
  void expectError(
    const std::string& anchor, const std::string& problem, bool definitionsOnly = false)
  {
    try
    {
      if (definitionsOnly)
      {
        ReadTraceInfo(anchor);
      }
      else
      {
        ReadTrace(anchor);
      }
      ADD_FAILURE() << "no TraceError for " << anchor;
    }
    catch (const TraceError& error)
    {
      const std::string message = error.what();
      EXPECT_NE(message.find(anchor), std::string::npos) << message;
      EXPECT_NE(message.find(problem), std::string::npos) << message;
    }
  }

  static ScratchDirectory* Pristine;
  ScratchDirectory Scratch;
};
ScratchDirectory* BadInput::Pristine = nullptr;

TEST_F(BadInput, MissingPath)
{
  const std::string anchor = (this->Scratch.path() / "nothing.otf2").string();
  this->expectError(anchor, "no such file");
  this->expectError(anchor, "no such file", true);
}

TEST_F(BadInput, EmptyPathName)
{
  EXPECT_THROW(ReadTrace(""), TraceError);
}

TEST_F(BadInput, Directory)
{
  this->copyArchive();
  this->expectError(this->file("").string(), "is a directory");
}

TEST_F(BadInput, EmptyFile)
{
  const fs::path anchor = this->Scratch.path() / "empty.otf2";
  this->write(anchor, "");
  this->expectError(anchor.string(), "empty file");
}

TEST_F(BadInput, NotAnOTF2File)
{
  const fs::path anchor = this->Scratch.path() / "notes.otf2";
  this->write(anchor, "These are not the traces you are looking for.\n");
  this->expectError(anchor.string(), "not a readable OTF2 anchor file");
}

TEST_F(BadInput, TruncatedAnchorFile)
{
  const std::string anchor = this->copyArchive();
  this->truncateToHalf(anchor);
  this->expectError(anchor, "not a readable OTF2 anchor file");
}

TEST_F(BadInput, MissingDefinitions)
{
  const std::string anchor = this->copyArchive();
  fs::remove(this->file("traces.def"));
  this->expectError(anchor, "global definitions", true);
  this->expectError(anchor, "global definitions");
}

TEST_F(BadInput, TruncatedDefinitions)
{
  const std::string anchor = this->copyArchive();
  this->truncateToHalf(this->file("traces.def"));
  this->expectError(anchor, "global definitions", true);
}

TEST_F(BadInput, CorruptDefinitions)
{
  const std::string anchor = this->copyArchive();
  const fs::path defs = this->file("traces.def");
  this->scramble(defs, 64, fs::file_size(defs) - 64);
  this->expectError(anchor, "", true);
}

TEST_F(BadInput, MissingEventFile)
{
  const std::string anchor = this->copyArchive();
  fs::remove(this->file("traces/1.evt"));
  this->expectError(anchor, "location 1");
}

TEST_F(BadInput, TruncatedEventFile)
{
  const std::string anchor = this->copyArchive();
  this->truncateToHalf(this->file("traces/0.evt"));
  this->expectError(anchor, "events of location 0");
}

// OTF2 itself notices an event file cut anywhere before its last record:
// the reader does not need the Locations' numberOfEvents for that, which
// real tracers write wrong (EZTrace: 2 for every location). Only the final
// end-of-file byte can go unnoticed, and no record is lost with it.
TEST_F(BadInput, EventFileCutAnywhereIsAnError)
{
  const std::string anchor = this->copyArchive();
  const fs::path events = this->file("traces/0.evt");
  const std::string pristine = [&events]
  {
    std::ifstream stream(events, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(stream), {});
  }();
  const std::size_t size = pristine.size();
  ASSERT_GT(size, 256u);
  for (std::size_t kept :
    { std::size_t(1), std::size_t(16), size / 3, size / 2, size - 64, size - 8, size - 2 })
  {
    this->write(events, pristine.substr(0, kept));
    SCOPED_TRACE("first " + std::to_string(kept) + " of " + std::to_string(size) + " bytes");
    this->expectError(anchor, "location 0");
  }
}

TEST_F(BadInput, CorruptEventFile)
{
  const std::string anchor = this->copyArchive();
  const fs::path events = this->file("traces/2.evt");
  this->scramble(events, fs::file_size(events) / 3, 4096);
  this->expectError(anchor, "location 2");
}

TEST_F(BadInput, GarbageEventFile)
{
  const std::string anchor = this->copyArchive();
  this->write(this->file("traces/3.evt"), std::string(10000, '\xff'));
  this->expectError(anchor, "location 3");
}

TEST_F(BadInput, InvalidOptionsAreRejected)
{
  const std::string anchor = this->copyArchive();
  ReadOptions options;
  options.Leaves = { 1000000 };
  EXPECT_THROW(ReadTrace(anchor, options), std::invalid_argument);
  options.Leaves.clear();
  options.WindowBegin = 2.0;
  options.WindowEnd = 1.0;
  EXPECT_THROW(ReadTrace(anchor, options), std::invalid_argument);
}

} // namespace
