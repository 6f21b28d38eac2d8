#include "vtkMacroscopeOTF2Reader.h"

#include "MacroscopeCoreRun.h"

#include "MacroscopeHierarchyFile.h"
#include "MacroscopeOTF2.h"
#include "MacroscopeReaderOutputs.h"
#include "ModelStream.h"
#include "OTF2ParallelRead.h"
#include "TraceSchema.h"

#include "vtkCommunicator.h"
#include "vtkDataArraySelection.h"
#include "vtkDataSetAttributes.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkIdTypeArray.h"
#include "vtkInformation.h"
#include "vtkInformationDataObjectMetaDataKey.h"
#include "vtkInformationVector.h"
#include "vtkMultiProcessController.h"
#include "vtkMutableDirectedGraph.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkSmartPointer.h"
#include "vtkStreamingDemandDrivenPipeline.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkTree.h"
#include "vtkTypeInt32Array.h"
#include "vtkTypeInt64Array.h"
#include "vtkTypeUInt32Array.h"
#include "vtkTypeUInt64Array.h"
#include "vtkUnsignedCharArray.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace otf2 = macroscope::otf2;
namespace schema = macroscope::schema;
using namespace macroscope::readers;

vtkStandardNewMacro(vtkMacroscopeOTF2Reader);

struct vtkMacroscopeOTF2Reader::Internals
{
  std::string InfoFile; // the file Info was read from
  std::unique_ptr<otf2::TraceInfo> Info;
  std::vector<std::string> LocationPaths; // per leaf
  // The HierarchyFile applied to Info; its Regrouping() is null when the
  // archive's own hierarchy is used.
  macroscope::HierarchyFileTracker Hierarchies;
  // The Hierarchy and Types outputs as the definitions give them, passed
  // downstream as meta-data before any event is read.
  vtkSmartPointer<vtkTree> Hierarchy;
  vtkSmartPointer<vtkTable> Types;
};

namespace
{
// Whether the report holds anything a user should be warned about: every
// anomaly counter, records outside the declared span or the window.
bool HasAnomalies(const otf2::Diagnostics& r)
{
  const uint64_t counters[] = { r.UnmatchedSends, r.UnmatchedReceives, r.ReceivesBeforeSends,
    r.UnknownPeers, r.IsendsNotCompleted, r.IsendCompletesWithoutIsend, r.IrecvRequestsNotCompleted,
    r.IrecvsWithoutRequest, r.LeavesWithoutEnter, r.MisnestedLeaves, r.StatesClosedEarly,
    r.StatesLeftOpen, r.CollectiveBeginsWithoutEnd, r.CollectiveEndsWithoutBegin,
    r.UndefinedReferences, r.MalformedMetrics, r.EventCountMismatches, r.LocationsOutsideClockSpan,
    r.StatesOutsideWindow, r.MessagesOutsideWindow, r.EventsOutsideWindow, r.SamplesOutsideWindow };
  for (uint64_t count : counters)
  {
    if (count > 0)
    {
      return true;
    }
  }
  return false;
}

// Exchanges the message ends whose peer was read by another piece, and
// matches, on the receiver's piece, the sends it gets with its receives.
// `mine` marks the leaves this piece read, `read` those any piece read.
void JoinAcrossPieces(vtkMultiProcessController* controller, const std::vector<bool>& mine,
  const std::vector<bool>& read, otf2::TraceData& data)
{
  const auto& sends = data.Unresolved.Sends;
  // Ends whose peer another piece read are handed over, not lost: they no
  // longer count as ends towards unread locations.
  for (const auto& send : sends)
  {
    data.Report.SendsToUnselected -= read[send.Receiver] ? 1 : 0;
  }
  for (const auto& receive : data.Unresolved.Receives)
  {
    data.Report.ReceivesFromUnselected -= read[receive.Sender] ? 1 : 0;
  }

  vtkNew<vtkTypeUInt64Array> ids; // sender, receiver, communicator, tag, bytes
  ids->SetNumberOfComponents(5);
  vtkNew<vtkDoubleArray> times;
  for (const auto& send : sends)
  {
    const vtkTypeUInt64 tuple[5] = { send.Sender, send.Receiver, send.Communicator, send.Tag,
      send.Bytes };
    ids->InsertNextTypedTuple(tuple);
    times->InsertNextValue(send.Time);
  }
  vtkNew<vtkTypeUInt64Array> allIds;
  vtkNew<vtkDoubleArray> allTimes;
  controller->AllGatherV(ids, allIds);
  controller->AllGatherV(times, allTimes);

  std::vector<otf2::MessageEndpoint> incoming;
  for (vtkIdType i = 0; i < allTimes->GetNumberOfValues(); ++i)
  {
    otf2::MessageEndpoint send;
    send.Sender = static_cast<uint32_t>(allIds->GetValue(5 * i));
    send.Receiver = static_cast<uint32_t>(allIds->GetValue(5 * i + 1));
    if (send.Receiver < mine.size() && mine[send.Receiver])
    {
      send.Communicator = static_cast<uint32_t>(allIds->GetValue(5 * i + 2));
      send.Tag = static_cast<uint32_t>(allIds->GetValue(5 * i + 3));
      send.Bytes = allIds->GetValue(5 * i + 4);
      send.Time = allTimes->GetValue(i);
      incoming.push_back(send);
    }
  }
  otf2::MatchMessages(
    std::move(incoming), std::move(data.Unresolved.Receives), data.Messages, data.Report);
  data.Unresolved = {};
}

// Hands the decoded rows of each location to a model stream, with the
// leaves numbered as in the Hierarchy output.
class StreamSink : public otf2::RowSink
{
public:
  StreamSink(macroscope::ModelStream& stream, const std::vector<uint32_t>* newLeaf)
    : Stream(stream)
    , NewLeaf(newLeaf)
  {
  }

  void BeginLocation(uint32_t leaf) override
  {
    this->Leaf = this->NewLeaf ? (*this->NewLeaf)[leaf] : leaf;
    this->Stream.BeginLeaf(this->Leaf);
  }
  void Rows(const otf2::StateColumns& states, const otf2::EventColumns& events,
    const otf2::VariableColumns& variables) override
  {
    // Every row of a call is of the current location.
    const std::size_t most = std::max({ states.size(), events.size(), variables.size() });
    const uint32_t* location = nullptr;
    if (this->NewLeaf)
    {
      this->Locations.assign(most, this->Leaf);
      location = this->Locations.data();
    }
    auto locationOf = [location](const auto& column)
    { return location ? location : column.data(); };
    if (this->Stream.WantsStates())
    {
      this->Stream.AddStates({ locationOf(states.Location), states.Type.data(), states.Depth.data(),
        states.Start.data(), states.End.data(), states.size() });
    }
    if (this->Stream.WantsEvents())
    {
      this->Stream.AddPoints({ locationOf(events.Location), events.Type.data(), events.Time.data(),
        nullptr, events.size() });
    }
    if (this->Stream.WantsVariables())
    {
      this->Stream.AddPoints({ locationOf(variables.Location), variables.Variable.data(),
        variables.Time.data(), variables.Value.data(), variables.size() });
    }
  }
  void EndLocation(uint32_t) override { this->Stream.EndLeaf(); }
  bool WantsMessages() const override { return this->Stream.WantsMessages(); }

private:
  macroscope::ModelStream& Stream;
  const std::vector<uint32_t>* NewLeaf;
  uint32_t Leaf = 0;
  std::vector<uint32_t> Locations;
};

// How many threads read the locations of one piece in the streamed time
// slicing: every core, shared among the pieces (MPI ranks are assumed to
// share a machine; MACROSCOPE_READ_THREADS overrides). One thread for the
// message metrics (a message's ends may lie in two threads' shares) and for
// models too large to hold once per thread.
uint32_t ReadThreads(int pieces, const macroscope::ModelStream& stream)
{
  if (stream.WantsMessages())
  {
    return 1;
  }
  long threads =
    static_cast<long>(std::max(1u, std::thread::hardware_concurrency())) / std::max(1, pieces);
  if (const char* text = std::getenv("MACROSCOPE_READ_THREADS"))
  {
    threads = std::strtol(text, nullptr, 10);
  }
  constexpr double CopyBudget = 512.0 * (1 << 20); // bytes of models per extra thread
  if (stream.ModelBytes() > CopyBudget)
  {
    return 1;
  }
  return static_cast<uint32_t>(std::clamp(threads, 1L, 64L));
}

// The streamed read of `options.Leaves` on `threads` threads: each thread
// streams whole groups of leaves (ModelStream::LeafGroups, so that no model
// cell takes rows from two threads and the models stay bit for bit those
// of one thread) into a fork of `stream`, absorbed once all have read.
otf2::Diagnostics StreamOnThreads(const std::string& anchor, const otf2::TraceInfo& info,
  const std::vector<uint32_t>* newLeaf, uint32_t threads, macroscope::ModelStream& stream,
  const otf2::ReadOptions& options)
{
  const std::vector<uint32_t> groupOfModelLeaf = stream.LeafGroups();
  std::vector<uint32_t> groupOfLeaf(info.Leaves.size(), UINT32_MAX);
  for (uint32_t leaf = 0; leaf < groupOfLeaf.size(); ++leaf)
  {
    const uint32_t modelLeaf = newLeaf ? (*newLeaf)[leaf] : leaf;
    if (modelLeaf < groupOfModelLeaf.size() && groupOfModelLeaf[modelLeaf] != UINT32_MAX)
    {
      groupOfLeaf[leaf] = groupOfModelLeaf[modelLeaf];
    }
    else
    {
      groupOfLeaf[leaf] = UINT32_MAX - leaf; // not modelled: a group of its own
    }
  }
  const std::vector<std::vector<uint32_t>> leaves =
    otf2::ShareLeaves(info, options.Leaves, groupOfLeaf, threads);
  std::vector<macroscope::ModelStream> forks;
  std::vector<std::unique_ptr<StreamSink>> sinks;
  std::vector<otf2::StreamShare> shares;
  forks.reserve(leaves.size());
  for (const std::vector<uint32_t>& share : leaves)
  {
    forks.push_back(stream.Fork());
    sinks.push_back(std::make_unique<StreamSink>(forks.back(), newLeaf));
    shares.push_back({ share, sinks.back().get() });
  }
  otf2::Diagnostics report = otf2::StreamShares(anchor, shares, options);
  for (macroscope::ModelStream& fork : forks)
  {
    stream.Absorb(std::move(fork));
  }
  return report;
}
}

vtkMacroscopeOTF2Reader::vtkMacroscopeOTF2Reader()
  : Internal(new Internals)
{
}

vtkMacroscopeOTF2Reader::~vtkMacroscopeOTF2Reader() = default;

void vtkMacroscopeOTF2Reader::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
}

int vtkMacroscopeOTF2Reader::CanReadFile(const char* name)
{
  if (!name)
  {
    return 0;
  }
  try
  {
    otf2::ReadTraceInfo(name);
    return 1;
  }
  catch (const std::exception&)
  {
    return 0;
  }
}

int vtkMacroscopeOTF2Reader::RequestInformation(
  vtkInformation*, vtkInformationVector**, vtkInformationVector* outputVector)
{
  for (int port = 0; port < this->GetNumberOfOutputPorts(); ++port)
  {
    outputVector->GetInformationObject(port)->Set(CAN_HANDLE_PIECE_REQUEST(), 1);
  }
  if (this->FileName.empty())
  {
    vtkErrorMacro("FileName is not set: choose an OTF2 anchor file (traces.otf2).");
    return 0;
  }
  if (this->Internal->Info && this->Internal->InfoFile == this->FileName)
  {
    if (!this->ApplyHierarchyFile())
    {
      return 0;
    }
    PublishDefinitions(outputVector, this->Internal->Hierarchy, this->Internal->Types);
    return 1;
  }

  this->Internal->Info.reset();
  this->Internal->Hierarchies.Reset();
  try
  {
    this->Internal->Info = std::make_unique<otf2::TraceInfo>(otf2::ReadTraceInfo(this->FileName));
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro(<< error.what() << MissingFileHint(this->FileName, "FileName"));
    return 0;
  }
  this->Internal->InfoFile = this->FileName;
  const otf2::TraceInfo& info = *this->Internal->Info;

  ResetSelection(this->RegionSelection, StateTypeNames(info.Types));

  this->TimeBounds[0] = 0.0;
  this->TimeBounds[1] = info.Clock.Duration();
  this->CoverRecordSpanOfSmallArchive();
  this->NumberOfEventRecords = static_cast<vtkIdType>(info.TotalEvents);
  this->NumberOfLocations = static_cast<vtkIdType>(info.Leaves.size());

  this->Internal->Types = TypesOutput(info.Types, this->TimeBounds);
  if (!this->ApplyHierarchyFile())
  {
    return 0;
  }
  PublishDefinitions(outputVector, this->Internal->Hierarchy, this->Internal->Types);
  return 1;
}

bool vtkMacroscopeOTF2Reader::ApplyHierarchyFile()
{
  Internals& internal = *this->Internal;
  const otf2::TraceInfo& info = *internal.Info;
  return this->RunHierarchyFileStep(
    [&]
    {
      return internal.Hierarchies.Apply(this->HierarchyFile, info.Hierarchy,
        macroscope::LeafVertices(info), LeafPaths(info), this->FileName, this->LocationSelection,
        internal.Hierarchy, internal.LocationPaths);
    });
}

int vtkMacroscopeOTF2Reader::RequestData(
  vtkInformation*, vtkInformationVector**, vtkInformationVector* outputVector)
{
  // An abort stops the run it interrupts; VTK leaves the flag set, which
  // would abort every later run too (docs/progress.md).
  this->SetAbortExecute(0);
  if (!this->Internal->Info || this->Internal->InfoFile != this->FileName ||
    !this->Internal->Hierarchies.IsApplied())
  {
    return 0; // RequestInformation reported why
  }
  const otf2::TraceInfo& info = *this->Internal->Info;

  const double begin = this->TimeWindow[0];
  const double end = this->TimeWindow[1];
  if (!std::isfinite(begin) || !std::isfinite(end) || begin < 0.0 || (end != 0.0 && end < begin))
  {
    vtkErrorMacro("TimeWindow (" << begin << ", " << end
                                 << ") is not a window: it needs 0 <= start <= end, in seconds "
                                    "since the trace start (an end of 0 means the trace end).");
    return 0;
  }

  vtkInformation* outInfo = outputVector->GetInformationObject(0);
  int piece = 0;
  int pieces = 1;
  if (outInfo->Has(vtkStreamingDemandDrivenPipeline::UPDATE_NUMBER_OF_PIECES()))
  {
    piece = outInfo->Get(vtkStreamingDemandDrivenPipeline::UPDATE_PIECE_NUMBER());
    pieces = std::max(1, outInfo->Get(vtkStreamingDemandDrivenPipeline::UPDATE_NUMBER_OF_PIECES()));
  }

  // This piece's locations: its share of the leaves, among those selected.
  std::vector<bool> read;
  std::vector<bool> mine;
  otf2::ReadOptions options;
  this->ShareLeaves(
    piece, pieces, [](uint32_t) { return true; }, read, mine, options.Leaves);
  // A begin of 0 is the trace start and an end of 0 its end, wherever the
  // records lie: the clock's declared span may be shorter than the records
  // (EZTrace declares rank 0's), and no record is dropped for it.
  options.WindowBegin = begin == 0.0 ? -std::numeric_limits<double>::infinity() : begin;
  options.WindowEnd = end == 0.0 ? std::numeric_limits<double>::infinity() : end;
  options.ClipStatesToWindow = this->ClipStatesToWindow;
  const int regionsEnabled = this->RegionSelection->GetNumberOfArraysEnabled();
  options.Regions = this->EnabledRegions();
  options.Progress = [this](double fraction)
  {
    this->UpdateProgress(0.9 * fraction);
    return !this->GetAbortExecute();
  };

  // Every piece reads, then all agree on success before the collective join,
  // so that one piece's bad file or abort never leaves the others waiting.
  otf2::TraceData data;
  const std::string aborted = "Reading " + this->FileName + " was aborted.";
  int status = MacroscopeRunCore<otf2::ReadAborted>(this, nullptr, aborted.c_str(),
    [&]
    {
      if (options.Leaves.empty())
      {
        data.Info = info; // nothing to read here: the outputs hold no rows
      }
      else
      {
        data = otf2::ReadTrace(this->FileName, options);
      }
    });
  const bool parallel =
    pieces > 1 && this->Controller && this->Controller->GetNumberOfProcesses() == pieces;
  status = this->AgreeAcrossPieces(status, parallel);
  if (status != 1)
  {
    return status == 0 ? 0 : 1;
  }
  if (regionsEnabled == 0)
  {
    data.States = {}; // an empty region filter means "keep all" to the decoder
  }
  if (parallel)
  {
    JoinAcrossPieces(this->Controller, mine, read, data);
  }

  // Leaf indexes of the regrouped hierarchy; pieces were split, and messages
  // joined, by the archive's leaf indexes above.
  if (const auto* regrouping = this->Internal->Hierarchies.Regrouping())
  {
    macroscope::RenumberLeaves(
      regrouping->NewLeaf, data.States, data.Messages, data.Events, data.Variables);
  }

  this->CoverRecordsRead(data.Report.FirstTime, data.Report.LastTime, parallel);

  // The report, before the columns are moved out.
  const otf2::Diagnostics& report = data.Report;
  this->ReadReport = otf2::Describe(report);
  if (HasAnomalies(report))
  {
    vtkWarningMacro("Read " << this->FileName << " with anomalies:\n" << this->ReadReport);
  }

  vtkFieldData* fields = FillTraceOutputs(outputVector, data.States, data.Messages, data.Events,
    data.Variables, this->Internal->Hierarchy, this->Internal->Types, this->ReadReport);
  this->FinishOutputs(outputVector, pieces,
    {
      { "EventRecordsRead", report.EventsRead },
      { "UnmatchedSends", report.UnmatchedSends },
      { "UnmatchedReceives", report.UnmatchedReceives },
      { "ReceivesBeforeSends", report.ReceivesBeforeSends },
      { "SendsToUnreadLocations", report.SendsToUnselected },
      { "ReceivesFromUnreadLocations", report.ReceivesFromUnselected },
      { "UnknownPeers", report.UnknownPeers },
      { "ProcNullPeers", report.ProcNullPeers },
      { "IsendsNotCompleted", report.IsendsNotCompleted },
      { "IrecvRequestsNotCompleted", report.IrecvRequestsNotCompleted },
      { "IrecvsWithoutRequest", report.IrecvsWithoutRequest },
      { "LeavesWithoutEnter", report.LeavesWithoutEnter },
      { "MisnestedLeaves", report.MisnestedLeaves },
      { "StatesClosedEarly", report.StatesClosedEarly },
      { "StatesLeftOpen", report.StatesLeftOpen },
      { "EventCountMismatches", report.EventCountMismatches },
      { "LocationsOutsideClockSpan", report.LocationsOutsideClockSpan },
      { "DuplicateGroupDefinitions", report.DuplicateGroupDefinitions },
      { "RegionsSharingAName", report.RegionsSharingAName },
      { "StatesOutsideWindow", report.StatesOutsideWindow },
      { "MessagesOutsideWindow", report.MessagesOutsideWindow },
      { "EventsOutsideWindow", report.EventsOutsideWindow },
      { "SamplesOutsideWindow", report.SamplesOutsideWindow },
    });
  if (const auto* regrouping = this->Internal->Hierarchies.Regrouping())
  {
    regrouping->AddTo(fields);
  }
  this->UpdateProgress(1.0);
  return 1;
}

void vtkMacroscopeOTF2Reader::CoverRecordSpanOfSmallArchive()
{
  // The declared span (ClockProperties) may miss records, and filters take
  // their default windows from TimeBounds before any read. A small archive
  // is scanned at once, in a fraction of a second; a large one has its
  // bounds grown after the read (CoverRecordsRead).
  constexpr uint64_t ScanBytes = uint64_t(16) << 20;
  const uint64_t bytes = otf2::EventFileBytes(this->FileName);
  if (bytes == 0 || bytes > ScanBytes)
  {
    return;
  }
  std::pair<double, double> span;
  try
  {
    span = otf2::ReadRecordSpan(this->FileName);
  }
  catch (const std::exception&)
  {
    return; // the read proper reports the problem
  }
  const bool first = !std::isnan(span.first) && span.first < this->TimeBounds[0];
  const bool last = !std::isnan(span.second) && span.second > this->TimeBounds[1];
  if (first || last)
  {
    this->TimeBounds[0] = first ? span.first : this->TimeBounds[0];
    this->TimeBounds[1] = last ? span.second : this->TimeBounds[1];
    vtkWarningMacro("The records of "
      << this->FileName << " span " << span.first << " s to " << span.second
      << " s, beyond the clock's declared span: TimeBounds is " << this->TimeBounds[0] << " s to "
      << this->TimeBounds[1] << " s.");
  }
}

void vtkMacroscopeOTF2Reader::CoverRecordsRead(double first, double last, bool parallel)
{
  // The span of the records read by any piece.
  double span[2] = { std::isnan(first) ? this->TimeBounds[0] : first,
    std::isnan(last) ? this->TimeBounds[1] : last };
  if (parallel)
  {
    double all[2] = { span[0], span[1] };
    this->Controller->AllReduce(&span[0], &all[0], 1, vtkCommunicator::MIN_OP);
    this->Controller->AllReduce(&span[1], &all[1], 1, vtkCommunicator::MAX_OP);
    span[0] = all[0];
    span[1] = all[1];
  }
  if (span[0] >= this->TimeBounds[0] && span[1] <= this->TimeBounds[1])
  {
    return;
  }
  // The declared span (ClockProperties) misses records: the bounds, hence
  // every default window downstream, grow to hold them.
  this->TimeBounds[0] = std::min(this->TimeBounds[0], span[0]);
  this->TimeBounds[1] = std::max(this->TimeBounds[1], span[1]);
  if (auto* bounds =
        vtkDoubleArray::SafeDownCast(this->Internal->Types->GetFieldData()->GetArray("TimeBounds")))
  {
    bounds->SetTypedTuple(0, this->TimeBounds);
    bounds->Modified();
  }
  vtkWarningMacro("The records of " << this->FileName << " span " << span[0] << " s to " << span[1]
                                    << " s, beyond the clock's declared span: "
                                    << "TimeBounds is now " << this->TimeBounds[0] << " s to "
                                    << this->TimeBounds[1] << " s.");
}

void vtkMacroscopeOTF2Reader::ShareLeaves(int piece, int pieces,
  const std::function<bool(uint32_t)>& needed, std::vector<bool>& read, std::vector<bool>& mine,
  std::vector<uint32_t>& leaves)
{
  const otf2::TraceInfo& info = *this->Internal->Info;
  const uint32_t leafCount = static_cast<uint32_t>(info.Leaves.size());
  otf2::LeafRange range{ 0, leafCount };
  if (pieces > 1)
  {
    range = otf2::SplitLeaves(info, static_cast<uint32_t>(pieces))[static_cast<std::size_t>(piece)];
  }
  read.assign(leafCount, false);
  mine.assign(leafCount, false);
  leaves.clear();
  for (uint32_t leaf = 0; leaf < leafCount; ++leaf)
  {
    read[leaf] =
      this->LocationSelection->ArrayIsEnabled(this->Internal->LocationPaths[leaf].c_str()) != 0 &&
      needed(leaf);
    if (read[leaf] && leaf >= range.Begin && leaf < range.End)
    {
      mine[leaf] = true;
      leaves.push_back(leaf);
    }
  }
}

int vtkMacroscopeOTF2Reader::AgreeAcrossPieces(int status, bool parallel)
{
  if (!parallel)
  {
    return status;
  }
  int worst = status;
  this->Controller->AllReduce(&status, &worst, 1, vtkCommunicator::MIN_OP);
  if (worst == 0 && status != 0)
  {
    vtkErrorMacro("Another piece could not read " << this->FileName << "; see its error.");
  }
  return worst;
}

int vtkMacroscopeOTF2Reader::SliceWhileReading(
  macroscope::ModelStream& stream, int piece, int pieces)
{
  if (!this->Internal->Info || this->Internal->InfoFile != this->FileName ||
    !this->Internal->Hierarchies.IsApplied())
  {
    vtkErrorMacro("Cannot slice " << this->FileName << ": its definitions were not read.");
    return 0;
  }
  const otf2::TraceInfo& info = *this->Internal->Info;
  const auto* regrouping = this->Internal->Hierarchies.Regrouping();
  const std::vector<uint32_t>* newLeaf = regrouping ? &regrouping->NewLeaf : nullptr;

  // This piece's share of the leaves, among those selected and needed; a
  // message needs both its ends: the message metrics read every leaf.
  std::vector<bool> read;
  std::vector<bool> mine;
  otf2::ReadOptions options;
  this->ShareLeaves(
    piece, pieces,
    [&stream, newLeaf](uint32_t leaf)
    { return stream.WantsMessages() || stream.NeedsLeaf(newLeaf ? (*newLeaf)[leaf] : leaf); },
    read, mine, options.Leaves);
  // A variable's sample holds until the next one: the last sample before
  // the window counts in it, so samples are read from the start.
  options.WindowBegin =
    stream.WantsVariables() ? -std::numeric_limits<double>::infinity() : stream.Begin();
  options.WindowEnd = stream.End();
  options.Regions = this->EnabledRegions();
  const bool noStates = this->RegionSelection->GetNumberOfArraysEnabled() == 0;
  options.Progress = [this](double fraction)
  {
    this->UpdateProgress(0.95 * fraction);
    return !this->GetAbortExecute();
  };

  otf2::TraceData data;
  const std::string failure = "Slicing " + this->FileName + " while reading it failed";
  const std::string aborted = "Reading " + this->FileName + " was aborted.";
  int status = MacroscopeRunCore<otf2::ReadAborted>(this, failure.c_str(), aborted.c_str(),
    [&]
    {
      // Every region filtered out: no state counts, but events, samples and
      // messages still do.
      if (!options.Leaves.empty() && !(noStates && stream.WantsStates()))
      {
        const uint32_t threads = ReadThreads(pieces, stream);
        if (threads > 1)
        {
          data.Report = StreamOnThreads(this->FileName, info, newLeaf, threads, stream, options);
        }
        else
        {
          StreamSink sink(stream, newLeaf);
          data = otf2::StreamTrace(this->FileName, sink, options);
        }
      }
    });
  const bool parallel =
    pieces > 1 && this->Controller && this->Controller->GetNumberOfProcesses() == pieces;
  status = this->AgreeAcrossPieces(status, parallel);
  const otf2::Diagnostics& report = data.Report;
  const uint64_t outside = report.StatesOutsideWindow + report.EventsOutsideWindow +
    report.SamplesOutsideWindow + report.MessagesOutsideWindow;
  const bool beyondBounds =
    report.FirstTime < this->TimeBounds[0] || report.LastTime > this->TimeBounds[1];
  if (status == 1 && outside > 0 && beyondBounds)
  {
    // The stream's grid decides which times count; when the records go
    // beyond TimeBounds (a clock whose declared span is too short), say
    // what the default grid left out.
    vtkWarningMacro("Slicing " << this->FileName << " over " << stream.Begin() << " s to "
                               << stream.End() << " s left out " << report.StatesOutsideWindow
                               << " states, " << report.EventsOutsideWindow << " events and "
                               << report.SamplesOutsideWindow
                               << " metric values outside it (records read span "
                               << report.FirstTime << " s to " << report.LastTime << " s).");
  }
  if (status != 1 || !stream.WantsMessages())
  {
    this->UpdateProgress(1.0);
    return status;
  }
  if (parallel)
  {
    JoinAcrossPieces(this->Controller, mine, read, data);
  }
  otf2::MessageColumns& messages = data.Messages;
  if (newLeaf)
  {
    for (std::size_t i = 0; i < messages.size(); ++i)
    {
      messages.Sender[i] = (*newLeaf)[messages.Sender[i]];
      messages.Receiver[i] = (*newLeaf)[messages.Receiver[i]];
    }
  }
  const std::vector<double> bytes(messages.Bytes.begin(), messages.Bytes.end());
  try
  {
    stream.AddMessages({ messages.Sender.data(), messages.Receiver.data(), messages.SendTime.data(),
      messages.RecvTime.data(), bytes.data(), messages.size() });
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("Slicing the messages of " << this->FileName << " failed: " << error.what());
    status = 0;
  }
  this->UpdateProgress(1.0);
  return status;
}
