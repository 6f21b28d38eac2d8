/**
 * @class vtkMacroscopeSyntheticTraceSource
 * @brief Writes a synthetic Score-P-like OTF2 trace and outputs its platform.
 *
 * Runs Macroscope's trace synthesizer (the library behind macroscope-synth)
 * from ParaView: a simulated MPI+threads run on machine → clusters → nodes →
 * ranks → threads, with an optional injected perturbation (a slow node or a
 * congested cluster during a time window), is written to
 * OutputDirectory/traces.otf2 with ground_truth.json and summary.json beside
 * it (and, with WriteTopology, topology.dot and network.dot). Open the
 * archive with a Macroscope trace reader to analyse it.
 *
 * The output is the platform as a vtkTree in the Hierarchy schema of the
 * trace readers (Name, Kind, LeafIndex), plus the ground truth and what was
 * written: "Perturbed" (1 on the resources the perturbation affects) and
 * "Events" (events written on each location, summed over inner vertices).
 * Field data hold the record counts per OTF2 record kind ("RecordKind",
 * "RecordCount"), "TraceLength" and "PerturbationWindow" (seconds).
 *
 * Only piece 0 writes and outputs the trace; other pieces are empty, so the
 * source runs once under MPI.
 *
 * Running again never rewrites what is already there: when OutputDirectory
 * holds an archive this synthesizer wrote with the same parameters (its
 * summary.json says so), the source reads that archive's summary and writes
 * nothing — which is what loading a state or re-executing a pipeline does.
 * An archive written with other parameters is replaced only with Overwrite
 * on; an archive the synthesizer did not write is never replaced.
 */
#ifndef vtkMacroscopeSyntheticTraceSource_h
#define vtkMacroscopeSyntheticTraceSource_h

#include "MacroscopeReadersModule.h" // for export macro
#include "vtkTreeAlgorithm.h"

#include <string>
#include <vector> // for std::vector

#ifndef __VTK_WRAP__
namespace macroscope::synth
{
struct SynthConfig;
struct SynthesisSummary;
}
#endif

class MACROSCOPEREADERS_EXPORT vtkMacroscopeSyntheticTraceSource : public vtkTreeAlgorithm
{
public:
  static vtkMacroscopeSyntheticTraceSource* New();
  vtkTypeMacro(vtkMacroscopeSyntheticTraceSource, vtkTreeAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum PatternType
  {
    RING = 0,
    STENCIL_3D = 1,
    BINARY_TREE = 2,
    ALLREDUCE = 3
  };

  enum PerturbationType
  {
    NO_PERTURBATION = 0,
    SLOW_NODE = 1,
    CONGESTED_CLUSTER = 2
  };

  ///@{
  /// Directory that receives traces.otf2 and its side files.
  vtkSetStdStringFromCharMacro(OutputDirectory);
  vtkGetCharFromStdStringMacro(OutputDirectory);
  ///@}

  ///@{
  /// Replace a synthetic archive written with other parameters in
  /// OutputDirectory (default off: the source then refuses, naming the first
  /// parameter that differs). An archive with the same parameters is reused
  /// and one the synthesizer did not write is never replaced, whatever this
  /// says.
  vtkSetMacro(Overwrite, bool);
  vtkGetMacro(Overwrite, bool);
  vtkBooleanMacro(Overwrite, bool);
  ///@}

  ///@{
  /// Also write topology.dot (the hierarchy) and network.dot (the
  /// interconnect, a base of the 3D topology scene), like macroscope-synth
  /// --dot. Off by default.
  vtkSetMacro(WriteTopology, bool);
  vtkGetMacro(WriteTopology, bool);
  vtkBooleanMacro(WriteTopology, bool);
  ///@}

  ///@{
  /// Shape of the machine: clusters, nodes per cluster, MPI ranks per node,
  /// threads per rank (thread 0 is the rank's MPI master).
  vtkSetMacro(Clusters, int);
  vtkGetMacro(Clusters, int);
  vtkSetMacro(NodesPerCluster, int);
  vtkGetMacro(NodesPerCluster, int);
  vtkSetMacro(RanksPerNode, int);
  vtkGetMacro(RanksPerNode, int);
  vtkSetMacro(ThreadsPerRank, int);
  vtkGetMacro(ThreadsPerRank, int);
  ///@}

  ///@{
  /// The application: iterations of compute then communication.
  vtkSetMacro(Iterations, int);
  vtkGetMacro(Iterations, int);
  vtkSetMacro(Pattern, int);
  vtkGetMacro(Pattern, int);
  vtkSetMacro(Imbalance, double);
  vtkGetMacro(Imbalance, double);
  vtkSetMacro(ComputeTime, double);
  vtkGetMacro(ComputeTime, double);
  vtkSetMacro(MessageBytes, int);
  vtkGetMacro(MessageBytes, int);
  vtkSetMacro(Seed, int);
  vtkGetMacro(Seed, int);
  ///@}

  ///@{
  /// The injected perturbation: its kind, its target (node index for a slow
  /// node, cluster index for a congested cluster), its window in seconds
  /// since the trace start (an end of 0 means until the end of the run) and
  /// its slow-down factor.
  vtkSetMacro(Perturbation, int);
  vtkGetMacro(Perturbation, int);
  vtkSetMacro(PerturbationTarget, int);
  vtkGetMacro(PerturbationTarget, int);
  vtkSetVector2Macro(PerturbationWindow, double);
  vtkGetVector2Macro(PerturbationWindow, double);
  vtkSetMacro(PerturbationFactor, double);
  vtkGetMacro(PerturbationFactor, double);
  ///@}

  ///@{
  /**
   * Unsynchronised clocks (macroscope-synth --clock-offsets): seconds added
   * to the archive's timestamps of rank 0, 1, ... (ranks beyond the list:
   * 0). Empty (the default): synchronised clocks.
   */
  void SetNumberOfClockOffsets(int count);
  void SetClockOffset(int index, double seconds);
  void RemoveAllClockOffsets();
  int GetNumberOfClockOffsets() const;
  double GetClockOffset(int index) const;
  ///@}

protected:
  vtkMacroscopeSyntheticTraceSource();
  ~vtkMacroscopeSyntheticTraceSource() override = default;

  int RequestInformation(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

private:
  vtkMacroscopeSyntheticTraceSource(const vtkMacroscopeSyntheticTraceSource&) = delete;
  void operator=(const vtkMacroscopeSyntheticTraceSource&) = delete;

#ifndef __VTK_WRAP__
  /// Fills `summary` from the archive already written with `config`, or
  /// writes one where allowed: 1 done, 0 error (reported), -1 aborted.
  int WriteOrReuse(
    macroscope::synth::SynthConfig& config, macroscope::synth::SynthesisSummary& summary);
  /// Runs the synthesizer with progress and abort; same return values.
  int Synthesize(
    const macroscope::synth::SynthConfig& config, macroscope::synth::SynthesisSummary& summary);
#endif

  std::string OutputDirectory;
  bool Overwrite = false;
  bool WriteTopology = false;
  int Clusters = 2;
  int NodesPerCluster = 2;
  int RanksPerNode = 4;
  int ThreadsPerRank = 2;
  int Iterations = 50;
  int Pattern = STENCIL_3D;
  double Imbalance = 0.2;
  double ComputeTime = 1.0e-3;
  int MessageBytes = 64 * 1024;
  int Seed = 42;
  int Perturbation = NO_PERTURBATION;
  int PerturbationTarget = 0;
  double PerturbationWindow[2] = { 0.0, 0.0 };
  double PerturbationFactor = 3.0;
  std::vector<double> ClockOffsets;
};

#endif
