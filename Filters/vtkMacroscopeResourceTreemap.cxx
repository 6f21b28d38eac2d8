#include "vtkMacroscopeResourceTreemap.h"

#include "Aggregation.h"
#include "ResourceTreemap.h"
#include "WindowIntegration.h"

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
#include "vtkObjectFactory.h"
#include "vtkPointData.h"
#include "vtkStreamingDemandDrivenPipeline.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkTypeInt64Array.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <sstream>
#include <vector>

vtkStandardNewMacro(vtkMacroscopeResourceTreemap);

struct vtkMacroscopeResourceTreemap::Internals
{
  // The model, kept while the input does not change.
  vtkDataObject* ModelObject = nullptr;
  vtkMTimeType ModelTime = 0;
  std::vector<double> Values;
  macroscope::ModelView Model;
  std::unique_ptr<macroscope::AggregationHierarchy> Hierarchy;
  // The window's integral and its qualities, kept while the window does
  // not change: changing p or the cut only re-runs the optimisation.
  double Begin = 0.0;
  double End = 0.0;
  macroscope::WindowIntegral Integral;
  std::vector<double> OneSlice;
  std::unique_ptr<macroscope::SpatialAggregation> Aggregation;
  std::map<bool, macroscope::PartitionSweep> Sweeps; // per normalisation
  int QualityComputations = 0;
};

namespace
{
using SDDP = vtkStreamingDemandDrivenPipeline;


// The parts of a model the filter reads, or null members when it is not
// one.
struct ModelArrays
{
  vtkImageData* Image = nullptr;
  vtkDataArray* Values = nullptr;
  vtkDataArray* Parents = nullptr;
  vtkStringArray* NodeNames = nullptr;
  vtkStringArray* NodeKinds = nullptr;
  vtkStringArray* TypeNames = nullptr;
  vtkDataArray* Extensive = nullptr;
  vtkStringArray* Metric = nullptr;

  explicit ModelArrays(vtkImageData* image)
    : Image(image)
  {
    vtkFieldData* fields = image ? image->GetFieldData() : nullptr;
    if (!fields)
    {
      return;
    }
    this->Values = vtkDataArray::SafeDownCast(image->GetPointData()->GetAbstractArray("Value"));
    this->Parents = vtkDataArray::SafeDownCast(fields->GetAbstractArray("NodeParent"));
    this->NodeNames = vtkStringArray::SafeDownCast(fields->GetAbstractArray("NodeName"));
    this->NodeKinds = vtkStringArray::SafeDownCast(fields->GetAbstractArray("NodeKind"));
    this->TypeNames = vtkStringArray::SafeDownCast(fields->GetAbstractArray("TypeName"));
    this->Extensive = vtkDataArray::SafeDownCast(fields->GetAbstractArray("Extensive"));
    this->Metric = vtkStringArray::SafeDownCast(fields->GetAbstractArray("Metric"));
  }

  bool Complete() const
  {
    return this->Values && this->Parents && this->NodeNames && this->NodeKinds &&
      this->TypeNames && this->Extensive && this->Metric && this->Metric->GetNumberOfValues() > 0 &&
      this->Image->GetNumberOfPoints() > 0;
  }

  std::vector<double> Copy() const
  {
    std::vector<double> copy(static_cast<std::size_t>(this->Values->GetNumberOfTuples()));
    for (vtkIdType i = 0; i < this->Values->GetNumberOfTuples(); ++i)
    {
      copy[i] = this->Values->GetComponent(i, 0);
    }
    return copy;
  }

  macroscope::ModelView View(const std::vector<double>& values) const
  {
    int dims[3];
    this->Image->GetDimensions(dims);
    return { values.data(), dims[0], static_cast<uint32_t>(dims[1]),
      static_cast<uint32_t>(dims[2]) };
  }

  macroscope::SliceAxis Axis() const
  {
    return { this->Image->GetOrigin()[0], this->Image->GetSpacing()[0] };
  }
};

// "state duration" -> "State duration": the name of a size.
std::string Capitalized(std::string text)
{
  if (!text.empty())
  {
    text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  }
  return text;
}
}

vtkMacroscopeResourceTreemap::vtkMacroscopeResourceTreemap()
  : Internal(new Internals)
{
  this->SetNumberOfInputPorts(2);
  this->SetNumberOfOutputPorts(3);
}

vtkMacroscopeResourceTreemap::~vtkMacroscopeResourceTreemap() = default;

void vtkMacroscopeResourceTreemap::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Cut: " << this->Cut << "\n";
  os << indent << "Level: " << this->Level << "\n";
  os << indent << "Parameter: " << this->Parameter << "\n";
  os << indent << "NormalizeQualities: " << this->NormalizeQualities << "\n";
  os << indent << "SizeBy: " << this->SizeBy << "\n";
  os << indent << "SizeType: \"" << this->SizeType << "\"\n";
  os << indent << "TimeWindow: " << this->TimeWindow[0] << " " << this->TimeWindow[1] << "\n";
  os << indent << "AnimateSlices: " << this->AnimateSlices << "\n";
  os << indent << "WindowSlices: " << this->WindowSlices << "\n";
}

int vtkMacroscopeResourceTreemap::FillInputPortInformation(int port, vtkInformation* info)
{
  info->Set(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkImageData");
  if (port == 1)
  {
    info->Set(vtkAlgorithm::INPUT_IS_OPTIONAL(), 1);
  }
  return 1;
}

int vtkMacroscopeResourceTreemap::RequestInformation(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  for (int port = 0; port < this->GetNumberOfOutputPorts(); ++port)
  {
    vtkInformation* info = outputVector->GetInformationObject(port);
    info->Remove(SDDP::TIME_STEPS());
    info->Remove(SDDP::TIME_RANGE());
  }
  if (!this->AnimateSlices)
  {
    return 1;
  }
  // The slices' start times, from the time axis Time Slicing announces.
  vtkInformation* inInfo = inputVector[0]->GetInformationObject(0);
  if (!inInfo || !inInfo->Has(vtkDataObject::ORIGIN()) || !inInfo->Has(vtkDataObject::SPACING()) ||
    !inInfo->Has(SDDP::WHOLE_EXTENT()))
  {
    vtkWarningMacro("AnimateSlices: the model's time axis is not known before it is computed "
                    "(its Time Slicing needs a reader giving the trace's TimeBounds, or a "
                    "TimeWindow end), so there are no time steps.");
    return 1;
  }
  const double origin = inInfo->Get(vtkDataObject::ORIGIN())[0];
  const double width = inInfo->Get(vtkDataObject::SPACING())[0];
  const int* extent = inInfo->Get(SDDP::WHOLE_EXTENT());
  const int slices = extent[1] - extent[0] + 1;
  const int steps = slices - this->WindowSlices + 1;
  if (this->WindowSlices < 1 || steps < 1 || !(width > 0.0))
  {
    return 1; // RequestData reports the bad WindowSlices
  }
  std::vector<double> times(static_cast<std::size_t>(steps));
  for (int k = 0; k < steps; ++k)
  {
    times[k] = origin + k * width;
  }
  const double range[2] = { times.front(), times.back() };
  for (int port = 0; port < this->GetNumberOfOutputPorts(); ++port)
  {
    vtkInformation* info = outputVector->GetInformationObject(port);
    info->Set(SDDP::TIME_STEPS(), times.data(), steps);
    info->Set(SDDP::TIME_RANGE(), range, 2);
  }
  return 1;
}

int vtkMacroscopeResourceTreemap::RequestUpdateExtent(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector*)
{
  // Every time step reads the same model: the input is not asked for time.
  for (int port = 0; port < 2; ++port)
  {
    if (this->GetNumberOfInputConnections(port) > 0)
    {
      MacroscopeModelInput::RequestWholeModel(inputVector, port);
      inputVector[port]->GetInformationObject(0)->Remove(SDDP::UPDATE_TIME_STEP());
    }
  }
  return 1;
}

int vtkMacroscopeResourceTreemap::RequestData(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  // An abort stops the run it interrupts; VTK leaves the flag set, which
  // would abort every later run too (docs/progress.md).
  this->SetAbortExecute(0);
  vtkInformation* outInfo = outputVector->GetInformationObject(0);
  const bool timed = this->AnimateSlices && outInfo->Has(SDDP::UPDATE_TIME_STEP());
  const double requested = timed ? outInfo->Get(SDDP::UPDATE_TIME_STEP()) : 0.0;
  if (timed)
  {
    for (int port = 0; port < this->GetNumberOfOutputPorts(); ++port)
    {
      vtkDataObject* output = vtkDataObject::GetData(outputVector, port);
      output->GetInformation()->Set(vtkDataObject::DATA_TIME_STEP(), requested);
    }
  }
  if (MacroscopeModelInput::IsLaterPiece(outInfo))
  {
    return 1; // piece 0 holds the tables
  }

  // Properties.
  if (this->Cut != LEVEL && this->Cut != OPTIMAL)
  {
    vtkErrorMacro("Unknown Cut " << this->Cut << " (0 Level, 1 Optimal).");
    return 0;
  }
  if (this->Level < -1)
  {
    vtkErrorMacro("Level must be -1 (the resources) or a depth >= 0 (got " << this->Level << ").");
    return 0;
  }
  if (!(this->Parameter >= 0.0 && this->Parameter <= 1.0))
  {
    vtkErrorMacro("Parameter must be in [0, 1] (got " << this->Parameter << ").");
    return 0;
  }
  if (this->SizeBy < SIZE_TOTAL || this->SizeBy > SIZE_INPUT)
  {
    vtkErrorMacro("Unknown SizeBy " << this->SizeBy
                                    << " (0 Total, 1 Resources, 2 Type, 3 Sizes Input).");
    return 0;
  }
  if (this->WindowSlices < 1)
  {
    vtkErrorMacro("WindowSlices must be at least 1 (got " << this->WindowSlices << ").");
    return 0;
  }
  const ModelArrays model(vtkImageData::GetData(inputVector[0]));
  if (!model.Complete())
  {
    vtkErrorMacro("The input is not a microscopic model: give it the Model output of Time Slicing.");
    return 0;
  }
  int dims[3];
  model.Image->GetDimensions(dims);
  const int slices = dims[0];
  const uint32_t resources = static_cast<uint32_t>(dims[1]);
  const uint32_t types = static_cast<uint32_t>(dims[2]);
  const macroscope::SliceAxis axis = model.Axis();
  const double modelEnd = axis.Origin + slices * axis.Width;

  // The window: a run of slices when animated, else TimeWindow.
  double begin = this->TimeWindow[0];
  double end = this->TimeWindow[1] == 0.0 ? modelEnd : this->TimeWindow[1];
  if (this->AnimateSlices)
  {
    if (this->WindowSlices > slices)
    {
      vtkErrorMacro("WindowSlices (" << this->WindowSlices << ") exceeds the model's " << slices
                                     << " slices.");
      return 0;
    }
    int first = 0;
    if (timed)
    {
      // The slice holding the requested time; its start is a time step.
      const double at = (requested - axis.Origin) / axis.Width;
      first = std::isfinite(at) ? static_cast<int>(std::floor(at + 1e-6)) : 0;
      first = std::max(0, std::min(first, slices - this->WindowSlices));
    }
    begin = axis.Origin + first * axis.Width;
    end = axis.Origin + (first + this->WindowSlices) * axis.Width;
  }
  else if (!(end > begin) || !std::isfinite(begin) || !std::isfinite(end) || end <= axis.Origin ||
    begin >= modelEnd)
  {
    vtkErrorMacro("TimeWindow (" << this->TimeWindow[0] << ", " << this->TimeWindow[1]
                                 << ") does not overlap the model's window [" << axis.Origin
                                 << ", " << modelEnd << "] s.");
    return 0;
  }

  // The areas' source, checked before any computation.
  uint32_t sizeType = 0;
  std::string sizeName;
  ModelArrays sizes(this->GetNumberOfInputConnections(1) > 0
      ? vtkImageData::GetData(inputVector[1])
      : nullptr);
  switch (this->SizeBy)
  {
    case SIZE_TOTAL:
      sizeName = Capitalized(model.Metric->GetValue(0));
      break;
    case SIZE_RESOURCES:
      sizeName = "Resources";
      break;
    case SIZE_TYPE:
    {
      sizeType = types;
      std::ostringstream valid;
      for (uint32_t u = 0; u < types; ++u)
      {
        if (model.TypeNames->GetValue(u) == this->SizeType)
        {
          sizeType = u;
        }
        if (u < 5)
        {
          valid << (u ? ", " : "") << "\"" << model.TypeNames->GetValue(u) << "\"";
        }
      }
      if (sizeType == types)
      {
        vtkErrorMacro("SizeType \"" << this->SizeType << "\" is not a type of the model (its "
                                    << types << " types include " << valid.str()
                                    << (types > 5 ? ", ..." : "") << ").");
        return 0;
      }
      sizeName = "Type: " + this->SizeType;
      break;
    }
    default:
    {
      if (!sizes.Image)
      {
        vtkErrorMacro("SizeBy is Sizes Input, but no Sizes input is connected: give it a Time "
                      "Slicing Model of the same trace.");
        return 0;
      }
      if (!sizes.Complete())
      {
        vtkErrorMacro("The Sizes input is not a microscopic model: give it the Model output of "
                      "Time Slicing.");
        return 0;
      }
      bool same = sizes.NodeNames->GetNumberOfValues() == model.NodeNames->GetNumberOfValues() &&
        sizes.Image->GetDimensions()[1] == dims[1];
      for (vtkIdType n = 0; same && n < model.NodeNames->GetNumberOfValues(); ++n)
      {
        same = sizes.NodeNames->GetValue(n) == model.NodeNames->GetValue(n);
      }
      if (!same)
      {
        vtkErrorMacro("The Sizes input's model has other resources than the model ("
                      << sizes.Image->GetDimensions()[1] << " resources, " << dims[1]
                      << " in the model; their NodeName must be equal): slice it with the same "
                         "ResourceLevel and Resources.");
        return 0;
      }
      sizeName = Capitalized(sizes.Metric->GetValue(0));
    }
  }

  // The model and its hierarchy, copied once per model.
  Internals& internal = *this->Internal;
  if (internal.ModelObject != model.Image || internal.ModelTime != model.Image->GetMTime() ||
    !internal.Hierarchy)
  {
    internal.Aggregation.reset();
    internal.Sweeps.clear();
    internal.Hierarchy.reset();
    internal.Values = model.Copy();
    internal.Model = model.View(internal.Values);
    std::vector<int64_t> parent(static_cast<std::size_t>(model.Parents->GetNumberOfTuples()));
    for (std::size_t n = 0; n < parent.size(); ++n)
    {
      parent[n] = static_cast<int64_t>(model.Parents->GetComponent(static_cast<vtkIdType>(n), 0));
    }
    try
    {
      internal.Model.Validate();
      internal.Hierarchy = std::make_unique<macroscope::AggregationHierarchy>(parent, resources);
    }
    catch (const std::exception& error)
    {
      vtkErrorMacro("Cannot use this model: " << error.what());
      return 0;
    }
    if (model.NodeNames->GetNumberOfValues() != static_cast<vtkIdType>(parent.size()) ||
      model.NodeKinds->GetNumberOfValues() != static_cast<vtkIdType>(parent.size()) ||
      model.TypeNames->GetNumberOfValues() < static_cast<vtkIdType>(types))
    {
      internal.Hierarchy.reset();
      vtkErrorMacro("The model's NodeName, NodeKind or TypeName do not match its shape.");
      return 0;
    }
    internal.ModelObject = model.Image;
    internal.ModelTime = model.Image->GetMTime();
  }

  // The window's integral and its qualities, once per window.
  if (!internal.Aggregation || internal.Begin != begin || internal.End != end)
  {
    internal.Aggregation.reset();
    internal.Sweeps.clear();
    try
    {
      internal.Integral = macroscope::IntegrateWindow(internal.Model, axis, begin, end,
        model.Extensive->GetComponent(0, 0) != 0.0, [this](double fraction) {
          this->UpdateProgress(0.4 * fraction);
          return !this->GetAbortExecute();
        });
      internal.OneSlice = macroscope::OneSliceModel(internal.Integral);
      internal.Aggregation = std::make_unique<macroscope::SpatialAggregation>(
        macroscope::ModelView{ internal.OneSlice.data(), 1, resources, types }, *internal.Hierarchy);
    }
    catch (const macroscope::WindowIntegrationAborted&)
    {
      vtkWarningMacro("Resource Treemap aborted.");
      return 1;
    }
    catch (const std::exception& error)
    {
      vtkErrorMacro("Cannot aggregate this window: " << error.what());
      return 0;
    }
    internal.Begin = begin;
    internal.End = end;
    ++internal.QualityComputations;
  }
  this->UpdateProgress(0.5);
  macroscope::SpatialAggregation& aggregation = *internal.Aggregation;
  const macroscope::AggregationHierarchy& hierarchy = *internal.Hierarchy;
  aggregation.SetNormalizeQualities(this->NormalizeQualities);
  auto sweep = internal.Sweeps.find(this->NormalizeQualities);
  if (sweep == internal.Sweeps.end())
  {
    sweep = internal.Sweeps.emplace(this->NormalizeQualities, aggregation.AllPartitions()).first;
  }
  if (this->GetAbortExecute())
  {
    return 1;
  }
  this->UpdateProgress(0.7);

  // The cut.
  std::vector<int64_t> cut;
  macroscope::Partition best;
  if (this->Cut == OPTIMAL)
  {
    best = aggregation.Best(this->Parameter);
    for (const macroscope::AggregatePart& part : best.Parts)
    {
      cut.push_back(part.Node);
    }
  }
  else
  {
    try
    {
      cut = macroscope::LevelCut(hierarchy, this->Level);
    }
    catch (const std::invalid_argument& error)
    {
      vtkErrorMacro("Level cannot cut the model: " << error.what() << ".");
      return 0;
    }
  }

  // The areas per resource.
  std::vector<double> resourceSizes(resources, 0.0);
  const macroscope::WindowIntegral& integral = internal.Integral;
  if (this->SizeBy == SIZE_INPUT)
  {
    try
    {
      const std::vector<double> values = sizes.Copy();
      const macroscope::ModelView view = sizes.View(values);
      view.Validate();
      const macroscope::WindowIntegral other = macroscope::IntegrateWindow(
        view, sizes.Axis(), begin, end, sizes.Extensive->GetComponent(0, 0) != 0.0);
      for (uint32_t s = 0; s < resources; ++s)
      {
        for (uint32_t u = 0; u < other.Types; ++u)
        {
          resourceSizes[s] += other.At(s, u);
        }
      }
    }
    catch (const std::exception& error)
    {
      vtkErrorMacro("Cannot use the Sizes input: " << error.what() << ".");
      return 0;
    }
  }
  for (uint32_t s = 0; s < resources && this->SizeBy != SIZE_INPUT; ++s)
  {
    switch (this->SizeBy)
    {
      case SIZE_TOTAL:
        for (uint32_t u = 0; u < types; ++u)
        {
          resourceSizes[s] += integral.At(s, u);
        }
        break;
      case SIZE_RESOURCES:
        resourceSizes[s] = 1.0;
        break;
      default:
        resourceSizes[s] = integral.At(s, sizeType);
    }
  }

  macroscope::TreemapRows rows;
  std::vector<std::string> paths;
  try
  {
    rows = macroscope::BuildTreemap(hierarchy, cut, integral.Values, types, resourceSizes);
    std::vector<std::string> names(hierarchy.Nodes());
    for (std::size_t n = 0; n < names.size(); ++n)
    {
      names[n] = model.NodeNames->GetValue(static_cast<vtkIdType>(n));
    }
    paths = macroscope::NodePaths(hierarchy, names);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("Cannot build the treemap: " << error.what());
    return 0;
  }
  this->UpdateProgress(0.8);

  // Output 0: the rows.
  vtkTable* table = vtkTable::GetData(outputVector, 0);
  auto* node = MacroscopeNewColumn<vtkTypeInt64Array>(table, "Node");
  auto* name = MacroscopeNewColumn<vtkStringArray>(table, "Name");
  auto* path = MacroscopeNewColumn<vtkStringArray>(table, "Path");
  auto* kind = MacroscopeNewColumn<vtkStringArray>(table, "Kind");
  auto* parentRow = MacroscopeNewColumn<vtkTypeInt64Array>(table, "Parent");
  auto* depth = MacroscopeNewColumn<vtkIntArray>(table, "Depth");
  auto* inCut = MacroscopeNewColumn<vtkIntArray>(table, "Cut");
  auto* below = MacroscopeNewColumn<vtkIntArray>(table, "Resources");
  auto* firstLeaf = MacroscopeNewColumn<vtkIntArray>(table, "FirstLeaf");
  auto* lastLeaf = MacroscopeNewColumn<vtkIntArray>(table, "LastLeaf");
  auto* size = MacroscopeNewColumn<vtkDoubleArray>(table, "Size");
  auto* values = MacroscopeNewColumn<vtkDoubleArray>(table, "Values", static_cast<int>(types));
  auto* total = MacroscopeNewColumn<vtkDoubleArray>(table, "Total");
  auto* mode = MacroscopeNewColumn<vtkIntArray>(table, "Mode");
  auto* modeName = MacroscopeNewColumn<vtkStringArray>(table, "ModeName");
  auto* modeShare = MacroscopeNewColumn<vtkDoubleArray>(table, "ModeProportion");
  auto* gain = MacroscopeNewColumn<vtkDoubleArray>(table, "Gain");
  auto* loss = MacroscopeNewColumn<vtkDoubleArray>(table, "Loss");
  for (uint32_t u = 0; u < types; ++u)
  {
    values->SetComponentName(u, model.TypeNames->GetValue(u).c_str());
  }
  // Qualities scaled as Best() scales them.
  const macroscope::Quality full = aggregation.FullAggregation();
  const double gainScale = this->NormalizeQualities && full.Gain > 0.0 ? full.Gain : 1.0;
  const double lossScale = this->NormalizeQualities && full.Loss > 0.0 ? full.Loss : 1.0;
  double cutGain = 0.0;
  double cutLoss = 0.0;
  for (std::size_t r = 0; r < rows.Rows(); ++r)
  {
    const int64_t n = rows.Node[r];
    const vtkIdType id = static_cast<vtkIdType>(n);
    node->InsertNextValue(n);
    name->InsertNextValue(model.NodeNames->GetValue(id));
    path->InsertNextValue(paths[n]);
    kind->InsertNextValue(model.NodeKinds->GetValue(id));
    parentRow->InsertNextValue(rows.ParentRow[r]);
    depth->InsertNextValue(rows.Depth[r]);
    inCut->InsertNextValue(rows.Cut[r]);
    below->InsertNextValue(static_cast<int>(hierarchy.LeafCount(n)));
    firstLeaf->InsertNextValue(static_cast<int>(hierarchy.LeafBegin(n)));
    lastLeaf->InsertNextValue(static_cast<int>(hierarchy.LeafEnd(n)) - 1);
    size->InsertNextValue(rows.Size[r]);
    values->InsertNextTuple(&rows.Values[r * types]);
    total->InsertNextValue(rows.Total[r]);
    mode->InsertNextValue(rows.Mode[r]);
    modeName->InsertNextValue(rows.Mode[r] >= 0 ? model.TypeNames->GetValue(rows.Mode[r]) : "");
    modeShare->InsertNextValue(rows.ModeProportion[r]);
    const macroscope::Quality q =
      rows.Cut[r] ? aggregation.NodeQuality(n) : macroscope::Quality{ 0.0, 0.0 };
    gain->InsertNextValue(q.Gain / gainScale);
    loss->InsertNextValue(q.Loss / lossScale);
    cutGain += q.Gain / gainScale;
    cutLoss += q.Loss / lossScale;
  }
  if (this->Cut == OPTIMAL)
  {
    cutGain = best.Gain; // the Spatial Aggregation filter's sums
    cutLoss = best.Loss;
  }

  vtkFieldData* fields = table->GetFieldData();
  for (const char* described :
    { "TypeName", "TypeId", "TypeColor", "Metric", "Extensive", "ResourceSelection" })
  {
    if (vtkAbstractArray* array = model.Image->GetFieldData()->GetAbstractArray(described))
    {
      fields->AddArray(array);
    }
  }
  vtkNew<vtkDoubleArray> window;
  window->SetName("TimeWindow");
  window->SetNumberOfComponents(2);
  window->InsertNextTuple2(begin, end);
  fields->AddArray(window);
  vtkNew<vtkDoubleArray> chosen;
  chosen->SetName("Parameter");
  chosen->InsertNextValue(this->Parameter);
  fields->AddArray(chosen);
  vtkNew<vtkDoubleArray> quality;
  quality->SetName("PartitionQuality");
  quality->SetNumberOfComponents(2);
  quality->SetComponentName(0, "Gain");
  quality->SetComponentName(1, "Loss");
  quality->InsertNextTuple2(cutGain, cutLoss);
  fields->AddArray(quality);
  vtkNew<vtkStringArray> constraint;
  constraint->SetName("Constraint");
  constraint->InsertNextValue(this->Cut == OPTIMAL ? "spatial" : "level");
  fields->AddArray(constraint);
  vtkNew<vtkIntArray> level;
  level->SetName("Level");
  level->InsertNextValue(this->Level);
  fields->AddArray(level);
  vtkNew<vtkStringArray> sizeBy;
  sizeBy->SetName("SizeBy");
  sizeBy->InsertNextValue(sizeName);
  fields->AddArray(sizeBy);
  vtkNew<vtkIntArray> computations;
  computations->SetName("QualityComputations");
  computations->InsertNextValue(internal.QualityComputations);
  fields->AddArray(computations);

  // Outputs 1 and 2: the quality curves of the window's spatial aggregation.
  MacroscopeQualityTables::FillCurves(vtkTable::GetData(outputVector, 1), sweep->second);
  MacroscopeQualityTables::FillPlot(vtkTable::GetData(outputVector, 2), sweep->second, this->Parameter);
  this->UpdateProgress(1.0);
  return 1;
}
