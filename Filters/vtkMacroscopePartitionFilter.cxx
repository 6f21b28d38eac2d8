#include "vtkMacroscopePartitionFilter.h"

#include "Aggregation.h"

#include "MacroscopeModelInput.h"
#include "MacroscopeQualityTables.h"
#include "MacroscopeTraceColumns.h"

#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkImageData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkIntArray.h"
#include "vtkNew.h"
#include "vtkPointData.h"
#include "vtkStreamingDemandDrivenPipeline.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkTypeInt64Array.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
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
  // How many times qualities were computed: lets a test or a benchmark see
  // that changing p reused them.
  int QualityComputations = 0;
};

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

int vtkMacroscopePartitionFilter::RequestData(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  vtkInformation* outInfo = outputVector->GetInformationObject(0);
  if (MacroscopeModelInput::IsLaterPiece(outInfo))
  {
    return 1; // piece 0 holds the tables
  }
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
    vtkErrorMacro("The input is not a microscopic model: give it the Model output of Time Slicing.");
    return 0;
  }
  int dims[3];
  model->GetDimensions(dims);
  Internals& internal = *this->Internal;

  // Qualities: computed once per model.
  if (!internal.Aggregation || internal.ModelObject != model ||
    internal.ModelTime != model->GetMTime())
  {
    internal.Aggregation.reset();
    internal.Sweeps.clear();
    internal.Values.resize(static_cast<std::size_t>(values->GetNumberOfTuples()));
    for (vtkIdType i = 0; i < values->GetNumberOfTuples(); ++i)
    {
      internal.Values[i] = values->GetComponent(i, 0);
    }
    internal.Model = { internal.Values.data(), dims[0], static_cast<uint32_t>(dims[1]),
      static_cast<uint32_t>(dims[2]) };
    std::vector<int64_t> parent(static_cast<std::size_t>(parents->GetNumberOfTuples()));
    for (std::size_t n = 0; n < parent.size(); ++n)
    {
      parent[n] = static_cast<int64_t>(parents->GetComponent(static_cast<vtkIdType>(n), 0));
    }
    try
    {
      internal.Model.Validate();
      internal.Hierarchy = std::make_unique<macroscope::AggregationHierarchy>(
        parent, static_cast<uint32_t>(dims[1]));
      this->UpdateProgress(0.1);
      internal.Aggregation = this->CreateAggregation(internal.Model, *internal.Hierarchy);
    }
    catch (const std::exception& error)
    {
      vtkErrorMacro("Cannot aggregate this model: " << error.what());
      return 0;
    }
    internal.ModelObject = model;
    internal.ModelTime = model->GetMTime();
    ++internal.QualityComputations;
  }
  this->UpdateProgress(0.5);

  macroscope::Aggregation& aggregation = *internal.Aggregation;
  aggregation.SetNormalizeQualities(this->NormalizeQualities);
  const macroscope::Partition best = aggregation.Best(this->Parameter);
  auto sweep = internal.Sweeps.find(this->NormalizeQualities);
  if (sweep == internal.Sweeps.end())
  {
    sweep = internal.Sweeps.emplace(this->NormalizeQualities, aggregation.AllPartitions()).first;
  }
  this->UpdateProgress(0.9);

  // Output 0: the parts.
  const double origin = model->GetOrigin()[0];
  const double width = model->GetSpacing()[0];
  const int types = dims[2];
  vtkTable* partition = vtkTable::GetData(outputVector, 0);
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
  int index = 0;
  for (const macroscope::AggregatePart& p : best.Parts)
  {
    const int64_t area = p.Node < 0 ? hierarchy.Root() : p.Node;
    const macroscope::AreaSummary summary =
      macroscope::SummarizeArea(internal.Model, hierarchy, area, p.FirstSlice, p.LastSlice);
    const std::vector<double> amplitudes =
      macroscope::TemporalAmplitudes(internal.Model, p.FirstSlice, p.LastSlice);
    const uint32_t leaves = hierarchy.LeafCount(area);
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
    // Temporal parts span every resource; for a hierarchy part the amplitude
    // is its own sum over its slices.
    std::vector<double> ownAmplitude(amplitudes);
    if (p.Node >= 0)
    {
      for (int u = 0; u < types; ++u)
      {
        ownAmplitude[u] = summary.Mean[u] * leaves;
      }
    }
    amplitude->InsertNextTuple(ownAmplitude.data());
    mean->InsertNextTuple(summary.Mean.data());
    mode->InsertNextValue(static_cast<int>(summary.Mode));
    modeName->InsertNextValue(typeNames->GetValue(summary.Mode));
    modeShare->InsertNextValue(summary.ModeProportion);
  }
  vtkNew<vtkDoubleArray> chosen;
  chosen->SetName("Parameter");
  chosen->InsertNextValue(this->Parameter);
  partition->GetFieldData()->AddArray(chosen);
  vtkNew<vtkDoubleArray> totals;
  totals->SetName("PartitionQuality");
  totals->SetNumberOfComponents(2);
  totals->SetComponentName(0, "Gain");
  totals->SetComponentName(1, "Loss");
  totals->InsertNextTuple2(best.Gain, best.Loss);
  partition->GetFieldData()->AddArray(totals);
  vtkNew<vtkStringArray> constraint;
  constraint->SetName("Constraint");
  constraint->InsertNextValue(this->GetConstraintName());
  partition->GetFieldData()->AddArray(constraint);
  vtkNew<vtkIntArray> computations;
  computations->SetName("QualityComputations");
  computations->InsertNextValue(internal.QualityComputations);
  partition->GetFieldData()->AddArray(computations);
  vtkNew<vtkIntArray> shape;
  shape->SetName("ModelShape");
  shape->SetNumberOfComponents(3);
  shape->SetComponentName(0, "Slices");
  shape->SetComponentName(1, "Resources");
  shape->SetComponentName(2, "Types");
  shape->InsertNextTuple3(dims[0], dims[1], dims[2]);
  partition->GetFieldData()->AddArray(shape);
  // What a representation needs to draw the parts without the model: the
  // hierarchy, the types and their colours, the window and the metric.
  for (const char* described : { "NodeName", "NodeKind", "NodeParent", "TypeName", "TypeId",
         "TypeColor", "Metric", "Extensive", "SliceWidth", "TimeWindow", "ResourceSelection" })
  {
    if (vtkAbstractArray* array = fields->GetAbstractArray(described))
    {
      partition->GetFieldData()->AddArray(array);
    }
  }

  // Outputs 1 and 2: the quality curves, as rows and as a plot.
  MacroscopeQualityTables::FillCurves(vtkTable::GetData(outputVector, 1), sweep->second);
  MacroscopeQualityTables::FillPlot(vtkTable::GetData(outputVector, 2), sweep->second, this->Parameter);
  this->UpdateProgress(1.0);
  return 1;
}
