#include "ProducerActivity.h"

#include "ResourceHierarchy.h" // NoResource

#include <cmath>
#include <string>

namespace macroscope
{

void ActivityWindow::Validate() const
{
  if (!std::isfinite(this->Begin) || std::isnan(this->End) || !(this->Begin < this->End))
  {
    throw std::invalid_argument("the window [" + std::to_string(this->Begin) + ", " +
      std::to_string(this->End) + ") is empty or not a window: it needs start < end");
  }
}

namespace
{
// Progress is reported (and an abort heard) every this many rows.
constexpr std::size_t Chunk = 1 << 16;

struct Counter
{
  uint32_t Leaves;
  std::size_t Rows;
  std::size_t Done = 0;
  const std::function<bool(double)>& Progress;

  uint32_t Leaf(uint32_t leaf, std::size_t row) const
  {
    if (leaf >= this->Leaves)
    {
      throw std::invalid_argument("row " + std::to_string(row) + " refers to location " +
        std::to_string(leaf) + ", but there are " + std::to_string(this->Leaves) + " locations");
    }
    return leaf;
  }
  void Step()
  {
    if (++this->Done % Chunk == 0 && this->Progress &&
      !this->Progress(double(this->Done) / double(this->Rows)))
    {
      throw ActivityAborted();
    }
  }
};
}

ActivityCounts CountLeafActivity(uint32_t leaves, const ActivityWindow& window,
  const StateRows& states, const PointRows& events, const PointRows& variables,
  const MessageRows& messages, const std::function<bool(double)>& progress)
{
  window.Validate();
  ActivityCounts counts(leaves);
  Counter counter{ leaves, states.Count + events.Count + variables.Count + messages.Count, 0,
    progress };
  for (std::size_t i = 0; i < states.Count; ++i)
  {
    const uint32_t leaf = counter.Leaf(states.Location[i], i);
    counts.States[leaf] += window.Overlaps(states.Start[i], states.End[i]) ? 1 : 0;
    counter.Step();
  }
  for (std::size_t i = 0; i < events.Count; ++i)
  {
    const uint32_t leaf = counter.Leaf(events.Location[i], i);
    counts.Events[leaf] += window.Contains(events.Time[i]) ? 1 : 0;
    counter.Step();
  }
  for (std::size_t i = 0; i < variables.Count; ++i)
  {
    const uint32_t leaf = counter.Leaf(variables.Location[i], i);
    counts.Variables[leaf] += window.Contains(variables.Time[i]) ? 1 : 0;
    counter.Step();
  }
  for (std::size_t i = 0; i < messages.Count; ++i)
  {
    const uint32_t sender = counter.Leaf(messages.Sender[i], i);
    const uint32_t receiver = counter.Leaf(messages.Receiver[i], i);
    counts.Messages[sender] += window.Contains(messages.SendTime[i]) ? 1 : 0;
    counts.Messages[receiver] += window.Contains(messages.RecvTime[i]) ? 1 : 0;
    counter.Step();
  }
  if (progress && !progress(1.0))
  {
    throw ActivityAborted();
  }
  return counts;
}

ActivityCounts SumByProducer(
  const ActivityCounts& leaves, const std::vector<uint32_t>& producerOfLeaf, uint32_t producers)
{
  if (producerOfLeaf.size() != leaves.Size())
  {
    throw std::invalid_argument("SumByProducer: one producer per location is needed");
  }
  ActivityCounts sums(producers);
  for (std::size_t leaf = 0; leaf < leaves.Size(); ++leaf)
  {
    const uint32_t p = producerOfLeaf[leaf];
    if (p == NoResource)
    {
      continue;
    }
    if (p >= producers)
    {
      throw std::invalid_argument("SumByProducer: location " + std::to_string(leaf) +
        " maps to producer " + std::to_string(p) + " of " + std::to_string(producers));
    }
    sums.States[p] += leaves.States[leaf];
    sums.Events[p] += leaves.Events[leaf];
    sums.Variables[p] += leaves.Variables[leaf];
    sums.Messages[p] += leaves.Messages[leaf];
  }
  return sums;
}

std::vector<uint32_t> ProducersWithActivity(
  const ActivityCounts& producers, bool active, uint64_t minimumRecords)
{
  std::vector<uint32_t> chosen;
  for (std::size_t p = 0; p < producers.Size(); ++p)
  {
    if ((producers.Total(p) >= minimumRecords) == active)
    {
      chosen.push_back(static_cast<uint32_t>(p));
    }
  }
  return chosen;
}

}
