#include "vtkMacroscopeOverviewLayout.h"

#include "MacroscopeChart.h"
#include "TemporalOverview.h"
#include "TypeColorOverrides.h"

#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkNew.h"
#include "vtkPolyData.h"
#include "vtkTable.h"

#include <cmath>

vtkMacroscopeOverviewLayout::vtkMacroscopeOverviewLayout()
  : ParsedTypeColors(std::make_unique<macroscope::TypeColorOverrides>())
{
  this->SetNumberOfInputPorts(1);
  this->SetNumberOfOutputPorts(NUMBER_OF_OUTPUTS);
}

vtkMacroscopeOverviewLayout::~vtkMacroscopeOverviewLayout() = default;

void vtkMacroscopeOverviewLayout::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "ViewSize: " << this->ViewSize[0] << " " << this->ViewSize[1] << "\n";
  os << indent << "TypeColors: " << this->TypeColors.size() / 2 << " pairs\n";
}

const macroscope::TypeColorOverrides& vtkMacroscopeOverviewLayout::GetTypeColorOverrides() const
{
  return *this->ParsedTypeColors;
}

int vtkMacroscopeOverviewLayout::FillInputPortInformation(int, vtkInformation* info)
{
  info->Set(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkTable");
  return 1;
}

int vtkMacroscopeOverviewLayout::RequestData(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  // An abort stops the run it interrupts; VTK leaves the flag set, which
  // would abort every later run too (docs/progress.md).
  this->SetAbortExecute(0);
  vtkPolyData* outputs[NUMBER_OF_OUTPUTS];
  for (int port = 0; port < NUMBER_OF_OUTPUTS; ++port)
  {
    outputs[port] = vtkPolyData::GetData(outputVector, port);
    outputs[port]->Initialize();
  }
  this->UpdateProgress(0.0);
  if (this->ViewSize[0] < 1 || this->ViewSize[1] < 1)
  {
    vtkErrorMacro("ViewSize must be at least 1 x 1 pixels, not " << this->ViewSize[0] << " x "
                                                                 << this->ViewSize[1] << ".");
    return 0;
  }
  std::string problem;
  if (!MacroscopeChart::ParseTypeColors(this->TypeColors, *this->ParsedTypeColors, problem))
  {
    vtkErrorMacro("TypeColors: " << problem << ".");
    return 0;
  }
  return this->Draw(vtkTable::GetData(inputVector[0], 0), outputs);
}

void vtkMacroscopeOverviewLayout::AddTimeNavigation(
  vtkTable* model, vtkPolyData* outputs[NUMBER_OF_OUTPUTS], double width, double begin, double end)
{
  vtkNew<vtkDoubleArray> axis;
  axis->SetName("TimeAxis");
  axis->SetNumberOfComponents(4);
  const double tuple[4] = { 0.0, width, begin, end };
  axis->InsertNextTuple(tuple);
  vtkAbstractArray* span = model ? model->GetFieldData()->GetAbstractArray("TraceSpan") : nullptr;
  for (int port = 0; port < NUMBER_OF_OUTPUTS; ++port)
  {
    outputs[port]->GetFieldData()->AddArray(axis);
    if (span)
    {
      outputs[port]->GetFieldData()->AddArray(span);
    }
  }
}

std::string vtkMacroscopeOverviewLayout::PartitionTitleOf(vtkTable* partition, bool withResources)
{
  vtkFieldData* fields = partition->GetFieldData();
  auto* parameter = vtkDataArray::SafeDownCast(fields->GetAbstractArray("Parameter"));
  auto* shape = vtkDataArray::SafeDownCast(fields->GetAbstractArray("ModelShape"));
  const bool hasShape =
    shape && shape->GetNumberOfComponents() == 3 && shape->GetNumberOfTuples() > 0;
  return macroscope::PartitionTitle(
    parameter && parameter->GetNumberOfTuples() > 0 ? parameter->GetComponent(0, 0) : std::nan(""),
    partition->GetNumberOfRows(), hasShape ? static_cast<int64_t>(shape->GetComponent(0, 0)) : 0,
    withResources && hasShape ? static_cast<int64_t>(shape->GetComponent(0, 1)) : 0);
}

void vtkMacroscopeOverviewLayout::ClearTypeColors()
{
  if (!this->TypeColors.empty())
  {
    this->TypeColors.clear();
    this->Modified();
  }
}

void vtkMacroscopeOverviewLayout::AddTypeColor(const char* entry)
{
  this->TypeColors.emplace_back(entry ? entry : "");
  this->Modified();
}

void vtkMacroscopeOverviewLayout::SetTypeColors(const std::vector<std::string>& entries)
{
  if (entries != this->TypeColors)
  {
    this->TypeColors = entries;
    this->Modified();
  }
}
