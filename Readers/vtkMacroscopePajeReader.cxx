#include "vtkMacroscopePajeReader.h"

#include "MacroscopeHierarchyFile.h"
#include "MacroscopePaje.h"
#include "MacroscopeReaderOutputs.h"
#include "ModelStream.h"
#include "PajeModelStream.h"
#include "PajeSelection.h"
#include "TraceSchema.h"

#include "vtkDataArraySelection.h"
#include "vtkDataObject.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationDataObjectMetaDataKey.h"
#include "vtkInformationVector.h"
#include "vtkMultiProcessController.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkSmartPointer.h"
#include "vtkStreamingDemandDrivenPipeline.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkTree.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include <sys/stat.h>

namespace paje = macroscope::paje;
namespace schema = macroscope::schema;
using namespace macroscope::readers;

vtkStandardNewMacro(vtkMacroscopePajeReader);

namespace
{
/// What identifies the parsed file: a changed file (new modification time
/// or size) is parsed again, the same file never.
// The Locations and Regions selections and the piece's leaves, in the
// parsed leaf numbering, as both the table selection (RequestData) and the
// streamed one (SliceWhileReading) take them.
template <typename SelectionT>
void SelectLeavesTypesAndPiece(SelectionT& selection, const paje::TraceData& trace,
  vtkDataArraySelection* locations, const std::vector<std::string>& paths,
  vtkDataArraySelection* regions, int piece, int pieces)
{
  if (locations->GetNumberOfArraysEnabled() < locations->GetNumberOfArrays())
  {
    selection.Leaves.resize(trace.Leaves.size());
    for (std::size_t leaf = 0; leaf < trace.Leaves.size(); ++leaf)
    {
      selection.Leaves[leaf] = locations->ArrayIsEnabled(paths[leaf].c_str()) != 0;
    }
  }
  if (regions->GetNumberOfArraysEnabled() < regions->GetNumberOfArrays())
  {
    selection.StateTypes.resize(trace.Types.size());
    for (std::size_t row = 0; row < trace.Types.size(); ++row)
    {
      selection.StateTypes[row] = trace.Types.Kind[row] == macroscope::schema::StateKind &&
        regions->ArrayIsEnabled(trace.Types.Name[row].c_str()) != 0;
    }
  }
  if (pieces > 1)
  {
    const auto range = paje::SplitLeaves(trace, static_cast<uint32_t>(pieces))[std::size_t(piece)];
    selection.Piece = { range.Begin, range.End };
  }
}

struct FileKey
{
  std::string Name;
  int64_t ModificationNanoseconds = 0;
  int64_t Size = -1;

  bool operator==(const FileKey& other) const
  {
    return this->Name == other.Name &&
      this->ModificationNanoseconds == other.ModificationNanoseconds && this->Size == other.Size;
  }
};

bool StatFile(const std::string& name, FileKey& key)
{
  struct stat info;
  if (::stat(name.c_str(), &info) != 0)
  {
    return false;
  }
  key.Name = name;
  key.ModificationNanoseconds =
    int64_t(info.st_mtim.tv_sec) * 1000000000 + int64_t(info.st_mtim.tv_nsec);
  key.Size = int64_t(info.st_size);
  return true;
}
}

struct vtkMacroscopePajeReader::Internals
{
  FileKey Key;                            // the file Trace was parsed from
  std::unique_ptr<paje::TraceData> Trace; // the whole parsed trace: the cache
  bool HasRows = false;                   // Trace keeps its rows (KeepRows was on)
  bool Aborted = false;                   // the last parse was aborted
  std::vector<std::string> LocationPaths; // per leaf of the parsed trace
  std::vector<std::string> CurrentPaths;  // the same leaves' paths in force
  std::string ParseReport;                // Describe() of the parse; each read adds its own
  // The HierarchyFile applied to Trace (null Regrouping(): its own).
  macroscope::HierarchyFileTracker Hierarchies;
  // The Hierarchy and Types outputs, passed downstream as meta-data.
  vtkSmartPointer<vtkTree> Hierarchy;
  vtkSmartPointer<vtkTable> Types;

  void Clear()
  {
    this->Key = FileKey();
    this->Trace.reset();
    this->HasRows = false;
    this->Aborted = false;
    this->LocationPaths.clear();
    this->CurrentPaths.clear();
    this->ParseReport.clear();
    this->Hierarchies.Reset();
    this->Hierarchy = nullptr;
    this->Types = nullptr;
  }
};

vtkMacroscopePajeReader::vtkMacroscopePajeReader()
  : Internal(new Internals)
{
}

vtkMacroscopePajeReader::~vtkMacroscopePajeReader() = default;

void vtkMacroscopePajeReader::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "NumberOfParses: " << this->NumberOfParses << "\n";
  os << indent << "KeepRows: " << this->KeepRows << "\n";
}

int vtkMacroscopePajeReader::CanReadFile(const char* name)
{
  if (!name)
  {
    return 0;
  }
  // Only the first 64 KiB, read as one block: a file that starts with a
  // long comment block is still recognised, while a huge file (or one huge
  // first line) is never read whole.
  std::ifstream file(name, std::ios::binary);
  std::string head(65536, '\0');
  file.read(&head[0], static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(file.gcount()));
  std::size_t begin = 0;
  while (begin < head.size())
  {
    const std::size_t newline = head.find('\n', begin);
    const std::size_t end = newline == std::string::npos ? head.size() : newline;
    const std::size_t first = head.find_first_not_of(" \t\r", begin);
    if (first < end && head[first] != '#')
    {
      return head.compare(first, 9, "%EventDef") == 0 ? 1 : 0;
    }
    if (newline == std::string::npos)
    {
      break;
    }
    begin = newline + 1;
  }
  return 0;
}

namespace
{
// A failed information pass stops the pipeline before RequestData: empty
// the outputs here, so that the data of a previous file does not linger.
void ClearOutputs(vtkInformationVector* outputVector)
{
  for (int port = 0; port < outputVector->GetNumberOfInformationObjects(); ++port)
  {
    if (vtkDataObject* output = vtkDataObject::GetData(outputVector, port))
    {
      output->Initialize();
    }
  }
}
}

int vtkMacroscopePajeReader::RequestInformation(
  vtkInformation*, vtkInformationVector**, vtkInformationVector* outputVector)
{
  for (int port = 0; port < this->GetNumberOfOutputPorts(); ++port)
  {
    outputVector->GetInformationObject(port)->Set(CAN_HANDLE_PIECE_REQUEST(), 1);
  }
  if (this->FileName.empty())
  {
    this->Internal->Clear();
    ClearOutputs(outputVector);
    vtkErrorMacro("FileName is not set: choose a Pajé trace (*.paje, *.trace).");
    return 0;
  }
  FileKey key;
  if (!StatFile(this->FileName, key))
  {
    this->Internal->Clear();
    ClearOutputs(outputVector);
    const std::string hint = MissingFileHint(this->FileName, "FileName");
    vtkErrorMacro(<< this->FileName << ": cannot open: "
                  << (hint.empty() ? std::string("not accessible.") : "no such file" + hint + "."));
    return 0;
  }
  // A scan without rows serves until the rows are wanted.
  if (this->Internal->Trace && this->Internal->Key == key &&
    (this->Internal->HasRows || !this->KeepRows))
  {
    if (!this->ApplyHierarchyFile()) // the cache serves; the hierarchy may change
    {
      ClearOutputs(outputVector);
      return 0;
    }
    PublishDefinitions(outputVector, this->Internal->Hierarchy, this->Internal->Types);
    return 1;
  }

  // A new or changed file: parse it whole (definitions may come anywhere).
  this->Internal->Clear();
  this->ReadReport.clear();
  // The pipeline clears the abort flag before RequestData only; a flag left
  // by an earlier aborted pass must not stop this parse.
  this->SetAbortExecute(0);
  paje::ReadOptions options;
  options.Progress = [this](double fraction)
  {
    this->UpdateProgress(fraction);
    return !this->GetAbortExecute();
  };
  options.KeepRows = this->KeepRows;
  auto trace = std::make_unique<paje::TraceData>();
  ++this->NumberOfParses;
  try
  {
    *trace = paje::ReadTrace(this->FileName, options);
  }
  catch (const paje::ReadAborted&)
  {
    vtkWarningMacro("Reading " << this->FileName << " was aborted.");
    this->Internal->Aborted = true;
    ClearOutputs(outputVector);
    return 1; // not a failure: the outputs stay empty until the next read
  }
  catch (const std::bad_alloc&)
  {
    ClearOutputs(outputVector);
    vtkErrorMacro(<< this->FileName << ": not enough memory to parse the trace.");
    return 0;
  }
  catch (const std::exception& error)
  {
    ClearOutputs(outputVector);
    vtkErrorMacro(<< error.what()); // names the file and, for parse errors, the line
    return 0;
  }

  const paje::TraceData& t = *trace;
  ResetSelection(this->RegionSelection, StateTypeNames(t.Types));

  const paje::Diagnostics& report = t.Report;
  const bool timed = std::isfinite(report.FirstTime) && std::isfinite(report.LastTime);
  this->TimeBounds[0] = timed ? report.FirstTime : 0.0;
  this->TimeBounds[1] = timed ? report.LastTime : 0.0;
  this->NumberOfEventRecords = static_cast<vtkIdType>(report.Lines);
  this->NumberOfLocations = static_cast<vtkIdType>(t.Leaves.size());
  this->ReadReport = paje::Describe(report);
  if (report.StatesLeftOpen || report.UnmatchedStartLinks || report.UnmatchedEndLinks ||
    report.EndsBeforeStarts || report.TraceFilesSkipped)
  {
    vtkWarningMacro("Read " << this->FileName << " with anomalies:\n" << this->ReadReport);
  }

  this->Internal->Types = TypesOutput(t.Types, this->TimeBounds);

  this->Internal->Trace = std::move(trace);
  this->Internal->HasRows = this->KeepRows;
  this->Internal->Key = key;
  this->Internal->ParseReport = this->ReadReport;
  this->Internal->LocationPaths = LeafPaths(*this->Internal->Trace);
  if (!this->ApplyHierarchyFile())
  {
    ClearOutputs(outputVector);
    return 0;
  }
  PublishDefinitions(outputVector, this->Internal->Hierarchy, this->Internal->Types);
  return 1;
}

bool vtkMacroscopePajeReader::ApplyHierarchyFile()
{
  Internals& internal = *this->Internal;
  const paje::TraceData& trace = *internal.Trace;
  // The cache keeps the parsed leaf indexes, renumbered on output.
  return this->RunHierarchyFileStep(
    [&]
    {
      return internal.Hierarchies.Apply(this->HierarchyFile, trace.Hierarchy,
        macroscope::LeafVertices(trace), internal.LocationPaths, this->FileName,
        this->LocationSelection, internal.Hierarchy, internal.CurrentPaths);
    });
}

int vtkMacroscopePajeReader::RequestData(
  vtkInformation*, vtkInformationVector**, vtkInformationVector* outputVector)
{
  // An abort stops the run it interrupts; VTK leaves the flag set, which
  // would abort every later run too (docs/progress.md).
  this->SetAbortExecute(0);
  if (!this->Internal->Trace || this->Internal->Key.Name != this->FileName ||
    !this->Internal->Hierarchies.IsApplied())
  {
    // RequestInformation reported why; an aborted parse outputs nothing.
    return this->Internal->Aborted ? 1 : 0;
  }
  if (!this->Internal->HasRows)
  {
    vtkErrorMacro(<< this->FileName
                  << ": KeepRows is off: the file was scanned for its definitions only, so there "
                     "are no tables to output. Turn KeepRows on to read them.");
    return 0;
  }
  const paje::TraceData& trace = *this->Internal->Trace;

  // Pajé times may be negative: a window may start as early as the trace
  // (the GUI fills TimeWindow from TimeBounds).
  const std::string windowError =
    CheckTimeWindow(this->TimeWindow, std::min(0.0, this->TimeBounds[0]));
  if (!windowError.empty())
  {
    vtkErrorMacro(<< this->FileName << ": " << windowError);
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
  if (piece < 0 || piece >= pieces)
  {
    vtkErrorMacro(<< this->FileName << ": piece " << piece << " of " << pieces
                  << " requested: there is no such piece.");
    return 0;
  }

  paje::Selection selection;
  // A side of 0 is open: (0, 0) outputs everything, whatever the file's times.
  if (this->TimeWindow[0] != 0.0)
  {
    selection.WindowBegin = this->TimeWindow[0];
  }
  if (this->TimeWindow[1] != 0.0)
  {
    selection.WindowEnd = this->TimeWindow[1];
  }
  selection.ClipStatesToWindow = this->ClipStatesToWindow;
  SelectLeavesTypesAndPiece(selection, trace, this->LocationSelection, this->Internal->CurrentPaths,
    this->RegionSelection, piece, pieces);
  this->UpdateProgress(0.1);
  if (this->GetAbortExecute())
  {
    vtkWarningMacro("Reading " << this->FileName << " was aborted.");
    return 1;
  }

  paje::SelectedTables rows = paje::Select(trace, selection);
  // The parse's report and what this read left out (this piece's rows).
  this->ReadReport = this->Internal->ParseReport + paje::DescribeSelection(rows, selection);
  if (rows.OutsideWindow() > 0)
  {
    // As the OTF2 reader: no record leaves silently. The selections are
    // the user's intent: counted, not warned about.
    const std::string where =
      pieces > 1 ? " (piece " + std::to_string(piece) + " of " + std::to_string(pieces) + ")" : "";
    vtkWarningMacro(
      "Reading " << this->FileName << where << ": the time window " << selection.WindowBegin
                 << " s to " << selection.WindowEnd << " s left out " << rows.StatesOutsideWindow
                 << " states, " << rows.MessagesOutsideWindow << " links, "
                 << rows.EventsOutsideWindow << " events and " << rows.SamplesOutsideWindow
                 << " variable changes outside it (the trace spans " << this->TimeBounds[0]
                 << " s to " << this->TimeBounds[1] << " s).");
  }
  const macroscope::HierarchyRegrouping* regrouping = this->Internal->Hierarchies.Regrouping();
  if (regrouping)
  {
    macroscope::RenumberLeaves(
      regrouping->NewLeaf, rows.States, rows.Messages, rows.Events, rows.Variables);
  }
  this->UpdateProgress(0.8);

  const paje::Diagnostics& report = trace.Report;
  vtkFieldData* fields = FillTraceOutputs(outputVector, rows.States, rows.Messages, rows.Events,
    rows.Variables, this->Internal->Hierarchy, this->Internal->Types, this->ReadReport);
  this->FinishOutputs(outputVector, pieces,
    {
      { "EventRecordsRead", report.Lines },
      { "StatesLeftOpen", report.StatesLeftOpen },
      { "StatesClosedByDestroy", report.StatesClosedByDestroy },
      { "UnmatchedStartLinks", report.UnmatchedStartLinks },
      { "UnmatchedEndLinks", report.UnmatchedEndLinks },
      { "EndsBeforeStarts", report.EndsBeforeStarts },
      { "ImplicitValues", report.ImplicitValues },
      { "SelfLeaves", report.SelfLeaves },
      { "TraceFilesSkipped", report.TraceFilesSkipped },
      { "MessagesWithUnreadEnd", rows.MessagesWithUnreadEnd },
      { "StatesOutsideWindow", rows.StatesOutsideWindow },
      { "MessagesOutsideWindow", rows.MessagesOutsideWindow },
      { "EventsOutsideWindow", rows.EventsOutsideWindow },
      { "SamplesOutsideWindow", rows.SamplesOutsideWindow },
      { "RowsOfUnreadLocations", rows.RowsOfUnreadLocations },
      { "StatesOfUnreadRegions", rows.StatesOfUnreadRegions },
    });
  if (regrouping)
  {
    regrouping->AddTo(fields);
  }
  this->UpdateProgress(1.0);
  return 1;
}

int vtkMacroscopePajeReader::SliceWhileReading(
  macroscope::ModelStream& stream, int piece, int pieces)
{
  Internals& internal = *this->Internal;
  if (!internal.Trace || internal.Key.Name != this->FileName || !internal.Hierarchies.IsApplied())
  {
    vtkErrorMacro(<< "SliceWhileReading on " << this->FileName
                  << " before a successful UpdateInformation (nothing was read).");
    return 0;
  }
  FileKey key;
  if (!StatFile(this->FileName, key) || !(key == internal.Key))
  {
    vtkErrorMacro(<< this->FileName
                  << ": the file changed (or vanished) since UpdateInformation: update again.");
    return 0;
  }
  if (pieces < 1 || piece < 0 || piece >= pieces)
  {
    vtkErrorMacro(<< this->FileName << ": piece " << piece << " of " << pieces
                  << " requested: there is no such piece.");
    return 0;
  }
  const paje::TraceData& trace = *internal.Trace;
  const std::size_t leaves = trace.Leaves.size();

  // The selections of RequestData, in the parsed leaf numbering.
  paje::StreamSelection selection;
  const macroscope::HierarchyRegrouping* regrouping = internal.Hierarchies.Regrouping();
  if (regrouping)
  {
    selection.OutputLeaf = regrouping->NewLeaf;
  }
  SelectLeavesTypesAndPiece(selection, trace, this->LocationSelection, internal.CurrentPaths,
    this->RegionSelection, piece, pieces);

  // The owner forwards its abort to this reader; a flag left by an earlier
  // aborted pass must not stop this one.
  this->SetAbortExecute(0);
  paje::ReadOptions options;
  options.Progress = [this](double fraction)
  {
    this->UpdateProgress(fraction);
    return !this->GetAbortExecute();
  };
  try
  {
    paje::StreamModel(this->FileName, trace, selection, stream, options);
  }
  catch (const paje::ReadAborted&)
  {
    vtkWarningMacro("Reading " << this->FileName << " was aborted.");
    return -1;
  }
  catch (const std::bad_alloc&)
  {
    vtkErrorMacro(<< this->FileName << ": not enough memory to build the model.");
    return 0;
  }
  catch (const paje::TraceError& error)
  {
    vtkErrorMacro(<< error.what()); // names the file and, for parse errors, the line
    return 0;
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro(<< this->FileName << ": " << error.what());
    return 0;
  }
  return 1;
}
