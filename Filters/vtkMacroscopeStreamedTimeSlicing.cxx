#include "vtkMacroscopeStreamedTimeSlicing.h"

#include "MacroscopeCoreRun.h"
#include "MacroscopeModelPlan.h"
#include "MacroscopeTraceColumns.h"
#include "MacroscopeTraceInputs.h"
#include "ModelCache.h"
#include "ModelCachePolicy.h"
#include "ModelStream.h"
#include "TraceSchema.h"

#include "vtkCallbackCommand.h"
#include "vtkCommand.h"
#include "vtkCommunicator.h"
#include "vtkDataSetAttributes.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationDataObjectMetaDataKey.h"
#include "vtkInformationVector.h"
#include "vtkIntArray.h"
#include "vtkMacroscopeOTF2Reader.h"
#include "vtkMacroscopePajeReader.h"
#include "vtkMacroscopeTraceKeys.h"
#include "vtkMultiProcessController.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkSmartPointer.h"
#include "vtkStreamingDemandDrivenPipeline.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkTree.h"

#include <filesystem>
#include <string>
#include <vector>

vtkStandardNewMacro(vtkMacroscopeStreamedTimeSlicing);

namespace
{
namespace schema = macroscope::schema;

// The leaves' paths and the planes' type names: what a HierarchyFile or a
// new trace at the same path would change under a cached model.
std::string DefinitionsText(vtkTree* tree, vtkTable* types, const MacroscopeModelPlan& plan)
{
  std::vector<int64_t> parent;
  std::vector<int64_t> leafIndex;
  std::string problem;
  std::string text;
  auto* names = vtkStringArray::SafeDownCast(tree->GetVertexData()->GetAbstractArray(schema::Name));
  if (names && MacroscopeHierarchyArrays(tree, parent, leafIndex, problem))
  {
    for (std::size_t v = 0; v < parent.size(); ++v)
    {
      text += std::to_string(parent[v]) + ' ' + std::to_string(leafIndex[v]) + ' ' +
        names->GetValue(static_cast<vtkIdType>(v)) + '\n';
    }
  }
  auto* typeNames =
    types ? vtkStringArray::SafeDownCast(types->GetColumnByName(schema::Name)) : nullptr;
  for (vtkIdType type : plan.TypeOfPlane)
  {
    text += typeNames ? typeNames->GetValue(type) : std::to_string(type);
    text += '\n';
  }
  return text;
}

template <typename T>
vtkSmartPointer<T> Definition(vtkAlgorithm* reader, schema::TraceOutput port)
{
  vtkInformation* info = reader->GetOutputInformation(static_cast<int>(port));
  return info && info->Has(vtkMacroscopeTraceKeys::DEFINITIONS())
    ? T::SafeDownCast(info->Get(vtkMacroscopeTraceKeys::DEFINITIONS()))
    : nullptr;
}
}

struct vtkMacroscopeStreamedTimeSlicing::Internals
{
  vtkSmartPointer<vtkMacroscopeTraceReader> Reader;
  vtkNew<vtkCallbackCommand> Relay; // the reader's messages and progress, as ours
  vtkSmartPointer<vtkTree> Hierarchy;
  vtkSmartPointer<vtkTable> Types;
  // The trace file the reader's definitions come from: a new file at the
  // same path (another run) needs a new reader, which reads them again.
  macroscope::TraceIdentity Trace;
};

vtkMacroscopeStreamedTimeSlicing::vtkMacroscopeStreamedTimeSlicing()
  : Internal(new Internals)
{
  this->SetNumberOfInputPorts(0);
  this->Internal->Relay->SetClientData(this);
  this->Internal->Relay->SetCallback(
    [](vtkObject* caller, unsigned long event, void* clientData, void* callData)
    {
      auto* self = static_cast<vtkMacroscopeStreamedTimeSlicing*>(clientData);
      auto* reader = static_cast<vtkAlgorithm*>(caller);
      if (event == vtkCommand::ProgressEvent)
      {
        self->UpdateProgress(*static_cast<double*>(callData));
        // Abort reaches the reader through its own flag.
        reader->SetAbortExecute(self->GetAbortExecute());
      }
      else
      {
        const char* text = static_cast<const char*>(callData);
        if (event == vtkCommand::ErrorEvent)
        {
          vtkErrorWithObjectMacro(self, << text);
        }
        else
        {
          vtkWarningWithObjectMacro(self, << text);
        }
      }
    });
}

vtkMacroscopeStreamedTimeSlicing::~vtkMacroscopeStreamedTimeSlicing() = default;

void vtkMacroscopeStreamedTimeSlicing::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "FileName: " << this->FileName << "\n";
  os << indent << "HierarchyFile: " << this->HierarchyFile << "\n";
  os << indent << "UseModelCache: " << this->UseModelCache << "\n";
  os << indent << "CacheDirectory: " << this->CacheDirectory << "\n";
  os << indent << "CacheSlices: " << this->CacheSlices << "\n";
  os << indent << "Exact: " << this->Exact << "\n";
  os << indent << "NumberOfTraceReads: " << this->NumberOfTraceReads << "\n";
  os << indent << "LocationsRead: " << this->LocationsRead << "\n";
  os << indent << "ModelOrigin: " << this->ModelOrigin << "\n";
  os << indent << "DirtySlices: " << this->DirtySlices << "\n";
  os << indent << "CacheFile: " << this->CacheFile << "\n";
}

vtkTypeBool vtkMacroscopeStreamedTimeSlicing::ProcessRequest(
  vtkInformation* request, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  if (request->Has(vtkDemandDrivenPipeline::REQUEST_DATA()))
  {
    return this->BuildModel(outputVector);
  }
  if (request->Has(vtkDemandDrivenPipeline::REQUEST_INFORMATION()))
  {
    return this->ReadDefinitions(outputVector);
  }
  // No input to ask pieces of: every rank reads its share itself.
  return this->vtkAlgorithm::ProcessRequest(request, inputVector, outputVector);
}

int vtkMacroscopeStreamedTimeSlicing::ReadDefinitions(vtkInformationVector* outputVector)
{
  Internals& internal = *this->Internal;
  internal.Hierarchy = nullptr;
  internal.Types = nullptr;
  if (this->FileName.empty())
  {
    vtkErrorMacro("FileName is not set: choose a trace (an OTF2 anchor file or a Pajé file).");
    return 0;
  }
  // The reader of the file's format; a Pajé file says so in its first line.
  const bool paje = vtkMacroscopePajeReader::CanReadFile(this->FileName.c_str()) != 0;
  macroscope::TraceIdentity trace;
  try
  {
    trace = macroscope::IdentifyTrace(this->FileName);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("Cannot read the trace "
      << this->FileName << ": " << error.what()
      << vtkMacroscopeTraceReader::MissingFileHint(this->FileName, "FileName"));
    return 0;
  }
  if (!internal.Reader || internal.Reader->IsA("vtkMacroscopePajeReader") != paje ||
    !(trace == internal.Trace))
  {
    internal.Trace = trace;
    if (paje)
    {
      // Definitions only: the rows are streamed, never kept.
      auto pajeReader = vtkSmartPointer<vtkMacroscopePajeReader>::New();
      pajeReader->KeepRowsOff();
      internal.Reader = pajeReader;
    }
    else
    {
      internal.Reader = vtkSmartPointer<vtkMacroscopeOTF2Reader>::New();
    }
    for (unsigned long event :
      { vtkCommand::ErrorEvent, vtkCommand::WarningEvent, vtkCommand::ProgressEvent })
    {
      internal.Reader->AddObserver(event, internal.Relay);
    }
  }
  vtkMacroscopeTraceReader* reader = internal.Reader;
  reader->SetFileName(this->FileName.c_str());
  reader->SetHierarchyFile(this->HierarchyFile.c_str());
  reader->SetController(this->GetController());
  reader->SetAbortExecute(0);
  auto* executive = vtkStreamingDemandDrivenPipeline::SafeDownCast(reader->GetExecutive());
  if (!executive || !executive->UpdateInformation())
  {
    return 0; // the reader's error was relayed
  }
  reader->GetTimeBounds(this->TimeBounds);
  internal.Hierarchy = Definition<vtkTree>(reader, schema::TraceOutput::Hierarchy);
  internal.Types = Definition<vtkTable>(reader, schema::TraceOutput::Types);
  if (!internal.Hierarchy || !internal.Types)
  {
    vtkErrorMacro("The reader of " << this->FileName << " gave no definitions.");
    return 0;
  }
  return this->DescribeModel(internal.Hierarchy, internal.Types, outputVector);
}

// One request: the plans of the model, its window, the model asked and
// the fine one the cache keeps, and the cache's key and file.
struct vtkMacroscopeStreamedTimeSlicing::Request
{
  MacroscopeModelPlan Plan;
  MacroscopeModelPlan Selected;
  double Begin = 0.0;
  double End = 0.0;
  macroscope::TimeSlicingOptions Asked;
  macroscope::TimeSlicingOptions Fine;
  bool Extensive = false;
  macroscope::ModelCacheKey Key;
  std::string CacheFile;
};

int vtkMacroscopeStreamedTimeSlicing::BuildModel(vtkInformationVector* outputVector)
{
  // An abort stops the run it interrupts; VTK leaves the flag set, which
  // would abort every later run too (docs/progress.md).
  this->SetAbortExecute(0);
  if (this->IsModelCurrent())
  {
    return this->WriteOutputs(outputVector);
  }
  Internals& internal = *this->Internal;
  if (!internal.Reader || !internal.Hierarchy || !internal.Types)
  {
    return 0; // ReadDefinitions reported why
  }
  Request request;
  if (!this->PlanRequest(request) || !this->ModelFits(request))
  {
    return 0;
  }
  // Rank 0 looks at the cache and decides for every rank.
  macroscope::CacheLookup lookup = this->LookUpCache(request);
  if (lookup.Source != macroscope::ModelSource::FromCache)
  {
    const int status = this->ReadTrace(request, lookup);
    if (status == -1)
    {
      return this->AbortOutputs(outputVector, "Slicing " + this->FileName + " was aborted.");
    }
    if (status != 1)
    {
      return 0;
    }
  }
  const bool rebuilt = macroscope::RebuiltFromFineModel(lookup.Source, this->Exact);
  this->ModelOrigin = macroscope::ModelOriginName(lookup.Source, this->Exact);
  this->DirtySlices = rebuilt ? lookup.DirtySlices : 0;
  this->CacheFile = request.CacheFile;

  KeepPlanes(lookup.Model, request.Plan, request.Selected);
  this->KeepModel(
    lookup.Model, request.Selected, internal.Hierarchy, internal.Types, request.Begin, request.End);
  // How many cached slices were shared is part of the result (it depends on
  // the grids only); where the model came from is history, and stays out.
  vtkNew<vtkIntArray> shared;
  shared->SetName("DirtySlices");
  shared->InsertNextValue(this->DirtySlices);
  this->GetModelFields()->AddArray(shared);
  return this->WriteOutputs(outputVector);
}

bool vtkMacroscopeStreamedTimeSlicing::PlanRequest(Request& request)
{
  Internals& internal = *this->Internal;
  const int metric = this->GetMetric();
  if (metric < STATE_DURATION || metric > MESSAGES_RECEIVED)
  {
    vtkErrorMacro("Unknown Metric " << metric << ".");
    return false;
  }
  if (this->GetSlices() < 1 || this->CacheSlices < 1)
  {
    vtkErrorMacro("Slices and CacheSlices must be at least 1 (got " << this->GetSlices() << " and "
                                                                    << this->CacheSlices << ").");
    return false;
  }
  std::vector<std::string> subset;
  for (int i = 0; i < this->GetNumberOfResources(); ++i)
  {
    subset.emplace_back(this->GetResource(i));
  }
  std::vector<std::string> types;
  for (int i = 0; i < this->GetNumberOfTypes(); ++i)
  {
    types.emplace_back(this->GetType(i));
  }
  // The model (and the cache) hold every type's plane; the Types selection
  // keeps some planes at the end, so one cache serves every selection.
  MacroscopeModelPlan& plan = request.Plan;
  std::string problem;
  if (!plan.Build(
        internal.Hierarchy, internal.Types, metric, this->GetResourceLevel(), subset, problem) ||
    !(request.Selected = plan).KeepTypes(internal.Types, types, problem))
  {
    vtkErrorMacro(<< problem << ".");
    return false;
  }
  if (!this->ResolveWindow(this->TimeBounds, request.Begin, request.End))
  {
    return false;
  }

  // The request, and the fine model of every leaf the cache keeps.
  const auto sliceMetric = static_cast<macroscope::SliceMetric>(metric);
  macroscope::TimeSlicingOptions& asked = request.Asked;
  asked.Grid = { request.Begin, request.End, this->GetSlices() };
  asked.Metric = sliceMetric;
  asked.Normalize = this->GetNormalize();
  asked.Depth = this->GetDepth();
  asked.Leaves = static_cast<uint32_t>(plan.Resources.ResourceOfLeaf.size());
  asked.ResourceOfLeaf = plan.Resources.ResourceOfLeaf;
  asked.Resources = plan.Resources.Resources;
  asked.Types = MacroscopeModelPlan::PlaneKind(metric) ? static_cast<uint32_t>(plan.Planes()) : 1;
  request.Fine = macroscope::FineModelOptions(asked, this->TimeBounds[1], this->CacheSlices);
  request.Extensive = macroscope::IsExtensiveMetric(sliceMetric, asked.Normalize);
  if (this->UseModelCache)
  {
    macroscope::ModelCacheKey& key = request.Key;
    key.Trace = internal.Trace;
    key.Trace.Digest =
      macroscope::ContentDigest(DefinitionsText(internal.Hierarchy, internal.Types, plan));
    key.Metric = sliceMetric;
    key.Normalize = asked.Normalize;
    key.Depth = asked.Depth;
    key.Resources = request.Fine.Leaves;
    key.Types = request.Fine.Types;
    request.CacheFile = macroscope::ModelCachePath(
      this->FileName, this->CacheDirectory, sliceMetric, asked.Normalize, asked.Depth);
  }
  return true;
}

bool vtkMacroscopeStreamedTimeSlicing::ModelFits(const Request& request)
{
  // A model too large for memory is refused before any read. The ranks'
  // memory may differ: they agree, so that all stop or go on together.
  std::vector<const macroscope::TimeSlicingOptions*> built{ &request.Asked };
  if (this->UseModelCache)
  {
    built.push_back(&request.Fine);
  }
  vtkMultiProcessController* controller = this->GetController();
  const bool parallel = controller && controller->GetNumberOfProcesses() > 1;
  return MacroscopeTraceInputs::AgreeOnStatus(
           this->CheckModelMemory(built) ? 1 : 0, controller, parallel) == 1;
}

macroscope::CacheLookup vtkMacroscopeStreamedTimeSlicing::LookUpCache(Request& request)
{
  vtkMultiProcessController* controller = this->GetController();
  const int ranks = controller ? controller->GetNumberOfProcesses() : 1;
  const int rank = controller ? controller->GetLocalProcessId() : 0;
  macroscope::CacheLookup lookup;
  lookup.Source = this->UseModelCache ? macroscope::ModelSource::ReadAndCache
                                      : macroscope::ModelSource::ReadUncached;
  if (this->UseModelCache && rank == 0)
  {
    lookup = macroscope::LookUpModelCache(
      request.CacheFile, request.Key, request.Asked, request.Extensive, this->Exact);
    if (!lookup.Warning.empty())
    {
      vtkWarningMacro(<< lookup.Warning << "; reading the trace and rewriting the cache.");
    }
  }
  if (ranks <= 1)
  {
    return lookup;
  }
  int shared[2] = { static_cast<int>(lookup.Source), lookup.DirtySlices };
  controller->Broadcast(shared, 2, 0);
  lookup.Source = static_cast<macroscope::ModelSource>(shared[0]);
  lookup.DirtySlices = shared[1];
  if (lookup.Source == macroscope::ModelSource::FromCache)
  {
    macroscope::MicroscopicModel& model = lookup.Model;
    const macroscope::TimeSlicingOptions& asked = request.Asked;
    if (rank != 0)
    {
      model.Grid = asked.Grid;
      model.Resources = asked.Resources;
      model.Types = asked.Types;
      model.Values.resize(
        static_cast<std::size_t>(asked.Grid.Slices) * asked.Resources * asked.Types);
    }
    controller->Broadcast(model.Values.data(), static_cast<vtkIdType>(model.Values.size()), 0);
  }
  return lookup;
}

int vtkMacroscopeStreamedTimeSlicing::ReadTrace(
  const Request& request, macroscope::CacheLookup& lookup)
{
  vtkMultiProcessController* controller = this->GetController();
  const int ranks = controller ? controller->GetNumberOfProcesses() : 1;
  const int rank = controller ? controller->GetLocalProcessId() : 0;
  // One read feeds every model needed: the fine one to cache, and the
  // request itself unless it is rebuilt from the fine one.
  std::vector<macroscope::MicroscopicModel> models;
  int read = 0;
  const int ran = MacroscopeRunCore<macroscope::TimeSlicingAborted>(this,
    ("Slicing " + this->FileName + " failed").c_str(), nullptr,
    [&]
    {
      macroscope::ModelStream stream(request.Plan.PlaneOfType,
        macroscope::ModelsToRead(lookup.Source, request.Fine, request.Asked, this->Exact));
      vtkMacroscopeTraceReader* reader = this->Internal->Reader;
      reader->SetAbortExecute(0);
      read = reader->SliceWhileReading(stream, rank, ranks);
      if (read == 1)
      {
        this->LocationsRead = static_cast<int>(stream.LeavesStreamed());
        models = stream.Finish();
      }
    });
  int status = ran == 1 ? read : ran;
  // The reader agreed with the other pieces; the stream's own failure must
  // not leave them in the sums below.
  status = MacroscopeTraceInputs::AgreeOnStatus(status, controller, ranks > 1);
  if (status != 1)
  {
    return status;
  }
  ++this->NumberOfTraceReads;
  if (ranks > 1)
  {
    for (macroscope::MicroscopicModel& partial : models)
    {
      std::vector<double> sum(partial.Values.size());
      controller->AllReduce(partial.Values.data(), sum.data(), static_cast<vtkIdType>(sum.size()),
        vtkCommunicator::SUM_OP);
      partial.Values.swap(sum);
    }
  }
  if (lookup.Source == macroscope::ModelSource::ReadAndCache && rank == 0)
  {
    this->WriteCache(request, models.front());
  }
  lookup.Model = macroscope::RequestFromRead(
    lookup.Source, models, request.Asked, request.Extensive, this->Exact, lookup.DirtySlices);
  return 1;
}

void vtkMacroscopeStreamedTimeSlicing::WriteCache(
  const Request& request, const macroscope::MicroscopicModel& fine)
{
  try
  {
    if (!this->CacheDirectory.empty())
    {
      std::filesystem::create_directories(this->CacheDirectory);
    }
    macroscope::WriteModelCache(request.CacheFile, { request.Key, fine });
  }
  catch (const std::exception& error)
  {
    vtkWarningMacro("The model cache was not written: " << error.what());
  }
}
