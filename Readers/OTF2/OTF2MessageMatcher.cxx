#include "OTF2MessageMatcher.h"

#include <algorithm>
#include <cassert>
#include <numeric>

namespace macroscope::otf2
{

bool operator<(const ChannelKey& a, const ChannelKey& b)
{
  if (a.Sender != b.Sender)
    return a.Sender < b.Sender;
  if (a.Receiver != b.Receiver)
    return a.Receiver < b.Receiver;
  if (a.Communicator != b.Communicator)
    return a.Communicator < b.Communicator;
  return a.Tag < b.Tag;
}

void ChannelIndex::Grow()
{
  this->Slots.assign(std::max<std::size_t>(16, 2 * this->Slots.size()), NotFound);
  this->Mask = this->Slots.size() - 1;
  for (uint32_t number = 0; number < this->Keys.size(); ++number)
  {
    this->Slots[this->Probe(this->Keys[number])] = number;
  }
}

void ChannelIndex::clear()
{
  this->Keys.clear();
  std::fill(this->Slots.begin(), this->Slots.end(), NotFound);
}

MessageMatcher::MessageMatcher(MessageColumns& messages, std::size_t leaves)
  : Messages(messages)
  , FirstRow(messages.size())
  , Written(leaves, 0)
  , Sends(&ChannelKey::Receiver, leaves)
  , Receives(&ChannelKey::Sender, leaves)
{
}

void MessageMatcher::LocalEnds::clear()
{
  for (uint32_t number = 0; number < this->Channels.size(); ++number)
  {
    this->LastOfPeer[this->Channels.Key(number).*(this->Peer)] = ChannelIndex::NotFound;
  }
  this->Channels.clear();
  this->Counts.clear();
  this->Ends.clear();
}

void MessageMatcher::LocalEnds::Layout(
  std::vector<uint32_t>& order, std::vector<std::size_t>& first) const
{
  const uint32_t channels = uint32_t(this->Channels.size());
  order.resize(channels);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
    [this](uint32_t a, uint32_t b) { return this->Channels.Key(a) < this->Channels.Key(b); });
  first.resize(channels);
  std::size_t position = 0;
  for (uint32_t number : order)
  {
    first[number] = position;
    position += this->Counts[number];
  }
}

void MessageMatcher::BeginLocation(uint32_t leaf)
{
  this->Leaf = leaf;
  this->Sends.clear();
  this->Receives.clear();
}

void MessageMatcher::CancelSend(std::size_t handle)
{
  LocalEnd& send = this->Sends.Ends[handle];
  if (send.Channel != Withdrawn)
  {
    --this->Sends.Counts[send.Channel];
    send.Channel = Withdrawn;
  }
}

void MessageMatcher::EndLocation()
{
  // Sends first: a location's messages to itself find their rows.
  this->WriteSends();
  this->Written[this->Leaf] = 1;
  this->CompleteReceives();
}

void MessageMatcher::WriteSends()
{
  if (this->Sends.Ends.empty())
  {
    return;
  }
  this->Sends.Layout(this->Order, this->First);
  MessageColumns& m = this->Messages;
  const std::size_t first = m.size();
  std::size_t rows = first;
  for (uint32_t number : this->Order)
  {
    const std::size_t count = this->Sends.Counts[number];
    this->First[number] += first;
    if (count > 0)
    {
      const uint32_t channel = this->Channels.insert(this->Sends.Channels.Key(number));
      assert(channel == this->Runs.size() && "a location's channels are new");
      (void)channel;
      this->Runs.push_back({ rows, rows, rows + count });
      rows += count;
    }
  }
  if (rows == first)
  {
    return; // every send was withdrawn
  }

  // Each new row is written exactly once below: per channel for the columns
  // that are constant on a channel, per send for the others. The receive
  // side stays 0 until completed; rows left open are dropped by Finish(),
  // which also sets the drift flags.
  m.Sender.resize_for_overwrite(rows);
  m.Receiver.resize_for_overwrite(rows);
  m.Communicator.resize_for_overwrite(rows);
  m.Tag.resize_for_overwrite(rows);
  m.SendTime.resize_for_overwrite(rows);
  m.Bytes.resize_for_overwrite(rows);
  m.RecvTime.resize(rows);
  m.RecvBytes.resize(rows);
  m.RecvBeforeSend.resize(rows);

  std::fill(m.Sender.begin() + first, m.Sender.end(), this->Leaf);
  for (uint32_t number : this->Order)
  {
    const ChannelKey& key = this->Sends.Channels.Key(number);
    const std::size_t begin = this->First[number];
    const std::size_t end = begin + this->Sends.Counts[number];
    std::fill(m.Receiver.begin() + begin, m.Receiver.begin() + end, key.Receiver);
    std::fill(m.Communicator.begin() + begin, m.Communicator.begin() + end, key.Communicator);
    std::fill(m.Tag.begin() + begin, m.Tag.begin() + end, key.Tag);
  }
  for (const LocalEnd& send : this->Sends.Ends)
  {
    if (send.Channel != Withdrawn)
    {
      const std::size_t row = this->First[send.Channel]++;
      m.SendTime[row] = send.Record.Time;
      m.Bytes[row] = send.Record.Bytes;
    }
  }
}

void MessageMatcher::CompleteReceives()
{
  if (this->Receives.Ends.empty())
  {
    return;
  }
  this->Receives.Layout(this->Order, this->First);
  this->Grouped.resize(this->Receives.Ends.size());
  for (const LocalEnd& receive : this->Receives.Ends)
  {
    this->Grouped[this->First[receive.Channel]++] = receive.Record;
  }
  std::size_t begin = 0;
  for (uint32_t number : this->Order)
  {
    const ChannelKey& key = this->Receives.Channels.Key(number);
    const std::size_t count = this->Receives.Counts[number];
    if (this->Written[key.Sender])
    {
      this->Complete(key, this->Grouped.data() + begin, count);
    }
    else
    {
      // All receives of a channel are here: they wait together, in order.
      this->WaitingRuns.push_back({ key, this->WaitingEnds.size(), count });
      this->WaitingEnds.insert(this->WaitingEnds.end(), this->Grouped.begin() + begin,
        this->Grouped.begin() + begin + count);
    }
    begin += count;
  }
}

void MessageMatcher::Complete(const ChannelKey& channel, const End* receives, std::size_t count)
{
  const uint32_t number = this->Channels.find(channel);
  std::size_t completed = 0;
  if (number != ChannelIndex::NotFound)
  {
    RowRun& run = this->Runs[number];
    completed = std::min(count, run.End - run.Next);
    MessageColumns& m = this->Messages;
    for (std::size_t i = 0; i < completed; ++i)
    {
      m.RecvTime[run.Next + i] = receives[i].Time;
      m.RecvBytes[run.Next + i] = receives[i].Bytes;
    }
    run.Next += completed;
  }
  this->UnmatchedReceives += count - completed;
}

void MessageMatcher::Finish(Diagnostics& report)
{
  for (const WaitingRun& run : this->WaitingRuns)
  {
    this->Complete(run.Channel, this->WaitingEnds.data() + run.First, run.Count);
  }
  std::vector<WaitingRun>().swap(this->WaitingRuns);
  std::vector<End>().swap(this->WaitingEnds);
  this->Sends.clear();
  this->Receives.clear();

  uint64_t open = 0;
  for (const RowRun& run : this->Runs)
  {
    open += run.End - run.Next;
  }
  if (open > 0)
  {
    this->DropOpenRows();
  }
  MessageColumns& m = this->Messages;
  uint64_t drifting = 0;
  for (std::size_t row = this->FirstRow; row < m.size(); ++row)
  {
    const bool drift = m.RecvTime[row] < m.SendTime[row];
    m.RecvBeforeSend[row] = drift ? 1 : 0;
    drifting += drift ? 1 : 0;
  }
  report.UnmatchedSends += open;
  report.UnmatchedReceives += this->UnmatchedReceives;
  report.ReceivesBeforeSends += drifting;
  this->UnmatchedReceives = 0;
  this->Runs.clear();
  this->Channels.clear();
}

template <typename T>
void MessageMatcher::KeepCompleteRows(Column<T>& column) const
{
  // Runs are numbered in row order and tile the rows from FirstRow on.
  T* rows = column.data();
  std::size_t kept = this->FirstRow;
  for (const RowRun& run : this->Runs)
  {
    if (kept != run.Begin)
    {
      std::copy(rows + run.Begin, rows + run.Next, rows + kept);
    }
    kept += run.Next - run.Begin;
  }
  column.resize(kept);
}

void MessageMatcher::DropOpenRows()
{
  MessageColumns& m = this->Messages;
  this->KeepCompleteRows(m.Sender);
  this->KeepCompleteRows(m.Receiver);
  this->KeepCompleteRows(m.SendTime);
  this->KeepCompleteRows(m.RecvTime);
  this->KeepCompleteRows(m.Bytes);
  this->KeepCompleteRows(m.RecvBytes);
  this->KeepCompleteRows(m.Tag);
  this->KeepCompleteRows(m.Communicator);
  this->KeepCompleteRows(m.RecvBeforeSend);
}

} // namespace macroscope::otf2
