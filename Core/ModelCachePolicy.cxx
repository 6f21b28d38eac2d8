#include "ModelCachePolicy.h"

#include <filesystem>
#include <stdexcept>
#include <utility>

namespace macroscope
{

TimeSlicingOptions FineModelOptions(
  const TimeSlicingOptions& asked, double traceEnd, int cacheSlices)
{
  TimeSlicingOptions fine = asked;
  fine.Grid = { 0.0, traceEnd, cacheSlices };
  fine.ResourceOfLeaf.clear(); // resource = leaf
  fine.Resources = fine.Leaves;
  return fine;
}

CacheLookup LookUpModelCache(const std::string& path, const ModelCacheKey& key,
  const TimeSlicingOptions& asked, bool extensive, bool exact)
{
  CacheLookup lookup;
  try
  {
    const CachedModel cached = LoadModelCache(path, key);
    try
    {
      RebinResult rebinned = RebinModel(cached.Model, asked.Grid, extensive);
      lookup.DirtySlices = static_cast<int>(rebinned.DirtySlices.size());
      if (exact && lookup.DirtySlices > 0)
      {
        lookup.Source = ModelSource::ReadExact;
      }
      else
      {
        lookup.Model = GroupResources(rebinned.Model, asked.ResourceOfLeaf, asked.Resources);
        lookup.Source = ModelSource::FromCache;
      }
    }
    catch (const std::invalid_argument&)
    {
      lookup.Source = ModelSource::ReadUncached; // a window the cache does not cover
    }
  }
  catch (const ModelCacheError& error)
  {
    // A missing cache is the first read; any other refusal is worth a word.
    if (error.Why() != ModelCacheError::Reason::Unreadable || std::filesystem::exists(path))
    {
      lookup.Warning = error.what();
    }
  }
  return lookup;
}

std::vector<TimeSlicingOptions> ModelsToRead(
  ModelSource source, const TimeSlicingOptions& fine, const TimeSlicingOptions& asked, bool exact)
{
  std::vector<TimeSlicingOptions> wanted;
  if (source == ModelSource::ReadAndCache)
  {
    wanted.push_back(fine);
  }
  if (source != ModelSource::ReadAndCache || exact)
  {
    wanted.push_back(asked);
  }
  return wanted;
}

MicroscopicModel RequestFromRead(ModelSource source, std::vector<MicroscopicModel>& models,
  const TimeSlicingOptions& asked, bool extensive, bool exact, int& dirty)
{
  if (source != ModelSource::ReadAndCache || exact)
  {
    return std::move(models.back());
  }
  RebinResult rebinned = RebinModel(models.front(), asked.Grid, extensive);
  dirty = static_cast<int>(rebinned.DirtySlices.size());
  return GroupResources(rebinned.Model, asked.ResourceOfLeaf, asked.Resources);
}

bool RebuiltFromFineModel(ModelSource source, bool exact)
{
  return source == ModelSource::FromCache || (source == ModelSource::ReadAndCache && !exact);
}

const char* ModelOriginName(ModelSource source, bool exact)
{
  return source == ModelSource::FromCache ? "cache"
    : RebuiltFromFineModel(source, exact) ? "new cache"
                                          : "trace";
}

}
