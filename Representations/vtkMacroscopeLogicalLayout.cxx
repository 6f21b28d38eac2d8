#include "vtkMacroscopeLogicalLayout.h"

#include "vtkAlgorithm.h"
#include "vtkCellData.h"
#include "vtkIdTypeArray.h"
#include "vtkDataObject.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkPolyData.h"
#include "vtkTable.h"

vtkMacroscopeLogicalLayout::vtkMacroscopeLogicalLayout()
{
  this->SetNumberOfInputPorts(1);
  this->SetNumberOfOutputPorts(NUMBER_OF_OUTPUTS);
}

vtkMacroscopeLogicalLayout::~vtkMacroscopeLogicalLayout() = default;

void vtkMacroscopeLogicalLayout::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "ViewSize: " << this->ViewSize[0] << " " << this->ViewSize[1] << "\n";
  os << indent << "StepWindow: " << this->StepWindow[0] << " " << this->StepWindow[1] << "\n";
  os << indent << "ShowAggregates: " << this->ShowAggregates << "\n";
  os << indent << "MaxMessages: " << this->MaxMessages << "\n";
}

int vtkMacroscopeLogicalLayout::FillInputPortInformation(int, vtkInformation* info)
{
  info->Set(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkTable");
  info->Set(vtkAlgorithm::INPUT_IS_REPEATABLE(), 1);
  return 1;
}

bool vtkMacroscopeLogicalLayout::FindTables(
  vtkInformationVector* inputs, Tables& tables, std::string& problem)
{
  for (int i = 0; i < inputs->GetNumberOfInformationObjects(); ++i)
  {
    auto* table = vtkTable::SafeDownCast(
      inputs->GetInformationObject(i)->Get(vtkDataObject::DATA_OBJECT()));
    if (!table)
    {
      continue; // e.g. the Dendrogram tree beside the tables
    }
    auto has = [table](const char* name) { return table->GetColumnByName(name) != nullptr; };
    vtkTable** slot = nullptr;
    const char* what = "";
    if (has("GlobalStep") && has("Kind") && has("Metric") && has("Location"))
    {
      slot = &tables.Events, what = "Logical Events";
    }
    else if (has("SendEvent") && has("RecvGlobalStep"))
    {
      slot = &tables.Messages, what = "Logical Messages";
    }
    else if (has("ClaraCluster"))
    {
      slot = &tables.Clusters, what = "Clusters";
    }
    else if (has("MetricSum"))
    {
      slot = &tables.Steps, what = "Steps";
    }
    else if (has("Pattern") && has("FirstGlobalStep"))
    {
      slot = &tables.Phases, what = "Phases";
    }
    else if (table->GetNumberOfColumns() == 0)
    {
      continue; // an empty piece (under MPI, the tables may live on one rank)
    }
    else
    {
      problem = "an input table is none of the outputs of Logical Time (Logical Events, "
                "Logical Messages, Clusters, Steps, Phases): its first column is '" +
        std::string(table->GetColumnName(0)) + "'";
      return false;
    }
    if (*slot)
    {
      problem = std::string("two inputs are ") + what + " tables";
      return false;
    }
    *slot = table;
  }
  return true;
}

int vtkMacroscopeLogicalLayout::RequestData(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
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
  if (this->MaxMessages < 0)
  {
    vtkErrorMacro("MaxMessages must be >= 0 (0 draws no message), not " << this->MaxMessages
                                                                        << ".");
    return 0;
  }
  if (this->StepWindow[1] >= this->StepWindow[0] && this->StepWindow[0] < 0)
  {
    vtkErrorMacro("StepWindow starts at a negative global step ("
      << this->StepWindow[0] << "); use (0, -1) for every step.");
    return 0;
  }
  Tables tables;
  std::string problem;
  if (!FindTables(inputVector[0], tables, problem))
  {
    vtkErrorMacro(<< this->GetClassName() << ": " << problem << ".");
    return 0;
  }
  if (!tables.Events)
  {
    if (inputVector[0]->GetNumberOfInformationObjects() > 0 && !tables.Messages &&
      !tables.Clusters && !tables.Steps && !tables.Phases)
    {
      this->UpdateProgress(1.0);
      return 1; // empty pieces only: nothing to draw on this rank
    }
    vtkErrorMacro(<< this->GetClassName()
                  << " needs the Logical Events output of Logical Time among its inputs.");
    return 0;
  }
  if (tables.Events->GetNumberOfRows() == 0)
  {
    // Logical Time fills its tables on the first rank only: the other ranks
    // draw nothing (not even axes, which would be composited twice).
    this->UpdateProgress(1.0);
    return 1;
  }
  const int status = this->Draw(tables, outputs);
  this->UpdateProgress(1.0);
  return status;
}

void vtkMacroscopeLogicalLayout::SelectNoRow(vtkPolyData* marks)
{
  vtkNew<vtkIdTypeArray> ids;
  ids->SetName("vtkOriginalCellIds");
  ids->SetNumberOfTuples(marks->GetNumberOfCells());
  ids->FillValue(-1);
  marks->GetCellData()->AddArray(ids);
}
