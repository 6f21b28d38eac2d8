#include "vtkMacroscopeStreamedTimeSlicing.h"

#include "MacroscopeModelPlan.h"
#include "MacroscopeTraceColumns.h"
#include "ModelCache.h"
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

// Where the model of one request comes from; rank 0 decides for all.
enum Plan : int
{
  FromCache = 0,     // rebuilt from a valid cache
  ReadAndCache = 1,  // no valid cache: read, save the fine model, rebuild from it
  ReadExact = 2,     // Exact, and the cache would share cut slices: read the request
  ReadUncached = 3   // no cache wanted, or a window beyond the cached one
};

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
    [](vtkObject* caller, unsigned long event, void* clientData, void* callData) {
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
    vtkErrorMacro("Cannot read the trace " << this->FileName << ": " << error.what()
                                            << vtkMacroscopeTraceReader::MissingFileHint(
                                                 this->FileName, "FileName"));
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
    for (unsigned long event : { vtkCommand::ErrorEvent, vtkCommand::WarningEvent,
           vtkCommand::ProgressEvent })
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
  vtkMacroscopeTraceReader* reader = internal.Reader;
  if (!reader || !internal.Hierarchy || !internal.Types)
  {
    return 0; // ReadDefinitions reported why
  }
  const int metric = this->GetMetric();
  if (metric < STATE_DURATION || metric > MESSAGES_RECEIVED)
  {
    vtkErrorMacro("Unknown Metric " << metric << ".");
    return 0;
  }
  if (this->GetSlices() < 1 || this->CacheSlices < 1)
  {
    vtkErrorMacro("Slices and CacheSlices must be at least 1 (got " << this->GetSlices() << " and "
                                                                   << this->CacheSlices << ").");
    return 0;
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
  MacroscopeModelPlan plan;
  MacroscopeModelPlan selected;
  std::string problem;
  if (!plan.Build(internal.Hierarchy, internal.Types, metric, this->GetResourceLevel(), subset,
        problem) ||
    !(selected = plan).KeepTypes(internal.Types, types, problem))
  {
    vtkErrorMacro(<< problem << ".");
    return 0;
  }
  double begin = 0.0;
  double end = 0.0;
  if (!this->ResolveWindow(this->TimeBounds, begin, end))
  {
    return 0;
  }

  // The request, and the fine model of every leaf the cache keeps.
  const auto sliceMetric = static_cast<macroscope::SliceMetric>(metric);
  macroscope::TimeSlicingOptions asked;
  asked.Grid = { begin, end, this->GetSlices() };
  asked.Metric = sliceMetric;
  asked.Normalize = this->GetNormalize();
  asked.Depth = this->GetDepth();
  asked.Leaves = static_cast<uint32_t>(plan.Resources.ResourceOfLeaf.size());
  asked.ResourceOfLeaf = plan.Resources.ResourceOfLeaf;
  asked.Resources = plan.Resources.Resources;
  asked.Types = MacroscopeModelPlan::PlaneKind(metric) ? static_cast<uint32_t>(plan.Planes()) : 1;
  macroscope::TimeSlicingOptions fine = asked;
  fine.Grid = { 0.0, this->TimeBounds[1], this->CacheSlices };
  fine.ResourceOfLeaf.clear(); // resource = leaf
  fine.Resources = fine.Leaves;
  const bool extensive = macroscope::IsExtensiveMetric(sliceMetric, asked.Normalize);

  vtkMultiProcessController* controller = this->GetController();
  const int ranks = controller ? controller->GetNumberOfProcesses() : 1;
  const int rank = controller ? controller->GetLocalProcessId() : 0;

  // A model too large for memory is refused before any read. The ranks'
  // memory may differ: they agree, so that all stop or go on together.
  std::vector<const macroscope::TimeSlicingOptions*> built{ &asked };
  if (this->UseModelCache)
  {
    built.push_back(&fine);
  }
  int fits = this->CheckModelMemory(built) ? 1 : 0;
  if (ranks > 1)
  {
    int all = fits;
    controller->AllReduce(&fits, &all, 1, vtkCommunicator::MIN_OP);
    fits = all;
  }
  if (!fits)
  {
    return 0;
  }

  // Rank 0 looks at the cache and decides for every rank.
  int decision = this->UseModelCache ? ReadAndCache : ReadUncached;
  int dirty = 0;
  macroscope::MicroscopicModel model;
  macroscope::ModelCacheKey key;
  std::string cacheFile;
  if (this->UseModelCache)
  {
    key.Trace = internal.Trace;
    key.Trace.Digest =
      macroscope::ContentDigest(DefinitionsText(internal.Hierarchy, internal.Types, plan));
    key.Metric = sliceMetric;
    key.Normalize = asked.Normalize;
    key.Depth = asked.Depth;
    key.Resources = fine.Leaves;
    key.Types = fine.Types;
    cacheFile = macroscope::ModelCachePath(
      this->FileName, this->CacheDirectory, sliceMetric, asked.Normalize, asked.Depth);
  }
  if (this->UseModelCache && rank == 0)
  {
    try
    {
      const macroscope::CachedModel cached = macroscope::LoadModelCache(cacheFile, key);
      try
      {
        macroscope::RebinResult rebinned = macroscope::RebinModel(cached.Model, asked.Grid, extensive);
        dirty = static_cast<int>(rebinned.DirtySlices.size());
        if (this->Exact && dirty > 0)
        {
          decision = ReadExact;
        }
        else
        {
          model = macroscope::GroupResources(rebinned.Model, asked.ResourceOfLeaf, asked.Resources);
          decision = FromCache;
        }
      }
      catch (const std::invalid_argument&)
      {
        decision = ReadUncached; // a window the cache does not cover
      }
    }
    catch (const macroscope::ModelCacheError& error)
    {
      // A missing cache is the first read; any other refusal is worth a word.
      if (error.Why() != macroscope::ModelCacheError::Reason::Unreadable ||
        std::filesystem::exists(cacheFile))
      {
        vtkWarningMacro(<< error.what() << "; reading the trace and rewriting the cache.");
      }
    }
  }
  if (ranks > 1)
  {
    int shared[2] = { decision, dirty };
    controller->Broadcast(shared, 2, 0);
    decision = shared[0];
    dirty = shared[1];
  }

  int status = 1;
  if (decision == FromCache)
  {
    if (ranks > 1)
    {
      if (rank != 0)
      {
        model.Grid = asked.Grid;
        model.Resources = asked.Resources;
        model.Types = asked.Types;
        model.Values.resize(static_cast<std::size_t>(asked.Grid.Slices) * asked.Resources * asked.Types);
      }
      controller->Broadcast(model.Values.data(), static_cast<vtkIdType>(model.Values.size()), 0);
    }
  }
  else
  {
    // One read feeds every model needed: the fine one to cache, and the
    // request itself unless it is rebuilt from the fine one.
    std::vector<macroscope::TimeSlicingOptions> wanted;
    if (decision == ReadAndCache)
    {
      wanted.push_back(fine);
    }
    if (decision != ReadAndCache || this->Exact)
    {
      wanted.push_back(asked);
    }
    std::vector<macroscope::MicroscopicModel> models;
    try
    {
      macroscope::ModelStream stream(plan.PlaneOfType, wanted);
      reader->SetAbortExecute(0);
      status = reader->SliceWhileReading(stream, rank, ranks);
      if (status == 1)
      {
        this->LocationsRead = static_cast<int>(stream.LeavesStreamed());
        models = stream.Finish();
      }
    }
    catch (const std::exception& error)
    {
      vtkErrorMacro("Slicing " << this->FileName << " failed: " << error.what());
      status = 0;
    }
    if (ranks > 1)
    {
      // The reader agreed with the other pieces; the stream's own failure
      // must not leave them in the sums below.
      int worst = status;
      controller->AllReduce(&status, &worst, 1, vtkCommunicator::MIN_OP);
      status = worst;
    }
    if (status == -1)
    {
      return this->AbortOutputs(outputVector, "Slicing " + this->FileName + " was aborted.");
    }
    if (status != 1)
    {
      return 0;
    }
    ++this->NumberOfTraceReads;
    if (ranks > 1)
    {
      for (macroscope::MicroscopicModel& partial : models)
      {
        std::vector<double> sum(partial.Values.size());
        controller->AllReduce(partial.Values.data(), sum.data(),
          static_cast<vtkIdType>(sum.size()), vtkCommunicator::SUM_OP);
        partial.Values.swap(sum);
      }
    }
    if (decision == ReadAndCache)
    {
      if (rank == 0)
      {
        try
        {
          if (!this->CacheDirectory.empty())
          {
            std::filesystem::create_directories(this->CacheDirectory);
          }
          macroscope::WriteModelCache(cacheFile, { key, models.front() });
        }
        catch (const std::exception& error)
        {
          vtkWarningMacro("The model cache was not written: " << error.what());
        }
      }
      if (this->Exact)
      {
        model = std::move(models.back());
      }
      else
      {
        macroscope::RebinResult rebinned = macroscope::RebinModel(models.front(), asked.Grid, extensive);
        dirty = static_cast<int>(rebinned.DirtySlices.size());
        model = macroscope::GroupResources(rebinned.Model, asked.ResourceOfLeaf, asked.Resources);
      }
    }
    else
    {
      model = std::move(models.back());
    }
  }

  const bool rebuilt = decision == FromCache || (decision == ReadAndCache && !this->Exact);
  this->ModelOrigin = decision == FromCache ? "cache" : rebuilt ? "new cache" : "trace";
  this->DirtySlices = rebuilt ? dirty : 0;
  this->CacheFile = cacheFile;

  KeepPlanes(model, plan, selected);
  this->KeepModel(model, selected, internal.Hierarchy, internal.Types, begin, end);
  // How many cached slices were shared is part of the result (it depends on
  // the grids only); where the model came from is history, and stays out.
  vtkNew<vtkIntArray> shared;
  shared->SetName("DirtySlices");
  shared->InsertNextValue(this->DirtySlices);
  this->GetModelFields()->AddArray(shared);
  return this->WriteOutputs(outputVector);
}
