// The decoder's building blocks on their own: columns, request table,
// message matching, read progress, leaf splitting and the names of OTF2 enumerations.
#include <MacroscopeOTF2.h>
#include <OTF2Column.h>
#include <OTF2MessageMatcher.h>
#include <OTF2ReadProgress.h>
#include <OTF2RequestTable.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>

namespace
{
using namespace macroscope::otf2;

// Reads `records[i]` records of each location in batches of the progress's
// own size, as ReadTrace() does, and returns every fraction reported.
std::vector<double> simulateRead(ReadProgress& progress, const std::vector<uint64_t>& records)
{
  std::vector<double> values{ progress.Fraction(0, 0) };
  const uint64_t batch = progress.BatchRecords();
  for (std::size_t location = 0; location < records.size(); ++location)
  {
    for (uint64_t read = batch; read < records[location]; read += batch)
    {
      values.push_back(progress.Fraction(location, read));
    }
    progress.Finish(location, records[location]);
    values.push_back(progress.Fraction(location, 0));
  }
  return values;
}

double largestStep(const std::vector<double>& values)
{
  double step = values.front();
  for (std::size_t i = 1; i < values.size(); ++i)
  {
    step = std::max(step, values[i] - values[i - 1]);
  }
  return std::max(step, 1.0 - values.back());
}

TEST(OTF2ReadProgress, MovesEvenlyOnAnEZTraceArchiveThatAnnouncesTwoEventsPerLocation)
{
  // 4 ranks of a 100,000-iteration ring traced by EZTrace: about 8.7 to 9.9
  // MB and 600,000 records each, 2 announced.
  const std::vector<uint64_t> bytes{ 8668506, 9868524, 9768524, 9768524 };
  const std::vector<uint64_t> records{ 560000, 620000, 610000, 610000 };
  ReadProgress progress(bytes, { 2, 2, 2, 2 });
  const std::vector<double> values = simulateRead(progress, records);
  EXPECT_TRUE(std::is_sorted(values.begin(), values.end()));
  EXPECT_DOUBLE_EQ(values.back(), 1.0);
  std::vector<double> distinct(values);
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  EXPECT_GE(distinct.size(), 100u); // about ReadProgress::Reports
  // The first location is estimated with the guessed record size, the
  // others with the one measured: no step is a location's share (0.25).
  EXPECT_LT(largestStep(values), 0.08);
}

TEST(OTF2ReadProgress, TrustsAnnouncedCountsThatFitTheFileSizes)
{
  // Two locations of 8 bytes a record, announced truly: the first one is
  // estimated right from its first batch.
  ReadProgress progress({ 8000000, 8000000 }, { 1000000, 1000000 });
  EXPECT_NEAR(progress.Fraction(0, 500000), 0.25, 1e-9);
  progress.Finish(0, 1000000);
  EXPECT_NEAR(progress.Fraction(1, 250000), 0.625, 1e-9);
}

TEST(OTF2ReadProgress, NeverPassesALocationBeforeItIsFinished)
{
  // Records far smaller than guessed: the estimate stops short of the
  // location's end and the rest comes when it is finished.
  ReadProgress progress({ 1000, 1000 }, { 0, 0 });
  EXPECT_LT(progress.Fraction(0, 1000000), 0.5);
  progress.Finish(0, 1000000);
  EXPECT_DOUBLE_EQ(progress.Fraction(0, 0), 0.5);
}

TEST(OTF2ReadProgress, FallsBackOnAnnouncedCountsWithoutFileSizes)
{
  ReadProgress progress({ 0, 0, 0 }, { 100, 300, 0 });
  EXPECT_DOUBLE_EQ(progress.Fraction(1, 150), 0.375);
  progress.Finish(0, 100);
  EXPECT_DOUBLE_EQ(progress.Fraction(1, 150), 0.625);
  EXPECT_EQ(progress.BatchRecords(), uint64_t(1) << 12); // a tiny read: the smallest batch
  ReadProgress nothing({ 0 }, { 0 });
  EXPECT_DOUBLE_EQ(nothing.Fraction(0, 0), 1.0);
}

TEST(OTF2Column, GrowsKeepingItsValues)
{
  Column<uint64_t> column;
  EXPECT_TRUE(column.empty());
  EXPECT_EQ(column.data(), nullptr);
  for (uint64_t value = 0; value < 100000; ++value)
  {
    column.push_back(value * 3);
  }
  ASSERT_EQ(column.size(), 100000u);
  EXPECT_GE(column.capacity(), column.size());
  for (uint64_t value = 0; value < 100000; ++value)
  {
    ASSERT_EQ(column[value], value * 3);
  }
  EXPECT_EQ(column.back(), 99999u * 3);

  column.resize(10);
  EXPECT_EQ(column, (Column<uint64_t>{ 0, 3, 6, 9, 12, 15, 18, 21, 24, 27 }));
  column.resize(12, 7);
  EXPECT_EQ(column[10], 7u);
  EXPECT_EQ(column[11], 7u);
  column.resize(13);
  EXPECT_EQ(column[12], 0u);
  column.shrink_to_fit();
  EXPECT_EQ(column.capacity(), 13u);
  column.reserve(1000);
  EXPECT_EQ(column.capacity(), 1000u);
  column.Prefault(600); // a hint: changes neither the values nor the size
  EXPECT_EQ(column.size(), 13u);
  EXPECT_EQ(column[12], 0u);
  column.clear();
  column.shrink_to_fit();
  EXPECT_EQ(column.capacity(), 0u);
  EXPECT_EQ(column.data(), nullptr);
}

TEST(OTF2Column, PushBackOfItsOwnValueSurvivesGrowth)
{
  Column<double> column = { 1.5 };
  column.shrink_to_fit();
  for (int i = 0; i < 20; ++i)
  {
    column.push_back(column[0]); // full at times: the buffer moves as the value is read
  }
  for (double value : column)
  {
    EXPECT_EQ(value, 1.5);
  }
}

TEST(OTF2Column, CopiesMovesAndCompares)
{
  Column<int32_t> original = { 1, -2, 3 };
  Column<int32_t> copy = original;
  EXPECT_EQ(copy, original);
  EXPECT_NE(copy.data(), original.data());
  copy[0] = 5;
  EXPECT_NE(copy, original);
  copy = original;
  EXPECT_EQ(copy, original);

  const int32_t* buffer = original.data();
  Column<int32_t> moved = std::move(original);
  EXPECT_EQ(moved.data(), buffer);
  EXPECT_TRUE(original.empty()); // a moved-from column is empty
  copy = std::move(moved);
  EXPECT_EQ(copy.data(), buffer);
  EXPECT_EQ(copy, (Column<int32_t>{ 1, -2, 3 }));
  EXPECT_NE(copy, (Column<int32_t>{ 1, -2 }));
}

TEST(OTF2Column, ReleasesItsBufferToFree)
{
  Column<uint32_t> column = { 4, 5, 6 };
  const std::size_t size = column.size();
  uint32_t* buffer = column.Release();
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(size, 3u);
  EXPECT_EQ(buffer[0], 4u);
  EXPECT_EQ(buffer[2], 6u);
  EXPECT_TRUE(column.empty());
  EXPECT_EQ(column.capacity(), 0u);
  std::free(buffer);
  column.push_back(7); // usable again
  EXPECT_EQ(column, (Column<uint32_t>{ 7 }));
  EXPECT_EQ(Column<double>().Release(), nullptr);
}

TEST(OTF2RequestTable, KeepsCollidingRequestsWhenOthersLeave)
{
  // Ids that differ in high bits only end up in long probe clusters at
  // first; removing from the middle of a cluster must keep the rest found.
  RequestTable table;
  for (uint64_t request = 1; request <= 12; ++request)
  {
    table.insert(request << 40, request);
  }
  for (uint64_t request = 1; request <= 12; request += 2)
  {
    ASSERT_EQ(table.Take(request << 40), request);
  }
  for (uint64_t request = 2; request <= 12; request += 2)
  {
    ASSERT_EQ(table.Take(request << 40), request);
  }
  EXPECT_EQ(table.size(), 0u);
}

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
      ASSERT_EQ(table.Take(request), expected) << "step " << step;
      if (found != reference.end())
      {
        reference.erase(found);
      }
    }
    ASSERT_EQ(table.size(), reference.size());
  }
  std::size_t drained = 0;
  table.Drain([&drained](uint64_t) { ++drained; });
  EXPECT_EQ(drained, reference.size());
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(table.Take(0), RequestTable::NotFound);
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
    ASSERT_EQ(table.Take(request * 7919), request);
  }
}

MessageEndpoint endpoint(
  uint32_t sender, uint32_t receiver, uint32_t tag, double time, uint64_t bytes)
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
  MatchMessages(sends, receives, messages, report);
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
  MatchMessages({ endpoint(0, 1, 0, 0.0, 1) }, { endpoint(0, 1, 0, 1.0, 1) }, messages, report);
  MatchMessages({ endpoint(2, 1, 0, 0.0, 2) }, {}, messages, report);
  EXPECT_EQ(messages.size(), 1u);
  EXPECT_EQ(report.UnmatchedSends, 1u);
}

// The matcher that ReadTrace() runs while reading must give the rows and
// counts of MatchMessages() over all ends at once.
TEST(OTF2MessageMatcher, AgreesWithMatchMessagesLocationByLocation)
{
  for (uint64_t seed = 1; seed <= 20; ++seed)
  {
    std::mt19937_64 random(seed);
    const uint32_t leaves = 1 + uint32_t(random() % 6);
    MessageColumns messages;
    MessageMatcher matcher(messages, leaves);
    std::vector<MessageEndpoint> sends;
    std::vector<MessageEndpoint> receives;
    for (uint32_t leaf = 0; leaf < leaves; ++leaf)
    {
      matcher.BeginLocation(leaf);
      std::vector<std::size_t> cancellable;
      const int records = int(random() % 300);
      for (int record = 0; record < records; ++record)
      {
        const uint32_t peer = uint32_t(random() % leaves);
        const uint32_t communicator = uint32_t(random() % 2);
        const uint32_t tag = uint32_t(random() % 3);
        const double time = double(random() % 1000);
        const uint64_t bytes = random() % 100000;
        switch (random() % 5)
        {
          case 0:
          case 1:
            sends.push_back({ leaf, peer, communicator, tag, time, bytes });
            matcher.Send(peer, communicator, tag, time, bytes);
            break;
          case 2:
            // Cancelled later in the same location: never a message.
            cancellable.push_back(matcher.Send(peer, communicator, tag, time, bytes));
            break;
          default:
            receives.push_back({ peer, leaf, communicator, tag, time, bytes });
            matcher.Receive(peer, communicator, tag, time, bytes);
            break;
        }
      }
      for (std::size_t handle : cancellable)
      {
        matcher.CancelSend(handle);
        matcher.CancelSend(handle); // twice is once
      }
      matcher.EndLocation();
    }
    Diagnostics report;
    matcher.Finish(report);

    MessageColumns expected;
    Diagnostics expectedReport;
    MatchMessages(sends, receives, expected, expectedReport);
    ASSERT_EQ(messages.size(), expected.size()) << "seed " << seed;
    EXPECT_EQ(messages.Sender, expected.Sender) << "seed " << seed;
    EXPECT_EQ(messages.Receiver, expected.Receiver) << "seed " << seed;
    EXPECT_EQ(messages.SendTime, expected.SendTime) << "seed " << seed;
    EXPECT_EQ(messages.RecvTime, expected.RecvTime) << "seed " << seed;
    EXPECT_EQ(messages.Bytes, expected.Bytes) << "seed " << seed;
    EXPECT_EQ(messages.RecvBytes, expected.RecvBytes) << "seed " << seed;
    EXPECT_EQ(messages.Tag, expected.Tag) << "seed " << seed;
    EXPECT_EQ(messages.Communicator, expected.Communicator) << "seed " << seed;
    EXPECT_EQ(messages.RecvBeforeSend, expected.RecvBeforeSend) << "seed " << seed;
    EXPECT_EQ(report.UnmatchedSends, expectedReport.UnmatchedSends) << "seed " << seed;
    EXPECT_EQ(report.UnmatchedReceives, expectedReport.UnmatchedReceives) << "seed " << seed;
    EXPECT_EQ(report.ReceivesBeforeSends, expectedReport.ReceivesBeforeSends) << "seed " << seed;
  }
}

TEST(OTF2MessageMatcher, MatchesMessagesALocationSendsItself)
{
  MessageColumns messages;
  MessageMatcher matcher(messages, 1);
  matcher.BeginLocation(0);
  matcher.Receive(0, 0, 4, 1.0, 8); // posted before the send, on the same clock
  matcher.Send(0, 0, 4, 2.0, 8);
  matcher.EndLocation();
  Diagnostics report;
  matcher.Finish(report);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages.Sender[0], 0u);
  EXPECT_EQ(messages.Receiver[0], 0u);
  EXPECT_EQ(messages.RecvBeforeSend[0], 1u);
  EXPECT_EQ(report.ReceivesBeforeSends, 1u);
  EXPECT_EQ(report.UnmatchedSends + report.UnmatchedReceives, 0u);
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
  const std::vector<LeafRange> parts = SplitLeaves(infoWithEvents({ 10, 10, 10, 10, 40 }), 2);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].Begin, 0u);
  EXPECT_EQ(parts[0].End, 4u);
  EXPECT_EQ(parts[1].Begin, 4u);
  EXPECT_EQ(parts[1].End, 5u);
  EXPECT_EQ(parts[0].Leaves(), (std::vector<uint32_t>{ 0, 1, 2, 3 }));
}

TEST(OTF2SplitLeaves, EveryPartGetsALeafWhileThereAreEnough)
{
  const std::vector<LeafRange> parts = SplitLeaves(infoWithEvents({ 1000, 1, 1, 1 }), 4);
  for (uint32_t part = 0; part < 4; ++part)
  {
    EXPECT_EQ(parts[part].Begin, part);
    EXPECT_EQ(parts[part].End, part + 1);
  }
}

TEST(OTF2SplitLeaves, MorePartsThanLeavesLeavesSomeEmpty)
{
  const std::vector<LeafRange> parts = SplitLeaves(infoWithEvents({ 5, 5 }), 4);
  ASSERT_EQ(parts.size(), 4u);
  uint32_t covered = 0;
  for (const LeafRange& part : parts)
  {
    EXPECT_EQ(part.Begin, covered);
    EXPECT_LE(part.Begin, part.End);
    covered = part.End;
  }
  EXPECT_EQ(covered, 2u);
  EXPECT_THROW(SplitLeaves(infoWithEvents({ 5 }), 0), std::invalid_argument);
}

TEST(OTF2Names, EnumerationsHaveNamesAndUnknownValuesNumbers)
{
  EXPECT_EQ(ParadigmName(4), "MPI");
  EXPECT_EQ(ParadigmName(3), "OpenMP");
  EXPECT_EQ(ParadigmName(1000), "paradigm 1000");
  EXPECT_EQ(RegionRoleName(28), "point2point");
  EXPECT_EQ(LocationTypeName(1), "thread");
  EXPECT_EQ(LocationTypeName(2), "gpu");
  EXPECT_EQ(LocationTypeName(3), "metric");
  EXPECT_EQ(LocationGroupTypeName(1), "process");
  EXPECT_EQ(CollectiveOperationName(11), "Allreduce");
  EXPECT_EQ(CollectiveOperationName(-1), "");
  EXPECT_STREQ(RecordKindName(RecordKind::MpiIsendComplete), "MpiIsendComplete");
}

} // namespace
