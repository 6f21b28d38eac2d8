#include "MacroscopeTraceLookup.h"

#include "MacroscopeTraceInputs.h"
#include "vtkInformationDataObjectMetaDataKey.h"
#include "vtkMacroscopeTraceKeys.h"

#include "vtkAlgorithm.h"
#include "vtkDataObject.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkNew.h"
#include "vtkTable.h"
#include "vtkTree.h"

#include <string>

namespace
{
/// How far upstream a trace is looked for: ParaView's pass-throughs and a
/// user's row filters, not a whole pipeline.
constexpr int MaximumHops = 8;

/// The algorithm feeding `producer`'s only input connection, if it has one.
vtkAlgorithm* OnlyInput(vtkAlgorithm* producer)
{
  if (producer->GetNumberOfInputPorts() < 1 || producer->GetNumberOfInputConnections(0) != 1)
  {
    return nullptr;
  }
  return producer->GetInputAlgorithm(0, 0);
}
}

bool MacroscopeFindTrace(vtkAlgorithm* producer, vtkInformationVector* found)
{
  for (int hop = 0; producer && hop < MaximumHops; ++hop)
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
    producer = OnlyInput(producer);
  }
  return false;
}

void MacroscopeFindDefinitions(vtkAlgorithm* producer, vtkTree*& hierarchy, vtkTable*& types)
{
  for (int hop = 0; producer && hop < MaximumHops; ++hop)
  {
    bool published = false;
    for (int port = 0; port < producer->GetNumberOfOutputPorts(); ++port)
    {
      vtkInformation* info = producer->GetOutputInformation(port);
      if (info && info->Has(vtkMacroscopeTraceKeys::DEFINITIONS()))
      {
        vtkDataObject* definitions = info->Get(vtkMacroscopeTraceKeys::DEFINITIONS());
        hierarchy = hierarchy ? hierarchy : vtkTree::SafeDownCast(definitions);
        types = types ? types : vtkTable::SafeDownCast(definitions);
        published = true;
      }
    }
    if (published)
    {
      return; // the nearest publisher is the trace; never mix two traces
    }
    producer = OnlyInput(producer);
  }
}
