// The decoder's building blocks on their own: request table, message
// matching, leaf splitting and the names of OTF2 enumerations.
#include <MacroscopeOTF2.h>
#include <OTF2RequestTable.h>

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace
{
using namespace macroscope::otf2;

TEST(OTF2RequestTable, BehavesLikeAMapUnderChurn)
{
  RequestTable table;
  std::map<uint64_t, uint64_t> reference;
  std::mt19937_64 random(3);
  for (int step = 0; step < 200000; ++step)
  {
    // Few live requests at a time, ids reused, as in MPI codes.
    const uint64_t request = random() % 64 * 0x1000;
    if (random() % 2 == 0)
    {
      const bool replaced = table.insert(request, uint64_t(step));
      EXPECT_EQ(replaced, reference.count(request) == 1);
      reference[request] = uint64_t(step);
    }
    else
    {
      const auto found = reference.find(request);
      const uint64_t expected = found == reference.end() ? RequestTable::NotFound : found->second;
      ASSERT_EQ(table.take(request), expected) << "step " << step;
      if (found != reference.end())
      {
        reference.erase(found);
      }
    }
    ASSERT_EQ(table.size(), reference.size());
  }
  std::size_t drained = 0;
  table.drain([&drained](uint64_t) { ++drained; });
  EXPECT_EQ(drained, reference.size());
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(table.take(0), RequestTable::NotFound);
}

TEST(OTF2RequestTable, GrowsForManyLiveRequests)
{
  RequestTable table;
  for (uint64_t request = 0; request < 10000; ++request)
  {
    table.insert(request * 7919, request);
  }
  EXPECT_EQ(table.size(), 10000u);
  for (uint64_t request = 0; request < 10000; ++request)
  {
    ASSERT_EQ(table.take(request * 7919), request);
  }
}

MessageEndpoint endpoint(uint32_t sender, uint32_t receiver, uint32_t tag, double time, uint64_t bytes)
{
  return MessageEndpoint{ sender, receiver, 0, tag, time, bytes };
}

TEST(OTF2MatchMessages, PairsInOrderPerChannelWhateverTheInputOrder)
{
  // Sends of two locations interleaved; receives listed receiver by receiver.
  const std::vector<MessageEndpoint> sends = { endpoint(1, 0, 9, 1.0, 10),
    endpoint(0, 1, 9, 1.5, 20), endpoint(1, 0, 9, 2.0, 11), endpoint(1, 0, 8, 2.5, 12),
    endpoint(0, 1, 9, 3.0, 21) };
  const std::vector<MessageEndpoint> receives = { endpoint(1, 0, 8, 2.6, 12),
    endpoint(1, 0, 9, 1.1, 10), endpoint(1, 0, 9, 2.1, 11), endpoint(0, 1, 9, 1.4, 20),
    endpoint(0, 1, 9, 3.1, 21), endpoint(0, 1, 9, 3.2, 99) };
  MessageColumns messages;
  Diagnostics report;
  matchMessages(sends, receives, messages, report);
  ASSERT_EQ(messages.size(), 5u);
  EXPECT_EQ(messages.Bytes, messages.RecvBytes);
  EXPECT_EQ(messages.Bytes, (Column<uint64_t>{ 20, 21, 12, 10, 11 }));
  EXPECT_EQ(messages.RecvBeforeSend, (Column<uint8_t>{ 1, 0, 0, 0, 0 }));
  EXPECT_EQ(report.ReceivesBeforeSends, 1u);
  EXPECT_EQ(report.UnmatchedReceives, 1u);
  EXPECT_EQ(report.UnmatchedSends, 0u);
}

TEST(OTF2MatchMessages, AppendsToExistingMessages)
{
  MessageColumns messages;
  Diagnostics report;
  matchMessages({ endpoint(0, 1, 0, 0.0, 1) }, { endpoint(0, 1, 0, 1.0, 1) }, messages, report);
  matchMessages({ endpoint(2, 1, 0, 0.0, 2) }, {}, messages, report);
  EXPECT_EQ(messages.size(), 1u);
  EXPECT_EQ(report.UnmatchedSends, 1u);
}

TraceInfo infoWithEvents(const std::vector<uint64_t>& events)
{
  TraceInfo info;
  for (uint64_t count : events)
  {
    info.Leaves.push_back({ 0, 0, count });
    info.TotalEvents += count;
  }
  return info;
}

TEST(OTF2SplitLeaves, CutsNearEqualShares)
{
  const std::vector<LeafRange> parts = splitLeaves(infoWithEvents({ 10, 10, 10, 10, 40 }), 2);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].Begin, 0u);
  EXPECT_EQ(parts[0].End, 4u);
  EXPECT_EQ(parts[1].Begin, 4u);
  EXPECT_EQ(parts[1].End, 5u);
  EXPECT_EQ(parts[0].leaves(), (std::vector<uint32_t>{ 0, 1, 2, 3 }));
}

TEST(OTF2SplitLeaves, EveryPartGetsALeafWhileThereAreEnough)
{
  const std::vector<LeafRange> parts = splitLeaves(infoWithEvents({ 1000, 1, 1, 1 }), 4);
  for (uint32_t part = 0; part < 4; ++part)
  {
    EXPECT_EQ(parts[part].Begin, part);
    EXPECT_EQ(parts[part].End, part + 1);
  }
}

TEST(OTF2SplitLeaves, MorePartsThanLeavesLeavesSomeEmpty)
{
  const std::vector<LeafRange> parts = splitLeaves(infoWithEvents({ 5, 5 }), 4);
  ASSERT_EQ(parts.size(), 4u);
  uint32_t covered = 0;
  for (const LeafRange& part : parts)
  {
    EXPECT_EQ(part.Begin, covered);
    EXPECT_LE(part.Begin, part.End);
    covered = part.End;
  }
  EXPECT_EQ(covered, 2u);
  EXPECT_THROW(splitLeaves(infoWithEvents({ 5 }), 0), std::invalid_argument);
}

TEST(OTF2Names, EnumerationsHaveNamesAndUnknownValuesNumbers)
{
  EXPECT_EQ(paradigmName(4), "MPI");
  EXPECT_EQ(paradigmName(3), "OpenMP");
  EXPECT_EQ(paradigmName(1000), "paradigm 1000");
  EXPECT_EQ(regionRoleName(28), "point2point");
  EXPECT_EQ(locationTypeName(1), "thread");
  EXPECT_EQ(locationTypeName(2), "gpu");
  EXPECT_EQ(locationTypeName(3), "metric");
  EXPECT_EQ(locationGroupTypeName(1), "process");
  EXPECT_EQ(collectiveOperationName(11), "Allreduce");
  EXPECT_EQ(collectiveOperationName(-1), "");
  EXPECT_STREQ(recordKindName(RecordKind::MpiIsendComplete), "MpiIsendComplete");
}

} // namespace
