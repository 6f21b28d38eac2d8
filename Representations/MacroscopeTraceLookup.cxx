#include "MacroscopeTraceLookup.h"

#include "MacroscopeTraceInputs.h"

#include "vtkAlgorithm.h"
#include "vtkDataObject.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkNew.h"

#include <string>

bool MacroscopeFindTrace(vtkAlgorithm* producer, vtkInformationVector* found)
{
  for (int hop = 0; producer && hop < 8; ++hop)
  {
    vtkNew<vtkInformationVector> outputs;
    for (int port = 0; port < producer->GetNumberOfOutputPorts(); ++port)
    {
      if (vtkDataObject* data = producer->GetOutputDataObject(port))
      {
        vtkNew<vtkInformation> info;
        info->Set(vtkDataObject::DATA_OBJECT(), data);
        outputs->Append(info);
      }
    }
    MacroscopeTraceInputs trace;
    std::string problem;
    if (trace.Collect(outputs, problem) && trace.States && trace.Hierarchy)
    {
      found->Copy(outputs, 1);
      return true;
    }
    if (producer->GetNumberOfInputPorts() < 1 || producer->GetNumberOfInputConnections(0) != 1)
    {
      return false;
    }
    producer = producer->GetInputAlgorithm(0, 0);
  }
  return false;
}

