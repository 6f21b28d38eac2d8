// The microscopic model M(s, t, u) of (Dosimont et al. 2015 (Ocelotl), section 3.3) filled
// with Triva's Time-Slice algorithm (Schnorr 2009 (Triva) §4.2): resources s ×
// regular time slices t × types u, one value per cell.
//
// Inputs are the columns of the data contract (docs/architecture.md) as
// plain arrays; the output is dense, slice-fastest:
//   Value(s, t, u) = values[t + slices * (s + resources * u)]
// which is also the point order of a vtkImageData with x = slice, y =
// resource, z = type (see docs/time-slicing.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace macroscope
{

/// N regular slices over [Begin, End).
struct SliceGrid
{
  double Begin = 0.0;
  double End = 1.0;
  int Slices = 1;

  double Width() const { return (this->End - this->Begin) / this->Slices; }
  double SliceBegin(int slice) const { return this->Begin + slice * this->Width(); }
  /// Throws std::invalid_argument unless Slices >= 1 and Begin < End, finite.
  void Validate() const;
};

enum class SliceMetric
{
  StateDuration,     ///< seconds spent in each state type (Schnorr 2009 (Triva) eq. 4.1)
  EventCount,        ///< occurrences of each event type
  VariableMean,      ///< time-weighted mean of each variable (Schnorr 2009 (Triva) eq. 4.3)
  BytesSentRate,     ///< bytes per second sent, as origin (Schnorr 2009 (Triva) eq. 4.4)
  BytesReceivedRate, ///< bytes per second received, as destination (Schnorr 2009 (Triva) eq. 4.5)
  MessagesSent,      ///< messages sent (counted at their send time)
  MessagesReceived   ///< messages received (counted at their receive time)
};

/// States: one row per state interval, times in seconds.
struct StateRows
{
  const uint32_t* Location = nullptr; ///< leaf index
  const uint32_t* Type = nullptr;
  const uint32_t* Depth = nullptr;
  const double* Start = nullptr;
  const double* End = nullptr;
  std::size_t Count = 0;
};

/// Instant events or variable samples: (location, type, time[, value]).
struct PointRows
{
  const uint32_t* Location = nullptr;
  const uint32_t* Type = nullptr; ///< event type, or variable id
  const double* Time = nullptr;
  const double* Value = nullptr; ///< variables only
  std::size_t Count = 0;
};

/// Messages: one row per matched message.
struct MessageRows
{
  const uint32_t* Sender = nullptr;
  const uint32_t* Receiver = nullptr;
  const double* SendTime = nullptr;
  const double* RecvTime = nullptr;
  const double* Bytes = nullptr;
  std::size_t Count = 0;
};

struct TimeSlicingOptions
{
  SliceGrid Grid;
  SliceMetric Metric = SliceMetric::StateDuration;
  /// StateDuration: divide by the slice width (fractions of time in [0, 1]).
  bool Normalize = false;
  /// StateDuration: -1 (default) counts, at each moment, only the innermost
  /// state (exclusive time: a leaf's durations in a slice sum to the time it
  /// was traced in the slice); d >= 0 counts the states of call depth d only.
  int Depth = -1;
  /// Resource of each leaf (location): values of leaves mapping to the same
  /// resource add up; a leaf mapped to NoResource (ResourceHierarchy.h) is
  /// left out of the model. Empty: resource = leaf.
  std::vector<uint32_t> ResourceOfLeaf;
  uint32_t Leaves = 0;    ///< number of leaves (locations)
  uint32_t Resources = 0; ///< number of resources (rows of the model)
  uint32_t Types = 0;     ///< number of types (planes of the model)
  /// Threads to use; 0 = hardware concurrency.
  unsigned Threads = 0;
  /// Called with the fraction done; returning false aborts (TimeSlicingAborted).
  std::function<bool(double)> Progress;
};

class TimeSlicingAborted : public std::runtime_error
{
public:
  TimeSlicingAborted()
    : std::runtime_error("time slicing aborted")
  {
  }
};

struct MicroscopicModel
{
  SliceGrid Grid;
  uint32_t Resources = 0;
  uint32_t Types = 0;
  std::vector<double> Values; ///< Value(s, t, u) at t + slices * (s + resources * u)

  double& At(uint32_t resource, int slice, uint32_t type)
  {
    return this->Values[static_cast<std::size_t>(slice) +
      static_cast<std::size_t>(this->Grid.Slices) *
        (resource + std::size_t(this->Resources) * type)];
  }
  double At(uint32_t resource, int slice, uint32_t type) const
  {
    return const_cast<MicroscopicModel*>(this)->At(resource, slice, type);
  }
};

/// What a model of slices x resources x types costs: its cells, and the
/// bytes of `Copies` copies of it as doubles. Computed in floating point so
/// that no product overflows, however absurd the request.
struct ModelMemory
{
  double Cells = 0.0;
  double Bytes = 0.0;
};
ModelMemory ModelMemoryNeed(double slices, double resources, double types, int copies);

/// The memory the system can give now, in bytes: Linux's MemAvailable
/// (/proc/meminfo), else the free physical pages (sysconf); 0 when unknown.
uint64_t AvailableMemoryBytes();

/// Empty when `need` fits in `limitBytes` (a limit of 0, unknown, accepts
/// every model); else why not, naming the model's slices x resources x
/// types, its cells, the bytes it needs and the limit, in a sentence
/// without the final full stop.
std::string ModelMemoryProblem(
  int slices, uint64_t resources, uint64_t types, const ModelMemory& need, uint64_t limitBytes);

/// Fills the model. Only the rows the metric needs are read: states for
/// StateDuration, points for EventCount and VariableMean, messages for the
/// message metrics, which fill a single type plane (the model then has one
/// type whatever Types says). Throws std::invalid_argument on bad options or
/// on a row that refers to a leaf or type out of range.
MicroscopicModel SliceTrace(const TimeSlicingOptions& options, const StateRows& states,
  const PointRows& points, const MessageRows& messages);

}
