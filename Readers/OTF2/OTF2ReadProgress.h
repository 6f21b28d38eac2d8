// How far a read of OTF2 event files is, in bytes of those files: the one
// measure of the work that every archive gives truthfully. A Location's
// numberOfEvents is advisory (EZTrace announces 2 for every location), so a
// progress counted in announced events jumps from location to location;
// file sizes are on disk before the first record is decoded.
#ifndef macroscope_otf2_OTF2ReadProgress_h
#define macroscope_otf2_OTF2ReadProgress_h

#include <cstddef>
#include <cstdint>
#include <vector>

namespace macroscope::otf2
{

class ReadProgress
{
public:
  /// `bytes[i]` is the size of location i's event file (0 when unknown, e.g.
  /// another OTF2 substrate), `announced[i]` its numberOfEvents; locations
  /// not read have both 0. Without any file size, the announced counts are
  /// the weights instead (the only measure left).
  ReadProgress(std::vector<uint64_t> bytes, const std::vector<uint64_t>& announced);

  /// The fraction of the whole read done when `records` records of
  /// `location` are decoded and the locations finished before it are done.
  double Fraction(std::size_t location, uint64_t records) const;

  /// `location` is read: its share is done, and its records teach the bytes
  /// a record takes, for estimating the next locations.
  void Finish(std::size_t location, uint64_t records);

  /// Records to decode between two reports: about `Reports` reports over
  /// the whole read, whatever its size, bounded so that a report is neither
  /// a cost nor rarer than a few milliseconds of decoding.
  uint64_t BatchRecords() const;

  static constexpr double Reports = 200.0;
  /// Bytes a record takes before any location is finished, unless its
  /// numberOfEvents is credible: about what the synthesizer's (8) and
  /// EZTrace's (15) archives take.
  static constexpr double GuessedRecordBytes = 12.0;

private:
  double RecordBytes(std::size_t location) const;

  std::vector<uint64_t> Weights; // bytes, or announced records without sizes
  std::vector<uint64_t> Announced;
  bool InBytes = false;
  double Total = 0.0;
  double Done = 0.0;          // weight of the finished locations
  uint64_t BytesMeasured = 0; // of finished locations, for the bytes per record
  uint64_t RecordsMeasured = 0;
};

} // namespace macroscope::otf2

#endif
