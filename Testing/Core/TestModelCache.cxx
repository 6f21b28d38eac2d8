// Tests of the model cache file (Core/ModelCache.h): round trip, and
// every way a file can be refused (truncated, wrong magic or version,
// corrupt, stale), each error naming the file.
#include "ModelCache.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <unistd.h>

using macroscope::CachedModel;
using macroscope::CheckModelCacheKey;
using macroscope::IdentifyTrace;
using macroscope::LoadModelCache;
using macroscope::ModelCacheError;
using macroscope::ModelCacheKey;
using macroscope::ModelCachePath;
using macroscope::ReadModelCache;
using macroscope::ReadModelCacheHeader;
using macroscope::SliceMetric;
using macroscope::WriteModelCache;
namespace fs = std::filesystem;
using Reason = ModelCacheError::Reason;

namespace
{
class ModelCacheFile : public ::testing::Test
{
protected:
  void SetUp() override
  {
    this->Directory = fs::temp_directory_path() /
      ("macroscope-model-cache-" + std::to_string(::getpid()) + "-" +
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(this->Directory);
    fs::create_directories(this->Directory);
    this->Trace = (this->Directory / "run.paje").string();
    this->WriteText(this->Trace, "%EventDef PajeDefineContainerType 0\n");
    this->File = (this->Directory / "run.mcache").string();
  }
  void TearDown() override { fs::remove_all(this->Directory); }

  void WriteText(const std::string& path, const std::string& text)
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
  }

  // A 7 slices × 3 resources × 2 types model of random values.
  CachedModel Sample()
  {
    CachedModel cached;
    cached.Key.Trace = IdentifyTrace(this->Trace, "defs-digest-1");
    cached.Key.Metric = SliceMetric::StateDuration;
    cached.Key.Depth = 2;
    cached.Key.Normalize = false;
    cached.Key.Resources = cached.Model.Resources = 3;
    cached.Key.Types = cached.Model.Types = 2;
    cached.Model.Grid.Begin = 0.25;
    cached.Model.Grid.End = 7.5;
    cached.Model.Grid.Slices = 7;
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> value(0.0, 1.0);
    cached.Model.Values.resize(7 * 3 * 2);
    for (double& v : cached.Model.Values)
    {
      v = value(rng);
    }
    return cached;
  }

  std::string Bytes(const std::string& path)
  {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  // Expects reading `File` to throw ModelCacheError for `reason`, naming the file.
  void ExpectRefused(Reason reason, const std::string& words)
  {
    try
    {
      ReadModelCache(this->File);
      FAIL() << "no error";
    }
    catch (const ModelCacheError& e)
    {
      EXPECT_EQ(e.Why(), reason) << e.what();
      EXPECT_EQ(e.File(), this->File);
      EXPECT_NE(std::string(e.what()).find(this->File), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  }

  fs::path Directory;
  std::string Trace;
  std::string File;
};

TEST_F(ModelCacheFile, RoundTripKeepsEveryValueAndTheKey)
{
  const CachedModel written = this->Sample();
  WriteModelCache(this->File, written);
  const CachedModel read = ReadModelCache(this->File);
  EXPECT_TRUE(read.Key.Trace == written.Key.Trace);
  EXPECT_EQ(read.Key.Trace.Digest, "defs-digest-1");
  EXPECT_EQ(read.Key.Metric, SliceMetric::StateDuration);
  EXPECT_EQ(read.Key.Depth, 2);
  EXPECT_FALSE(read.Key.Normalize);
  EXPECT_EQ(read.Model.Grid.Begin, 0.25);
  EXPECT_EQ(read.Model.Grid.End, 7.5);
  EXPECT_EQ(read.Model.Grid.Slices, 7);
  EXPECT_EQ(read.Model.Resources, 3u);
  EXPECT_EQ(read.Model.Types, 2u);
  ASSERT_EQ(read.Model.Values.size(), written.Model.Values.size());
  EXPECT_EQ(std::memcmp(read.Model.Values.data(), written.Model.Values.data(),
              written.Model.Values.size() * sizeof(double)),
    0);
  // No temporary file is left beside the cache.
  EXPECT_EQ(std::distance(fs::directory_iterator(this->Directory), fs::directory_iterator()), 2);

  const CachedModel header = ReadModelCacheHeader(this->File);
  EXPECT_TRUE(header.Model.Values.empty());
  EXPECT_EQ(header.Model.Grid.Slices, 7);
  EXPECT_TRUE(header.Key.Trace == written.Key.Trace);
}

TEST_F(ModelCacheFile, FileSizeIsHeaderPlusPayload)
{
  WriteModelCache(this->File, this->Sample());
  // 92 fixed bytes + path + 13-byte digest, padded to 8, then 42 doubles.
  const std::size_t strings = fs::absolute(this->Trace).lexically_normal().string().size() + 13;
  const std::size_t header = (92 + strings + 7) / 8 * 8;
  EXPECT_EQ(fs::file_size(this->File), header + 42 * sizeof(double));
}

TEST_F(ModelCacheFile, MissingFileIsUnreadable)
{
  this->ExpectRefused(Reason::Unreadable, "cannot open");
}

TEST_F(ModelCacheFile, TruncatedPayloadOrHeaderIsRefused)
{
  WriteModelCache(this->File, this->Sample());
  const std::string bytes = this->Bytes(this->File);
  this->WriteText(this->File, bytes.substr(0, bytes.size() - 8));
  this->ExpectRefused(Reason::Truncated, "truncated");
  this->WriteText(this->File, bytes.substr(0, 40));
  this->ExpectRefused(Reason::Truncated, "truncated");
  this->WriteText(this->File, bytes.substr(0, 10));
  this->ExpectRefused(Reason::Truncated, "truncated");
  this->WriteText(this->File, "");
  this->ExpectRefused(Reason::Truncated, "truncated");
}

TEST_F(ModelCacheFile, TrailingBytesAreCorrupt)
{
  WriteModelCache(this->File, this->Sample());
  this->WriteText(this->File, this->Bytes(this->File) + "xxxxxxxx");
  this->ExpectRefused(Reason::Corrupt, "after the model");
}

TEST_F(ModelCacheFile, WrongMagicIsRefused)
{
  WriteModelCache(this->File, this->Sample());
  std::string bytes = this->Bytes(this->File);
  bytes[0] = 'X';
  this->WriteText(this->File, bytes);
  this->ExpectRefused(Reason::BadMagic, "magic");
  this->WriteText(this->File, "%EventDef PajeDefineContainerType 0\n");
  this->ExpectRefused(Reason::BadMagic, "not a Macroscope model cache");
}

TEST_F(ModelCacheFile, OtherVersionIsRefused)
{
  WriteModelCache(this->File, this->Sample());
  std::string bytes = this->Bytes(this->File);
  const uint32_t version = macroscope::ModelCacheVersion + 1;
  std::memcpy(&bytes[8], &version, sizeof(version));
  this->WriteText(this->File, bytes);
  this->ExpectRefused(Reason::BadVersion, "version " + std::to_string(version));
}

TEST_F(ModelCacheFile, FlippedPayloadByteFailsTheChecksum)
{
  WriteModelCache(this->File, this->Sample());
  std::string bytes = this->Bytes(this->File);
  bytes[bytes.size() - 3] ^= 0x10;
  this->WriteText(this->File, bytes);
  this->ExpectRefused(Reason::Corrupt, "checksum");
}

TEST_F(ModelCacheFile, ImpossibleHeaderIsCorrupt)
{
  WriteModelCache(this->File, this->Sample());
  std::string bytes = this->Bytes(this->File);
  const int32_t slices = 8; // one more slice than the payload holds
  std::memcpy(&bytes[56], &slices, sizeof(slices));
  this->WriteText(this->File, bytes);
  this->ExpectRefused(Reason::Corrupt, "payload bytes");
}

TEST_F(ModelCacheFile, ChangedTraceOrParametersMakeItStale)
{
  const CachedModel written = this->Sample();
  WriteModelCache(this->File, written);
  ModelCacheKey expected = written.Key;
  EXPECT_NO_THROW(LoadModelCache(this->File, expected));

  auto expectStale = [this](const ModelCacheKey& key, const std::string& words)
  {
    try
    {
      LoadModelCache(this->File, key);
      ADD_FAILURE() << "not stale: " << words;
    }
    catch (const ModelCacheError& e)
    {
      EXPECT_EQ(e.Why(), Reason::Stale) << e.what();
      EXPECT_NE(std::string(e.what()).find(this->File), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  // The trace rewritten with other content: its identity changes size.
  this->WriteText(this->Trace, "%EventDef PajeDefineContainerType 0\n% Alias string\n");
  ModelCacheKey rewritten = expected;
  rewritten.Trace = IdentifyTrace(this->Trace, "defs-digest-1");
  expectStale(rewritten, "size was 36, now 51");
  ModelCacheKey key = expected;
  key.Trace.ModifiedNs += 1;
  expectStale(key, "modification time");
  key = expected;
  key.Trace.Digest = "defs-digest-2";
  expectStale(key, "digest");
  key = expected;
  key.Trace.Path += ".other";
  expectStale(key, "the trace was");
  key = expected;
  key.Metric = SliceMetric::EventCount;
  expectStale(key, "metric was states, now events");
  key = expected;
  key.Depth = -1;
  expectStale(key, "Depth was 2, now -1");
  key = expected;
  key.Normalize = true;
  expectStale(key, "Normalize");
  key = expected;
  key.Resources = 4;
  expectStale(key, "resource count was 3, now 4");
  key = expected;
  key.Types = 1;
  expectStale(key, "type count was 2, now 1");
}

TEST_F(ModelCacheFile, IdentityFollowsTheFile)
{
  const auto a = IdentifyTrace(this->Trace);
  EXPECT_EQ(a.Size, fs::file_size(this->Trace));
  EXPECT_TRUE(fs::path(a.Path).is_absolute());
  this->WriteText(this->Trace, "something longer than before, surely\n");
  const auto b = IdentifyTrace(this->Trace);
  EXPECT_EQ(b.Size, 37u);
  EXPECT_FALSE(a == b);
  try
  {
    IdentifyTrace((this->Directory / "absent.otf2").string());
    FAIL() << "no error";
  }
  catch (const ModelCacheError& e)
  {
    EXPECT_EQ(e.Why(), Reason::Unreadable);
    EXPECT_NE(std::string(e.what()).find("absent.otf2"), std::string::npos);
  }
}

TEST_F(ModelCacheFile, BadModelIsNotWritten)
{
  CachedModel cached = this->Sample();
  cached.Model.Values.pop_back();
  EXPECT_THROW(WriteModelCache(this->File, cached), std::invalid_argument);
  EXPECT_FALSE(fs::exists(this->File));
  try
  {
    WriteModelCache((this->Directory / "no-such-dir" / "x.mcache").string(), this->Sample());
    FAIL() << "no error";
  }
  catch (const ModelCacheError& e)
  {
    EXPECT_EQ(e.Why(), Reason::Unwritable);
    EXPECT_NE(std::string(e.what()).find("x.mcache"), std::string::npos);
  }
}

TEST(ModelCachePath, BesideTheTraceOrInADirectory)
{
  EXPECT_EQ(ModelCachePath("/data/run/traces.otf2", "", SliceMetric::StateDuration, false, -1),
    "/data/run/traces.otf2.states-exclusive.mcache");
  EXPECT_EQ(ModelCachePath("/data/run/traces.otf2", "", SliceMetric::StateDuration, true, 1),
    "/data/run/traces.otf2.states-depth1-normalized.mcache");
  EXPECT_EQ(ModelCachePath("/data/x.paje", "", SliceMetric::EventCount, false, -1),
    "/data/x.paje.events.mcache");
  const std::string a =
    ModelCachePath("/a/traces.otf2", "/cache", SliceMetric::EventCount, false, -1);
  const std::string b =
    ModelCachePath("/b/traces.otf2", "/cache", SliceMetric::EventCount, false, -1);
  EXPECT_EQ(a.rfind("/cache/traces.otf2-", 0), 0u) << a;
  EXPECT_NE(a, b); // same file name, different directories
}
}
