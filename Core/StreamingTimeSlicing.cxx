#include "StreamingTimeSlicing.h"

#include "ResourceHierarchy.h" // NoResource
#include "TimeSlicingKernels.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace macroscope
{

void StreamingTimeSlicer::Level::Clear()
{
  if (this->First <= this->Last)
  {
    std::fill(this->Children.begin() + this->First, this->Children.begin() + (this->Last + 1), 0.0);
  }
  this->First = 0;
  this->Last = -1;
}

StreamingTimeSlicer::StreamingTimeSlicer(const TimeSlicingOptions& options)
  : Options(options)
  , Model(EmptyModel(options))
  , Width(options.Grid.Width())
  , LeafDone(options.Leaves, 0)
{
  this->Options.Progress = nullptr; // the reader reports progress, not the slicer
}

void StreamingTimeSlicer::StartLeaf(LeafState& state, uint32_t leaf)
{
  state.Resource = this->Options.ResourceOfLeaf.empty() ? leaf : this->Options.ResourceOfLeaf[leaf];
  for (Level& level : state.Levels)
  {
    level.Clear();
  }
  state.HavePrevious = false;
  state.Last.clear();
}

void StreamingTimeSlicer::BeginLeaf(uint32_t leaf)
{
  if (this->Leaf >= 0)
  {
    throw std::logic_error("BeginLeaf before the previous leaf's EndLeaf");
  }
  if (leaf >= this->Options.Leaves)
  {
    throw std::invalid_argument("leaf " + std::to_string(leaf) + " is out of range: there are " +
      std::to_string(this->Options.Leaves) + " leaves");
  }
  if (this->LeafDone[leaf] != NotYet)
  {
    throw std::invalid_argument(
      "the rows of leaf " + std::to_string(leaf) + " were already given: each leaf streams once");
  }
  this->LeafDone[leaf] = Given;
  this->Leaf = leaf;
  this->StartLeaf(this->Current, leaf);
}

void StreamingTimeSlicer::CheckType(uint32_t type) const
{
  if (type >= this->Model.Types)
  {
    throw std::invalid_argument("a row refers to a type id beyond the " +
      std::to_string(this->Model.Types) + " types of the model");
  }
}

void StreamingTimeSlicer::CheckRow(uint32_t location, uint32_t type, const char* what) const
{
  if (this->Leaf < 0 || location != uint32_t(this->Leaf))
  {
    throw std::invalid_argument(std::string("a row of ") + what + " belongs to leaf " +
      std::to_string(location) + ", not to the current leaf " + std::to_string(this->Leaf));
  }
  this->CheckType(type);
}

void StreamingTimeSlicer::AddStates(const StateRows& rows)
{
  if (this->Options.Metric != SliceMetric::StateDuration)
  {
    return;
  }
  for (std::size_t i = 0; i < rows.Count; ++i)
  {
    const uint32_t type = rows.Type[i];
    this->CheckRow(rows.Location[i], type == DroppedStateType ? 0 : type, "states");
    this->StateRow(
      this->Current, uint32_t(this->Leaf), type, rows.Depth[i], rows.Start[i], rows.End[i]);
  }
}

void StreamingTimeSlicer::StateRow(
  LeafState& state, uint32_t leaf, uint32_t type, uint32_t depth, double start, double end)
{
  if (state.Resource == NoResource)
  {
    return;
  }
  const bool dropped = type == DroppedStateType;
  if (this->Options.Depth >= 0)
  {
    if (!dropped && depth == uint32_t(this->Options.Depth))
    {
      AddInterval(
        this->Row(state.Resource, type), this->Options.Grid, this->Width, start, end, 1.0);
    }
    return;
  }
  // The order SliceTrace() sorts a leaf's states into (End ascending,
  // deeper first, earlier start first) is the order the children must
  // arrive in to be adopted by their parent.
  if (state.HavePrevious &&
    (end < state.PreviousEnd ||
      (end == state.PreviousEnd &&
        (depth > state.PreviousDepth ||
          (depth == state.PreviousDepth && start < state.PreviousStart)))))
  {
    throw std::invalid_argument("the states of leaf " + std::to_string(leaf) +
      " are not in the order of their Leave (state ending at " + std::to_string(end) +
      " s after one ending at " + std::to_string(state.PreviousEnd) + " s)");
  }
  state.HavePrevious = true;
  state.PreviousEnd = end;
  state.PreviousDepth = depth;
  state.PreviousStart = start;
  if (dropped)
  {
    // SliceTrace() never sees this parent: its children stay unadopted.
    if (std::size_t(depth) + 1 < state.Levels.size())
    {
      state.Levels[depth + 1].Clear();
    }
    return;
  }
  this->ExclusiveState(state, leaf, type, depth, start, end);
}

void StreamingTimeSlicer::ExclusiveState(
  LeafState& state, uint32_t leaf, uint32_t type, uint32_t depth, double start, double end)
{
  const int slices = this->Options.Grid.Slices;
  if (state.Levels.size() < std::size_t(depth) + 2)
  {
    state.Levels.resize(std::size_t(depth) + 2);
  }
  double* line = this->Row(state.Resource, type);
  AddInterval(line, this->Options.Grid, this->Width, start, end, 1.0);
  // The children's sum, in place of SliceTrace()'s child-by-child
  // subtraction: the same value up to rounding, in O(slices) memory per
  // depth instead of one entry per child.
  // SliceTrace() adopts the pending children inside the state only. Between
  // properly nested states, the others are those of a parent the rows lack,
  // which ended before this state started: all of them or none are inside.
  Level& children = state.Levels[depth + 1];
  if (children.First <= children.Last)
  {
    if (children.MinStart >= start)
    {
      for (int t = children.First; t <= children.Last; ++t)
      {
        line[t] -= children.Children[t];
      }
    }
    else if (children.MaxEnd > start)
    {
      throw std::invalid_argument("the states of leaf " + std::to_string(leaf) +
        " are not properly nested: a state at depth " + std::to_string(depth) + " starting at " +
        std::to_string(start) +
        " s follows deeper states that started before it and ended after its start (a parent "
        "missing without a DroppedStateType row)");
    }
    children.Clear();
  }
  if (depth == 0) // only a state with a parent waits for it
  {
    return;
  }
  // Pending for the parent at depth - 1: add it to this depth's sum, over
  // the slices its interval meets (AddInterval clips as for the model).
  const double a = std::max(start, this->Options.Grid.Begin);
  const double b = std::min(end, this->Options.Grid.End);
  if (!(b > a))
  {
    return;
  }
  Level& pending = state.Levels[depth];
  if (pending.Children.empty())
  {
    pending.Children.assign(std::size_t(slices), 0.0);
  }
  AddInterval(pending.Children.data(), this->Options.Grid, this->Width, start, end, 1.0);
  const int first =
    std::min(slices - 1, static_cast<int>((a - this->Options.Grid.Begin) / this->Width));
  const int last =
    std::min(slices - 1, static_cast<int>((b - this->Options.Grid.Begin) / this->Width));
  if (pending.Last < pending.First)
  {
    pending.First = first;
    pending.Last = last;
    pending.MinStart = start;
    pending.MaxEnd = end;
  }
  else
  {
    pending.First = std::min(pending.First, first);
    pending.Last = std::max(pending.Last, last);
    pending.MinStart = std::min(pending.MinStart, start);
    pending.MaxEnd = std::max(pending.MaxEnd, end);
  }
}

void StreamingTimeSlicer::AddPoints(const PointRows& rows)
{
  const SliceMetric metric = this->Options.Metric;
  if (metric != SliceMetric::EventCount && metric != SliceMetric::VariableMean)
  {
    return;
  }
  for (std::size_t i = 0; i < rows.Count; ++i)
  {
    this->CheckRow(
      rows.Location[i], rows.Type[i], metric == SliceMetric::EventCount ? "events" : "samples");
    this->PointRow(this->Current, uint32_t(this->Leaf), rows.Type[i], rows.Time[i],
      rows.Value ? rows.Value[i] : 0.0);
  }
}

void StreamingTimeSlicer::PointRow(
  LeafState& state, uint32_t leaf, uint32_t type, double time, double value)
{
  if (state.Resource == NoResource)
  {
    return;
  }
  if (this->Options.Metric == SliceMetric::EventCount)
  {
    const int slice = SliceOf(this->Options.Grid, this->Width, time);
    if (slice >= 0)
    {
      this->Row(state.Resource, type)[slice] += 1.0;
    }
    return;
  }
  // Triva's eq. 4.3, as SliceTrace(): a sample holds until the next one
  // of its variable on the leaf.
  const auto [last, first] = state.Last.try_emplace(type, time, value);
  if (!first)
  {
    if (time < last->second.first)
    {
      throw std::invalid_argument(
        "the samples of leaf " + std::to_string(leaf) + " are not in time order");
    }
    AddInterval(this->Row(state.Resource, type), this->Options.Grid, this->Width,
      last->second.first, time, last->second.second);
    last->second = { time, value };
  }
}

void StreamingTimeSlicer::CloseLeaf(LeafState& state)
{
  if (this->Options.Metric == SliceMetric::VariableMean && state.Resource != NoResource)
  {
    for (const auto& [type, sample] : state.Last)
    {
      AddInterval(this->Row(state.Resource, type), this->Options.Grid, this->Width, sample.first,
        this->Options.Grid.End, sample.second);
    }
  }
  state.Last.clear();
}

void StreamingTimeSlicer::EndLeaf()
{
  if (this->Leaf < 0)
  {
    throw std::logic_error("EndLeaf without BeginLeaf");
  }
  this->CloseLeaf(this->Current);
  this->Leaf = -1;
}

StreamingTimeSlicer::LeafState& StreamingTimeSlicer::Interleaved(uint32_t leaf)
{
  if (leaf >= this->Options.Leaves)
  {
    throw std::invalid_argument("a row belongs to leaf " + std::to_string(leaf) +
      ", out of range: there are " + std::to_string(this->Options.Leaves) + " leaves");
  }
  if (this->LeafDone[leaf] == InterleavedOpen)
  {
    return *this->Open[leaf];
  }
  if (this->LeafDone[leaf] != NotYet)
  {
    throw std::invalid_argument("a row of leaf " + std::to_string(leaf) +
      (this->LeafDone[leaf] == Given ? " comes interleaved, but the leaf was given with BeginLeaf"
                                     : " comes after EndInterleaved()"));
  }
  if (this->Open.empty())
  {
    this->Open.resize(this->Options.Leaves);
  }
  this->LeafDone[leaf] = InterleavedOpen;
  this->Open[leaf] = std::make_unique<LeafState>();
  ++this->OpenCount;
  this->StartLeaf(*this->Open[leaf], leaf);
  return *this->Open[leaf];
}

void StreamingTimeSlicer::AddInterleavedStates(const StateRows& rows)
{
  if (this->Options.Metric != SliceMetric::StateDuration)
  {
    return;
  }
  for (std::size_t i = 0; i < rows.Count; ++i)
  {
    const uint32_t type = rows.Type[i];
    if (type != DroppedStateType)
    {
      this->CheckType(type);
    }
    const uint32_t leaf = rows.Location[i];
    this->StateRow(this->Interleaved(leaf), leaf, type, rows.Depth[i], rows.Start[i], rows.End[i]);
  }
}

void StreamingTimeSlicer::AddInterleavedPoints(const PointRows& rows)
{
  const SliceMetric metric = this->Options.Metric;
  if (metric != SliceMetric::EventCount && metric != SliceMetric::VariableMean)
  {
    return;
  }
  for (std::size_t i = 0; i < rows.Count; ++i)
  {
    this->CheckType(rows.Type[i]);
    const uint32_t leaf = rows.Location[i];
    this->PointRow(
      this->Interleaved(leaf), leaf, rows.Type[i], rows.Time[i], rows.Value ? rows.Value[i] : 0.0);
  }
}

void StreamingTimeSlicer::EndInterleaved()
{
  for (uint32_t leaf = 0; leaf < this->Open.size() && this->OpenCount > 0; ++leaf)
  {
    if (this->Open[leaf])
    {
      this->CloseLeaf(*this->Open[leaf]);
      this->Open[leaf].reset();
      this->LeafDone[leaf] = InterleavedDone;
      --this->OpenCount;
    }
  }
  this->Open.clear();
  this->Open.shrink_to_fit();
}

void StreamingTimeSlicer::AddMessages(const MessageRows& rows)
{
  const SliceMetric metric = this->Options.Metric;
  if (!IsMessageMetric(metric))
  {
    return;
  }
  // SliceTrace()'s MessageEnds, row by row: a cell receives the messages of
  // its leaf in the order given, as there.
  const bool asOrigin = metric == SliceMetric::BytesSentRate || metric == SliceMetric::MessagesSent;
  const bool counting =
    metric == SliceMetric::MessagesSent || metric == SliceMetric::MessagesReceived;
  const uint32_t* leafOf = asOrigin ? rows.Sender : rows.Receiver;
  for (std::size_t i = 0; i < rows.Count; ++i)
  {
    const uint32_t leaf = leafOf[i];
    if (leaf >= this->Options.Leaves)
    {
      throw std::invalid_argument("message " + std::to_string(i) + " refers to leaf " +
        std::to_string(leaf) + ", but there are " + std::to_string(this->Options.Leaves) +
        " leaves");
    }
    const uint32_t resource =
      this->Options.ResourceOfLeaf.empty() ? leaf : this->Options.ResourceOfLeaf[leaf];
    if (resource == NoResource)
    {
      continue;
    }
    double* line = this->Row(resource, 0);
    AddMessage(line, this->Options.Grid, this->Width, counting, asOrigin, rows.SendTime[i],
      rows.RecvTime[i], rows.Bytes[i]);
  }
}

void StreamingTimeSlicer::Absorb(StreamingTimeSlicer&& part)
{
  if (this->Leaf >= 0 || part.Leaf >= 0 || this->OpenCount > 0 || part.OpenCount > 0)
  {
    throw std::logic_error("Absorb with a leaf still open");
  }
  const TimeSlicingOptions& mine = this->Options;
  const TimeSlicingOptions& theirs = part.Options;
  if (mine.Metric != theirs.Metric || mine.Normalize != theirs.Normalize ||
    mine.Depth != theirs.Depth || mine.Leaves != theirs.Leaves ||
    mine.Resources != theirs.Resources || mine.ResourceOfLeaf != theirs.ResourceOfLeaf ||
    !(mine.Grid.Begin == theirs.Grid.Begin && mine.Grid.End == theirs.Grid.End &&
      mine.Grid.Slices == theirs.Grid.Slices) ||
    this->Model.Values.size() != part.Model.Values.size())
  {
    throw std::invalid_argument("only a slicer with the same options can be absorbed");
  }
  for (uint32_t leaf = 0; leaf < mine.Leaves; ++leaf)
  {
    if (this->LeafDone[leaf] != NotYet && part.LeafDone[leaf] != NotYet)
    {
      throw std::invalid_argument("the rows of leaf " + std::to_string(leaf) +
        " were given to both slicers: each leaf streams once");
    }
    this->LeafDone[leaf] = std::max(this->LeafDone[leaf], part.LeafDone[leaf]);
  }
  // Raw sums, before FinishModel's clamp and scaling: the same values as
  // one slicer's where the cells are disjoint (x + 0 is x).
  double* values = this->Model.Values.data();
  const double* added = part.Model.Values.data();
  for (std::size_t i = 0, n = this->Model.Values.size(); i < n; ++i)
  {
    values[i] += added[i];
  }
  part.Model.Values.clear();
  part.Model.Values.shrink_to_fit();
}

MicroscopicModel StreamingTimeSlicer::Finish()
{
  if (this->Leaf >= 0)
  {
    throw std::logic_error("Finish before the last leaf's EndLeaf");
  }
  if (this->OpenCount > 0)
  {
    this->EndInterleaved();
  }
  FinishModel(this->Options, this->Model);
  return std::move(this->Model);
}

std::size_t StreamingTimeSlicer::ScratchBytes() const
{
  auto leafBytes = [](const LeafState& state)
  {
    std::size_t bytes =
      sizeof(LeafState) + state.Last.size() * (sizeof(uint32_t) + 2 * sizeof(double));
    for (const Level& level : state.Levels)
    {
      bytes += sizeof(Level) + level.Children.capacity() * sizeof(double);
    }
    return bytes;
  };
  std::size_t bytes = this->LeafDone.capacity() + leafBytes(this->Current) +
    this->Open.capacity() * sizeof(std::unique_ptr<LeafState>);
  for (const auto& state : this->Open)
  {
    if (state)
    {
      bytes += leafBytes(*state);
    }
  }
  return bytes;
}

}
