#include "StreamingTimeSlicing.h"

#include "ResourceHierarchy.h" // NoResource
#include "TimeSlicingKernels.h"

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
  if (this->LeafDone[leaf])
  {
    throw std::invalid_argument("the rows of leaf " + std::to_string(leaf) +
      " were already given: each leaf streams once");
  }
  this->LeafDone[leaf] = 1;
  this->Leaf = leaf;
  this->Resource = this->Options.ResourceOfLeaf.empty() ? leaf : this->Options.ResourceOfLeaf[leaf];
  for (Level& level : this->Levels)
  {
    level.Clear();
  }
  this->HavePrevious = false;
  if (this->Options.Metric == SliceMetric::VariableMean)
  {
    this->HaveLast.assign(this->Model.Types, 0);
    this->LastTime.resize(this->Model.Types);
    this->LastValue.resize(this->Model.Types);
  }
}

void StreamingTimeSlicer::CheckRow(uint32_t location, uint32_t type, const char* what) const
{
  if (this->Leaf < 0 || location != uint32_t(this->Leaf))
  {
    throw std::invalid_argument(std::string("a row of ") + what + " belongs to leaf " +
      std::to_string(location) + ", not to the current leaf " + std::to_string(this->Leaf));
  }
  if (type >= this->Model.Types)
  {
    throw std::invalid_argument("a row refers to a type id beyond the " +
      std::to_string(this->Model.Types) + " types of the model");
  }
}

void StreamingTimeSlicer::AddStates(const StateRows& rows)
{
  if (this->Options.Metric != SliceMetric::StateDuration)
  {
    return;
  }
  const bool exclusive = this->Options.Depth < 0;
  for (std::size_t i = 0; i < rows.Count; ++i)
  {
    const uint32_t type = rows.Type[i];
    const bool dropped = type == DroppedStateType;
    this->CheckRow(rows.Location[i], dropped ? 0 : type, "states");
    if (this->Resource == NoResource)
    {
      continue;
    }
    if (!exclusive)
    {
      if (!dropped && rows.Depth[i] == uint32_t(this->Options.Depth))
      {
        AddInterval(this->Row(type), this->Options.Grid, this->Width, rows.Start[i], rows.End[i], 1.0);
      }
      continue;
    }
    // The order SliceTrace() sorts a leaf's states into (End ascending,
    // deeper first, earlier start first) is the order the children must
    // arrive in to be adopted by their parent.
    const double start = rows.Start[i];
    const double end = rows.End[i];
    const uint32_t depth = rows.Depth[i];
    if (this->HavePrevious &&
      (end < this->PreviousEnd ||
        (end == this->PreviousEnd &&
          (depth > this->PreviousDepth || (depth == this->PreviousDepth && start < this->PreviousStart)))))
    {
      throw std::invalid_argument("the states of leaf " + std::to_string(this->Leaf) +
        " are not in the order of their Leave (state ending at " + std::to_string(end) +
        " s after one ending at " + std::to_string(this->PreviousEnd) + " s)");
    }
    this->HavePrevious = true;
    this->PreviousEnd = end;
    this->PreviousDepth = depth;
    this->PreviousStart = start;
    if (dropped)
    {
      // SliceTrace() never sees this parent: its children stay unadopted.
      if (std::size_t(depth) + 1 < this->Levels.size())
      {
        this->Levels[depth + 1].Clear();
      }
      continue;
    }
    this->ExclusiveState(type, depth, start, end);
  }
}

void StreamingTimeSlicer::ExclusiveState(uint32_t type, uint32_t depth, double start, double end)
{
  const int slices = this->Options.Grid.Slices;
  if (this->Levels.size() < std::size_t(depth) + 2)
  {
    this->Levels.resize(std::size_t(depth) + 2);
  }
  double* line = this->Row(type);
  AddInterval(line, this->Options.Grid, this->Width, start, end, 1.0);
  // The children's sum, in place of SliceTrace()'s child-by-child
  // subtraction: the same value up to rounding, in O(slices) memory per
  // depth instead of one entry per child.
  // SliceTrace() adopts the pending children inside the state only. Between
  // properly nested states, the others are those of a parent the rows lack,
  // which ended before this state started: all of them or none are inside.
  Level& children = this->Levels[depth + 1];
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
      throw std::invalid_argument("the states of leaf " + std::to_string(this->Leaf) +
        " are not properly nested: a state at depth " + std::to_string(depth) + " starting at " +
        std::to_string(start) + " s follows deeper states that started before it and ended after its start (a parent missing without a DroppedStateType row)");
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
  Level& pending = this->Levels[depth];
  if (pending.Children.empty())
  {
    pending.Children.assign(std::size_t(slices), 0.0);
  }
  AddInterval(pending.Children.data(), this->Options.Grid, this->Width, start, end, 1.0);
  const int first = std::min(slices - 1, static_cast<int>((a - this->Options.Grid.Begin) / this->Width));
  const int last = std::min(slices - 1, static_cast<int>((b - this->Options.Grid.Begin) / this->Width));
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
    const uint32_t type = rows.Type[i];
    this->CheckRow(rows.Location[i], type, metric == SliceMetric::EventCount ? "events" : "samples");
    if (this->Resource == NoResource)
    {
      continue;
    }
    const double time = rows.Time[i];
    if (metric == SliceMetric::EventCount)
    {
      const int slice = SliceOf(this->Options.Grid, this->Width, time);
      if (slice >= 0)
      {
        this->Row(type)[slice] += 1.0;
      }
      continue;
    }
    // Triva's eq. 4.3, as SliceTrace(): a sample holds until the next one
    // of its variable on the leaf.
    if (this->HaveLast[type])
    {
      if (time < this->LastTime[type])
      {
        throw std::invalid_argument("the samples of leaf " + std::to_string(this->Leaf) +
          " are not in time order");
      }
      AddInterval(this->Row(type), this->Options.Grid, this->Width, this->LastTime[type], time,
        this->LastValue[type]);
    }
    this->HaveLast[type] = 1;
    this->LastTime[type] = time;
    this->LastValue[type] = rows.Value[i];
  }
}

void StreamingTimeSlicer::EndLeaf()
{
  if (this->Leaf < 0)
  {
    throw std::logic_error("EndLeaf without BeginLeaf");
  }
  if (this->Options.Metric == SliceMetric::VariableMean && this->Resource != NoResource)
  {
    for (uint32_t type = 0; type < this->Model.Types; ++type)
    {
      if (this->HaveLast[type])
      {
        AddInterval(this->Row(type), this->Options.Grid, this->Width, this->LastTime[type],
          this->Options.Grid.End, this->LastValue[type]);
      }
    }
  }
  this->Leaf = -1;
}

void StreamingTimeSlicer::AddMessages(const MessageRows& rows)
{
  if (!IsMessageMetric(this->Options.Metric))
  {
    return;
  }
  // Messages are whole once matched: the table algorithm is the streaming one.
  const MicroscopicModel part = SliceTrace(this->Options, {}, {}, rows);
  for (std::size_t i = 0; i < part.Values.size(); ++i)
  {
    this->Model.Values[i] += part.Values[i];
  }
  this->MessagesFinished = true;
}

MicroscopicModel StreamingTimeSlicer::Finish()
{
  if (this->Leaf >= 0)
  {
    throw std::logic_error("Finish before the last leaf's EndLeaf");
  }
  if (!this->MessagesFinished) // SliceTrace() already finished the message planes
  {
    FinishModel(this->Options, this->Model);
  }
  return std::move(this->Model);
}

std::size_t StreamingTimeSlicer::ScratchBytes() const
{
  std::size_t bytes = this->LeafDone.capacity() +
    (this->LastTime.capacity() + this->LastValue.capacity()) * sizeof(double) + this->HaveLast.capacity();
  for (const Level& level : this->Levels)
  {
    bytes += level.Children.capacity() * sizeof(double);
  }
  return bytes;
}

}
