#include "vtkMacroscopeModelDifference.h"

#include "MacroscopeModelInput.h"
#include "ModelDifference.h"

#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkExtentTranslator.h"
#include "vtkFieldData.h"
#include "vtkImageData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkIntArray.h"
#include "vtkMacroscopeTypePalette.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointData.h"
#include "vtkSmartPointer.h"
#include "vtkStreamingDemandDrivenPipeline.h"
#include "vtkStringArray.h"
#include "vtkTypeInt64Array.h"
#include "vtkUnsignedCharArray.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

vtkStandardNewMacro(vtkMacroscopeModelDifference);

namespace
{
using SDDP = vtkStreamingDemandDrivenPipeline;
const char* PortNames[] = { "Input (run A)", "Other (run B)" };

// A model input as the core wants it, with the arrays the output copies.
struct ModelInput
{
  macroscope::NamedModel Named;
  std::string Metric;
  vtkDataArray* TypeIds = nullptr;
  vtkDataArray* TypeColors = nullptr;
  vtkStringArray* Selection = nullptr;
  vtkDataArray* TraceSpan = nullptr; // the trace's span, as Time Slicing records it
};

// Reads a Time Slicing model; an empty string when it is one, else the problem.
std::string ReadModel(vtkImageData* image, int port, ModelInput& in)
{
  const std::string notModel = std::string(PortNames[port]) +
    " is not a microscopic model: give it the Model output of Time Slicing or Streamed Time "
    "Slicing";
  if (!image)
  {
    return std::string(PortNames[port]) + " is missing: connect run " + (port ? "B" : "A") +
      "'s model (the Model output of Time Slicing or Streamed Time Slicing)";
  }
  vtkFieldData* fields = image->GetFieldData();
  auto* values = vtkDataArray::SafeDownCast(image->GetPointData()->GetAbstractArray("Value"));
  auto* parents = vtkDataArray::SafeDownCast(fields->GetAbstractArray("NodeParent"));
  auto* names = vtkStringArray::SafeDownCast(fields->GetAbstractArray("NodeName"));
  auto* kinds = vtkStringArray::SafeDownCast(fields->GetAbstractArray("NodeKind"));
  auto* typeNames = vtkStringArray::SafeDownCast(fields->GetAbstractArray("TypeName"));
  auto* metric = vtkStringArray::SafeDownCast(fields->GetAbstractArray("Metric"));
  auto* extensive = vtkDataArray::SafeDownCast(fields->GetAbstractArray("Extensive"));
  if (!values || !parents || !names || !typeNames || !metric || metric->GetNumberOfValues() < 1 ||
    !extensive || extensive->GetNumberOfTuples() < 1)
  {
    return notModel;
  }
  int dims[3];
  image->GetDimensions(dims);
  if (values->GetNumberOfTuples() != vtkIdType(dims[0]) * dims[1] * dims[2] ||
    typeNames->GetNumberOfValues() != dims[2] || names->GetNumberOfValues() < dims[1] ||
    parents->GetNumberOfTuples() != names->GetNumberOfValues())
  {
    return notModel + " (its arrays disagree with its extent)";
  }
  macroscope::MicroscopicModel& m = in.Named.Model;
  m.Grid.Begin = image->GetOrigin()[0] + image->GetExtent()[0] * image->GetSpacing()[0];
  m.Grid.Slices = dims[0];
  m.Grid.End = m.Grid.Begin + dims[0] * image->GetSpacing()[0];
  // The window as Time Slicing wrote it, free of origin + n × spacing rounding.
  auto* window = vtkDataArray::SafeDownCast(fields->GetAbstractArray("TimeWindow"));
  if (window && window->GetNumberOfComponents() == 2 && window->GetNumberOfTuples() > 0 &&
    image->GetExtent()[0] == 0)
  {
    m.Grid.Begin = window->GetComponent(0, 0);
    m.Grid.End = window->GetComponent(0, 1);
  }
  m.Resources = static_cast<uint32_t>(dims[1]);
  m.Types = static_cast<uint32_t>(dims[2]);
  m.Values.resize(static_cast<std::size_t>(values->GetNumberOfTuples()));
  for (vtkIdType i = 0; i < values->GetNumberOfTuples(); ++i)
  {
    m.Values[i] = values->GetComponent(i, 0);
  }
  for (vtkIdType n = 0; n < names->GetNumberOfValues(); ++n)
  {
    in.Named.Parent.push_back(static_cast<int64_t>(parents->GetComponent(n, 0)));
    in.Named.NodeName.push_back(names->GetValue(n));
    in.Named.NodeKind.push_back(kinds && n < kinds->GetNumberOfValues() ? kinds->GetValue(n) : "");
  }
  for (int u = 0; u < dims[2]; ++u)
  {
    in.Named.TypeName.push_back(typeNames->GetValue(u));
  }
  in.Named.Extensive = extensive->GetComponent(0, 0) != 0.0;
  in.Metric = metric->GetValue(0);
  in.TypeIds = vtkDataArray::SafeDownCast(fields->GetAbstractArray("TypeId"));
  in.TypeColors = vtkDataArray::SafeDownCast(fields->GetAbstractArray("TypeColor"));
  in.TraceSpan = vtkDataArray::SafeDownCast(fields->GetAbstractArray("TraceSpan"));
  in.Selection = vtkStringArray::SafeDownCast(fields->GetAbstractArray("ResourceSelection"));
  return {};
}

template <typename Array>
Array* AddField(vtkFieldData* fields, const char* name, int components = 1)
{
  vtkNew<Array> array;
  array->SetName(name);
  array->SetNumberOfComponents(components);
  fields->AddArray(array);
  return array;
}
}

struct vtkMacroscopeModelDifference::Kept
{
  macroscope::ModelDifference Difference;
  vtkSmartPointer<vtkFieldData> Fields;
  vtkTimeStamp Built;
  std::array<int, 6> Announced{ { 0, -1, 0, -1, 0, -1 } };
};

vtkMacroscopeModelDifference::vtkMacroscopeModelDifference()
  : Internal(new Kept)
{
  this->SetNumberOfInputPorts(2);
  this->SetNumberOfOutputPorts(1);
}

vtkMacroscopeModelDifference::~vtkMacroscopeModelDifference() = default;

void vtkMacroscopeModelDifference::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent
     << "ResourceMatching: " << (this->ResourceMatching == BY_NAME ? "by name" : "by rank") << "\n";
  os << indent << "Slices: " << this->Slices << "\n";
  os << indent << "RunNames: " << this->RunNames[0] << ", " << this->RunNames[1] << "\n";
}

void vtkMacroscopeModelDifference::SetRunNames(const char* a, const char* b)
{
  const std::string names[2] = { a ? a : "", b ? b : "" };
  if (names[0] != this->RunNames[0] || names[1] != this->RunNames[1])
  {
    this->RunNames[0] = names[0];
    this->RunNames[1] = names[1];
    this->Modified();
  }
}

int vtkMacroscopeModelDifference::FillInputPortInformation(int, vtkInformation* info)
{
  info->Set(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkImageData");
  // Checked in RequestData, to name the missing run.
  info->Set(vtkAlgorithm::INPUT_IS_OPTIONAL(), 1);
  return 1;
}

int vtkMacroscopeModelDifference::FillOutputPortInformation(int, vtkInformation* info)
{
  info->Set(vtkDataObject::DATA_TYPE_NAME(), "vtkImageData");
  return 1;
}

vtkTypeBool vtkMacroscopeModelDifference::ProcessRequest(
  vtkInformation* request, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  if (request->Has(vtkDemandDrivenPipeline::REQUEST_DATA()))
  {
    return this->RequestData(request, inputVector, outputVector);
  }
  if (request->Has(vtkDemandDrivenPipeline::REQUEST_INFORMATION()))
  {
    return this->RequestInformation(request, inputVector, outputVector);
  }
  if (request->Has(SDDP::REQUEST_UPDATE_EXTENT()))
  {
    for (int port = 0; port < 2; ++port)
    {
      if (inputVector[port]->GetNumberOfInformationObjects() > 0)
      {
        MacroscopeModelInput::RequestWholeModel(inputVector, port);
      }
    }
    return 1;
  }
  return this->Superclass::ProcessRequest(request, inputVector, outputVector);
}

int vtkMacroscopeModelDifference::RequestInformation(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  // The exact shape needs the models' names (by name, the union of the
  // hierarchies; the union of the types): announce what the extents tell,
  // a lower bound of each axis, and the exact shape once computed.
  int whole[2][6];
  double origin[2] = { 0.0, 0.0 };
  double end[2] = { 0.0, 0.0 };
  bool timed = true;
  for (int port = 0; port < 2; ++port)
  {
    vtkInformation* info = inputVector[port]->GetInformationObject(0);
    if (!info || !info->Has(SDDP::WHOLE_EXTENT()))
    {
      return 1; // RequestData reports the missing input
    }
    info->Get(SDDP::WHOLE_EXTENT(), whole[port]);
    if (info->Has(vtkDataObject::ORIGIN()) && info->Has(vtkDataObject::SPACING()))
    {
      origin[port] = info->Get(vtkDataObject::ORIGIN())[0];
      end[port] = origin[port] + (whole[port][1] + 1) * info->Get(vtkDataObject::SPACING())[0];
    }
    else
    {
      timed = false;
    }
  }
  auto size = [&whole](int axis)
  {
    return std::max(whole[0][2 * axis + 1] - whole[0][2 * axis],
             whole[1][2 * axis + 1] - whole[1][2 * axis]) +
      1;
  };
  const int slices = this->Slices > 0 ? this->Slices : size(0);
  std::array<int, 6>& extent = this->Internal->Announced;
  extent = { { 0, slices - 1, 0, size(1) - 1, 0, size(2) - 1 } };
  vtkInformation* outInfo = outputVector->GetInformationObject(0);
  outInfo->Set(SDDP::WHOLE_EXTENT(), extent.data(), 6);
  outInfo->Set(vtkAlgorithm::CAN_PRODUCE_SUB_EXTENT(), 1);
  if (timed && slices > 0)
  {
    const double begin = std::min(origin[0], origin[1]);
    outInfo->Set(vtkDataObject::ORIGIN(), begin, 0.0, 0.0);
    outInfo->Set(vtkDataObject::SPACING(), (std::max(end[0], end[1]) - begin) / slices, 1.0, 1.0);
  }
  else
  {
    outInfo->Remove(vtkDataObject::ORIGIN());
    outInfo->Remove(vtkDataObject::SPACING());
  }
  return 1;
}

int vtkMacroscopeModelDifference::RequestData(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  // An abort stops the run it interrupts; VTK leaves the flag set, which
  // would abort every later run too (docs/progress.md).
  this->SetAbortExecute(0);
  Kept& kept = *this->Internal;
  vtkImageData* images[2] = { nullptr, nullptr };
  for (int port = 0; port < 2; ++port)
  {
    images[port] = inputVector[port]->GetNumberOfInformationObjects() > 0
      ? vtkImageData::GetData(inputVector[port])
      : nullptr;
  }
  // An unchanged difference asked for another extent is served from the cache.
  const vtkMTimeType built = kept.Built.GetMTime();
  if (built > 0 && this->GetMTime() < built && images[0] && images[1] &&
    images[0]->GetMTime() < built && images[1]->GetMTime() < built)
  {
    return this->WriteOutput(outputVector);
  }
  if (this->ResourceMatching != BY_RANK && this->ResourceMatching != BY_NAME)
  {
    vtkErrorMacro(
      "ResourceMatching must be 0 (by rank) or 1 (by name), got " << this->ResourceMatching << ".");
    return 0;
  }
  if (this->Slices < 0 || this->Slices > 1000000)
  {
    vtkErrorMacro("Slices must be 0 (the larger slice count of the two models) or between 1 and "
                  "1000000, got "
      << this->Slices << ".");
    return 0;
  }
  ModelInput in[2];
  for (int port = 0; port < 2; ++port)
  {
    const std::string problem = ReadModel(images[port], port, in[port]);
    if (!problem.empty())
    {
      vtkErrorMacro(<< problem << ".");
      return 0;
    }
  }
  if (in[0].Metric != in[1].Metric)
  {
    vtkErrorMacro("The runs' models measure different metrics: "
      << in[0].Metric << " (Input, run A) and " << in[1].Metric
      << " (Other, run B); slice both with the same Metric and Normalize.");
    return 0;
  }
  this->UpdateProgress(0.2);
  macroscope::DifferenceOptions options;
  options.Matching = this->ResourceMatching == BY_NAME ? macroscope::ResourceMatching::ByName
                                                       : macroscope::ResourceMatching::ByRank;
  options.Slices = this->Slices;
  try
  {
    kept.Difference = macroscope::DiffModels(in[0].Named, in[1].Named, options);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro("Cannot compare the two models: " << error.what() << ".");
    return 0;
  }
  if (this->GetAbortExecute())
  {
    return 1;
  }
  this->UpdateProgress(0.7);

  // The field data of a model, as Time Slicing writes it.
  const macroscope::ModelDifference& d = kept.Difference;
  kept.Fields = vtkSmartPointer<vtkFieldData>::New();
  vtkFieldData* fields = kept.Fields;
  auto* nodeNames = AddField<vtkStringArray>(fields, "NodeName");
  auto* nodeKinds = AddField<vtkStringArray>(fields, "NodeKind");
  auto* nodeParents = AddField<vtkTypeInt64Array>(fields, "NodeParent");
  for (std::size_t n = 0; n < d.Parent.size(); ++n)
  {
    nodeNames->InsertNextValue(d.NodeName[n]);
    nodeKinds->InsertNextValue(d.NodeKind[n]);
    nodeParents->InsertNextValue(d.Parent[n]);
  }
  auto* typeNames = AddField<vtkStringArray>(fields, "TypeName");
  auto* typeIds = AddField<vtkTypeInt64Array>(fields, "TypeId");
  auto* typeColors = AddField<vtkUnsignedCharArray>(fields, "TypeColor", 3);
  for (uint32_t u = 0; u < d.Types; ++u)
  {
    // A's id and colour, or B's for a type only B has.
    const int run = d.TypeOfA[u] >= 0 ? 0 : 1;
    const vtkIdType source = run == 0 ? d.TypeOfA[u] : d.TypeOfB[u];
    typeNames->InsertNextValue(d.TypeName[u]);
    vtkDataArray* ids = in[run].TypeIds;
    typeIds->InsertNextValue(ids && source < ids->GetNumberOfTuples()
        ? static_cast<vtkTypeInt64>(ids->GetComponent(source, 0))
        : -1);
    unsigned char rgb[3];
    vtkDataArray* colors = in[run].TypeColors;
    if (colors && colors->GetNumberOfComponents() == 3 && source < colors->GetNumberOfTuples())
    {
      for (int c = 0; c < 3; ++c)
      {
        rgb[c] = static_cast<unsigned char>(colors->GetComponent(source, c));
      }
    }
    else
    {
      vtkMacroscopeTypePalette::GetColor(d.TypeName[u].c_str(), rgb);
    }
    typeColors->InsertNextTypedTuple(rgb);
  }
  AddField<vtkStringArray>(fields, "Metric")->InsertNextValue(in[0].Metric);
  AddField<vtkIntArray>(fields, "Extensive")->InsertNextValue(in[0].Named.Extensive ? 1 : 0);
  AddField<vtkDoubleArray>(fields, "SliceWidth")->InsertNextValue(d.Grid.Width());
  AddField<vtkDoubleArray>(fields, "TimeWindow", 2)->InsertNextTuple2(d.Grid.Begin, d.Grid.End);
  if (in[0].TraceSpan && in[0].TraceSpan->GetNumberOfComponents() == 2 &&
    in[0].TraceSpan->GetNumberOfTuples() > 0)
  {
    // Run A's span: the mouse zooms the difference's window in it
    // (docs/views.md), through A's Time Slicing and the comparison's links.
    AddField<vtkDoubleArray>(fields, "TraceSpan", 2)->InsertNextTuple(in[0].TraceSpan->GetTuple(0));
  }
  auto* selection = AddField<vtkStringArray>(fields, "ResourceSelection");
  for (vtkIdType i = 0; in[0].Selection && i < in[0].Selection->GetNumberOfValues(); ++i)
  {
    selection->InsertNextValue(in[0].Selection->GetValue(i));
  }
  auto* unmatched = AddField<vtkIntArray>(fields, "UnmatchedResources", 2);
  unmatched->SetComponentName(0, "A");
  unmatched->SetComponentName(1, "B");
  unmatched->InsertNextTuple2(d.UnmatchedA, d.UnmatchedB);
  AddField<vtkStringArray>(fields, "ResourceMatching")
    ->InsertNextValue(this->ResourceMatching == BY_NAME ? "by name" : "by rank");
  if (d.UnmatchedA + d.UnmatchedB > 0)
  {
    vtkWarningMacro(<< d.UnmatchedA << " resource(s) of run A and " << d.UnmatchedB
                    << " of run B have no counterpart in the other run; they count 0 there.");
  }
  kept.Built.Modified();
  return this->WriteOutput(outputVector);
}

int vtkMacroscopeModelDifference::WriteOutput(vtkInformationVector* outputVector)
{
  const Kept& kept = *this->Internal;
  const macroscope::ModelDifference& d = kept.Difference;
  const int whole[6] = { 0, d.Grid.Slices - 1, 0, static_cast<int>(d.Resources) - 1, 0,
    static_cast<int>(d.Types) - 1 };
  vtkInformation* outInfo = outputVector->GetInformationObject(0);
  // The extent asked for, within the difference: all of it when asked for
  // the whole extent announced before the shape was known.
  int extent[6];
  std::copy(whole, whole + 6, extent);
  const int pieces = outInfo->Has(SDDP::UPDATE_NUMBER_OF_PIECES())
    ? outInfo->Get(SDDP::UPDATE_NUMBER_OF_PIECES())
    : 1;
  if (pieces > 1)
  {
    // Piece p of n of the real extent: the piece's UPDATE_EXTENT was cut
    // from the extent announced before the shape was known.
    vtkNew<vtkExtentTranslator> translator;
    if (!translator->PieceToExtentThreadSafe(outInfo->Get(SDDP::UPDATE_PIECE_NUMBER()), pieces, 0,
          const_cast<int*>(whole), extent, vtkExtentTranslator::BLOCK_MODE, 0))
    {
      const int none[6] = { 0, -1, 0, -1, 0, -1 };
      std::copy(none, none + 6, extent);
    }
  }
  else if (outInfo->Has(SDDP::UPDATE_EXTENT()))
  {
    int asked[6];
    outInfo->Get(SDDP::UPDATE_EXTENT(), asked);
    if (!std::equal(asked, asked + 6, kept.Announced.begin()))
    {
      for (int axis = 0; axis < 3; ++axis)
      {
        extent[2 * axis] = std::max(extent[2 * axis], asked[2 * axis]);
        extent[2 * axis + 1] = std::min(extent[2 * axis + 1], asked[2 * axis + 1]);
      }
    }
  }
  outInfo->Set(SDDP::WHOLE_EXTENT(), const_cast<int*>(whole), 6);
  std::copy(whole, whole + 6, this->Internal->Announced.begin());

  vtkImageData* image = vtkImageData::GetData(outputVector, 0);
  image->Initialize();
  image->SetOrigin(d.Grid.Begin, 0.0, 0.0);
  image->SetSpacing(d.Grid.Width(), 1.0, 1.0);
  image->SetExtent(extent);
  image->GetFieldData()->ShallowCopy(kept.Fields);
  vtkNew<vtkStringArray> runNames;
  runNames->SetName("RunNames");
  runNames->InsertNextValue(this->RunNames[0]);
  runNames->InsertNextValue(this->RunNames[1]);
  image->GetFieldData()->AddArray(runNames);
  const std::pair<const char*, const std::vector<double>*> arrays[] = { { "Value", &d.Value },
    { "Difference", &d.Difference }, { "A", &d.A }, { "B", &d.B } };
  for (const auto& named : arrays)
  {
    vtkNew<vtkDoubleArray> values;
    values->SetName(named.first);
    values->SetNumberOfValues(image->GetNumberOfPoints());
    vtkIdType point = 0;
    for (int u = extent[4]; u <= extent[5]; ++u)
    {
      for (int r = extent[2]; r <= extent[3]; ++r)
      {
        for (int t = extent[0]; t <= extent[1]; ++t)
        {
          values->SetValue(point++, (*named.second)[d.Index(r, t, u)]);
        }
      }
    }
    if (named.first == arrays[0].first)
    {
      image->GetPointData()->SetScalars(values);
    }
    else
    {
      image->GetPointData()->AddArray(values);
    }
  }
  this->UpdateProgress(1.0);
  return 1;
}
