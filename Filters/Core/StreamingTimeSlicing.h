// The microscopic model of TimeSlicing.h filled while a trace is read: the
// rows arrive in batches, one location (leaf) at a time, and are folded into
// the model at once, so that the memory needed is the model plus, for the
// exclusive state duration, one slice row per open call depth — never the
// tables. The result equals SliceTrace() on the same rows (exactly, or to
// rounding for the exclusive durations; docs/streaming-model.md).
//
//   StreamingTimeSlicer slicer(options);       // the same options as SliceTrace
//   for each leaf:
//     slicer.BeginLeaf(leaf);
//     slicer.AddStates(batch); ...             // and/or AddPoints
//     slicer.EndLeaf();
//   slicer.AddMessages(messages);              // message metrics only
//   MicroscopicModel model = slicer.Finish();
#pragma once

#include "TimeSlicing.h"

#include <cstdint>
#include <vector>

namespace macroscope
{

/// A state row with this type stands for a state the reader dropped (a
/// region filtered out, or undefined): it is not counted, but its pending
/// children are forgotten as SliceTrace() forgets them, since it never sees
/// their parent. Its Depth is the dropped state's depth.
constexpr uint32_t DroppedStateType = 0xFFFFFFFFu;

/// Builds one MicroscopicModel from rows given leaf after leaf.
class StreamingTimeSlicer
{
public:
  /// Checks the options and allocates the model (std::invalid_argument as
  /// SliceTrace). Threads and Progress are not used: the caller reads.
  explicit StreamingTimeSlicer(const TimeSlicingOptions& options);

  /// Starts the rows of `leaf`; each leaf at most once, leaves in any order.
  void BeginLeaf(uint32_t leaf);
  /// States of the current leaf in the order of their Leave (End ascending,
  /// children before parents), as the trace readers emit them, in any number
  /// of batches. Used by StateDuration only (ignored otherwise). Throws
  /// std::invalid_argument on a row of another leaf, a type out of range or
  /// a row out of Leave order (the exclusive durations need that order).
  void AddStates(const StateRows& rows);
  /// Events (EventCount) or variable samples in time order (VariableMean)
  /// of the current leaf; ignored by the other metrics.
  void AddPoints(const PointRows& rows);
  /// Closes the leaf: its last variable samples extend to the window's end.
  void EndLeaf();
  /// The matched messages (the message metrics; ignored otherwise). Messages
  /// are matched across locations, so they come whole, after the leaves.
  void AddMessages(const MessageRows& rows);

  /// The finished model (normalized as the options say); the slicer is
  /// spent afterwards.
  MicroscopicModel Finish();

  /// Bytes held beyond the model: the per-depth rows and per-type samples.
  std::size_t ScratchBytes() const;

private:
  // Children's durations waiting for their parent, at one call depth: the
  // sum over the completed states of that depth since the last state of the
  // depth above, per slice (touched range [First, Last]).
  struct Level
  {
    std::vector<double> Children;
    int First = 0;
    int Last = -1;
    double MinStart = 0.0; ///< of the children summed (when First <= Last)
    double MaxEnd = 0.0;
    void Clear();
  };

  double* Row(uint32_t type) { return &this->Model.At(this->Resource, 0, type); }
  void ExclusiveState(uint32_t type, uint32_t depth, double start, double end);
  void CheckRow(uint32_t location, uint32_t type, const char* what) const;

  TimeSlicingOptions Options;
  MicroscopicModel Model;
  double Width;
  std::vector<uint8_t> LeafDone;
  int64_t Leaf = -1;     ///< current leaf, -1 between leaves
  uint32_t Resource = 0; ///< its model row, or NoResource
  // Exclusive state durations.
  std::vector<Level> Levels;
  bool HavePrevious = false;
  double PreviousEnd = 0.0;
  uint32_t PreviousDepth = 0;
  double PreviousStart = 0.0;
  // Variable means: the last sample of each variable on the current leaf.
  std::vector<double> LastTime;
  std::vector<double> LastValue;
  std::vector<uint8_t> HaveLast;
  bool MessagesFinished = false; ///< AddMessages() gave finished planes
};

}
