#include "OTF2MessageMatcher.h"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <cstdlib>

namespace macroscope::otf2
{

namespace
{
uint64_t hashOf(const ChannelKey& key)
{
  const uint64_t ends = uint64_t(key.Sender) << 32 | key.Receiver;
  const uint64_t label = uint64_t(key.Communicator) << 32 | key.Tag;
  uint64_t h = (ends ^ (label * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull;
  return h ^ (h >> 32);
}
}

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

std::size_t ChannelIndex::probe(const ChannelKey& key) const
{
  // Linear probing ends at the key or at a free slot, which exists because
  // the table is at most half full.
  const std::size_t mask = this->Slots.size() - 1;
  for (std::size_t slot = hashOf(key) & mask;; slot = (slot + 1) & mask)
  {
    const uint32_t number = this->Slots[slot];
    if (number == NotFound || this->Keys[number] == key)
    {
      return slot;
    }
  }
}

uint32_t ChannelIndex::insert(const ChannelKey& key)
{
  if (2 * (this->Keys.size() + 1) > this->Slots.size())
  {
    this->Slots.assign(std::max<std::size_t>(16, 2 * this->Slots.size()), NotFound);
    for (uint32_t number = 0; number < this->Keys.size(); ++number)
    {
      this->Slots[this->probe(this->Keys[number])] = number;
    }
  }
  uint32_t& number = this->Slots[this->probe(key)];
  if (number == NotFound)
  {
    number = uint32_t(this->Keys.size());
    this->Keys.push_back(key);
  }
  return number;
}

uint32_t ChannelIndex::find(const ChannelKey& key) const
{
  return this->Slots.empty() ? NotFound : this->Slots[this->probe(key)];
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
{
}

void MessageMatcher::beginLocation(uint32_t leaf)
{
  this->Leaf = leaf;
  this->LocalChannels.clear();
  this->LocalCounts.clear();
  this->LocalSends.clear();
}

std::size_t MessageMatcher::send(
  uint32_t receiver, uint32_t communicator, uint32_t tag, double time, uint64_t bytes)
{
  const uint32_t channel =
    this->LocalChannels.insert({ this->Leaf, receiver, communicator, tag });
  if (channel == this->LocalCounts.size())
  {
    this->LocalCounts.push_back(0);
  }
  ++this->LocalCounts[channel];
  this->LocalSends.push_back({ time, bytes, channel });
  return this->LocalSends.size() - 1;
}

void MessageMatcher::cancelSend(std::size_t handle)
{
  LocalSend& send = this->LocalSends[handle];
  if (send.Channel != Withdrawn)
  {
    --this->LocalCounts[send.Channel];
    send.Channel = Withdrawn;
  }
}

void MessageMatcher::receive(
  uint32_t sender, uint32_t communicator, uint32_t tag, double time, uint64_t bytes)
{
  static const bool noRecv = getenv("NORECV") != nullptr; if (noRecv) return;
  const ChannelKey channel{ sender, this->Leaf, communicator, tag };
  static const bool noMatchNow = getenv("NOMATCHNOW") != nullptr;
  if (this->Written[sender] && !noMatchNow)
  {
    this->match(channel, time, bytes);
  }
  else
  {
    // All receives of a channel take the same path, so each channel still
    // meets its receives in record order.
    this->Waiting.push_back({ channel, time, bytes });
  }
}

void MessageMatcher::endLocation()
{
  this->Written[this->Leaf] = 1;
  const uint32_t channels = uint32_t(this->LocalChannels.size());
  if (channels == 0)
  {
    return;
  }
  // Rows channel by channel in key order, sends in record order within one.
  this->Order.resize(channels);
  std::iota(this->Order.begin(), this->Order.end(), 0u);
  std::sort(this->Order.begin(), this->Order.end(), [this](uint32_t a, uint32_t b) {
    return this->LocalChannels.key(a) < this->LocalChannels.key(b);
  });
  MessageColumns& m = this->Messages;
  const std::size_t first = m.size();
  std::size_t rows = first;
  this->NextRow.resize(channels);
  for (uint32_t local : this->Order)
  {
    const std::size_t count = this->LocalCounts[local];
    this->NextRow[local] = rows;
    if (count > 0)
    {
      const uint32_t number = this->Channels.insert(this->LocalChannels.key(local));
      assert(number == this->Runs.size() && "a location's channels are new");
      (void)number;
      this->Runs.push_back({ rows, rows, rows + count });
      rows += count;
    }
  }
  if (rows == first)
  {
    return; // every send was withdrawn
  }

  // Each new row is written exactly once below: per run for the columns
  // that are constant on a channel, per send for the others.
  m.Sender.resize_for_overwrite(rows);
  m.Receiver.resize_for_overwrite(rows);
  m.Communicator.resize_for_overwrite(rows);
  m.Tag.resize_for_overwrite(rows);
  m.SendTime.resize_for_overwrite(rows);
  m.Bytes.resize_for_overwrite(rows);
  // The receive side stays 0 until matched; rows left open are dropped.
  m.RecvTime.resize(rows);
  m.RecvBytes.resize(rows);
  m.RecvBeforeSend.resize(rows);

  std::fill(m.Sender.begin() + first, m.Sender.end(), this->Leaf);
  for (uint32_t local = 0; local < channels; ++local)
  {
    const ChannelKey& key = this->LocalChannels.key(local);
    const std::size_t begin = this->NextRow[local];
    const std::size_t end = begin + this->LocalCounts[local];
    std::fill(m.Receiver.begin() + begin, m.Receiver.begin() + end, key.Receiver);
    std::fill(m.Communicator.begin() + begin, m.Communicator.begin() + end, key.Communicator);
    std::fill(m.Tag.begin() + begin, m.Tag.begin() + end, key.Tag);
  }
  for (const LocalSend& send : this->LocalSends)
  {
    if (send.Channel != Withdrawn)
    {
      const std::size_t row = this->NextRow[send.Channel]++;
      m.SendTime[row] = send.Time;
      m.Bytes[row] = send.Bytes;
    }
  }
}

void MessageMatcher::match(const ChannelKey& channel, double time, uint64_t bytes)
{
  const uint32_t number = this->Channels.find(channel);
  if (number == ChannelIndex::NotFound || this->Runs[number].Next == this->Runs[number].End)
  {
    ++this->UnmatchedReceives;
    return;
  }
  const std::size_t row = this->Runs[number].Next++;
  MessageColumns& m = this->Messages;
  const bool drift = time < m.SendTime[row];
  m.RecvTime[row] = time;
  m.RecvBytes[row] = bytes;
  m.RecvBeforeSend[row] = drift ? 1 : 0;
  this->ReceivesBeforeSends += drift ? 1 : 0;
}

void MessageMatcher::finish(Diagnostics& report)
{
  for (const WaitingReceive& receive : this->Waiting)
  {
    this->match(receive.Channel, receive.Time, receive.Bytes);
  }
  std::vector<WaitingReceive>().swap(this->Waiting);
  std::vector<LocalSend>().swap(this->LocalSends);

  uint64_t open = 0;
  for (const RowRun& run : this->Runs)
  {
    open += run.End - run.Next;
  }
  if (open > 0)
  {
    this->dropOpenRows();
  }
  report.UnmatchedSends += open;
  report.UnmatchedReceives += this->UnmatchedReceives;
  report.ReceivesBeforeSends += this->ReceivesBeforeSends;
  this->UnmatchedReceives = 0;
  this->ReceivesBeforeSends = 0;
  this->Runs.clear();
  this->Channels.clear();
}

template <typename T>
void MessageMatcher::keepMatchedRows(Column<T>& column) const
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

void MessageMatcher::dropOpenRows()
{
  MessageColumns& m = this->Messages;
  this->keepMatchedRows(m.Sender);
  this->keepMatchedRows(m.Receiver);
  this->keepMatchedRows(m.SendTime);
  this->keepMatchedRows(m.RecvTime);
  this->keepMatchedRows(m.Bytes);
  this->keepMatchedRows(m.RecvBytes);
  this->keepMatchedRows(m.Tag);
  this->keepMatchedRows(m.Communicator);
  this->keepMatchedRows(m.RecvBeforeSend);
}

} // namespace macroscope::otf2
