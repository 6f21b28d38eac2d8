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
//
// A trace whose leaves interleave (Pajé) gives its rows with
// AddInterleavedStates / AddInterleavedPoints instead: each leaf keeps its
// own state (open depths, previous row, last samples) from its first row to
// EndInterleaved(), so memory is O(leaves × depth × slices) at worst.
#pragma once

#include "TimeSlicing.h"

#include <cstdint>
#include <memory>
#include <unordered_map>
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
  /// Matched messages (the message metrics; ignored otherwise), in any
  /// number of batches, at any time: each is folded into the model at once
  /// (the same additions, per leaf in the same order, as SliceTrace()).
  /// Throws std::invalid_argument on a sender or receiver out of range.
  void AddMessages(const MessageRows& rows);

  ///@{
  /// Rows of any leaves at any time, for traces whose leaves interleave
  /// (Pajé): each row goes to its own leaf, whose state is allocated at its
  /// first row. Per leaf, the order is that of AddStates / AddPoints (states
  /// in Leave order, samples in time order). A leaf given this way cannot
  /// also be given with BeginLeaf, nor the reverse. EndInterleaved() closes
  /// every leaf they opened (their last samples extend to the window's end)
  /// and frees their state; no interleaved row may follow it. Finish() calls
  /// it when needed.
  void AddInterleavedStates(const StateRows& rows);
  void AddInterleavedPoints(const PointRows& rows);
  void EndInterleaved();
  ///@}

  /// Adds the rows `part` folded into this slicer's model, for a read split
  /// over threads: `part` has the same options, no leaf open, and none of
  /// the leaves given here; it is spent afterwards. Exact (bit for bit the
  /// model of one slicer given every row) when no model cell takes rows of
  /// both, i.e. when the leaves of each resource were all given to one of
  /// them (ModelStream::LeafGroups); otherwise the cells both touched are
  /// summed in another order (rounding). Call before Finish(). Throws
  /// std::invalid_argument when the options or the leaves do not allow it.
  void Absorb(StreamingTimeSlicer&& part);

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

  // What one leaf carries between its rows.
  struct LeafState
  {
    uint32_t Resource = 0; ///< its model row, or NoResource
    // Exclusive state durations.
    std::vector<Level> Levels;
    bool HavePrevious = false;
    double PreviousEnd = 0.0;
    uint32_t PreviousDepth = 0;
    double PreviousStart = 0.0;
    // Variable means: the last sample (time, value) of each variable.
    std::unordered_map<uint32_t, std::pair<double, double>> Last;
  };

  double* Row(uint32_t resource, uint32_t type) { return &this->Model.At(resource, 0, type); }
  void StartLeaf(LeafState& state, uint32_t leaf);
  void StateRow(
    LeafState& state, uint32_t leaf, uint32_t type, uint32_t depth, double start, double end);
  void PointRow(LeafState& state, uint32_t leaf, uint32_t type, double time, double value);
  void CloseLeaf(LeafState& state);
  void ExclusiveState(
    LeafState& state, uint32_t leaf, uint32_t type, uint32_t depth, double start, double end);
  void CheckRow(uint32_t location, uint32_t type, const char* what) const;
  void CheckType(uint32_t type) const;
  LeafState& Interleaved(uint32_t leaf);

  // LeafDone values: how a leaf was given.
  enum : uint8_t
  {
    NotYet = 0,
    Given = 1, ///< BeginLeaf
    InterleavedOpen = 2,
    InterleavedDone = 3
  };

  TimeSlicingOptions Options;
  MicroscopicModel Model;
  double Width;
  std::vector<uint8_t> LeafDone;
  int64_t Leaf = -1; ///< current leaf of BeginLeaf, -1 between leaves
  LeafState Current; ///< its state
  /// The states of the leaves given interleaved, by leaf (null: none open).
  std::vector<std::unique_ptr<LeafState>> Open;
  std::size_t OpenCount = 0;
};

}
