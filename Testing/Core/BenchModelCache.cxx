// Benchmark of the model cache (Core/ModelCache.h): writes a model
// of S slices × L leaves × T types, then loads it back (LoadModelCache: key
// check, one read, CRC-32) against a baseline measured in the same run, a
// bare read of the same file's bytes into memory. Both are timed with the
// file in the page cache (warm) and after evicting it (cold,
// posix_fadvise DONTNEED: only this file's pages). Then rebins the loaded
// model to 100 slices (aligned) and to 137 slices over a zoom (dirty).
//
// Usage: macroscope-model-cache-bench [--slices S] [--leaves L] [--types T]
//          [--repeat R] [--file PATH]
// Prints key: value lines; exits 1 if the loaded model differs.
#include "ModelCache.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

using namespace macroscope;

namespace
{
double Seconds(std::chrono::steady_clock::time_point since)
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

void Evict(const std::string& path)
{
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd >= 0)
  {
    ::fdatasync(fd);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
  }
}

// The baseline: every byte of the file into memory, one read.
std::size_t RawRead(const std::string& path, std::vector<char>& buffer)
{
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  const std::size_t bytes = static_cast<std::size_t>(in.tellg());
  buffer.resize(bytes);
  in.seekg(0);
  in.read(buffer.data(), static_cast<std::streamsize>(bytes));
  return static_cast<std::size_t>(in.gcount());
}
}

int main(int argc, char** argv)
{
  int slices = 1000;
  uint32_t leaves = 1000;
  uint32_t types = 20;
  int repeat = 3;
  std::string file = "/tmp/macroscope-model-cache-bench-" + std::to_string(::getpid()) + ".mcache";
  for (int i = 1; i + 1 < argc; i += 2)
  {
    const std::string option = argv[i];
    const char* value = argv[i + 1];
    if (option == "--slices")
      slices = std::atoi(value);
    else if (option == "--leaves")
      leaves = static_cast<uint32_t>(std::atoi(value));
    else if (option == "--types")
      types = static_cast<uint32_t>(std::atoi(value));
    else if (option == "--repeat")
      repeat = std::max(1, std::atoi(value));
    else if (option == "--file")
      file = value;
    else
    {
      std::fprintf(stderr, "unknown option %s\n", option.c_str());
      return 2;
    }
  }

  CachedModel cached;
  cached.Key.Trace.Path = "/bench/traces.otf2";
  cached.Key.Trace.Size = 123456789;
  cached.Key.Trace.ModifiedNs = 1700000000000000000;
  cached.Key.Trace.Digest = "bench-digest";
  cached.Key.Resources = cached.Model.Resources = leaves;
  cached.Key.Types = cached.Model.Types = types;
  cached.Model.Grid.Begin = 0.0;
  cached.Model.Grid.End = 100.0;
  cached.Model.Grid.Slices = slices;
  cached.Model.Values.resize(std::size_t(slices) * leaves * types);
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> value(0.0, 0.1);
  for (double& v : cached.Model.Values)
  {
    v = value(rng);
  }

  auto start = std::chrono::steady_clock::now();
  WriteModelCache(file, cached);
  const double write = Seconds(start);

  std::vector<char> buffer;
  double raw[2] = { 1e30, 1e30 };
  double load[2] = { 1e30, 1e30 };
  CachedModel loaded;
  for (int cold = 0; cold < 2; ++cold)
  {
    for (int r = 0; r < repeat; ++r)
    {
      if (cold)
        Evict(file);
      start = std::chrono::steady_clock::now();
      const std::size_t got = RawRead(file, buffer);
      raw[cold] = std::min(raw[cold], Seconds(start));
      if (got != buffer.size())
      {
        std::fprintf(stderr, "short read of %s\n", file.c_str());
        return 1;
      }
      if (cold)
        Evict(file);
      loaded = CachedModel();
      start = std::chrono::steady_clock::now();
      loaded = LoadModelCache(file, cached.Key);
      load[cold] = std::min(load[cold], Seconds(start));
    }
  }
  if (loaded.Model.Values.size() != cached.Model.Values.size() ||
    std::memcmp(loaded.Model.Values.data(), cached.Model.Values.data(),
      cached.Model.Values.size() * sizeof(double)) != 0)
  {
    std::fprintf(stderr, "the loaded model differs from the written one\n");
    return 1;
  }

  SliceGrid aligned;
  aligned.Begin = 0.0;
  aligned.End = 100.0;
  aligned.Slices = 100;
  SliceGrid zoom;
  zoom.Begin = 12.345;
  zoom.End = 87.65;
  zoom.Slices = 137;
  double rebinAligned = 1e30, rebinDirty = 1e30;
  std::size_t dirty = 0;
  for (int r = 0; r < repeat; ++r)
  {
    start = std::chrono::steady_clock::now();
    RebinResult a = RebinModel(loaded.Model, aligned, true);
    rebinAligned = std::min(rebinAligned, Seconds(start));
    start = std::chrono::steady_clock::now();
    RebinResult d = RebinModel(loaded.Model, zoom, true);
    rebinDirty = std::min(rebinDirty, Seconds(start));
    dirty = d.DirtySlices.size();
    if (!a.DirtySlices.empty())
    {
      std::fprintf(stderr, "an aligned rebinning reported dirty slices\n");
      return 1;
    }
  }
  std::remove(file.c_str());

  std::printf("model: %d slices x %u leaves x %u types (%.1f MB)\n", slices, leaves, types,
    double(buffer.size()) / 1e6);
  std::printf("write_s: %.4f\n", write);
  std::printf("raw_read_warm_s: %.4f\n", raw[0]);
  std::printf("load_warm_s: %.4f\n", load[0]);
  std::printf("load_warm_over_raw: %.2f\n", load[0] / raw[0]);
  std::printf("raw_read_cold_s: %.4f\n", raw[1]);
  std::printf("load_cold_s: %.4f\n", load[1]);
  std::printf("load_cold_over_raw: %.2f\n", load[1] / raw[1]);
  std::printf("rebin_to_100_aligned_s: %.4f\n", rebinAligned);
  std::printf("rebin_to_137_zoom_s: %.4f (dirty fine slices: %zu)\n", rebinDirty, dirty);
  return 0;
}
