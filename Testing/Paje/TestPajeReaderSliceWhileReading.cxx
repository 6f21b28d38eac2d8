// vtkMacroscopePajeReader::SliceWhileReading, the reader's half of the
// streamed Time Slicing: with KeepRows off (a definitions-only scan), the
// model it folds equals SliceTrace() on the tables a second reader with
// the same properties outputs (KeepRows on) — leaves renumbered by a
// HierarchyFile, Regions and Locations selections, pieces — and errors and
// aborts are reported as the contract says.
#include "vtkMacroscopePajeReader.h"

#include <ModelStream.h>
#include <TimeSlicing.h>
#include <TraceSchema.h>

#include "vtkCallbackCommand.h"
#include "vtkDataArray.h"
#include "vtkDataArraySelection.h"
#include "vtkNew.h"
#include "vtkTable.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h> // getpid: one work directory per test process

namespace
{
namespace fs = std::filesystem;
namespace schema = macroscope::schema;
using namespace macroscope;

const std::string Nested = MACROSCOPE_SOURCE_DIR "/Testing/Data/paje/nested.paje";

template <typename T>
std::vector<T> column(vtkTable* table, const char* name)
{
  vtkDataArray* array = vtkDataArray::SafeDownCast(table->GetColumnByName(name));
  std::vector<T> values;
  if (!array)
  {
    ADD_FAILURE() << "no column " << name;
    return values;
  }
  for (vtkIdType i = 0; i < array->GetNumberOfTuples(); ++i)
  {
    values.push_back(static_cast<T>(array->GetTuple1(i)));
  }
  return values;
}

/// SliceTrace() on the States, Events, Variables and Messages a reader output.
MicroscopicModel modelOfOutputs(vtkMacroscopePajeReader* reader, const TimeSlicingOptions& options)
{
  vtkTable* states = vtkTable::SafeDownCast(reader->GetOutputDataObject(0));
  vtkTable* messages = vtkTable::SafeDownCast(reader->GetOutputDataObject(1));
  vtkTable* events = vtkTable::SafeDownCast(reader->GetOutputDataObject(2));
  vtkTable* variables = vtkTable::SafeDownCast(reader->GetOutputDataObject(3));
  const auto sLocation = column<uint32_t>(states, schema::Location);
  const auto sType = column<uint32_t>(states, schema::Type);
  const auto sDepth = column<uint32_t>(states, schema::Depth);
  const auto sStart = column<double>(states, schema::Start);
  const auto sEnd = column<double>(states, schema::End);
  const bool variable = options.Metric == SliceMetric::VariableMean;
  vtkTable* points = variable ? variables : events;
  const auto pLocation = column<uint32_t>(points, schema::Location);
  const auto pType = column<uint32_t>(points, variable ? schema::Variable : schema::Type);
  const auto pTime = column<double>(points, schema::Time);
  const auto pValue = variable ? column<double>(points, schema::Value) : std::vector<double>();
  const auto mSender = column<uint32_t>(messages, schema::Sender);
  const auto mReceiver = column<uint32_t>(messages, schema::Receiver);
  const auto mSend = column<double>(messages, schema::SendTime);
  const auto mRecv = column<double>(messages, schema::RecvTime);
  const auto mBytes = column<double>(messages, schema::Bytes);
  return SliceTrace(options,
    { sLocation.data(), sType.data(), sDepth.data(), sStart.data(), sEnd.data(), sStart.size() },
    { pLocation.data(), pType.data(), pTime.data(), variable ? pValue.data() : nullptr,
      pTime.size() },
    { mSender.data(), mReceiver.data(), mSend.data(), mRecv.data(), mBytes.data(), mSend.size() });
}

/// The same properties on both readers: a regrouping hierarchy file and one
/// state value filtered out.
void configure(vtkMacroscopePajeReader* reader, const std::string& hierarchy)
{
  reader->SetFileName(Nested.c_str());
  reader->SetHierarchyFile(hierarchy.c_str());
  reader->UpdateInformation();
  reader->SetRegionStatus("compute", 0);
}

std::string writeHierarchy()
{
  // r2 first, then r0: the leaves are renumbered; r1 stays unplaced.
  const fs::path path =
    fs::path(::testing::TempDir()) / ("nested-regrouped-" + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << R"({"name": "g", "kind": "grid", "children": [
    {"name": "r2"}, {"name": "r0"}]})";
  return path.string();
}

TEST(PajeReaderSliceWhileReading, EqualsSliceTraceOnTheReaderTables)
{
  const std::string hierarchy = writeHierarchy();
  vtkNew<vtkMacroscopePajeReader> streamed;
  streamed->KeepRowsOff();
  configure(streamed, hierarchy);
  vtkNew<vtkMacroscopePajeReader> tables;
  configure(tables, hierarchy);
  ASSERT_EQ(streamed->GetNumberOfLocations(), 3);
  ASSERT_GT(streamed->GetNumberOfRegionArrays(), 1);
  // (The Locations selection is covered by TestPajeStreamedModel.cxx: in
  // this small trace, deselecting any leaf empties one of the metrics.)

  struct Setting
  {
    SliceMetric Metric;
    int Depth;
  };
  int withValues = 0;
  for (const Setting setting :
    { Setting{ SliceMetric::StateDuration, -1 }, Setting{ SliceMetric::StateDuration, 1 },
      Setting{ SliceMetric::EventCount, -1 }, Setting{ SliceMetric::VariableMean, -1 },
      Setting{ SliceMetric::BytesSentRate, -1 }, Setting{ SliceMetric::MessagesReceived, -1 } })
  {
    for (int pieces : { 1, 2 })
    {
      for (int piece = 0; piece < pieces; ++piece)
      {
        TimeSlicingOptions options;
        options.Grid = { 0.0, 10.0, 13 };
        options.Metric = setting.Metric;
        options.Depth = setting.Depth;
        options.Leaves = uint32_t(streamed->GetNumberOfLocations());
        options.Types = 12; // at least the Types rows
        ModelStream stream({}, { options });
        ASSERT_EQ(streamed->SliceWhileReading(stream, piece, pieces), 1);
        const MicroscopicModel model = std::move(stream.Finish().front());
        tables->UpdatePiece(piece, pieces, 0);
        const MicroscopicModel table = modelOfOutputs(tables, options);
        // A reader that kept its rows streams the same model from its cache's definitions.
        ModelStream again({}, { options });
        ASSERT_EQ(tables->SliceWhileReading(again, piece, pieces), 1);
        EXPECT_EQ(again.Finish().front().Values, model.Values);
        ASSERT_EQ(model.Values.size(), table.Values.size());
        double sum = 0.0;
        for (std::size_t i = 0; i < model.Values.size(); ++i)
        {
          EXPECT_NEAR(model.Values[i], table.Values[i], 1e-12)
            << "metric " << int(setting.Metric) << " piece " << piece << "/" << pieces << " cell "
            << i;
          sum += std::abs(table.Values[i]);
        }
        withValues += pieces == 1 && sum > 0.0 ? 1 : 0;
      }
    }
  }
  EXPECT_EQ(withValues, 6); // every metric has values in the whole trace
  // The streamed reader parsed once (the scan); the second pass is not a parse of the cache.
  EXPECT_EQ(streamed->GetNumberOfParses(), 1);
}

TEST(PajeReaderSliceWhileReading, ErrorsAndAbort)
{
  TimeSlicingOptions options;
  options.Grid = { 0.0, 10.0, 4 };
  options.Leaves = 3;
  options.Types = 12;
  vtkNew<vtkMacroscopePajeReader> reader;
  reader->KeepRowsOff();
  reader->GlobalWarningDisplayOff();
  {
    ModelStream stream({}, { options });
    EXPECT_EQ(reader->SliceWhileReading(stream, 0, 1), 0); // no UpdateInformation
  }
  reader->SetFileName(Nested.c_str());
  reader->UpdateInformation();
  {
    ModelStream stream({}, { options });
    EXPECT_EQ(reader->SliceWhileReading(stream, 2, 2), 0); // no such piece
  }
  {
    TimeSlicingOptions fewer = options;
    fewer.Leaves = 2; // not the output's leaves
    ModelStream stream({}, { fewer });
    EXPECT_EQ(reader->SliceWhileReading(stream, 0, 1), 0);
  }
  {
    // RequestData has no tables to output with KeepRows off.
    reader->Update();
    EXPECT_EQ(vtkTable::SafeDownCast(reader->GetOutputDataObject(0))->GetNumberOfRows(), 0);
  }
  {
    // An abort heard through the progress callback returns -1.
    vtkNew<vtkCallbackCommand> abort;
    abort->SetCallback([](vtkObject* caller, unsigned long, void*, void*)
      { static_cast<vtkMacroscopePajeReader*>(caller)->SetAbortExecute(1); });
    const unsigned long tag = reader->AddObserver(vtkCommand::ProgressEvent, abort);
    ModelStream stream({}, { options });
    EXPECT_EQ(reader->SliceWhileReading(stream, 0, 1), -1);
    reader->RemoveObserver(tag);
  }
  {
    ModelStream stream({}, { options });
    EXPECT_EQ(reader->SliceWhileReading(stream, 0, 1), 1); // the flag does not linger
  }
}

}
