#include "ModelCache.h"

#include "ResourceHierarchy.h" // NoResource

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the model cache is written in the host's byte order, assumed little-endian"
#endif

namespace macroscope
{
namespace fs = std::filesystem;

namespace
{
// Layout (docs/model-cache.md): a fixed part, the path and digest bytes, zero
// padding to a multiple of 8, then the float64 payload.
constexpr char Magic[8] = { 'M', 'C', 'R', 'S', 'C', 'M', 'D', 'L' };
constexpr std::size_t PrefixBytes = 16; // magic, version, header bytes
constexpr std::size_t FixedBytes = 92;

std::string ReasonPrefix(const std::string& file)
{
  return "model cache '" + file + "': ";
}

// CRC-32 of the payload (zlib), in pieces that fit its length type.
uint32_t Checksum(const void* data, std::size_t bytes)
{
  uLong crc = crc32_z(0L, Z_NULL, 0);
  return static_cast<uint32_t>(crc32_z(crc, static_cast<const Bytef*>(data), bytes));
}

template <typename T>
void Put(std::string& out, std::size_t offset, T value)
{
  std::memcpy(&out[offset], &value, sizeof(T));
}

template <typename T>
T Get(const std::string& in, std::size_t offset)
{
  T value;
  std::memcpy(&value, &in[offset], sizeof(T));
  return value;
}

std::size_t Cells(const SliceGrid& grid, uint32_t resources, uint32_t types)
{
  return std::size_t(grid.Slices) * resources * types;
}

std::string ValueString(double v)
{
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

// Reads `bytes` at `offset` of an open stream; false when the file ends first.
bool ReadAt(std::ifstream& in, std::size_t offset, void* into, std::size_t bytes)
{
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(static_cast<char*>(into), static_cast<std::streamsize>(bytes));
  return static_cast<std::size_t>(in.gcount()) == bytes;
}

struct Header
{
  CachedModel Cached; // Values empty
  std::size_t HeaderBytes = 0;
  uint64_t PayloadBytes = 0;
  uint32_t Crc = 0;
  uint64_t FileBytes = 0;
};

Header ParseHeader(const std::string& path, std::ifstream& in)
{
  const std::string where = ReasonPrefix(path);
  using R = ModelCacheError::Reason;
  std::error_code error;
  Header h;
  h.FileBytes = fs::file_size(path, error);
  if (error)
  {
    throw ModelCacheError(R::Unreadable, path, where + "cannot read its size: " + error.message());
  }
  std::string prefix(PrefixBytes, '\0');
  const bool whole = ReadAt(in, 0, &prefix[0], PrefixBytes);
  const std::size_t got = whole ? PrefixBytes : static_cast<std::size_t>(in.gcount());
  if (std::memcmp(prefix.data(), Magic, std::min(got, sizeof(Magic))) != 0)
  {
    throw ModelCacheError(R::BadMagic, path, where + "not a Macroscope model cache (wrong magic)");
  }
  if (!whole)
  {
    throw ModelCacheError(
      R::Truncated, path, where + "truncated: " + std::to_string(got) + " bytes, no header");
  }
  const uint32_t version = Get<uint32_t>(prefix, 8);
  if (version != ModelCacheVersion)
  {
    throw ModelCacheError(R::BadVersion, path,
      where + "format version " + std::to_string(version) + ", this build reads version " +
        std::to_string(ModelCacheVersion));
  }
  h.HeaderBytes = Get<uint32_t>(prefix, 12);
  if (h.HeaderBytes < FixedBytes || h.HeaderBytes % 8 != 0)
  {
    throw ModelCacheError(R::Corrupt, path,
      where + "corrupt: header size " + std::to_string(h.HeaderBytes) + " is impossible");
  }
  if (h.HeaderBytes > h.FileBytes)
  {
    throw ModelCacheError(R::Truncated, path,
      where + "truncated: " + std::to_string(h.FileBytes) + " bytes, shorter than its " +
        std::to_string(h.HeaderBytes) + "-byte header");
  }
  std::string header(h.HeaderBytes, '\0');
  if (!ReadAt(in, 0, &header[0], h.HeaderBytes))
  {
    throw ModelCacheError(R::Unreadable, path, where + "cannot read its header");
  }
  h.PayloadBytes = Get<uint64_t>(header, 16);
  h.Crc = Get<uint32_t>(header, 24);
  ModelCacheKey& key = h.Cached.Key;
  MicroscopicModel& model = h.Cached.Model;
  const uint32_t metric = Get<uint32_t>(header, 28);
  key.Depth = Get<int32_t>(header, 32);
  key.Normalize = Get<uint32_t>(header, 36) != 0;
  model.Grid.Begin = Get<double>(header, 40);
  model.Grid.End = Get<double>(header, 48);
  model.Grid.Slices = Get<int32_t>(header, 56);
  key.Resources = model.Resources = Get<uint32_t>(header, 60);
  key.Types = model.Types = Get<uint32_t>(header, 64);
  const uint32_t pathBytes = Get<uint32_t>(header, 68);
  key.Trace.Size = Get<uint64_t>(header, 72);
  key.Trace.ModifiedNs = Get<int64_t>(header, 80);
  const uint32_t digestBytes = Get<uint32_t>(header, 88);
  if (metric > static_cast<uint32_t>(SliceMetric::MessagesReceived) ||
    FixedBytes + std::size_t(pathBytes) + digestBytes > h.HeaderBytes)
  {
    throw ModelCacheError(R::Corrupt, path, where + "corrupt header (metric or string sizes)");
  }
  key.Metric = static_cast<SliceMetric>(metric);
  key.Trace.Path = header.substr(FixedBytes, pathBytes);
  key.Trace.Digest = header.substr(FixedBytes + pathBytes, digestBytes);
  try
  {
    model.Grid.Validate();
  }
  catch (const std::invalid_argument& e)
  {
    throw ModelCacheError(R::Corrupt, path, where + "corrupt grid: " + e.what());
  }
  const std::size_t cells = Cells(model.Grid, model.Resources, model.Types);
  if (h.PayloadBytes != cells * sizeof(double))
  {
    throw ModelCacheError(R::Corrupt, path,
      where + "corrupt: " + std::to_string(h.PayloadBytes) + " payload bytes for " +
        std::to_string(cells) + " values");
  }
  if (h.FileBytes < h.HeaderBytes + h.PayloadBytes)
  {
    throw ModelCacheError(R::Truncated, path,
      where + "truncated: " + std::to_string(h.FileBytes) + " bytes, expected " +
        std::to_string(h.HeaderBytes + h.PayloadBytes));
  }
  if (h.FileBytes > h.HeaderBytes + h.PayloadBytes)
  {
    throw ModelCacheError(R::Corrupt, path,
      where + "corrupt: " + std::to_string(h.FileBytes - h.HeaderBytes - h.PayloadBytes) +
        " bytes after the model");
  }
  return h;
}

std::ifstream Open(const std::string& path)
{
  std::ifstream in(path, std::ios::binary);
  if (!in)
  {
    throw ModelCacheError(ModelCacheError::Reason::Unreadable, path,
      ReasonPrefix(path) + "cannot open it: " + std::strerror(errno));
  }
  return in;
}

const char* MetricTag(SliceMetric metric)
{
  switch (metric)
  {
    case SliceMetric::StateDuration:
      return "states";
    case SliceMetric::EventCount:
      return "events";
    case SliceMetric::VariableMean:
      return "variables";
    case SliceMetric::BytesSentRate:
      return "bytes-sent";
    case SliceMetric::BytesReceivedRate:
      return "bytes-received";
    case SliceMetric::MessagesSent:
      return "messages-sent";
    case SliceMetric::MessagesReceived:
      return "messages-received";
  }
  return "unknown";
}
}

bool TraceIdentity::operator==(const TraceIdentity& other) const
{
  return this->Path == other.Path && this->Size == other.Size &&
    this->ModifiedNs == other.ModifiedNs && this->Digest == other.Digest;
}

ModelCacheError::ModelCacheError(Reason reason, const std::string& file, const std::string& problem)
  : std::runtime_error(problem)
  , WhyValue(reason)
  , FileValue(file)
{
}

TraceIdentity IdentifyTrace(const std::string& path, const std::string& digest)
{
  struct stat status;
  std::error_code error;
  TraceIdentity id;
  id.Path = fs::absolute(path, error).lexically_normal().string();
  if (error || ::stat(path.c_str(), &status) != 0)
  {
    const std::string reason = error ? error.message() : std::strerror(errno);
    throw ModelCacheError(ModelCacheError::Reason::Unreadable, path,
      "trace '" + path + "': cannot examine it: " + reason);
  }
  id.Size = static_cast<uint64_t>(status.st_size);
  id.ModifiedNs = int64_t(status.st_mtim.tv_sec) * 1000000000 + status.st_mtim.tv_nsec;
  id.Digest = digest;
  return id;
}

void WriteModelCache(const std::string& path, const CachedModel& cached)
{
  const ModelCacheKey& key = cached.Key;
  const MicroscopicModel& model = cached.Model;
  model.Grid.Validate();
  if (model.Resources != key.Resources || model.Types != key.Types ||
    model.Values.size() != Cells(model.Grid, model.Resources, model.Types))
  {
    throw std::invalid_argument(
      "model cache '" + path + "': the model's size disagrees with its grid, resources and types");
  }
  if (key.Trace.Path.size() > 65535 || key.Trace.Digest.size() > 65535)
  {
    throw std::invalid_argument(
      "model cache '" + path + "': trace path or digest longer than 65535 bytes");
  }
  const std::size_t strings = key.Trace.Path.size() + key.Trace.Digest.size();
  const std::size_t headerBytes = (FixedBytes + strings + 7) / 8 * 8;
  const uint64_t payloadBytes = model.Values.size() * sizeof(double);
  std::string header(headerBytes, '\0');
  std::memcpy(&header[0], Magic, sizeof(Magic));
  Put<uint32_t>(header, 8, ModelCacheVersion);
  Put<uint32_t>(header, 12, static_cast<uint32_t>(headerBytes));
  Put<uint64_t>(header, 16, payloadBytes);
  Put<uint32_t>(header, 24, Checksum(model.Values.data(), payloadBytes));
  Put<uint32_t>(header, 28, static_cast<uint32_t>(key.Metric));
  Put<int32_t>(header, 32, key.Depth);
  Put<uint32_t>(header, 36, key.Normalize ? 1u : 0u);
  Put<double>(header, 40, model.Grid.Begin);
  Put<double>(header, 48, model.Grid.End);
  Put<int32_t>(header, 56, model.Grid.Slices);
  Put<uint32_t>(header, 60, model.Resources);
  Put<uint32_t>(header, 64, model.Types);
  Put<uint32_t>(header, 68, static_cast<uint32_t>(key.Trace.Path.size()));
  Put<uint64_t>(header, 72, key.Trace.Size);
  Put<int64_t>(header, 80, key.Trace.ModifiedNs);
  Put<uint32_t>(header, 88, static_cast<uint32_t>(key.Trace.Digest.size()));
  std::memcpy(&header[FixedBytes], key.Trace.Path.data(), key.Trace.Path.size());
  std::memcpy(
    &header[FixedBytes + key.Trace.Path.size()], key.Trace.Digest.data(), key.Trace.Digest.size());

  // A unique temporary name beside the target, renamed over it once complete.
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (out)
    {
      out.write(header.data(), static_cast<std::streamsize>(header.size()));
      out.write(reinterpret_cast<const char*>(model.Values.data()),
        static_cast<std::streamsize>(payloadBytes));
      out.flush();
    }
    if (!out)
    {
      const std::string reason = std::strerror(errno);
      std::error_code ignored;
      fs::remove(temporary, ignored);
      throw ModelCacheError(ModelCacheError::Reason::Unwritable, path,
        ReasonPrefix(path) + "cannot write it: " + reason);
    }
  }
  std::error_code error;
  fs::rename(temporary, path, error);
  if (error)
  {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw ModelCacheError(ModelCacheError::Reason::Unwritable, path,
      ReasonPrefix(path) + "cannot move it in place: " + error.message());
  }
}

CachedModel ReadModelCacheHeader(const std::string& path)
{
  std::ifstream in = Open(path);
  return ParseHeader(path, in).Cached;
}

CachedModel ReadModelCache(const std::string& path)
{
  std::ifstream in = Open(path);
  Header h = ParseHeader(path, in);
  std::vector<double>& values = h.Cached.Model.Values;
  values.resize(h.PayloadBytes / sizeof(double));
  if (!ReadAt(in, h.HeaderBytes, values.data(), h.PayloadBytes))
  {
    throw ModelCacheError(ModelCacheError::Reason::Truncated, path,
      ReasonPrefix(path) + "truncated while reading the model");
  }
  if (Checksum(values.data(), h.PayloadBytes) != h.Crc)
  {
    throw ModelCacheError(ModelCacheError::Reason::Corrupt, path,
      ReasonPrefix(path) + "corrupt: the model's checksum does not match");
  }
  return std::move(h.Cached);
}

void CheckModelCacheKey(
  const std::string& file, const ModelCacheKey& cached, const ModelCacheKey& expected)
{
  auto stale = [&file](const std::string& what, const std::string& was, const std::string& is)
  {
    throw ModelCacheError(ModelCacheError::Reason::Stale, file,
      ReasonPrefix(file) + "stale: " + what + " was " + was + ", now " + is);
  };
  const TraceIdentity& a = cached.Trace;
  const TraceIdentity& b = expected.Trace;
  if (a.Path != b.Path)
  {
    stale("the trace", "'" + a.Path + "'", "'" + b.Path + "'");
  }
  if (a.Size != b.Size)
  {
    stale("the trace's size", std::to_string(a.Size), std::to_string(b.Size));
  }
  if (a.ModifiedNs != b.ModifiedNs)
  {
    stale("the trace's modification time (ns)", std::to_string(a.ModifiedNs),
      std::to_string(b.ModifiedNs));
  }
  if (a.Digest != b.Digest)
  {
    stale("the trace's digest", std::to_string(a.Digest.size()) + " bytes",
      "a different one of " + std::to_string(b.Digest.size()) + " bytes");
  }
  if (cached.Metric != expected.Metric)
  {
    stale("the metric", MetricTag(cached.Metric), MetricTag(expected.Metric));
  }
  if (cached.Normalize != expected.Normalize)
  {
    stale("Normalize", cached.Normalize ? "on" : "off", expected.Normalize ? "on" : "off");
  }
  if (cached.Depth != expected.Depth)
  {
    stale("Depth", std::to_string(cached.Depth), std::to_string(expected.Depth));
  }
  if (cached.Resources != expected.Resources)
  {
    stale(
      "the resource count", std::to_string(cached.Resources), std::to_string(expected.Resources));
  }
  if (cached.Types != expected.Types)
  {
    stale("the type count", std::to_string(cached.Types), std::to_string(expected.Types));
  }
}

CachedModel LoadModelCache(const std::string& path, const ModelCacheKey& expected)
{
  CheckModelCacheKey(path, ReadModelCacheHeader(path).Key, expected);
  return ReadModelCache(path);
}

std::string ModelCachePath(const std::string& tracePath, const std::string& cacheDirectory,
  SliceMetric metric, bool normalize, int depth)
{
  std::string tag = MetricTag(metric);
  if (metric == SliceMetric::StateDuration)
  {
    tag += depth < 0 ? "-exclusive" : "-depth" + std::to_string(depth);
    tag += normalize ? "-normalized" : "";
  }
  if (cacheDirectory.empty())
  {
    return tracePath + "." + tag + ".mcache";
  }
  std::error_code error;
  const std::string absolute = fs::absolute(tracePath, error).lexically_normal().string();
  const uint32_t crc = Checksum(absolute.data(), absolute.size());
  char hex[9];
  std::snprintf(hex, sizeof(hex), "%08x", crc);
  return (fs::path(cacheDirectory) /
    (fs::path(tracePath).filename().string() + "-" + hex + "." + tag + ".mcache"))
    .string();
}

bool IsExtensiveMetric(SliceMetric metric, bool normalize)
{
  switch (metric)
  {
    case SliceMetric::StateDuration:
      return !normalize;
    case SliceMetric::EventCount:
    case SliceMetric::MessagesSent:
    case SliceMetric::MessagesReceived:
      return true;
    case SliceMetric::VariableMean:
    case SliceMetric::BytesSentRate:
    case SliceMetric::BytesReceivedRate:
      return false;
  }
  return false;
}

RebinResult RebinModel(const MicroscopicModel& fine, const SliceGrid& target, bool extensive)
{
  fine.Grid.Validate();
  target.Validate();
  const int fineSlices = fine.Grid.Slices;
  const std::size_t rows = std::size_t(fine.Resources) * fine.Types;
  if (fine.Values.size() != rows * fineSlices)
  {
    throw std::invalid_argument("the fine model's size disagrees with its grid");
  }
  // Positions in fine-slice units; a border within the tolerance of a fine
  // border is that border, so that aligned grids give whole sums only.
  const double fineWidth = fine.Grid.Width();
  constexpr double tolerance = 1e-9;
  auto position = [&](double t)
  {
    const double x = (t - fine.Grid.Begin) / fineWidth;
    const double nearest = std::round(x);
    return std::abs(x - nearest) <= tolerance ? nearest : x;
  };
  const int slices = target.Slices;
  std::vector<double> border(std::size_t(slices) + 1);
  for (int j = 0; j < slices; ++j)
  {
    border[j] = position(target.SliceBegin(j));
  }
  border[slices] = position(target.End);
  if (border[0] < 0.0 || border[slices] > fineSlices)
  {
    throw std::invalid_argument("the window [" + ValueString(target.Begin) + ", " +
      ValueString(target.End) + "] leaves the cached model's [" + ValueString(fine.Grid.Begin) +
      ", " + ValueString(fine.Grid.End) + "]");
  }
  for (int j = 1; j <= slices; ++j)
  {
    border[j] = std::min<double>(fineSlices, std::max(border[j], border[j - 1]));
  }

  // The weights of each new slice: (fine slice, overlap in fine slices × scale).
  const double scale = extensive ? 1.0 : fineWidth / target.Width();
  std::vector<std::size_t> first(std::size_t(slices) + 1, 0);
  std::vector<int> source;
  std::vector<double> weight;
  for (int j = 0; j < slices; ++j)
  {
    first[j] = source.size();
    const double lo = border[j];
    const double hi = border[j + 1];
    const int begin = static_cast<int>(std::floor(lo));
    const int end = std::min(fineSlices, static_cast<int>(std::ceil(hi)));
    for (int f = begin; f < end; ++f)
    {
      const double overlap = std::min(hi, f + 1.0) - std::max(lo, double(f));
      if (overlap > 0.0)
      {
        source.push_back(f);
        weight.push_back(overlap * scale);
      }
    }
  }
  first[slices] = source.size();

  RebinResult result;
  for (double x : border)
  {
    const double whole = std::floor(x);
    const int f = static_cast<int>(whole);
    if (x != whole && f < fineSlices &&
      (result.DirtySlices.empty() || result.DirtySlices.back() != f))
    {
      result.DirtySlices.push_back(f);
    }
  }

  MicroscopicModel& model = result.Model;
  model.Grid = target;
  model.Resources = fine.Resources;
  model.Types = fine.Types;
  model.Values.assign(rows * slices, 0.0);
  for (std::size_t row = 0; row < rows; ++row)
  {
    const double* in = &fine.Values[row * fineSlices];
    double* out = &model.Values[row * slices];
    for (int j = 0; j < slices; ++j)
    {
      double sum = 0.0;
      for (std::size_t k = first[j]; k < first[j + 1]; ++k)
      {
        sum += in[source[k]] * weight[k];
      }
      out[j] = sum;
    }
  }
  return result;
}

MicroscopicModel GroupResources(
  const MicroscopicModel& leaves, const std::vector<uint32_t>& resourceOfLeaf, uint32_t resources)
{
  if (resourceOfLeaf.size() != leaves.Resources)
  {
    throw std::invalid_argument("GroupResources: " + std::to_string(resourceOfLeaf.size()) +
      " leaf entries for a model of " + std::to_string(leaves.Resources) + " rows");
  }
  MicroscopicModel grouped;
  grouped.Grid = leaves.Grid;
  grouped.Resources = resources;
  grouped.Types = leaves.Types;
  const std::size_t slices = static_cast<std::size_t>(leaves.Grid.Slices);
  grouped.Values.assign(slices * resources * leaves.Types, 0.0);
  for (uint32_t leaf = 0; leaf < leaves.Resources; ++leaf)
  {
    const uint32_t resource = resourceOfLeaf[leaf];
    if (resource == NoResource)
    {
      continue;
    }
    if (resource >= resources)
    {
      throw std::invalid_argument("GroupResources: leaf " + std::to_string(leaf) +
        " maps to resource " + std::to_string(resource) + " of " + std::to_string(resources));
    }
    for (uint32_t type = 0; type < leaves.Types; ++type)
    {
      const double* from =
        leaves.Values.data() + slices * (leaf + std::size_t(leaves.Resources) * type);
      double* to = &grouped.At(resource, 0, type);
      for (std::size_t slice = 0; slice < slices; ++slice)
      {
        to[slice] += from[slice];
      }
    }
  }
  return grouped;
}

std::string ContentDigest(const std::string& text)
{
  const auto* bytes = reinterpret_cast<const Bytef*>(text.data());
  uLong crc = crc32(0L, Z_NULL, 0);
  uLong adler = adler32(0L, Z_NULL, 0);
  // zlib takes lengths as uInt: feed the text in chunks.
  for (std::size_t offset = 0; offset < text.size();)
  {
    const uInt chunk = static_cast<uInt>(std::min<std::size_t>(text.size() - offset, 1u << 30));
    crc = crc32(crc, bytes + offset, chunk);
    adler = adler32(adler, bytes + offset, chunk);
    offset += chunk;
  }
  char digest[64];
  std::snprintf(digest, sizeof(digest), "%zu-%08lx-%08lx", text.size(), crc, adler);
  return digest;
}

}
