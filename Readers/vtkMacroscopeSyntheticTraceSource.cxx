#include "vtkMacroscopeSyntheticTraceSource.h"

#include "MacroscopeSynthesizer.h"
#include "SynthExistingArchive.h"
#include "TraceSchema.h"

#include "vtkDataSetAttributes.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkIdTypeArray.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkIntArray.h"
#include "vtkMutableDirectedGraph.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkStreamingDemandDrivenPipeline.h"
#include "vtkStringArray.h"
#include "vtkTree.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

vtkStandardNewMacro(vtkMacroscopeSyntheticTraceSource);

namespace
{
namespace synth = macroscope::synth;

// Vertex arrays of the platform tree, filled vertex by vertex.
struct PlatformTreeBuilder
{
  vtkNew<vtkMutableDirectedGraph> Graph;
  vtkNew<vtkStringArray> Names;
  vtkNew<vtkStringArray> Kinds;
  vtkNew<vtkIdTypeArray> LeafIndexes;
  vtkNew<vtkIdTypeArray> Events;
  vtkNew<vtkIntArray> Perturbed;

  PlatformTreeBuilder()
  {
    this->Names->SetName(macroscope::schema::Name);
    this->Kinds->SetName(macroscope::schema::Kind);
    this->LeafIndexes->SetName(macroscope::schema::LeafIndex);
    this->Events->SetName("Events");
    this->Perturbed->SetName("Perturbed");
  }

  vtkIdType Add(vtkIdType parent, const std::string& name, const char* kind, bool perturbed,
    vtkIdType leafIndex = -1, vtkIdType events = 0)
  {
    const vtkIdType v = parent < 0 ? this->Graph->AddVertex() : this->Graph->AddChild(parent);
    this->Names->InsertNextValue(name);
    this->Kinds->InsertNextValue(kind);
    this->LeafIndexes->InsertNextValue(leafIndex);
    this->Events->InsertNextValue(events);
    this->Perturbed->InsertNextValue(perturbed ? 1 : 0);
    return v;
  }

  // Inner vertices carry the sum of the events of the leaves below them.
  void SumEventsUpwards()
  {
    for (vtkIdType v = this->Graph->GetNumberOfVertices() - 1; v > 0; --v)
    {
      const vtkIdType parent = this->Graph->GetInEdge(v, 0).Source;
      this->Events->SetValue(parent, this->Events->GetValue(parent) + this->Events->GetValue(v));
    }
  }

  bool MoveInto(vtkTree* tree)
  {
    vtkDataSetAttributes* data = this->Graph->GetVertexData();
    data->AddArray(this->Names);
    data->AddArray(this->Kinds);
    data->AddArray(this->LeafIndexes);
    data->AddArray(this->Events);
    data->AddArray(this->Perturbed);
    return tree->CheckedShallowCopy(this->Graph);
  }
};

bool contains(const std::vector<uint32_t>& sorted, uint32_t value)
{
  return std::binary_search(sorted.begin(), sorted.end(), value);
}
}

vtkMacroscopeSyntheticTraceSource::vtkMacroscopeSyntheticTraceSource()
{
  this->SetNumberOfInputPorts(0);
}

void vtkMacroscopeSyntheticTraceSource::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "OutputDirectory: " << this->OutputDirectory << "\n";
  os << indent << "Overwrite: " << this->Overwrite << "\n";
  os << indent << "WriteTopology: " << this->WriteTopology << "\n";
  os << indent << "Clusters: " << this->Clusters << "\n";
  os << indent << "NodesPerCluster: " << this->NodesPerCluster << "\n";
  os << indent << "RanksPerNode: " << this->RanksPerNode << "\n";
  os << indent << "ThreadsPerRank: " << this->ThreadsPerRank << "\n";
  os << indent << "Iterations: " << this->Iterations << "\n";
  os << indent << "Pattern: " << this->Pattern << "\n";
  os << indent << "Imbalance: " << this->Imbalance << "\n";
  os << indent << "ComputeTime: " << this->ComputeTime << "\n";
  os << indent << "MessageBytes: " << this->MessageBytes << "\n";
  os << indent << "Seed: " << this->Seed << "\n";
  os << indent << "Perturbation: " << this->Perturbation << "\n";
  os << indent << "PerturbationTarget: " << this->PerturbationTarget << "\n";
  os << indent << "PerturbationWindow: " << this->PerturbationWindow[0] << " "
     << this->PerturbationWindow[1] << "\n";
  os << indent << "PerturbationFactor: " << this->PerturbationFactor << "\n";
  os << indent << "ClockOffsets:";
  for (double offset : this->ClockOffsets)
  {
    os << " " << offset;
  }
  os << "\n";
}

void vtkMacroscopeSyntheticTraceSource::SetNumberOfClockOffsets(int count)
{
  const std::size_t size = static_cast<std::size_t>(std::max(0, count));
  if (size != this->ClockOffsets.size())
  {
    this->ClockOffsets.resize(size, 0.0);
    this->Modified();
  }
}

void vtkMacroscopeSyntheticTraceSource::SetClockOffset(int index, double seconds)
{
  if (index < 0)
  {
    return;
  }
  const auto i = static_cast<std::size_t>(index);
  if (i >= this->ClockOffsets.size())
  {
    this->ClockOffsets.resize(i + 1, 0.0);
  }
  else if (this->ClockOffsets[i] == seconds)
  {
    return;
  }
  this->ClockOffsets[i] = seconds;
  this->Modified();
}

void vtkMacroscopeSyntheticTraceSource::RemoveAllClockOffsets()
{
  this->SetNumberOfClockOffsets(0);
}

int vtkMacroscopeSyntheticTraceSource::GetNumberOfClockOffsets() const
{
  return static_cast<int>(this->ClockOffsets.size());
}

double vtkMacroscopeSyntheticTraceSource::GetClockOffset(int index) const
{
  return index >= 0 && static_cast<std::size_t>(index) < this->ClockOffsets.size()
    ? this->ClockOffsets[static_cast<std::size_t>(index)]
    : 0.0;
}

int vtkMacroscopeSyntheticTraceSource::RequestInformation(
  vtkInformation*, vtkInformationVector**, vtkInformationVector* outputVector)
{
  outputVector->GetInformationObject(0)->Set(CAN_HANDLE_PIECE_REQUEST(), 1);
  return 1;
}

int vtkMacroscopeSyntheticTraceSource::RequestData(
  vtkInformation*, vtkInformationVector**, vtkInformationVector* outputVector)
{
  // An abort stops the run it interrupts; VTK leaves the flag set, which
  // would abort every later run too (docs/progress.md).
  this->SetAbortExecute(0);
  vtkInformation* outInfo = outputVector->GetInformationObject(0);
  vtkTree* output = vtkTree::GetData(outInfo);
  if (outInfo->Has(vtkStreamingDemandDrivenPipeline::UPDATE_PIECE_NUMBER()) &&
    outInfo->Get(vtkStreamingDemandDrivenPipeline::UPDATE_PIECE_NUMBER()) > 0)
  {
    return 1; // piece 0 writes the one archive; the others stay empty
  }

  if (this->OutputDirectory.empty())
  {
    vtkErrorMacro("OutputDirectory is empty: choose the directory that receives traces.otf2.");
    return 0;
  }
  auto nonNegative = [this](int value, const char* name)
  {
    if (value < 0)
    {
      vtkErrorMacro(<< name << " must not be negative (got " << value << ").");
      return false;
    }
    return true;
  };
  if (!nonNegative(this->Clusters, "Clusters") ||
    !nonNegative(this->NodesPerCluster, "NodesPerCluster") ||
    !nonNegative(this->RanksPerNode, "RanksPerNode") ||
    !nonNegative(this->ThreadsPerRank, "ThreadsPerRank") ||
    !nonNegative(this->Iterations, "Iterations") ||
    !nonNegative(this->MessageBytes, "MessageBytes") ||
    !nonNegative(this->PerturbationTarget, "PerturbationTarget"))
  {
    return 0;
  }
  if (this->Pattern < RING || this->Pattern > ALLREDUCE || this->Perturbation < NO_PERTURBATION ||
    this->Perturbation > CONGESTED_CLUSTER)
  {
    vtkErrorMacro(
      "Unknown Pattern (" << this->Pattern << ") or Perturbation (" << this->Perturbation << ").");
    return 0;
  }

  synth::SynthConfig config;
  config.OutputDirectory = this->OutputDirectory;
  config.WriteDot = this->WriteTopology;
  config.Clusters = static_cast<uint32_t>(this->Clusters);
  config.NodesPerCluster = static_cast<uint32_t>(this->NodesPerCluster);
  config.RanksPerNode = static_cast<uint32_t>(this->RanksPerNode);
  config.ThreadsPerRank = static_cast<uint32_t>(this->ThreadsPerRank);
  config.Iterations = static_cast<uint64_t>(this->Iterations);
  const synth::Pattern patterns[] = { synth::Pattern::Ring, synth::Pattern::Stencil3D,
    synth::Pattern::Tree, synth::Pattern::Allreduce };
  config.CommunicationPattern = patterns[this->Pattern];
  config.Imbalance = this->Imbalance;
  config.ComputeTime = this->ComputeTime;
  config.MessageBytes = static_cast<uint64_t>(this->MessageBytes);
  config.Seed = static_cast<uint64_t>(static_cast<unsigned int>(this->Seed));
  const synth::PerturbationKind kinds[] = { synth::PerturbationKind::None,
    synth::PerturbationKind::SlowNode, synth::PerturbationKind::CongestedCluster };
  config.Perturbation.Kind = kinds[this->Perturbation];
  config.Perturbation.Target = static_cast<uint32_t>(this->PerturbationTarget);
  config.Perturbation.WindowBegin = this->PerturbationWindow[0];
  config.Perturbation.WindowEnd = this->PerturbationWindow[1] == 0.0
    ? std::numeric_limits<double>::infinity()
    : this->PerturbationWindow[1];
  config.Perturbation.Factor = this->PerturbationFactor;
  config.ClockOffsets = this->ClockOffsets;

  synth::SynthesisSummary summary;
  const int status = this->WriteOrReuse(config, summary);
  if (status != 1)
  {
    return status == 0 ? 0 : 1;
  }

  // The platform tree, in the Hierarchy schema of the trace readers.
  const synth::Platform platform(config);
  const auto& truth = summary.Truth;
  std::vector<uint32_t> affectedRanks = truth.AffectedRanks;
  std::sort(affectedRanks.begin(), affectedRanks.end());
  auto rankAffected = [&](uint32_t rank) { return contains(affectedRanks, rank); };
  auto allAffected = [&](const std::vector<uint32_t>& ranks)
  { return !ranks.empty() && std::all_of(ranks.begin(), ranks.end(), rankAffected); };

  PlatformTreeBuilder builder;
  const vtkIdType machine = builder.Add(-1, synth::Platform::MachineName(), "machine",
    !affectedRanks.empty() && affectedRanks.size() == platform.RankCount());
  vtkIdType leaf = 0;
  for (uint32_t c = 0; c < platform.ClusterCount(); ++c)
  {
    const vtkIdType cluster = builder.Add(
      machine, synth::Platform::ClusterName(c), "cluster", allAffected(platform.RanksOfCluster(c)));
    for (uint32_t n : platform.NodesOfCluster(c))
    {
      const vtkIdType node = builder.Add(
        cluster, synth::Platform::NodeName(n), "node", allAffected(platform.RanksOfNode(n)));
      for (uint32_t r : platform.RanksOfNode(n))
      {
        const vtkIdType rank =
          builder.Add(node, synth::Platform::RankName(r), "process", rankAffected(r));
        for (uint32_t t = 0; t < platform.GetThreadsPerRank(); ++t)
        {
          const auto& location = summary.Locations[platform.LocationIndex(r, t)];
          builder.Add(rank, location.Name, "thread", rankAffected(r), leaf++,
            static_cast<vtkIdType>(location.Events));
        }
      }
    }
  }
  builder.SumEventsUpwards();
  if (!builder.MoveInto(output))
  {
    vtkErrorMacro("Internal error: the platform graph is not a tree.");
    return 0;
  }

  // What was written, and when the perturbation acted.
  vtkNew<vtkStringArray> recordKinds;
  recordKinds->SetName("RecordKind");
  vtkNew<vtkIdTypeArray> recordCounts;
  recordCounts->SetName("RecordCount");
  for (std::size_t k = 0; k < synth::EventKindCount; ++k)
  {
    recordKinds->InsertNextValue(synth::ToString(static_cast<synth::EventKind>(k)));
    recordCounts->InsertNextValue(static_cast<vtkIdType>(summary.Events[k]));
  }
  vtkNew<vtkDoubleArray> length;
  length->SetName("TraceLength");
  length->InsertNextValue(summary.TraceLengthSeconds);
  vtkNew<vtkDoubleArray> window;
  window->SetName("PerturbationWindow");
  window->SetNumberOfComponents(2);
  window->InsertNextTuple2(truth.WindowBegin, truth.WindowEnd);
  vtkFieldData* fields = output->GetFieldData();
  fields->AddArray(recordKinds);
  fields->AddArray(recordCounts);
  fields->AddArray(length);
  fields->AddArray(window);
  return 1;
}

int vtkMacroscopeSyntheticTraceSource::WriteOrReuse(
  synth::SynthConfig& config, synth::SynthesisSummary& summary)
{
  synth::ArchiveInspection existing;
  try
  {
    existing = synth::InspectOutputDirectory(config);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro(
      "Invalid synthetic trace (option names as in macroscope-synth): " << error.what());
    return 0;
  }
  switch (existing.State)
  {
    case synth::ExistingArchive::SameConfiguration:
      // Running again with the parameters the archive was written with (a
      // state loaded, a pipeline re-executed): read what it holds, write
      // nothing.
      try
      {
        summary = synth::ReadRecordedSummary(config);
        synth::WriteMissingDotFiles(config, summary); // WriteTopology turned on since
        return 1;
      }
      catch (const std::exception& error)
      {
        vtkErrorMacro(
          "Cannot reuse the synthetic trace in " << this->OutputDirectory << ": " << error.what());
        return 0;
      }
    case synth::ExistingArchive::Foreign:
      vtkErrorMacro(<< this->OutputDirectory << " already holds an OTF2 archive that this source "
                    << "did not write (" << existing.Difference
                    << "); it is never replaced: choose another OutputDirectory.");
      return 0;
    case synth::ExistingArchive::OtherConfiguration:
      if (!this->Overwrite)
      {
        vtkErrorMacro(<< this->OutputDirectory << " holds a synthetic trace written with other "
                      << "parameters (" << existing.Difference << "); turn Overwrite on to "
                      << "replace it, or choose another OutputDirectory.");
        return 0;
      }
      config.Overwrite = true;
      break;
    case synth::ExistingArchive::None:
      break;
  }
  return this->Synthesize(config, summary);
}

int vtkMacroscopeSyntheticTraceSource::Synthesize(
  const synth::SynthConfig& config, synth::SynthesisSummary& summary)
{
  try
  {
    summary = synth::Synthesize(config,
      [this](double fraction)
      {
        this->UpdateProgress(fraction);
        return !this->GetAbortExecute();
      });
  }
  catch (const synth::SynthesisAborted&)
  {
    vtkWarningMacro("Synthesis of " << this->OutputDirectory << " aborted; nothing was kept.");
    return -1;
  }
  catch (const synth::ConfigError& error)
  {
    vtkErrorMacro(
      "Invalid synthetic trace (option names as in macroscope-synth): " << error.what());
    return 0;
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro(
      "Cannot write the synthetic trace in " << this->OutputDirectory << ": " << error.what());
    return 0;
  }
  return 1;
}
