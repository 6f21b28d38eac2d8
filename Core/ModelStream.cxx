#include "ModelStream.h"

#include "ResourceHierarchy.h" // NoResource

#include <algorithm>
#include <stdexcept>

namespace macroscope
{

ModelStream::ModelStream(
  std::vector<uint32_t> planeOfType, const std::vector<TimeSlicingOptions>& options)
  : PlaneOfType(std::move(planeOfType))
  , Options(options)
{
  if (options.empty())
  {
    throw std::invalid_argument("a model stream needs at least one model");
  }
  const TimeSlicingOptions& first = options.front();
  for (const TimeSlicingOptions& other : options)
  {
    if (other.Metric != first.Metric || other.Normalize != first.Normalize ||
      other.Depth != first.Depth || other.Leaves != first.Leaves || other.Types != first.Types)
    {
      throw std::invalid_argument(
        "the models of one stream must share metric, normalization, depth, leaves and types");
    }
  }
  this->Slicers.reserve(options.size());
  for (const TimeSlicingOptions& option : options)
  {
    this->Slicers.emplace_back(option);
  }
}

bool ModelStream::WantsMessages() const
{
  switch (this->Metric())
  {
    case SliceMetric::BytesSentRate:
    case SliceMetric::BytesReceivedRate:
    case SliceMetric::MessagesSent:
    case SliceMetric::MessagesReceived:
      return true;
    default:
      return false;
  }
}

bool ModelStream::NeedsLeaf(uint32_t leaf) const
{
  if (leaf >= this->Leaves())
  {
    return false;
  }
  return std::any_of(this->Options.begin(), this->Options.end(),
    [leaf](const TimeSlicingOptions& option)
    { return option.ResourceOfLeaf.empty() || option.ResourceOfLeaf[leaf] != NoResource; });
}

double ModelStream::ModelBytes() const
{
  double bytes = 0.0;
  for (const TimeSlicingOptions& option : this->Options)
  {
    bytes += 8.0 * option.Grid.Slices * option.Resources * option.Types;
  }
  return bytes;
}

double ModelStream::Begin() const
{
  double begin = this->Options.front().Grid.Begin;
  for (const TimeSlicingOptions& option : this->Options)
  {
    begin = std::min(begin, option.Grid.Begin);
  }
  return begin;
}

double ModelStream::End() const
{
  double end = this->Options.front().Grid.End;
  for (const TimeSlicingOptions& option : this->Options)
  {
    end = std::max(end, option.Grid.End);
  }
  return end;
}

const uint32_t* ModelStream::MapTypes(const uint32_t* types, std::size_t count)
{
  if (this->PlaneOfType.empty() || !types)
  {
    return types;
  }
  this->Planes.resize(count);
  for (std::size_t i = 0; i < count; ++i)
  {
    // Rows of a dropped state keep their mark (it is not a type id).
    this->Planes[i] = types[i] == DroppedStateType ? DroppedStateType
      : types[i] < this->PlaneOfType.size()        ? this->PlaneOfType[types[i]]
                                                   : UINT32_MAX - 1; // out of range: refused
  }
  return this->Planes.data();
}

void ModelStream::BeginLeaf(uint32_t leaf)
{
  ++this->Streamed;
  for (StreamingTimeSlicer& slicer : this->Slicers)
  {
    slicer.BeginLeaf(leaf);
  }
}

void ModelStream::AddStates(const StateRows& rows)
{
  if (!this->WantsStates())
  {
    return;
  }
  StateRows mapped = rows;
  mapped.Type = this->MapTypes(rows.Type, rows.Count);
  for (StreamingTimeSlicer& slicer : this->Slicers)
  {
    slicer.AddStates(mapped);
  }
}

void ModelStream::AddPoints(const PointRows& rows)
{
  if (!this->WantsEvents() && !this->WantsVariables())
  {
    return;
  }
  PointRows mapped = rows;
  mapped.Type = this->MapTypes(rows.Type, rows.Count);
  for (StreamingTimeSlicer& slicer : this->Slicers)
  {
    slicer.AddPoints(mapped);
  }
}

void ModelStream::CountLeaves(const uint32_t* locations, std::size_t count)
{
  this->Seen.resize(this->Leaves(), 0);
  for (std::size_t i = 0; i < count; ++i)
  {
    if (locations[i] < this->Seen.size() && !this->Seen[locations[i]])
    {
      this->Seen[locations[i]] = 1;
      ++this->Streamed;
    }
  }
}

void ModelStream::AddInterleavedStates(const StateRows& rows)
{
  this->CountLeaves(rows.Location, rows.Count);
  if (!this->WantsStates())
  {
    return;
  }
  StateRows mapped = rows;
  mapped.Type = this->MapTypes(rows.Type, rows.Count);
  for (StreamingTimeSlicer& slicer : this->Slicers)
  {
    slicer.AddInterleavedStates(mapped);
  }
}

void ModelStream::AddInterleavedPoints(const PointRows& rows)
{
  this->CountLeaves(rows.Location, rows.Count);
  if (!this->WantsEvents() && !this->WantsVariables())
  {
    return;
  }
  PointRows mapped = rows;
  mapped.Type = this->MapTypes(rows.Type, rows.Count);
  for (StreamingTimeSlicer& slicer : this->Slicers)
  {
    slicer.AddInterleavedPoints(mapped);
  }
}

void ModelStream::EndInterleaved()
{
  for (StreamingTimeSlicer& slicer : this->Slicers)
  {
    slicer.EndInterleaved();
  }
}

void ModelStream::EndLeaf()
{
  for (StreamingTimeSlicer& slicer : this->Slicers)
  {
    slicer.EndLeaf();
  }
}

void ModelStream::AddMessages(const MessageRows& rows)
{
  for (StreamingTimeSlicer& slicer : this->Slicers)
  {
    slicer.AddMessages(rows);
  }
}

ModelStream ModelStream::Fork() const
{
  return ModelStream(this->PlaneOfType, this->Options);
}

void ModelStream::Absorb(ModelStream&& fork)
{
  if (fork.Slicers.size() != this->Slicers.size())
  {
    throw std::invalid_argument("only a fork of this stream can be absorbed");
  }
  for (std::size_t i = 0; i < this->Slicers.size(); ++i)
  {
    this->Slicers[i].Absorb(std::move(fork.Slicers[i]));
  }
  this->Streamed += fork.Streamed;
}

std::vector<uint32_t> ModelStream::LeafGroups() const
{
  // Union-find over the leaves: a resource of any model joins its leaves.
  const uint32_t leaves = this->Leaves();
  std::vector<uint32_t> parent(leaves);
  for (uint32_t leaf = 0; leaf < leaves; ++leaf)
  {
    parent[leaf] = leaf;
  }
  auto root = [&parent](uint32_t leaf)
  {
    while (parent[leaf] != leaf)
    {
      parent[leaf] = parent[parent[leaf]];
      leaf = parent[leaf];
    }
    return leaf;
  };
  for (const TimeSlicingOptions& option : this->Options)
  {
    if (option.ResourceOfLeaf.empty())
    {
      continue; // resource = leaf: joins nothing
    }
    std::vector<uint32_t> firstLeaf(option.Resources, UINT32_MAX);
    for (uint32_t leaf = 0; leaf < leaves && leaf < option.ResourceOfLeaf.size(); ++leaf)
    {
      const uint32_t resource = option.ResourceOfLeaf[leaf];
      if (resource == NoResource || resource >= option.Resources)
      {
        continue;
      }
      if (firstLeaf[resource] == UINT32_MAX)
      {
        firstLeaf[resource] = leaf;
      }
      else
      {
        const uint32_t a = root(firstLeaf[resource]);
        const uint32_t b = root(leaf);
        parent[std::max(a, b)] = std::min(a, b); // the root is a group's first leaf
      }
    }
  }
  std::vector<uint32_t> group(leaves, UINT32_MAX);
  std::vector<uint32_t> number(leaves, UINT32_MAX);
  uint32_t groups = 0;
  for (uint32_t leaf = 0; leaf < leaves; ++leaf)
  {
    if (!this->NeedsLeaf(leaf))
    {
      continue;
    }
    const uint32_t first = root(leaf);
    if (number[first] == UINT32_MAX)
    {
      number[first] = groups++;
    }
    group[leaf] = number[first];
  }
  return group;
}

std::vector<MicroscopicModel> ModelStream::Finish()
{
  std::vector<MicroscopicModel> models;
  models.reserve(this->Slicers.size());
  for (StreamingTimeSlicer& slicer : this->Slicers)
  {
    models.push_back(slicer.Finish());
  }
  return models;
}

}
