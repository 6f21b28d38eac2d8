// Where a request's model comes from (Core/ModelCachePolicy.h): a
// missing, valid, stale or too short cache, Exact and the shared slices,
// the models one read fills and the request rebuilt from the fine one.
#include "ModelCachePolicy.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace macroscope;
namespace fs = std::filesystem;

namespace
{
class ModelCachePolicy : public ::testing::Test
{
protected:
  void SetUp() override
  {
    this->Directory = fs::temp_directory_path() /
      ("macroscope-cache-policy-" + std::to_string(::getpid()) + "-" +
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(this->Directory);
    fs::create_directories(this->Directory);
    const std::string trace = (this->Directory / "run.paje").string();
    std::ofstream(trace) << "%EventDef PajeDefineContainerType 0\n";
    this->File = (this->Directory / "run.mcache").string();

    // The request: 4 leaves in 2 resources, 5 slices over [0, 10] s.
    this->Asked.Grid = { 0.0, 10.0, 5 };
    this->Asked.Leaves = 4;
    this->Asked.ResourceOfLeaf = { 0, 0, 1, 1 };
    this->Asked.Resources = 2;
    this->Asked.Types = 1;
    this->Fine = FineModelOptions(this->Asked, 10.0, 10);
    this->Key.Trace = IdentifyTrace(trace, "digest");
    this->Key.Resources = 4;
    this->Key.Types = 1;
  }
  void TearDown() override { fs::remove_all(this->Directory); }

  // The fine model: 1 s of state per leaf and fine slice.
  MicroscopicModel FineModel() const
  {
    MicroscopicModel model;
    model.Grid = this->Fine.Grid;
    model.Resources = 4;
    model.Types = 1;
    model.Values.assign(40, 1.0);
    return model;
  }

  void WriteCache() const { WriteModelCache(this->File, { this->Key, this->FineModel() }); }

  fs::path Directory;
  std::string File;
  TimeSlicingOptions Asked;
  TimeSlicingOptions Fine;
  ModelCacheKey Key;
};
}

TEST_F(ModelCachePolicy, FineModelKeepsEveryLeaf)
{
  EXPECT_EQ(this->Fine.Resources, 4u);
  EXPECT_TRUE(this->Fine.ResourceOfLeaf.empty());
  EXPECT_EQ(this->Fine.Grid.Slices, 10);
  EXPECT_EQ(this->Fine.Grid.Begin, 0.0);
  EXPECT_EQ(this->Fine.Grid.End, 10.0);
}

TEST_F(ModelCachePolicy, MissingCacheIsReadQuietly)
{
  const CacheLookup lookup = LookUpModelCache(this->File, this->Key, this->Asked, true, false);
  EXPECT_EQ(lookup.Source, ModelSource::ReadAndCache);
  EXPECT_TRUE(lookup.Warning.empty());
}

TEST_F(ModelCachePolicy, ValidCacheRebuildsTheRequest)
{
  this->WriteCache();
  const CacheLookup lookup = LookUpModelCache(this->File, this->Key, this->Asked, true, false);
  ASSERT_EQ(lookup.Source, ModelSource::FromCache);
  EXPECT_EQ(lookup.DirtySlices, 0);
  ASSERT_EQ(lookup.Model.Resources, 2u);
  ASSERT_EQ(lookup.Model.Grid.Slices, 5);
  for (double value : lookup.Model.Values)
  {
    EXPECT_DOUBLE_EQ(value, 4.0); // 2 leaves × 2 fine slices of 1 s
  }
}

TEST_F(ModelCachePolicy, ExactReadsRatherThanShareCutSlices)
{
  this->WriteCache();
  this->Asked.Grid = { 0.0, 10.0, 3 }; // borders at 3.33 and 6.67 cut fine slices
  const CacheLookup shared = LookUpModelCache(this->File, this->Key, this->Asked, true, false);
  EXPECT_EQ(shared.Source, ModelSource::FromCache);
  EXPECT_EQ(shared.DirtySlices, 2);
  const CacheLookup exact = LookUpModelCache(this->File, this->Key, this->Asked, true, true);
  EXPECT_EQ(exact.Source, ModelSource::ReadExact);
  EXPECT_EQ(exact.DirtySlices, 2);
  EXPECT_TRUE(exact.Model.Values.empty());
}

TEST_F(ModelCachePolicy, WindowBeyondTheCacheIsReadUncached)
{
  this->WriteCache();
  this->Asked.Grid = { 0.0, 20.0, 5 };
  const CacheLookup lookup = LookUpModelCache(this->File, this->Key, this->Asked, true, false);
  EXPECT_EQ(lookup.Source, ModelSource::ReadUncached);
  EXPECT_TRUE(lookup.Warning.empty());
}

TEST_F(ModelCachePolicy, StaleCacheIsRewrittenWithAWarning)
{
  this->WriteCache();
  ModelCacheKey other = this->Key;
  other.Metric = SliceMetric::EventCount;
  const CacheLookup lookup = LookUpModelCache(this->File, other, this->Asked, true, false);
  EXPECT_EQ(lookup.Source, ModelSource::ReadAndCache);
  EXPECT_NE(lookup.Warning.find(this->File), std::string::npos) << lookup.Warning;
}

TEST_F(ModelCachePolicy, OneReadFillsWhatTheSourceNeeds)
{
  const auto slices = [](const std::vector<TimeSlicingOptions>& wanted)
  {
    std::vector<int> out;
    for (const auto& options : wanted)
    {
      out.push_back(options.Grid.Slices);
    }
    return out;
  };
  EXPECT_EQ(slices(ModelsToRead(ModelSource::ReadAndCache, this->Fine, this->Asked, false)),
    (std::vector<int>{ 10 }));
  EXPECT_EQ(slices(ModelsToRead(ModelSource::ReadAndCache, this->Fine, this->Asked, true)),
    (std::vector<int>{ 10, 5 }));
  EXPECT_EQ(slices(ModelsToRead(ModelSource::ReadUncached, this->Fine, this->Asked, false)),
    (std::vector<int>{ 5 }));
  EXPECT_EQ(slices(ModelsToRead(ModelSource::ReadExact, this->Fine, this->Asked, true)),
    (std::vector<int>{ 5 }));
}

TEST_F(ModelCachePolicy, RequestRebuiltFromTheFineModelRead)
{
  this->Asked.Grid = { 0.0, 10.0, 3 };
  std::vector<MicroscopicModel> models{ this->FineModel() };
  int dirty = -1;
  const MicroscopicModel model =
    RequestFromRead(ModelSource::ReadAndCache, models, this->Asked, true, false, dirty);
  EXPECT_EQ(dirty, 2);
  ASSERT_EQ(model.Grid.Slices, 3);
  EXPECT_NEAR(model.At(0, 0, 0), 2.0 * 10.0 / 3.0, 1e-9); // two leaves over 3.33 s
  // Read for the request itself: taken as it is, dirty left alone.
  MicroscopicModel asked;
  asked.Values = { 7.0 };
  std::vector<MicroscopicModel> read{ this->FineModel(), asked };
  dirty = -1;
  EXPECT_EQ(RequestFromRead(ModelSource::ReadAndCache, read, this->Asked, true, true, dirty).Values,
    (std::vector<double>{ 7.0 }));
  EXPECT_EQ(dirty, -1);
}

TEST(ModelCachePolicyNames, OriginOfTheModel)
{
  EXPECT_STREQ(ModelOriginName(ModelSource::FromCache, false), "cache");
  EXPECT_STREQ(ModelOriginName(ModelSource::FromCache, true), "cache");
  EXPECT_STREQ(ModelOriginName(ModelSource::ReadAndCache, false), "new cache");
  EXPECT_STREQ(ModelOriginName(ModelSource::ReadAndCache, true), "trace");
  EXPECT_STREQ(ModelOriginName(ModelSource::ReadExact, true), "trace");
  EXPECT_STREQ(ModelOriginName(ModelSource::ReadUncached, false), "trace");
  EXPECT_TRUE(RebuiltFromFineModel(ModelSource::ReadAndCache, false));
  EXPECT_FALSE(RebuiltFromFineModel(ModelSource::ReadUncached, false));
}
