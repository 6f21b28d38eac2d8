#include "MarkDetails.h"

#include <gtest/gtest.h>

#include <string>

using namespace macroscope;

namespace
{
bool Contains(const std::string& text, const std::string& part)
{
  return text.find(part) != std::string::npos;
}
}

TEST(MarkDetails, DurationsTakeTheUnitOfTheirMagnitude)
{
  EXPECT_EQ(FormatDuration(2.5), "2.5 s");
  EXPECT_EQ(FormatDuration(0.0125), "12.5 ms");
  EXPECT_EQ(FormatDuration(3.25e-6), "3.25 µs");
  EXPECT_EQ(FormatDuration(4e-10), "0.4 ns");
  EXPECT_EQ(FormatDuration(0.0), "0 s");
  EXPECT_EQ(FormatDuration(1e-3), "1 ms");
  EXPECT_EQ(FormatDuration(123.456789), "123.5 s");
}

TEST(MarkDetails, InstantsKeepTheDigitsTheirResolutionNeeds)
{
  EXPECT_EQ(FormatInstant(1.5, 1.0), "1.500 s");
  EXPECT_EQ(FormatInstant(0.0312504, 2e-6), "0.03125040 s");
  EXPECT_EQ(FormatInstant(0.25, 0.0), "0.250 s");
  // Two instants a resolution apart stay distinct.
  EXPECT_NE(FormatInstant(10.0, 3e-9), FormatInstant(10.0 + 3e-9, 3e-9));
}

TEST(MarkDetails, BytesAndNameLists)
{
  EXPECT_EQ(FormatBytes(512), "512 B");
  EXPECT_EQ(FormatBytes(4096), "4.1 kB");
  EXPECT_EQ(FormatBytes(2.5e9), "2.5 GB");
  EXPECT_EQ(ListNames({}), "none");
  EXPECT_EQ(ListNames({ "a", "b" }), "a, b");
  EXPECT_EQ(ListNames({ "a", "b", "c", "d", "e", "f" }, 4), "a, b, c, d and 2 more (6)");
}

TEST(MarkDetails, AStateSaysTypeResourceAndTimes)
{
  StateDetails state;
  state.Type = "MPI_Send";
  state.Resource = "node0/P1/T0";
  state.Start = 0.5;
  state.End = 0.502;
  const std::string text = DescribeState(state);
  EXPECT_EQ(text,
    "State: MPI_Send\nResource: node0/P1/T0\nStart: 0.50000 s\nEnd: 0.50200 s\n"
    "Duration: 2 ms");
  state.Depth = 2;
  EXPECT_TRUE(Contains(DescribeState(state), "\nDepth: 2"));
}

TEST(MarkDetails, AnAggregateSaysItsSpanResourcesAndComposition)
{
  AggregateDetails aggregate;
  aggregate.Start = 1.0;
  aggregate.End = 1.01;
  aggregate.StateCount = 40;
  aggregate.MergedStates = true;
  aggregate.Resources = { "P0" };
  aggregate.Types = { { "compute", 0.002 }, { "MPI_Wait", 0.006 } };
  const std::string text = DescribeAggregate(aggregate);
  EXPECT_TRUE(Contains(text, "Aggregate of 40 states (narrow states)")) << text;
  EXPECT_TRUE(Contains(text, "Time: 1.0000 s to 1.0100 s (10 ms)")) << text;
  EXPECT_TRUE(Contains(text, "Resource: P0")) << text;
  // Most time first, with shares of the types' total.
  const auto wait = text.find("MPI_Wait: 75 % (6 ms)");
  const auto compute = text.find("compute: 25 % (2 ms)");
  ASSERT_NE(wait, std::string::npos) << text;
  ASSERT_NE(compute, std::string::npos) << text;
  EXPECT_LT(wait, compute);

  aggregate.MergedRows = true;
  aggregate.Resources = { "P0", "P1", "P2", "P3", "P4", "P5" };
  const std::string rows = DescribeAggregate(aggregate);
  EXPECT_TRUE(Contains(rows, "narrow states on merged rows")) << rows;
  EXPECT_TRUE(Contains(rows, "Resources: P0, P1, P2, P3 and 2 more (6)")) << rows;
}

TEST(MarkDetails, ALongCompositionEndsWithTheRest)
{
  std::vector<TypeShare> types;
  for (int i = 0; i < 9; ++i)
  {
    types.push_back({ "t" + std::to_string(i), 1.0 + i });
  }
  const auto lines = DescribeComposition(types, 4);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], "  t8: 20 % (9 s)");
  // t5 .. t0: 6 + 5 + 4 + 3 + 2 + 1 = 21 of 45 seconds.
  EXPECT_EQ(lines[3], "  6 other types: 47 % (21 s)");
}

TEST(MarkDetails, MessagesPlainAndMerged)
{
  MessageDetails message;
  message.Sender = "P0";
  message.Receiver = "P3";
  message.SendTime = 0.1;
  message.RecvTime = 0.1001;
  message.Bytes = 2048;
  const std::string plain = DescribeMessage(message);
  EXPECT_EQ(plain,
    "Message\nFrom P0 to P3\nSend: 0.1000000 s\nReceive: 0.1001000 s\nTransfer: 100 µs\n"
    "Bytes: 2.05 kB");
  message.Count = 12;
  message.Receiver.clear();
  const std::string merged = DescribeMessage(message);
  EXPECT_TRUE(Contains(merged, "12 messages merged in one pixel column")) << merged;
  EXPECT_TRUE(Contains(merged, "From P0 to ?")) << merged;
  EXPECT_TRUE(Contains(merged, "Bytes (sum): 2.05 kB")) << merged;
}

TEST(MarkDetails, OverviewPartsAndVisualAggregates)
{
  OverviewPartDetails part;
  part.Title = "Spatiotemporal part";
  part.Start = 0.0;
  part.End = 0.5;
  part.Resources = "node1 (8 resources)";
  part.ModeType = "MPI_Recv";
  part.ModeShare = 0.625;
  const std::string text = DescribeOverviewPart(part);
  EXPECT_TRUE(Contains(text, "Spatiotemporal part\n")) << text;
  EXPECT_TRUE(Contains(text, "Time: 0.000 s to 0.500 s (500 ms)")) << text;
  EXPECT_TRUE(Contains(text, "Resources: node1 (8 resources)")) << text;
  EXPECT_TRUE(Contains(text, "Mode type: MPI_Recv (62 %)")) << text;
  part.Aggregate = 2;
  part.PartCount = 7;
  EXPECT_TRUE(Contains(
    DescribeOverviewPart(part), "visual aggregate of 7 parts (different temporal partitions)"));
}

TEST(MarkDetails, GenericFieldsInOrder)
{
  GenericDetails details{ "Treemap cell", { { "Resource", "node0" }, { "Value", "3 s" } } };
  EXPECT_EQ(DescribeGeneric(details), "Treemap cell\nResource: node0\nValue: 3 s");
}
