// Pairs the sends and receives of the locations readTrace() reads, while it
// reads them, and writes the messages straight into the Messages table.
//
// MPI does not overtake on a channel (sender, receiver, communicator, tag):
// the k-th send on a channel is received by its k-th receive. All sends of
// a channel come from one location and all its receives from another, each
// in record order, so no global sort is needed:
//
// - the sends of a location are kept until the location ends, then written
//   as message rows grouped by channel (channels in key order, sends in
//   record order), which makes the table come out in channel order;
// - a receive whose sender's rows are written already completes the next
//   open row of its channel at once; the others (their sender comes later in
//   leaf order) wait, in record order, for finish().
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
    return a.Sender == b.Sender && a.Receiver == b.Receiver &&
      a.Communicator == b.Communicator && a.Tag == b.Tag;
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
  uint32_t insert(const ChannelKey& key);
  /// The number of `key`, or NotFound.
  uint32_t find(const ChannelKey& key) const;
  const ChannelKey& key(uint32_t number) const { return this->Keys[number]; }
  std::size_t size() const { return this->Keys.size(); }
  void clear();

private:
  std::size_t probe(const ChannelKey& key) const;

  std::vector<ChannelKey> Keys;
  std::vector<uint32_t> Slots; ///< power-of-two size, at most half used; NotFound when free
};

class MessageMatcher
{
public:
  /// Appends to `messages`; `leaves` is the number of leaves of the trace.
  MessageMatcher(MessageColumns& messages, std::size_t leaves);

  void beginLocation(uint32_t leaf);
  /// A send of the current location to a location that is read too.
  /// Returns the handle that cancelSend() takes.
  std::size_t send(uint32_t receiver, uint32_t communicator, uint32_t tag, double time, uint64_t bytes);
  /// Withdraws a send of the current location (a cancelled request).
  void cancelSend(std::size_t handle);
  /// A receive of the current location from a location that is read too.
  void receive(uint32_t sender, uint32_t communicator, uint32_t tag, double time, uint64_t bytes);
  /// Writes the current location's sends as message rows.
  void endLocation();
  /// Matches the receives that waited for their sender, removes the rows of
  /// sends that found no receive, and adds the counts to `report`.
  void finish(Diagnostics& report);

  /// Sends of the locations ended so far, matched or not (for planning).
  std::size_t rowsWritten() const { return this->Messages.size() - this->FirstRow; }

private:
  /// A send waiting for its location's end.
  struct LocalSend
  {
    double Time;
    uint64_t Bytes;
    uint32_t Channel; ///< in LocalChannels, or Withdrawn
  };
  /// The rows of one channel: [Begin, Next) matched, [Next, End) open.
  struct RowRun
  {
    std::size_t Begin;
    std::size_t Next;
    std::size_t End;
  };
  struct WaitingReceive
  {
    ChannelKey Channel;
    double Time;
    uint64_t Bytes;
  };
  static constexpr uint32_t Withdrawn = ~uint32_t(0);

  void match(const ChannelKey& channel, double time, uint64_t bytes);
  /// Removes the rows of the sends that found no receive.
  void dropOpenRows();
  template <typename T>
  void keepMatchedRows(Column<T>& column) const;

  MessageColumns& Messages;
  std::size_t FirstRow;
  std::vector<uint8_t> Written; ///< per leaf: its sends are rows already

  uint32_t Leaf = 0;
  ChannelIndex LocalChannels;       ///< channels of the current location's sends
  std::vector<std::size_t> LocalCounts; ///< live sends per local channel
  std::vector<LocalSend> LocalSends;
  std::vector<uint32_t> Order;      ///< scratch of endLocation()
  std::vector<std::size_t> NextRow; ///< scratch of endLocation()

  ChannelIndex Channels; ///< numbered in row order
  std::vector<RowRun> Runs; ///< by channel number
  std::vector<WaitingReceive> Waiting;

  uint64_t UnmatchedReceives = 0;
  uint64_t ReceivesBeforeSends = 0;
};

} // namespace macroscope::otf2

#endif
