#include "MacroscopeModelInput.h"

#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkStreamingDemandDrivenPipeline.h"

namespace MacroscopeModelInput
{
void RequestWholeModel(vtkInformationVector** inputVector, int port)
{
  using SDDP = vtkStreamingDemandDrivenPipeline;
  vtkInformation* inInfo = inputVector[port]->GetInformationObject(0);
  if (inInfo->Has(SDDP::WHOLE_EXTENT()))
  {
    inInfo->Set(SDDP::UPDATE_EXTENT(), inInfo->Get(SDDP::WHOLE_EXTENT()), 6);
  }
  inInfo->Set(SDDP::UPDATE_PIECE_NUMBER(), 0);
  inInfo->Set(SDDP::UPDATE_NUMBER_OF_PIECES(), 1);
}

bool IsLaterPiece(vtkInformation* outInfo)
{
  using SDDP = vtkStreamingDemandDrivenPipeline;
  return outInfo->Has(SDDP::UPDATE_PIECE_NUMBER()) && outInfo->Get(SDDP::UPDATE_PIECE_NUMBER()) > 0;
}
}
