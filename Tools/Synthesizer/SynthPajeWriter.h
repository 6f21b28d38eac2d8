// Internal: writes the simulated run as a Pajé trace (docs/synthesizer.md,
// "Pajé output"), next to the OTF2 archive. The simulation emits events per
// location in time order but not globally sorted, while a Pajé file is read
// in time order; each location's lines are therefore buffered and merged by
// time at the end, so memory grows with the size of the Pajé file. Pajé
// output is meant for test-sized runs and the parser's ground truth.
#ifndef macroscope_synth_SynthPajeWriter_h
#define macroscope_synth_SynthPajeWriter_h

#include "SynthPlatform.h"
#include "SynthTraceWriter.h"

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace macroscope::synth
{

/// Pajé writer of one simulated run. Event methods take the same arguments
/// as TraceWriter's (location = Platform::LocationIndex(), time in seconds
/// since the trace start, non-decreasing per location).
class PajeWriter
{
public:
  /// `timerResolution` is the OTF2 archive's: times are rounded to its ticks
  /// so that both formats hold the same instants (docs/synthesizer.md).
  PajeWriter(std::string path, const Platform& platform, uint64_t timerResolution);
  PajeWriter(const PajeWriter&) = delete;
  PajeWriter& operator=(const PajeWriter&) = delete;

  void ProgramBegin(uint64_t location, double time);
  void ProgramEnd(uint64_t location, double time);
  void Enter(uint64_t location, double time, Region region);
  void Leave(uint64_t location, double time);
  void Metric(uint64_t location, double time, uint64_t instructions);
  void ThreadFork(uint64_t location, double time);
  void ThreadJoin(uint64_t location, double time);
  /// A blocking or non-blocking send: the StartLink of a message.
  void Send(uint64_t location, double time, uint32_t receiver, uint32_t tag, uint64_t bytes);
  /// The completion of a receive: the EndLink of a message.
  void Receive(uint64_t location, double time, uint32_t sender, uint32_t tag);
  void CollectiveBegin(uint64_t location, double time);
  void CollectiveEnd(uint64_t location, double time, Collective operation);

  /// Writes the file: header, type and value definitions, containers, the
  /// buffered events merged by time, then the containers' destruction at the
  /// last timestamp. Returns the number of lines written. Throws
  /// std::runtime_error naming the file when it cannot be written.
  uint64_t Finish();

  /// The Pajé time of a simulated time: OTF2's seconds since the trace start.
  double Seconds(double time) const;

private:
  struct Buffer
  {
    std::string Text;           ///< complete lines
    std::vector<double> Times;  ///< per line
    std::vector<uint64_t> Ends; ///< per line: end offset in Text
  };
  /// Starts a line of `location` at `time`: "<id> <time>"; the caller
  /// appends the remaining fields, then calls EndLine().
  std::string& BeginLine(uint64_t location, double time, int eventId);
  void EndLine(uint64_t location);
  std::string ThreadAlias(uint64_t location) const;
  std::string LinkKey(uint32_t sender, uint32_t receiver, uint32_t tag, uint64_t sequence) const;
  void Instant(uint64_t location, double time, const char* value, const char* operation);

  std::string Path;
  const Platform& Machine;
  uint64_t TimerResolution;
  std::vector<Buffer> Buffers;
  double LastTime = 0.0;
  /// Messages per (sender rank, receiver rank, tag) so far, sent and
  /// received: MPI matches in that order (non-overtaking), which gives each
  /// message its key.
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::pair<uint64_t, uint64_t>> Channels;
};

} // namespace macroscope::synth

#endif
