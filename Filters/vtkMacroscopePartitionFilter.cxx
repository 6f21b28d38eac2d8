#include "vtkMacroscopePartitionFilter.h"

#include "Aggregation.h"
#include "PartSummary.h"

#include "MacroscopeCoreRun.h"
#include "MacroscopeModelInput.h"
#include "MacroscopeQualityTables.h"
#include "MacroscopeTraceColumns.h"

#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkExecutive.h"
#include "vtkFieldData.h"
#include "vtkImageData.h"
#include "vtkInformation.h"
#include "vtkInformationExecutivePortVectorKey.h"
#include "vtkInformationVector.h"
#include "vtkIntArray.h"
#include "vtkNew.h"
#include "vtkPointData.h"
#include "vtkStreamingDemandDrivenPipeline.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkTimeStamp.h"
#include "vtkTypeInt64Array.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>

struct vtkMacroscopePartitionFilter::Internals
{
  // The model and its qualities, kept while the input does not change.
  std::vector<double> Values;
  macroscope::ModelView Model;
  std::unique_ptr<macroscope::AggregationHierarchy> Hierarchy;
  std::unique_ptr<macroscope::Aggregation> Aggregation;
  vtkMTimeType ModelTime = 0;
  vtkDataObject* ModelObject = nullptr;
  std::map<bool, macroscope::PartitionSweep> Sweeps; // per normalisation
  // Whether the last execution left outputs 1 and 2 not generated; then
  // their requests are dated CurvesAsked, taken at the first request after
  // that execution (see CurvesTime).
  bool CurvesPending = false;
  bool CurvesAskedAfterExecution = false;
  vtkTimeStamp CurvesAsked;

  void SetCurvesPending(bool pending)
  {
    this->CurvesPending = pending;
    this->CurvesAskedAfterExecution = false;
  }
  // The last partition, by (p, normalisation): a request for the curves
  // after one for the partition re-runs the filter without its DP.
  std::unique_ptr<macroscope::Partition> Best;
  double BestParameter = -1.0;
  bool BestNormalized = true;
  // How many times qualities and sweeps were computed: lets a test or a
  // benchmark see that changing p reused them, and that asking for the
  // partition only did not sweep.
  int QualityComputations = 0;
  int SweepComputations = 0;
  int PartitionComputations = 0; // DP runs for output 0 (the sweep's apart)
  double PartitionSeconds = 0.0; // the last of those DPs, for the panel's estimate
  // The known sweep's curves as arrays, which the information-only
  // properties return (refilled at each read from Sweeps, never swept).
  vtkNew<vtkDoubleArray> CurveStarts, CurveGains, CurveLosses, CurveParts;
  // The progress last reported in this execution (reports are thinned to
  // steps of ProgressStep).
  double LastProgress = 0.0;
  // An abort holds until the filter or its model changes: within the same
  // update the executive runs the filter again for each output port not yet
  // generated (the curves), which would undo it (docs/progress.md).
  bool Aborted = false;
  vtkMTimeType AbortedFilterTime = 0;
  vtkMTimeType AbortedModelTime = 0;

  /// The sweep of this normalisation, if one was computed for the model.
  const macroscope::PartitionSweep* KnownSweep(bool normalized) const
  {
    auto sweep = this->Sweeps.find(normalized);
    return sweep == this->Sweeps.end() ? nullptr : &sweep->second;
  }

  /// Refills `values` with one value per partition of the known sweep (none
  /// without one).
  template <typename Value>
  vtkDoubleArray* FillCurve(vtkDoubleArray* values, bool normalized, Value value) const
  {
    values->SetNumberOfTuples(0);
    if (const macroscope::PartitionSweep* sweep = this->KnownSweep(normalized))
    {
      for (std::size_t k = 0; k < sweep->Partitions.size(); ++k)
      {
        values->InsertNextValue(static_cast<double>(value(*sweep, k)));
      }
    }
    return values;
  }

  /// The partition optimal at p when a sweep of this normalisation holds it
  /// (p strictly inside one of its intervals: at a breakpoint the DP's tie
  /// rule decides), so that moving p after the curves were shown costs no DP.
  const macroscope::Partition* KnownBest(double p, bool normalized) const
  {
    auto sweep = this->Sweeps.find(normalized);
    if (sweep == this->Sweeps.end())
    {
      return nullptr;
    }
    const macroscope::PartitionSweep& known = sweep->second;
    for (std::size_t k = 0; k < known.Partitions.size(); ++k)
    {
      const double end = k + 1 < known.Partitions.size() ? known.PStart(k + 1) : 1.0;
      if (known.PStart(k) < p && p < end)
      {
        return &known.Partitions[k];
      }
    }
    return nullptr;
  }

  // Which normalisations were swept for which model, kept alike on every
  // rank (the later pieces compute nothing but record the same).
  std::set<bool> SweptFor;
  vtkDataObject* SweptModel = nullptr;
  vtkMTimeType SweptModelTime = 0;

  bool Swept(vtkDataObject* model, bool normalized) const
  {
    return model && model == this->SweptModel && model->GetMTime() == this->SweptModelTime &&
      this->SweptFor.count(normalized) != 0;
  }

  void RecordSweep(vtkDataObject* model, bool normalized)
  {
    if (!model)
    {
      return;
    }
    if (model != this->SweptModel || model->GetMTime() != this->SweptModelTime)
    {
      this->SweptFor.clear();
      this->SweptModel = model;
      this->SweptModelTime = model->GetMTime();
    }
    this->SweptFor.insert(normalized);
  }

  bool HasQualitiesOf(vtkDataObject* model) const
  {
    return this->Aggregation && model && this->ModelObject == model &&
      this->ModelTime == model->GetMTime();
  }
};

namespace
{
// The "Difference" point array of a difference model, one value per cell
// of Value; empty for any other model.
std::vector<double> SignedDifferences(vtkImageData* model, vtkIdType cells)
{
  auto* differences =
    vtkDataArray::SafeDownCast(model->GetPointData()->GetAbstractArray("Difference"));
  std::vector<double> result;
  if (differences && differences->GetNumberOfTuples() == cells &&
    differences->GetNumberOfComponents() == 1)
  {
    result.resize(static_cast<std::size_t>(cells));
    for (vtkIdType i = 0; i < cells; ++i)
    {
      result[static_cast<std::size_t>(i)] = differences->GetComponent(i, 0);
    }
  }
  return result;
}

constexpr double ProgressStep = 0.005;

/// The output port whose request runs this execution; -1: all of them.
int RequestedPort(vtkInformation* request)
{
  return request->Has(vtkExecutive::FROM_OUTPUT_PORT())
    ? request->Get(vtkExecutive::FROM_OUTPUT_PORT())
    : -1;
}

/// ParaView puts a vtkPVPostFilter (a pass-through that converts arrays on
/// demand) after every output port of a proxy, and its UpdatePipeline of a
/// proxy updates every one of them, consumed or not. Recognised by class
/// name so that this module needs no ParaView library.
bool IsPassThroughPostFilter(vtkAlgorithm* algorithm)
{
  return algorithm && algorithm->IsA("vtkPVPostFilter");
}

/// How many consumers of `output` (an output port's information) are alive.
/// VTK keeps a consumer listed in CONSUMERS() after it was deleted without
/// being disconnected (ParaView deletes a Fetch's reduction filter so): its
/// entry then dangles and must not be followed. Every live consumer holds a
/// reference to this information object (it is its input information), and
/// the producer's output vector one more.
int LiveConsumers(vtkInformation* output)
{
  return output ? std::max(0, output->GetReferenceCount() - 1) : 0;
}

/// Whether the data of `output` goes somewhere: a consumer that is not a
/// post filter (a representation, a Fetch's reduction filter, a downstream
/// filter), found through any chain of post filters. When some listed
/// consumers dangle, the live ones cannot be told apart: the answer is then
/// yes as soon as one lives (beyond ParaView's post filter, only real
/// consumers are connected, so this errs only after a program deleted a
/// consumer of this filter itself, by sweeping once too many).
bool ConsumedBeyondPostFilters(vtkInformation* output)
{
  vtkInformationExecutivePortVectorKey* key = vtkExecutive::CONSUMERS();
  const int listed = output ? key->Length(output) : 0;
  const int live = std::min(listed, LiveConsumers(output));
  if (live == 0)
  {
    return false;
  }
  if (live < listed)
  {
    return true;
  }
  vtkExecutive** consumers = key->GetExecutives(output);
  for (int c = 0; c < listed; ++c)
  {
    vtkAlgorithm* algorithm = consumers[c] ? consumers[c]->GetAlgorithm() : nullptr;
    if (!IsPassThroughPostFilter(algorithm))
    {
      return true;
    }
    for (int port = 0; port < algorithm->GetNumberOfOutputPorts(); ++port)
    {
      if (ConsumedBeyondPostFilters(consumers[c]->GetOutputInformation(port)))
      {
        return true;
      }
    }
  }
  return false;
}

/// Whether nothing at all is connected to `output`: its request then comes
/// from a program updating this very port (vtkAlgorithm::Update(port)),
/// which wants its data.
bool Unconnected(vtkInformation* output)
{
  return LiveConsumers(output) == 0 || (output && vtkExecutive::CONSUMERS()->Length(output) == 0);
}
}

vtkMacroscopePartitionFilter::vtkMacroscopePartitionFilter()
  : Internal(new Internals)
{
  this->SetNumberOfInputPorts(1);
  this->SetNumberOfOutputPorts(3);
}

vtkMacroscopePartitionFilter::~vtkMacroscopePartitionFilter() = default;

void vtkMacroscopePartitionFilter::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Parameter: " << this->Parameter << "\n";
  os << indent << "NormalizeQualities: " << this->NormalizeQualities << "\n";
}

int vtkMacroscopePartitionFilter::FillInputPortInformation(int, vtkInformation* info)
{
  info->Set(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkImageData");
  return 1;
}

int vtkMacroscopePartitionFilter::RequestUpdateExtent(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector*)
{
  MacroscopeModelInput::RequestWholeModel(inputVector);
  return 1;
}

bool vtkMacroscopePartitionFilter::CurvesConsumed(vtkInformationVector* outputVector)
{
  for (int curves : { 1, 2 })
  {
    if (ConsumedBeyondPostFilters(outputVector->GetInformationObject(curves)))
    {
      return true;
    }
  }
  return false;
}

bool vtkMacroscopePartitionFilter::CurvesWanted(vtkInformation* request,
  vtkInformationVector** inputVector, vtkInformationVector* outputVector) const
{
  // The sweep runs when the curves have a consumer (a representation, a
  // Fetch, a downstream filter) or when a program updates output 1 or 2
  // itself or every output at once. ParaView's UpdatePipeline of a proxy
  // (Apply in the GUI, pvpython's UpdatePipeline) updates every output
  // through its post filters: that alone does not sweep. Otherwise the
  // curves are given if already known for this model and normalisation,
  // else left for later (not generated, so that a later consumer's request
  // runs the filter again).
  const int port = RequestedPort(request);
  if (port < 0 ||
    (port > 0 &&
      (Unconnected(outputVector->GetInformationObject(port)) || CurvesConsumed(outputVector))))
  {
    return true;
  }
  return this->Internal->Swept(vtkImageData::GetData(inputVector[0]), this->NormalizeQualities);
}

vtkTypeBool vtkMacroscopePartitionFilter::ProcessRequest(
  vtkInformation* request, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  // Before RequestData, the executive asks which outputs this execution
  // will not generate: those keep their former update time, so that a later
  // request of that port runs the filter again (vtkDemandDrivenPipeline).
  if (request->Has(vtkDemandDrivenPipeline::REQUEST_DATA_NOT_GENERATED()))
  {
    if (!this->CurvesWanted(request, inputVector, outputVector))
    {
      for (int curves : { 1, 2 })
      {
        outputVector->GetInformationObject(curves)->Set(
          vtkDemandDrivenPipeline::DATA_NOT_GENERATED(), 1);
      }
    }
    return 1;
  }
  return this->Superclass::ProcessRequest(request, inputVector, outputVector);
}

int vtkMacroscopePartitionFilter::ComputePipelineMTime(vtkInformation* request,
  vtkInformationVector** inputVector, vtkInformationVector* outputVector, int port,
  vtkMTimeType* mtime)
{
  const int result =
    this->Superclass::ComputePipelineMTime(request, inputVector, outputVector, port, mtime);
  if (port > 0)
  {
    *mtime = std::max(*mtime, this->CurvesTime(outputVector, port));
  }
  return result;
}

vtkMTimeType vtkMacroscopePartitionFilter::CurvesTime(vtkInformationVector* outputVector, int port)
{
  // Outputs 1 and 2 are not always generated with output 0, so that a
  // consumer up to date by the usual rule (nothing upstream modified since
  // it ran) may hold an empty or older copy: ParaView's post filter, run by
  // an UpdatePipeline while the curves were left out. The curves are dated
  // so that it asks again: while not generated, the time of the first
  // request after the execution that left them out (later than any consumer
  // that ran since: each request then runs this filter again, as
  // DATA_NOT_GENERATED means); once generated, the time they were (an
  // execution for another port may have generated them after the consumer
  // ran). The date stays put between executions: an update asks it several
  // times (UpdateInformation, then Update), and a newer date each time would
  // run REQUEST_INFORMATION again in between, which resets the piece the
  // consumer asked for (rank 1 would then compute piece 0).
  Internals& internal = *this->Internal;
  if (internal.CurvesPending)
  {
    if (!internal.CurvesAskedAfterExecution)
    {
      internal.CurvesAsked.Modified();
      internal.CurvesAskedAfterExecution = true;
    }
    return internal.CurvesAsked.GetMTime();
  }
  vtkDataObject* curves =
    outputVector->GetInformationObject(port)->Get(vtkDataObject::DATA_OBJECT());
  return curves ? curves->GetMTime() : 0;
}

AggregationProgressHook vtkMacroscopePartitionFilter::ProgressBetween(double from, double to)
{
  return [this, from, to](double fraction)
  {
    const double value = from + (to - from) * fraction;
    if (value >= this->Internal->LastProgress + ProgressStep)
    {
      this->Internal->LastProgress = value;
      this->UpdateProgress(value);
    }
    return !this->GetAbortExecute();
  };
}

int vtkMacroscopePartitionFilter::RequestData(
  vtkInformation* request, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  // The piece asked is that of the requesting port: a request of the
  // curves may follow a REQUEST_INFORMATION, which resets the update
  // requests of every output, the Partition's included.
  vtkInformation* outInfo = outputVector->GetInformationObject(std::max(0, RequestedPort(request)));
  if (MacroscopeModelInput::IsLaterPiece(outInfo))
  {
    // Piece 0 holds the tables; the other ranks keep the same record of
    // what was swept, so that every rank skips and re-runs the same
    // executions (a rank running alone would call the upstream filters'
    // collectives alone).
    const bool curves = this->CurvesWanted(request, inputVector, outputVector);
    if (curves)
    {
      this->Internal->RecordSweep(vtkImageData::GetData(inputVector[0]), this->NormalizeQualities);
    }
    this->Internal->SetCurvesPending(!curves);
    vtkTable::GetData(outputVector, 1)->Initialize();
    vtkTable::GetData(outputVector, 2)->Initialize();
    return 1;
  }
  // Until the curves are output below, a request of theirs runs this again.
  this->Internal->SetCurvesPending(true);
  if (!(this->Parameter >= 0.0 && this->Parameter <= 1.0))
  {
    vtkErrorMacro("Parameter must be in [0, 1] (got " << this->Parameter << ").");
    return 0;
  }
  vtkImageData* model = vtkImageData::GetData(inputVector[0]);
  vtkFieldData* fields = model ? model->GetFieldData() : nullptr;
  auto* values =
    model ? vtkDataArray::SafeDownCast(model->GetPointData()->GetAbstractArray("Value")) : nullptr;
  auto* parents =
    fields ? vtkDataArray::SafeDownCast(fields->GetAbstractArray("NodeParent")) : nullptr;
  auto* nodeNames =
    fields ? vtkStringArray::SafeDownCast(fields->GetAbstractArray("NodeName")) : nullptr;
  auto* typeNames =
    fields ? vtkStringArray::SafeDownCast(fields->GetAbstractArray("TypeName")) : nullptr;
  if (!values || !parents || !nodeNames || !typeNames)
  {
    vtkErrorMacro(
      "The input is not a microscopic model: give it the Model output of Time Slicing.");
    return 0;
  }
  int dims[3];
  model->GetDimensions(dims);
  Internals& internal = *this->Internal;
  internal.LastProgress = 0.0;
  // ParaView 5.11's executive does not clear the flag an aborted execution
  // left: without this, every later run would stop at once.
  this->SetAbortExecute(0);
  if (internal.Aborted && internal.AbortedFilterTime == this->GetMTime() &&
    internal.AbortedModelTime == model->GetMTime())
  {
    this->EmptyOutputs(outputVector); // aborted, and nothing changed since
    return 1;
  }
  internal.Aborted = false;
  const bool curves = this->CurvesWanted(request, inputVector, outputVector);
  const int status = this->Aggregate(model, values, parents, dims, curves);
  if (status == -1)
  {
    this->EmptyOutputs(outputVector);
    return 1; // not a failure of the request: the executive's message would add nothing
  }
  if (status != 1)
  {
    return 0;
  }
  vtkTable* partition = vtkTable::GetData(outputVector, 0);
  this->WriteParts(partition, model, typeNames, nodeNames);
  // What a representation needs to draw the parts without the model: the
  // hierarchy, the types and their colours, the window and the metric.
  for (const char* described :
    { "NodeName", "NodeKind", "NodeParent", "TypeName", "TypeId", "TypeColor", "Metric",
      "Extensive", "SliceWidth", "TimeWindow", "TraceSpan", "ResourceSelection", "RunNames" })
  {
    if (vtkAbstractArray* array = fields->GetAbstractArray(described))
    {
      partition->GetFieldData()->AddArray(array);
    }
  }

  // Outputs 1 and 2: the quality curves, as rows and as a plot; left empty
  // (and not generated) when only the Partition was asked for.
  vtkTable* curveTable = vtkTable::GetData(outputVector, 1);
  vtkTable* plotTable = vtkTable::GetData(outputVector, 2);
  if (!curves)
  {
    curveTable->Initialize();
    plotTable->Initialize();
    return 1;
  }
  this->WriteCurves(curveTable, plotTable, model);
  return 1;
}

void vtkMacroscopePartitionFilter::EmptyOutputs(vtkInformationVector* outputVector)
{
  for (int port = 0; port < this->GetNumberOfOutputPorts(); ++port)
  {
    if (vtkDataObject* output = vtkDataObject::GetData(outputVector, port))
    {
      output->Initialize();
    }
  }
}

int vtkMacroscopePartitionFilter::Aggregate(
  vtkImageData* model, vtkDataArray* values, vtkDataArray* parents, const int dims[3], bool curves)
{
  Internals& internal = *this->Internal;
  const bool newModel = !internal.HasQualitiesOf(model);
  const bool newBest = newModel || !internal.Best || internal.BestParameter != this->Parameter ||
    internal.BestNormalized != this->NormalizeQualities;
  const bool newSweep =
    curves && (newModel || internal.Sweeps.count(this->NormalizeQualities) == 0);
  // Progress: each step gets a share of [0, 0.98] by its usual cost (a
  // sweep is about 2 DPs per distinct partition).
  const double partitionCost = this->GetPartitionCost();
  const double weights[3] = { newModel ? 1.0 : 0.0, newBest ? partitionCost : 0.0,
    newSweep ? 6.0 * partitionCost : 0.0 };
  const double total = std::max(partitionCost, weights[0] + weights[1] + weights[2]);
  const double qualitiesEnd = 0.98 * weights[0] / total;
  const double bestEnd = qualitiesEnd + 0.98 * weights[1] / total;
  const int status =
    MacroscopeRunCore<macroscope::AggregationAborted>(this, "Cannot aggregate this model", nullptr,
      [&]
      {
        if (newModel)
        {
          this->ComputeQualities(
            model, values, parents, dims, this->ProgressBetween(0.0, qualitiesEnd));
        }
        internal.Aggregation->SetNormalizeQualities(this->NormalizeQualities);
        if (newBest)
        {
          this->FindBest(this->ProgressBetween(qualitiesEnd, bestEnd));
        }
        if (newSweep)
        {
          internal.Aggregation->SetProgress(this->ProgressBetween(bestEnd, 0.98));
          internal.Sweeps[this->NormalizeQualities] = internal.Aggregation->AllPartitions();
          ++internal.SweepComputations;
        }
        internal.Aggregation->SetProgress({});
      });
  if (status == -1)
  {
    // The outputs are left empty, not marked aborted (the executive would
    // run the filter again at the next request), and the abort holds until
    // the filter or its model changes (Internals::Aborted). What was
    // computed before the aborted step (the qualities, a partition) is kept
    // for the next run.
    // Cleared now, so that the next execution's clearing does not modify
    // the filter (vtkSetMacro), which would hide that nothing changed.
    this->SetAbortExecute(0);
    internal.Aborted = true;
    internal.AbortedFilterTime = this->GetMTime();
    internal.AbortedModelTime = model->GetMTime();
    vtkErrorMacro("Aggregation aborted: no partition was output.");
  }
  return status;
}

void vtkMacroscopePartitionFilter::FindBest(AggregationProgressHook progress)
{
  Internals& internal = *this->Internal;
  internal.Best.reset();
  internal.Aggregation->SetProgress(std::move(progress));
  const macroscope::Partition* known =
    internal.KnownBest(this->Parameter, this->NormalizeQualities);
  const auto dpStart = std::chrono::steady_clock::now();
  internal.Best = std::make_unique<macroscope::Partition>(
    known ? *known : internal.Aggregation->Best(this->Parameter));
  if (!known)
  {
    ++internal.PartitionComputations;
    internal.PartitionSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - dpStart).count();
  }
  internal.BestParameter = this->Parameter;
  internal.BestNormalized = this->NormalizeQualities;
}

void vtkMacroscopePartitionFilter::WriteParts(
  vtkTable* partition, vtkImageData* model, vtkStringArray* typeNames, vtkStringArray* nodeNames)
{
  const Internals& internal = *this->Internal;
  const macroscope::Partition& best = *internal.Best;
  int dims[3];
  model->GetDimensions(dims);
  const double origin = model->GetOrigin()[0];
  const double width = model->GetSpacing()[0];
  const int types = dims[2];
  auto* part = MacroscopeNewColumn<vtkIntArray>(partition, "Part");
  auto* node = MacroscopeNewColumn<vtkTypeInt64Array>(partition, "Node");
  auto* name = MacroscopeNewColumn<vtkStringArray>(partition, "NodeName");
  auto* firstLeaf = MacroscopeNewColumn<vtkIntArray>(partition, "FirstLeaf");
  auto* lastLeaf = MacroscopeNewColumn<vtkIntArray>(partition, "LastLeaf");
  auto* firstSlice = MacroscopeNewColumn<vtkIntArray>(partition, "FirstSlice");
  auto* lastSlice = MacroscopeNewColumn<vtkIntArray>(partition, "LastSlice");
  auto* start = MacroscopeNewColumn<vtkDoubleArray>(partition, "Start");
  auto* end = MacroscopeNewColumn<vtkDoubleArray>(partition, "End");
  auto* gain = MacroscopeNewColumn<vtkDoubleArray>(partition, "Gain");
  auto* loss = MacroscopeNewColumn<vtkDoubleArray>(partition, "Loss");
  auto* amplitude = MacroscopeNewColumn<vtkDoubleArray>(partition, "Amplitude", types);
  auto* mean = MacroscopeNewColumn<vtkDoubleArray>(partition, "Mean", types);
  auto* mode = MacroscopeNewColumn<vtkIntArray>(partition, "Mode");
  auto* modeName = MacroscopeNewColumn<vtkStringArray>(partition, "ModeName");
  auto* modeShare = MacroscopeNewColumn<vtkDoubleArray>(partition, "ModeProportion");
  for (int u = 0; u < types; ++u)
  {
    amplitude->SetComponentName(u, typeNames->GetValue(u).c_str());
    mean->SetComponentName(u, typeNames->GetValue(u).c_str());
  }
  const macroscope::AggregationHierarchy& hierarchy = *internal.Hierarchy;
  // A difference model (Model Difference) aggregates |A - B| and keeps
  // A - B beside it: the parts' signed means tell which run had more.
  std::vector<double> signedValues =
    SignedDifferences(model, model->GetPointData()->GetAbstractArray("Value")->GetNumberOfTuples());
  const macroscope::ModelView signedModel{ signedValues.data(), dims[0],
    static_cast<uint32_t>(dims[1]), static_cast<uint32_t>(dims[2]) };
  vtkDoubleArray* signedMean = signedValues.empty()
    ? nullptr
    : MacroscopeNewColumn<vtkDoubleArray>(partition, "SignedMean", types);
  for (int u = 0; signedMean && u < types; ++u)
  {
    signedMean->SetComponentName(u, typeNames->GetValue(u).c_str());
  }
  int index = 0;
  for (const macroscope::AggregatePart& p : best.Parts)
  {
    const macroscope::PartSummary summary = macroscope::SummarizePart(internal.Model, hierarchy, p);
    const int64_t area = summary.Area;
    part->InsertNextValue(index++);
    node->InsertNextValue(area);
    name->InsertNextValue(nodeNames->GetValue(area));
    firstLeaf->InsertNextValue(static_cast<int>(hierarchy.LeafBegin(area)));
    lastLeaf->InsertNextValue(static_cast<int>(hierarchy.LeafEnd(area)) - 1);
    firstSlice->InsertNextValue(p.FirstSlice);
    lastSlice->InsertNextValue(p.LastSlice);
    start->InsertNextValue(origin + p.FirstSlice * width);
    end->InsertNextValue(origin + (p.LastSlice + 1) * width);
    gain->InsertNextValue(p.Gain);
    loss->InsertNextValue(p.Loss);
    amplitude->InsertNextTuple(summary.Amplitude.data());
    mean->InsertNextTuple(summary.Summary.Mean.data());
    if (signedMean)
    {
      signedMean->InsertNextTuple(
        macroscope::SummarizeArea(signedModel, hierarchy, area, p.FirstSlice, p.LastSlice)
          .Mean.data());
    }
    mode->InsertNextValue(static_cast<int>(summary.Summary.Mode));
    modeName->InsertNextValue(typeNames->GetValue(summary.Summary.Mode));
    modeShare->InsertNextValue(summary.Summary.ModeProportion);
  }
  vtkFieldData* fields = partition->GetFieldData();
  MacroscopeAddFieldValue<vtkDoubleArray>(fields, "Parameter", this->Parameter);
  vtkNew<vtkDoubleArray> totals;
  totals->SetName("PartitionQuality");
  totals->SetNumberOfComponents(2);
  totals->SetComponentName(0, "Gain");
  totals->SetComponentName(1, "Loss");
  totals->InsertNextTuple2(best.Gain, best.Loss);
  fields->AddArray(totals);
  MacroscopeAddFieldValue<vtkStringArray>(fields, "Constraint", this->GetConstraintName());
  MacroscopeAddFieldValue<vtkIntArray>(fields, "QualityComputations", internal.QualityComputations);
  MacroscopeAddFieldValue<vtkIntArray>(fields, "SweepComputations", internal.SweepComputations);
  MacroscopeAddFieldValue<vtkIntArray>(
    fields, "PartitionComputations", internal.PartitionComputations);
  vtkNew<vtkIntArray> shape;
  shape->SetName("ModelShape");
  shape->SetNumberOfComponents(3);
  shape->SetComponentName(0, "Slices");
  shape->SetComponentName(1, "Resources");
  shape->SetComponentName(2, "Types");
  shape->InsertNextTuple3(dims[0], dims[1], dims[2]);
  fields->AddArray(shape);
}

void vtkMacroscopePartitionFilter::WriteCurves(
  vtkTable* curveTable, vtkTable* plotTable, vtkImageData* model)
{
  Internals& internal = *this->Internal;
  internal.RecordSweep(model, this->NormalizeQualities);
  const macroscope::PartitionSweep& sweep = internal.Sweeps[this->NormalizeQualities];
  MacroscopeQualityTables::FillCurves(curveTable, sweep);
  MacroscopeQualityTables::FillPlot(plotTable, sweep, this->Parameter);
  vtkNew<vtkIntArray> sweepCount;
  sweepCount->SetName("SweepComputations");
  sweepCount->InsertNextValue(internal.SweepComputations);
  curveTable->GetFieldData()->AddArray(sweepCount);
  plotTable->GetFieldData()->AddArray(sweepCount);
  MacroscopeAddFieldValue<vtkIntArray>(
    curveTable->GetFieldData(), "SweepOptimizations", static_cast<int>(sweep.Optimizations));
  internal.SetCurvesPending(false);
}

void vtkMacroscopePartitionFilter::ComputeQualities(vtkImageData* model, vtkDataArray* values,
  vtkDataArray* parents, const int dims[3], AggregationProgressHook progress)
{
  Internals& internal = *this->Internal;
  internal.Aggregation.reset();
  internal.Best.reset();
  internal.Sweeps.clear();
  internal.ModelObject = nullptr;
  // Time Slicing's models are doubles: one copy, millions of cells in milliseconds.
  internal.Values = MacroscopeColumnValues<double>(values);
  internal.Model = { internal.Values.data(), dims[0], static_cast<uint32_t>(dims[1]),
    static_cast<uint32_t>(dims[2]) };
  const std::vector<int64_t> parent = MacroscopeColumnValues<int64_t>(parents);
  internal.Model.Validate();
  internal.Hierarchy =
    std::make_unique<macroscope::AggregationHierarchy>(parent, static_cast<uint32_t>(dims[1]));
  internal.Aggregation =
    this->CreateAggregation(internal.Model, *internal.Hierarchy, std::move(progress));
  internal.ModelObject = model;
  internal.ModelTime = model->GetMTime();
  ++internal.QualityComputations;
}

vtkDoubleArray* vtkMacroscopePartitionFilter::GetQualityCurveStarts()
{
  return this->Internal->FillCurve(this->Internal->CurveStarts, this->NormalizeQualities,
    [](const macroscope::PartitionSweep& sweep, std::size_t k) { return sweep.PStart(k); });
}

vtkDoubleArray* vtkMacroscopePartitionFilter::GetQualityCurveGains()
{
  return this->Internal->FillCurve(this->Internal->CurveGains, this->NormalizeQualities,
    [](const macroscope::PartitionSweep& sweep, std::size_t k)
    { return sweep.Partitions[k].Gain; });
}

vtkDoubleArray* vtkMacroscopePartitionFilter::GetQualityCurveLosses()
{
  return this->Internal->FillCurve(this->Internal->CurveLosses, this->NormalizeQualities,
    [](const macroscope::PartitionSweep& sweep, std::size_t k)
    { return sweep.Partitions[k].Loss; });
}

vtkDoubleArray* vtkMacroscopePartitionFilter::GetQualityCurveParts()
{
  return this->Internal->FillCurve(this->Internal->CurveParts, this->NormalizeQualities,
    [](const macroscope::PartitionSweep& sweep, std::size_t k)
    { return sweep.Partitions[k].Parts.size(); });
}

double vtkMacroscopePartitionFilter::GetPartitionSeconds()
{
  return this->Internal->PartitionSeconds;
}
