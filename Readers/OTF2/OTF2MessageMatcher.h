// Pairs the sends and receives of the locations ReadTrace() reads, while it
// reads them, and writes the messages straight into the Messages table.
//
// MPI does not overtake on a channel (sender, receiver, communicator, tag):
// the k-th send on a channel is received by its k-th receive. All sends of
// a channel come from one location and all its receives from another, each
// in record order. So each location's ends are grouped by channel when the
// location ends, within a buffer the size of one location, and no global
// sort is needed:
//
// - its sends become message rows, channel after channel in key order, so
//   that the table comes out in channel order;
// - its receives complete, run by run, the rows of their channel when the
//   sender was read before; the others wait, grouped, for Finish().
//
// Every access to the table's columns is thus sequential.
#ifndef macroscope_otf2_OTF2MessageMatcher_h
#define macroscope_otf2_OTF2MessageMatcher_h

#include "OTF2TraceTables.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace macroscope::otf2
{

struct ChannelKey
{
  uint32_t Sender = 0;
  uint32_t Receiver = 0;
  uint32_t Communicator = 0;
  uint32_t Tag = 0;

  friend bool operator==(const ChannelKey& a, const ChannelKey& b)
  {
    return a.Sender == b.Sender && a.Receiver == b.Receiver && a.Communicator == b.Communicator &&
      a.Tag == b.Tag;
  }
  /// Channel order: sender, receiver, communicator, tag.
  friend bool operator<(const ChannelKey& a, const ChannelKey& b);
};

/// Numbers channels densely in the order they are first seen: open
/// addressing over indexes into the key list, no allocation per lookup.
class ChannelIndex
{
public:
  static constexpr uint32_t NotFound = ~uint32_t(0);

  /// The number of `key`, numbering it size() when it is new.
  uint32_t insert(const ChannelKey& key)
  {
    if (2 * (this->Keys.size() + 1) > this->Slots.size())
    {
      this->Grow();
    }
    uint32_t& number = this->Slots[this->Probe(key)];
    if (number == NotFound)
    {
      number = uint32_t(this->Keys.size());
      this->Keys.push_back(key);
    }
    return number;
  }
  /// The number of `key`, or NotFound.
  uint32_t find(const ChannelKey& key) const
  {
    return this->Slots.empty() ? NotFound : this->Slots[this->Probe(key)];
  }
  const ChannelKey& Key(uint32_t number) const { return this->Keys[number]; }
  std::size_t size() const { return this->Keys.size(); }
  void clear();

private:
  /// The slot of `key`, or the free slot where its probe ends.
  std::size_t Probe(const ChannelKey& key) const
  {
    const uint64_t ends = uint64_t(key.Sender) << 32 | key.Receiver;
    const uint64_t label = uint64_t(key.Communicator) << 32 | key.Tag;
    uint64_t hash = (ends ^ (label * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull;
    hash ^= hash >> 32;
    for (std::size_t slot = hash & this->Mask;; slot = (slot + 1) & this->Mask)
    {
      const uint32_t number = this->Slots[slot];
      if (number == NotFound || this->Keys[number] == key)
      {
        return slot;
      }
    }
  }
  void Grow();

  std::vector<ChannelKey> Keys;
  std::vector<uint32_t> Slots; ///< power-of-two size, at most half used; NotFound when free
  std::size_t Mask = 0;
};

class MessageMatcher
{
public:
  /// Appends to `messages`; `leaves` is the number of leaves of the trace.
  MessageMatcher(MessageColumns& messages, std::size_t leaves);

  void BeginLocation(uint32_t leaf);
  /// A send of the current location to a location that is read too.
  /// Returns the handle that CancelSend() takes.
  std::size_t Send(
    uint32_t receiver, uint32_t communicator, uint32_t tag, double time, uint64_t bytes)
  {
    return this->Sends.Add({ this->Leaf, receiver, communicator, tag }, time, bytes);
  }
  /// Withdraws a send of the current location (a cancelled request).
  void CancelSend(std::size_t handle);
  /// A receive of the current location from a location that is read too.
  void Receive(uint32_t sender, uint32_t communicator, uint32_t tag, double time, uint64_t bytes)
  {
    this->Receives.Add({ sender, this->Leaf, communicator, tag }, time, bytes);
  }
  /// Writes the current location's sends as message rows and completes rows
  /// with its receives.
  void EndLocation();
  /// Completes rows with the receives that waited for their sender, removes
  /// the rows of sends that found no receive, flags clock drift, and adds
  /// the counts to `report`.
  void Finish(Diagnostics& report);

  /// Rows of the locations ended so far, matched or not (for planning).
  std::size_t RowsWritten() const { return this->Messages.size() - this->FirstRow; }

private:
  /// The time and length of a send or receive.
  struct End
  {
    double Time;
    uint64_t Bytes;
  };
  /// A send or receive of the current location.
  struct LocalEnd
  {
    End Record;
    uint32_t Channel; ///< in LocalEnds::Channels, or Withdrawn
  };
  static constexpr uint32_t Withdrawn = ~uint32_t(0);

  /// The sends, or the receives, of the current location by channel.
  struct LocalEnds
  {
    /// `peer` names the other end: Receiver for sends, Sender for receives.
    LocalEnds(uint32_t ChannelKey::*peer, std::size_t leaves)
      : Peer(peer)
      , LastOfPeer(leaves, ChannelIndex::NotFound)
    {
    }

    std::size_t Add(const ChannelKey& channel, double time, uint64_t bytes)
    {
      // A location mostly talks to each peer on one channel: try the last
      // one used with the peer before hashing.
      uint32_t& number = this->LastOfPeer[channel.*(this->Peer)];
      if (number == ChannelIndex::NotFound || !(this->Channels.Key(number) == channel))
      {
        number = this->Channels.insert(channel);
        if (number == this->Counts.size())
        {
          this->Counts.push_back(0);
        }
      }
      ++this->Counts[number];
      this->Ends.push_back({ { time, bytes }, number });
      return this->Ends.size() - 1;
    }
    void clear();
    /// Channel numbers in key order, and the first position of each channel
    /// (by number) when the ends are laid out in that order.
    void Layout(std::vector<uint32_t>& order, std::vector<std::size_t>& first) const;

    uint32_t ChannelKey::*Peer;
    std::vector<uint32_t> LastOfPeer; ///< by leaf: a channel number, or NotFound
    ChannelIndex Channels;
    std::vector<std::size_t> Counts; ///< live ends per channel
    std::vector<LocalEnd> Ends;      ///< in record order
  };

  /// The rows of one channel: [Begin, Next) complete, [Next, End) open.
  struct RowRun
  {
    std::size_t Begin;
    std::size_t Next;
    std::size_t End;
  };
  /// Receives of a channel whose sender is read later: WaitingEnds[First, First + Count).
  struct WaitingRun
  {
    ChannelKey Channel;
    std::size_t First;
    std::size_t Count;
  };

  void WriteSends();
  void CompleteReceives();
  /// Completes the open rows of `channel` with `count` receives in order.
  void Complete(const ChannelKey& channel, const End* receives, std::size_t count);
  /// Removes the rows of the sends that found no receive.
  void DropOpenRows();
  template <typename T>
  void KeepCompleteRows(Column<T>& column) const;

  MessageColumns& Messages;
  std::size_t FirstRow;
  std::vector<uint8_t> Written; ///< per leaf: its sends are rows already

  uint32_t Leaf = 0;
  LocalEnds Sends;
  LocalEnds Receives;
  std::vector<uint32_t> Order;    ///< scratch of EndLocation()
  std::vector<std::size_t> First; ///< scratch of EndLocation()
  std::vector<End> Grouped;       ///< scratch of EndLocation()

  ChannelIndex Channels;    ///< numbered in row order
  std::vector<RowRun> Runs; ///< by channel number
  std::vector<WaitingRun> WaitingRuns;
  std::vector<End> WaitingEnds;

  uint64_t UnmatchedReceives = 0;
};

} // namespace macroscope::otf2

#endif
