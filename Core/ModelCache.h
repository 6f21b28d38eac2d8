// Ocelotl's model cache (Dosimont et al. 2015 (Ocelotl) §4.2.1): a high-resolution
// microscopic model saved in a binary file the first time a trace is sliced,
// so that later analyses with fewer slices or a zoom window rebuild their
// model from it (RebinModel) instead of reading the trace again.
//
// The file holds the model (MicroscopicModel layout, float64) and what it was
// built from: the trace's identity (path, size, modification time, a digest
// the caller chooses) and the slicing parameters. A cache whose identity or
// parameters differ from the current ones is stale and must be rebuilt.
// Format and rebinning: docs/model-cache.md.
#pragma once

#include "TimeSlicing.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace macroscope
{

/// Version written in (and required of) every cache file.
constexpr uint32_t ModelCacheVersion = 1;

/// What identifies a trace: a cache built from another trace, or from this
/// one before it changed, is stale.
struct TraceIdentity
{
  std::string Path;       ///< absolute path of the trace file (OTF2 anchor, .paje)
  uint64_t Size = 0;      ///< bytes
  int64_t ModifiedNs = 0; ///< modification time, ns since the epoch
  /// Opaque content digest (a reader's definitions digest, a content hash...);
  /// compared byte for byte, may be empty. At most 65535 bytes.
  std::string Digest;

  bool operator==(const TraceIdentity& other) const;
};

/// The identity of the file at `path` (its absolute path, size and
/// modification time) with the given digest. Throws ModelCacheError
/// (Unreadable) when the file cannot be examined.
TraceIdentity IdentifyTrace(const std::string& path, const std::string& digest = {});

/// What a cached model must match to be used: the trace and the slicing
/// parameters that change the values (the grid does not: any window inside
/// the cached one is rebuilt by RebinModel).
struct ModelCacheKey
{
  TraceIdentity Trace;
  SliceMetric Metric = SliceMetric::StateDuration;
  bool Normalize = false;
  int Depth = -1;
  uint32_t Resources = 0; ///< rows of the model (the leaves, for a leaf-level cache)
  uint32_t Types = 0;     ///< planes of the model
};

struct CachedModel
{
  ModelCacheKey Key;
  MicroscopicModel Model; ///< its Resources and Types equal the key's
};

/// Why a cache file cannot be used. what() names the file and the problem.
class ModelCacheError : public std::runtime_error
{
public:
  enum class Reason
  {
    Unreadable, ///< missing or unreadable file
    Unwritable, ///< the cache (or its temporary file) cannot be written
    BadMagic,   ///< not a Macroscope model cache
    BadVersion, ///< written by another format version
    Truncated,  ///< shorter than its header says
    Corrupt,    ///< inconsistent header, trailing bytes or checksum mismatch
    Stale       ///< built from another trace or with other parameters
  };

  ModelCacheError(Reason reason, const std::string& file, const std::string& problem);

  Reason Why() const { return this->WhyValue; }
  const std::string& File() const { return this->FileValue; }

private:
  Reason WhyValue;
  std::string FileValue;
};

/// Writes the model and its key to `path` atomically (a temporary file beside
/// it, then a rename), so that readers never see half a cache. Throws
/// std::invalid_argument when the model's size disagrees with its grid and
/// key, ModelCacheError (Unwritable) on I/O errors.
void WriteModelCache(const std::string& path, const CachedModel& cached);

/// Reads the key and grid only (Model.Values stays empty): cheap enough to
/// decide whether the cache can be used before loading it.
CachedModel ReadModelCacheHeader(const std::string& path);

/// Reads the whole cache, checking its magic, version, size and checksum.
CachedModel ReadModelCache(const std::string& path);

/// Throws ModelCacheError (Stale) naming the first difference between the
/// cached key and the expected one (trace path, size, modification time,
/// digest, metric, normalisation, depth, resources, types).
void CheckModelCacheKey(
  const std::string& file, const ModelCacheKey& cached, const ModelCacheKey& expected);

/// ReadModelCacheHeader, CheckModelCacheKey, then ReadModelCache: the
/// payload is read only when the key matches.
CachedModel LoadModelCache(const std::string& path, const ModelCacheKey& expected);

/// Where the cache of a model lives: beside the trace (`cacheDirectory`
/// empty) as "<trace>.<metric tag>.mcache", or in `cacheDirectory` under a
/// name made of the trace's file name, a hash of its absolute path and the
/// metric tag. The tag encodes metric, normalisation and depth, so that
/// models of different parameters keep separate caches.
std::string ModelCachePath(const std::string& tracePath, const std::string& cacheDirectory,
  SliceMetric metric, bool normalize, int depth);

/// True when the metric's values add up over time (durations, counts), false
/// for per-second values (rates, means, normalised durations).
bool IsExtensiveMetric(SliceMetric metric, bool normalize);

struct RebinResult
{
  MicroscopicModel Model;
  /// Fine slices cut by a border of the new grid (its slice borders, window
  /// ends included), ascending: their values were shared by overlap.
  std::vector<int> DirtySlices;
};

/// Builds the model of `target` (n regular slices over [a, b], inside the
/// fine model's window) from a finer model: a new slice sums the fine slices
/// it contains (Dosimont et al. 2015 (Ocelotl) eq. 6); a fine slice cut by a new border gives each
/// new slice the share of its value proportional to their overlap (eqs.
/// 7-8). `extensive` values are summed as they are; others (per-second) are
/// weighted by fine width / new width. A new border within 1e-9 fine slice
/// of a fine border is taken as that border (rounding of the two grids).
/// Throws std::invalid_argument when the target grid is invalid or leaves
/// the fine model's window.
RebinResult RebinModel(const MicroscopicModel& fine, const SliceGrid& target, bool extensive);

/// Folds the rows of a leaf-level model (resource = leaf) into resources:
/// row r of the result sums the leaves l with resourceOfLeaf[l] == r
/// (NoResource: left out), which is what SliceTrace() does with the same
/// ResourceOfLeaf for every metric. Throws std::invalid_argument when
/// resourceOfLeaf does not have one entry per row or names a resource out
/// of range.
MicroscopicModel GroupResources(
  const MicroscopicModel& leaves, const std::vector<uint32_t>& resourceOfLeaf, uint32_t resources);

/// A short printable digest of `text` (its length, CRC-32 and Adler-32), to
/// put a reader's definitions in a TraceIdentity without storing them.
std::string ContentDigest(const std::string& text);

}
