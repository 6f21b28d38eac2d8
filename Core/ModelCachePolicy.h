// Where the model of one request comes from when a fine model of the trace
// may be cached (Dosimont et al. 2015 (Ocelotl) §4.2): rebuilt from a valid
// cache, or read from the trace, saving the fine model on the way when no
// cache serves; Exact reads the request itself rather than share the
// values of the cached slices its borders cut. What the Streamed Time
// Slicing reader decides on rank 0 and every rank follows
// (docs/model-cache.md).
#pragma once

#include "ModelCache.h"
#include "TimeSlicing.h"

#include <string>
#include <vector>

namespace macroscope
{

enum class ModelSource : int
{
  FromCache = 0,    ///< rebuilt from a valid cache
  ReadAndCache = 1, ///< no valid cache: read, save the fine model, rebuild from it
  ReadExact = 2,    ///< Exact, and the cache would share cut slices: read the request
  ReadUncached = 3  ///< no cache wanted, or a window beyond the cached one
};

/// The fine model a cache keeps for the request `asked`: every leaf (no
/// grouping into resources), `cacheSlices` slices over [0, traceEnd].
TimeSlicingOptions FineModelOptions(
  const TimeSlicingOptions& asked, double traceEnd, int cacheSlices);

struct CacheLookup
{
  ModelSource Source = ModelSource::ReadAndCache;
  /// Cached slices the request's borders cut (their values shared by
  /// overlap), when rebuilt from the cache or found so for Exact.
  int DirtySlices = 0;
  /// The request's model, for FromCache.
  MicroscopicModel Model;
  /// Why an existing cache was refused; empty for a missing cache (the
  /// first read) or a usable one.
  std::string Warning;
};

/// Looks at the cache `path` of key `key` for the request `asked`
/// (`extensive`: IsExtensiveMetric of its metric); `exact` prefers a read
/// to shared slices.
CacheLookup LookUpModelCache(const std::string& path, const ModelCacheKey& key,
  const TimeSlicingOptions& asked, bool extensive, bool exact);

/// The models one read of the trace fills for `source` (not FromCache):
/// the fine model to cache, then the request itself unless it is rebuilt
/// from the fine one.
std::vector<TimeSlicingOptions> ModelsToRead(
  ModelSource source, const TimeSlicingOptions& fine, const TimeSlicingOptions& asked, bool exact);

/// The request's model from the models ModelsToRead named, filled (they
/// are moved from); `dirty` gets the cut slices when rebuilt from the fine
/// model, else is left as it is.
MicroscopicModel RequestFromRead(ModelSource source, std::vector<MicroscopicModel>& models,
  const TimeSlicingOptions& asked, bool extensive, bool exact, int& dirty);

/// Whether the request was rebuilt from a fine model (the cache, or the
/// one just read to be cached): its DirtySlices then mean something.
bool RebuiltFromFineModel(ModelSource source, bool exact);

/// Where the model came from, for ModelOrigin: "cache", "new cache" or
/// "trace".
const char* ModelOriginName(ModelSource source, bool exact);

}
