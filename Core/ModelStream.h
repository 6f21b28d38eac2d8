// One read of a trace feeding several microscopic models at once: the
// streamed Time Slicing builds the model it was asked for and, from the
// same rows, the fine model it caches (docs/streaming-model.md). The readers
// hand their rows over leaf after leaf with the type ids of their Types
// table; the stream maps them to the models' planes and passes them to one
// StreamingTimeSlicer per model.
//
//   ModelStream stream(planeOfType, {requested, fine});
//   for each leaf the stream NeedsLeaf():
//     stream.BeginLeaf(leaf); stream.AddStates(rows); ...; stream.EndLeaf();
//   if (stream.WantsMessages()) stream.AddMessages(messages);
//   std::vector<MicroscopicModel> models = stream.Finish();
#pragma once

#include "StreamingTimeSlicing.h"

#include <cstdint>
#include <vector>

namespace macroscope
{

class ModelStream
{
public:
  /// `planeOfType` maps a reader's type id to a model plane (UINT32_MAX:
  /// not counted; empty: the ids are the planes). Every option set must
  /// have the same metric, Normalize, Depth, Leaves and Types; grids and
  /// ResourceOfLeaf may differ. Throws std::invalid_argument otherwise.
  ModelStream(std::vector<uint32_t> planeOfType, const std::vector<TimeSlicingOptions>& options);

  SliceMetric Metric() const { return this->Options.front().Metric; }
  /// Whether the metric reads the states, the events, the variable samples
  /// or the matched messages: a reader need not decode the others.
  bool WantsStates() const { return this->Metric() == SliceMetric::StateDuration; }
  bool WantsEvents() const { return this->Metric() == SliceMetric::EventCount; }
  bool WantsVariables() const { return this->Metric() == SliceMetric::VariableMean; }
  bool WantsMessages() const;
  /// False when every model leaves `leaf` out (NoResource): no need to read it.
  bool NeedsLeaf(uint32_t leaf) const;
  uint32_t Leaves() const { return this->Options.front().Leaves; }
  /// Bytes of the models being built (8 per cell).
  double ModelBytes() const;
  /// The span of times any model counts: [earliest grid begin, latest end].
  double Begin() const;
  double End() const;

  /// As StreamingTimeSlicer, with the reader's type ids.
  void BeginLeaf(uint32_t leaf);
  void AddStates(const StateRows& rows);
  void AddPoints(const PointRows& rows);
  void EndLeaf();
  void AddMessages(const MessageRows& rows);

  /// How many leaves were streamed: BeginLeaf calls, plus the leaves of
  /// the interleaved rows.
  uint32_t LeavesStreamed() const { return this->Streamed; }
  ///@{
  /// As StreamingTimeSlicer: rows of any leaves at any time (Pajé), then
  /// EndInterleaved() once the last of them was given.
  void AddInterleavedStates(const StateRows& rows);
  void AddInterleavedPoints(const PointRows& rows);
  void EndInterleaved();
  ///@}

  ///@{
  /// A read split over threads: each thread streams its leaves into a
  /// Fork() of this stream (same planes and models, nothing folded yet),
  /// then the forks are absorbed back before Finish(). Give each thread
  /// whole groups of LeafGroups(), every leaf of a group in ascending leaf
  /// order, and the models are bit for bit those of one stream read in
  /// leaf order: no cell takes rows from two threads. Messages go to this
  /// stream itself (AddMessages), not to the forks.
  ModelStream Fork() const;
  void Absorb(ModelStream&& fork);
  /// A group number per leaf (0, 1, ... in the order of their first leaf):
  /// leaves that share a resource of any model share a group; leaves no
  /// model needs get UINT32_MAX.
  std::vector<uint32_t> LeafGroups() const;
  ///@}

  /// The models, in the order of the options.
  std::vector<MicroscopicModel> Finish();

private:
  const uint32_t* MapTypes(const uint32_t* types, std::size_t count);

  std::vector<uint32_t> PlaneOfType;
  std::vector<TimeSlicingOptions> Options;
  std::vector<StreamingTimeSlicer> Slicers;
  std::vector<uint32_t> Planes; // the current batch's types as planes
  uint32_t Streamed = 0;
  std::vector<uint8_t> Seen; // leaves met in interleaved rows
  void CountLeaves(const uint32_t* locations, std::size_t count);
};

}
