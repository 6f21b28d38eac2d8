#include "vtkMacroscopeResourceTreemap.h"

#include "Aggregation.h"
#include "ResourceTreemap.h"
#include "TreemapWindow.h"
#include "WindowIntegration.h"

#include "MacroscopeCoreRun.h"
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

// "state duration" -> "State duration": the name of a size.
std::string Capitalized(std::string text)
{
  if (!text.empty())
  {
    text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  }
  return text;
}

// The names of the first types of `names`, for an error message.
std::string SomeTypes(vtkStringArray* names, uint32_t types)
{
  std::ostringstream valid;
  for (uint32_t u = 0; u < types && u < 5; ++u)
  {
    valid << (u ? ", " : "") << "\"" << names->GetValue(u) << "\"";
  }
  return valid.str() + (types > 5 ? ", ..." : "");
}

// A two-component double array of one tuple.
void AddPair(vtkFieldData* fields, const char* name, double first, double second,
  const char* firstName = nullptr, const char* secondName = nullptr)
{
  vtkNew<vtkDoubleArray> array;
  array->SetName(name);
  array->SetNumberOfComponents(2);
  if (firstName)
  {
    array->SetComponentName(0, firstName);
    array->SetComponentName(1, secondName);
  }
  array->InsertNextTuple2(first, second);
  fields->AddArray(array);
}
}

// The parts of a model the filter reads, or null members when it is not
// one.
struct vtkMacroscopeResourceTreemap::ModelArrays
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
    return this->Values && this->Parents && this->NodeNames && this->NodeKinds && this->TypeNames &&
      this->Extensive && this->Metric && this->Metric->GetNumberOfValues() > 0 &&
      this->Image->GetNumberOfPoints() > 0;
  }

  std::vector<double> Copy() const { return MacroscopeColumnValues<double>(this->Values); }

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

  int Dimension(int axis) const { return this->Image->GetDimensions()[axis]; }
  bool IsExtensive() const { return this->Extensive->GetComponent(0, 0) != 0.0; }
};

// The areas: what they measure (SizeBy), the type of SIZE_TYPE, and the
// name the table gives them.
struct vtkMacroscopeResourceTreemap::Areas
{
  macroscope::TreemapSizing Sizing = macroscope::TreemapSizing::Total;
  uint32_t Type = 0;
  std::string Name;
};

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
  const macroscope::SliceAxis axis{ inInfo->Get(vtkDataObject::ORIGIN())[0],
    inInfo->Get(vtkDataObject::SPACING())[0] };
  const int* extent = inInfo->Get(SDDP::WHOLE_EXTENT());
  const std::vector<double> times =
    macroscope::AnimationTimes(axis, extent[1] - extent[0] + 1, this->WindowSlices);
  if (times.empty())
  {
    return 1; // RequestData reports the bad WindowSlices
  }
  const double range[2] = { times.front(), times.back() };
  for (int port = 0; port < this->GetNumberOfOutputPorts(); ++port)
  {
    vtkInformation* info = outputVector->GetInformationObject(port);
    info->Set(SDDP::TIME_STEPS(), times.data(), static_cast<int>(times.size()));
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
  for (int port = 0; timed && port < this->GetNumberOfOutputPorts(); ++port)
  {
    vtkDataObject* output = vtkDataObject::GetData(outputVector, port);
    output->GetInformation()->Set(vtkDataObject::DATA_TIME_STEP(), requested);
  }
  if (MacroscopeModelInput::IsLaterPiece(outInfo))
  {
    return 1; // piece 0 holds the tables
  }
  if (!this->CheckProperties())
  {
    return 0;
  }
  const ModelArrays model(vtkImageData::GetData(inputVector[0]));
  if (!model.Complete())
  {
    vtkErrorMacro(
      "The input is not a microscopic model: give it the Model output of Time Slicing.");
    return 0;
  }
  const ModelArrays sizes(
    this->GetNumberOfInputConnections(1) > 0 ? vtkImageData::GetData(inputVector[1]) : nullptr);
  double window[2];
  Areas areas;
  // The window and the areas' source are checked before any computation.
  if (!this->ChooseWindow(model, timed, requested, window) ||
    !this->ChooseAreas(model, sizes, areas) || !this->KeepModel(model))
  {
    return 0;
  }
  const int integrated = this->KeepWindowIntegral(model, window);
  if (integrated != 1)
  {
    return integrated == 0 ? 0 : 1;
  }
  this->UpdateProgress(0.5);
  Internals& internal = *this->Internal;
  internal.Aggregation->SetNormalizeQualities(this->NormalizeQualities);
  auto sweep = internal.Sweeps.find(this->NormalizeQualities);
  if (sweep == internal.Sweeps.end())
  {
    sweep = internal.Sweeps.emplace(this->NormalizeQualities, internal.Aggregation->AllPartitions())
              .first;
  }
  if (this->GetAbortExecute())
  {
    return 1;
  }
  this->UpdateProgress(0.7);
  std::vector<int64_t> cut;
  double bestQuality[2] = { 0.0, 0.0 };
  std::vector<double> resourceSizes;
  if (!this->ChooseCut(cut, bestQuality[0], bestQuality[1]) ||
    !this->SizeResources(sizes, areas, window, resourceSizes) ||
    !this->WriteTable(
      vtkTable::GetData(outputVector, 0), model, cut, resourceSizes, window, areas, bestQuality))
  {
    return 0;
  }

  // Outputs 1 and 2: the quality curves of the window's spatial aggregation.
  MacroscopeQualityTables::FillCurves(vtkTable::GetData(outputVector, 1), sweep->second);
  MacroscopeQualityTables::FillPlot(
    vtkTable::GetData(outputVector, 2), sweep->second, this->Parameter);
  this->UpdateProgress(1.0);
  return 1;
}

bool vtkMacroscopeResourceTreemap::CheckProperties()
{
  if (this->Cut != LEVEL && this->Cut != OPTIMAL)
  {
    vtkErrorMacro("Unknown Cut " << this->Cut << " (0 Level, 1 Optimal).");
    return false;
  }
  if (this->Level < -1)
  {
    vtkErrorMacro("Level must be -1 (the resources) or a depth >= 0 (got " << this->Level << ").");
    return false;
  }
  if (!(this->Parameter >= 0.0 && this->Parameter <= 1.0))
  {
    vtkErrorMacro("Parameter must be in [0, 1] (got " << this->Parameter << ").");
    return false;
  }
  if (this->SizeBy < SIZE_TOTAL || this->SizeBy > SIZE_INPUT)
  {
    vtkErrorMacro(
      "Unknown SizeBy " << this->SizeBy << " (0 Total, 1 Resources, 2 Type, 3 Sizes Input).");
    return false;
  }
  if (this->WindowSlices < 1)
  {
    vtkErrorMacro("WindowSlices must be at least 1 (got " << this->WindowSlices << ").");
    return false;
  }
  return true;
}

bool vtkMacroscopeResourceTreemap::ChooseWindow(
  const ModelArrays& model, bool timed, double requested, double window[2])
{
  // A run of slices when animated, else TimeWindow.
  const int slices = model.Dimension(0);
  const macroscope::SliceAxis axis = model.Axis();
  const double modelEnd = axis.Origin + slices * axis.Width;
  if (this->AnimateSlices)
  {
    if (this->WindowSlices > slices)
    {
      vtkErrorMacro(
        "WindowSlices (" << this->WindowSlices << ") exceeds the model's " << slices << " slices.");
      return false;
    }
    const auto run = macroscope::AnimationWindow(
      axis, slices, this->WindowSlices, timed ? requested : std::nan(""));
    window[0] = run.first;
    window[1] = run.second;
    return true;
  }
  window[0] = this->TimeWindow[0];
  window[1] = this->TimeWindow[1] == 0.0 ? modelEnd : this->TimeWindow[1];
  if (!macroscope::WindowOverlapsModel(axis, slices, window[0], window[1]))
  {
    vtkErrorMacro("TimeWindow (" << this->TimeWindow[0] << ", " << this->TimeWindow[1]
                                 << ") does not overlap the model's window [" << axis.Origin << ", "
                                 << modelEnd << "] s.");
    return false;
  }
  return true;
}

bool vtkMacroscopeResourceTreemap::ChooseAreas(
  const ModelArrays& model, const ModelArrays& sizes, Areas& areas)
{
  const auto types = static_cast<uint32_t>(model.Dimension(2));
  switch (this->SizeBy)
  {
    case SIZE_TOTAL:
      areas.Name = Capitalized(model.Metric->GetValue(0));
      return true;
    case SIZE_RESOURCES:
      areas.Sizing = macroscope::TreemapSizing::Resources;
      areas.Name = "Resources";
      return true;
    case SIZE_TYPE:
      areas.Sizing = macroscope::TreemapSizing::Type;
      areas.Type = types;
      for (uint32_t u = 0; u < types; ++u)
      {
        areas.Type = model.TypeNames->GetValue(u) == this->SizeType ? u : areas.Type;
      }
      if (areas.Type < types)
      {
        areas.Name = "Type: " + this->SizeType;
        return true;
      }
      vtkErrorMacro("SizeType \"" << this->SizeType << "\" is not a type of the model (its "
                                  << types << " types include " << SomeTypes(model.TypeNames, types)
                                  << ").");
      return false;
    default:
      break;
  }
  if (!sizes.Image)
  {
    vtkErrorMacro("SizeBy is Sizes Input, but no Sizes input is connected: give it a Time "
                  "Slicing Model of the same trace.");
    return false;
  }
  if (!sizes.Complete())
  {
    vtkErrorMacro("The Sizes input is not a microscopic model: give it the Model output of "
                  "Time Slicing.");
    return false;
  }
  bool same = sizes.NodeNames->GetNumberOfValues() == model.NodeNames->GetNumberOfValues() &&
    sizes.Dimension(1) == model.Dimension(1);
  for (vtkIdType n = 0; same && n < model.NodeNames->GetNumberOfValues(); ++n)
  {
    same = sizes.NodeNames->GetValue(n) == model.NodeNames->GetValue(n);
  }
  if (!same)
  {
    vtkErrorMacro("The Sizes input's model has other resources than the model ("
      << sizes.Dimension(1) << " resources, " << model.Dimension(1)
      << " in the model; their NodeName must be equal): slice it with the same "
         "ResourceLevel and Resources.");
    return false;
  }
  areas.Name = Capitalized(sizes.Metric->GetValue(0));
  return true;
}

bool vtkMacroscopeResourceTreemap::KeepModel(const ModelArrays& model)
{
  // The model and its hierarchy, copied once per model.
  Internals& internal = *this->Internal;
  if (internal.ModelObject == model.Image && internal.ModelTime == model.Image->GetMTime() &&
    internal.Hierarchy)
  {
    return true;
  }
  internal.Aggregation.reset();
  internal.Sweeps.clear();
  internal.Hierarchy.reset();
  internal.Values = model.Copy();
  internal.Model = model.View(internal.Values);
  const std::vector<int64_t> parent = MacroscopeColumnValues<int64_t>(model.Parents);
  try
  {
    internal.Model.Validate();
    internal.Hierarchy = std::make_unique<macroscope::AggregationHierarchy>(
      parent, static_cast<uint32_t>(model.Dimension(1)));
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("Cannot use this model: " << error.what());
    return false;
  }
  if (model.NodeNames->GetNumberOfValues() != static_cast<vtkIdType>(parent.size()) ||
    model.NodeKinds->GetNumberOfValues() != static_cast<vtkIdType>(parent.size()) ||
    model.TypeNames->GetNumberOfValues() < static_cast<vtkIdType>(model.Dimension(2)))
  {
    internal.Hierarchy.reset();
    vtkErrorMacro("The model's NodeName, NodeKind or TypeName do not match its shape.");
    return false;
  }
  internal.ModelObject = model.Image;
  internal.ModelTime = model.Image->GetMTime();
  return true;
}

int vtkMacroscopeResourceTreemap::KeepWindowIntegral(
  const ModelArrays& model, const double window[2])
{
  // The window's integral and its qualities, once per window.
  Internals& internal = *this->Internal;
  if (internal.Aggregation && internal.Begin == window[0] && internal.End == window[1])
  {
    return 1;
  }
  internal.Aggregation.reset();
  internal.Sweeps.clear();
  const int status = MacroscopeRunCore<macroscope::WindowIntegrationAborted>(this,
    "Cannot aggregate this window", "Resource Treemap aborted.",
    [&]
    {
      internal.Integral = macroscope::IntegrateWindow(internal.Model, model.Axis(), window[0],
        window[1], model.IsExtensive(),
        [this](double fraction)
        {
          this->UpdateProgress(0.4 * fraction);
          return !this->GetAbortExecute();
        });
      internal.OneSlice = macroscope::OneSliceModel(internal.Integral);
      internal.Aggregation = std::make_unique<macroscope::SpatialAggregation>(
        macroscope::ModelView{
          internal.OneSlice.data(), 1, internal.Integral.Resources, internal.Integral.Types },
        *internal.Hierarchy);
    });
  if (status == 1)
  {
    internal.Begin = window[0];
    internal.End = window[1];
    ++internal.QualityComputations;
  }
  return status;
}

bool vtkMacroscopeResourceTreemap::ChooseCut(
  std::vector<int64_t>& cut, double& bestGain, double& bestLoss)
{
  if (this->Cut == OPTIMAL)
  {
    const macroscope::Partition best = this->Internal->Aggregation->Best(this->Parameter);
    for (const macroscope::AggregatePart& part : best.Parts)
    {
      cut.push_back(part.Node);
    }
    bestGain = best.Gain;
    bestLoss = best.Loss;
    return true;
  }
  try
  {
    cut = macroscope::LevelCut(*this->Internal->Hierarchy, this->Level);
  }
  catch (const std::invalid_argument& error)
  {
    vtkErrorMacro("Level cannot cut the model: " << error.what() << ".");
    return false;
  }
  return true;
}

bool vtkMacroscopeResourceTreemap::SizeResources(const ModelArrays& sizes, const Areas& areas,
  const double window[2], std::vector<double>& resourceSizes)
{
  if (this->SizeBy != SIZE_INPUT)
  {
    resourceSizes = macroscope::ResourceSizes(this->Internal->Integral, areas.Sizing, areas.Type);
    return true;
  }
  try
  {
    const std::vector<double> values = sizes.Copy();
    const macroscope::ModelView view = sizes.View(values);
    view.Validate();
    resourceSizes = macroscope::ResourceSizes(
      macroscope::IntegrateWindow(view, sizes.Axis(), window[0], window[1], sizes.IsExtensive()),
      macroscope::TreemapSizing::Total);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("Cannot use the Sizes input: " << error.what() << ".");
    return false;
  }
  return true;
}

bool vtkMacroscopeResourceTreemap::WriteTable(vtkTable* table, const ModelArrays& model,
  const std::vector<int64_t>& cut, const std::vector<double>& resourceSizes, const double window[2],
  const Areas& areas, const double bestQuality[2])
{
  const Internals& internal = *this->Internal;
  const macroscope::AggregationHierarchy& hierarchy = *internal.Hierarchy;
  const uint32_t types = internal.Integral.Types;
  macroscope::TreemapRows rows;
  std::vector<std::string> paths;
  try
  {
    rows = macroscope::BuildTreemap(hierarchy, cut, internal.Integral.Values, types, resourceSizes);
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
    return false;
  }
  this->UpdateProgress(0.8);
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
  const macroscope::TreemapQualities quality =
    macroscope::RowQualities(rows, *internal.Aggregation, this->NormalizeQualities);
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
    gain->InsertNextValue(quality.Gain[r]);
    loss->InsertNextValue(quality.Loss[r]);
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
  AddPair(fields, "TimeWindow", window[0], window[1]);
  MacroscopeAddFieldValue<vtkDoubleArray>(fields, "Parameter", this->Parameter);
  // An optimal cut's qualities are the Spatial Aggregation filter's sums.
  const bool optimal = this->Cut == OPTIMAL;
  AddPair(fields, "PartitionQuality", optimal ? bestQuality[0] : quality.CutGain,
    optimal ? bestQuality[1] : quality.CutLoss, "Gain", "Loss");
  MacroscopeAddFieldValue<vtkStringArray>(fields, "Constraint", optimal ? "spatial" : "level");
  MacroscopeAddFieldValue<vtkIntArray>(fields, "Level", this->Level);
  MacroscopeAddFieldValue<vtkStringArray>(fields, "SizeBy", areas.Name);
  MacroscopeAddFieldValue<vtkIntArray>(fields, "QualityComputations", internal.QualityComputations);
  return true;
}
