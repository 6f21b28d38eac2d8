#include "OTF2ReadProgress.h"

#include <algorithm>
#include <numeric>

namespace macroscope::otf2
{

namespace
{
// A location's estimate stops short of its end: its last records are
// counted when it is finished, not guessed.
constexpr double EstimateCeiling = 0.99;
// An announced count is believed when it gives a record this many bytes
// (a record takes a few bytes to a few tens; EZTrace's 2 for megabytes of
// records does not pass).
constexpr double CredibleRecordBytes[2] = { 2.0, 128.0 };
constexpr uint64_t SmallestBatch = uint64_t(1) << 12;
constexpr uint64_t LargestBatch = uint64_t(1) << 18;
}

ReadProgress::ReadProgress(std::vector<uint64_t> bytes, const std::vector<uint64_t>& announced)
  : Weights(std::move(bytes))
  , Announced(announced)
{
  this->Weights.resize(this->Announced.size(), 0);
  this->InBytes =
    std::any_of(this->Weights.begin(), this->Weights.end(), [](uint64_t size) { return size > 0; });
  if (!this->InBytes)
  {
    this->Weights = this->Announced;
  }
  this->Total = double(std::accumulate(this->Weights.begin(), this->Weights.end(), uint64_t(0)));
}

double ReadProgress::RecordBytes(std::size_t location) const
{
  if (this->RecordsMeasured > 0)
  {
    return double(this->BytesMeasured) / double(this->RecordsMeasured);
  }
  const uint64_t announced = this->Announced[location];
  if (announced > 0)
  {
    const double perRecord = double(this->Weights[location]) / double(announced);
    if (perRecord >= CredibleRecordBytes[0] && perRecord <= CredibleRecordBytes[1])
    {
      return perRecord;
    }
  }
  return GuessedRecordBytes;
}

double ReadProgress::Fraction(std::size_t location, uint64_t records) const
{
  if (this->Total <= 0.0)
  {
    return 1.0;
  }
  const double weight = double(this->Weights[location]);
  // In announced records the unit is a record; in bytes, records times
  // the bytes one takes.
  const double estimate =
    this->InBytes ? double(records) * this->RecordBytes(location) : double(records);
  const double here = std::min(estimate, EstimateCeiling * weight);
  return std::min(1.0, (this->Done + here) / this->Total);
}

void ReadProgress::Finish(std::size_t location, uint64_t records)
{
  this->Done += double(this->Weights[location]);
  if (this->InBytes && records > 0 && this->Weights[location] > 0)
  {
    this->BytesMeasured += this->Weights[location];
    this->RecordsMeasured += records;
  }
}

uint64_t ReadProgress::BatchRecords() const
{
  const double records = this->InBytes ? this->Total / GuessedRecordBytes : this->Total;
  return std::clamp(uint64_t(records / Reports), SmallestBatch, LargestBatch);
}

} // namespace macroscope::otf2
